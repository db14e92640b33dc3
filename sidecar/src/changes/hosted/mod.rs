//! The site as a git remote (`GIT_HOSTED=1`): the server keeps the content's repository
//! itself, bare, in `DATA_DIR/content.git`. The sync tracks it as its remote (panel commits
//! are pushed there, editors' commits fetched from it), and editors clone and push it over
//! HTTP on the panel's origin ([`crate::api::git::http`]). Every push they make is received
//! by the branch's one writer: git's pre-receive hook — `sidecar pre-receive` ([`hook`]) —
//! asks the running server ([`listen`], a socket in `DATA_DIR`), which checks it with the
//! site's own builder ([`contentsync::receive`]: only the branch, only forward, only
//! `content/`, what [`contentsync::vet`] allows, the checks of `make check`, the panel's
//! commits merged in); its post-receive hook asks the server to publish it once the branch
//! moved, and tells the editor the change is live. A refusal is told in the editor's
//! terminal (`remote: …`), in Polish, at `content/…:line`.
//!
//! The hooks and the repository's settings are written by the server at each start, outside
//! what a push can change (`core.hooksPath` is a folder of `DATA_DIR`).

pub mod hook;
pub mod listen;

use std::path::{Path, PathBuf};

use contentsync::Repo;

use crate::audit::Git;
use crate::error::Error;

pub use crate::config::{bare_repo, HOSTED_REPOSITORY as REPOSITORY};
/// Where its hooks are written.
const HOOKS: &str = "git-hooks";
/// The hooks git runs, each `sidecar HOOK`.
const HOOK_NAMES: [&str; 2] = ["pre-receive", "post-receive"];

/// Where the hosted repository lives, and the branch editors push to.
#[derive(Debug, Clone)]
pub struct Receive {
    /// `DATA_DIR`, absolute.
    pub data_dir: PathBuf,
    /// The one branch editors push to.
    pub branch: String,
}

fn failed(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Config {
        name: "GIT_HOSTED".into(),
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

/// Writes `DATA_DIR/git-hooks/pre-receive` and `post-receive`: `program HOOK` with the data
/// folder, where the hook finds the server's socket.
fn write_hook(receive: &Receive, data_dir: &Path, program: &Path) -> Result<PathBuf, Error> {
    let hooks = data_dir.join(HOOKS);
    let root = content::beneath::Root::new(data_dir);
    for name in HOOK_NAMES {
        let script = format!(
            "#!/bin/sh\n# Written by the server at each start (GIT_HOSTED): every push over HTTP is received by the server.\nexec {} {name} --data-dir {}\n",
            quoted(program),
            quoted(&receive.data_dir),
        );
        root.write_atomic_with(&hooks.join(name), script.as_bytes(), Some(0o755))
            .map_err(|e| failed("DATA_DIR/git-hooks", e))?;
    }
    Ok(hooks)
}

/// The socket the hooks ask the server through, in `data_dir`.
pub fn socket(data_dir: &Path) -> PathBuf {
    data_dir.join(HOOKS).join("server.sock")
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
    /// Where the hooks ask the server ([`listen`]).
    pub socket: PathBuf,
}

impl Hosted {
    /// Makes the repository, its settings and its hook for the site `config` serves, whose
    /// content's repository is `content` (a new hosted repository starts as its copy).
    pub fn open(config: &crate::config::Config, content: &Repo) -> Result<Self, Error> {
        let Some(remote) = &config.git else {
            return Err(failed("GIT_HOSTED", "no branch"));
        };
        let receive = Receive {
            data_dir: std::path::absolute(&config.data_dir).map_err(|e| failed("DATA_DIR", e))?,
            branch: remote.branch.clone(),
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
        let refusals =
            crate::http::refusals::Refusals::new(Git::GitTokenRefused.into(), REQUESTS_PER_MINUTE);
        Ok(Hosted {
            bare,
            refusals: actix_web::web::Data::new(refusals),
            mirror: config.git_mirror_url.clone(),
            socket: socket(&receive.data_dir),
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
                clock::sleep(wait);
            }
        });
    if let Err(e) = started {
        tracing::error!(error = %e, "the git mirror thread did not start");
    }
}
