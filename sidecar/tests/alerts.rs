//! Alerts to a person, end to end: a backup that fails raises an alert on the panel's
//! 'Stan systemu' and one e-mail to the administrator (not one a check), and once backups
//! work again the banner clears and a recovery e-mail follows.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(200));
    }
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

    wait_until("the banner shows the failed backup", || {
        system(panel, &cookie)["alerts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["title"] == FAILED))
    });
    wait_until("the administrator is e-mailed", || {
        !with_subject(&outbox, FAILED).is_empty()
    });
    // Two more failed backups later (checked every second meanwhile): still one e-mail.
    let failed_at = || system(panel, &cookie)["backups"]["lastFailureAt"].as_i64();
    for _ in 0..2 {
        let before = failed_at();
        wait_until("another backup fails", || failed_at() > before);
    }
    let sent = with_subject(&outbox, FAILED);
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (_, to, body) = &sent[0];
    assert!(to.contains(common::ADMIN), "{to}");
    assert!(body.contains("restic"), "says why: {body}");
    let status = system(panel, &cookie);
    assert!(status["backups"]["lastFailureAt"].is_i64(), "{status}");

    // The repository's place is freed: the next backup succeeds, the alert resolves.
    std::fs::remove_file(&repo.path).expect("rm");
    let resolved = format!("Rozwiązane: {FAILED}");
    wait_until("the recovery is e-mailed", || {
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
