//! The site as a git remote (`GIT_HOSTED=1`): the server keeps the content's repository
//! itself, bare, in `DATA_DIR/content.git`. The sync tracks it as its remote (panel commits
//! are pushed there, editors' commits fetched from it), editors clone and push it over
//! HTTP on the panel's origin ([`crate::api::git::http`]), and every push they make is
//! checked by its pre-receive hook — `sidecar pre-receive` ([`receive`]) — before git
//! takes it: only the branch, only forward, only `content/`, what [`contentsync::vet`]
//! allows, and the checks of `make check` on the pushed commit in a work tree of its own.
//! A refusal is told in the editor's terminal (`remote: …`), in Polish, at `content/…:line`.
//!
//! The hook and the repository's settings are written by the server at each start, outside
//! what a push can change (`core.hooksPath` is a folder of `DATA_DIR`).

use std::path::{Path, PathBuf};

use contentsync::Repo;

use crate::error::Error;

pub use crate::config::{bare_repo, HOSTED_REPOSITORY as REPOSITORY};
/// Where its hooks are written.
const HOOKS: &str = "git-hooks";
/// What git names a missing commit in a hook's input.
const ZERO: &str = "0000000000000000000000000000000000000000";

/// What the pre-receive hook is told of the running site.
#[derive(Debug, Clone, clap::Args)]
pub struct Receive {
    /// The project root (`SITE_ROOT`): its templates and islands check the content.
    #[arg(long)]
    pub root: PathBuf,
    /// `DATA_DIR`: the checked commits' work trees are made there.
    #[arg(long)]
    pub data_dir: PathBuf,
    /// The one branch editors push to.
    #[arg(long)]
    pub branch: String,
    /// `content/`'s path in the repository (`content/`).
    #[arg(long, default_value = "content/")]
    pub prefix: String,
}

fn failed(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Config {
        name: "GIT_HOSTED",
        message: format!("{what}: {e}"),
    }
}

/// Makes the hosted repository if it is not there yet, and (again at each start) its
/// settings and its hook, which runs `program` (this server's own binary).
pub fn prepare(receive: &Receive, program: &Path) -> Result<PathBuf, Error> {
    let bare = bare_repo(&receive.data_dir);
    let data_dir = bare.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(data_dir).map_err(|e| failed("DATA_DIR", e))?;
    match std::fs::symlink_metadata(&bare) {
        Ok(m) if !m.is_dir() => return Err(failed("DATA_DIR/content.git", "not a folder")),
        Ok(_) => {}
        Err(_) => {
            let branch = format!("--initial-branch={}", receive.branch);
            git(data_dir, &["init", "-q", "--bare", &branch, REPOSITORY])?;
        }
    }
    let hooks = write_hook(receive, data_dir, program)?;
    let max_input = contentsync::vet::MAX_TOTAL_BYTES.to_string();
    // Larger objects are streamed, never held whole: a file over the largest the site takes
    // costs a push its header's read, and the pre-receive hook refuses it (vet).
    let big = content::limits::MAX_IMAGE_BYTES.to_string();
    for (key, value) in [
        ("core.hooksPath", hooks.to_string_lossy().as_ref()),
        ("receive.denyNonFastForwards", "true"),
        ("receive.denyDeletes", "true"),
        ("receive.maxInputSize", max_input.as_str()),
        // A push is kept as the one pack it came in (never exploded into loose objects) in
        // git's quarantine, which a refused push leaves without a trace.
        ("receive.unpackLimit", "1"),
        ("core.bigFileThreshold", big.as_str()),
        // Every move of the branch is kept with who made it (the token's name, which
        // http-backend gives git as the pusher).
        ("core.logAllRefUpdates", "always"),
        ("transfer.fsckObjects", "true"),
        ("http.receivepack", "true"),
        ("http.uploadpack", "true"),
        ("http.getanyfile", "false"),
    ] {
        git(&bare, &["config", key, value])?;
    }
    Ok(bare)
}

fn git(dir: &Path, args: &[&str]) -> Result<String, Error> {
    contentsync::repo::run(dir, args).map_err(Error::Git)
}

/// `'text'` for sh.
fn quoted(text: &Path) -> String {
    format!("'{}'", text.to_string_lossy().replace('\'', r"'\''"))
}

/// Writes `DATA_DIR/git-hooks/pre-receive`: `program pre-receive` with the site's places.
fn write_hook(receive: &Receive, data_dir: &Path, program: &Path) -> Result<PathBuf, Error> {
    let hooks = data_dir.join(HOOKS);
    let root = std::path::absolute(&receive.root).map_err(|e| failed("SITE_ROOT", e))?;
    let script = format!(
        "#!/bin/sh\n# Written by the server at each start (GIT_HOSTED): every push over HTTP is checked.\nexec {} pre-receive --root {} --data-dir {} --branch {} --prefix {}\n",
        quoted(program),
        quoted(&root),
        quoted(data_dir),
        quoted(Path::new(&receive.branch)),
        quoted(Path::new(&receive.prefix)),
    );
    content::beneath::Root::new(data_dir)
        .write_atomic_with(&hooks.join("pre-receive"), script.as_bytes(), Some(0o755))
        .map_err(|e| failed("DATA_DIR/git-hooks", e))?;
    Ok(hooks)
}

/// The pre-receive hook: each `old new ref` line of `input` checked; whether anything was
/// checked, or every problem in Polish when the push may not be taken. A push that did not
/// come over HTTP (the server's own sync pushing the panel's commits) is not checked again.
pub fn receive(receive: &Receive, input: &str) -> Result<bool, Vec<String>> {
    if std::env::var_os("GIT_PROJECT_ROOT").is_none() {
        return Ok(false);
    }
    let top = std::env::current_dir().map_err(|e| vec![e.to_string()])?;
    let repo = Repo {
        top,
        prefix: receive.prefix.clone(),
    };
    for line in input.lines() {
        let mut words = line.split_whitespace();
        let (Some(old), Some(new), Some(name)) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        update(receive, &repo, old, new, name)?;
    }
    Ok(true)
}

/// Whether the branch `name` may move from `old` to `new`.
fn update(
    receive: &Receive,
    repo: &Repo,
    old: &str,
    new: &str,
    name: &str,
) -> Result<(), Vec<String>> {
    let branch = &receive.branch;
    let refuse = |message: String| Err(vec![message]);
    if name != format!("refs/heads/{branch}") {
        return refuse(format!(
            "{name}: serwer przyjmuje tylko gałąź {branch} (wyślij: git push origin HEAD:{branch})."
        ));
    }
    if new == ZERO {
        return refuse(format!("Gałęzi {branch} nie można usunąć."));
    }
    if old == ZERO {
        return refuse(format!(
            "Gałąź {branch} nie istnieje jeszcze na serwerze: serwer tworzy ją sam przy starcie. Spróbuj ponownie za chwilę."
        ));
    }
    if !repo.is_ancestor(old, new) {
        return refuse(format!(
            "Ta zmiana nie zawiera najnowszej wersji gałęzi {branch} (nadpisałaby cudze zmiany). Pobierz ją (git pull --rebase) i wyślij ponownie."
        ));
    }
    contentsync::vet::vet(repo, old, new)?;
    let files = repo
        .changed_files(old, new)
        .map_err(|e| vec![e.to_string()])?;
    let outside: Vec<String> = files
        .iter()
        .filter(|f| !repo.in_content(f))
        .map(|f| format!("{f}: plik poza katalogiem {}: przez git strony przyjmowana jest tylko treść (kod i szablony wdraża administrator).", receive.prefix))
        .collect();
    if !outside.is_empty() {
        return Err(outside);
    }
    check(receive, repo, new)
}

/// The checks of `make check` on `commit`, in a work tree of its own.
fn check(receive: &Receive, repo: &Repo, commit: &str) -> Result<(), Vec<String>> {
    let scratch = tempfile::Builder::new()
        .prefix("git-receive-")
        .tempdir_in(&receive.data_dir)
        .map_err(|e| vec![format!("DATA_DIR: {e}")])?;
    let tree = scratch.path().join("tree");
    std::fs::create_dir(&tree).map_err(|e| vec![format!("DATA_DIR: {e}")])?;
    let work_tree = format!("--work-tree={}", tree.to_string_lossy());
    let inside = match receive.prefix.trim_end_matches('/') {
        "" => ".",
        prefix => prefix,
    };
    let out = site::process::git(&repo.top)
        .env("GIT_INDEX_FILE", scratch.path().join("index"))
        .args([&work_tree, "checkout", commit, "--", inside])
        .output()
        .map_err(|e| vec![e.to_string()])?;
    if !out.status.success() {
        return Err(vec![String::from_utf8_lossy(&out.stderr)
            .trim()
            .to_string()]);
    }
    let project = site::Project {
        content_dir: tree.join(&receive.prefix),
        ..site::Project::at(&receive.root)
    };
    crate::changes::check::check_project(&project, &receive.prefix)
}

/// Refused requests to the hosted repository (no token, a wrong or a revoked one) one client
/// may make a minute; past them each is answered 429 (git asks without a token first, so a
/// clone or a push makes one).
pub const REQUESTS_PER_MINUTE: u32 = 60;

/// The hosted repository as the HTTP side serves it.
pub struct Hosted {
    /// `DATA_DIR/content.git`.
    pub bare: PathBuf,
    /// Each client's refused requests: past [`REQUESTS_PER_MINUTE`] a minute, 429; those with
    /// a token, one audit line a minute with their count.
    pub refusals: actix_web::web::Data<crate::http::refusals::Refusals>,
    /// Where the branch is copied after each change (`GIT_MIRROR_URL`).
    pub mirror: Option<String>,
}

impl Hosted {
    /// Makes the repository, its settings and its hook for the site `config` serves, whose
    /// content's repository is `content` (a new hosted repository starts as its copy).
    pub fn open(config: &crate::config::Config, content: &Repo) -> Result<Self, Error> {
        let prefix = content.prefix.as_str();
        let Some(remote) = &config.git else {
            return Err(failed("GIT_HOSTED", "no branch"));
        };
        let receive = Receive {
            root: config.root.clone(),
            data_dir: std::path::absolute(&config.data_dir).map_err(|e| failed("DATA_DIR", e))?,
            branch: remote.branch.clone(),
            prefix: prefix.to_string(),
        };
        let program = std::env::current_exe().map_err(|e| failed("the server's program", e))?;
        let bare = prepare(&receive, &program)?;
        let branch = format!("refs/heads/{}", receive.branch);
        if git(&bare, &["rev-parse", "--verify", "-q", &branch]).is_err() {
            let target = format!("HEAD:{branch}");
            git(
                &content.top,
                &["push", "-q", &bare.to_string_lossy(), &target],
            )?;
        }
        let refusals = crate::http::refusals::Refusals::new(
            accounts::audit::Event::GitTokenRefused,
            REQUESTS_PER_MINUTE,
        );
        Ok(Hosted {
            bare,
            refusals: actix_web::web::Data::new(refusals),
            mirror: config.git_mirror_url.clone(),
        })
    }
}

/// How often the mirror looks whether the hosted branch moved, and how long it waits after
/// a copy failed.
const MIRROR_EVERY: std::time::Duration = std::time::Duration::from_secs(2);
const MIRROR_RETRY: std::time::Duration = std::time::Duration::from_secs(30);

/// Copies the hosted branch to `url` whenever it moved (an editor's push, a panel commit the
/// sync pushed), in the background; a failed copy is shown in the git status (the panel,
/// `/api/health`) until one works. Never forced: the hosted branch only moves forward.
pub fn spawn_mirror(git: std::sync::Arc<contentsync::GitSync>, bare: PathBuf, url: String) {
    let started = std::thread::Builder::new()
        .name("git-mirror".into())
        .spawn(move || {
            let branch = format!("refs/heads/{}", git.remote.branch);
            let refspec = format!("{branch}:{branch}");
            let mut copied: Option<String> = None;
            loop {
                let now =
                    contentsync::repo::run(&bare, &["rev-parse", "--verify", "-q", &branch]).ok();
                let mut wait = MIRROR_EVERY;
                if now.is_some() && now != copied {
                    match contentsync::repo::run(&bare, &["push", "-q", &url, &refspec]) {
                        Ok(_) => {
                            copied = now;
                            git.step_succeeded(contentsync::Step::Mirror);
                        }
                        Err(e) => {
                            contentsync::sync::failed(&git, contentsync::Step::Mirror, &e);
                            wait = MIRROR_RETRY;
                        }
                    }
                }
                std::thread::sleep(wait);
            }
        });
    if let Err(e) = started {
        tracing::error!(error = %e, "the git mirror thread did not start");
    }
}
