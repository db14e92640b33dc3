//! The sidecar under abuse: sign-in bursts get no more guesses than the throttle
//! allows, a stranger cannot lock the admin out, huge fields are refused before anything is
//! stored, and a request without a session is refused before its body is read.

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{from, login, send, setup, ADMIN, OTHER, OTHER_PASSWORD, PASSWORD};
use serde_json::json;
use sidecar::api::auth::throttle::FREE_PER_ACCOUNT;

#[actix_rt::test]
async fn a_burst_of_sixty_wrong_sign_ins_gets_only_the_allowed_guesses() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let attempts = (0..60).map(|_| send(&app, from("127.0.0.2", login(ADMIN, "zgadywane hasło"))));
    let answers = futures_util::future::join_all(attempts).await;
    let guessed = answers
        .iter()
        .filter(|a| a.status != StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(guessed as i64, FREE_PER_ACCOUNT, "answers other than 429");
    assert!(answers.iter().all(|a| matches!(
        a.status,
        StatusCode::UNAUTHORIZED | StatusCode::TOO_MANY_REQUESTS
    )));
    let refused = answers
        .iter()
        .find(|a| a.status == StatusCode::TOO_MANY_REQUESTS)
        .expect("a refusal");
    assert!(refused.headers.contains_key(header::RETRY_AFTER));
    assert!(refused.body["error"]
        .as_str()
        .is_some_and(|m| m.starts_with("Zbyt wiele nieudanych prób")));
}

#[actix_rt::test]
async fn behind_the_edge_a_forged_forwarded_header_does_not_escape_the_throttle() {
    let s = setup(&[("TRUSTED_PROXIES", "127.0.0.1")]);
    let app = admin_app!(s);
    let mut checked = 0;
    for i in 0..12 {
        // What nginx passes on: the visitor's own headers, then the address it appended.
        let forged = login(ADMIN, "zgadywane hasło")
            .insert_header(("Forwarded", format!("for=198.51.100.{i};proto=https")))
            .insert_header(("X-Forwarded-For", format!("192.0.2.{i}, 203.0.113.5")));
        let answer = send(&app, from("127.0.0.1", forged)).await;
        if answer.status != StatusCode::TOO_MANY_REQUESTS {
            checked += 1;
        }
    }
    assert_eq!(checked, FREE_PER_ACCOUNT, "wrong sign-ins checked of 12");
}

#[actix_rt::test]
async fn a_stranger_cannot_lock_the_admin_out() {
    let s = setup(&[]);
    let app = admin_app!(s);
    for _ in 0..FREE_PER_ACCOUNT {
        let answer = send(&app, from("127.0.0.2", login(ADMIN, "zgadywane hasło"))).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let stranger = send(&app, from("127.0.0.2", login(ADMIN, PASSWORD))).await;
    assert_eq!(
        stranger.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the stranger waits"
    );
    let admin = send(&app, from("127.0.0.3", login(ADMIN, PASSWORD))).await;
    assert_eq!(
        admin.status,
        StatusCode::OK,
        "the admin, elsewhere, signs in"
    );
    assert!(admin.cookie.is_some());
}

#[actix_rt::test]
async fn another_account_signing_in_does_not_clear_the_throttle_on_the_admin() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let guess = || from("127.0.0.2", login(ADMIN, "zgadywane hasło"));
    for _ in 1..FREE_PER_ACCOUNT {
        assert_eq!(send(&app, guess()).await.status, StatusCode::UNAUTHORIZED);
    }
    let other = send(&app, from("127.0.0.2", login(OTHER, OTHER_PASSWORD))).await;
    assert_eq!(
        other.status,
        StatusCode::FORBIDDEN,
        "signed in, but not the admin"
    );
    assert_eq!(
        send(&app, guess()).await.status,
        StatusCode::UNAUTHORIZED,
        "the last free guess"
    );
    assert_eq!(
        send(&app, guess()).await.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the admin's failures were all still counted"
    );
    let other = send(&app, from("127.0.0.2", login(OTHER, OTHER_PASSWORD))).await;
    assert_eq!(
        other.status,
        StatusCode::TOO_MANY_REQUESTS,
        "a waiting client waits whatever account it names"
    );
}

#[actix_rt::test]
async fn a_throttled_client_is_refused_before_its_body_is_read() {
    let s = setup(&[]);
    let app = admin_app!(s);
    for _ in 0..FREE_PER_ACCOUNT {
        send(&app, from("127.0.0.2", login(ADMIN, "zgadywane hasło"))).await;
    }
    let huge = json!({ "email": ADMIN, "password": "x".repeat(2 * 1024 * 1024) });
    let answer = send(
        &app,
        from(
            "127.0.0.2",
            test::TestRequest::post()
                .uri("/api/auth/login")
                .set_json(huge.clone()),
        ),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "not 413: the body was never read"
    );
    let fresh = send(
        &app,
        from(
            "127.0.0.3",
            test::TestRequest::post()
                .uri("/api/auth/login")
                .set_json(huge),
        ),
    )
    .await;
    assert_eq!(
        fresh.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "a client that may try has its body read (and refused when too large)"
    );
}

#[actix_rt::test]
async fn oversized_sign_in_fields_are_refused_and_nothing_is_stored() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let huge = "a".repeat(2 * 1024 * 1024) + "@example.pl";
    let answer = send(&app, login(&huge, "hasło")).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(answer.body["error"]
        .as_str()
        .is_some_and(|m| m.contains("zbyt duże")));
    let long_email = format!("{}@example.pl", "a".repeat(300));
    let answer = send(&app, login(&long_email, "hasło")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(answer.body["error"]
        .as_str()
        .is_some_and(|m| m.contains("254")));
    let long_password = "x".repeat(1025);
    assert_eq!(
        send(&app, login(ADMIN, &long_password)).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        s.state.auth.store.login_failures().expect("count"),
        0,
        "nothing stored"
    );
}

#[actix_rt::test]
async fn a_request_without_a_session_is_refused_before_its_body_is_read() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let body = json!({ "content": { "sections": [{ "type": "text", "content": "x".repeat(3 * 1024 * 1024) }] }, "version": "x" });
    let answer = send(
        &app,
        test::TestRequest::put()
            .uri("/api/pages/pages/cennik")
            .set_json(body),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::UNAUTHORIZED,
        "not 413: the body was never read"
    );
}

#[actix_rt::test]
async fn the_account_commands_refuse_what_makes_no_sense() {
    let s = setup(&[]);
    let run = |args: &[&str], password: &str| {
        common::account_command(&s.dir.path().join("var"), &s.root, args, password)
    };
    let (ok, err) = run(&["set-password", "nikt@example.pl"], "nowe długie hasło");
    assert!(!ok && err.contains("no account"), "{err}");
    let (ok, err) = run(&["add-account", OTHER], "nowe długie hasło");
    assert!(!ok && err.contains("already has an account"), "{err}");
    let (ok, _) = run(&["delete-account", OTHER], "");
    assert!(ok);
    assert!(s
        .state
        .auth
        .store
        .account(OTHER)
        .expect("looked up")
        .is_none());
    let (ok, err) = run(&["delete-account", OTHER], "");
    assert!(!ok && err.contains("no account"), "{err}");
}

#[actix_rt::test]
async fn password_checks_run_at_most_two_at_once_whatever_the_burst() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let attempts = (0..20).map(|i| {
        send(
            &app,
            from(
                &format!("127.0.1.{}", 2 + i),
                login(ADMIN, "zgadywane hasło"),
            ),
        )
    });
    let answers = futures_util::future::join_all(attempts).await;
    assert!(
        answers.iter().all(|a| a.status == StatusCode::UNAUTHORIZED),
        "each client gets its guess"
    );
    let peak = s.state.auth.hasher.peak();
    assert!(
        (1..=accounts::ARGON2_AT_ONCE).contains(&peak),
        "{peak} checks ran at once"
    );
}
