//! The administrator's account as the panel drives it: the second factor (an app's codes,
//! once each, and recovery codes), sessions listed and ended, a password change that ends
//! the other sessions, and a forgotten password reset by a code sent by e-mail.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::test;
use common::{login, send, setup, signed_in, Answer, ADMIN, PANEL_ORIGIN, PASSWORD};
use serde_json::json;
use sidecar::api::auth::totp::code_for;

type Cookie_ = Cookie<'static>;

fn with(cookie: &Cookie_, req: test::TestRequest) -> test::TestRequest {
    req.cookie(cookie.clone())
        .insert_header(("Origin", PANEL_ORIGIN))
}

fn post(cookie: &Cookie_, uri: &str, body: serde_json::Value) -> test::TestRequest {
    with(cookie, test::TestRequest::post().uri(uri).set_json(body))
}

fn pending(answer: &Answer) -> Cookie_ {
    let value = answer
        .headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("harmonia_pending=") && !v.starts_with("harmonia_pending=;"))
        .expect("a waiting sign-in's cookie")
        .to_string();
    Cookie::parse(value).expect("a cookie").into_owned()
}

/// Turns the app on for the admin; its secret and the recovery codes.
async fn enable_totp<S, B>(app: &S, cookie: &Cookie_) -> (String, Vec<String>)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let setup_first = send(app, post(cookie, "/api/auth/totp/setup", json!({}))).await;
    assert_eq!(setup_first.body["code"], "reauth", "{}", setup_first.text);
    let confirmed = send(
        app,
        post(cookie, "/api/auth/reauth", json!({ "password": PASSWORD })),
    )
    .await;
    assert_eq!(
        confirmed.status,
        StatusCode::NO_CONTENT,
        "{}",
        confirmed.text
    );
    let enrol = send(app, post(cookie, "/api/auth/totp/setup", json!({}))).await;
    assert_eq!(enrol.status, StatusCode::OK, "{}", enrol.text);
    let secret = enrol.body["secret"].as_str().expect("secret").to_string();
    assert!(enrol.body["qrSvg"]
        .as_str()
        .is_some_and(|s| s.contains("<svg")));
    let wrong = send(
        app,
        post(
            cookie,
            "/api/auth/totp/confirm",
            json!({ "code": "000000" }),
        ),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    let code = code_for(&secret, crate::common::now()).expect("code");
    let on = send(
        app,
        post(cookie, "/api/auth/totp/confirm", json!({ "code": code })),
    )
    .await;
    assert_eq!(on.status, StatusCode::OK, "{}", on.text);
    let codes: Vec<String> = on.body["recoveryCodes"]
        .as_array()
        .expect("codes")
        .iter()
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect();
    assert_eq!(codes.len(), 10);
    (secret, codes)
}

#[actix_rt::test]
async fn with_the_app_on_a_password_alone_makes_no_session_and_each_code_works_once() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let (secret, codes) = enable_totp(&app, &cookie).await;

    let first = send(&app, login(ADMIN, PASSWORD)).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.body["secondFactor"], true);
    assert!(
        first.cookie.is_none(),
        "no session before the second factor"
    );
    let waiting = pending(&first);
    let code = |body: serde_json::Value| {
        test::TestRequest::post()
            .uri("/api/auth/login/code")
            .cookie(waiting.clone())
            .set_json(body)
    };
    let wrong = send(&app, code(json!({ "code": "123456" }))).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body["error"]
        .as_str()
        .unwrap_or("")
        .contains("Nieprawidłowy kod"));
    // The confirmation used this step: the next one (within the allowed drift) signs in.
    let next = code_for(&secret, crate::common::now() + 30).expect("code");
    let signed = send(&app, code(json!({ "code": next }))).await;
    assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    let session = signed.cookie.expect("a session after the code");
    let who = send(
        &app,
        with(&session, test::TestRequest::get().uri("/api/auth/session")),
    )
    .await;
    assert_eq!(who.body["email"], ADMIN);
    // The same code again, in another sign-in: refused (RFC 6238 §5.2).
    let again = pending(&send(&app, login(ADMIN, PASSWORD)).await);
    let replay = test::TestRequest::post()
        .uri("/api/auth/login/code")
        .cookie(again.clone())
        .set_json(json!({ "code": next }));
    assert_eq!(send(&app, replay).await.status, StatusCode::UNAUTHORIZED);
    // A recovery code, typed in capitals with spaces, once.
    let typed = codes[3].to_uppercase().replace('-', " ");
    let recovery = || {
        test::TestRequest::post()
            .uri("/api/auth/login/code")
            .cookie(again.clone())
            .set_json(json!({ "code": typed }))
    };
    assert_eq!(send(&app, recovery()).await.status, StatusCode::OK);
    let third = pending(&send(&app, login(ADMIN, PASSWORD)).await);
    let used = test::TestRequest::post()
        .uri("/api/auth/login/code")
        .cookie(third)
        .set_json(json!({ "code": codes[3] }));
    assert_eq!(
        send(&app, used).await.status,
        StatusCode::UNAUTHORIZED,
        "used up"
    );
    // A waiting sign-in without its cookie, or a forged one, gets nothing.
    let forged = test::TestRequest::post()
        .uri("/api/auth/login/code")
        .cookie(Cookie::new("harmonia_pending", "zmyslony"))
        .set_json(json!({ "code": code_for(&secret, crate::common::now()).expect("code") }));
    assert_eq!(send(&app, forged).await.status, StatusCode::UNAUTHORIZED);

    let log = send(
        &app,
        with(&session, test::TestRequest::get().uri("/api/audit")),
    )
    .await;
    let events: Vec<String> = log
        .body
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["event"].as_str().unwrap_or(""),
                e["detail"].as_str().unwrap_or("")
            )
        })
        .collect();
    for expected in [
        "sign_in kod z aplikacji",
        "sign_in kod zapasowy",
        "second_factor_failed ",
        "totp_enabled ",
    ] {
        assert!(
            events.iter().any(|e| e == expected),
            "{expected:?} not in {events:?}"
        );
    }
}

#[actix_rt::test]
async fn sessions_are_listed_ended_one_by_one_or_all_others_and_a_password_change_ends_the_others()
{
    let s = setup(&[]);
    let app = admin_app!(s);
    let laptop = signed_in(&app).await;
    let phone = send(
        &app,
        login(ADMIN, PASSWORD).insert_header(("User-Agent", "Telefon")),
    )
    .await;
    let phone = phone.cookie.expect("second session");
    let tablet = signed_in(&app).await;
    let listed = send(
        &app,
        with(&laptop, test::TestRequest::get().uri("/api/auth/sessions")),
    )
    .await;
    let sessions = listed.body.as_array().expect("sessions").clone();
    assert_eq!(sessions.len(), 3);
    assert_eq!(sessions.iter().filter(|x| x["current"] == true).count(), 1);
    let on_phone = sessions
        .iter()
        .find(|x| x["agent"] == "Telefon")
        .expect("the phone's");
    let id = on_phone["id"].as_str().expect("id");
    let end = with(
        &laptop,
        test::TestRequest::delete().uri(&format!("/api/auth/sessions/{id}")),
    );
    assert_eq!(send(&app, end).await.status, StatusCode::NO_CONTENT);
    let session_of = |c: &Cookie_| with(c, test::TestRequest::get().uri("/api/messages"));
    assert_eq!(
        send(&app, session_of(&phone)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(send(&app, session_of(&tablet)).await.status, StatusCode::OK);
    // 'Wyloguj wszędzie': everything but this browser.
    let others = with(
        &laptop,
        test::TestRequest::delete().uri("/api/auth/sessions/others"),
    );
    assert_eq!(send(&app, others).await.body["ended"], 1);
    assert_eq!(
        send(&app, session_of(&tablet)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(send(&app, session_of(&laptop)).await.status, StatusCode::OK);

    let desk = signed_in(&app).await;
    let weak = post(
        &laptop,
        "/api/auth/password",
        json!({ "current": PASSWORD, "password": "krótkie" }),
    );
    assert_eq!(
        send(&app, weak).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let bad = post(
        &laptop,
        "/api/auth/password",
        json!({ "current": "nie to", "password": "nowe długie hasło gabinetu" }),
    );
    assert_eq!(
        send(&app, bad).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let changed = send(
        &app,
        post(
            &laptop,
            "/api/auth/password",
            json!({ "current": PASSWORD, "password": "nowe długie hasło gabinetu" }),
        ),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let fresh = changed.cookie.expect("this browser gets a new session");
    assert_eq!(
        send(&app, session_of(&desk)).await.status,
        StatusCode::UNAUTHORIZED,
        "at once"
    );
    assert_eq!(
        send(&app, session_of(&laptop)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(send(&app, session_of(&fresh)).await.status, StatusCode::OK);
    assert_eq!(
        send(&app, login(ADMIN, PASSWORD)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&app, login(ADMIN, "nowe długie hasło gabinetu"))
            .await
            .status,
        StatusCode::OK
    );
}

/// The newest e-mail of the outbox folder, as text.
fn newest_mail(s: &common::Setup) -> Option<String> {
    let dir = s.dir.path().join("var/outbox");
    let mut files: Vec<_> = std::fs::read_dir(dir).ok()?.flatten().collect();
    files.sort_by_key(|e| e.metadata().and_then(|m| m.modified()).ok());
    files
        .last()
        .and_then(|e| std::fs::read_to_string(e.path()).ok())
}

fn code_in(mail: &str) -> String {
    let at = mail.find("Kod: ").expect("a code in the e-mail") + 5;
    mail[at..at + 8].to_string()
}

#[actix_rt::test]
async fn a_forgotten_password_is_reset_with_a_code_from_the_admins_mailbox_and_the_apps_code() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let old = signed_in(&app).await;
    let (secret, _) = enable_totp(&app, &old).await;
    let ask = |email: &str| {
        test::TestRequest::post()
            .uri("/api/auth/reset")
            .set_json(json!({ "email": email }))
    };
    let stranger = send(&app, ask("ktos@example.pl")).await;
    assert_eq!(stranger.status, StatusCode::OK);
    assert!(newest_mail(&s).is_none(), "nobody else is e-mailed");
    let asked = send(&app, ask(ADMIN)).await;
    assert_eq!(asked.body, stranger.body, "the same answer for any address");
    let mail = newest_mail(&s).expect("an e-mail to the administrator");
    assert!(mail.contains(&format!("To: {ADMIN}")), "{mail}");
    let code = code_in(&mail);
    let confirm = |code: &str, second: &str| {
        test::TestRequest::post().uri("/api/auth/reset/confirm").set_json(json!({
            "email": ADMIN, "code": code, "password": "hasło po resecie gabinetu", "secondCode": second
        }))
    };
    assert_eq!(
        send(&app, confirm("00000000", "")).await.status,
        StatusCode::UNAUTHORIZED
    );
    let without_app = send(&app, confirm(&code, "")).await;
    assert_eq!(without_app.status, StatusCode::UNAUTHORIZED);
    assert!(
        without_app.text.contains("kod z aplikacji"),
        "{}",
        without_app.text
    );
    let app_code = code_for(&secret, crate::common::now() + 30).expect("code");
    let reset = send(&app, confirm(&code, &app_code)).await;
    assert_eq!(reset.status, StatusCode::NO_CONTENT, "{}", reset.text);
    let old_session = with(&old, test::TestRequest::get().uri("/api/messages"));
    assert_eq!(
        send(&app, old_session).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&app, confirm(&code, &app_code)).await.status,
        StatusCode::UNAUTHORIZED,
        "once"
    );
    let signed = send(&app, login(ADMIN, "hasło po resecie gabinetu")).await;
    assert_eq!(
        signed.body["secondFactor"], true,
        "the app still guards the account"
    );
}

#[actix_rt::test]
async fn reset_codes_are_throttled_and_guessing_them_ends_them() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let ask = test::TestRequest::post()
        .uri("/api/auth/reset")
        .set_json(json!({ "email": ADMIN }));
    assert_eq!(send(&app, ask).await.status, StatusCode::OK);
    let code = code_in(&newest_mail(&s).expect("mail"));
    let guesses: Vec<StatusCode> = guess_from_several_addresses(&app, 6).await;
    assert!(guesses
        .iter()
        .all(|g| *g == StatusCode::UNAUTHORIZED || *g == StatusCode::TOO_MANY_REQUESTS));
    let late = test::TestRequest::post()
        .uri("/api/auth/reset/confirm")
        .peer_addr("127.0.0.9:4000".parse().expect("address"))
        .set_json(json!({ "email": ADMIN, "code": code, "password": "hasło po resecie gabinetu" }));
    assert_eq!(
        send(&app, late).await.status,
        StatusCode::UNAUTHORIZED,
        "five wrong guesses end the code, even from another address"
    );
}

async fn guess_from_several_addresses<S, B>(app: &S, n: usize) -> Vec<StatusCode>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let mut out = Vec::new();
    for i in 0..n {
        let guess = test::TestRequest::post()
            .uri("/api/auth/reset/confirm")
            .peer_addr(format!("127.0.0.{}:4000", i + 2).parse().expect("address"))
            .set_json(json!({ "email": ADMIN, "code": format!("1234567{i}"), "password": "hasło po resecie gabinetu" }));
        out.push(send(app, guess).await.status);
    }
    out
}

#[actix_rt::test]
async fn passkey_ceremonies_need_a_key_a_fresh_confirmation_and_their_own_one_time_state() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let start = send(
        &app,
        test::TestRequest::post().uri("/api/auth/passkeys/login"),
    )
    .await;
    assert_eq!(start.status, StatusCode::NOT_FOUND);
    assert!(
        start.text.contains("Nie ma jeszcze zapisanego klucza"),
        "{}",
        start.text
    );
    let forged = test::TestRequest::post()
        .uri("/api/auth/passkeys/login/finish")
        .cookie(Cookie::new("harmonia_passkey", "zmyslony"))
        .set_json(json!({ "credential": {
            "id": "AA", "rawId": "AA", "type": "public-key",
            "response": { "authenticatorData": "AA", "clientDataJSON": "AA", "signature": "AA" }
        }}));
    assert_eq!(send(&app, forged).await.status, StatusCode::UNAUTHORIZED);
    let cookie = signed_in(&app).await;
    let register = send(
        &app,
        post(&cookie, "/api/auth/passkeys/register", json!({})),
    )
    .await;
    assert_eq!(
        register.body["code"], "reauth",
        "a new key needs the password again"
    );
    send(
        &app,
        post(&cookie, "/api/auth/reauth", json!({ "password": PASSWORD })),
    )
    .await;
    let options = send(
        &app,
        post(&cookie, "/api/auth/passkeys/register", json!({})),
    )
    .await;
    assert_eq!(options.status, StatusCode::OK, "{}", options.text);
    let key = &options.body["publicKey"];
    assert_eq!(
        key["rp"]["id"], "localhost",
        "the panel's host, not the site's"
    );
    assert_eq!(
        key["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert!(
        !options
            .text
            .contains(ADMIN.split('@').next().unwrap_or(ADMIN))
            || key["user"]["id"] != ADMIN
    );
    let from_elsewhere = test::TestRequest::post()
        .uri("/api/auth/passkeys/login")
        .insert_header(("Origin", "http://127.0.0.1:8080"));
    assert_eq!(
        send(&app, from_elsewhere).await.status,
        StatusCode::FORBIDDEN
    );
}

fn from(address: &str, req: test::TestRequest) -> test::TestRequest {
    req.peer_addr(format!("{address}:4000").parse().expect("address"))
}

fn code_from(waiting: &Cookie_, address: &str, code: &str) -> test::TestRequest {
    from(
        address,
        test::TestRequest::post()
            .uri("/api/auth/login/code")
            .cookie(waiting.clone())
            .set_json(json!({ "code": code })),
    )
}

#[actix_rt::test]
async fn sixteen_wrong_codes_from_three_addresses_end_the_waiting_sign_in() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let (secret, _) = enable_totp(&app, &cookie).await;
    // Whoever has the password gets one waiting sign-in, and guesses its code from three
    // addresses in turn.
    let waiting = pending(&send(&app, login(ADMIN, PASSWORD)).await);
    // All sixteen at once: each takes its try before its code is checked.
    let guesses = (0..16).map(|n| {
        let address = format!("127.0.0.{}", 2 + n % 3);
        send(&app, code_from(&waiting, &address, "000000"))
    });
    let answers = futures_util::future::join_all(guesses).await;
    assert!(answers.iter().all(|a| a.status != StatusCode::OK));
    let checked = answers
        .iter()
        .filter(|a| a.text.contains("Nieprawidłowy kod"))
        .count();
    assert!(checked <= 5, "{checked} wrong codes were checked");
    let right = code_for(&secret, crate::common::now() + 30).expect("code");
    let late = send(&app, code_from(&waiting, "127.0.0.5", &right)).await;
    assert_eq!(late.status, StatusCode::UNAUTHORIZED, "{}", late.text);
    assert!(late.text.contains("e-mail i hasło"), "{}", late.text);
}

#[actix_rt::test]
async fn wrong_codes_from_anywhere_make_every_code_of_the_account_wait_and_the_admin_is_told() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let (secret, _) = enable_totp(&app, &cookie).await;
    // Ten wrong codes over three sign-ins from six addresses: the account's free ones.
    for n in 0..10 {
        let address = format!("127.0.1.{}", 2 + n);
        let sign_in = from(&address, login(ADMIN, PASSWORD));
        let waiting = pending(&send(&app, sign_in).await);
        let answer = send(&app, code_from(&waiting, &address, "000000")).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    }
    let mail = newest_mail(&s).expect("the administrator is e-mailed");
    assert!(
        mail.contains(&format!("To: {ADMIN}")) && mail.contains("Subject: Gabinet Harmonia: Wiele"),
        "{mail}"
    );
    // Now even the right code, from an address never seen, waits.
    let waiting = pending(&send(&app, from("127.0.2.2", login(ADMIN, PASSWORD))).await);
    let right = code_for(&secret, crate::common::now() + 30).expect("code");
    let answer = send(&app, code_from(&waiting, "127.0.2.2", &right)).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
}

#[actix_rt::test]
async fn forty_codes_sent_at_once_from_eight_addresses_have_at_most_the_accounts_free_ones_checked()
{
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let (secret, _) = enable_totp(&app, &cookie).await;
    // Eight sign-ins with the password, from 127.0.0.2–9, then five codes from each at once.
    let mut sign_ins = Vec::new();
    for n in 2..=9 {
        let address = format!("127.0.0.{n}");
        let waiting = pending(&send(&app, from(&address, login(ADMIN, PASSWORD))).await);
        sign_ins.push((address, waiting));
    }
    let requests: Vec<_> = sign_ins
        .iter()
        .flat_map(|(address, waiting)| (0..5).map(move |_| code_from(waiting, address, "000000")))
        .collect();
    let codes = requests.into_iter().map(|r| send(&app, r));
    let answers = futures_util::future::join_all(codes).await;
    assert_eq!(answers.len(), 40);
    // A checked code is a wrong one (401); one refused before its check waits (429).
    let checked = answers
        .iter()
        .filter(|a| a.status == StatusCode::UNAUTHORIZED)
        .count();
    let refused = answers
        .iter()
        .filter(|a| a.status == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert!(
        checked <= accounts::throttle::FREE_CODES_PER_ACCOUNT as usize,
        "{checked} codes were checked"
    );
    assert_eq!(
        checked + refused,
        40,
        "every code is either checked or waits"
    );
    let store = &s.state.auth.store;
    let (id, _) = store.account(ADMIN).expect("read").expect("the account");
    let (wrong, _) = store.code_failures(id, 0).expect("counted");
    assert_eq!(
        wrong as usize, checked,
        "each checked code is counted once, none left reserved"
    );
    // The account now waits, even for the right code from an address never seen.
    let waiting = pending(&send(&app, from("127.0.0.10", login(ADMIN, PASSWORD))).await);
    let right = code_for(&secret, crate::common::now() + 30).expect("code");
    let answer = send(&app, code_from(&waiting, "127.0.0.10", &right)).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
}

#[actix_rt::test]
async fn a_strangers_reset_request_never_replaces_the_live_code() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let ask = |address: &str| {
        from(
            address,
            test::TestRequest::post()
                .uri("/api/auth/reset")
                .set_json(json!({ "email": ADMIN })),
        )
    };
    assert_eq!(send(&app, ask("127.0.0.2")).await.status, StatusCode::OK);
    let code = code_in(&newest_mail(&s).expect("mail"));
    let mails = std::fs::read_dir(s.dir.path().join("var/outbox"))
        .expect("outbox")
        .count();
    for address in ["127.0.0.3", "127.0.0.4"] {
        assert_eq!(send(&app, ask(address)).await.status, StatusCode::OK);
    }
    let after = std::fs::read_dir(s.dir.path().join("var/outbox"))
        .expect("outbox")
        .count();
    assert_eq!(after, mails, "no second code while the first works");
    let confirm = test::TestRequest::post()
        .uri("/api/auth/reset/confirm")
        .set_json(json!({ "email": ADMIN, "code": code, "password": "hasło po resecie gabinetu" }));
    let reset = send(&app, confirm).await;
    assert_eq!(reset.status, StatusCode::NO_CONTENT, "{}", reset.text);
}

#[actix_rt::test]
async fn a_session_ended_elsewhere_says_so_and_a_new_second_factor_ends_the_others() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let laptop = signed_in(&app).await;
    let phone = signed_in(&app).await;
    let ended = with(
        &laptop,
        test::TestRequest::delete().uri("/api/auth/sessions/others"),
    );
    assert_eq!(send(&app, ended).await.body["ended"], 1);
    let asked = send(
        &app,
        with(&phone, test::TestRequest::get().uri("/api/prices")),
    )
    .await;
    assert_eq!(asked.status, StatusCode::UNAUTHORIZED);
    assert_eq!(asked.body["code"], "signed_out_elsewhere");
    assert!(
        asked.text.contains("Wylogowano na innym urządzeniu"),
        "{}",
        asked.text
    );
    // Turning the app on ends every session but the one that did it.
    let tablet = signed_in(&app).await;
    enable_totp(&app, &laptop).await;
    let asked = send(
        &app,
        with(&tablet, test::TestRequest::get().uri("/api/prices")),
    )
    .await;
    assert_eq!(asked.body["code"], "signed_out_elsewhere", "{}", asked.text);
    let own = send(
        &app,
        with(&laptop, test::TestRequest::get().uri("/api/prices")),
    )
    .await;
    assert_eq!(own.status, StatusCode::OK);
}

#[actix_rt::test]
async fn a_session_idles_out_while_the_panel_polls_by_itself() {
    let s = setup(&[("SESSION_IDLE_SECONDS", "2")]);
    let app = admin_app!(s);
    let busy = signed_in(&app).await;
    let polled = signed_in(&app).await;
    let poll = |c: &Cookie_| {
        with(c, test::TestRequest::get().uri("/api/git")).insert_header(("X-Panel-Background", "1"))
    };
    let act = |c: &Cookie_| with(c, test::TestRequest::get().uri("/api/prices"));
    for _ in 0..7 {
        clock::sleep(std::time::Duration::from_millis(500));
        assert_eq!(send(&app, act(&busy)).await.status, StatusCode::OK);
        let answer = send(&app, poll(&polled)).await;
        if answer.status != StatusCode::OK {
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
            break;
        }
    }
    // 3.5 s of polling, no action: the polled session ended; the busy one did not.
    let after = send(&app, act(&polled)).await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED, "{}", after.text);
    assert_eq!(after.body["code"], "signed_out");
    assert_eq!(send(&app, act(&busy)).await.status, StatusCode::OK);
}

#[actix_rt::test]
async fn a_refused_confirmation_names_the_field_it_refused() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let field =
        |body: &serde_json::Value| body["problems"][0]["field"].as_str().map(str::to_string);
    let wrong = send(
        &app,
        post(
            &cookie,
            "/api/auth/reauth",
            json!({ "password": "nie to hasło" }),
        ),
    )
    .await;
    assert_eq!(
        wrong.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        wrong.text
    );
    assert_eq!(
        field(&wrong.body).as_deref(),
        Some("password"),
        "{}",
        wrong.text
    );
    enable_totp(&app, &cookie).await;
    let no_code = send(
        &app,
        post(
            &cookie,
            "/api/auth/reauth",
            json!({ "password": PASSWORD, "code": "000000" }),
        ),
    )
    .await;
    assert_eq!(
        no_code.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        no_code.text
    );
    assert_eq!(
        field(&no_code.body).as_deref(),
        Some("code"),
        "{}",
        no_code.text
    );
}
