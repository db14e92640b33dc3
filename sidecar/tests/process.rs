//! The sidecar as a process: secrets never stay in its environment nor reach its children,
//! which see only the variables allowed to them; secrets also come from credential files; a
//! generated admin password is handed over in a private file instead of the log, a missing
//! SMTP server is announced, answering the form without JavaScript never starts node, and the
//! request log names each request without what it carried.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A process killed when dropped; its output goes to a file.
struct Running {
    child: Child,
    log: PathBuf,
    /// The panel's listener (`ADMIN_PORT`).
    admin_port: u16,
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
    start_as(dir, env, Command::new(env!("CARGO_BIN_EXE_sidecar")))
}

/// The sidecar started by `command` (itself, or a shell that ends by running it).
fn start_as(dir: &Path, env: &[(&str, String)], command: Command) -> (Running, u16) {
    launch(dir, &common::site_copy(dir), env, command)
}

/// The sidecar started by `command` over the site at `root`.
fn launch(dir: &Path, root: &Path, env: &[(&str, String)], mut command: Command) -> (Running, u16) {
    let port = common::free_port();
    // The panel's listener: the test's own ADMIN_PORT when it sets one.
    let admin_port = env
        .iter()
        .find(|(k, _)| *k == "ADMIN_PORT")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(common::free_port);
    let log = dir.join("sidecar.log");
    prepare(&mut command, dir, root, (port, admin_port), &log);
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the sidecar starts");
    common::wait_until_listening(&mut child, &[port, admin_port], || {
        std::fs::read_to_string(&log).unwrap_or_default()
    });
    (
        Running {
            child,
            log,
            admin_port,
        },
        port,
    )
}

/// Sets `command` up to serve the site at `root` on `ports` (the site's, the panel's), its data
/// under `dir` and its output into `log`.
fn prepare(command: &mut Command, dir: &Path, root: &Path, ports: (u16, u16), log: &Path) {
    let out = std::fs::File::create(log).expect("log file");
    command
        .env("PORT", ports.0.to_string())
        .env("ADMIN_PORT", ports.1.to_string())
        .env("SITE_ROOT", root)
        .env("DIST_DIR", dir.join("dist"))
        .env("DATA_DIR", dir.join("var"))
        .env("RUST_LOG", "info")
        .env("NODE", recording_node(dir))
        // Its own cache of prerendered islands, empty as on a fresh machine: these tests count
        // and inspect the node processes a start runs.
        .env("SSR_CACHE_DIR", dir.join("ssr-cache"))
        .stdout(out.try_clone().expect("log"))
        .stderr(out);
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

/// A GET's whole answer, head and body.
fn get(port: u16, host: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
}

/// The tests' own start (`common::start_listening`): a port that another process took between
/// its choice and the sidecar's bind makes the sidecar exit with 'cannot listen on', and the
/// start is tried again on other ports, not waited for until its deadline.
#[test]
fn a_port_taken_before_the_bind_is_chosen_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = common::site_copy(dir.path());
    let holder = std::net::TcpListener::bind("127.0.0.1:0").expect("a port to hold");
    let taken = holder.local_addr().expect("its address").port();
    let log = dir.path().join("sidecar.log");
    let mut given = Vec::new();
    let (child, port, admin_port) = common::start_listening(
        |port, admin_port| {
            // The first start gets the port held above, as if another process took it.
            let port = if given.is_empty() { taken } else { port };
            given.push(port);
            let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
            prepare(&mut command, dir.path(), &root, (port, admin_port), &log);
            command.spawn().expect("the sidecar starts")
        },
        || std::fs::read_to_string(&log).unwrap_or_default(),
    );
    let running = Running {
        child,
        log: log.clone(),
        admin_port,
    };
    assert_eq!(given.len(), 2, "one start refused, one more: {given:?}");
    assert_eq!(given[0], taken);
    assert_eq!(given[1], port);
    assert!(common::listening(&[port, running.admin_port]));
}

#[test]
fn the_site_and_the_panel_listen_apart_and_the_start_says_where_each_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let panel = common::free_port();
    let (sidecar, port) = start(dir.path(), &[("ADMIN_PORT", panel.to_string())]);
    wait_started(&sidecar);
    let log = sidecar.log();
    assert!(
        log.contains(&format!(
            "Strona działa pod adresem http://127.0.0.1:{port}"
        )),
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "Panel administracyjny: http://localhost:{panel}/administratormagda"
        )),
        "{log}"
    );
    let page = get(panel, &format!("localhost:{panel}"), "/administratormagda");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<h1>Panel Administracyjny</h1>"));
    let moved = get(port, "127.0.0.1", "/administratormagda");
    assert!(moved.starts_with("HTTP/1.1 302"), "{moved}");
    assert!(
        moved.contains(&format!(
            "location: http://localhost:{panel}/administratormagda"
        )),
        "{moved}"
    );
    assert!(get(port, "127.0.0.1", "/api/auth/session").starts_with("HTTP/1.1 404"));
    assert!(
        !log.contains("EXAMPLE DATA"),
        "a start in development says nothing of example data: {log}"
    );
}

/// Waits until a start has opened both listeners.
fn wait_started(sidecar: &Running) {
    wait_in_log(sidecar, "Panel administracyjny");
}

/// Waits (at most 60 s) until the sidecar's log holds `line`; fails with the log.
fn wait_in_log(sidecar: &Running, line: &str) {
    common::wait_for(
        Duration::from_secs(60),
        Duration::from_millis(50),
        || sidecar.log(),
        || sidecar.log().contains(line).then_some(()),
    );
}

const PRODUCTION: [(&str, &str); 2] = [
    ("FORCE_HTTPS", "1"),
    ("ADMIN_ORIGIN", "https://panel.example.pl"),
];

#[test]
fn a_production_start_with_example_data_publishes_nothing_and_names_every_fact() {
    let dir = tempfile::tempdir().expect("temp dir");
    let env: Vec<(&str, String)> = PRODUCTION
        .iter()
        .map(|(k, v)| (*k, v.to_string()))
        .collect();
    let (sidecar, port) = start(dir.path(), &env);
    wait_started(&sidecar);
    let log = plain(&sidecar.log());
    let refusal = log
        .lines()
        .find(|l| l.contains("NOT PUBLISHED"))
        .unwrap_or_else(|| panic!("no refusal in {log}"));
    assert!(refusal.contains("ERROR"), "{refusal}");
    assert!(
        refusal.contains("facts=name, legal_name, nip, regon, registered_address, address, phone, email, site_url, social, booking, telephony"),
        "every example fact is named: {refusal}"
    );
    for path in [
        "/",
        "/regulamin",
        "/polityka-prywatnosci",
        "/.well-known/security.txt",
    ] {
        let page = get(port, "127.0.0.1", path);
        assert!(page.starts_with("HTTP/1.1 503"), "{path}: {page}");
        assert!(page.contains("Strona w przygotowaniu"), "{page}");
        for example in [
            "5842738192",
            "Grunwaldzka",
            "gabinet-harmonia.pl",
            "+48 58 345 21 90",
        ] {
            assert!(
                !page.contains(example),
                "{path} shows the example {example}"
            );
        }
    }
    assert!(
        !dir.path().join("dist").exists(),
        "nothing is published to dist/"
    );
    let health = get(port, "127.0.0.1", "/api/health");
    assert!(
        health.contains("\"notPublished\":[\"name\",\"legal_name\""),
        "{health}"
    );
    let panel = get(
        sidecar.admin_port,
        "panel.example.pl",
        "/administratormagda",
    );
    assert!(
        panel.starts_with("HTTP/1.1 200"),
        "the panel works: {panel}"
    );
}

#[test]
fn a_production_start_with_confirmed_facts_publishes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = common::site_copy(dir.path());
    let site_yaml = root.join("content/site.yaml");
    let text = std::fs::read_to_string(&site_yaml).expect("site.yaml");
    let listed = text
        .lines()
        .find(|l| l.starts_with("example_data:"))
        .expect("the example list");
    std::fs::write(&site_yaml, text.replace(listed, "example_data: []")).expect("confirmed");
    let env: Vec<(&str, String)> = PRODUCTION
        .iter()
        .map(|(k, v)| (*k, v.to_string()))
        .collect();
    let command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    let (sidecar, port) = launch(dir.path(), &root, &env, command);
    wait_started(&sidecar);
    let log = plain(&sidecar.log());
    assert!(!log.contains("NOT PUBLISHED"), "{log}");
    let home = get(port, "127.0.0.1", "/");
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
    assert!(home.contains("Gabinet Harmonia"), "{home}");
    assert!(
        dir.path().join("dist/index.html").exists(),
        "published to dist/"
    );
    assert!(!get(port, "127.0.0.1", "/api/health").contains("notPublished"));
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

/// An `env` listing another process writes into `path`, once it is written (empty if it
/// never is).
fn once_written(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains("PATH=") || Instant::now() > deadline {
            return text;
        }
        clock::sleep(Duration::from_millis(50));
    }
}

/// The value of `name` in an `env` listing.
fn value<'a>(env: &'a str, name: &str) -> Option<&'a str> {
    env.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
}

/// Signs in over HTTP on the panel's listener; the status.
fn sign_in_status(admin_port: u16, password: &str) -> u16 {
    let body = format!(r#"{{"email":"{ADMIN}","password":"{password}"}}"#);
    post(admin_port, "/api/auth/login", "application/json", &body)
}

const ADMIN: &str = "magda@gabinet-harmonia.pl";

#[test]
fn secrets_and_cloud_tokens_never_reach_the_process_environment_or_its_children() {
    let dir = tempfile::tempdir().expect("temp dir");
    let publish_env = dir.path().join("publish-env.txt");
    let purge_env = dir.path().join("purge-env.txt");
    let (sidecar, _) = start(
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
    // The commands run on their own queue, after the start's build.
    let published = once_written(&publish_env);
    let purged = once_written(&purge_env);
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
    wait_started(&sidecar);
    assert_eq!(
        sign_in_status(sidecar.admin_port, "tajne-haslo-administratora"),
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
    let (sidecar, _) = start(
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
    // The panel's listener opens after the first build, the site's before it.
    wait_started(&sidecar);
    assert_eq!(
        sign_in_status(sidecar.admin_port, "hasło z poświadczeń"),
        200
    );
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
    // The file is there once it holds the password's line.
    common::wait_until("no password file", 30, || {
        std::fs::read_to_string(&file).is_ok_and(|text| text.lines().nth(1).is_some())
    });
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
    // The server listens before its first build is done: wait for that build's one call.
    let deadline = Instant::now() + Duration::from_secs(120);
    while calls() == 0 && Instant::now() < deadline {
        clock::sleep(Duration::from_millis(50));
    }
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

/// The log without its colours.
fn plain(log: &str) -> String {
    regex::Regex::new("\x1b\\[[0-9;]*m")
        .expect("valid pattern")
        .replace_all(log, "")
        .into_owned()
}

#[test]
fn the_request_log_has_an_id_method_path_status_and_time_but_no_query_or_body() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (sidecar, port) = start(dir.path(), &[]);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let request = "GET /cennik?szukaj=znacznik-zapytania HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(
        form_post(
            port,
            "name=Jan&email=znacznik-tresci%40example.pl&countryCode=%2B48&message=znacznik-tresci"
        ),
        200
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = plain(&sidecar.log());
        if log
            .matches("}: sidecar::http::request_log: request")
            .count()
            >= 2
            || Instant::now() > deadline
        {
            break log;
        }
        clock::sleep(Duration::from_millis(50));
    };
    let line = |path: &str| {
        log.lines()
            .find(|l| l.contains(&format!("path={path} ")))
            .unwrap_or_else(|| panic!("no request line for {path} in {log}"))
            .to_string()
    };
    let page = line("/cennik");
    let id = regex::Regex::new(r"id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} ")
        .expect("valid pattern");
    assert!(id.is_match(&page), "{page}");
    assert!(
        page.contains("method=GET") && page.contains("status=200"),
        "{page}"
    );
    assert!(
        regex::Regex::new(r"us=[0-9]+")
            .expect("valid pattern")
            .is_match(&page),
        "{page}"
    );
    let post = line("/api/contact");
    assert!(
        post.contains("method=POST") && post.contains("status=200"),
        "{post}"
    );
    assert!(
        !log.contains("znacznik"),
        "no query string or body in the log: {log}"
    );
}

/// A connection to the server from the loopback address `source`.
fn connect_from(source: &str, port: u16) -> TcpStream {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).expect("socket");
    let local: std::net::SocketAddr = format!("{source}:0").parse().expect("address");
    socket.bind(&local.into()).expect("bind the source address");
    let server = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    socket.connect(&server.into()).expect("connect");
    socket.into()
}

/// One request on its own connection: the whole answer as text.
fn exchange(port: u16, source: &str, request: &str) -> String {
    let mut stream = connect_from(source, port);
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn status(answer: &str) -> u16 {
    answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0)
}

fn status_of(port: u16, source: &str, path: &str, cookie: &str) -> u16 {
    status(&exchange(
        port,
        source,
        &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"),
    ))
}

/// Signs in; the session cookie (`name=value`).
fn sign_in(port: u16, email: &str, password: &str) -> String {
    let body = serde_json::json!({ "email": email, "password": password }).to_string();
    let answer = exchange(
        port,
        "127.0.0.1",
        &format!(
            "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status(&answer), 200, "{answer}");
    answer
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("set-cookie").then(|| {
                value
                    .trim()
                    .split(';')
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
        })
        .expect("a session cookie")
}

#[test]
fn set_password_and_delete_account_end_the_live_sessions_of_a_running_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (admin, first) = ("magda@gabinet-harmonia.pl", "hasło administratora na start");
    let (sidecar, _) = start(
        dir.path(),
        &[
            ("ADMIN_EMAIL", admin.into()),
            ("ADMIN_PASSWORD", first.into()),
        ],
    );
    let port = sidecar.admin_port;
    let mut password = first;
    for (command, next) in [
        ("set-password", "zupełnie nowe hasło"),
        ("delete-account", ""),
    ] {
        let cookie = sign_in(port, admin, password);
        assert_eq!(status_of(port, "127.0.0.1", "/api/pages", &cookie), 200);
        let (var, site) = (dir.path().join("var"), dir.path().join("site"));
        let (ok, err) = common::account_command(&var, &site, &[command, admin], next);
        assert!(ok, "{command}: {err}");
        // The server looks every quarter of a second: ask until it has.
        common::wait_for(
            Duration::from_secs(30),
            Duration::from_millis(50),
            || format!("{command} ended the session"),
            || (status_of(port, "127.0.0.1", "/api/pages", &cookie) == 401).then_some(()),
        );
        password = next;
    }
}

/// A request whose body never comes: the head and one byte of 1000.
fn slow_body(port: u16, source: &str) -> TcpStream {
    let mut stream = connect_from(source, port);
    stream
        .write_all(b"POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        .expect("send");
    stream
}

/// Whether the server closed (or answered) the connection within `wait`.
fn answered_within(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let deadline = Instant::now() + wait;
    let mut buffer = [0_u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .expect("timeout");
        match stream.read(&mut buffer) {
            Ok(n) => return Some(String::from_utf8_lossy(&buffer[..n]).into_owned()),
            // A read with a timeout is not restarted after a signal (a child of another test
            // exiting): it is asked again for what is left of the wait.
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted && !left.is_zero() => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None
            }
            Err(e) => return Some(e.to_string()),
        }
    }
}

#[test]
fn the_soft_limit_of_open_files_is_raised_to_the_hard_one_at_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut shell = Command::new("sh");
    shell.args([
        "-c",
        concat!(
            "ulimit -Sn 256 && exec '",
            env!("CARGO_BIN_EXE_sidecar"),
            "'"
        ),
    ]);
    let (sidecar, _) = start_as(dir.path(), &[], shell);
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", sidecar.child.id()))
        .expect("the process's limits");
    let open_files: Vec<&str> = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .expect("a limit of open files")
        .split_whitespace()
        .skip(3)
        .take(2)
        .collect();
    assert_eq!(open_files.len(), 2, "{limits}");
    assert_ne!(open_files[0], "256", "{limits}");
    assert_eq!(open_files[0], open_files[1], "soft = hard: {limits}");
}

fn start_with_limits(dir: &Path) -> (Running, u16) {
    start(
        dir,
        &[
            ("CONNECTIONS_PER_CLIENT", "4".into()),
            ("BODY_TIMEOUT_SECONDS", "2".into()),
            ("CONTACT_RATE_PER_MINUTE", "1000".into()),
        ],
    )
}

#[test]
fn one_client_holds_at_most_its_connections_and_others_are_served() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_sidecar, port) = start_with_limits(dir.path());
    let mut slow: Vec<TcpStream> = (0..10).map(|_| slow_body(port, "127.0.0.2")).collect();
    clock::sleep(Duration::from_millis(300));
    let (mut held, mut refused) = (Vec::new(), 0);
    for mut stream in slow.drain(..) {
        match answered_within(&mut stream, Duration::from_millis(100)) {
            Some(_) => refused += 1,
            None => held.push(stream),
        }
    }
    assert_eq!((held.len(), refused), (4, 6), "held and refused at once");
    let started = Instant::now();
    assert_eq!(
        status_of(port, "127.0.0.3", "/", ""),
        200,
        "another visitor is served"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    drop(held);
    // The server notices the closed connections as soon as it is scheduled: on a loaded
    // machine that can take a moment, so the client asks again for a few seconds.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut last = status_of(port, "127.0.0.2", "/", "");
    while last != 200 && Instant::now() < deadline {
        clock::sleep(Duration::from_millis(100));
        last = status_of(port, "127.0.0.2", "/", "");
    }
    assert_eq!(last, 200, "its slots came back");
}

#[test]
fn a_stalled_body_gets_408() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_sidecar, port) = start_with_limits(dir.path());
    let mut stalled = slow_body(port, "127.0.0.2");
    let answer = answered_within(&mut stalled, Duration::from_secs(10)).expect("answered");
    assert_eq!(status(&answer), 408, "{answer}");
    assert!(answer.contains("zbyt wolno"), "{answer}");
}

/// `sidecar` with `args` and the environment `env` (over an empty one but `PATH`), standard
/// input closed: whether it succeeded, and what it printed on both outputs.
fn sidecar_said(args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sidecar"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sidecar runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[test]
fn each_setting_is_a_variable_or_a_flag_that_wins_and_help_lists_them_without_their_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("var").to_string_lossy().into_owned();
    let mirror = "https://oauth2:tajny-token@forge.example.pl/tresc.git";
    let (ok, help) = sidecar_said(&["--help"], &[("GIT_MIRROR_URL", mirror), ("PORT", "9000")]);
    assert!(ok, "{help}");
    for listed in [
        "--port <PORT>",
        "[env: PORT]",
        "[env: GIT_MIRROR_URL]",
        "[env: FORGE_KIND]",
    ] {
        assert!(help.contains(listed), "{listed} missing from:\n{help}");
    }
    assert!(
        !help.contains("tajny-token") && !help.contains("9000"),
        "{help}"
    );
    // No secret is ever a flag: a command line is readable by every process of the machine.
    for secret in [
        "--admin-password",
        "--smtp-url",
        "--forge-token",
        "--metrics-token",
    ] {
        assert!(!help.contains(secret), "{secret} is a flag:\n{help}");
    }

    let command = ["delete-account", "nikt@gabinet-harmonia.pl"];
    let env = [("DATA_DIR", data.as_str()), ("PORT", "80a")];
    let (ok, said) = sidecar_said(&command, &env);
    assert!(!ok, "{said}");
    assert!(
        said.contains("error: configuration PORT: '80a' is not a valid number"),
        "{said}"
    );
    let (ok, said) = sidecar_said(&["--port", "8080", command[0], command[1]], &env);
    assert!(!ok, "no such account: {said}");
    assert!(
        !said.contains("PORT") && said.contains("nikt@gabinet-harmonia.pl"),
        "{said}"
    );
    let (ok, said) = sidecar_said(&["--force-https", "tak", "--help"], &[]);
    assert!(
        !ok && said.contains("configuration FORCE_HTTPS: 'tak' is neither 1 (on) nor 0 (off)"),
        "{said}"
    );
}

/// A first `make run` starts the sidecar before its image worker has compiled: the site is
/// served with its photographs as they are, an upload is refused as not checked (nothing of it
/// kept), and once the worker is beside the sidecar the photographs get their variants without
/// a restart.
#[test]
fn without_its_image_worker_the_site_runs_with_photographs_as_they_are_until_it_comes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("bin");
    let copy = bin.join("sidecar");
    std::fs::copy(env!("CARGO_BIN_EXE_sidecar"), &copy).expect("a sidecar alone in its folder");
    let (admin, password) = ("magda@gabinet-harmonia.pl", "hasło administratora na start");
    let cache = dir.path().join("image-cache").display().to_string();
    let env = [
        ("ADMIN_EMAIL", admin.to_string()),
        ("ADMIN_PASSWORD", password.to_string()),
        ("IMAGE_CACHE_DIR", cache),
    ];
    let (sidecar, port) = start_as(dir.path(), &env, Command::new(&copy));
    let home = || get(port, "127.0.0.1", "/");
    common::wait_for(
        Duration::from_secs(60),
        Duration::from_millis(100),
        || sidecar.log(),
        || home().starts_with("HTTP/1.1 200").then_some(()),
    );
    let first = home();
    assert!(first.contains("/images/notes-herbata.jpg"), "{first}");
    assert!(!first.contains(".avif"), "no variants without the worker");
    wait_in_log(&sidecar, "until the image worker is there");

    let cookie = sign_in(sidecar.admin_port, admin, password);
    let png: [u8; 70] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
        0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];
    let mut request = format!(
        "POST /api/images?name=kropka.png&alt=Kropka HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        png.len()
    )
    .into_bytes();
    request.extend_from_slice(&png);
    let mut stream = TcpStream::connect(("127.0.0.1", sidecar.admin_port)).expect("connect");
    stream.write_all(&request).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(status(&answer), 503, "{answer}");
    assert!(answer.contains("Nic nie zostało zapisane"), "{answer}");
    let stored = dir.path().join("site/content/images/kropka.png");
    assert!(!stored.exists(), "nothing of a refused upload is kept");

    let built = Path::new(env!("CARGO_BIN_EXE_sidecar"))
        .parent()
        .expect("the build's folder")
        .join("imaging");
    let whole = std::fs::read(&built).expect("the worker (`cargo build -p imaging`)");
    // The worker arrives as a copy does: first a file still being written, which cannot start
    // ("Text file busy"). The sidecar waits on it rather than giving its photographs up.
    let mut arriving = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o755)
        .open(bin.join("imaging"))
        .expect("the worker's file, made new");
    arriving
        .write_all(&whole[..whole.len() / 2])
        .expect("half the worker written");
    wait_in_log(&sidecar, "the image worker is not ready yet");
    assert!(!sidecar
        .log()
        .contains("the image worker is there: encoding"));
    arriving
        .write_all(&whole[whole.len() / 2..])
        .expect("the rest of the worker written");
    drop(arriving);
    common::wait_for(
        Duration::from_secs(180),
        Duration::from_millis(250),
        || sidecar.log(),
        || home().contains(".avif").then_some(()),
    );
    assert!(sidecar
        .log()
        .contains("the image worker is there: encoding"));
}
