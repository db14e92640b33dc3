//! `content/` as a git work tree that tracks a remote branch, both ways (`GIT_REMOTE`,
//! `GIT_BRANCH`): every change from the panel is a commit pushed in the background by one
//! thread, retried with back-off; editors' commits arrive by a webhook ([`webhook`]) or by
//! polling (`GIT_POLL_SECONDS`), are checked in a separate work tree with the checks of
//! `make check`, and only then applied, rebuilt and published ([`sync`]).

pub mod commit;
pub mod panel;
pub mod repo;
pub mod status;
pub mod sync;
pub mod vet;
pub mod webhook;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::config::GitRemote;
use crate::Error;
pub use repo::Repo;
pub use status::Status;

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
    pub remote: GitRemote,
    pub repo: Repo,
    /// Where editors' commits are checked out and checked (`DATA_DIR/git-check`).
    pub check_dir: PathBuf,
    status: Mutex<Status>,
    wanted: Mutex<Wanted>,
    wake: Condvar,
    deliveries: Mutex<VecDeque<String>>,
}

impl GitSync {
    /// The repository `content_dir` is in, tracking `remote`.
    pub fn open(
        remote: GitRemote,
        content_dir: &std::path::Path,
        data_dir: &std::path::Path,
        conflicts: Vec<status::Conflict>,
    ) -> Result<Self, Error> {
        let repo = Repo::open(content_dir)?;
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
        })
    }

    pub fn status(&self) -> Status {
        self.status_mut().clone()
    }

    fn status_mut(&self) -> MutexGuard<'_, Status> {
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

    /// The remote has (or may have) new commits: fetch once, however often this is called
    /// before the fetch starts.
    pub fn fetch_soon(&self) {
        self.wanted().fetch = true;
        self.wake.notify_one();
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
