//! Contact messages reach a real SMTP server (aiosmtpd from PyPI, on a free loopback port):
//! a suspected one with a marker in its subject, a honeypot one not at all; and every message
//! acknowledged while that server was down arrives exactly once after the sidecar is killed
//! (SIGKILL) and started again.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    common::wait_for(
        Duration::from_secs(30),
        Duration::from_millis(50),
        || format!("{what} did not listen on port {port} within 30 s"),
        || {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("{what} exited early with {status}");
            }
            common::listening(&[port]).then_some(())
        },
    );
}

/// A process killed when dropped, as a crash would end it.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn smtp_server(port: u16, maildir: &Path) -> Killed {
    let mut child = Command::new("python3")
        .args([
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            &format!("127.0.0.1:{port}"),
            "-c",
            "aiosmtpd.handlers.Mailbox",
        ])
        .arg(maildir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs (make test installs aiosmtpd with pip)");
    wait_for_port(
        port,
        "aiosmtpd (python3 -m pip install aiosmtpd)",
        &mut child,
    );
    Killed(child)
}

fn sidecar(dir: &Path, port: u16, smtp_port: u16) -> Killed {
    sidecar_with(dir, port, smtp_port, "0")
}

/// The sidecar on `port` with its files under `dir`, quiet.
fn sidecar_command(dir: &Path, port: u16) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    command
        .env("PORT", port.to_string())
        .env("ADMIN_PORT", common::free_port().to_string())
        .env("SITE_ROOT", common::repo_root())
        .env("DIST_DIR", dir.join("dist"))
        .env("DATA_DIR", dir.join("var"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn sidecar_with(dir: &Path, port: u16, smtp_port: u16, min_seconds: &str) -> Killed {
    let mut child = sidecar_command(dir, port)
        .env("SMTP_URL", format!("smtp://127.0.0.1:{smtp_port}"))
        .env("CONTACT_MIN_SECONDS", min_seconds)
        .env("OUTBOX_RETRY_SECONDS", "1")
        .env("OUTBOX_POLL_SECONDS", "1")
        .spawn()
        .expect("the sidecar binary starts");
    wait_for_port(port, "the sidecar", &mut child);
    Killed(child)
}

/// A plain HTTP/1.1 request on loopback: (status, body).
fn http(port: u16, method: &str, path: &str, json: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let body = json.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn token(port: u16) -> serde_json::Value {
    let (status, body) = http(port, "GET", "/api/contact/token", None);
    assert_eq!(status, 200, "{body}");
    let token: serde_json::Value = serde_json::from_str(&body).expect("token json");
    token["token"].clone()
}

/// Posts a message from `name` with `token` and the honeypot `website`; answered 200.
fn post(port: u16, name: &str, token: serde_json::Value, website: &str) {
    let message = serde_json::json!({
        "name": name,
        "email": "zofia@example.pl",
        "phone": "601234567",
        "countryCode": "+48",
        "message": "Dzień dobry, proszę o kontakt w sprawie terapii.",
        "fullPhone": "+48601234567",
        "token": token,
        "website": website
    });
    let (status, body) = http(port, "POST", "/api/contact", Some(&message.to_string()));
    assert_eq!(status, 200, "{body}");
}

fn send_message(port: u16) {
    post(port, "Zofia Wójcik", token(port), "");
}

/// A header of a stored e-mail, decoded by Python's e-mail package as a mail client would.
fn header(mail: &Path, name: &str) -> String {
    let script = "import sys, email; from email.header import decode_header, make_header; m = email.message_from_binary_file(open(sys.argv[1], 'rb')); print(str(make_header(decode_header(m[sys.argv[2]] or ''))))";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(mail)
        .arg(name)
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn mails(maildir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(maildir.join("new"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

fn wait_for_mails(maildir: &Path, count: usize) -> Vec<PathBuf> {
    common::wait_for(
        Duration::from_secs(30),
        Duration::from_millis(100),
        || format!("{count} e-mail(s) did not arrive within 30 s"),
        || Some(mails(maildir)).filter(|found| found.len() >= count),
    )
}

/// Waits (at most 30 s) until the outbox has nothing left to deliver.
fn wait_for_outbox(db: &sidecar::db::Db) {
    common::wait_until("messages still pending after 30 s", 30, || {
        db.count("pending").expect("count") == 0
    });
}

/// Decodes a quoted-printable body.
fn unquote(text: &str) -> String {
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn a_message_arrives_at_the_smtp_server_with_every_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maildir = dir.path().join("maildir");
    let smtp_port = common::free_port();
    let _smtp = smtp_server(smtp_port, &maildir);
    let port = common::free_port();
    let _sidecar = sidecar(dir.path(), port, smtp_port);
    send_message(port);
    let mail = std::fs::read_to_string(&wait_for_mails(&maildir, 1)[0]).expect("read mail");
    assert!(mail.contains("To: kontakt@gabinet-harmonia.pl"), "{mail}");
    assert!(
        mail.contains("Reply-To: =?utf-8?") || mail.contains("Reply-To: \"Zofia"),
        "{mail}"
    );
    assert!(mail.contains("<zofia@example.pl>"), "{mail}");
    let body = unquote(&mail);
    for field in [
        "Zofia Wójcik",
        "zofia@example.pl",
        "+48601234567",
        "601234567",
        "Dzień dobry, proszę o kontakt w sprawie terapii.",
    ] {
        assert!(body.contains(field), "{field} missing in {body}");
    }
}

#[test]
fn a_too_fast_message_arrives_marked_and_a_honeypot_message_arrives_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maildir = dir.path().join("maildir");
    let smtp_port = common::free_port();
    let _smtp = smtp_server(smtp_port, &maildir);
    let port = common::free_port();
    let _sidecar = sidecar_with(dir.path(), port, smtp_port, "3");
    let shown = token(port);
    post(port, "Szybka Osoba", shown, "");
    post(port, "Bot Spamujący", token(port), "https://spam.example");
    let mail = &wait_for_mails(&maildir, 1)[0];
    let subject = header(mail, "Subject");
    assert!(subject.starts_with("[podejrzenie spamu]"), "{subject}");
    assert!(subject.contains("Szybka Osoba"), "{subject}");
    assert!(unquote(&std::fs::read_to_string(mail).expect("mail")).contains("UWAGA"));
    // Nothing is left to deliver: the held honeypot message was never queued.
    let db = sidecar::db::Db::open(&dir.path().join("var/site.sqlite3")).expect("open db");
    wait_for_outbox(&db);
    assert_eq!(
        mails(&maildir).len(),
        1,
        "the honeypot message is not e-mailed"
    );
    let kept = db.messages(None, 10).expect("messages");
    assert_eq!(kept.len(), 2, "both are in the inbox");
    assert!(kept
        .iter()
        .any(|m| m.held && m.spam == Some(sidecar::db::Spam::Honeypot)));
}

#[test]
fn every_acknowledged_message_arrives_exactly_once_after_a_kill_and_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maildir = dir.path().join("maildir");
    let smtp_port = common::free_port();
    let port = common::free_port();
    {
        let _sidecar = sidecar_with(dir.path(), port, smtp_port, "2");
        let early = token(port);
        post(port, "Szybka Osoba", early, "");
        post(port, "Bez Znacznika", serde_json::Value::Null, "");
        post(port, "Bot Spamujący", token(port), "https://spam.example");
        let shown = token(port);
        clock::sleep(Duration::from_millis(2100));
        post(port, "Zofia Wójcik", shown, "");
        clock::sleep(Duration::from_millis(1500));
    } // killed here (SIGKILL), with every message acknowledged and none delivered
    let db = sidecar::db::Db::open(&dir.path().join("var/site.sqlite3")).expect("open db");
    assert_eq!(
        db.count("pending").expect("count"),
        3,
        "the acknowledged messages are kept"
    );
    assert_eq!(
        db.messages(None, 10).expect("all").len(),
        4,
        "and the held one"
    );
    let _smtp = smtp_server(smtp_port, &maildir);
    let restarted = Instant::now();
    let _sidecar = sidecar_with(dir.path(), port, smtp_port, "2");
    let arrived = wait_for_mails(&maildir, 3);
    let delivered_in = restarted.elapsed();
    // A message is marked delivered only after its send: once none is pending, a second copy
    // would already be in the mailbox.
    wait_for_outbox(&db);
    let all = mails(&maildir);
    assert_eq!(
        all.len(),
        3,
        "each delivered exactly once, the held one not at all"
    );
    let mut subjects: Vec<String> = all.iter().map(|m| header(m, "Subject")).collect();
    subjects.sort();
    assert_eq!(
        subjects,
        vec![
            "Wiadomość ze strony od: Zofia Wójcik",
            "[podejrzenie spamu] Wiadomość ze strony od: Bez Znacznika",
            "[podejrzenie spamu] Wiadomość ze strony od: Szybka Osoba",
        ]
    );
    assert_eq!(db.count("delivered").expect("count"), 3);
    eprintln!(
        "kill test: 4 acknowledged (1 clean, 1 too fast, 1 without token, 1 honeypot), SIGKILL before delivery; after restart {} delivered in {} ms (first at most 1 s poll), 0 duplicates, honeypot held",
        arrived.len(),
        delivered_in.as_millis()
    );
}

/// Posts `name`'s message on one connection; `true` when it was acknowledged (200).
fn acknowledged(port: u16, name: &str) -> bool {
    let message = serde_json::json!({
        "name": name,
        "email": "zofia@example.pl",
        "phone": "",
        "countryCode": "+48",
        "message": "Dzień dobry, proszę o kontakt.",
        "fullPhone": "",
        "token": serde_json::Value::Null,
        "website": ""
    })
    .to_string();
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let request = format!(
        "POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{message}",
        message.len()
    );
    let mut answer = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut answer).is_ok()
        && answer.starts_with("HTTP/1.1 200")
}

#[test]
fn a_kill_during_a_burst_loses_no_acknowledged_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = common::free_port();
    let mut sidecar = sidecar_command(dir.path(), port)
        .env("CONTACT_RATE_PER_MINUTE", "1000000")
        .spawn()
        .expect("the sidecar binary starts");
    wait_for_port(port, "the sidecar", &mut sidecar);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let senders: Vec<_> = (0..16)
        .map(|s| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut acked = Vec::new();
                for i in 0.. {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let name = format!("Nadawca {s} nr {i}");
                    if acknowledged(port, &name) {
                        acked.push(name);
                    }
                }
                acked
            })
        })
        .collect();
    clock::sleep(Duration::from_millis(1500));
    sidecar.kill().expect("SIGKILL"); // mid-burst: transactions are being written
    sidecar.wait().expect("ended");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let acked: Vec<String> = senders
        .into_iter()
        .flat_map(|t| t.join().expect("sender"))
        .collect();
    let db = sidecar::db::Db::open(&dir.path().join("var/site.sqlite3")).expect("open db");
    let stored: std::collections::HashSet<String> = db
        .messages(None, usize::MAX >> 1)
        .expect("messages")
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert!(acked.len() > 100, "a burst: {} acknowledged", acked.len());
    let lost: Vec<&String> = acked.iter().filter(|n| !stored.contains(*n)).collect();
    assert!(lost.is_empty(), "acknowledged and lost: {lost:?}");
    eprintln!(
        "kill during a burst: {} acknowledged, {} stored, 0 lost",
        acked.len(),
        stored.len()
    );
}
