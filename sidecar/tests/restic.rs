//! Scheduled backups into real restic repositories (a local path, and one served over HTTP by
//! `rclone serve restic`): the server initialises one, backs up on its schedule, encrypts,
//! applies the retention and records the outcome; a backup killed with SIGKILL midway leaves
//! the next run consistent and `restic check` clean; a restore drill loses the data folder and
//! `content/` and gets every message and file back.
//! Skipped, saying so, where `restic` is not installed (`make test-deps` installs it).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::backup::{contact, stderr, Place};
use crate::common;

const KEY: &str = "klucz kopii zapasowych 7f3a";

pub(crate) fn restic_installed() -> bool {
    let found = Command::new("restic").arg("version").output().is_ok();
    if !found {
        eprintln!("restic is not installed: the repository tests are skipped");
    }
    found
}

/// A repository under `dir` and the file holding its key.
pub(crate) struct Repo {
    pub(crate) path: PathBuf,
    pub(crate) key_file: PathBuf,
}

impl Repo {
    pub(crate) fn at(dir: &Path) -> Self {
        let key_file = dir.join("backup_password");
        std::fs::write(&key_file, format!("{KEY}\n")).expect("write the key");
        Repo {
            path: dir.join("repo"),
            key_file,
        }
    }

    /// The variables that turn the backups on.
    pub(crate) fn settings(&self, interval: &str) -> Vec<(&'static str, String)> {
        vec![
            ("BACKUP_REPOSITORY", self.path.display().to_string()),
            ("BACKUP_PASSWORD_FILE", self.key_file.display().to_string()),
            ("BACKUP_INTERVAL", interval.to_string()),
        ]
    }

    /// `restic ARGS` on this repository with `key`.
    pub(crate) fn restic_with(&self, key: &str, args: &[&str]) -> Output {
        let mut child = Command::new("restic")
            .arg("--repo")
            .arg(&self.path)
            .arg("--no-cache")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("restic starts");
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(format!("{key}\n").as_bytes()).expect("key");
        drop(stdin);
        child.wait_with_output().expect("restic ends")
    }

    pub(crate) fn restic(&self, args: &[&str]) -> Output {
        self.restic_with(KEY, args)
    }

    pub(crate) fn snapshots(&self) -> Vec<Value> {
        let out = self.restic(&["snapshots", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        // restic 0.14 first says where it read the key from.
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = text.lines().find(|l| l.starts_with('[')).expect("a list");
        serde_json::from_str(json).expect("json")
    }

    pub(crate) fn check(&self) {
        let out = self.restic(&["check"]);
        assert!(
            out.status.success(),
            "restic check: {}{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    }
}

fn with_settings(place: &Place, repo: &Repo, args: &[&str]) -> Command {
    let mut command = place.command(args);
    for (name, value) in repo.settings("off") {
        command.env(name, value);
    }
    command
}

fn status(place: &Place) -> Value {
    std::fs::read(place.data.join("backup-status.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null)
}

/// Every file under `dir`, its bytes concatenated: what an attacker holding the repository
/// could read.
fn all_bytes(dir: &Path) -> Vec<u8> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .flat_map(|e| std::fs::read(e.path()).expect("read"))
        .collect()
}

#[test]
fn the_server_backs_up_on_schedule_into_an_encrypted_repository_and_applies_the_retention() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    place.db();
    let repo = Repo::at(dir.path());

    // The first backup creates the repository, then pings the monitor.
    let monitor = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let ping_url = format!(
        "http://{}/ping/5f2a",
        monitor.local_addr().expect("address")
    );
    monitor.set_nonblocking(true).expect("nonblocking");
    let pinged = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut stream = loop {
            match monitor.accept() {
                Ok((stream, _)) => break stream,
                Err(_) if Instant::now() < deadline => clock::sleep(Duration::from_millis(20)),
                Err(e) => return format!("no ping: {e}"),
            }
        };
        stream.set_nonblocking(false).expect("blocking");
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(&stream), &mut line)
            .expect("read");
        std::io::Write::write_all(
            &mut stream,
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nOK",
        )
        .expect("answer");
        line
    });
    let first = with_settings(&place, &repo, &["backup"])
        .env("BACKUP_PING_URL", &ping_url)
        .output()
        .expect("runs");
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        pinged
            .join()
            .expect("pinged")
            .starts_with("GET /ping/5f2a "),
        "the monitor is pinged after a good backup"
    );
    assert!(repo.path.join("config").is_file(), "the repository exists");
    assert_eq!(repo.snapshots().len(), 1);

    // Two old snapshots of one hour: the retention keeps one snapshot an hour.
    let old = dir.path().join("old");
    std::fs::create_dir(&old).expect("mkdir");
    std::fs::write(old.join("a"), "stara kopia").expect("write");
    for time in ["2024-01-01 10:00:00", "2024-01-01 10:30:00"] {
        let out = repo.restic(&[
            "backup",
            "--tag",
            "sidecar",
            "--time",
            time,
            old.to_str().expect("utf-8"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }

    let settings = repo.settings("1s");
    let extra: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (server, port, _) = place.serve_with(&extra);
    assert_eq!(contact(port, 424_242), 200);
    let message_sent = crate::common::now();
    common::wait_for(
        Duration::from_secs(90),
        Duration::from_millis(200),
        || format!("no scheduled backup: {}", status(&place)),
        || {
            let s = status(&place);
            s["last_success_at"]
                .as_i64()
                .is_some_and(|t| t > message_sent)
                .then_some(())
        },
    );
    drop(server);

    let s = status(&place);
    assert!(
        s["last_snapshot"].as_str().is_some_and(|id| id.len() >= 8),
        "{s}"
    );
    assert!(s["last_failure_at"].is_null(), "{s}");
    let times: Vec<String> = repo
        .snapshots()
        .iter()
        .map(|s| s["time"].as_str().expect("time").to_string())
        .collect();
    // The first, the scheduled ones and the old pair: one snapshot an hour is kept, the
    // newest of each. The test's own backups are seconds apart, in one hour, or in two when
    // they straddle an hour's turn (a fresh clone's run once did, at 14:00).
    let hours: std::collections::BTreeSet<&str> =
        times.iter().filter_map(|t| t.get(..13)).collect();
    assert_eq!(hours.len(), times.len(), "one an hour: {times:?}");
    assert!((2..=3).contains(&times.len()), "{times:?}");
    assert!(
        !times.iter().any(|t| t.starts_with("2024-01-01T10:00:00")),
        "the older of one hour's two was forgotten: {times:?}"
    );
    assert!(
        times.iter().any(|t| t.starts_with("2024-01-01T10:30:00")),
        "{times:?}"
    );
    repo.check();

    // Encrypted: neither a page's text nor the message is readable in the repository, and
    // another key opens nothing.
    let stored = all_bytes(&repo.path);
    let page = std::fs::read_to_string(place.root.join("content/pages/cennik.md")).expect("page");
    let line = page.lines().find(|l| l.len() > 30).expect("a long line");
    for secret in [line, "Wiadomość numer 424242."] {
        assert!(
            !stored.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "'{secret}' is readable in the repository"
        );
    }
    let wrong = repo.restic_with("inny klucz", &["snapshots"]);
    assert!(!wrong.status.success());
    assert!(
        !place.data.join("backup-staging").exists(),
        "the copy is removed once sent"
    );
}

/// A file of `bytes` pseudo-random bytes (restic cannot compress nor deduplicate it).
fn noise(path: &Path, bytes: usize) {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let data: Vec<u8> = (0..bytes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, data).expect("write");
}

#[test]
fn a_backup_killed_midway_leaves_the_next_run_consistent_and_the_repository_clean() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    place.db();
    noise(&place.root.join("content/images/archiwum.bin"), 64 << 20);
    let repo = Repo::at(dir.path());
    let init = repo.restic(&["init"]);
    assert!(init.status.success(), "{}", stderr(&init));

    // The sidecar and its restic in one process group, killed together as systemd would.
    let mut child = with_settings(&place, &repo, &["backup"])
        .process_group(0)
        .spawn()
        .expect("starts");
    let manifest = place.data.join("backup-staging/manifest.json");
    common::wait_for(
        Duration::from_secs(60),
        Duration::from_millis(10),
        || "the copy was never made".to_string(),
        || {
            assert!(child.try_wait().expect("waits").is_none(), "ended too soon");
            manifest.exists().then_some(())
        },
    );
    // restic is now reading the copy.
    clock::sleep(Duration::from_millis(300));
    let group = child.id() as i32;
    let killed = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .status()
        .expect("kill");
    assert!(killed.success());
    let _ = child.wait();
    assert!(
        status(&place)["last_success_at"].is_null(),
        "killed before it ended"
    );
    assert!(repo.snapshots().is_empty(), "killed before its snapshot");

    let again = with_settings(&place, &repo, &["backup"])
        .output()
        .expect("runs");
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(repo.snapshots().len(), 1);
    repo.check();
    assert!(!place.data.join("backup-staging").exists());
    let s = status(&place);
    assert!(s["last_success_at"].as_i64().is_some(), "{s}");
}

/// Every stored message with all it holds.
fn messages(place: &Place) -> Vec<sidecar::db::StoredMessage> {
    place.db().messages(None, 1_000_000).expect("messages")
}

#[test]
fn a_restore_drill_brings_back_every_message_and_file_from_a_chosen_or_the_latest_snapshot() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    let repo = Repo::at(dir.path());
    let snapshot = || {
        let run = with_settings(&place, &repo, &["backup"])
            .output()
            .expect("runs");
        assert!(run.status.success(), "{}", stderr(&run));
        let said = String::from_utf8_lossy(&run.stdout).into_owned();
        said.split_whitespace()
            .nth(2)
            .expect("the snapshot named")
            .trim_end_matches(',')
            .to_string()
    };

    let (server, port, panel) = place.serve();
    let cookie = crate::backup::sign_in(panel);
    for i in 0..5 {
        assert_eq!(contact(port, i), 200);
    }
    let version = crate::backup::version_of(panel, &cookie, "pages/cennik");
    let (status, _, answer) = crate::backup::request(
        panel,
        "PUT",
        "/api/pages/pages/cennik",
        &[("Cookie", &cookie)],
        &serde_json::json!({
            "content": { "sections": [{ "type": "text", "content": "Cennik przed awarią." }] },
            "version": version,
        })
        .to_string(),
    );
    assert_eq!(status, 200, "{answer}");
    // The first snapshot, taken while the server serves.
    let first = snapshot();
    let at_first = messages(&place);
    assert_eq!(at_first.len(), 5);
    for i in 5..8 {
        assert_eq!(contact(port, i), 200);
    }
    drop(server);
    // A chosen snapshot, restored on another machine: the moment it was taken. (The next
    // snapshot, in the same hour, replaces it under the retention.)
    let other = Place::at(&dir.path().join("other"));
    common::site_copy(&dir.path().join("other"));
    let chosen = with_settings(&other, &repo, &["restore", "--snapshot", &first])
        .output()
        .expect("runs");
    assert!(chosen.status.success(), "{}", stderr(&chosen));
    assert_eq!(messages(&other), at_first);

    snapshot();
    let before = messages(&place);
    let revisions = crate::backup::revisions(&place.db(), "pages/cennik");
    let content = crate::backup::files(&place.root.join("content"));
    assert_eq!(before.len(), 8);

    // The disk is lost: the data folder and the content with it.
    std::fs::remove_dir_all(&place.data).expect("rm var");
    std::fs::remove_dir_all(place.root.join("content")).expect("rm content");
    let restored = with_settings(&place, &repo, &["restore", "--snapshot", "latest"])
        .output()
        .expect("runs");
    assert!(restored.status.success(), "{}", stderr(&restored));
    assert_eq!(messages(&place), before, "every message, every field");
    assert_eq!(
        crate::backup::revisions(&place.db(), "pages/cennik"),
        revisions
    );
    assert_eq!(
        crate::backup::files(&place.root.join("content")),
        content,
        "every file of content/"
    );
    let leftovers: Vec<String> = std::fs::read_dir(&place.data)
        .expect("data")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("restoring-snapshot-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // An unknown snapshot, or a running server, replaces nothing.
    let unknown = with_settings(&place, &repo, &["restore", "--snapshot", "deadbeef"])
        .output()
        .expect("runs");
    assert!(!unknown.status.success());
    assert!(
        stderr(&unknown).contains("deadbeef"),
        "{}",
        stderr(&unknown)
    );
    assert_eq!(messages(&place), before);
    let (_server, _, _) = place.serve();
    let refused = with_settings(&place, &repo, &["restore", "--snapshot", "latest"])
        .output()
        .expect("runs");
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("in use by a running sidecar"),
        "{}",
        stderr(&refused)
    );
}

/// `rclone serve restic` on a free port over `dir`, stopped when dropped.
struct RcloneServer(std::process::Child);

impl Drop for RcloneServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn rclone_serve(dir: &Path) -> Option<(RcloneServer, u16)> {
    let port = common::free_port();
    let child = Command::new("rclone")
        .args(["serve", "restic", "--addr", &format!("127.0.0.1:{port}")])
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let server = RcloneServer(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !common::listening(&[port]) {
        if Instant::now() > deadline {
            return None;
        }
        clock::sleep(Duration::from_millis(50));
    }
    Some((server, port))
}

#[test]
fn a_repository_over_the_network_backs_up_and_restores_like_a_local_one() {
    if !restic_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let remote = dir.path().join("remote");
    std::fs::create_dir(&remote).expect("mkdir");
    let Some((_rclone, port)) = rclone_serve(&remote) else {
        eprintln!(
            "rclone is not installed (make test-deps): the network repository test is skipped"
        );
        return;
    };
    let place = Place::at(&dir.path().join("install"));
    common::site_copy(&dir.path().join("install"));
    let db = place.db();
    for i in 0..3 {
        db.insert_message(
            &sidecar::db::NewMessage {
                name: format!("Osoba {i}"),
                email: format!("osoba{i}@example.pl"),
                phone: String::new(),
                country_code: "+48".into(),
                full_phone: String::new(),
                message: format!("Wiadomość numer {i}."),
                spam: None,
            },
            crate::common::now(),
        )
        .expect("stored");
    }
    drop(db);
    let before = messages(&place);
    let content = crate::backup::files(&place.root.join("content"));
    let repo = Repo::at(dir.path());
    let repository = format!("rest:http://127.0.0.1:{port}/");
    let run = |args: &[&str]| {
        with_settings(&place, &repo, args)
            .env("BACKUP_REPOSITORY", &repository)
            .output()
            .expect("runs")
    };
    let backup = run(&["backup"]);
    assert!(backup.status.success(), "{}", stderr(&backup));
    assert!(
        remote.join("config").is_file(),
        "the repository is on the server"
    );

    std::fs::remove_dir_all(&place.data).expect("rm var");
    std::fs::remove_dir_all(place.root.join("content")).expect("rm content");
    let restore = run(&["restore", "--snapshot", "latest"]);
    assert!(restore.status.success(), "{}", stderr(&restore));
    assert_eq!(messages(&place), before);
    assert_eq!(crate::backup::files(&place.root.join("content")), content);
}
