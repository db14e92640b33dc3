//! The sidecar as the origin behind an edge: it sends the same caching rules the edge's
//! files say, answers old addresses with 301 from memory, reports its health without
//! personal data, and runs `PURGE_CMD` with just the routes that changed.

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{send, setup};
use std::time::Duration;

const ARTICLE: &str = "blog/terapia-cbt.md";

fn add_alias(s: &common::Setup, relative: &str, alias: &str) {
    let path = s.root.join("content").join(relative);
    let text = std::fs::read_to_string(&path).expect("content file");
    let changed = text.replacen("\ntitle:", &format!("\naliases: [\"{alias}\"]\ntitle:"), 1);
    assert_ne!(changed, text, "{relative} has a title");
    std::fs::write(&path, changed).expect("write");
}

#[actix_rt::test]
async fn every_file_carries_the_cache_control_of_the_published_rules() {
    let s = setup(&[]);
    let app = public_app!(s);
    let rules = s.state.site.live.current().headers.clone();
    let dist = s.dir.path().join("dist");
    let html = std::fs::read_to_string(dist.join("index.html")).expect("home");
    let start = html.find("/assets/").expect("an asset");
    let asset = &html[start..start + html[start..].find('"').expect("end")];
    for path in ["/", "/blog", "/blog/atom.xml", "/sitemap.xml", asset] {
        let answer = send(&app, test::TestRequest::get().uri(path)).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        let expected = site::headers::header_value(&rules, path, "Cache-Control").expect("a rule");
        assert_eq!(
            answer
                .headers
                .get(header::CACHE_CONTROL)
                .and_then(|v| v.to_str().ok()),
            Some(expected),
            "{path}"
        );
    }
    let headers_file = std::fs::read_to_string(dist.join("_headers")).expect("_headers");
    assert!(headers_file.contains(site::headers::SHORT_CACHE));
    assert!(headers_file.contains(site::headers::IMMUTABLE_CACHE));
    let nginx = std::fs::read_to_string(dist.join("_nginx.conf")).expect("_nginx.conf");
    assert!(nginx.contains(&format!("Cache-Control \"{}\"", site::headers::SHORT_CACHE)));
    let token = send(&app, test::TestRequest::get().uri("/api/contact/token")).await;
    assert_eq!(
        token
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store"),
        "an API answer keeps its own policy"
    );
    let missing = send(&app, test::TestRequest::get().uri("/nie-ma")).await;
    assert_eq!(
        missing
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some(site::headers::NOT_FOUND_CACHE)
    );
}

#[actix_rt::test]
async fn health_reports_the_build_and_the_outbox_and_nothing_personal() {
    let s = setup(&[]);
    let app = public_app!(s);
    s.state
        .db
        .insert_message(
            &sidecar::db::NewMessage {
                name: "Anna Nowak".into(),
                email: "anna@example.pl".into(),
                phone: String::new(),
                country_code: "+48".into(),
                full_phone: String::new(),
                message: "Proszę o kontakt".into(),
                spam: None,
            },
            crate::common::now(),
        )
        .expect("stored");
    let answer = send(&app, test::TestRequest::get().uri("/api/health")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let built = std::fs::read_to_string(s.dir.path().join("dist/_build")).expect("_build");
    assert_eq!(answer.body["build"], built.trim());
    assert_eq!(answer.body["pending"], 1);
    assert_eq!(answer.body["failed"], 0);
    let keys: Vec<&String> = answer.body.as_object().expect("an object").keys().collect();
    assert_eq!(keys, ["build", "failed", "images", "pending"]);
    assert!(
        answer.body["images"].is_u64(),
        "photographs waiting for variants: a count"
    );
    assert!(!answer.text.contains("anna"), "{}", answer.text);
}

#[actix_rt::test]
async fn an_old_address_answers_301_with_its_page_from_memory() {
    let s = setup(&[]);
    add_alias(&s, ARTICLE, "/blog/cbt");
    s.state.site.rebuild().expect("rebuilt");
    let app = public_app!(s);
    let answer = send(&app, test::TestRequest::get().uri("/blog/cbt?z=1")).await;
    assert_eq!(answer.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        answer
            .headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok()),
        Some("/blog/terapia-cbt?z=1")
    );
    assert!(answer.headers.contains_key(header::CONTENT_SECURITY_POLICY));
    let redirects =
        std::fs::read_to_string(s.dir.path().join("dist/_redirects")).expect("_redirects");
    assert!(
        redirects.contains("/blog/cbt  /blog/terapia-cbt  301"),
        "{redirects}"
    );
    assert!(
        !redirects.contains("/api/*  "),
        "no API_ORIGIN, no proxy: {redirects}"
    );
    let gone = send(&app, test::TestRequest::get().uri("/blog/cbt2")).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

#[actix_rt::test]
async fn api_origin_is_where_redirects_proxy_the_api() {
    let s = setup(&[("API_ORIGIN", "https://api.gabinet.pl/")]);
    let redirects =
        std::fs::read_to_string(s.dir.path().join("dist/_redirects")).expect("_redirects");
    assert!(
        redirects.contains("/api/*  https://api.gabinet.pl/api/:splat  200"),
        "{redirects}"
    );
}

fn purge_log(dir: &std::path::Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("purged.txt"))
        .unwrap_or_default()
        .split("--\n")
        .filter(|run| !run.is_empty())
        .map(|run| run.lines().map(String::from).collect())
        .collect()
}

#[actix_rt::test]
async fn purge_runs_after_a_good_publish_with_just_the_changed_routes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("purged.txt");
    let purge = format!(
        "printf '%s\\n--\\n' \"$CHANGED_ROUTES\" >> '{}'; test -n \"$SITE_URL\"",
        log.display()
    );
    let flag = dir.path().join("publish-fails");
    let publish = format!("test ! -e '{}'", flag.display());
    let s = setup(&[
        ("PUBLISH_CMD", publish.as_str()),
        ("PURGE_CMD", purge.as_str()),
    ]);
    let publishing = &s.state.site.publishing;
    let idle = || {
        assert!(
            publishing.wait_idle(Duration::from_secs(30)),
            "the queue runs"
        )
    };
    idle();
    let runs = purge_log(dir.path());
    assert_eq!(runs.len(), 1, "the first build purges: {runs:?}");
    assert!(runs[0].contains(&"/".to_string()) && runs[0].contains(&"/cennik".to_string()));
    assert!(
        !runs[0]
            .iter()
            .any(|r| r.contains("_headers") || r.contains("_build")),
        "hidden files are not served: {runs:?}"
    );

    let published = s.state.site.rebuild().expect("rebuilt");
    idle();
    assert!(published.changed.is_empty(), "{:?}", published.changed);
    assert_eq!(
        purge_log(dir.path()).len(),
        1,
        "nothing changed, nothing purged"
    );

    let cennik = s.root.join("content/pages/cennik.md");
    let text = std::fs::read_to_string(&cennik).expect("cennik");
    std::fs::write(&cennik, format!("{text}\nNowy akapit cennika.\n")).expect("write");
    let published = s.state.site.rebuild().expect("rebuilt");
    idle();
    assert_eq!(publishing.status().failure, None);
    let runs = purge_log(dir.path());
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[1], published.changed);
    assert!(runs[1].contains(&"/cennik".to_string()), "{runs:?}");
    assert!(
        !runs[1].contains(&"/blog/terapia-cbt".to_string()),
        "an unchanged page is not purged: {runs:?}"
    );
    assert!(runs[1].len() < 5, "only what changed: {runs:?}");

    add_alias(&s, ARTICLE, "/blog/cbt");
    let published = s.state.site.rebuild().expect("rebuilt");
    idle();
    assert!(
        published.changed.contains(&"/blog/cbt".to_string()),
        "a new old address is purged too (a CDN may hold its 404): {:?}",
        published.changed
    );

    std::fs::write(&flag, "").expect("flag");
    std::fs::write(&cennik, format!("{text}\nJeszcze inny akapit.\n")).expect("write");
    s.state.site.rebuild().expect("rebuilt");
    idle();
    assert!(
        publishing
            .status()
            .failure
            .is_some_and(|w| w.contains("PUBLISH_CMD")),
        "the failed sync is reported"
    );
    assert_eq!(
        purge_log(dir.path()).len(),
        3,
        "no purge after a failed sync"
    );
    std::fs::remove_file(&flag).expect("the bucket is back");
    let blog = s.root.join("content/pages/regulamin.md");
    let terms = std::fs::read_to_string(&blog).expect("regulamin");
    std::fs::write(&blog, format!("{terms}\nNowy akapit regulaminu.\n")).expect("write");
    s.state.site.rebuild().expect("rebuilt");
    idle();
    let runs = purge_log(dir.path());
    assert_eq!(runs.len(), 4, "{runs:?}");
    assert!(
        runs[3].contains(&"/cennik".to_string()) && runs[3].contains(&"/regulamin".to_string()),
        "the failed run's routes are purged with the next good one: {runs:?}"
    );
    assert_eq!(publishing.status().failure, None);
}
