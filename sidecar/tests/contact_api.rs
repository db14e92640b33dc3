//! `POST /api/contact`: every bad input is refused with a clear 4xx and stores nothing; the
//! spam checks answer as if stored and store nothing; a good message is stored first.

mod common;

use actix_web::http::{header, StatusCode};
use actix_web::{test, web, App};
use serde_json::{json, Value};

struct Setup {
    _dir: tempfile::TempDir,
    state: web::Data<sidecar::AppState>,
}

fn setup(extra: &[(&str, &str)]) -> Setup {
    let dir = tempfile::tempdir().expect("temp dir");
    // The first value of a name wins: the test's own come first.
    let mut vars = extra.to_vec();
    vars.extend_from_slice(&[
        ("CONTACT_MIN_SECONDS", "3"),
        ("CONTACT_RATE_PER_MINUTE", "1000"),
    ]);
    let state = common::state(&common::config(dir.path(), &vars));
    Setup { _dir: dir, state }
}

macro_rules! app {
    ($setup:expr) => {
        test::init_service(App::new().configure(sidecar::configure(
            $setup.state.clone(),
            $setup._dir.path().join("dist"),
        )))
        .await
    };
}

/// A token issued long enough ago to pass the minimum-time check.
fn old_token(s: &Setup) -> String {
    sidecar::contact::token::issue(&s.state.secret, sidecar::outbox::now() - 60)
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

fn stored(s: &Setup) -> i64 {
    s.state.db.count("pending").expect("count")
}

async fn post_json<S, B>(app: &S, body: &Value) -> (StatusCode, Value)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let req = test::TestRequest::post()
        .uri("/api/contact")
        .set_json(body)
        .to_request();
    let resp = test::call_service(app, req).await;
    let status = resp.status();
    let bytes = test::read_body(resp).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[actix_rt::test]
async fn a_valid_message_is_stored_before_the_answer() {
    let s = setup(&[]);
    let app = app!(s);
    let (status, body) = post_json(&app, &valid(&old_token(&s))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "ok": true }));
    assert_eq!(stored(&s), 1);
    let due = s.state.db.due_messages(i64::MAX, 10).expect("due");
    assert_eq!(due[0].full_phone, "+48501234567");
    assert_eq!(due[0].name, "Anna Kowalska");
}

#[actix_rt::test]
async fn every_invalid_field_is_named_and_nothing_is_stored() {
    let s = setup(&[]);
    let app = app!(s);
    let t = old_token(&s);
    let cases = [
        (with(valid(&t), "name", json!("")), "name"),
        (with(valid(&t), "email", json!("anna.example.pl")), "email"),
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
        let (status, answer) = post_json(&app, &body).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {answer}"
        );
        assert!(
            answer["errors"][field]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{field}: {answer}"
        );
    }
    let (_, missing) = post_json(&app, &json!({ "token": t })).await;
    for field in ["name", "email", "message", "countryCode"] {
        assert!(
            missing["errors"][field].is_string(),
            "missing {field}: {missing}"
        );
    }
    assert_eq!(stored(&s), 0);
}

#[actix_rt::test]
async fn malformed_requests_get_4xx_with_a_message() {
    let s = setup(&[]);
    let app = app!(s);
    let requests = [
        (
            test::TestRequest::post()
                .uri("/api/contact")
                .insert_header((header::CONTENT_TYPE, "application/json"))
                .set_payload("{\"name\": "),
            StatusCode::BAD_REQUEST,
        ),
        (
            test::TestRequest::post()
                .uri("/api/contact")
                .insert_header((header::CONTENT_TYPE, "text/plain"))
                .set_payload("name=Anna"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            test::TestRequest::post()
                .uri("/api/contact")
                .set_payload("name=Anna"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            test::TestRequest::post()
                .uri("/api/contact")
                .insert_header((header::CONTENT_TYPE, "application/json"))
                .set_payload(format!("{{\"message\": \"{}\"}}", "a".repeat(1024 * 1024))),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];
    for (req, expected) in requests {
        let resp = test::call_service(&app, req.to_request()).await;
        assert_eq!(resp.status(), expected);
        let body: Value =
            serde_json::from_slice(&test::read_body(resp).await).expect("a JSON answer");
        assert!(
            body["error"].as_str().is_some_and(|m| m.len() > 10),
            "{body}"
        );
    }
    assert_eq!(stored(&s), 0);
}

#[actix_rt::test]
async fn tripped_spam_checks_answer_sent_and_store_nothing() {
    let s = setup(&[]);
    let app = app!(s);
    let fresh = sidecar::contact::token::issue(&s.state.secret, sidecar::outbox::now());
    let forged = format!("{}.{}", sidecar::outbox::now() - 60, "ab".repeat(32));
    for body in [
        with(
            valid(&old_token(&s)),
            "website",
            json!("https://spam.example"),
        ),
        valid(&fresh),
        valid(&forged),
    ] {
        let (status, answer) = post_json(&app, &body).await;
        assert_eq!((status, answer), (StatusCode::OK, json!({ "ok": true })));
    }
    assert_eq!(stored(&s), 0);
}

#[actix_rt::test]
async fn a_json_message_without_token_is_refused_not_dropped() {
    let s = setup(&[]);
    let app = app!(s);
    let body = with(valid(""), "token", Value::Null);
    let (status, answer) = post_json(&app, &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|m| m.contains("Odśwież stronę")),
        "{answer}"
    );
}

#[actix_rt::test]
async fn too_many_messages_from_one_client_get_429_in_polish() {
    let s = setup(&[("CONTACT_RATE_PER_MINUTE", "2")]);
    let app = app!(s);
    let t = old_token(&s);
    for _ in 0..2 {
        assert_eq!(post_json(&app, &valid(&t)).await.0, StatusCode::OK);
    }
    let (status, answer) = post_json(&app, &valid(&t)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|m| m.starts_with("Wysłano zbyt wiele")),
        "{answer}"
    );
    assert_eq!(stored(&s), 2);
}

#[actix_rt::test]
async fn the_token_endpoint_issues_a_fresh_uncached_token() {
    let s = setup(&[]);
    let app = app!(s);
    let resp = test::call_service(
        &app,
        test::TestRequest::get()
            .uri("/api/contact/token")
            .to_request(),
    )
    .await;
    assert_eq!(
        resp.headers()
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let body: Value = serde_json::from_slice(&test::read_body(resp).await).expect("json");
    let token = body["token"].as_str().expect("token");
    let verdict = sidecar::contact::token::check(&s.state.secret, token, sidecar::outbox::now(), 3);
    assert_eq!(verdict, sidecar::contact::token::Verdict::TooFast);
}

#[actix_rt::test]
async fn the_form_without_javascript_confirms_then_stores() {
    let s = setup(&[]);
    let app = app!(s);
    let form = [
        ("name", "Jan Nowak"),
        ("email", "jan@example.pl"),
        ("countryCode", "+48"),
        ("phone", "501 234 567"),
        ("message", "Proszę o telefon."),
    ];
    let resp = test::call_service(
        &app,
        test::TestRequest::post()
            .uri("/api/contact")
            .set_form(form)
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = String::from_utf8(test::read_body(resp).await.to_vec()).expect("html");
    assert!(
        page.contains("kliknij „Wyślij wiadomość”, aby potwierdzić"),
        "asks to confirm"
    );
    assert!(
        page.contains("value=\"Jan Nowak\"") && page.contains("Proszę o telefon."),
        "keeps what was typed"
    );
    assert_eq!(stored(&s), 0);
    let start = page
        .find("name=\"token\" value=\"")
        .expect("a token in the page")
        + 20;
    let token = &page[start..start + page[start..].find('"').expect("end of token")];
    let mut confirmed = form.to_vec();
    confirmed.push(("token", token));
    let resp = test::call_service(
        &app,
        test::TestRequest::post()
            .uri("/api/contact")
            .set_form(confirmed)
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = String::from_utf8(test::read_body(resp).await.to_vec()).expect("html");
    assert!(page.contains("Wiadomość wysłana!"));
    assert_eq!(stored(&s), 1);
    assert_eq!(
        s.state.db.due_messages(i64::MAX, 1).expect("due")[0].phone,
        "501234567"
    );
}

#[actix_rt::test]
async fn the_form_without_javascript_shows_errors_next_to_the_fields() {
    let s = setup(&[]);
    let app = app!(s);
    let form = [
        ("name", ""),
        ("email", "jan"),
        ("countryCode", "+48"),
        ("phone", "123"),
        ("message", "Treść"),
    ];
    let resp = test::call_service(
        &app,
        test::TestRequest::post()
            .uri("/api/contact")
            .set_form(form)
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = String::from_utf8(test::read_body(resp).await.to_vec()).expect("html");
    assert!(page.contains("id=\"contact-phone-error\" class=\"field-error\">Numer telefonu powinien składać się z 9 cyfr"), "{page}");
    assert!(page.contains("aria-describedby=\"contact-phone-error\""));
    assert!(page.contains(">Treść</textarea>"), "keeps the message");
    assert_eq!(stored(&s), 0);
}
