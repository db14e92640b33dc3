//! `POST /api/contact`: every bad input is refused with a clear 4xx and stores nothing; every
//! valid message is stored before the answer, whatever the spam checks say — with its
//! verdict, e-mailed with a marker or held — and the visitor's answer does not tell.

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{send, setup, Setup};
use serde_json::{json, Value};
use sidecar::db::Spam;

/// A token issued long enough ago to pass the minimum-time check.
fn old_token(s: &Setup) -> String {
    sidecar::inbox::token::issue(&s.state.contact.secret, crate::common::now() - 60)
}

fn valid(token: &str) -> Value {
    json!({
        "name": "Anna Kowalska",
        "email": "anna@example.pl",
        "phone": "501234567",
        "countryCode": "+48",
        "message": "Dzień dobry, chciałabym umówić konsultację.",
        "fullPhone": "+48501234567",
        "token": token,
        "website": ""
    })
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

fn json_post(body: &Value) -> test::TestRequest {
    test::TestRequest::post().uri("/api/contact").set_json(body)
}

#[actix_rt::test]
async fn a_valid_message_is_stored_before_the_answer() {
    let s = setup(&[]);
    let app = public_app!(s);
    let answer = send(&app, json_post(&valid(&old_token(&s)))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body, json!({ "ok": true }));
    let stored = s.stored();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].full_phone, "+48501234567");
    assert_eq!((stored[0].spam, stored[0].held), (None, false));
}

#[actix_rt::test]
async fn the_form_and_the_inbox_read_now_from_the_clock_the_server_was_given() {
    // 2030-01-01 00:00 UTC: no system clock of this test's run says so.
    let moment = 1_893_456_000;
    let s = common::setup_at(&[], clock::Clock::fixed(moment));
    let app = public_app!(s);
    let token = send(&app, test::TestRequest::get().uri("/api/contact/token")).await;
    let token = token.body["token"].as_str().unwrap_or_default().to_string();
    assert!(token.starts_with(&format!("{moment}.")), "{token}");
    // Sent at once, by the same clock: too fast for a person, kept as suspected.
    let answer = send(&app, json_post(&valid(&token))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    s.state.clock.advance(60);
    let token = sidecar::inbox::token::issue(&s.state.contact.secret, moment);
    let answer = send(&app, json_post(&valid(&token))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let mut stored = s.stored();
    stored.sort_by_key(|m| m.received_at);
    let seen: Vec<_> = stored
        .iter()
        .map(|m| (m.received_at, m.spam.is_some()))
        .collect();
    assert_eq!(seen, [(moment, true), (moment + 60, false)]);
}

#[actix_rt::test]
async fn a_phone_written_as_people_write_it_is_stored_as_its_digits() {
    let s = setup(&[]);
    let app = public_app!(s);
    for typed in ["+48 501 234 567", "501-234-567", "48501234567"] {
        let body = with(valid(&old_token(&s)), "phone", json!(typed));
        let answer = send(&app, json_post(&body)).await;
        assert_eq!(answer.status, StatusCode::OK, "{typed}: {}", answer.body);
    }
    let stored = s.stored();
    assert_eq!(stored.len(), 3);
    for m in stored {
        assert_eq!(
            (m.phone.as_str(), m.full_phone.as_str()),
            ("501234567", "+48501234567")
        );
    }
}

#[actix_rt::test]
async fn every_invalid_field_is_named_and_nothing_is_stored() {
    let s = setup(&[]);
    let app = public_app!(s);
    let t = old_token(&s);
    let cases = [
        (with(valid(&t), "name", json!("")), "name"),
        (with(valid(&t), "email", json!("anna.example.pl")), "email"),
        (with(valid(&t), "email", json!("a(b)@example.pl")), "email"),
        (
            with(
                with(valid(&t), "phone", json!("50123456")),
                "fullPhone",
                json!("+4850123456"),
            ),
            "phone",
        ),
        (
            with(
                with(valid(&t), "countryCode", json!("+999")),
                "fullPhone",
                json!("+999501234567"),
            ),
            "countryCode",
        ),
        (
            with(valid(&t), "fullPhone", json!("+49501234567")),
            "fullPhone",
        ),
        (with(valid(&t), "message", json!("   ")), "message"),
        (
            with(valid(&t), "name", json!("Anna\r\nBcc: spam@example.com")),
            "name",
        ),
        (
            with(
                valid(&t),
                "email",
                json!("anna@example.pl\r\nBcc: spam@example.com"),
            ),
            "email",
        ),
        (
            with(valid(&t), "message", json!("a".repeat(5001))),
            "message",
        ),
    ];
    for (body, field) in cases {
        let answer = send(&app, json_post(&body)).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            answer.body
        );
        assert!(
            answer.body["errors"][field]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{field}: {}",
            answer.body
        );
    }
    let missing = send(&app, json_post(&json!({ "token": t }))).await.body;
    for field in ["name", "email", "message", "countryCode"] {
        assert!(
            missing["errors"][field].is_string(),
            "missing {field}: {missing}"
        );
    }
    assert!(s.stored().is_empty());
}

#[actix_rt::test]
async fn malformed_requests_get_4xx_with_a_message() {
    let s = setup(&[]);
    let app = public_app!(s);
    let post = || test::TestRequest::post().uri("/api/contact");
    let requests = [
        (
            post()
                .insert_header((header::CONTENT_TYPE, "application/json"))
                .set_payload("{\"name\": "),
            StatusCode::BAD_REQUEST,
        ),
        (
            post()
                .insert_header((header::CONTENT_TYPE, "text/plain"))
                .set_payload("name=Anna"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            post().set_payload("name=Anna"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            post()
                .insert_header((header::CONTENT_TYPE, "application/json"))
                .set_payload(format!("{{\"message\": \"{}\"}}", "a".repeat(1024 * 1024))),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            post()
                .insert_header((header::ORIGIN, "https://evil.example"))
                .set_json(valid(&old_token(&s))),
            StatusCode::FORBIDDEN,
        ),
    ];
    for (req, expected) in requests {
        let answer = send(&app, req).await;
        assert_eq!(answer.status, expected, "{}", answer.body);
        assert!(
            answer.body["error"].as_str().is_some_and(|m| m.len() > 10),
            "{}",
            answer.body
        );
    }
    assert!(s.stored().is_empty());
}

#[actix_rt::test]
async fn suspected_messages_are_answered_as_sent_and_kept_with_their_reason() {
    let s = setup(&[]);
    let app = public_app!(s);
    let fresh = sidecar::inbox::token::issue(&s.state.contact.secret, crate::common::now());
    let forged = format!("{}.abc.{}", crate::common::now() - 60, "ab".repeat(32));
    let cases = [
        (
            with(
                valid(&old_token(&s)),
                "website",
                json!("https://spam.example"),
            ),
            Some(Spam::Honeypot),
            true,
        ),
        (valid(&fresh), Some(Spam::TooFast), false),
        (valid(&forged), Some(Spam::BadToken), false),
        (
            with(valid(""), "token", Value::Null),
            Some(Spam::BadToken),
            false,
        ),
    ];
    for (body, spam, held) in cases {
        let answer = send(&app, json_post(&body)).await;
        assert_eq!(
            (answer.status, answer.body),
            (StatusCode::OK, json!({ "ok": true }))
        );
        let newest = s.stored().into_iter().next().expect("stored");
        assert_eq!((newest.spam, newest.held), (spam, held), "{body}");
    }
    assert_eq!(s.stored().len(), 4, "nothing was dropped");
}

#[actix_rt::test]
async fn a_token_is_good_for_one_message_only() {
    let s = setup(&[]);
    let app = public_app!(s);
    let token = old_token(&s);
    for _ in 0..2 {
        assert_eq!(
            send(&app, json_post(&valid(&token))).await.status,
            StatusCode::OK
        );
    }
    let spam: Vec<Option<Spam>> = s.stored().iter().map(|m| m.spam).collect();
    assert_eq!(
        spam,
        vec![Some(Spam::BadToken), None],
        "the second use is suspect"
    );
}

#[actix_rt::test]
async fn too_many_messages_from_one_client_get_429_and_others_are_not_held_back() {
    let s = setup(&[("CONTACT_RATE_PER_MINUTE", "2")]);
    let app = public_app!(s);
    let post = |ip: &str| common::from(ip, json_post(&valid(&old_token(&s))));
    for _ in 0..2 {
        assert_eq!(send(&app, post("127.0.0.2")).await.status, StatusCode::OK);
    }
    let answer = send(&app, post("127.0.0.2")).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(answer.body["error"]
        .as_str()
        .is_some_and(|m| m.starts_with("Wysłano zbyt wiele")));
    assert!(answer.headers.contains_key(header::RETRY_AFTER));
    assert_eq!(
        send(&app, post("127.0.0.3")).await.status,
        StatusCode::OK,
        "another client"
    );
    assert_eq!(s.stored().len(), 3);
}

#[actix_rt::test]
async fn behind_a_trusted_proxy_the_limit_sees_each_visitor() {
    let s = setup(&[
        ("CONTACT_RATE_PER_MINUTE", "1"),
        ("TRUSTED_PROXIES", "127.0.0.1"),
    ]);
    let app = public_app!(s);
    let via_proxy = |visitor: &str| {
        common::from(
            "127.0.0.1",
            json_post(&valid(&old_token(&s)))
                .insert_header(("X-Forwarded-For", visitor.to_string())),
        )
    };
    assert_eq!(
        send(&app, via_proxy("198.51.100.1")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, via_proxy("198.51.100.2")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, via_proxy("198.51.100.1")).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    // From a peer that is not a proxy, the header is ignored: the peer itself is limited.
    let forged = |visitor: &str| {
        common::from(
            "127.0.0.5",
            json_post(&valid(&old_token(&s)))
                .insert_header(("X-Forwarded-For", visitor.to_string())),
        )
    };
    assert_eq!(
        send(&app, forged("203.0.113.1")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, forged("203.0.113.2")).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[actix_rt::test]
async fn the_token_endpoint_issues_a_fresh_uncached_token() {
    let s = setup(&[]);
    let app = public_app!(s);
    let answer = send(&app, test::TestRequest::get().uri("/api/contact/token")).await;
    assert_eq!(
        answer
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let token = answer.body["token"].as_str().expect("token");
    let verdict =
        sidecar::inbox::token::check(&s.state.contact.secret, token, crate::common::now(), 3);
    assert!(matches!(
        verdict,
        sidecar::inbox::token::Verdict::TooFast(_)
    ));
}

fn form_post(fields: &[(&str, &str)]) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/api/contact")
        .set_form(fields.to_vec())
}

#[actix_rt::test]
async fn the_form_without_javascript_confirms_with_a_fresh_token_then_stores() {
    let s = setup(&[]);
    let app = public_app!(s);
    let form = [
        ("name", "Jan Nowak"),
        ("email", "jan@example.pl"),
        ("countryCode", "+48"),
        ("phone", "+48 501-234-567"),
        ("message", "Proszę o telefon."),
    ];
    let page = send(&app, form_post(&form)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text
            .contains("kliknij „Wyślij wiadomość”, aby potwierdzić"),
        "asks to confirm"
    );
    assert!(page.text.contains("value=\"Jan Nowak\"") && page.text.contains("Proszę o telefon."));
    assert!(
        !page.text.contains("data-island=\"ContactForm\""),
        "no island, no node"
    );
    assert!(s.stored().is_empty());
    let start = page
        .text
        .find("name=\"token\" value=\"")
        .expect("a token in the page")
        + 20;
    let token = &page.text[start..start + page.text[start..].find('"').expect("end of token")];
    let verdict =
        sidecar::inbox::token::check(&s.state.contact.secret, token, crate::common::now(), 3);
    assert!(
        matches!(verdict, sidecar::inbox::token::Verdict::TooFast(_)),
        "the confirmation's token is fresh, not pre-aged"
    );
    let aged = old_token(&s);
    let mut confirmed = form.to_vec();
    confirmed.push(("token", &aged));
    let page = send(&app, form_post(&confirmed)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("Wiadomość wysłana!"));
    let stored = s.stored();
    assert_eq!(
        (stored.len(), stored[0].phone.as_str(), stored[0].spam),
        (1, "501234567", None)
    );
}

#[actix_rt::test]
async fn the_form_without_javascript_shows_errors_next_to_the_fields() {
    let s = setup(&[]);
    let app = public_app!(s);
    let form = [
        ("name", ""),
        ("email", "jan"),
        ("countryCode", "+48"),
        ("phone", "123"),
        ("message", "Treść"),
    ];
    let page = send(&app, form_post(&form)).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.text.contains(
        "id=\"contact-phone-error\" class=\"field-error\">Numer telefonu powinien składać się z 9 cyfr"
    ));
    assert!(page
        .text
        .contains("aria-describedby=\"contact-phone-error\""));
    assert!(page.text.contains(">Treść</textarea>"), "keeps the message");
    assert!(s.stored().is_empty());
}

#[actix_rt::test]
async fn refused_and_invalid_form_posts_render_at_most_two_pages_at_once_and_never_rebuild() {
    let s = setup(&[("CONTACT_RATE_PER_MINUTE", "20")]);
    let app = public_app!(s);
    let build = s.state.site.live.current().number;
    let invalid = [
        ("name", ""),
        ("email", "x"),
        ("countryCode", "+48"),
        ("message", ""),
    ];
    let posts = (0..40).map(|i| {
        let req = common::from(&format!("127.0.0.{}", 2 + i % 2), form_post(&invalid));
        send(&app, req)
    });
    let answers = futures_util::future::join_all(posts).await;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status.as_u16()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 422).count(),
        40,
        "{statuses:?}"
    );
    assert!(answers.iter().all(|a| a.text.contains("field-error")));
    assert!(s.state.contact.answers.peak() <= sidecar::inbox::contact::RENDERS_AT_ONCE);
    assert_eq!(
        s.state.site.live.current().number,
        build,
        "no build for an answer"
    );
    let refused = send(&app, common::from("127.0.0.2", form_post(&invalid))).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the 21st from one client"
    );
    assert!(
        refused.text.contains("Wysłano zbyt wiele"),
        "an answer page, in Polish"
    );
}

#[actix_rt::test]
async fn a_ticked_booking_request_is_kept_with_the_message_in_its_own_words() {
    let s = setup(&[]);
    let app = public_app!(s);
    let record = content::contact::RULES.labels.early_start;
    let ticked = with(valid(&old_token(&s)), "earlyStart", json!(true));
    let answer = send(&app, json_post(&ticked)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let plain = send(&app, json_post(&valid(&old_token(&s)))).await;
    assert_eq!(plain.status, StatusCode::OK);
    let stored = s.stored();
    let kept: Vec<&str> = stored.iter().map(|m| m.message.as_str()).collect();
    assert!(
        kept.contains(
            &format!(
                "Dzień dobry, chciałabym umówić konsultację.\n\n[Zaznaczone w formularzu] {record}"
            )
            .as_str()
        ),
        "{kept:?}"
    );
    assert!(
        kept.contains(&"Dzień dobry, chciałabym umówić konsultację."),
        "an unticked box adds nothing: {kept:?}"
    );
    // Without JavaScript the box arrives as `earlyStart=true` and is shown ticked to confirm.
    let form = [
        ("name", "Jan Nowak"),
        ("email", "jan@example.pl"),
        ("countryCode", "+48"),
        ("phone", ""),
        ("message", "Proszę o wizytę w piątek."),
        ("earlyStart", "true"),
    ];
    let page = send(&app, form_post(&form)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text
            .contains("name=\"earlyStart\" type=\"checkbox\" value=\"true\" checked"),
        "the box stays ticked on the confirmation page"
    );
    let aged = old_token(&s);
    let mut confirmed = form.to_vec();
    confirmed.push(("token", &aged));
    assert_eq!(
        send(&app, form_post(&confirmed)).await.status,
        StatusCode::OK
    );
    assert!(
        s.stored()
            .iter()
            .any(|m| m.message.ends_with(record)
                && m.message.starts_with("Proszę o wizytę w piątek."))
    );
}
