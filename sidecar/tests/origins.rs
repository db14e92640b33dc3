//! The two origins: the public site (`public_app`) serves no route of the panel and sets no
//! cookie; the panel (`admin_app`, `ADMIN_ORIGIN`) serves its page with its own policy, no
//! public page, previews sandboxed, and refuses what a browser says comes from elsewhere —
//! the public site included.

use crate::common;

use actix_web::http::{header, Method, StatusCode};
use actix_web::test;
use common::{send, setup, signed_in, PANEL_ORIGIN};
use serde_json::json;

/// Every route of the panel's API, as method and path.
const ADMIN_ROUTES: [(&str, &str); 20] = [
    ("POST", "/api/auth/login"),
    ("GET", "/api/auth/session"),
    ("POST", "/api/auth/logout"),
    ("GET", "/api/pages"),
    ("PUT", "/api/pages/pages/cennik"),
    ("GET", "/api/pages/pages/cennik/revisions"),
    ("POST", "/api/preview/pages/cennik"),
    ("GET", "/api/history?doc=cennik.yaml"),
    ("POST", "/api/history/restore"),
    (
        "GET",
        "/api/preview/version?doc=pages/cennik&revision=1&side=before",
    ),
    ("GET", "/api/drafts"),
    ("GET", "/api/deleted"),
    ("GET", "/api/articles/slug?title=Nowy"),
    ("POST", "/api/articles"),
    ("GET", "/api/prices"),
    ("GET", "/api/facts"),
    ("GET", "/api/placeholders"),
    ("GET", "/api/images"),
    ("GET", "/api/messages"),
    ("GET", "/api/messages/export?email=anna%40example.pl"),
];

fn request(method: &str, path: &str) -> test::TestRequest {
    let method = Method::from_bytes(method.as_bytes()).expect("a method");
    test::TestRequest::default().method(method).uri(path)
}

fn csp(answer: &common::Answer) -> String {
    answer
        .headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[actix_rt::test]
async fn no_route_of_the_panel_answers_on_the_public_site_even_with_a_session() {
    let s = setup(&[]);
    let cookie = signed_in(&admin_app!(s)).await;
    let site = public_app!(s);
    for (method, path) in ADMIN_ROUTES {
        let answer = send(
            &site,
            request(method, path)
                .cookie(cookie.clone())
                .set_json(json!({})),
        )
        .await;
        let expected = match method {
            "GET" => StatusCode::NOT_FOUND,
            _ => StatusCode::METHOD_NOT_ALLOWED,
        };
        assert_eq!(answer.status, expected, "{method} {path}");
        assert!(
            !answer.text.contains("\"email\"") && !answer.text.contains("\"messages\""),
            "{method} {path}: {}",
            answer.text
        );
        if method == "GET" {
            assert!(
                answer.text.contains("Unexpected Application Error!"),
                "{path}"
            );
        }
        assert!(
            answer.headers.get(header::SET_COOKIE).is_none(),
            "{method} {path}"
        );
    }
    let health = send(&site, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(health.status, StatusCode::OK);
    let token = send(&site, test::TestRequest::get().uri("/api/contact/token")).await;
    assert_eq!(token.status, StatusCode::OK);
}

#[actix_rt::test]
async fn the_panels_address_on_the_public_site_leads_to_the_panels_origin() {
    let s = setup(&[]);
    let site = public_app!(s);
    for path in ["/administratormagda", "/administratormagda/"] {
        let answer = send(&site, test::TestRequest::get().uri(path)).await;
        assert_eq!(answer.status, StatusCode::FOUND, "{path}");
        assert_eq!(
            answer.headers.get(header::LOCATION).expect("location"),
            &format!("{PANEL_ORIGIN}/administratormagda")
        );
        assert!(!answer.text.contains("Panel Administracyjny"));
    }
    let robots = send(&site, test::TestRequest::get().uri("/robots.txt")).await;
    assert!(robots.text.contains("Disallow: /administratormagda"));
    assert!(
        !s.dir.path().join("dist/administratormagda").exists(),
        "the panel is not published with the public site"
    );
    let production = setup(&[
        ("ADMIN_ORIGIN", "https://panel.gabinet-harmonia.pl"),
        ("PUBLIC_ORIGIN", "https://gabinet-harmonia.pl"),
    ]);
    let site = public_app!(production);
    let answer = send(&site, test::TestRequest::get().uri("/administratormagda")).await;
    assert_eq!(
        answer.headers.get(header::LOCATION).expect("location"),
        "https://panel.gabinet-harmonia.pl/administratormagda"
    );
}

#[actix_rt::test]
async fn the_panels_origin_serves_its_page_with_its_own_policy_and_no_public_page() {
    let s = setup(&[]);
    let panel = admin_app!(s);
    let page = send(&panel, test::TestRequest::get().uri("/administratormagda")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("<h1>Panel Administracyjny</h1>"));
    let policy = csp(&page);
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(policy.contains(directive), "{directive}: {policy}");
    }
    assert!(!policy.contains("https:"), "no third party: {policy}");
    assert!(
        !page.text.contains("googletagmanager") && !page.text.contains("callpage"),
        "no analytics or widget on the panel"
    );
    let stylesheet = page
        .text
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.starts_with("/assets/style."))
        .expect("the panel's stylesheet")
        .to_string();
    let css = send(&panel, test::TestRequest::get().uri(&stylesheet)).await;
    assert_eq!(css.status, StatusCode::OK);
    for (path, to) in [
        ("/administratormagda/", "/administratormagda"),
        ("/", "http://127.0.0.1:8080/"),
        ("/cennik", "http://127.0.0.1:8080/cennik"),
        (
            "/blog/terapia-cbt?x=1",
            "http://127.0.0.1:8080/blog/terapia-cbt?x=1",
        ),
    ] {
        let answer = send(&panel, test::TestRequest::get().uri(path)).await;
        assert_eq!(answer.status, StatusCode::FOUND, "{path}");
        assert_eq!(answer.headers.get(header::LOCATION).expect(path), to);
        assert!(!answer.text.contains("<script"), "{path}");
    }
    let other = send(&panel, test::TestRequest::get().uri("/api/messages")).await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);
    assert!(csp(&other).contains("sandbox"), "{}", csp(&other));
    assert_eq!(
        other
            .headers
            .get("cross-origin-resource-policy")
            .expect("CORP"),
        "same-origin"
    );
    assert!(other.headers.get("access-control-allow-origin").is_none());
}

#[actix_rt::test]
async fn a_preview_is_sandboxed_and_carries_no_script() {
    let s = setup(&[]);
    let panel = admin_app!(s);
    let cookie = signed_in(&panel).await;
    let answer = send(
        &panel,
        test::TestRequest::post()
            .uri("/api/preview/pages/cennik")
            .cookie(cookie)
            .insert_header((header::ORIGIN, PANEL_ORIGIN))
            .set_json(
                json!({ "content": { "sections": [{ "type": "text", "content": "Nowe ceny." }] } }),
            ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(answer.text.contains("Nowe ceny."));
    let policy = csp(&answer);
    assert!(policy.starts_with("sandbox;"), "{policy}");
    assert!(
        !policy.contains("allow-same-origin") && !policy.contains("allow-scripts"),
        "an opaque origin where no script runs: {policy}"
    );
    assert!(!policy.contains("script-src"), "{policy}");
    assert!(!answer.text.contains("<script"), "no script to run");
}

#[actix_rt::test]
async fn what_a_browser_says_comes_from_the_public_site_cannot_read_or_change_the_panel() {
    let s = setup(&[]);
    let panel = admin_app!(s);
    let cookie = signed_in(&panel).await;
    let read = |headers: &[(&'static str, &'static str)]| {
        let mut req = test::TestRequest::get()
            .uri("/api/messages")
            .cookie(cookie.clone());
        for h in headers {
            req = req.insert_header(*h);
        }
        req
    };
    for (headers, expected) in [
        (
            vec![("origin", "http://127.0.0.1:8080")],
            StatusCode::FORBIDDEN,
        ),
        (vec![("sec-fetch-site", "same-site")], StatusCode::FORBIDDEN),
        (
            vec![("sec-fetch-site", "cross-site")],
            StatusCode::FORBIDDEN,
        ),
        (vec![("sec-fetch-site", "same-origin")], StatusCode::OK),
        (
            vec![("origin", PANEL_ORIGIN), ("sec-fetch-site", "same-origin")],
            StatusCode::OK,
        ),
        (vec![("sec-fetch-site", "none")], StatusCode::OK),
    ] {
        let answer = send(&panel, read(&headers)).await;
        assert_eq!(answer.status, expected, "{headers:?}: {}", answer.text);
    }
    let save = test::TestRequest::put()
        .uri("/api/prices")
        .cookie(cookie)
        .insert_header((header::ORIGIN, "http://127.0.0.1:8080"))
        .set_json(json!({ "items": [], "version": "x" }));
    let answer = send(&panel, save).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    assert_eq!(
        answer.body["error"],
        "Żądanie z innej witryny zostało odrzucone."
    );
}
