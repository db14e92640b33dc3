//! Faults survived: an SMTP relay that refuses connections, then accepts, gets every message
//! exactly once; a disk that fills during contact posts or a page save gives a clear error,
//! keeps every acknowledged message whole and the page as it was, and keeps the server serving (on a small tmpfs where this
//! machine lets the test mount one; skipped, saying so, where it does not).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::backup::{contact, request, Place};
use crate::common;

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn smtp_sink(port: u16, maildir: &Path) -> Option<Killed> {
    let child = Command::new("python3")
        .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
        .args(["-c", "aiosmtpd.handlers.Mailbox"])
        .arg(maildir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let sink = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !common::listening(&[port]) {
        if Instant::now() > deadline {
            return None;
        }
        clock::sleep(Duration::from_millis(50));
    }
    Some(sink)
}

#[test]
fn a_relay_that_refuses_then_accepts_gets_every_message_exactly_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    let smtp_port = common::free_port();
    let smtp_url = format!("smtp://127.0.0.1:{smtp_port}");
    let (_server, port, _) = place.serve_with(&[
        ("SMTP_URL", smtp_url.as_str()),
        ("OUTBOX_RETRY_SECONDS", "1"),
    ]);
    const SENT: usize = 8;
    for i in 0..SENT {
        assert_eq!(contact(port, i), 200, "stored though the relay is down");
    }
    // The relay refuses: each message is tried, kept, and tried again.
    common::wait_until("attempts were made", 30, || {
        let stored = place.db().messages(None, 100).expect("messages");
        stored.len() == SENT && stored.iter().all(|m| m.attempts >= 2)
    });
    let stored = place.db().messages(None, 100).expect("messages");
    assert!(stored
        .iter()
        .all(|m| m.status == "pending" && m.last_error.is_some()));

    let maildir = dir.path().join("maildir");
    let Some(_sink) = smtp_sink(smtp_port, &maildir) else {
        eprintln!("aiosmtpd is not installed (make test-deps): the relay test is skipped");
        return;
    };
    common::wait_until("every message delivered", 90, || {
        let stored = place.db().messages(None, 100).expect("messages");
        stored.iter().all(|m| m.status == "delivered")
    });
    // A message is marked delivered only after its send: no later poll sends it again, so
    // the mailbox is read now, without waiting for more polls.
    let mails: Vec<String> = std::fs::read_dir(maildir.join("new"))
        .expect("the maildir")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).expect("a mail"))
        .collect();
    assert_eq!(mails.len(), SENT, "one e-mail a message");
    for i in 0..SENT {
        let copies = mails
            .iter()
            .filter(|m| m.contains(&format!("osoba{i}@example.pl")))
            .count();
        assert_eq!(copies, 1, "message {i}");
    }
}

/// A tmpfs mounted at a folder, unmounted when dropped.
struct Mounted(PathBuf);

impl Mounted {
    fn tmpfs(at: &Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(at).expect("mkdir");
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| Mounted(at.to_path_buf()))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the filesystem of `dir` with one file, until it is full.
fn fill(path: &Path) {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .expect("the filler");
    let chunk = vec![0x5a_u8; 16 * 1024];
    while file.write_all(&chunk).is_ok() {}
    let _ = file.sync_all();
}

fn long_contact(port: u16, i: usize) -> (u16, String) {
    let body = serde_json::json!({
        "name": format!("Osoba {i}"),
        "email": format!("osoba{i}@example.pl"),
        "phone": "",
        "countryCode": "+48",
        "message": format!("Wiadomość numer {i}. {}", "Proszę o kontakt w sprawie terapii. ".repeat(50)),
        "fullPhone": "",
    });
    let (status, _, answer) = request(port, "POST", "/api/contact", &[], &body.to_string());
    (status, answer)
}

#[test]
fn a_full_disk_during_contact_posts_refuses_clearly_keeps_what_was_acknowledged_and_serves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    let Some(_mounted) = Mounted::tmpfs(&place.data, "8m") else {
        eprintln!("no tmpfs can be mounted here: the full-disk test is skipped");
        return;
    };
    let (server, port, _) = place.serve();
    let filler = place.data.join("wypelniacz");
    fill(&filler);

    let mut acknowledged = Vec::new();
    let mut refusal = None;
    for i in 0..400 {
        match long_contact(port, i) {
            (200, _) => acknowledged.push(i),
            (status, answer) => {
                refusal = Some((status, answer));
                break;
            }
        }
    }
    let (status, answer) = refusal.expect("a full disk refuses a message at last");
    assert!(status >= 500, "{status} {answer}\n{}", server.log());
    let error: serde_json::Value = serde_json::from_str(&answer).expect("a JSON error");
    let text = error["error"].as_str().unwrap_or_default();
    assert!(
        text.chars().any(|c| "ąćęłńóśźż".contains(c)) && text.len() > 20,
        "a clear error in Polish: {answer}"
    );
    // The server keeps serving the site and its health.
    assert_eq!(request(port, "GET", "/", &[], "").0, 200);
    assert_eq!(request(port, "GET", "/api/health", &[], "").0, 200);

    // Space again: the next message is stored, and nothing acknowledged was lost or cut.
    std::fs::remove_file(&filler).expect("rm");
    let next = 1_000;
    common::wait_until("a message is stored again", 30, || {
        long_contact(port, next).0 == 200
    });
    let stored = place.db().messages(None, 10_000).expect("messages");
    for i in acknowledged.iter().chain([&next]) {
        let found: Vec<_> = stored
            .iter()
            .filter(|m| m.email == format!("osoba{i}@example.pl"))
            .collect();
        assert_eq!(found.len(), 1, "message {i} stored once");
        assert!(found[0]
            .message
            .starts_with(&format!("Wiadomość numer {i}. ")));
        assert!(found[0].message.ends_with("terapii."), "message {i} whole");
    }
    let check = Command::new("sqlite3")
        .arg(place.data.join("site.sqlite3"))
        .arg("PRAGMA integrity_check;")
        .output();
    if let Ok(out) = check {
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
    }
}

#[test]
fn a_full_disk_during_a_page_save_refuses_clearly_and_leaves_the_page_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let install = dir.path().join("install");
    let Some(_mounted) = Mounted::tmpfs(&install, "256m") else {
        eprintln!("no tmpfs can be mounted here: the full-disk test is skipped");
        return;
    };
    let place = Place::at(&install);
    common::site_copy(&install);
    let (server, port, panel) = place.serve();
    let cookie = crate::backup::sign_in(panel);
    let page = place.root.join("content/pages/cennik.md");
    let before = std::fs::read_to_string(&page).expect("the page");
    let version = crate::backup::version_of(panel, &cookie, "pages/cennik");
    fill(&install.join("wypelniacz"));

    let body = serde_json::json!({
        "content": { "sections": [{ "type": "text", "content": "Nowy cennik. ".repeat(2000) }] },
        "version": version,
    });
    let (status, _, answer) = request(
        panel,
        "PUT",
        "/api/pages/pages/cennik",
        &[("Cookie", &cookie)],
        &body.to_string(),
    );
    assert!(status >= 500, "{status} {answer}\n{}", server.log());
    let error: serde_json::Value = serde_json::from_str(&answer).expect("a JSON error");
    let text = error["error"].as_str().unwrap_or_default();
    assert!(
        text.chars().any(|c| "ąćęłńóśźż".contains(c)) && text.len() > 20,
        "a clear error in Polish: {answer}"
    );
    assert_eq!(
        std::fs::read_to_string(&page).expect("the page"),
        before,
        "the page is as it was, not half-written"
    );
    assert_eq!(
        request(port, "GET", "/cennik", &[], "").0,
        200,
        "still serving"
    );

    // Space again: the next save goes through (as the contact test's next message, within the
    // seconds the server's background work takes to let go of the full disk).
    std::fs::remove_file(install.join("wypelniacz")).expect("rm");
    let save_again = || {
        let version = crate::backup::version_of(panel, &cookie, "pages/cennik");
        let body = serde_json::json!({
            "content": { "sections": [{ "type": "text", "content": "Cennik po awarii dysku." }] },
            "version": version,
        });
        let headers = [("Cookie", cookie.as_str())];
        request(
            panel,
            "PUT",
            "/api/pages/pages/cennik",
            &headers,
            &body.to_string(),
        )
        .0 == 200
    };
    common::wait_until(
        &format!("a save after the disk has space again\n{}", server.log()),
        30,
        save_again,
    );
    assert!(std::fs::read_to_string(&page)
        .expect("the page")
        .contains("Cennik po awarii dysku."));
}
