//! The panel's inbox: every state a message can be in, every action on it, and every
//! refusal (401 without a session, 403 for another account, 404 for an unknown id, 403 from
//! another origin).

use crate::common;

use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{send, setup, signed_in, Setup, OTHER};
use serde_json::Value;
use sidecar::db::{NewMessage, Spam};

fn message(email: &str, spam: Option<Spam>) -> NewMessage {
    NewMessage {
        name: "Anna Kowalska".into(),
        email: email.into(),
        phone: String::new(),
        country_code: "+48".into(),
        full_phone: String::new(),
        message: "Dzień dobry, proszę o kontakt.".into(),
        spam,
    }
}

/// A pending, a failed, a delivered and a held message; their ids in that order.
fn inbox(s: &Setup) -> [i64; 4] {
    let db = &s.state.db;
    let pending = db
        .insert_message(&message("anna@example.pl", None), 100)
        .expect("stored");
    let failed = db
        .insert_message(&message("anna@example.pl", Some(Spam::TooFast)), 200)
        .expect("stored");
    db.mark_attempt_failed(failed, "550 odrzucono", None)
        .expect("failed");
    let delivered = db
        .insert_message(&message("jan@example.pl", None), 300)
        .expect("stored");
    db.mark_delivered(delivered, 301).expect("delivered");
    let held = db
        .insert_message(&message("bot@example.pl", Some(Spam::Honeypot)), 400)
        .expect("stored");
    [pending, failed, delivered, held]
}

fn get(uri: &str, cookie: &actix_web::cookie::Cookie<'static>) -> test::TestRequest {
    test::TestRequest::get().uri(uri).cookie(cookie.clone())
}

fn post(uri: &str, cookie: &actix_web::cookie::Cookie<'static>) -> test::TestRequest {
    test::TestRequest::post().uri(uri).cookie(cookie.clone())
}

fn delete(uri: &str, cookie: &actix_web::cookie::Cookie<'static>) -> test::TestRequest {
    test::TestRequest::delete().uri(uri).cookie(cookie.clone())
}

#[actix_rt::test]
async fn the_inbox_lists_every_message_newest_first_with_its_state() {
    let s = setup(&[]);
    let [pending, failed, delivered, held] = inbox(&s);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let list = send(&app, get("/api/messages", &cookie)).await;
    assert_eq!(list.status, StatusCode::OK);
    let rows = list.body["messages"].as_array().expect("a list").clone();
    let ids: Vec<i64> = rows.iter().filter_map(|m| m["id"].as_i64()).collect();
    assert_eq!(ids, vec![held, delivered, failed, pending], "newest first");
    let state = |i: usize| {
        (
            rows[i]["status"].clone(),
            rows[i]["spam"].clone(),
            rows[i]["held"].clone(),
        )
    };
    assert_eq!(state(0), ("pending".into(), "honeypot".into(), true.into()));
    assert_eq!(state(1), ("delivered".into(), Value::Null, false.into()));
    assert_eq!(state(2), ("failed".into(), "too_fast".into(), false.into()));
    assert_eq!(rows[2]["lastError"], "550 odrzucono");
    let one = send(&app, get(&format!("/api/messages/{failed}"), &cookie)).await;
    assert_eq!(one.body["message"], "Dzień dobry, proszę o kontakt.");
    assert_eq!(
        send(&app, get("/api/messages/999999", &cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[actix_rt::test]
async fn a_failed_message_is_retried_and_a_held_one_released() {
    let s = setup(&[]);
    let [pending, failed, _, held] = inbox(&s);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let retried = send(
        &app,
        post(&format!("/api/messages/{failed}/retry"), &cookie),
    )
    .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    assert_eq!(
        (
            retried.body["status"].as_str(),
            retried.body["attempts"].as_i64()
        ),
        (Some("pending"), Some(0))
    );
    let released = send(
        &app,
        post(&format!("/api/messages/{held}/release"), &cookie),
    )
    .await;
    assert_eq!(released.status, StatusCode::OK);
    assert_eq!(released.body["held"], false);
    let due: Vec<i64> = s
        .state
        .db
        .due_messages(i64::MAX, 10)
        .expect("due")
        .iter()
        .map(|m| m.id)
        .collect();
    assert!(
        due.contains(&failed) && due.contains(&held),
        "both are on their way: {due:?}"
    );
    for (uri, id) in [("retry", pending), ("release", pending)] {
        let refused = send(&app, post(&format!("/api/messages/{id}/{uri}"), &cookie)).await;
        assert_eq!(
            refused.status,
            StatusCode::CONFLICT,
            "{uri} of a pending message"
        );
        assert!(refused.body["error"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    assert_eq!(
        send(&app, post("/api/messages/999999/retry", &cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[actix_rt::test]
async fn a_message_is_deleted_and_a_sender_exported_and_erased() {
    let s = setup(&[]);
    let [pending, ..] = inbox(&s);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    // Exporting and erasing someone's messages needs the password again.
    let asked = send(
        &app,
        get("/api/messages/export?email=ANNA@example.pl", &cookie),
    )
    .await;
    assert_eq!(asked.status, StatusCode::UNAUTHORIZED);
    assert_eq!(asked.body["code"], "reauth");
    let erase = send(&app, delete("/api/messages?email=anna@example.pl", &cookie)).await;
    assert_eq!(erase.body["code"], "reauth", "{}", erase.text);
    let wrong =
        post("/api/auth/reauth", &cookie).set_json(serde_json::json!({ "password": "nie to" }));
    assert_eq!(
        send(&app, wrong).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let right = post("/api/auth/reauth", &cookie)
        .set_json(serde_json::json!({ "password": common::PASSWORD }));
    assert_eq!(send(&app, right).await.status, StatusCode::NO_CONTENT);
    let exported = send(
        &app,
        get(
            "/api/messages/export?email=ANNA@example.pl&format=json",
            &cookie,
        ),
    )
    .await;
    assert_eq!(exported.status, StatusCode::OK);
    assert!(exported
        .headers
        .get(header::CONTENT_DISPOSITION)
        .is_some_and(|v| v.to_str().is_ok_and(|v| v.starts_with("attachment"))));
    assert_eq!(
        exported.body["messages"].as_array().map(Vec::len),
        Some(2),
        "both of hers, any case"
    );
    assert_eq!(
        send(&app, get("/api/messages/export", &cookie))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        send(&app, delete(&format!("/api/messages/{pending}"), &cookie))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        send(&app, delete(&format!("/api/messages/{pending}"), &cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let erased = send(&app, delete("/api/messages?email=anna@example.pl", &cookie)).await;
    assert_eq!(erased.body["deleted"], 1);
    assert!(
        erased.body["backups"]
            .as_str()
            .is_some_and(|b| b.contains("12 miesięcy")),
        "{}",
        erased.text
    );
    assert!(
        erased.body["mailbox"]
            .as_str()
            .is_some_and(|m| m.contains("skrzynki pocztowej gabinetu")),
        "{}",
        erased.text
    );
    let left: Vec<String> = s.stored().into_iter().map(|m| m.email).collect();
    assert_eq!(left, vec!["bot@example.pl", "jan@example.pl"]);
    // The audit log says who did what, never whose messages or what they said.
    let log = send(&app, get("/api/audit", &cookie)).await;
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
        "messages_erased wiadomości: 1, pliki poczty: 0".to_string(),
        format!("message_deleted nr {pending}"),
        "messages_exported wiadomości: 2 (JSON)".to_string(),
        "reauthenticated ".to_string(),
        "reauth_failed hasło".to_string(),
    ] {
        assert!(events.contains(&expected), "{expected:?} not in {events:?}");
    }
    assert!(
        !log.text.contains("Proszę") && !log.text.contains("anna@"),
        "no message text, no address: {}",
        log.text
    );
    assert!(log.body[0]["actor"] == common::ADMIN && log.body[0]["client"] == "127.0.0.1");
}

#[actix_rt::test]
async fn the_inbox_refuses_strangers_other_accounts_and_other_origins() {
    let s = setup(&[]);
    let [pending, ..] = inbox(&s);
    let app = admin_app!(s);
    let anonymous = test::TestRequest::get().uri("/api/messages");
    assert_eq!(send(&app, anonymous).await.status, StatusCode::UNAUTHORIZED);
    let anonymous = test::TestRequest::delete().uri(&format!("/api/messages/{pending}"));
    assert_eq!(send(&app, anonymous).await.status, StatusCode::UNAUTHORIZED);
    // A session of another account: the admin was someone else when it was made.
    let token = "inne-konto-sesja";
    let hash = sidecar::api::auth::sessions::token_hash(token);
    let (other_id, other_password) = s
        .state
        .auth
        .store
        .account(OTHER)
        .expect("looked up")
        .expect("exists");
    s.state
        .auth
        .store
        .insert_session(
            &accounts::store::SessionRow {
                token_hash: hash.clone(),
                email: OTHER.into(),
                created_at: crate::common::now(),
                last_seen_at: crate::common::now(),
                client: String::new(),
                agent: String::new(),
            },
            other_id,
            &other_password,
        )
        .expect("session");
    s.state
        .auth
        .sessions
        .insert(hash, OTHER, crate::common::now());
    let other = actix_web::cookie::Cookie::new(sidecar::http::admin::COOKIE, token);
    let refused = send(&app, get("/api/messages", &other)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(refused.body["title"], "Brak dostępu");
    let cookie = signed_in(&app).await;
    let cross = delete(&format!("/api/messages/{pending}"), &cookie)
        .insert_header((header::ORIGIN, "https://evil.example"));
    assert_eq!(send(&app, cross).await.status, StatusCode::FORBIDDEN);
    assert_eq!(s.stored().len(), 4, "nothing deleted");
}

/// Reauthenticates the admin of `cookie` (exports and erasures ask for it).
async fn reauthenticated<S, B>(app: &S, cookie: &actix_web::cookie::Cookie<'static>)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let right = post("/api/auth/reauth", cookie)
        .set_json(serde_json::json!({ "password": common::PASSWORD }));
    assert_eq!(send(app, right).await.status, StatusCode::NO_CONTENT);
}

#[actix_rt::test]
async fn the_export_is_a_polish_document_for_the_person() {
    let s = setup(&[]);
    inbox(&s);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    reauthenticated(&app, &cookie).await;
    let document = send(
        &app,
        get("/api/messages/export?email=anna@example.pl", &cookie),
    )
    .await;
    assert_eq!(document.status, StatusCode::OK);
    let kind = document.headers.get(header::CONTENT_TYPE).expect("a type");
    assert_eq!(kind, "text/html; charset=utf-8");
    for expected in [
        "<html lang=\"pl\">",
        "Data otrzymania",
        "Treść wiadomości",
        "nie udało się jej przekazać do skrzynki gabinetu",
        "1 stycznia 1970, 01:01",
        "Liczba wiadomości: 2.",
    ] {
        assert!(
            document.text.contains(expected),
            "{expected:?}: {}",
            document.text
        );
    }
    for raw in ["receivedAt", "\"status\"", "failed", "jan@example.pl"] {
        assert!(!document.text.contains(raw), "{raw:?}: {}", document.text);
    }
    let unknown = get(
        "/api/messages/export?email=anna@example.pl&format=pdf",
        &cookie,
    );
    let refused = send(&app, unknown).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text.contains("dokument HTML"), "{}", refused.text);
}

/// Every file under `dir` (not following links) whose bytes contain `needle`.
fn files_holding(dir: &std::path::Path, needle: &str) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            std::fs::read(e.path())
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
        .map(|e| e.path().display().to_string())
        .collect()
}

#[actix_rt::test]
async fn erasure_leaves_no_copy_in_the_database_or_the_outbox_folder() {
    let s = setup(&[]);
    let db = &s.state.db;
    let hers = |text: &str| NewMessage {
        message: text.into(),
        ..message("anna@example.pl", None)
    };
    db.insert_message(&hers("Pierwsza prośba o termin."), 100)
        .expect("stored");
    db.insert_message(&message("jan@example.pl", None), 100)
        .expect("stored");
    // Both sent: written to the outbox folder as .eml files.
    assert_eq!(s.state.contact.outbox.deliver_due(100).expect("sent"), 2);
    let queued = db
        .insert_message(&hers("Druga prośba, jeszcze w kolejce."), 200)
        .expect("stored");
    let outbox = s.dir.path().join("var/outbox");
    // A link in the outbox folder is not followed: what it points to stays.
    let outside = s.dir.path().join("poza.eml");
    std::fs::write(&outside, "Reply-To: <anna@example.pl>\r\n\r\nnie ruszać").expect("file");
    std::os::unix::fs::symlink(&outside, outbox.join("link.eml")).expect("link");
    let data = s.dir.path().join("var");
    assert!(!files_holding(&data, "anna@example.pl").is_empty());

    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    reauthenticated(&app, &cookie).await;
    let erased = send(&app, delete("/api/messages?email=Anna@Example.pl", &cookie)).await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text);
    assert_eq!(erased.body["deleted"], 2);
    assert_eq!(erased.body["files"], 1);

    for needle in ["anna@example.pl", "Pierwsza prośba", "Druga prośba"] {
        assert_eq!(
            files_holding(&data, needle),
            Vec::<String>::new(),
            "{needle:?} is still on disk"
        );
    }
    assert!(s.state.db.message(queued).expect("read").is_none());
    assert_eq!(
        files_holding(&data, "jan@example.pl").len(),
        2,
        "his row and his .eml file stay"
    );
    assert!(outside.exists() && outbox.join("link.eml").exists());
}
