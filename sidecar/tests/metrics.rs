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
            crate::common::now() - 120,
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

/// The audit log's entries of `event`, as the panel reads them.
async fn audited<S, B>(
    app: &S,
    cookie: &actix_web::cookie::Cookie<'static>,
    event: &str,
) -> Vec<serde_json::Value>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let list = send(
        app,
        test::TestRequest::get()
            .uri("/api/audit")
            .cookie(cookie.clone()),
    )
    .await;
    list.body
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e["event"] == event)
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

#[actix_rt::test]
async fn guessed_metrics_tokens_are_throttled_per_client_and_audited_in_one_line_a_minute() {
    let s = setup(&[("METRICS_TOKEN", TOKEN)]);
    let admin = admin_app!(s);
    let free = sidecar::alerts::METRICS_REFUSALS_PER_MINUTE as usize;
    // 30 guesses from each of three clients, all at once.
    let guesses: Vec<_> = (0..90)
        .map(|n| crate::common::from(&format!("127.0.0.{}", 2 + n % 3), scrape(Some("zgadywany"))))
        .collect();
    let answers =
        futures_util::future::join_all(guesses.into_iter().map(|g| send(&admin, g))).await;
    let refused = |status| answers.iter().filter(|a| a.status == status).count();
    assert_eq!(
        refused(StatusCode::UNAUTHORIZED),
        3 * free,
        "each client's free refusals"
    );
    assert_eq!(refused(StatusCode::TOO_MANY_REQUESTS), 90 - 3 * free);
    // The right token from a client that guessed is still refused this minute; another
    // client (Prometheus) scrapes.
    let late = send(
        &admin,
        crate::common::from("127.0.0.2", scrape(Some(TOKEN))),
    )
    .await;
    assert_eq!(late.status, StatusCode::TOO_MANY_REQUESTS);
    let scraped = send(
        &admin,
        crate::common::from("127.0.0.9", scrape(Some(TOKEN))),
    )
    .await;
    assert_eq!(scraped.status, StatusCode::OK, "{}", scraped.text);
    // One audit line per client, written after the answers left.
    let cookie = signed_in(&admin).await;
    let mut lines = Vec::new();
    for _ in 0..200 {
        lines = audited(&admin, &cookie, "metrics_token_refused").await;
        if lines.len() >= 3 {
            break;
        }
        clock::pause(std::time::Duration::from_millis(50)).await;
    }
    let mut clients: Vec<&str> = lines.iter().filter_map(|e| e["client"].as_str()).collect();
    clients.sort_unstable();
    assert_eq!(
        clients,
        ["127.0.0.2", "127.0.0.3", "127.0.0.4"],
        "{lines:?}"
    );
}
