//! `GIT_HOSTED=1`: the server hosts the content's repository and a real git client clones
//! and pushes it over HTTP with an access token made in the panel. A good article is served
//! at once; a broken one, a symbolic link, a submodule, a file outside `content/` and a
//! 50 MB file are each refused in the push's own output, in Polish, and nothing changes;
//! a wrong token is refused before git runs, a revoked one as well.

use crate::common;
use crate::common::wait_until;
use crate::git_default::{http, sign_in, start, Server};
use common::git;

use contentsync::receive::LIVE;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub(crate) struct Hosted {
    _server: Server,
    pub(crate) dir: tempfile::TempDir,
    pub(crate) port: u16,
    pub(crate) admin_port: u16,
    pub(crate) cookie: String,
}

/// A site whose content is a git work tree, served with `GIT_HOSTED=1`, signed in.
pub(crate) fn hosted() -> Hosted {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = common::site_copy(dir.path());
    std::fs::write(root.join(".gitignore"), "/var/\n/dist/\n").expect("gitignore");
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "Strona"]);
    let path = |p: &str| dir.path().join(p).to_string_lossy().into_owned();
    let env = [
        ("SITE_ROOT", root.to_string_lossy().into_owned()),
        ("DATA_DIR", path("var")),
        ("DIST_DIR", path("dist")),
        ("GIT_HOSTED", "1".into()),
        ("GIT_POLL_SECONDS", "0".into()),
        ("GIT_MIRROR_URL", path("mirror.git")),
    ];
    git(dir.path(), &["init", "-q", "--bare", "mirror.git"]);
    let (server, port, admin_port) = start(dir.path(), &env, &dir.path().join("sidecar.log"));
    let bare = dir.path().join("var/content.git");
    wait_until(
        "the server pushes the site to the repository it hosts",
        30,
        || {
            Command::new("git")
                .arg("-C")
                .arg(&bare)
                .args(["rev-parse", "--verify", "-q", "refs/heads/main"])
                .output()
                .is_ok_and(|o| o.status.success())
        },
    );
    let cookie = sign_in(admin_port);
    Hosted {
        _server: server,
        dir,
        port,
        admin_port,
        cookie,
    }
}

impl Hosted {
    /// A new token named `name`, made in the panel: its id and its text.
    pub(crate) fn token(&self, name: &str) -> (i64, String) {
        let reauth = json!({ "password": common::PASSWORD });
        let (status, _, body) = http(
            self.admin_port,
            "POST",
            "/api/auth/reauth",
            &self.cookie,
            Some(&reauth),
        );
        assert_eq!(status, 204, "{body}");
        let (status, _, body) = http(
            self.admin_port,
            "POST",
            "/api/git/tokens",
            &self.cookie,
            Some(&json!({ "name": name })),
        );
        assert_eq!(status, 201, "{body}");
        let made: Value = serde_json::from_str(&body).expect("json");
        let token = made["token"].as_str().expect("the token").to_string();
        (made["id"].as_i64().expect("its id"), token)
    }

    fn url(&self, token: &str) -> String {
        format!(
            "http://redaktorka:{token}@127.0.0.1:{}/git/tresc.git",
            self.admin_port
        )
    }

    /// Clones with `token` into `name`.
    pub(crate) fn clone(&self, token: &str, name: &str) -> PathBuf {
        git(self.dir.path(), &["clone", "-q", &self.url(token), name]);
        let clone = self.dir.path().join(name);
        git(&clone, &["config", "user.name", "Anna Redaktorka"]);
        git(&clone, &["config", "user.email", "anna@example.pl"]);
        clone
    }

    pub(crate) fn branch(&self) -> String {
        git(
            &self.dir.path().join("var/content.git"),
            &["rev-parse", "main"],
        )
    }
}

/// `git push` in `clone`: whether it was taken, and everything git said.
pub(crate) fn push(clone: &Path) -> (bool, String) {
    let out = Command::new("git")
        .arg("-C")
        .arg(clone)
        .args(["push", "origin", "HEAD:main"])
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .expect("git runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// Commits what is staged in `clone` and pushes; the push must be refused, naming `words`,
/// and the repository must stay where it was. The clone is put back after.
fn refused(site: &Hosted, clone: &Path, words: &[&str]) {
    let before = site.branch();
    let status = git(clone, &["status", "--short"]);
    assert!(!status.is_empty(), "nothing to commit");
    git(clone, &["commit", "-q", "-m", "Zmiana do odrzucenia"]);
    let (taken, said) = push(clone);
    assert!(!taken, "{said}");
    for w in words {
        assert!(said.contains(w), "{w}: {said}");
    }
    assert!(said.contains("remote: Serwer nie przyjął zmian"), "{said}");
    assert_eq!(site.branch(), before);
    git(clone, &["reset", "-q", "--hard", "origin/main"]);
}

pub(crate) const ARTICLE: &str = "---\ntitle: \"Sen a nastrój\"\ndescription: \"Jak sen wpływa na nastrój: krótki przewodnik gabinetu dla osób, które śpią za mało i czują, że to odbija się na samopoczuciu.\"\nexcerpt: \"Krótko o tym, jak sen wpływa na nastrój.\"\ndate: \"2025-07-01\"\nimage: \"wzgorza.svg\"\nimage_alt: \"Łagodne wzgórza\"\nauthor: \"Magdalena Wiśniewska\"\n---\nSen porządkuje emocje dnia. Artykuł wysłany przez git.\n";

#[test]
fn editors_push_to_the_site_itself_and_hear_the_verdict_in_git() {
    let site = hosted();
    let (_, token) = site.token("Anna, laptop");
    let clone = site.clone(&token, "redakcja");

    std::fs::write(clone.join("content/blog/sen-a-nastroj.md"), ARTICLE).expect("write");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "Nowy artykuł: sen"]);
    let started = Instant::now();
    let (taken, said) = push(&clone);
    assert!(taken, "{said}");
    assert!(said.contains(&format!("remote: {LIVE}")), "{said}");
    // "Live" means live: the article is served when the push returns, not a moment later.
    let (status, _, page) = http(site.port, "GET", "/blog/sen-a-nastroj", "", None);
    assert_eq!(status, 200);
    assert!(page.contains("Artykuł wysłany przez git"), "{page}");
    eprintln!("push → served: {} ms", started.elapsed().as_millis());
    // The push is kept under the token that made it: in the repository's reflog (git's
    // pusher is the token's name), and in the audit log beside the commits' own author.
    let bare = site.dir.path().join("var/content.git");
    let pushers = git(&bare, &["log", "-g", "--format=%gn", "main"]);
    assert_eq!(pushers.lines().next(), Some("Anna, laptop"), "{pushers}");
    let author = git(&clone, &["log", "-1", "--format=%an <%ae>"]);
    wait_until("the push is in the audit log", 30, || {
        let (_, _, audit) = http(site.admin_port, "GET", "/api/audit", &site.cookie, None);
        let entries: Vec<Value> = serde_json::from_str(&audit).unwrap_or_default();
        entries.iter().any(|e| {
            e["event"] == "git_pushed"
                && e["actor"] == "Anna, laptop"
                && e["detail"].as_str().is_some_and(|d| d.contains(&author))
        })
    });
    let mirror = site.dir.path().join("mirror.git");
    wait_until("the mirror has the pushed article", 30, || {
        Command::new("git")
            .arg("-C")
            .arg(&mirror)
            .args(["rev-parse", "main"])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == site.branch())
    });

    let broken = format!("{ARTICLE}\n## Dlaczego sen porządkuje emocje\n\nTekst akapitu.\n");
    std::fs::write(clone.join("content/blog/sen-a-nastroj.md"), broken).expect("write");
    git(&clone, &["add", "-A"]);
    refused(&site, &clone, &["remote:   content/blog/sen-a-nastroj.md:"]);

    std::os::unix::fs::symlink("/etc/passwd", clone.join("content/blog/hasla.md")).expect("link");
    git(&clone, &["add", "-A"]);
    refused(
        &site,
        &clone,
        &["content/blog/hasla.md: to dowiązanie symboliczne"],
    );

    std::fs::write(clone.join("notatki.txt"), "poza treścią").expect("write");
    git(&clone, &["add", "-A"]);
    refused(
        &site,
        &clone,
        &["notatki.txt: plik poza katalogiem content/"],
    );

    let head = git(&clone, &["rev-parse", "HEAD"]);
    let entry = format!("160000,{head},content/inne");
    git(&clone, &["update-index", "--add", "--cacheinfo", &entry]);
    refused(&site, &clone, &["content/inne: to submoduł"]);

    // Made without holding it in memory: the 300 MB test beside it measures this process.
    let big = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(clone.join("content/duzy.jpg"))
        .expect("file");
    big.set_len(50 * 1024 * 1024).expect("size");
    git(&clone, &["add", "-A"]);
    refused(&site, &clone, &["content/duzy.jpg: plik ma 50"]);
}

/// Runs `command` to its end: whether it succeeded, what it said, and the largest resident set
/// (MiB) it or any process it waited for had (`wait4`'s rusage), this test's other children
/// apart.
// The child is waited for by `wait4`, which std does not know of.
#[allow(clippy::zombie_processes)]
fn run_measured(command: Command) -> (bool, String, u64) {
    // GNU time waits for the command and reports its peak (with its children's). Measured by
    // this test binary itself, a child forked from it would count the binary's own memory,
    // hundreds of MiB while the other tests run beside it, before git even starts.
    let mut timed = Command::new("/usr/bin/time");
    timed
        .args(["-f", "peak-kib=%M"])
        .arg(command.get_program())
        .args(command.get_args())
        .envs(command.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .stdout(std::process::Stdio::null());
    let out = timed
        .output()
        .expect("GNU time runs (make test installs it)");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let peak = said
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("peak-kib="))
        .and_then(|k| k.trim().parse::<u64>().ok())
        .expect("time reports the peak");
    (out.status.success(), said, peak / 1024)
}

#[test]
fn a_400_mib_file_added_then_removed_is_refused_and_nothing_of_it_stays() {
    let site = hosted();
    let (_, token) = site.token("Anna, laptop");
    let clone = site.clone(&token, "duza");
    let bare = site.dir.path().join("var/content.git");
    // The client streams big files too, so that nothing here holds 400 MiB.
    git(&clone, &["config", "core.bigFileThreshold", "1m"]);
    // Commit A adds 400 MiB of zero bytes (a sparse file: a few hundred kilobytes once git
    // has packed them), commit B removes it and adds a good article.
    let big = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(clone.join("content/images/duzy.jpg"))
        .expect("file");
    big.set_len(400 * 1024 * 1024).expect("size");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "Duży obraz"]);
    let blob = git(&clone, &["rev-parse", "HEAD:content/images/duzy.jpg"]);
    std::fs::remove_file(clone.join("content/images/duzy.jpg")).expect("remove");
    std::fs::write(clone.join("content/blog/sen-a-nastroj.md"), ARTICLE).expect("write");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "Jednak bez obrazu"]);
    let before = site.branch();
    let nothing_left = |when: &str| {
        let there = Command::new("git")
            .arg("-C")
            .arg(&bare)
            .args(["cat-file", "-e", &blob])
            .status()
            .expect("git runs");
        assert!(!there.success(), "{when}: the blob stayed in content.git");
        let objects = bare.join("objects");
        let quarantine = std::fs::read_dir(&objects)
            .expect("objects")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("incoming-"));
        assert!(!quarantine, "{when}: a quarantine was left in {objects:?}");
        assert_eq!(site.branch(), before, "{when}");
    };

    // Over HTTP, as an editor pushes: refused in the push's own output.
    let (taken, said) = push(&clone);
    assert!(!taken, "{said}");
    assert!(
        said.contains("content/images/duzy.jpg: plik ma 400,0 MiB")
            && said.contains("choć późniejszy go usuwa"),
        "{said}"
    );
    nothing_left("over HTTP");

    // The same push straight into the repository's folder (its settings and hook, as the
    // server wrote them), to measure git's receiving side and the hook with it.
    let mut direct = Command::new("git");
    direct
        .arg("-C")
        .arg(&clone)
        .args(["push", &bare.to_string_lossy(), "HEAD:main"])
        .env("GIT_PROJECT_ROOT", site.dir.path().join("var"));
    let (taken, said, peak) = run_measured(direct);
    assert!(!taken, "{said}");
    assert!(said.contains("choć późniejszy go usuwa"), "{said}");
    assert!(peak < 200, "the push and its checks peaked at {peak} MiB");
    eprintln!("a refused 400 MiB intermediate blob: peak {peak} MiB");
    nothing_left("straight into the folder");
}

#[test]
fn a_wrong_or_revoked_token_is_refused() {
    let site = hosted();
    let (id, token) = site.token("Tomek");
    let clone = site.clone(&token, "tomek");

    // A wrong token: 401 with the challenge and a Polish reason, before git is started.
    let auth = "Authorization: Basic cmVkYWt0b3JrYTp6bHk=";
    let (status, head, body) = http(
        site.admin_port,
        "GET",
        "/git/tresc.git/info/refs?service=git-upload-pack",
        &format!("x\r\n{auth}"),
        None,
    );
    assert_eq!(status, 401, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("www-authenticate: basic"),
        "{head}"
    );
    assert!(body.contains("token dostępu"), "{body}");
    // The panel origin's headers, as on every answer of its listener.
    assert!(
        head.to_ascii_lowercase()
            .contains("content-security-policy"),
        "{head}"
    );
    let log = std::fs::read_to_string(site.dir.path().join("sidecar.log")).unwrap_or_default();
    assert!(!log.contains("git http-backend"), "{log}");

    let (status, _, body) = http(
        site.admin_port,
        "DELETE",
        &format!("/api/git/tokens/{id}"),
        &site.cookie,
        None,
    );
    assert_eq!(status, 204, "{body}");
    std::fs::write(clone.join("content/blog/tomek.md"), ARTICLE).expect("write");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "Po unieważnieniu"]);
    let before = site.branch();
    let (taken, said) = push(&clone);
    assert!(!taken, "{said}");
    assert!(
        said.contains("401") || said.contains("Authentication failed"),
        "{said}"
    );
    assert_eq!(site.branch(), before);
    // A refusal is written to the audit log after its answer has left.
    wait_until("the refused token is in the audit log", 10, || {
        let (_, _, audit) = http(site.admin_port, "GET", "/api/audit", &site.cookie, None);
        audit.contains("git_token_refused")
    });
    let (_, _, audit) = http(site.admin_port, "GET", "/api/audit", &site.cookie, None);
    for event in [
        "git_token_created",
        "git_token_revoked",
        "git_token_refused",
    ] {
        assert!(audit.contains(event), "{event}: {audit}");
    }

    // A client guessing tokens is slowed down: past its refusals of a minute, 429.
    let statuses: Vec<u16> = (0..sidecar::changes::hosted::REQUESTS_PER_MINUTE + 1)
        .map(|_| {
            let path = "/git/tresc.git/info/refs?service=git-receive-pack";
            http(site.admin_port, "GET", path, &format!("x\r\n{auth}"), None).0
        })
        .collect();
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // Every refused token of this client's minute is one line of the audit log (two, if the
    // test crossed a minute).
    let (_, _, audit) = http(site.admin_port, "GET", "/api/audit", &site.cookie, None);
    let entries: Vec<Value> = serde_json::from_str(&audit).expect("the audit log");
    let lines = entries
        .iter()
        .filter(|e| e["event"] == "git_token_refused")
        .count();
    assert!((1..=2).contains(&lines), "{lines} lines: {audit}");
}
