//! The statistics: `POST /api/event` counts what a page's beacon says as aggregates only
//! (refusing what is not a beacon before reading it, and not counting who opts out or is a
//! program), a sent message counts without its content, 'Statystyki' reads it back, and with
//! `STATS=off` nothing listens.

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{from, send, setup, signed_in};
use serde_json::Value;

const FIREFOX: &str =
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 statystyki-test";
const PHONE: &str =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 statystyki-test";

/// A beacon as `navigator.sendBeacon` sends it, from the loopback address `ip`.
fn beacon(ip: &str, agent: &str, body: &str) -> test::TestRequest {
    from(
        ip,
        test::TestRequest::post()
            .uri("/api/event")
            .insert_header((header::CONTENT_TYPE, "text/plain;charset=UTF-8"))
            .insert_header((header::USER_AGENT, agent))
            .insert_header(("Sec-Fetch-Site", "same-origin"))
            .set_payload(body.to_string()),
    )
}

async fn report(s: &common::Setup, period: &str) -> Value {
    let panel = admin_app!(s);
    let cookie = signed_in(&panel).await;
    let req = test::TestRequest::get()
        .uri(&format!("/api/stats?period={period}"))
        .cookie(cookie);
    let answer = send(&panel, req).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.body
}

fn named(list: &Value, name: &str) -> i64 {
    list.as_array()
        .and_then(|rows| rows.iter().find(|r| r["name"] == name))
        .and_then(|r| r["count"].as_i64())
        .unwrap_or(0)
}

#[actix_rt::test]
async fn beacons_are_counted_and_read_back_as_sums() {
    let s = setup(&[]);
    let app = public_app!(s);
    let counted = [
        (
            "127.0.0.2",
            FIREFOX,
            r#"{"e":"view","p":"/","r":"www.google.com","w":1280}"#,
        ),
        (
            "127.0.0.2",
            FIREFOX,
            r#"{"e":"view","p":"/cennik","r":"","w":1280}"#,
        ),
        (
            "127.0.0.3",
            PHONE,
            r#"{"e":"view","p":"/cennik/","r":"m.facebook.com","w":390}"#,
        ),
        (
            "127.0.0.3",
            PHONE,
            r#"{"e":"book","p":"/cennik","w":390,"l":"Booksy · gabinet"}"#,
        ),
        (
            "127.0.0.3",
            PHONE,
            r#"{"e":"crisis","p":"/cennik","w":390,"l":"116123"}"#,
        ),
        ("127.0.0.3", PHONE, r#"{"e":"call","p":"/cennik","w":390}"#),
        (
            "127.0.0.2",
            FIREFOX,
            r#"{"e":"404","p":"/stara-strona","w":1280}"#,
        ),
    ];
    for (ip, agent, body) in counted {
        let answer = send(&app, beacon(ip, agent, body)).await;
        assert_eq!(
            answer.status,
            StatusCode::NO_CONTENT,
            "{body}: {}",
            answer.text
        );
    }
    // Not counted, and not told otherwise: who asks not to be tracked, and programs.
    let dnt = beacon(
        "127.0.0.4",
        FIREFOX,
        r#"{"e":"view","p":"/o-mnie","w":1280}"#,
    )
    .insert_header(("DNT", "1"));
    let gpc = beacon(
        "127.0.0.4",
        FIREFOX,
        r#"{"e":"view","p":"/o-mnie","w":1280}"#,
    )
    .insert_header(("Sec-GPC", "1"));
    let bot = beacon(
        "127.0.0.5",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        r#"{"e":"view","p":"/o-mnie","w":1280}"#,
    );
    for req in [dnt, gpc, bot] {
        assert_eq!(send(&app, req).await.status, StatusCode::NO_CONTENT);
    }
    let r = report(&s, "day").await;
    let totals = &r["totals"];
    assert_eq!(totals["views"], 3, "{r}");
    assert_eq!(totals["visitors"], 2, "two visitors, one of two pages");
    assert_eq!(
        (
            totals["bookings"].as_i64(),
            totals["crisis"].as_i64(),
            totals["calls"].as_i64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(named(&r["pages"], "/cennik"), 2);
    assert_eq!(
        named(&r["pages"], "/o-mnie"),
        0,
        "DNT, GPC and the bot are not counted"
    );
    assert_eq!(named(&r["sources"], "google.com"), 1);
    assert_eq!(named(&r["sources"], "m.facebook.com"), 1);
    assert_eq!(named(&r["bookings"], "Booksy · gabinet"), 1);
    assert_eq!(named(&r["crisis"], "116123"), 1);
    assert_eq!(named(&r["notFound"], "/stara-strona"), 1);
    assert_eq!(named(&r["devices"], "telefon"), 1);
    let today = r["buckets"]
        .as_array()
        .and_then(|b| b.last())
        .expect("today");
    assert_eq!(today["totals"]["views"], 3);
    let weekly = report(&s, "week").await;
    assert_eq!(weekly["buckets"].as_array().map(Vec::len), Some(12));
    assert_eq!(weekly["totals"]["views"], 3);

    // The export holds the same counts, as a spreadsheet.
    let panel = admin_app!(s);
    let cookie = signed_in(&panel).await;
    let csv = send(
        &panel,
        test::TestRequest::get()
            .uri("/api/stats/export?period=month")
            .cookie(cookie),
    )
    .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.text
            .contains(";wyświetlenie strony;/cennik;;komputer;;1\r\n"),
        "{}",
        csv.text
    );
    assert!(csv
        .text
        .contains(";kliknięcie numeru pomocy;/cennik;;telefon;116123;1\r\n"));

    // Nothing of a visitor reached the disk: no address, no user agent.
    let mut stored = Vec::new();
    for entry in walkdir::WalkDir::new(s.dir.path().join("var")) {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            stored.extend(std::fs::read(entry.path()).expect("read"));
        }
    }
    let holds = |needle: &[u8]| stored.windows(needle.len()).any(|w| w == needle);
    assert!(!holds(b"statystyki-test"), "no user agent is written");
    assert!(
        !holds(b"127.0.0.3") && !holds(&[127, 0, 0, 3]),
        "no address is written"
    );
}

#[actix_rt::test]
async fn what_is_not_a_beacon_is_refused_before_it_is_read() {
    let s = setup(&[("STATS_EVENTS_PER_SECOND", "1")]);
    let app = public_app!(s);
    let view = r#"{"e":"view","p":"/","w":390}"#;
    let json = beacon("127.0.0.2", FIREFOX, view)
        .insert_header((header::CONTENT_TYPE, "application/json"));
    assert_eq!(
        send(&app, json).await.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    let big = beacon(
        "127.0.0.3",
        FIREFOX,
        &format!(r#"{{"e":"view","p":"/{}"}}"#, "a".repeat(600)),
    );
    assert_eq!(send(&app, big).await.status, StatusCode::PAYLOAD_TOO_LARGE);
    let unknown = beacon("127.0.0.4", FIREFOX, r#"{"e":"view","p":"/nie-ma-takiej"}"#);
    assert_eq!(
        send(&app, unknown).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let garbage = beacon("127.0.0.5", FIREFOX, "not json");
    assert_eq!(send(&app, garbage).await.status, StatusCode::BAD_REQUEST);
    let elsewhere =
        beacon("127.0.0.6", FIREFOX, view).insert_header(("Sec-Fetch-Site", "cross-site"));
    assert_eq!(send(&app, elsewhere).await.status, StatusCode::FORBIDDEN);
    // One a second, four at once: past the fourth of a burst they are refused.
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(send(&app, beacon("127.0.0.7", FIREFOX, view)).await.status);
    }
    assert!(
        statuses[..4].iter().all(|s| *s == StatusCode::NO_CONTENT),
        "{statuses:?}"
    );
    assert!(
        statuses[4..].contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    let other = send(&app, beacon("127.0.0.8", FIREFOX, view)).await;
    assert_eq!(
        other.status,
        StatusCode::NO_CONTENT,
        "another client is not held up"
    );
}

#[actix_rt::test]
async fn a_sent_message_counts_without_its_content() {
    let s = setup(&[("CONTACT_MIN_SECONDS", "0")]);
    let app = public_app!(s);
    let token = sidecar::inbox::token::issue(&s.state.contact.secret, crate::common::now() - 60);
    let body = serde_json::json!({
        "name": "Anna Kowalska", "email": "anna@example.pl", "phone": "", "countryCode": "+48",
        "message": "Treść, której statystyka nie zna.", "fullPhone": "", "token": token, "website": ""
    });
    let req = test::TestRequest::post()
        .uri("/api/contact")
        .insert_header((header::USER_AGENT, PHONE))
        .insert_header((header::REFERER, "http://127.0.0.1:8080/cennik"))
        .set_json(&body);
    assert_eq!(send(&app, req).await.status, StatusCode::OK);
    let r = report(&s, "month").await;
    assert_eq!(r["totals"]["messages"], 1, "{r}");
}

#[actix_rt::test]
async fn with_stats_off_nothing_listens_and_pages_send_nothing() {
    let s = setup(&[("STATS", "off")]);
    let app = public_app!(s);
    let answer = send(
        &app,
        beacon("127.0.0.2", FIREFOX, r#"{"e":"view","p":"/","w":390}"#),
    )
    .await;
    assert_ne!(answer.status, StatusCode::NO_CONTENT);
    assert!(answer.status.is_client_error(), "{}", answer.status);
    assert!(s.served("/").contains("\"stats\":false"));
    let r = report(&s, "day").await;
    assert_eq!(r["enabled"], false);
    assert_eq!(r["totals"]["views"], 0);
}

#[actix_rt::test]
async fn a_concurrent_burst_from_eight_clients_is_held_to_each_ones_limit_and_all_it_let_in_counts()
{
    let s = setup(&[("STATS_EVENTS_PER_SECOND", "1")]);
    let app = public_app!(s);
    let view = r#"{"e":"view","p":"/cennik","w":390}"#;
    let clients: Vec<String> = (2..=9).map(|i| format!("127.0.0.{i}")).collect();
    let started = std::time::Instant::now();
    let app = &app;
    let burst = clients
        .iter()
        .flat_map(|ip| (0..100).map(move |_| send(app, beacon(ip, FIREFOX, view))));
    let answers = futures_util::future::join_all(burst).await;
    // Four at once and one a second: what a client gets in is bounded by how long it tried.
    let allowed = 4 + started.elapsed().as_secs() as usize + 1;
    let mut let_in = 0;
    for (ip, answers) in clients.iter().zip(answers.chunks(100)) {
        let ok = answers
            .iter()
            .filter(|a| a.status == StatusCode::NO_CONTENT)
            .count();
        assert!(
            answers.iter().all(|a| matches!(
                a.status,
                StatusCode::NO_CONTENT | StatusCode::TOO_MANY_REQUESTS
            )),
            "{ip}: only counted or refused"
        );
        assert!((4..=allowed).contains(&ok), "{ip}: {ok} let in of 100");
        let_in += ok;
    }
    let r = report(&s, "day").await;
    assert_eq!(
        r["totals"]["views"].as_u64(),
        Some(let_in as u64),
        "every beacon let in is counted, no refused one: {r}"
    );
    assert_eq!(r["totals"]["visitors"], 8, "{r}");
}
