//! Backups that restore: `sidecar backup` under load (contact messages and page saves
//! arriving all the while) gives one consistent moment of the database and a content folder
//! at least as new; a quiet backup restores into a fresh folder equal to the source —
//! messages, revisions and content — and serves; `restore` refuses a running server and a
//! damaged backup, and leaves the data private.

use crate::common;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{ADMIN, PASSWORD};

/// A sidecar process, killed when dropped, and the file its log goes to (outside the
/// installation, whose disk a test may fill).
pub(crate) struct Running(pub(crate) Child, tempfile::NamedTempFile);

impl Running {
    /// What the sidecar has logged so far (warnings and errors), for a failing assertion.
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.1.path()).unwrap_or_default()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Where one installation keeps its site, data and published files.
pub(crate) struct Place {
    pub(crate) root: PathBuf,
    pub(crate) data: PathBuf,
    pub(crate) dist: PathBuf,
}

impl Place {
    pub(crate) fn at(dir: &Path) -> Self {
        Place {
            root: dir.join("site"),
            data: dir.join("var"),
            dist: dir.join("dist"),
        }
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
        command
            .args(args)
            .env("SITE_ROOT", &self.root)
            .env("DATA_DIR", &self.data)
            .env("DIST_DIR", &self.dist)
            .env("RUST_LOG", "warn");
        command
    }

    pub(crate) fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("the sidecar runs")
    }

    /// The server's public port and its panel's port.
    pub(crate) fn serve(&self) -> (Running, u16, u16) {
        self.serve_with(&[])
    }

    /// [`Place::serve`] with more variables.
    pub(crate) fn serve_with(&self, extra: &[(&str, &str)]) -> (Running, u16, u16) {
        let (port, panel) = (common::free_port(), common::free_port());
        let log = tempfile::NamedTempFile::new().expect("a log file");
        let child = self
            .command(&[])
            .env("PORT", port.to_string())
            .env("ADMIN_PORT", panel.to_string())
            .env("ADMIN_EMAIL", ADMIN)
            .env("ADMIN_PASSWORD", PASSWORD)
            .env("CONTACT_RATE_PER_MINUTE", "100000")
            .env("CONTACT_MIN_SECONDS", "0")
            .env("OUTBOX_POLL_SECONDS", "1")
            .envs(extra.iter().copied())
            .stdout(log.reopen().expect("the log file"))
            .spawn()
            .expect("the sidecar starts");
        let mut running = Running(child, log);
        common::wait_for(
            Duration::from_secs(60),
            Duration::from_millis(50),
            || "the sidecar did not answer".to_string(),
            || {
                if let Ok(Some(status)) = running.0.try_wait() {
                    panic!("the sidecar exited with {status}");
                }
                (request(port, "GET", "/api/health", &[], "").0 == 200).then_some(())
            },
        );
        let path = running.1.path().to_path_buf();
        common::wait_until_listening(&mut running.0, &[panel], || {
            std::fs::read_to_string(&path).unwrap_or_default()
        });
        (running, port, panel)
    }

    pub(crate) fn db(&self) -> sidecar::db::Db {
        sidecar::db::Db::open(&self.data.join("site.sqlite3")).expect("the database opens")
    }
}

/// One HTTP/1.1 request: status, headers, body. A refused or reset connection is status 0.
pub(crate) fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return (0, String::new(), String::new());
    };
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
        body.len()
    );
    // A connection reset is a server not answering yet (or any more), like a refused one.
    let mut answer = Vec::new();
    let sent = stream.write_all(text.as_bytes());
    if sent.and_then(|()| stream.read_to_end(&mut answer)).is_err() {
        return (0, String::new(), String::new());
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

pub(crate) fn sign_in(port: u16) -> String {
    let body = json!({ "email": ADMIN, "password": PASSWORD }).to_string();
    let (status, head, _) = request(port, "POST", "/api/auth/login", &[], &body);
    assert_eq!(status, 200, "{head}");
    head.lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string()
}

pub(crate) fn version_of(port: u16, cookie: &str, id: &str) -> String {
    let (_, _, body) = request(port, "GET", "/api/pages", &[("Cookie", cookie)], "");
    let pages: Vec<Value> = serde_json::from_str(&body).expect("pages");
    let page = pages.iter().find(|p| p["id"] == id).expect("the page");
    page["version"].as_str().expect("a version").to_string()
}

pub(crate) fn contact(port: u16, i: usize) -> u16 {
    let body = json!({
        "name": format!("Osoba {i}"),
        "email": format!("osoba{i}@example.pl"),
        "phone": "",
        "countryCode": "+48",
        "message": format!("Wiadomość numer {i}."),
        "fullPhone": "",
    });
    request(port, "POST", "/api/contact", &[], &body.to_string()).0
}

/// Every visible file under `dir` with its bytes (hidden ones are no content: `.git`, the
/// `.NAME.saving` of a save in progress).
pub(crate) fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.expect("walk"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let relative = e.path().strip_prefix(dir).expect("inside");
            (
                relative.to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    out.sort();
    out
}

/// Each revision of `id` with its text, oldest first.
pub(crate) fn revisions(db: &sidecar::db::Db, id: &str) -> Vec<(i64, String, String)> {
    let mut list: Vec<(i64, String, String)> = db
        .revisions(id)
        .expect("revisions")
        .into_iter()
        .map(|r| {
            let text = db
                .revision_texts(id, r.id)
                .expect("text")
                .expect("kept")
                .after;
            (r.id, r.author, text)
        })
        .collect();
    list.reverse();
    list
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("exists")
        .permissions()
        .mode()
        & 0o777
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_backup_under_load_restores_one_consistent_moment_and_a_quiet_one_restores_everything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = Place::at(&dir.path().join("source"));
    common::site_copy(&dir.path().join("source"));
    let (server, port, panel) = source.serve();
    let cookie = sign_in(panel);
    const PAGE: &str = "pages/cennik";

    // Load: contact messages from two clients and page saves, until told to stop.
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let senders: Vec<_> = (0..2)
        .map(|worker| {
            let (stop, acknowledged) = (Arc::clone(&stop), Arc::clone(&acknowledged));
            std::thread::spawn(move || {
                let mut i = worker * 1_000_000;
                let deadline = Instant::now() + Duration::from_secs(120);
                while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
                    assert_eq!(contact(port, i), 200);
                    acknowledged.fetch_add(1, Ordering::SeqCst);
                    i += 1;
                }
            })
        })
        .collect();
    let saves = {
        let (stop, cookie) = (Arc::clone(&stop), cookie.clone());
        std::thread::spawn(move || {
            let mut saved = 0;
            while !stop.load(Ordering::SeqCst) && saved < 40 {
                let version = version_of(panel, &cookie, PAGE);
                let body = json!({
                    "content": { "sections": [{ "type": "text", "content": format!("Cennik, wersja {saved}.") }] },
                    "version": version,
                });
                let (status, _, answer) = request(
                    panel,
                    "PUT",
                    "/api/pages/pages/cennik",
                    &[("Cookie", &cookie)],
                    &body.to_string(),
                );
                assert_eq!(status, 200, "{answer}");
                saved += 1;
            }
            saved
        })
    };
    common::wait_for(
        Duration::from_secs(60),
        Duration::from_millis(20),
        || "no load".to_string(),
        || {
            (acknowledged.load(Ordering::SeqCst) >= 30
                && source.db().revisions(PAGE).expect("revisions").len() >= 2)
                .then_some(())
        },
    );
    // The backup must overlap the load. On a fast file system one can end between two
    // messages, so it is taken again until a message was acknowledged while it ran; a backup
    // that held the messages back would see none in any of its tries.
    let mut tries = 0;
    let (under_load, before, during) = loop {
        tries += 1;
        let under_load = dir.path().join(format!("backup-under-load-{tries}"));
        let before = acknowledged.load(Ordering::SeqCst);
        let backup = source.run(&["backup", under_load.to_str().expect("utf-8")]);
        assert!(backup.status.success(), "{}", stderr(&backup));
        let during = acknowledged.load(Ordering::SeqCst);
        if during > before || tries == 20 {
            break (under_load, before, during);
        }
    };
    clock::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    for sender in senders {
        sender.join().expect("sender");
    }
    let saved = saves.join().expect("saves");
    assert!(
        during > before,
        "messages kept arriving during the backup ({tries} tries)"
    );
    assert!(saved >= 2);

    let manifest: Value = serde_json::from_slice(
        &std::fs::read(under_load.join("manifest.json")).expect("a manifest"),
    )
    .expect("json");
    assert_eq!(
        manifest["schema_version"],
        sidecar::db::SCHEMA_VERSION as i64
    );
    assert!(
        manifest["build"].as_str().is_some_and(|b| b.len() == 16),
        "the build being served: {manifest}"
    );
    let listed = manifest["files"].as_array().expect("files");
    assert!(listed.iter().any(|f| f["path"] == "site.sqlite3"));
    assert!(listed
        .iter()
        .all(|f| f["sha256"].as_str().is_some_and(|h| h.len() == 64)));
    assert!(listed
        .iter()
        .any(|f| f["path"] == "content/pages/cennik.md"));
    assert_eq!(mode(&under_load), 0o700);
    assert_eq!(mode(&under_load.join("site.sqlite3")), 0o600);

    let refused = source.run(&["restore", under_load.to_str().expect("utf-8")]);
    assert!(
        !refused.status.success(),
        "a running server's data is not replaced"
    );
    assert!(
        stderr(&refused).contains("in use by a running sidecar"),
        "{}",
        stderr(&refused)
    );

    // The source at rest: a backup of it must restore exactly.
    drop(server);
    let quiet = dir.path().join("backup-quiet");
    let backup = source.run(&["backup", quiet.to_str().expect("utf-8")]);
    assert!(backup.status.success(), "{}", stderr(&backup));
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(quiet.join("manifest.json")).expect("manifest"))
            .expect("json");
    let built = std::fs::read_to_string(source.dist.join("_build")).expect("_build");
    assert_eq!(manifest["build"], built.trim(), "the last published build");
    let source_db = source.db();
    let messages = source_db.messages(None, 1_000_000).expect("messages");
    let source_revisions = revisions(&source_db, PAGE);
    let source_content = files(&source.root.join("content"));
    assert!(
        messages.len() >= during,
        "every acknowledged message is stored"
    );

    // Under load: one moment of the database — the first messages and revisions, no gaps —
    // holding every message acknowledged before the backup began; the page file at least
    // as new as the last revision copied. (Delivery states move on after the moment.)
    let restored = Place::at(&dir.path().join("restored-under-load"));
    let run = restored.run(&["restore", under_load.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    let restored_db = restored.db();
    let received =
        |list: Vec<sidecar::db::StoredMessage>| -> Vec<(i64, i64, String, String, String)> {
            let mut out: Vec<_> = list
                .into_iter()
                .map(|m| (m.id, m.received_at, m.name, m.email, m.message))
                .collect();
            out.sort();
            out
        };
    let got = received(restored_db.messages(None, 1_000_000).expect("messages"));
    let all = received(messages.clone());
    assert!(got.len() >= before, "{} < {before}", got.len());
    assert!(
        got.len() < all.len(),
        "the backup is a moment before the end of the load"
    );
    assert_eq!(
        got[..],
        all[..got.len()],
        "a prefix of the source: one moment, no gaps"
    );
    let got_revisions = revisions(&restored_db, PAGE);
    assert!(!got_revisions.is_empty());
    assert_eq!(got_revisions[..], source_revisions[..got_revisions.len()]);
    let page =
        std::fs::read_to_string(restored.root.join("content/pages/cennik.md")).expect("page");
    let last = got_revisions.len() - 1;
    assert!(
        source_revisions[last..]
            .iter()
            .any(|(_, _, text)| *text == page),
        "the page is the last copied revision or a newer one"
    );
    let others = |list: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        list.into_iter()
            .filter(|(p, _)| p != "pages/cennik.md")
            .collect()
    };
    assert_eq!(
        others(files(&restored.root.join("content"))),
        others(source_content.clone())
    );

    // At rest: everything equal, private, and it serves — restored over an older install.
    let fresh = Place::at(&dir.path().join("restored-quiet"));
    common::site_copy(&dir.path().join("restored-quiet"));
    let git = fresh.root.join("content/.git");
    std::fs::create_dir_all(&git).expect("mkdir");
    std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").expect("write");
    let run = fresh.run(&["restore", quiet.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        git.join("HEAD").is_file(),
        "the git history of content/ stays"
    );
    assert_eq!(mode(&fresh.data), 0o700);
    assert_eq!(mode(&fresh.data.join("site.sqlite3")), 0o600);
    let fresh_db = fresh.db();
    assert_eq!(
        fresh_db.messages(None, 1_000_000).expect("messages"),
        messages
    );
    // The audit log says what happened: the backup (kept in the copy) and the restore.
    let events: Vec<String> = fresh_db
        .accounts()
        .audit(100, None)
        .expect("audit")
        .into_iter()
        .map(|e| e.event)
        .collect();
    assert!(events.iter().any(|e| e == "backup_restored"), "{events:?}");
    assert!(source
        .db()
        .accounts()
        .audit(100, None)
        .expect("audit")
        .iter()
        .any(|e| e.event == "backup_made"));
    assert_eq!(revisions(&fresh_db, PAGE), source_revisions);
    assert_eq!(files(&fresh.root.join("content")), source_content);
    drop(fresh_db);
    let (_restored_server, port, _) = fresh.serve();
    let (status, _, html) = request(port, "GET", "/cennik", &[], "");
    assert_eq!(status, 200);
    let last_text = &source_revisions.last().expect("a revision").2;
    let expected = last_text
        .lines()
        .find(|l| l.starts_with("Cennik, wersja"))
        .expect("the saved text");
    assert!(
        html.contains(expected),
        "the restored site shows the last save"
    );
}

#[test]
fn a_damaged_or_unfinished_backup_is_refused_before_anything_is_replaced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = Place::at(&dir.path().join("source"));
    common::site_copy(&dir.path().join("source"));
    source.db();
    let backup = dir.path().join("backup");
    let run = source.run(&["backup", backup.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    let again = source.run(&["backup", backup.to_str().expect("utf-8")]);
    assert!(
        !again.status.success(),
        "a backup never writes into an old one"
    );

    let target = Place::at(&dir.path().join("target"));
    common::site_copy(&dir.path().join("target"));
    let page = target.root.join("content/pages/cennik.md");
    std::fs::write(&page, "---\ntitle: \"Stan sprzed przywracania\"\n---\n").expect("write");
    let damaged = backup.join("content/pages/regulamin.md");
    let mut text = std::fs::read(&damaged).expect("read");
    text[10] ^= 1;
    std::fs::write(&damaged, text).expect("write");
    let run = target.run(&["restore", backup.to_str().expect("utf-8")]);
    assert!(!run.status.success());
    assert!(
        stderr(&run).contains("differs from the manifest"),
        "{}",
        stderr(&run)
    );
    assert!(
        !target.data.join("site.sqlite3").exists(),
        "no database was put in place"
    );
    assert!(
        std::fs::read_to_string(&page)
            .expect("kept")
            .contains("Stan sprzed"),
        "the content was left as it was"
    );

    std::fs::remove_file(backup.join("manifest.json")).expect("remove");
    let run = target.run(&["restore", backup.to_str().expect("utf-8")]);
    assert!(!run.status.success());
    assert!(stderr(&run).contains("no manifest"), "{}", stderr(&run));
}

/// Adds `path` (already written in `backup`) to its manifest with its real size and hash,
/// as someone who can write the backup folder could.
fn list_in_manifest(backup: &Path, path: &str) {
    let manifest_path = backup.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).expect("manifest")).expect("json");
    let bytes = std::fs::read(backup.join(path)).expect("readable");
    let sha256 = sha256_hex(&bytes);
    manifest["files"]
        .as_array_mut()
        .expect("files")
        .push(json!({ "path": path, "bytes": bytes.len(), "sha256": sha256 }));
    std::fs::write(&manifest_path, manifest.to_string()).expect("write");
}

/// Removes `path` from the backup and its manifest.
fn unlist(backup: &Path, path: &str) {
    let manifest_path = backup.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).expect("manifest")).expect("json");
    manifest["files"]
        .as_array_mut()
        .expect("files")
        .retain(|f| f["path"] != path);
    std::fs::write(&manifest_path, manifest.to_string()).expect("write");
    let _ = std::fs::remove_file(backup.join(path));
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    content::encoding::hex(&sha2::Sha256::digest(bytes))
}

/// A backup of a quiet site, and a second installation to restore it into.
fn backup_and_target(dir: &Path) -> (PathBuf, Place) {
    let source = Place::at(&dir.join("source"));
    common::site_copy(&dir.join("source"));
    source.db();
    let backup = dir.join("backup");
    let run = source.run(&["backup", backup.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    let target = Place::at(&dir.join("target"));
    common::site_copy(&dir.join("target"));
    (backup, target)
}

#[test]
fn a_restore_refuses_symbolic_links_and_hidden_files_and_writes_only_private_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (backup, target) = backup_and_target(dir.path());
    let page = target.root.join("content/pages/cennik.md");
    let before = std::fs::read(&page).expect("page");

    // A secret of the machine, readable by its owner only, linked from the backup.
    let secret = dir.path().join("sekret.env");
    std::fs::write(&secret, "SMTP_URL=smtp://u:tajne@host\n").expect("write");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    std::os::unix::fs::symlink(&secret, backup.join("content/pages/sekret.md")).expect("link");
    list_in_manifest(&backup, "content/pages/sekret.md");
    let run = target.run(&["restore", backup.to_str().expect("utf-8")]);
    assert!(!run.status.success(), "a symbolic link is refused");
    assert!(stderr(&run).contains("symbolic link"), "{}", stderr(&run));
    assert!(!target.root.join("content/pages/sekret.md").exists());
    assert!(
        !target.data.join("site.sqlite3").exists(),
        "nothing replaced"
    );
    assert_eq!(std::fs::read(&page).expect("page"), before);
    unlist(&backup, "content/pages/sekret.md");

    // A folder of the backup that is a link to another folder.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    std::fs::write(elsewhere.join("obcy.md"), "---\ntitle: x\n---\n").expect("write");
    std::os::unix::fs::symlink(&elsewhere, backup.join("content/obce")).expect("link");
    list_in_manifest(&backup, "content/obce/obcy.md");
    let run = target.run(&["restore", backup.to_str().expect("utf-8")]);
    assert!(!run.status.success(), "a linked folder is refused");
    assert!(stderr(&run).contains("symbolic link"), "{}", stderr(&run));

    // A git configuration whose fsmonitor would run at the next save from the panel.
    let fresh_backup = dir.path().join("backup-git");
    let source = Place::at(&dir.path().join("source"));
    let run = source.run(&["backup", fresh_backup.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    std::fs::create_dir_all(fresh_backup.join("content/.git")).expect("mkdir");
    std::fs::write(
        fresh_backup.join("content/.git/config"),
        "[core]\n\tfsmonitor = touch /tmp/harmonia-pwned\n",
    )
    .expect("write");
    list_in_manifest(&fresh_backup, "content/.git/config");
    let run = target.run(&["restore", fresh_backup.to_str().expect("utf-8")]);
    assert!(!run.status.success(), "a hidden file is refused");
    assert!(stderr(&run).contains("hidden"), "{}", stderr(&run));
    assert!(!target.root.join("content/.git/config").exists());

    // The same backup without the planted entries restores, every file and folder private.
    unlist(&fresh_backup, "content/.git/config");
    let run = target.run(&["restore", fresh_backup.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", stderr(&run));
    for entry in walkdir::WalkDir::new(target.root.join("content")) {
        let entry = entry.expect("walk");
        let want = if entry.file_type().is_dir() {
            0o700
        } else {
            0o600
        };
        assert_eq!(mode(entry.path()), want, "{}", entry.path().display());
    }
    assert_eq!(mode(&target.data.join("site.sqlite3")), 0o600);
}
