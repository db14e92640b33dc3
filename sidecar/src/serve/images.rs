//! The photographs waiting for their variants: named by the builds that show them as they
//! are, taken by the image worker ([`crate::serve::variants`]), done when it built again.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The photographs waiting for their variants, and how many are being encoded now.
#[derive(Default)]
pub struct Pending {
    state: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Default)]
struct Queue {
    waiting: BTreeSet<String>,
    encoding: Vec<String>,
    /// No more rounds: the worker ends once it has finished the one it is in.
    closed: bool,
}

impl Pending {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Asks for the variants of `images` (paths under `content/images/`).
    pub fn add(&self, images: &[String]) {
        if images.is_empty() {
            return;
        }
        self.queue().waiting.extend(images.iter().cloned());
        self.changed.notify_all();
    }

    /// Photographs not yet shown with their variants: waiting or being encoded.
    pub fn count(&self) -> usize {
        let queue = self.queue();
        queue.waiting.len() + queue.encoding.len()
    }

    /// Whether `image` (a path under `content/images/`) still waits for its variants: the
    /// panel shows an upload's encoding until it does not.
    pub fn waits_for(&self, image: &str) -> bool {
        let queue = self.queue();
        queue.waiting.contains(image) || queue.encoding.iter().any(|i| i == image)
    }

    /// Waits until nothing is waiting or being encoded, at most `timeout`; whether it is so.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut queue = self.queue();
        while queue.waiting.len() + queue.encoding.len() > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            queue = self
                .changed
                .wait_timeout(queue, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        true
    }

    /// Takes everything waiting, once there is something; `None` once [`Pending::close`] was
    /// called: the worker then ends.
    pub fn take(&self) -> Option<Vec<String>> {
        let mut queue = self.queue();
        while queue.waiting.is_empty() && !queue.closed {
            queue = self.changed.wait(queue).unwrap_or_else(|p| p.into_inner());
        }
        if queue.closed {
            return None;
        }
        let taken: Vec<String> = std::mem::take(&mut queue.waiting).into_iter().collect();
        queue.encoding.clone_from(&taken);
        Some(taken)
    }

    /// Ends the worker after its round (a test's site going away): it takes nothing more, and
    /// lets go of the site it holds.
    pub fn close(&self) {
        self.queue().closed = true;
        self.changed.notify_all();
    }

    /// Waits until [`Pending::close`] was called, at most `timeout`: whether it was.
    pub fn closed_within(&self, timeout: Duration) -> bool {
        let queue = self.queue();
        let (queue, _) = self
            .changed
            .wait_timeout_while(queue, timeout, |q| !q.closed)
            .unwrap_or_else(|p| p.into_inner());
        queue.closed
    }

    /// Ends a round: `encoded` were just encoded, and the round's own build found the
    /// variants of all but `unkept` (an unwritable cache). A build that ran during the round
    /// named them again before their variants were there; the round's build has shown them
    /// since. The unkept are not tried again and again.
    pub fn done(&self, encoded: &[String], unkept: &[String]) {
        let mut queue = self.queue();
        queue.waiting.retain(|i| !encoded.contains(i));
        if !unkept.is_empty() {
            tracing::warn!(images = %unkept.join(", "), "image variants could not be kept in the image cache; those photographs are shown as they are");
        }
        queue.encoding.clear();
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_photograph_waits_from_its_request_until_its_round_ends() {
        let pending = Pending::default();
        pending.add(&["nowe.jpg".to_string()]);
        assert!(pending.waits_for("nowe.jpg"));
        assert!(!pending.waits_for("inne.jpg"));
        let taken = pending.take().expect("a round");
        assert!(
            pending.waits_for("nowe.jpg"),
            "being encoded is waiting too"
        );
        pending.add(&["nowe.jpg".to_string()]);
        pending.done(&taken, &[]);
        assert!(
            !pending.waits_for("nowe.jpg"),
            "named again by a build during its round, it is done with the round"
        );
        assert_eq!(pending.count(), 0);
    }

    #[test]
    fn a_closed_queue_ends_the_worker_waiting_for_a_round() {
        let pending = std::sync::Arc::new(Pending::default());
        let worker = std::thread::spawn({
            let pending = pending.clone();
            move || pending.take()
        });
        pending.close();
        assert_eq!(worker.join().expect("the worker ends"), None);
    }
}
