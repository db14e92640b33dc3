//! Sign-in, sessions and the pages API of the admin panel, against a copy of the site.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{login, send, setup, signed_in, Setup, ADMIN, OTHER, OTHER_PASSWORD, PASSWORD};
use serde_json::{json, Value};
use std::time::Duration;

async fn call<S, B>(app: &S, req: test::TestRequest) -> (StatusCode, Option<Cookie<'static>>, Value)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let answer = send(app, req).await;
    (answer.status, answer.cookie, answer.body)
}

fn file(s: &Setup, relative: &str) -> String {
    s.file(relative)
}

#[actix_rt::test]
async fn the_admin_signs_in_with_a_strict_http_only_cookie_and_stays_signed_in() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    assert!(cookie.http_only().unwrap_or(false));
    assert_eq!(
        cookie.same_site(),
        Some(actix_web::cookie::SameSite::Strict)
    );
    assert!(!cookie.secure().unwrap_or(false), "plain HTTP here");
    let (status, _, body) = call(
        &app,
        test::TestRequest::get()
            .uri("/api/auth/session")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({ "email": ADMIN })));
    let (_, _, body) = call(&app, test::TestRequest::get().uri("/api/auth/session")).await;
    assert_eq!(body, json!({ "email": null }), "no cookie, no session");
}

#[actix_rt::test]
async fn over_https_the_cookie_is_secure_and_host_prefixed_only_when_a_trusted_proxy_says_so() {
    let s = setup(&[("TRUSTED_PROXIES", "127.0.0.1")]);
    let app = admin_app!(s);
    let https = || login(ADMIN, PASSWORD).insert_header(("X-Forwarded-Proto", "https"));
    let trusted = send(&app, common::from("127.0.0.1", https())).await;
    let cookie = trusted.cookie.expect("cookie");
    assert_eq!(cookie.name(), sidecar::http::admin::SECURE_COOKIE);
    assert!(cookie.secure().unwrap_or(false));
    assert!(trusted
        .headers
        .contains_key(header::STRICT_TRANSPORT_SECURITY));
    let forged = send(&app, common::from("127.0.0.9", https())).await;
    let cookie = forged.cookie.expect("cookie");
    assert_eq!(
        cookie.name(),
        sidecar::http::admin::COOKIE,
        "a stranger cannot claim HTTPS"
    );
    assert!(!cookie.secure().unwrap_or(false));
    assert!(!forged
        .headers
        .contains_key(header::STRICT_TRANSPORT_SECURITY));
}

#[actix_rt::test]
async fn force_https_makes_cookies_secure_and_sends_hsts_whatever_the_headers() {
    let s = setup(&[("FORCE_HTTPS", "1")]);
    let app = admin_app!(s);
    let answer = send(&app, login(ADMIN, PASSWORD)).await;
    let cookie = answer.cookie.expect("cookie");
    assert_eq!(cookie.name(), sidecar::http::admin::SECURE_COOKIE);
    assert!(cookie.secure().unwrap_or(false));
    assert!(answer
        .headers
        .contains_key(header::STRICT_TRANSPORT_SECURITY));
    let session = send(
        &app,
        test::TestRequest::get()
            .uri("/api/auth/session")
            .cookie(cookie),
    )
    .await;
    assert_eq!(
        session.body,
        json!({ "email": ADMIN }),
        "the prefixed cookie is read back"
    );
}

#[actix_rt::test]
async fn over_https_only_the_host_prefixed_cookie_is_read() {
    let s = setup(&[("FORCE_HTTPS", "1")]);
    let app = admin_app!(s);
    let token = send(&app, login(ADMIN, PASSWORD))
        .await
        .cookie
        .expect("cookie")
        .value()
        .to_string();
    let session = |name: &'static str| {
        test::TestRequest::get()
            .uri("/api/messages")
            .cookie(Cookie::new(name, token.clone()))
    };
    let unprefixed = send(&app, session(sidecar::http::admin::COOKIE)).await;
    assert_eq!(
        unprefixed.status,
        StatusCode::UNAUTHORIZED,
        "a cookie any host of the site could have set is not a session over HTTPS"
    );
    let prefixed = send(&app, session(sidecar::http::admin::SECURE_COOKIE)).await;
    assert_eq!(prefixed.status, StatusCode::OK, "{}", prefixed.text);
    let plain = setup(&[]);
    let app = admin_app!(plain);
    let token = signed_in(&app).await.value().to_string();
    let answer = send(
        &app,
        test::TestRequest::get()
            .uri("/api/messages")
            .cookie(Cookie::new(sidecar::http::admin::SECURE_COOKIE, token)),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::UNAUTHORIZED,
        "over plain HTTP only the plain one"
    );
}

#[actix_rt::test]
async fn a_panel_on_https_makes_the_cookie_host_prefixed_and_secure() {
    let s = setup(&[
        ("ADMIN_ORIGIN", "https://panel.gabinet-harmonia.pl"),
        ("PUBLIC_ORIGIN", "https://gabinet-harmonia.pl"),
    ]);
    let app = admin_app!(s);
    let answer = send(
        &app,
        login(ADMIN, PASSWORD).insert_header((header::ORIGIN, "https://panel.gabinet-harmonia.pl")),
    )
    .await;
    let cookie = answer.cookie.expect("cookie");
    assert_eq!(cookie.name(), sidecar::http::admin::SECURE_COOKIE);
    assert!(cookie.secure().unwrap_or(false));
    assert_eq!(cookie.domain(), None, "host-only");
    assert_eq!(cookie.path(), Some("/"));
    assert!(answer
        .headers
        .contains_key(header::STRICT_TRANSPORT_SECURITY));
    let from_site = send(
        &app,
        login(ADMIN, PASSWORD).insert_header((header::ORIGIN, "https://gabinet-harmonia.pl")),
    )
    .await;
    assert_eq!(
        from_site.status,
        StatusCode::FORBIDDEN,
        "the public site is another origin"
    );
}

#[actix_rt::test]
async fn a_wrong_password_and_an_unknown_email_get_the_same_answer() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let wrong = call(&app, login(ADMIN, "nie to hasło wcale")).await;
    let unknown = call(&app, login("nikt@example.pl", PASSWORD)).await;
    assert_eq!(wrong.0, StatusCode::UNAUTHORIZED);
    assert_eq!((wrong.0, &wrong.2), (unknown.0, &unknown.2));
    assert_eq!(wrong.2["error"], "Nieprawidłowy email lub hasło.");
    assert!(wrong.1.is_none() && unknown.1.is_none());
}

#[actix_rt::test]
async fn another_account_is_refused_without_a_session() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let (status, cookie, body) = call(&app, login(OTHER, OTHER_PASSWORD)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body,
        json!({ "title": "Brak dostępu", "error": "Nie masz uprawnień do wyświetlenia tej strony." })
    );
    assert!(cookie.is_none());
}

#[actix_rt::test]
async fn repeated_failures_are_throttled_even_for_the_right_password() {
    let s = setup(&[]);
    let app = admin_app!(s);
    for _ in 0..sidecar::api::auth::throttle::FREE_PER_ACCOUNT {
        assert_eq!(
            call(&app, login(ADMIN, "zgadywane hasło")).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    let (status, cookie, body) = call(&app, login(ADMIN, PASSWORD)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|m| m.starts_with("Zbyt wiele nieudanych prób")),
        "{body}"
    );
    assert!(cookie.is_none());
}

#[actix_rt::test]
async fn sign_out_ends_the_session_everywhere_and_a_restart_keeps_live_ones() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let kept = signed_in(&app).await;
    let cookie = signed_in(&app).await;
    let (status, _, _) = call(
        &app,
        test::TestRequest::post()
            .uri("/api/auth/logout")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _, _) = call(
        &app,
        test::TestRequest::get().uri("/api/pages").cookie(cookie),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The state a restart makes reads the sessions back from SQLite.
    let sessions = sidecar::api::auth::sessions::Sessions::load(&s.state.auth.store, 3600, 3600)
        .expect("loaded");
    let now = crate::common::now();
    assert!(matches!(
        sessions.check(kept.value(), now, sidecar::api::auth::sessions::Use::Action),
        sidecar::api::auth::sessions::Check::Valid { .. }
    ));
    assert_eq!(
        sessions.check(
            &"0".repeat(64),
            now,
            sidecar::api::auth::sessions::Use::Action
        ),
        sidecar::api::auth::sessions::Check::Unknown
    );
}

#[actix_rt::test]
async fn requests_from_another_origin_are_refused() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let (status, cookie, _) = call(
        &app,
        login(ADMIN, PASSWORD).insert_header((header::ORIGIN, "https://evil.example")),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(cookie.is_none());
    let cookie = signed_in(&app).await;
    let page = json!({ "content": { "sections": [] }, "version": "x" });
    let req = test::TestRequest::put()
        .uri("/api/pages/pages/cennik")
        .cookie(cookie)
        .insert_header((header::ORIGIN, "https://evil.example"))
        .set_json(page);
    assert_eq!(call(&app, req).await.0, StatusCode::FORBIDDEN);
}

async fn pages<S, B>(app: &S, cookie: &Cookie<'static>) -> Vec<Value>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let (status, _, body) = call(
        app,
        test::TestRequest::get()
            .uri("/api/pages")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    body.as_array().expect("a list").clone()
}

fn page<'a>(list: &'a [Value], slug: &str) -> &'a Value {
    list.iter().find(|p| p["id"] == slug).expect("page listed")
}

fn put(
    cookie: &Cookie<'static>,
    slug: &str,
    sections: &Value,
    version: &Value,
) -> test::TestRequest {
    test::TestRequest::put()
        .uri(&format!("/api/pages/{slug}"))
        .cookie(cookie.clone())
        .set_json(json!({ "content": { "sections": sections }, "version": version }))
}

#[actix_rt::test]
async fn the_pages_need_a_session_and_come_by_kind_then_slug_with_their_routes() {
    let s = setup(&[]);
    let app = admin_app!(s);
    assert_eq!(
        call(&app, test::TestRequest::get().uri("/api/pages"))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let count = |folder: &str| {
        std::fs::read_dir(s.root.join("content").join(folder))
            .expect("content folder")
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "md"))
            })
            .count()
    };
    assert_eq!(
        list.len(),
        count("pages") + count("services") + count("blog"),
        "every page, service and article"
    );
    let kinds: Vec<&str> = list.iter().filter_map(|p| p["kind"].as_str()).collect();
    let first_of = |k: &str| kinds.iter().position(|x| *x == k).expect("kind listed");
    let last_of = |k: &str| kinds.iter().rposition(|x| *x == k).expect("kind listed");
    assert!(last_of("page") < first_of("service") && last_of("service") < first_of("article"));
    for kind in ["page", "service", "article"] {
        let ids: Vec<&str> = list
            .iter()
            .filter(|p| p["kind"] == kind)
            .filter_map(|p| p["id"].as_str())
            .collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(ids, sorted, "{kind}s by slug");
    }
    assert_eq!(
        list[0]["id"], "pages/administratormagda",
        "the first page by slug"
    );
    assert_eq!(
        list[0]["route"],
        serde_json::Value::Null,
        "the panel's own page is offered to no link"
    );
    let cennik = page(&list, "pages/cennik");
    assert_eq!(cennik["title"], "Cennik");
    assert_eq!(cennik["route"], "/cennik");
    assert_eq!(cennik["group"], "Strony");
    assert_eq!(cennik["content"]["sections"][0]["type"], "text");
    let article = page(&list, "blog/terapia-cbt");
    assert_eq!(
        (article["kind"].as_str(), article["route"].as_str()),
        (Some("article"), Some("/blog/terapia-cbt"))
    );
}

#[actix_rt::test]
async fn saving_unchanged_content_leaves_the_file_byte_identical() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let before = file(&s, "services/interwencja-kryzysowa.md");
    let list = pages(&app, &cookie).await;
    let p = page(&list, "services/interwencja-kryzysowa");
    let (status, _, body) = call(
        &app,
        put(
            &cookie,
            "services/interwencja-kryzysowa",
            &p["content"]["sections"],
            &p["version"],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(file(&s, "services/interwencja-kryzysowa.md"), before);
    assert_eq!(body["version"], p["version"]);
}

#[actix_rt::test]
async fn a_save_is_published_sanitised_and_recorded_and_can_be_restored() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/cennik");
    let first = json!([{ "type": "text", "content": "Pierwsza wersja tekstu." }]);
    let (status, _, saved) = call(&app, put(&cookie, "pages/cennik", &first, &p["version"])).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let html =
        std::fs::read_to_string(s.dir.path().join("dist/cennik/index.html")).expect("published");
    assert!(html.contains("Pierwsza wersja tekstu."));
    assert!(
        file(&s, "pages/cennik.md").starts_with("---\ntitle: \"Cennik\""),
        "front matter kept"
    );
    let second = json!([{ "type": "text", "content": "Druga <script>alert('x')</script><img src=x onerror=alert(1)>" }]);
    let (status, _, saved2) = call(
        &app,
        put(&cookie, "pages/cennik", &second, &saved["version"]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{saved2}");
    let html =
        std::fs::read_to_string(s.dir.path().join("dist/cennik/index.html")).expect("published");
    assert!(
        html.contains("Druga") && !html.contains("alert(") && !html.contains("onerror"),
        "sanitised"
    );
    let (_, _, history) = call(
        &app,
        test::TestRequest::get()
            .uri("/api/pages/pages/cennik/revisions")
            .cookie(cookie.clone()),
    )
    .await;
    let history = history.as_array().expect("revisions").clone();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["author"], ADMIN);
    let oldest = history[1]["id"].as_i64().expect("id");
    let req = test::TestRequest::post()
        .uri(&format!(
            "/api/pages/pages/cennik/revisions/{oldest}/restore"
        ))
        .cookie(cookie.clone())
        .set_json(json!({ "version": saved2["version"] }));
    let (status, _, _) = call(&app, req).await;
    assert_eq!(status, StatusCode::OK);
    assert!(file(&s, "pages/cennik.md").contains("Pierwsza wersja tekstu."));
    let html =
        std::fs::read_to_string(s.dir.path().join("dist/cennik/index.html")).expect("published");
    assert!(html.contains("Pierwsza wersja tekstu."));
}

#[actix_rt::test]
async fn a_stale_version_gets_409_and_changes_nothing() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "blog/terapia-cbt");
    let path = s.root.join("content/blog/terapia-cbt.md");
    let edited = file(&s, "blog/terapia-cbt.md").replace("## Jak zacząć", "## Jak zacząć terapię");
    std::fs::write(&path, &edited).expect("an editor's commit");
    let sections = json!([{ "type": "text", "content": "Nadpisanie" }]);
    let (status, _, body) = call(
        &app,
        put(&cookie, "blog/terapia-cbt", &sections, &p["version"]),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|m| m.contains("w międzyczasie zmieniona")),
        "{body}"
    );
    assert_eq!(file(&s, "blog/terapia-cbt.md"), edited);
}

#[actix_rt::test]
async fn a_change_that_would_break_the_build_is_refused_and_the_file_kept() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/regulamin");
    let before = file(&s, "pages/regulamin.md");
    let broken = json!([{ "type": "text", "content": "Zobacz [tu](/nie-ma-takiej-strony)." }]);
    let (status, _, body) = call(
        &app,
        put(&cookie, "pages/regulamin", &broken, &p["version"]),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|m| m.contains("/nie-ma-takiej-strony")),
        "{body}"
    );
    // Where the problem is comes as data: the panel marks the section without reading the text.
    let place = &body["problems"][0];
    assert_eq!(place["section"], 1, "{body}");
    assert_eq!(place["field"], "content", "{body}");
    assert_eq!(place["file"], "pages/regulamin.md", "{body}");
    assert!(place["line"].as_u64().is_some(), "{body}");
    assert!(
        place["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Sekcja 1: ") && t.contains("/nie-ma-takiej-strony")),
        "{body}"
    );
    assert_eq!(file(&s, "pages/regulamin.md"), before);
    // The next save of another page publishes: the refused text is gone from the builder too.
    let cennik = page(&list, "pages/cennik");
    let next = json!([{ "type": "text", "content": "Ceny bez zmian." }]);
    let (status, _, body) = call(
        &app,
        put(&cookie, "pages/cennik", &next, &cennik["version"]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let site = public_app!(s);
    let terms = call(&site, test::TestRequest::get().uri("/regulamin")).await;
    assert_eq!(terms.0, StatusCode::OK);
    let marker = json!([
        { "type": "text", "content": "Wstęp" },
        { "type": "text", "content": "a\n<!-- section: text -->\nb" }
    ]);
    let (status, _, body) = call(
        &app,
        put(&cookie, "pages/regulamin", &marker, &p["version"]),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["problems"][0]["section"], 2, "{body}");
    assert_eq!(body["problems"][0]["field"], "content", "{body}");
    let fine = json!([{ "type": "text", "content": "Tekst" }]);
    assert_eq!(
        call(
            &app,
            put(&cookie, "team/magdalena-wisniewska", &fine, &p["version"])
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
}

#[actix_rt::test]
async fn a_section_holding_gits_conflict_markers_is_refused_at_its_line() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/cennik");
    let before = file(&s, "pages/cennik.md");
    let pasted = json!([
        { "type": "text", "content": "Ceny." },
        { "type": "text", "content": "<<<<<<< HEAD\nCena 190 zł.\n=======\nCena 200 zł.\n>>>>>>> 3f2a9c1" }
    ]);
    let (status, _, body) = call(&app, put(&cookie, "pages/cennik", &pasted, &p["version"])).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let place = &body["problems"][0];
    assert_eq!(place["section"], 2, "{body}");
    assert!(
        place["text"]
            .as_str()
            .is_some_and(|t| t.contains("konflikt") && t.contains("<<<<<<<")),
        "{body}"
    );
    assert_eq!(file(&s, "pages/cennik.md"), before);
}

#[actix_rt::test]
async fn a_failing_publish_command_is_reported_without_losing_the_save() {
    let s = setup(&[("PUBLISH_CMD", "echo 'bucket unreachable' >&2; exit 3")]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/cennik");
    let sections = json!([{ "type": "text", "content": "Zapisane mimo CDN." }]);
    let (status, _, body) =
        call(&app, put(&cookie, "pages/cennik", &sections, &p["version"])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["page"]["content"]["sections"], sections,
        "the saved document"
    );
    assert!(file(&s, "pages/cennik.md").contains("Zapisane mimo CDN."));
    assert!(s.state.site.publishing.wait_idle(Duration::from_secs(30)));
    let req = test::TestRequest::get()
        .uri("/api/publishing")
        .cookie(cookie.clone());
    let (status, _, publishing) = call(&app, req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(publishing["pending"], false, "{publishing}");
    assert!(
        publishing["failure"]
            .as_str()
            .is_some_and(|w| w.contains("PUBLISH_CMD") && w.contains("bucket unreachable")),
        "{publishing}"
    );
    let (_, _, again) = call(
        &app,
        put(&cookie, "pages/cennik", &sections, &body["version"]),
    )
    .await;
    assert!(
        again["publishing"]["failure"]
            .as_str()
            .is_some_and(|w| w.contains("bucket unreachable")),
        "the next save says the CDN is behind: {again}"
    );
}

#[actix_rt::test]
async fn a_slow_publish_command_never_holds_up_a_save_and_the_newest_state_wins() {
    let dir = tempfile::tempdir().expect("temp dir");
    let gate = dir.path().join("open");
    let log = dir.path().join("runs.txt");
    // Each run records which version of the price list it synced, then waits for the gate.
    let publish = format!(
        "echo \"run: $(grep -o 'wersja [0-9]' \"$DIST_DIR/cennik/index.html\" | head -n 1)\" >> '{log}'; while [ ! -e '{gate}' ]; do sleep 0.05; done",
        log = log.display(),
        gate = gate.display()
    );
    let purged = dir.path().join("purged.txt");
    let purge = format!(
        "printf '%s\\n--\\n' \"$CHANGED_ROUTES\" >> '{}'",
        purged.display()
    );
    let s = setup(&[
        ("PUBLISH_CMD", publish.as_str()),
        ("PURGE_CMD", purge.as_str()),
    ]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    // The first build's run is under way, blocked at the gate: saves go on.
    let mut version = page(&pages(&app, &cookie).await, "pages/cennik")["version"].clone();
    let started = std::time::Instant::now();
    for n in 1..=3 {
        let sections =
            json!([{ "type": "text", "content": format!("Cennik z kolejki, wersja {n}.") }]);
        let (status, _, body) = call(&app, put(&cookie, "pages/cennik", &sections, &version)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        version = body["version"].clone();
        assert!(s.served("/cennik").contains(&format!("wersja {n}.")));
    }
    let terms = page(&pages(&app, &cookie).await, "pages/regulamin")["version"].clone();
    let sections = json!([{ "type": "text", "content": "Regulamin z kolejki." }]);
    let (status, _, _) = call(&app, put(&cookie, "pages/regulamin", &sections, &terms)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "four saves while the sync waited"
    );
    assert!(s.state.site.publishing.status().pending);
    std::fs::write(&gate, "").expect("open the gate");
    assert!(s.state.site.publishing.wait_idle(Duration::from_secs(60)));
    let runs = std::fs::read_to_string(&log).expect("runs");
    let runs: Vec<&str> = runs.lines().collect();
    assert_eq!(
        runs,
        vec!["run: ", "run: wersja 3"],
        "the start's run, then one for all four saves, of the newest state"
    );
    let purges = std::fs::read_to_string(&purged).expect("purges");
    let last: Vec<&str> = purges
        .split("--\n")
        .filter(|r| !r.is_empty())
        .last()
        .expect("a purge")
        .lines()
        .collect();
    assert!(
        last.contains(&"/cennik") && last.contains(&"/regulamin"),
        "no route lost: {last:?}"
    );
    assert_eq!(s.state.site.publishing.status().failure, None);
}

/// git in `dir`, running none of the programs a test plants there; its output.
fn git_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Makes `dir` a repository whose one commit holds everything in it.
fn committed_repository(dir: &std::path::Path) {
    git_in(dir, &["init", "-q"]);
    git_in(dir, &["add", "."]);
    let identity = [
        "-c",
        "user.name=Redakcja",
        "-c",
        "user.email=redakcja@example.pl",
    ];
    git_in(
        dir,
        &[&identity[..], &["commit", "-q", "-m", "Treści"]].concat(),
    );
}

#[actix_rt::test]
async fn with_content_git_commit_each_save_is_a_commit_by_the_admin() {
    let s = setup(&[("CONTENT_GIT_COMMIT", "1")]);
    let content = s.root.join("content");
    let git = |args: &[&str]| git_in(&content, args);
    committed_repository(&content);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/blog");
    let sections = json!([{ "type": "text", "content": "Nowy wstęp bloga." }]);
    let (status, _, body) = call(&app, put(&cookie, "pages/blog", &sections, &p["version"])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["warning"], Value::Null);
    assert_eq!(
        git(&["log", "-1", "--format=%ae|%s"]),
        format!("{ADMIN}|Blog: treść (akapit 1)")
    );
    assert_eq!(git(&["rev-list", "--count", "HEAD"]), "2");
    assert_eq!(git(&["status", "--porcelain"]), "");
}

#[actix_rt::test]
async fn a_planted_git_configuration_runs_no_program_when_a_save_is_committed() {
    use std::os::unix::fs::PermissionsExt;
    let s = setup(&[("CONTENT_GIT_COMMIT", "1")]);
    let content = s.root.join("content");
    let git = |args: &[&str]| git_in(&content, args);
    committed_repository(&content);
    let ran = s.dir.path().join("ran.txt");
    let program = s.dir.path().join("program.sh");
    std::fs::write(
        &program,
        format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\ncat\n", ran.display()),
    )
    .expect("write");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let dot_git = content.join(".git");
    let mut config = std::fs::read_to_string(dot_git.join("config")).expect("config");
    config.push_str(&format!(
        "[core]\n\tfsmonitor = {0}\n[filter \"x\"]\n\tclean = {0} clean\n\tprocess = {0} process\n\trequired = true\n",
        program.display()
    ));
    std::fs::write(dot_git.join("config"), config).expect("plant config");
    std::fs::create_dir_all(dot_git.join("info")).expect("mkdir");
    std::fs::write(dot_git.join("info/attributes"), "* filter=x\n").expect("attributes");
    for hook in [
        "pre-commit",
        "commit-msg",
        "post-commit",
        "post-index-change",
    ] {
        std::fs::copy(&program, dot_git.join("hooks").join(hook)).expect("hook");
    }

    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = pages(&app, &cookie).await;
    let p = page(&list, "pages/blog");
    let sections = json!([{ "type": "text", "content": "Wstęp po zmianie." }]);
    let (status, _, body) = call(&app, put(&cookie, "pages/blog", &sections, &p["version"])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        !ran.exists(),
        "a planted hook, fsmonitor or filter ran: {}",
        std::fs::read_to_string(&ran).unwrap_or_default()
    );
    assert_eq!(body["warning"], Value::Null, "the save was still committed");
    assert_eq!(git(&["log", "-1", "--format=%s"]), "Blog: treść (akapit 1)");
}

#[actix_rt::test]
async fn the_maintenance_task_prunes_revisions_past_their_retention() {
    let s = setup(&[("REVISION_RETENTION_DAYS", "30")]);
    let now = crate::common::now();
    const DAY: i64 = 86_400;
    for age in (0..40).rev() {
        let text = format!("wersja sprzed {age} dni");
        s.state
            .db
            .insert_revision("pages/cennik", ADMIN, "", &text, now - age * DAY)
            .expect("insert");
    }
    s.state.maintain(now).expect("maintenance");
    let left = s.state.db.revisions("pages/cennik").expect("revisions");
    assert_eq!(
        left.len(),
        31,
        "the revisions of the last 30 days stay, day 30 included"
    );
    assert!(left.iter().all(|r| r.saved_at >= now - 30 * DAY));
    s.state
        .db
        .insert_revision("pages/regulamin", ADMIN, "", "stara", now - 400 * DAY)
        .expect("insert");
    s.state.maintain(now).expect("maintenance");
    assert_eq!(
        s.state
            .db
            .revisions("pages/regulamin")
            .expect("revisions")
            .len(),
        1,
        "the newest revisions of a document outlive the retention"
    );
}

#[actix_rt::test]
async fn the_set_password_command_reads_the_password_from_standard_input() {
    let s = setup(&[]);
    let (ok, err) = common::account_command(
        &s.dir.path().join("var"),
        &s.root,
        &["set-password", ADMIN],
        "zupełnie nowe hasło",
    );
    assert!(ok, "{err}");
    let app = admin_app!(s);
    assert_eq!(
        call(&app, login(ADMIN, PASSWORD)).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, login(ADMIN, "zupełnie nowe hasło")).await.0,
        StatusCode::OK
    );
}
