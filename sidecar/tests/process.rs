//! The sidecar as a process: secrets never stay in its environment nor reach its children,
//! which see only the variables allowed to them; secrets also come from credential files; a
//! generated admin password is handed over in a private file instead of the log, a missing
//! SMTP server is announced, and answering the form without JavaScript never starts node.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A process killed when dropped; its output goes to a file.
struct Running {
    child: Child,
    log: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// `node` that writes its environment and each call to `dir`, then runs the real node.
fn recording_node(dir: &Path) -> PathBuf {
    let script = dir.join("node");
    let text = format!(
        "#!/bin/sh\nenv > '{0}/node-env.txt'\necho call >> '{0}/node-calls.txt'\nexec node \"$@\"\n",
        dir.display()
    );
    std::fs::write(&script, text).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("executable");
    script
}

fn start(dir: &Path, env: &[(&str, String)]) -> (Running, u16) {
    let port = common::free_port();
    let root = common::site_copy(dir);
    let log = dir.join("sidecar.log");
    let out = std::fs::File::create(&log).expect("log file");
    let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    command
        .env("PORT", port.to_string())
        .env("SITE_ROOT", &root)
        .env("DIST_DIR", dir.join("dist"))
        .env("DATA_DIR", dir.join("var"))
        .env("RUST_LOG", "info")
        .env("NODE", recording_node(dir))
        .stdout(out.try_clone().expect("log"))
        .stderr(out);
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the sidecar starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the sidecar did not listen");
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the sidecar exited with {status}: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (Running { child, log }, port)
}

/// A POST over HTTP/1.1; the status.
fn post(port: u16, path: &str, content_type: &str, body: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0)
}

fn form_post(port: u16, body: &str) -> u16 {
    post(
        port,
        "/api/contact",
        "application/x-www-form-urlencoded",
        body,
    )
}

/// The environment a process was started with, as every process of its user can read it.
fn environ_of(running: &Running) -> String {
    let bytes = std::fs::read(format!("/proc/{}/environ", running.child.id())).expect("environ");
    String::from_utf8_lossy(&bytes).replace('\0', "\n")
}

/// The value of `name` in an `env` listing.
fn value<'a>(env: &'a str, name: &str) -> Option<&'a str> {
    env.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
}

/// Signs in over HTTP; the status.
fn sign_in(port: u16, password: &str) -> u16 {
    let body = format!(r#"{{"email":"{ADMIN}","password":"{password}"}}"#);
    post(port, "/api/auth/login", "application/json", &body)
}

const ADMIN: &str = "magda@gabinet-harmonia.pl";

#[test]
fn secrets_and_cloud_tokens_never_reach_the_process_environment_or_its_children() {
    let dir = tempfile::tempdir().expect("temp dir");
    let publish_env = dir.path().join("publish-env.txt");
    let purge_env = dir.path().join("purge-env.txt");
    let (sidecar, port) = start(
        dir.path(),
        &[
            ("ADMIN_EMAIL", ADMIN.into()),
            ("ADMIN_PASSWORD", "tajne-haslo-administratora".into()),
            (
                "SMTP_URL",
                "smtp://uzytkownik:tajne-haslo-smtp@127.0.0.1:9".into(),
            ),
            ("PUBLISH_CMD", format!("env > '{}'", publish_env.display())),
            ("PURGE_CMD", format!("env > '{}'", purge_env.display())),
            ("PUBLISH_ENV", "RCLONE_CONFIG_*,CF_API_TOKEN".into()),
            ("RCLONE_CONFIG_BUCKET_TYPE", "s3".into()),
            ("CF_API_TOKEN", "token-cdn".into()),
            ("AWS_SECRET_ACCESS_KEY", "klucz-chmury".into()),
        ],
    );
    let own = environ_of(&sidecar);
    let published = std::fs::read_to_string(&publish_env).expect("PUBLISH_CMD ran at start");
    let purged = std::fs::read_to_string(&purge_env).expect("PURGE_CMD ran at start");
    let node = std::fs::read_to_string(dir.path().join("node-env.txt")).expect("node ran at start");
    for (what, env) in [
        ("/proc/PID/environ of the sidecar", &own),
        ("PUBLISH_CMD", &published),
        ("PURGE_CMD", &purged),
        ("node", &node),
    ] {
        for secret in ["ADMIN_PASSWORD", "SMTP_URL", "tajne-haslo"] {
            assert!(!env.contains(secret), "{what} saw {secret}");
        }
    }
    for (what, env) in [
        ("PUBLISH_CMD", &published),
        ("PURGE_CMD", &purged),
        ("node", &node),
    ] {
        assert!(
            !env.contains("klucz-chmury"),
            "{what} saw a variable nobody allowed"
        );
        assert!(value(env, "PATH").is_some(), "{what} has a PATH");
    }
    assert!(!node.contains("token-cdn"), "node gets no cloud token");
    assert!(
        !own.contains("token-cdn") && !own.contains("RCLONE_CONFIG_BUCKET_TYPE="),
        "nor can it read one in the sidecar's own /proc/PID/environ"
    );
    for env in [&published, &purged] {
        assert_eq!(
            value(env, "CF_API_TOKEN"),
            Some("token-cdn"),
            "PUBLISH_ENV lists it"
        );
        assert_eq!(value(env, "RCLONE_CONFIG_BUCKET_TYPE"), Some("s3"));
    }
    assert!(
        published.contains("DIST_DIR="),
        "the command still gets what it needs"
    );
    assert!(
        purged.contains("CHANGED_ROUTES=/") && purged.contains("SITE_URL=https://"),
        "the purge gets the routes and the site's address"
    );
    assert_eq!(
        sign_in(port, "tajne-haslo-administratora"),
        200,
        "the password handed over is the administrator's"
    );
    assert!(
        !sidecar.log().contains("SMTP_URL is not set"),
        "the SMTP URL arrived too"
    );
}

#[test]
fn secrets_come_from_systemd_credentials_and_named_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let credentials = dir.path().join("credentials");
    std::fs::create_dir(&credentials).expect("mkdir");
    std::fs::write(credentials.join("admin_password"), "hasło z poświadczeń\n").expect("write");
    let smtp = dir.path().join("smtp-url");
    std::fs::write(&smtp, "smtp://u:tajne-smtp@127.0.0.1:9\n").expect("write");
    let (sidecar, port) = start(
        dir.path(),
        &[
            ("ADMIN_EMAIL", ADMIN.into()),
            (
                "CREDENTIALS_DIRECTORY",
                credentials.to_string_lossy().into(),
            ),
            ("SMTP_URL_FILE", smtp.to_string_lossy().into()),
        ],
    );
    assert_eq!(sign_in(port, "hasło z poświadczeń"), 200);
    assert!(!sidecar.log().contains("SMTP_URL is not set"));
    let node = std::fs::read_to_string(dir.path().join("node-env.txt")).expect("node ran");
    assert!(
        !node.contains("CREDENTIALS_DIRECTORY") && !node.contains("SMTP_URL_FILE"),
        "a child is not even told where the secrets are"
    );
}

#[test]
fn a_generated_password_is_handed_over_in_a_private_file_and_a_missing_smtp_is_announced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (sidecar, _) = start(dir.path(), &[]);
    let file = dir.path().join("var/admin-password.txt");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !file.exists() {
        assert!(Instant::now() < deadline, "no password file");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let text = std::fs::read_to_string(&file).expect("password file");
    let password = text.lines().nth(1).expect("the password line");
    assert_eq!(password.chars().count(), 20);
    assert_eq!(
        std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777,
        0o600
    );
    let log = sidecar.log();
    assert!(!log.contains(password), "the password is not in the log");
    assert!(
        log.contains("admin-password.txt"),
        "the log says where it is: {log}"
    );
    assert!(
        log.contains("SMTP_URL is not set") && log.contains("outbox"),
        "{log}"
    );
    let mode = |p: &str| {
        std::fs::metadata(dir.path().join(p))
            .expect("meta")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(
        (mode("var"), mode("var/site.sqlite3"), mode("var/outbox")),
        (0o700, 0o600, 0o700)
    );
}

#[test]
fn answering_forty_form_posts_without_javascript_never_starts_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_sidecar, port) = start(dir.path(), &[("CONTACT_RATE_PER_MINUTE", "100".into())]);
    let calls = || {
        std::fs::read_to_string(dir.path().join("node-calls.txt"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let at_start = calls();
    assert_eq!(
        at_start, 1,
        "the first build prerenders the islands in one call"
    );
    let workers: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                (0..10)
                    .map(|i| match i % 2 {
                        0 => form_post(port, "name=&email=x&countryCode=%2B48&message="),
                        _ => form_post(port, "name=Jan&email=jan%40example.pl&countryCode=%2B48&message=Tre%C5%9B%C4%87"),
                    })
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    let statuses: Vec<u16> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("worker"))
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 422).count(),
        20,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        20,
        "asked to confirm"
    );
    assert_eq!(calls(), at_start, "no answer started node");
}
