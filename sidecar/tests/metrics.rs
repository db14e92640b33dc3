//! `/metrics` on the panel's origin: off without `METRICS_TOKEN`, refused without the token,
//! and with it Prometheus' text format counting requests by route and status, contact
//! messages by state, the outbox, builds and the last backup; `/api/system` gives the panel
//! the same figures.

use actix_web::http::StatusCode;
use actix_web::test;

use crate::common::{send, setup, signed_in};

const TOKEN: &str = "token-metryk-5c1d";

fn scrape(token: Option<&str>) -> test::TestRequest {
    let req = test::TestRequest::get().uri("/metrics");
    match token {
        Some(t) => req.insert_header(("Authorization", format!("Bearer {t}"))),
        None => req,
    }
}

/// The value of the sample `name` whose labels include every one of `labels`.
fn value(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) || l.starts_with(&format!("{name} ")))
        .find(|l| labels.iter().all(|label| l.contains(label)))
        .and_then(|l| l.rsplit_once(' '))
        .and_then(|(_, v)| v.parse().ok())
}

#[actix_rt::test]
async fn metrics_need_their_token_and_count_requests_messages_and_builds() {
    let off = setup(&[]);
    let app = admin_app!(off);
    let answer = send(&app, scrape(Some(TOKEN))).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(answer.body["error"]
        .as_str()
        .is_some_and(|e| e.contains("METRICS_TOKEN")));

    let s = setup(&[("METRICS_TOKEN", TOKEN)]);
    let admin = admin_app!(s);
    let public = public_app!(s);
    for token in [None, Some("zly-token")] {
        let answer = send(&admin, scrape(token)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert!(answer.body["error"]
            .as_str()
            .is_some_and(|e| e.contains("token")));
    }
    let before = value(
        &send(&admin, scrape(Some(TOKEN))).await.text,
        "sidecar_http_requests_total",
        &["route=\"/api/contact/token\"", "status=\"200\""],
    )
    .unwrap_or(0.0);
    for _ in 0..3 {
        let answer = send(&public, test::TestRequest::get().uri("/api/contact/token")).await;
        assert_eq!(answer.status, StatusCode::OK);
    }
    s.state
        .db
        .insert_message(
            &sidecar::db::NewMessage {
                name: "Ewa".into(),
                email: "ewa@example.pl".into(),
                phone: String::new(),
                country_code: "+48".into(),
                full_phone: String::new(),
                message: "Proszę o kontakt.".into(),
                spam: None,
            },
            sidecar::db::now() - 120,
        )
        .expect("stored");

    let answer = send(&admin, scrape(Some(TOKEN))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let content_type = answer.headers.get("content-type").expect("a type");
    assert!(content_type
        .to_str()
        .expect("ascii")
        .starts_with("text/plain"));
    let text = answer.text;
    let counted = value(
        &text,
        "sidecar_http_requests_total",
        &["route=\"/api/contact/token\"", "status=\"200\""],
    )
    .expect("requests counted by route and status");
    assert!(counted >= before + 3.0, "{counted} < {before} + 3");
    assert_eq!(value(&text, "sidecar_outbox_depth", &[]), Some(1.0));
    let age = value(&text, "sidecar_outbox_oldest_age_seconds", &[]).expect("age");
    assert!((120.0..200.0).contains(&age), "{age}");
    assert_eq!(
        value(&text, "sidecar_contact_messages", &["status=\"pending\""]),
        Some(1.0)
    );
    assert!(text.contains("sidecar_build_seconds"), "{text}");
    assert!(text.contains("sidecar_publish_seconds"), "{text}");
    assert_eq!(
        value(&text, "sidecar_backup_last_success_age_seconds", &[]),
        Some(-1.0),
        "no backup scheduled"
    );

    // The panel's view reads the same figures.
    let cookie = signed_in(&admin).await;
    let answer = send(
        &admin,
        test::TestRequest::get().uri("/api/system").cookie(cookie),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.body["outbox"]["pending"], 1);
    assert!(answer.body["backups"].is_null());
    let samples = answer.body["metrics"].as_array().expect("metrics");
    assert!(samples
        .iter()
        .any(|m| m["name"] == "sidecar_outbox_depth" && m["value"] == 1.0));
}
