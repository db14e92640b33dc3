//! Forge mode tells the editor where he works: each editor's commit the sync checks gets a
//! commit status on a forge (here a local HTTP endpoint that records what it receives, in
//! GitHub's and GitLab's shapes), and the author of a broken one is e-mailed its problems
//! through the outbox (`.eml` files without SMTP).

use crate::common;

use actix_web::web;
use common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "tajny-token-forge";

/// One request the forge received: its path, headers (lower-case names) and JSON body.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A forge on a loopback port that records each request and answers with `code`.
#[derive(Clone)]
struct Forge {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
    code: Arc<Mutex<u16>>,
    /// How long the forge takes before it answers.
    delay: Arc<Mutex<Duration>>,
}

fn read_request(stream: &std::net::TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_lowercase(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

fn forge() -> Forge {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let forge = Forge {
        url,
        received: Arc::default(),
        code: Arc::new(Mutex::new(201)),
        delay: Arc::default(),
    };
    let recorder = forge.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let Some(request) = read_request(&stream) else {
                continue;
            };
            recorder.received.lock().expect("lock").push(request);
            let delay = *recorder.delay.lock().expect("lock");
            clock::sleep(delay);
            let code = *recorder.code.lock().expect("lock");
            // A forge that refuses a token may well repeat it: it must not reach the panel.
            let body = format!("{{\"message\":\"Bad credentials {TOKEN}\"}}");
            let answer = format!(
                "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    forge
}

struct Repos {
    s: Setup,
    editor: PathBuf,
    forge: Forge,
}

/// A site whose repository tracks a bare remote, an editor's clone, a recording forge of
/// `kind`, and the state `run()` makes with the sync (and its notifier) running.
fn repos(kind: &str, repository: &str) -> Repos {
    let forge = forge();
    let dir = tempfile::tempdir().expect("temp dir");
    let root = site_copy(dir.path());
    let remote = dir.path().join("remote.git");
    std::fs::create_dir_all(&remote).expect("mkdir");
    git(&remote, &["init", "-q", "--bare"]);
    git(&root, &["init", "-q"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "Strona"]);
    let url = remote.to_string_lossy().into_owned();
    git(&root, &["push", "-q", &url, "HEAD:refs/heads/main"]);
    git(dir.path(), &["clone", "-q", &url, "editor"]);
    let extra = [
        ("GIT_REMOTE", url.as_str()),
        ("GIT_POLL_SECONDS", "0"),
        ("FORGE_KIND", kind),
        ("FORGE_API_URL", forge.url.as_str()),
        ("FORGE_REPOSITORY", repository),
        ("FORGE_TOKEN", TOKEN),
        // Longer than the held answer below (60 s): a sync that waited for the forge would
        // wait a whole minute, far beyond what a loaded machine needs to apply a commit.
        ("FORGE_TIMEOUT_SECONDS", "120"),
    ];
    let config = config(dir.path(), &root, &extra);
    let content = site::load(&site::Project::at(&root)).expect("content loads");
    let state = sidecar::AppState::open(&config, &content.site).expect("state opens");
    state.site.rebuild().expect("the site builds");
    let state = web::Data::new(state);
    state.spawn_sync(&config);
    Repos {
        editor: dir.path().join("editor"),
        s: Setup { dir, root, state },
        forge,
    }
}

impl Repos {
    fn git_sync(&self) -> &sidecar::changes::sync::GitSync {
        self.s.state.git.as_ref().expect("git is on")
    }

    /// The editor writes `file`, commits, pushes, and the server is told: the commit.
    fn editor_pushes(&self, file: &str, text: &str) -> String {
        let path = self.editor.join(file);
        std::fs::write(&path, text).expect("write");
        git(&self.editor, &["add", "-A"]);
        git(&self.editor, &["commit", "-q", "-m", "Redakcja"]);
        git(&self.editor, &["push", "-q", "origin", "HEAD:main"]);
        self.git_sync().fetch_soon();
        git(&self.editor, &["rev-parse", "HEAD"])
    }

    /// Waits (at most 90 s: under `make test` a debug build beside the browser tests is slow) for
    /// the forge's `n`-th request.
    fn status_call(&self, n: usize) -> Received {
        wait_for(
            Duration::from_secs(90),
            Duration::from_millis(50),
            || format!("no status call {n}: {:?}", self.git_sync().status()),
            || {
                self.forge
                    .received
                    .lock()
                    .expect("lock")
                    .get(n - 1)
                    .cloned()
            },
        )
    }

    /// The e-mails in the outbox, decoded.
    fn mails(&self) -> Vec<String> {
        let outbox = self.s.dir.path().join("var/outbox");
        let Ok(entries) = std::fs::read_dir(outbox) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
            .map(|e| unquote(&std::fs::read_to_string(e.path()).expect("read")))
            .collect()
    }
}

/// Decodes a quoted-printable message.
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

fn article(title: &str) -> String {
    format!(
        "---\ntitle: \"{title}\"\ndescription: \"Krótki opis artykułu o spacerach i odpoczynku w Gdańsku.\"\nexcerpt: \"Spacer nad morzem pomaga odpocząć.\"\ndate: \"2025-08-01\"\nimage: \"las.svg\"\nimage_alt: \"Zielony las\"\nauthor: \"Magdalena Wiśniewska\"\n---\nSpacer nad morzem to prosty sposób na odpoczynek. Opisujemy, jak zacząć.\n"
    )
}

const BROKEN: &str = "---\ntitle: \"Bez zamknięcia\ndate: 2025-13-45\n---\nTekst.\n";

#[test]
fn github_gets_success_for_a_good_commit_and_failure_naming_the_line_for_a_broken_one_or_a_force_push(
) {
    let r = repos("github", "gabinet/tresc");
    let good = r.editor_pushes("content/blog/spacer.md", &article("Spacer"));
    let call = r.status_call(1);
    assert_eq!(call.path, format!("/repos/gabinet/tresc/statuses/{good}"));
    assert_eq!(
        call.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    assert_eq!(call.body["state"], "success");
    assert_eq!(call.body["context"], "strona/treść");
    let panel = format!("{}/", r.s.state.origins.admin);
    assert_eq!(call.body["target_url"], panel.as_str());
    assert!(r.mails().is_empty(), "a good commit is e-mailed to nobody");

    let broken = r.editor_pushes("content/blog/zepsuty.md", BROKEN);
    let call = r.status_call(2);
    assert_eq!(call.path, format!("/repos/gabinet/tresc/statuses/{broken}"));
    assert_eq!(call.body["state"], "failure");
    let description = call.body["description"].as_str().expect("description");
    assert!(
        description.starts_with("Nie opublikowano")
            && description.contains("content/blog/zepsuty.md:"),
        "{description}"
    );
    assert!(description.chars().count() <= 140, "{description}");

    // The author hears it by e-mail too, with every problem and the commit.
    let problems = r.git_sync().status().broken.expect("broken").problems;
    wait_until("no e-mail", 30, || !r.mails().is_empty());
    let mails = r.mails();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert!(mail.contains("To: ewa@example.pl"), "{mail}");
    assert!(mail.contains(&broken[..10]), "{mail}");
    for problem in &problems {
        assert!(mail.contains(problem.as_str()), "{problem}: {mail}");
    }
    assert!(mail.contains(&panel), "{mail}");
    assert!(r.git_sync().status().errors.is_empty());

    // A force-push that drops the published commit is refused, and the forge is told so.
    git(&r.editor, &["reset", "-q", "--hard", "HEAD~2"]);
    std::fs::write(r.editor.join("content/blog/inny.md"), article("Inny")).expect("write");
    git(&r.editor, &["add", "-A"]);
    git(&r.editor, &["commit", "-q", "-m", "Od nowa"]);
    git(&r.editor, &["push", "-q", "--force", "origin", "HEAD:main"]);
    r.git_sync().fetch_soon();
    let forced = git(&r.editor, &["rev-parse", "HEAD"]);
    let call = r.status_call(3);
    assert_eq!(call.path, format!("/repos/gabinet/tresc/statuses/{forced}"));
    assert_eq!(call.body["state"], "failure");
    let description = call.body["description"].as_str().expect("description");
    assert!(description.contains("force-push"), "{description}");
}

#[test]
fn gitlab_gets_its_own_shape_and_a_refused_token_shows_in_the_status_without_the_token() {
    let r = repos("gitlab", "gabinet/tresc");
    let broken = r.editor_pushes("content/blog/zepsuty.md", BROKEN);
    let call = r.status_call(1);
    assert_eq!(
        call.path,
        format!("/projects/gabinet%2Ftresc/statuses/{broken}")
    );
    assert_eq!(call.header("private-token"), Some(TOKEN));
    assert_eq!(call.body["state"], "failed");
    assert_eq!(call.body["name"], "strona/treść");
    let description = call.body["description"].as_str().expect("description");
    assert!(
        description.contains("content/blog/zepsuty.md:"),
        "{description}"
    );

    // The forge refuses the token: the panel's status says so, without the token.
    *r.forge.code.lock().expect("lock") = 401;
    r.editor_pushes("content/blog/spacer.md", &article("Spacer"));
    r.status_call(2);
    let error = wait_for(
        Duration::from_secs(30),
        Duration::from_millis(50),
        || "no error shown".to_string(),
        || {
            let status = r.git_sync().status();
            status
                .errors
                .into_iter()
                .find(|e| e.step == sidecar::changes::sync::Step::Notify)
                .map(|e| e.message)
        },
    );
    assert!(error.contains("HTTP 401"), "{error}");
    assert!(!error.contains(TOKEN), "{error}");
    // Once the forge takes statuses again, the error is gone.
    *r.forge.code.lock().expect("lock") = 201;
    r.editor_pushes("content/blog/spacer.md", &article("Spacer nad morzem"));
    r.status_call(3);
    wait_until("the error stays", 30, || {
        r.git_sync().status().errors.is_empty()
    });
}

#[test]
fn a_forge_that_does_not_answer_holds_no_commit_back() {
    let r = repos("github", "gabinet/tresc");
    *r.forge.delay.lock().expect("lock") = Duration::from_secs(60);
    r.editor_pushes("content/blog/spacer.md", &article("Spacer"));
    r.status_call(1);
    // The forge holds its first call for a minute: the next commit must not wait for it.
    let started = Instant::now();
    let second = r.editor_pushes("content/blog/spacer.md", &article("Spacer nad morzem"));
    let applied = second[..10].to_string();
    let limit = Duration::from_secs(45).saturating_sub(started.elapsed());
    wait_for(
        limit,
        Duration::from_millis(50),
        || {
            format!(
                "the second commit waits for the forge: {:?}",
                r.git_sync().status()
            )
        },
        || (r.git_sync().status().applied.as_deref() == Some(applied.as_str())).then_some(()),
    );
}
