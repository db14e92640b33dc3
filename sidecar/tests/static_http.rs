//! HTTP semantics of the static files that need a real build and the apps `run()` serves:
//! overlong targets refused with 414 before anything else, and `Last-Modified` as the time a
//! file's content last changed — kept by rebuilds and restarts that did not change it.

use crate::common;

use actix_web::http::header::{self, HttpDate};
use actix_web::http::StatusCode;
use actix_web::test;
use std::time::{Duration, SystemTime};

/// Waits until the clock has passed `moment`: a date in whole seconds after it is then later.
fn wait_until_past(moment: SystemTime) {
    while clock::wall() < moment {
        clock::sleep(Duration::from_millis(20));
    }
}

fn last_modified<B>(resp: &actix_web::dev::ServiceResponse<B>) -> SystemTime {
    let value = resp
        .headers()
        .get(header::LAST_MODIFIED)
        .expect("a Last-Modified header")
        .to_str()
        .expect("ASCII");
    value.parse::<HttpDate>().expect("an HTTP date").into()
}

#[actix_rt::test]
async fn overlong_targets_are_refused_with_414_on_both_origins() {
    let dir = common::setup(&[]);
    let public = public_app!(dir);
    let long = "a".repeat(9_000);
    for (target, status) in [
        (format!("/{long}"), StatusCode::URI_TOO_LONG),
        (format!("/cennik?q={long}"), StatusCode::URI_TOO_LONG),
        (format!("/api/contact?{long}"), StatusCode::URI_TOO_LONG),
        // Under nginx's limit (a request line of 8 KiB): an unknown page, as before.
        (format!("/{}", "a".repeat(8_000)), StatusCode::NOT_FOUND),
        (format!("/cennik?q={}", "a".repeat(8_000)), StatusCode::OK),
    ] {
        let req = test::TestRequest::get().uri(&target).to_request();
        let resp = test::call_service(&public, req).await;
        assert_eq!(resp.status(), status, "{} characters", target.len());
        if status == StatusCode::URI_TOO_LONG {
            assert!(
                resp.headers().contains_key(header::CONTENT_SECURITY_POLICY),
                "the refusal carries the site's headers"
            );
        }
    }
    let admin = admin_app!(dir);
    let req = test::TestRequest::get()
        .uri(&format!("/administratormagda?{long}"))
        .to_request();
    let resp = test::call_service(&admin, req).await;
    assert_eq!(resp.status(), StatusCode::URI_TOO_LONG);
}

#[actix_rt::test]
async fn last_modified_is_when_the_content_last_changed_across_rebuilds_and_restarts() {
    let dir = common::setup(&[]);
    let get = |path: &'static str| test::TestRequest::get().uri(path).to_request();
    let app = public_app!(dir);
    let prices = last_modified(&test::call_service(&app, get("/cennik")).await);
    let article = last_modified(&test::call_service(&app, get("/blog/terapia-cbt")).await);
    // Last-Modified counts whole seconds: the change comes in a later one than the article's.
    wait_until_past(article + Duration::from_secs(1));
    let edited = dir.root.join("content/blog/terapia-cbt.md");
    let text = std::fs::read_to_string(&edited).expect("article");
    std::fs::write(&edited, format!("{text}\nNowy akapit artykułu.\n")).expect("edit");
    dir.state.site.rebuild().expect("rebuild");
    let resp = test::call_service(&app, get("/cennik")).await;
    assert_eq!(
        last_modified(&resp),
        prices,
        "an unchanged page keeps its date"
    );
    let resp = test::call_service(&app, get("/blog/terapia-cbt")).await;
    let changed = last_modified(&resp);
    assert!(changed > article, "the edited page is newer");
    let since = HttpDate::from(article).to_string();
    let req = test::TestRequest::get()
        .uri("/blog/terapia-cbt")
        .insert_header((header::IF_MODIFIED_SINCE, since))
        .to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::OK, "changed since the old date");

    // A restart, two seconds after the change: a new server over the same content and
    // published dist/.
    wait_until_past(changed + Duration::from_secs(2));
    let restart = clock::wall();
    let config = common::config(dir.dir.path(), &dir.root, &[]);
    let content = site::load(&site::Project::at(&dir.root)).expect("content loads");
    let restarted = sidecar::AppState::open(&config, &content.site).expect("state opens");
    restarted.site.rebuild().expect("the site builds");
    let app = test::init_service(sidecar::public_app(actix_web::web::Data::new(restarted))).await;
    // After a restart the date is the published file's (written as the build was swapped in,
    // a moment after the date served before: on a loaded machine a second or two), never the
    // restart's time.
    for (path, before) in [("/cennik", prices), ("/blog/terapia-cbt", changed)] {
        let after = last_modified(&test::call_service(&app, get(path)).await);
        let file = dir
            .dir
            .path()
            .join("dist")
            .join(&path[1..])
            .join("index.html");
        let written = std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .expect("the published file's time");
        assert_eq!(
            HttpDate::from(after).to_string(),
            HttpDate::from(written).to_string(),
            "{path}: the published file's date"
        );
        assert!(
            after >= before && after < restart,
            "{path}: {} before the restart, {} after",
            HttpDate::from(before),
            HttpDate::from(after)
        );
    }
}
