//! `content/` as a git work tree that tracks a remote branch, both ways: every change from
//! the panel is a commit ([`commit`]) pushed in the background by one thread, retried with
//! back-off; editors' commits arrive when told (a webhook) or by polling, are vetted from
//! git's records before any work tree sees them ([`vet`]), checked in a separate work tree
//! with the checks of `make check`, and only then applied, rebuilt and published ([`sync`]).
//!
//! It knows the running site only through [`Site`] (check a folder of content, take the
//! build lock and rebuild, keep the panel's side of a conflict, write the audit log): the
//! sidecar implements it. It uses the `content` crate (the limits and problems of content)
//! and `subprocess` (git without hooks or filters); never the generator (`site`), actix, nor
//! the sidecar.

pub mod commit;
mod error;
mod integrate;
pub mod merge;
pub mod receive;
mod receiving;
pub mod repo;
pub mod status;
pub mod sync;
pub mod vet;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use error::Error;
pub use repo::Repo;
pub use status::{Conflict, Refused, Status, Step, StepError};

/// The remote branch the content's repository tracks, both ways.
#[derive(Debug, Clone)]
pub struct Remote {
    /// A URL or a path git can fetch from and push to (https, a local path).
    pub url: String,
    pub branch: String,
    /// How often the remote is fetched without a webhook; 0: only on a webhook.
    pub poll_seconds: u64,
    /// What forges sign their webhooks with (GitHub's HMAC, GitLab's token); without it the
    /// webhook is refused and only polling brings editors' commits.
    pub webhook_secret: Option<String>,
}

/// What the sync tells the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// An editor's commit was applied and published.
    Applied,
    /// An editor's commit was not applied: it does not build, or carries what content may
    /// not.
    Refused,
    /// The branch lost commits the server had published.
    ForcePush,
}

/// The running site, as the sync needs it.
pub trait Site: Send + Sync {
    /// `content/` of the running site.
    fn content_dir(&self) -> PathBuf;
    /// The build lock: while the returned build lives, the panel writes, commits and builds
    /// nothing.
    fn lock(&self) -> Box<dyn Build + '_>;
    /// A document both the panel and an editor changed: the repository keeps the editor's
    /// text; the panel's is kept (as a revision and a draft) for the administrator to choose.
    fn keep_panel_version(&self, conflict: &Conflict);
    /// Writes an event of the sync to the audit log: who (the commit's author), what.
    fn audit(&self, event: Event, author: &str, detail: &str);
    /// An editor's commit was checked: published, or not with its problems. Called on the
    /// sync thread: whatever it tells others (a forge, the author) must not wait here.
    fn checked(&self, _verdict: &Checked) {}
}

/// The verdict on an editor's commit the sync checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The whole commit id (forges want it so).
    pub commit: String,
    /// `Name <e-mail>` of the commit's author.
    pub author: String,
    /// The author's e-mail (`git log -1 --format=%ae`).
    pub email: String,
    /// Every problem in Polish at `content/…:line`; none when the commit was published.
    pub problems: Vec<String>,
}

/// The site's build, under the build lock.
pub trait Build {
    /// Renders the site for the files `changed` on disk, without publishing it: the checks
    /// of `make check`, every problem in Polish when it does not build.
    fn render(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>>;
    /// Publishes (serves, writes `dist/`, queues the CDN's commands) what the last render
    /// made; every problem in Polish when it cannot.
    fn publish(&mut self) -> Result<(), Vec<String>>;
    /// The files were put back as they were: renders them so again.
    fn render_back(&mut self, changed: &[PathBuf]);
}

/// How many webhook deliveries are remembered to refuse a replay.
const REMEMBERED_DELIVERIES: usize = 1024;

/// What the sync thread is asked to do next.
#[derive(Debug, Default)]
struct Wanted {
    fetch: bool,
    push: bool,
}

/// The repository, the remote and what stands between them.
pub struct GitSync {
    pub remote: Remote,
    pub repo: Repo,
    /// Where editors' commits are checked out and checked (`DATA_DIR/git-check`).
    pub check_dir: PathBuf,
    status: Mutex<Status>,
    wanted: Mutex<Wanted>,
    wake: Condvar,
    deliveries: Mutex<VecDeque<String>>,
    /// The branch's one writer: the sync thread while it fetches, applies or pushes, and a
    /// push to the hosted repository from its check until its branch moved.
    writer: Mutex<()>,
    /// The hosted push being received, between its check and the branch's move.
    pub(crate) receiving: receiving::Receiving,
    /// The server's clock: when a step failed, when the branch was pushed.
    clock: clock::Clock,
}

impl GitSync {
    /// The repository `content_dir` is in, tracking `remote`.
    pub fn open(
        remote: Remote,
        content_dir: &std::path::Path,
        data_dir: &std::path::Path,
        conflicts: Vec<status::Conflict>,
        clock: clock::Clock,
    ) -> Result<Self, Error> {
        let repo = Repo::open(content_dir)?;
        let remote = Remote {
            url: repo::absolute_remote(&remote.url),
            ..remote
        };
        let data_dir = std::path::absolute(data_dir)
            .map_err(|e| Error::Git(format!("{}: {e}", data_dir.display())))?;
        let status = Status {
            branch: remote.branch.clone(),
            conflicts,
            ..Status::default()
        };
        Ok(GitSync {
            remote,
            repo,
            check_dir: data_dir.join("git-check"),
            status: Mutex::new(status),
            // The first thing the thread does: see what the remote has, push what it lacks.
            wanted: Mutex::new(Wanted {
                fetch: true,
                push: true,
            }),
            wake: Condvar::new(),
            deliveries: Mutex::new(VecDeque::new()),
            writer: Mutex::new(()),
            clock,
            receiving: receiving::Receiving::default(),
        })
    }

    /// The ref that holds the remote branch's commit as the server last knew it.
    pub(crate) fn tracking(&self) -> String {
        format!("refs/remotes/sidecar/{}", self.remote.branch)
    }

    /// Waits until this thread is the branch's one writer.
    pub(crate) fn writer(&self) -> MutexGuard<'_, ()> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn status(&self) -> Status {
        self.status_mut().clone()
    }

    pub(crate) fn status_mut(&self) -> MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wanted(&self) -> MutexGuard<'_, Wanted> {
        self.wanted.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A panel commit was made: count it and push it soon.
    pub fn committed(&self) {
        self.status_mut().unpushed += 1;
        self.wanted().push = true;
        self.wake.notify_one();
    }

    /// The panel's commits, if any wait, are to be pushed soon.
    pub(crate) fn push_soon(&self) {
        self.wanted().push = true;
        self.wake.notify_one();
    }

    /// Seconds since the Unix epoch, by the server's clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// The remote has (or may have) new commits: fetch once, however often this is called
    /// before the fetch starts.
    pub fn fetch_soon(&self) {
        self.wanted().fetch = true;
        self.wake.notify_one();
    }

    /// Telling others about a checked commit (a forge's commit status, the author's
    /// e-mail) failed: shown beside the sync's own failing steps until it next works.
    pub fn notify_failed(&self, message: String) {
        self.status_mut().fail(Step::Notify, message, self.now());
    }

    /// Telling others about a checked commit worked: its earlier error is gone.
    pub fn notify_succeeded(&self) {
        self.status_mut().succeed(Step::Notify);
    }

    /// A step outside the sync's own (the mirror's copy) worked: its earlier error is gone.
    pub fn step_succeeded(&self, step: Step) {
        self.status_mut().succeed(step);
    }

    /// Forgets the conflict of `doc_id` (the administrator chose a version); whether it had one.
    pub fn settle(&self, doc_id: &str) -> bool {
        let mut status = self.status_mut();
        let before = status.conflicts.len();
        status.conflicts.retain(|c| c.doc_id != doc_id);
        status.conflicts.len() != before
    }

    /// Whether a webhook's delivery id is new (and remembers it).
    pub fn first_delivery(&self, id: &str) -> bool {
        let mut seen = self.deliveries.lock().unwrap_or_else(|p| p.into_inner());
        if seen.iter().any(|d| d == id) {
            return false;
        }
        if seen.len() == REMEMBERED_DELIVERIES {
            seen.pop_front();
        }
        seen.push_back(id.to_string());
        true
    }

    /// Waits until something is wanted or `until` passes; what is wanted, reset.
    fn wait(&self, until: Option<Instant>) -> Wanted {
        let mut wanted = self.wanted();
        while !wanted.fetch && !wanted.push {
            let timeout = match until {
                Some(t) => match t.checked_duration_since(Instant::now()) {
                    Some(d) if !d.is_zero() => d,
                    _ => break,
                },
                None => Duration::from_secs(3600),
            };
            wanted = self
                .wake
                .wait_timeout(wanted, timeout)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        std::mem::take(&mut *wanted)
    }
}
