//! The push to the hosted repository that is between its check and the branch's move, and
//! the hooks waiting on it: what [`crate::receive`] shares between the pre-receive hook's
//! thread, which holds the branch, and the post-receive hook's and the request's.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// What happened to a checked push after the hook answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum After {
    /// Its post-receive hook says the branch moved.
    Moved,
    /// The request that brought it ended.
    Ended,
}

#[derive(Debug)]
pub(crate) struct Staged {
    pub(crate) id: String,
    pub(crate) after: Option<After>,
    /// What the post-receive hook tells the editor, once published.
    pub(crate) told: Option<Vec<String>>,
    /// The post-receive hook has taken what it tells.
    pub(crate) read: bool,
}

/// The push between its check and the branch's move, and the hooks waiting on it.
#[derive(Debug, Default)]
pub(crate) struct Receiving {
    staged: Mutex<Option<Staged>>,
    pub(crate) changed: Condvar,
}

impl Receiving {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Option<Staged>> {
        self.staged.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn set(&self, staged: Option<Staged>) {
        *self.lock() = staged;
        self.changed.notify_all();
    }

    pub(crate) fn happened(&self, id: &str, after: After) {
        let mut staged = self.lock();
        if let Some(s) = staged.as_mut().filter(|s| s.id == id && s.after.is_none()) {
            s.after = Some(after);
            self.changed.notify_all();
        }
    }

    /// Waits with `staged` until something changes or `until` passes (then `None`).
    pub(crate) fn wait<'a>(
        &self,
        staged: MutexGuard<'a, Option<Staged>>,
        until: Instant,
    ) -> Option<MutexGuard<'a, Option<Staged>>> {
        let left = until.checked_duration_since(Instant::now())?;
        let (staged, _) = self
            .changed
            .wait_timeout(staged, left)
            .unwrap_or_else(|p| p.into_inner());
        Some(staged)
    }

    /// Waits until what happened to the push `id` is known, or `until`.
    pub(crate) fn wait_after(&self, id: &str, until: Instant) -> Option<After> {
        let mut staged = self.lock();
        loop {
            match staged.as_ref() {
                Some(s) if s.id == id && s.after.is_some() => return s.after,
                Some(s) if s.id == id => {}
                _ => return None,
            }
            staged = self.wait(staged, until)?;
        }
    }
}
