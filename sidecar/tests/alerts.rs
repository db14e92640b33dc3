//! Alerts to a person, end to end: a backup that fails raises an alert on the panel's
//! 'Stan systemu' and one e-mail to the administrator (not one a check), and once backups
//! work again the banner clears and a recovery e-mail follows. A repository that accepts a
//! connection and never answers (an sftp host gone silent) cannot hang the backups: restic is
//! stopped with its ssh at BACKUP_TIMEOUT, the panel shows the run going, then the failure,
//! and the owner is told within the interval. The e-mails carry the program's own words only
//! under 'Szczegóły dla informatyka'.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::backup::{request, sign_in, Place};
use crate::common;
use crate::restic::{restic_installed, Repo};

/// Subject, recipient and text of every e-mail the sidecar wrote to its outbox folder.
fn mails(outbox: &Path) -> Vec<(String, String, String)> {
    let script = "import sys, email\nfrom email.header import decode_header, make_header\nfor p in sys.argv[1:]:\n    m = email.message_from_binary_file(open(p, 'rb'))\n    body = m.get_payload(decode=True).decode('utf-8')\n    print(str(make_header(decode_header(m['Subject']))) + '\\t' + m['To'] + '\\t' + body.replace('\\n', ' ').replace('\\r', ''))";
    let mut files: Vec<PathBuf> = std::fs::read_dir(outbox)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "eml"));
    if files.is_empty() {
        return Vec::new();
    }
    let out = Command::new("python3")
        .args(["-c", script])
        .args(&files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            Some((
                parts.next()?.to_string(),
                parts.next()?.to_string(),
                parts.next()?.to_string(),
            ))
        })
        .collect()
}

fn with_subject(outbox: &Path, subject: &str) -> Vec<(String, String, String)> {
    mails(outbox)
        .into_iter()
        // `Site name: subject`.
        .filter(|(s, _, _)| s.split_once(": ").is_some_and(|(_, s)| s == subject))
        .collect()
}

fn system(panel: u16, cookie: &str) -> Value {
    let (status, _, body) = request(panel, "GET", "/api/system", &[("Cookie", cookie)], "");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("json")
}

#[test]
fn a_failing_backup_is_mailed_once_shown_on_the_panel_and_its_recovery_mailed() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    place.db();
    let repo = Repo::at(dir.path());
    // A file where the repository should be: restic can neither open nor create it.
    std::fs::write(&repo.path, "zajęte").expect("write");
    let mut settings = repo.settings("2s");
    settings.push(("ALERT_CHECK_SECONDS", "1".into()));
    let extra: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (_server, _, panel) = place.serve_with(&extra);
    let (status, _, _) = request(panel, "GET", "/api/system", &[], "");
    assert_eq!(status, 401, "for the administrator only");
    let cookie = sign_in(panel);
    let outbox = place.data.join("outbox");
    const FAILED: &str = "Kopia zapasowa nie powiodła się";

    common::wait_until("the banner shows the failed backup", 60, || {
        system(panel, &cookie)["alerts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["title"] == FAILED))
    });
    common::wait_until("the administrator is e-mailed", 60, || {
        !with_subject(&outbox, FAILED).is_empty()
    });
    // Two more failed backups later (checked every second meanwhile): still one e-mail.
    let failed_at = || system(panel, &cookie)["backups"]["lastFailureAt"].as_i64();
    for _ in 0..2 {
        let before = failed_at();
        common::wait_until("another backup fails", 60, || failed_at() > before);
    }
    let sent = with_subject(&outbox, FAILED);
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (_, to, body) = &sent[0];
    assert!(to.contains(common::ADMIN), "{to}");
    let raw = system(panel, &cookie)["backups"]["lastError"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    owners_words_apart(body, &raw);
    let status = system(panel, &cookie);
    assert!(status["backups"]["lastFailureAt"].is_i64(), "{status}");

    // The repository's place is freed: the next backup succeeds, the alert resolves.
    std::fs::remove_file(&repo.path).expect("rm");
    let resolved = format!("Rozwiązane: {FAILED}");
    common::wait_until("the recovery is e-mailed", 60, || {
        !with_subject(&outbox, &resolved).is_empty()
    });
    // (Another alert, such as this machine's own disk filling up, may stay.)
    let alerts = system(panel, &cookie)["alerts"].clone();
    assert!(
        alerts
            .as_array()
            .is_some_and(|a| !a.iter().any(|a| a["key"] == "backup")),
        "the backup's alert is gone: {alerts}"
    );
    assert_eq!(with_subject(&outbox, FAILED).len(), 1);
}

/// The part of an alert's e-mail for the owner says what happened and what to do, and none
/// of the program's words (`raw`); those come only under 'Szczegóły dla informatyka'.
fn owners_words_apart(body: &str, raw: &str) {
    let (owners, details) = body
        .split_once(sidecar::alerts::notify::DETAILS)
        .unwrap_or_else(|| panic!("no details: {body}"));
    assert!(owners.contains("Co zrobić:"), "{owners}");
    for english in ["restic", "failed", "repository", "not a directory", raw] {
        assert!(
            !english.is_empty() && !owners.contains(english),
            "{english}: {owners}"
        );
    }
    assert!(details.contains(raw.trim()), "{details}");
}

/// A TCP listener that accepts every connection and never says a word, on its own thread.
fn silent_host() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    port
}

/// The restic and ssh processes whose command line holds `port` (this machine's `/proc`): a
/// number alone also turns up in other programs' arguments (a browser test's Chromium beside).
fn backup_processes_on(port: u16) -> Vec<String> {
    let port = port.to_string();
    std::fs::read_dir("/proc")
        .map(|d| d.flatten().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).into_owned())
        .filter(|c| {
            let mut args = c.split('\0');
            let program = args.next().unwrap_or_default();
            let name = program.rsplit('/').next().unwrap_or_default();
            matches!(name, "restic" | "ssh") && c.contains(&port)
        })
        .map(|c| c.replace('\0', " "))
        .collect()
}

#[test]
fn a_repository_that_never_answers_is_given_up_at_its_timeout_and_the_owner_told() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    place.db();
    let port = silent_host();
    let repository = format!("sftp://kopie@127.0.0.1:{port}//srv/kopie");
    let key = dir.path().join("backup_password");
    std::fs::write(&key, "klucz kopii\n").expect("write");
    let key = key.to_string_lossy().into_owned();
    let extra = [
        ("BACKUP_REPOSITORY", repository.as_str()),
        ("BACKUP_PASSWORD_FILE", key.as_str()),
        ("BACKUP_INTERVAL", "1m"),
        ("BACKUP_TIMEOUT", "3s"),
        ("ALERT_CHECK_SECONDS", "1"),
    ];
    let (_server, _, panel) = place.serve_with(&extra);
    let cookie = sign_in(panel);

    // The run is shown as going while restic waits on the silent host.
    common::wait_until("the panel shows the backup running", 60, || {
        system(panel, &cookie)["backups"]["runningSince"].is_i64()
    });
    assert!(!backup_processes_on(port).is_empty(), "ssh is waiting");
    common::wait_until("the backup is given up and its error shown", 60, || {
        let backups = system(panel, &cookie)["backups"].clone();
        backups["runningSince"].is_null()
            && backups["lastError"]
                .as_str()
                .is_some_and(|e| e.contains("did not finish within 3 s"))
    });
    // Killed, they leave within moments (the panel may say so a few milliseconds before the
    // kernel has taken the last of them); left alive, ssh would wait on the silent host for ever.
    common::wait_for(
        Duration::from_secs(10),
        Duration::from_millis(50),
        || {
            format!(
                "restic and its ssh are still there: {:?}",
                backup_processes_on(port)
            )
        },
        || backup_processes_on(port).is_empty().then_some(()),
    );
    const FAILED: &str = "Kopia zapasowa nie powiodła się";
    let outbox = place.data.join("outbox");
    common::wait_until("the owner is e-mailed", 60, || {
        !with_subject(&outbox, FAILED).is_empty()
    });
    // Told at the first failure, not after a missed interval or two: one attempt failed.
    let status: Value = serde_json::from_slice(
        &std::fs::read(place.data.join("backup-status.json")).expect("status"),
    )
    .expect("json");
    assert!(status["last_success_at"].is_null() && status["last_failure_at"].is_i64());
    let (_, _, body) = &with_subject(&outbox, FAILED)[0];
    let raw = system(panel, &cookie)["backups"]["lastError"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    owners_words_apart(body, &raw);
}
