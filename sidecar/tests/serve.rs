//! The sidecar serving a real build of the site from memory, through the app `run()` serves.

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::setup;

fn built_site() -> common::Setup {
    setup(&[])
}

fn h<B>(resp: &actix_web::dev::ServiceResponse<B>, name: header::HeaderName) -> String {
    resp.headers()
        .get(&name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

async fn body_text<B: actix_web::body::MessageBody>(
    resp: actix_web::dev::ServiceResponse<B>,
) -> String {
    String::from_utf8(test::read_body(resp).await.to_vec()).expect("utf-8 body")
}

#[actix_rt::test]
async fn pages_are_served_as_html_with_the_short_policy_of_the_rules() {
    let dir = built_site();
    let app = public_app!(dir);
    for (path, heading) in [
        ("/", "Znajdź swoją ścieżkę do harmonii"),
        ("/uslugi/terapia-par", "Konsultacje dla par"),
        ("/pilna-pomoc", "116"),
        ("/cennik", "Cennik"),
    ] {
        let resp = test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert_eq!(h(&resp, header::CONTENT_TYPE), "text/html; charset=utf-8");
        assert_eq!(h(&resp, header::CACHE_CONTROL), site::headers::SHORT_CACHE);
        assert!(body_text(resp).await.contains(heading), "{path}");
    }
}

#[actix_rt::test]
async fn trailing_slashes_and_index_files_redirect_to_clean_urls() {
    let dir = built_site();
    let app = public_app!(dir);
    for (from, to) in [
        ("/uslugi/", "/uslugi"),
        ("/blog/index.html", "/blog"),
        ("/o-mnie/?a=1", "/o-mnie?a=1"),
    ] {
        let resp = test::call_service(&app, test::TestRequest::get().uri(from).to_request()).await;
        assert_eq!(resp.status(), StatusCode::PERMANENT_REDIRECT, "{from}");
        assert_eq!(h(&resp, header::LOCATION), to, "{from}");
    }
}

#[actix_rt::test]
async fn unknown_paths_get_the_error_page_with_404() {
    let dir = built_site();
    let app = public_app!(dir);
    for path in [
        "/nie-ma-takiej-strony",
        "/uslugi/nieznana",
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%09/evil.example/index.html",
        "/%2F%2Fevil.example/",
        "/_headers",
    ] {
        let resp = test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
        let body = body_text(resp).await;
        assert!(
            body.contains("Unexpected Application Error!") && body.contains("404 Not Found"),
            "{path}"
        );
    }
}

#[actix_rt::test]
async fn hashed_assets_are_immutable_and_compressed_on_request() {
    let dir = built_site();
    let html = std::fs::read_to_string(dir.dir.path().join("dist/index.html")).expect("home");
    let start = html.find("/assets/style.").expect("stylesheet link");
    let css = &html[start..start + html[start..].find('"').expect("end of link")];
    let app = public_app!(dir);
    let req = test::TestRequest::get()
        .uri(css)
        .insert_header((header::ACCEPT_ENCODING, "br"))
        .to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        h(&resp, header::CACHE_CONTROL),
        site::headers::IMMUTABLE_CACHE
    );
    assert!(h(&resp, header::CONTENT_TYPE).starts_with("text/css"));
    assert_eq!(h(&resp, header::CONTENT_ENCODING), "br");
    let req = test::TestRequest::get()
        .uri(css)
        .insert_header((header::ACCEPT_ENCODING, "gzip"))
        .to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(h(&resp, header::CONTENT_ENCODING), "gzip");
}

#[actix_rt::test]
async fn an_unchanged_page_answers_304_to_its_etag() {
    let dir = built_site();
    let app = public_app!(dir);
    let resp = test::call_service(&app, test::TestRequest::get().uri("/blog").to_request()).await;
    let etag = h(&resp, header::ETAG);
    let req = test::TestRequest::get()
        .uri("/blog")
        .insert_header((header::IF_NONE_MATCH, etag))
        .to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::NOT_MODIFIED);
}

#[actix_rt::test]
async fn other_methods_are_refused_with_405() {
    let dir = built_site();
    let app = public_app!(dir);
    let resp = test::call_service(&app, test::TestRequest::post().uri("/blog").to_request()).await;
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(h(&resp, header::ALLOW), "GET, HEAD");
}

#[actix_rt::test]
async fn a_path_that_only_looks_like_a_page_is_never_redirected_elsewhere() {
    let dir = built_site();
    let app = public_app!(dir);
    for path in [
        "/%09/evil.example/index.html",
        "/%20/evil.example/",
        "/evil.example/index.html",
        "/%0d%0aLocation:%20https://evil.example/",
    ] {
        let resp = test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(resp.headers().get(header::LOCATION).is_none(), "{path}");
    }
}

#[actix_rt::test]
async fn every_answer_carries_the_security_headers_of_the_build() {
    let dir = built_site();
    let app = public_app!(dir);
    for path in ["/", "/nie-ma", "/api/auth/session"] {
        let resp = test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
        let csp = h(&resp, header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert_eq!(
            h(&resp, header::X_CONTENT_TYPE_OPTIONS),
            "nosniff",
            "{path}"
        );
        assert!(
            resp.headers()
                .get(header::STRICT_TRANSPORT_SECURITY)
                .is_none(),
            "plain HTTP"
        );
    }
}

#[actix_rt::test]
async fn security_txt_is_served_from_well_known_and_no_other_hidden_path_is() {
    let dir = built_site();
    let app = public_app!(dir);
    let resp = test::call_service(
        &app,
        test::TestRequest::get()
            .uri("/.well-known/security.txt")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(h(&resp, header::CONTENT_TYPE), "text/plain; charset=utf-8");
    assert!(!h(&resp, header::CONTENT_SECURITY_POLICY).is_empty());
    let text = body_text(resp).await;
    assert!(
        text.starts_with("Contact: mailto:kontakt@gabinet-harmonia.pl\nExpires: "),
        "{text}"
    );
    assert!(text.contains("\nPreferred-Languages: pl, en\n"), "{text}");
    assert!(text.ends_with("\nCanonical: https://gabinet-harmonia.pl/.well-known/security.txt\n"));
    for hidden in [
        "/.well-known/",
        "/.well-known/.security.txt",
        "/.git/config",
        "/_headers",
        "/.well-known/../_build",
    ] {
        let resp =
            test::call_service(&app, test::TestRequest::get().uri(hidden).to_request()).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{hidden}");
    }
}
