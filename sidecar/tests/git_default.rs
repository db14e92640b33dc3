//! The sidecar as `make run` starts it — `SITE_ROOT` left to its default `.`, the process
//! working in the checkout, `DATA_DIR` and a local `GIT_REMOTE` relative to it — and as the
//! systemd unit starts it, with absolute paths: in both, a panel save is the administrator's
//! commit on the remote, the work tree stays clean, and an editor's push of the same file
//! afterwards is served.

use crate::common;
use common::git;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

/// The server, stopped when dropped.
pub(crate) struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An HTTP/1.1 request over a connection of its own: the status, the head and the body.
pub(crate) fn http(
    port: u16,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<&Value>,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nCookie: {cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = match head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        true => unchunk(body),
        false => body.to_string(),
    };
    (status, head.to_string(), body)
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Starts the sidecar in `cwd` with `env`; the public and the panel's port.
pub(crate) fn start(cwd: &Path, env: &[(&str, String)], log: &Path) -> (Server, u16, u16) {
    let said = || std::fs::read_to_string(log).unwrap_or_default();
    let (child, port, admin_port) = common::start_listening(
        |port, admin_port| {
            let out = std::fs::File::create(log).expect("log file");
            let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
            command
                .current_dir(cwd)
                .env_remove("SITE_ROOT")
                .env_remove("DATA_DIR")
                .env_remove("DIST_DIR")
                .env("PORT", port.to_string())
                .env("ADMIN_PORT", admin_port.to_string())
                .env("ADMIN_EMAIL", common::ADMIN)
                .env("ADMIN_PASSWORD", common::PASSWORD)
                .env("GIT_BRANCH", "main")
                .env("GIT_POLL_SECONDS", "1")
                .env("RUST_LOG", "info")
                .stdout(out.try_clone().expect("log"))
                .stderr(out);
            for (k, v) in env {
                command.env(k, v);
            }
            command.spawn().expect("the sidecar starts")
        },
        said,
    );
    let server = Server(child);
    // The panel's port accepts connections as soon as it is bound, a moment before the
    // sidecar prints where the panel is.
    common::wait_for(
        Duration::from_secs(90),
        Duration::from_millis(100),
        || format!("the sidecar says where its panel is: {}", said()),
        || said().contains("Panel").then_some(()),
    );
    (server, port, admin_port)
}

/// Signs in to the panel of the server at `admin_port`: the session cookie.
pub(crate) fn sign_in(admin_port: u16) -> String {
    let login = json!({ "email": common::ADMIN, "password": common::PASSWORD });
    let (status, head, body) = http(admin_port, "POST", "/api/auth/login", "", Some(&login));
    assert_eq!(status, 200, "{body}");
    head.lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .find(|c| c.contains(sidecar::http::admin::COOKIE))
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string()
}

/// Signs in and saves the blog's introduction.
fn panel_saves(admin_port: u16, text: &str) {
    let cookie = sign_in(admin_port);
    let (_, _, pages) = http(admin_port, "GET", "/api/pages", &cookie, None);
    let pages: Value = serde_json::from_str(&pages).expect("pages");
    let page = pages
        .as_array()
        .and_then(|p| p.iter().find(|p| p["id"] == "pages/blog"))
        .expect("the blog page");
    let save = json!({ "content": { "sections": [{ "type": "text", "content": text }] }, "version": page["version"] });
    let (status, _, body) = http(
        admin_port,
        "PUT",
        "/api/pages/pages/blog",
        &cookie,
        Some(&save),
    );
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(answer["warning"], Value::Null, "{body}");
}

/// A site cloned from a bare remote beside it, and an editor's clone.
fn repos(dir: &Path) -> std::path::PathBuf {
    let root = common::site_copy(dir);
    std::fs::write(root.join(".gitignore"), "/var/\n/dist/\n").expect("gitignore");
    let remote = dir.join("remote.git");
    std::fs::create_dir_all(&remote).expect("mkdir");
    git(&remote, &["init", "-q", "--bare"]);
    git(&root, &["init", "-q"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "Strona"]);
    git(
        &root,
        &[
            "push",
            "-q",
            &remote.to_string_lossy(),
            "HEAD:refs/heads/main",
        ],
    );
    git(dir, &["clone", "-q", &remote.to_string_lossy(), "editor"]);
    root
}

fn saved_and_pushed_then_an_editors_edit_is_served(relative: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = repos(dir.path());
    let (cwd, env) = match relative {
        // As `make run`: in the checkout, every path left to its default or relative.
        true => (
            root.clone(),
            vec![("GIT_REMOTE", "../remote.git".to_string())],
        ),
        false => (
            dir.path().to_path_buf(),
            vec![
                ("SITE_ROOT", root.to_string_lossy().into_owned()),
                (
                    "DATA_DIR",
                    dir.path().join("var").to_string_lossy().into_owned(),
                ),
                (
                    "DIST_DIR",
                    dir.path().join("dist").to_string_lossy().into_owned(),
                ),
                (
                    "GIT_REMOTE",
                    dir.path().join("remote.git").to_string_lossy().into_owned(),
                ),
            ],
        ),
    };
    let log = dir.path().join("sidecar.log");
    let (_server, port, admin_port) = start(&cwd, &env, &log);
    panel_saves(admin_port, "Wstęp bloga zapisany w panelu.");
    let remote = dir.path().join("remote.git");
    common::wait_until("the panel's save reaches the remote", 30, || {
        git(&remote, &["log", "-1", "--format=%an|%s", "main"])
            == "Administrator|Blog: treść (akapit 1)"
    });
    assert_eq!(git(&root, &["status", "--porcelain", "--", "content"]), "");
    let editor = dir.path().join("editor");
    git(&editor, &["pull", "-q", "--ff-only", "origin", "main"]);
    let file = editor.join("content/pages/blog.md");
    let text = std::fs::read_to_string(&file).expect("pulled");
    assert!(text.contains("zapisany w panelu"), "{text}");
    std::fs::write(
        &file,
        text.replace("zapisany w panelu", "poprawiony przez redaktorkę"),
    )
    .expect("write");
    git(&editor, &["commit", "-q", "-am", "Wstęp bloga"]);
    git(&editor, &["push", "-q", "origin", "HEAD:main"]);
    common::wait_until("the editor's edit is served", 60, || {
        http(port, "GET", "/blog", "", None)
            .2
            .contains("poprawiony przez redaktorkę")
    });
    let health: Value =
        serde_json::from_str(&http(port, "GET", "/api/health", "", None).2).expect("json");
    assert_eq!(health["git"]["failing"], false, "{health}");
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!said.contains("was not committed"), "{said}");
}

#[test]
fn with_make_runs_defaults_a_panel_save_is_committed_and_an_editors_push_applies() {
    saved_and_pushed_then_an_editors_edit_is_served(true);
}

#[test]
fn with_absolute_paths_a_panel_save_is_committed_and_an_editors_push_applies() {
    saved_and_pushed_then_an_editors_edit_is_served(false);
}
