//! A restart of the server, as the owner lives it: with the same `ADMIN_PASSWORD` she stays
//! signed in; with another one her session ends, and the panel says the password changed —
//! never that someone signed her out on another device.

use serde_json::Value;

use crate::backup::{request, sign_in, Place};
use crate::common;

/// The session check of `cookie` on the panel at `port`: its status and body.
fn session(port: u16, cookie: &str) -> (u16, Value) {
    let (status, _, body) = request(port, "GET", "/api/auth/sessions", &[("Cookie", cookie)], "");
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn a_restart_keeps_the_sessions_and_a_new_admin_password_says_it_ended_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    place.db();
    let (server, _, panel) = place.serve_with(&[]);
    let cookie = sign_in(panel);
    assert_eq!(session(panel, &cookie).0, 200);
    drop(server);

    // The same ADMIN_PASSWORD: the server comes back and the owner is still signed in.
    let (server, _, panel) = place.serve_with(&[]);
    assert_eq!(session(panel, &cookie).0, 200, "a restart ends no session");
    drop(server);

    // Another ADMIN_PASSWORD: the session ended, and the panel is told the truth.
    let new_password = "inne hasło ustawione przy starcie";
    let (_server, _, panel) = place.serve_with(&[("ADMIN_PASSWORD", new_password)]);
    let (status, body) = session(panel, &cookie);
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["code"], "password_changed", "{body}");
    let said = body["error"].as_str().unwrap_or_default();
    assert!(said.contains("Hasło do panelu zostało zmienione"), "{said}");
    assert!(!said.contains("innym urządzeniu"), "{said}");
}
