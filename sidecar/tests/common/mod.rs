//! Helpers shared by the sidecar's integration tests: a copy of the site, the state `run()`
//! makes, and requests against `sidecar::public_app` and `sidecar::admin_app` — the same
//! two applications `run()` serves, middleware and all.
#![allow(dead_code)]

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{test, web};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) const ADMIN: &str = "magda@gabinet-harmonia.pl";
pub(crate) const PASSWORD: &str = "długie hasło administratora";
pub(crate) const OTHER: &str = "tomasz@gabinet-harmonia.pl";
pub(crate) const OTHER_PASSWORD: &str = "hasło innego konta";

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Waits until the sidecar `child` listens on every one of `ports`, at most 90 s: the panel's
/// port opens after the site's, so a test that talks to the panel waits for both. Panics with
/// `log()` if the process exits first.
pub(crate) fn wait_until_listening(
    child: &mut std::process::Child,
    ports: &[u16],
    log: impl Fn() -> String,
) {
    if let Err(status) = listening_or_exit(child, ports, &log) {
        panic!("the sidecar exited with {status}: {}", log());
    }
}

/// Starts a sidecar with `spawn(port, admin_port)` and waits until it listens on both. Two free
/// ports are chosen for each start: one taken by any process of this machine between that
/// choice and the sidecar's bind ('cannot listen on') is chosen again, up to three times. Panics
/// with `log()` if the sidecar exits for another reason.
pub(crate) fn start_listening(
    mut spawn: impl FnMut(u16, u16) -> std::process::Child,
    log: impl Fn() -> String,
) -> (std::process::Child, u16, u16) {
    let mut attempt = 1;
    loop {
        let (port, admin_port) = (free_port(), free_port());
        let mut child = spawn(port, admin_port);
        match listening_or_exit(&mut child, &[port, admin_port], &log) {
            Ok(()) => return (child, port, admin_port),
            Err(_) if attempt < 3 && log().contains("cannot listen on") => attempt += 1,
            Err(status) => panic!("the sidecar exited with {status}: {}", log()),
        }
    }
}

/// Waits until `child` listens on every one of `ports` (at most 90 s, then panics with `log()`),
/// or until it exits: its status.
fn listening_or_exit(
    child: &mut std::process::Child,
    ports: &[u16],
    log: &impl Fn() -> String,
) -> Result<(), std::process::ExitStatus> {
    wait_for(
        Duration::from_secs(90),
        Duration::from_millis(50),
        || format!("the sidecar did not listen on {ports:?}: {}", log()),
        || match child.try_wait() {
            Ok(Some(status)) => Some(Err(status)),
            _ => listening(ports).then_some(Ok(())),
        },
    )
}

/// Whether something accepts connections on every one of `ports` of this machine.
pub(crate) fn listening(ports: &[u16]) -> bool {
    ports
        .iter()
        .all(|p| std::net::TcpStream::connect(("127.0.0.1", *p)).is_ok())
}

/// Asks `probe` every `every` until it has a value, and returns it: how a test waits for a
/// state that its sidecar, or a tool it started, reaches in its own time. Fails after `limit`
/// with `what()`, which can say what was last seen.
pub(crate) fn wait_for<T>(
    limit: Duration,
    every: Duration,
    what: impl Fn() -> String,
    mut probe: impl FnMut() -> Option<T>,
) -> T {
    let started = Instant::now();
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(started.elapsed() < limit, "{}", what());
        clock::sleep(every);
    }
}

/// Waits until `done()`, asking every 100 ms, and fails with `what` after `seconds`.
pub(crate) fn wait_until(what: &str, seconds: u64, mut done: impl FnMut() -> bool) {
    wait_for(
        Duration::from_secs(seconds),
        Duration::from_millis(100),
        || what.to_string(),
        || done().then_some(()),
    );
}

/// Runs `body` in a new process of this test binary that runs the test `name` (its path
/// below the binary, `git_sync::…`) and nothing else, and fails if that process fails. What
/// a test measures of its own process (the peak memory in `/proc/self/status`) counts every
/// test running beside it; in a process of its own it counts this test's work only.
pub(crate) fn alone(name: &str, body: impl FnOnce()) {
    const ALONE: &str = "HARMONIA_TEST_ALONE";
    if std::env::var_os(ALONE).is_some() {
        return body();
    }
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", name, "--test-threads=1", "--nocapture"])
        .env(ALONE, "1")
        .output()
        .expect("this test binary runs again");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{name}, run alone, failed:\n{said}");
    assert!(
        said.contains("1 passed"),
        "{name} was not run alone:\n{said}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    let walk = walkdir::WalkDir::new(from).into_iter();
    for entry in walk.filter_entry(|e| e.file_name() != "ssr-cache") {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("under source"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A copy of the project's sources (content, templates, built islands) under `dir/site`,
/// so that tests may write content files.
pub(crate) fn site_copy(dir: &Path) -> PathBuf {
    let root = dir.join("site");
    for sub in ["content", "templates", "islands/build"] {
        copy_dir(&repo_root().join(sub), &root.join(sub));
    }
    root
}

/// `sidecar COMMAND EMAIL` (an account command) as another process over the site at `root`
/// with its data in `data_dir`, `password` on standard input: whether it succeeded, and
/// what it said on standard error.
pub(crate) fn account_command(
    data_dir: &Path,
    root: &Path,
    args: &[&str],
    password: &str,
) -> (bool, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sidecar"))
        .args(args)
        .env("DATA_DIR", data_dir)
        .env("SITE_ROOT", root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sidecar runs");
    let mut stdin = child.stdin.take().expect("stdin");
    match stdin.write_all(format!("{password}\n").as_bytes()) {
        // A command that reads no password (`delete-account`) may have ended before the
        // line was written: its exit status and words say how it went.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write"),
    }
    drop(stdin);
    let out = child.wait_with_output().expect("exits");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A configuration over `root`, with `extra` variables first.
pub(crate) fn config(dir: &Path, root: &Path, extra: &[(&str, &str)]) -> sidecar::Config {
    let (root, data, dist) = (root.to_path_buf(), dir.join("var"), dir.join("dist"));
    sidecar::Config::from_lookup(|key| {
        if let Some((_, v)) = extra.iter().find(|(k, _)| *k == key) {
            return Some(v.to_string());
        }
        match key {
            "SITE_ROOT" => Some(root.to_string_lossy().into_owned()),
            "DATA_DIR" => Some(data.to_string_lossy().into_owned()),
            "DIST_DIR" => Some(dist.to_string_lossy().into_owned()),
            "ADMIN_EMAIL" => Some(ADMIN.into()),
            "CONTACT_RATE_PER_MINUTE" => Some("1000".into()),
            _ => None,
        }
    })
    .expect("test configuration is valid")
}

/// A site copy with its state as `run()` makes it: built, the admin and another account.
pub(crate) struct Setup {
    pub(crate) dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
    pub(crate) state: web::Data<sidecar::AppState>,
}

pub(crate) fn setup(extra: &[(&str, &str)]) -> Setup {
    setup_at(extra, clock::Clock::system())
}

/// [`setup`] with the server's one clock set by the test.
pub(crate) fn setup_at(extra: &[(&str, &str)], clock: clock::Clock) -> Setup {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = site_copy(dir.path());
    let config = sidecar::Config {
        clock,
        ..config(dir.path(), &root, extra)
    };
    let content = site::load(&site::Project::at(&root)).expect("content loads");
    let state = sidecar::AppState::open(&config, &content.site).expect("state opens");
    state.site.rebuild().expect("the site builds");
    accounts::password::ensure_admin(&state.auth.store, ADMIN, Some(PASSWORD)).expect("admin");
    accounts::password::add_account(&state.auth.store, OTHER, OTHER_PASSWORD)
        .expect("other account");
    let state = web::Data::new(state);
    sidecar::serve::variants::spawn(state.site.clone());
    Setup { dir, root, state }
}

impl Drop for Setup {
    /// The image worker `setup()` started ends with its test, letting go of the site (a test
    /// binary runs about a hundred setups).
    fn drop(&mut self) {
        self.state.site.images.close();
    }
}

impl Setup {
    /// The page at `path` as the sidecar serves it now.
    pub(crate) fn served(&self, path: &str) -> String {
        let site = self.state.site.live.current();
        let file = match path {
            "/" => "index.html".to_string(),
            p => format!("{}/index.html", p.trim_start_matches('/')),
        };
        site.files
            .get(&file)
            .map(|f| String::from_utf8_lossy(&f.raw).into_owned())
            .unwrap_or_default()
    }

    pub(crate) fn file(&self, relative: &str) -> String {
        std::fs::read_to_string(self.root.join("content").join(relative)).expect("content file")
    }

    pub(crate) fn stored(&self) -> Vec<sidecar::db::StoredMessage> {
        self.state.db.messages(None, 10_000).expect("messages")
    }
}

/// The public site's application of `run()` for a setup.
#[macro_export]
macro_rules! public_app {
    ($setup:expr) => {
        actix_web::test::init_service(sidecar::public_app($setup.state.clone())).await
    };
}

/// The panel's application of `run()` for a setup (its own origin, `ADMIN_ORIGIN`).
#[macro_export]
macro_rules! admin_app {
    ($setup:expr) => {
        actix_web::test::init_service(sidecar::admin_app($setup.state.clone())).await
    };
}

/// The panel's origin of a setup without `ADMIN_ORIGIN`: what its browser sends as `Origin`.
pub(crate) const PANEL_ORIGIN: &str = "http://localhost:8081";

/// A response's status, session cookie and JSON body.
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) cookie: Option<Cookie<'static>>,
    pub(crate) headers: actix_web::http::header::HeaderMap,
    pub(crate) body: Value,
    pub(crate) text: String,
}

pub(crate) async fn send<S, B>(app: &S, req: test::TestRequest) -> Answer
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let resp = test::call_service(app, req.to_request()).await;
    let status = resp.status();
    let headers = resp.headers().clone();
    let cookie = resp
        .response()
        .cookies()
        .find(|c| c.name().ends_with(sidecar::http::admin::COOKIE) && !c.value().is_empty())
        .map(|c| c.into_owned());
    let bytes = test::read_body(resp).await;
    Answer {
        status,
        cookie,
        headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// A request from the loopback address `ip` (127.0.0.2, 127.0.0.3… are all this machine).
pub(crate) fn from(ip: &str, req: test::TestRequest) -> test::TestRequest {
    req.peer_addr(format!("{ip}:40000").parse().expect("socket address"))
}

pub(crate) fn login(email: &str, password: &str) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/api/auth/login")
        .set_json(json!({ "email": email, "password": password }))
}

pub(crate) async fn signed_in<S, B>(app: &S) -> Cookie<'static>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let answer = send(app, login(ADMIN, PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.cookie.expect("a session cookie")
}

/// Runs git in `dir` as an editor with no hooks, filters or global settings; its output.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "user.name=Ewa Redaktorka",
        ])
        .args([
            "-c",
            "user.email=ewa@example.pl",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Now by the clock the test servers run on: the system's, as [`config`] sets no other.
pub(crate) fn now() -> i64 {
    clock::Clock::system().now()
}
