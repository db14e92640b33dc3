//! The one clock of the site and the server, and the one place that waits. Every "now" a
//! decision depends on (what is published when, sessions, tokens, throttles, the database's
//! moments, backups due) comes from a [`Clock`] handed down to the code that decides: the
//! system's in a running server, one a test sets and moves otherwise. Sleeping is here too
//! ([`sleep`], [`pause`]), so a fixed wait is a visible choice, never a habit.
//!
//! `clippy.toml` forbids `SystemTime::now` and the sleeps everywhere else. It uses only the
//! standard library (and tokio's timer for [`pause`]).

// This module is where the forbidden calls live.
#![allow(clippy::disallowed_methods)]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Where "now" comes from: the system's clock, or a moment a test set (shared by every copy,
/// so a test that moves it moves it for the whole server).
#[derive(Debug, Clone, Default)]
pub struct Clock {
    /// Milliseconds since the Unix epoch, when set.
    set: Option<Arc<AtomicI64>>,
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Self {
        Self::default()
    }

    /// A clock standing at `unix_seconds` until it is moved (tests, and what-if builds).
    pub fn fixed(unix_seconds: i64) -> Self {
        Self {
            set: Some(Arc::new(AtomicI64::new(unix_seconds.saturating_mul(1000)))),
        }
    }

    /// Moves a set clock by `seconds` (back when negative); the system's cannot be moved.
    pub fn advance(&self, seconds: i64) {
        if let Some(ms) = &self.set {
            ms.fetch_add(seconds.saturating_mul(1000), Ordering::SeqCst);
        }
    }

    /// Whether this is the system's clock.
    pub fn is_system(&self) -> bool {
        self.set.is_none()
    }

    /// Seconds since the Unix epoch: how the database keeps every moment.
    pub fn now(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.set {
            Some(ms) => ms.load(Ordering::SeqCst),
            None => wall()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        }
    }

    /// Now as a [`SystemTime`].
    pub fn time(&self) -> SystemTime {
        match &self.set {
            Some(ms) => {
                let ms = ms.load(Ordering::SeqCst);
                let at = Duration::from_millis(ms.unsigned_abs());
                if ms >= 0 {
                    UNIX_EPOCH + at
                } else {
                    UNIX_EPOCH - at
                }
            }
            None => wall(),
        }
    }
}

/// Two clocks are the same when both are the system's or both are one set clock.
impl PartialEq for Clock {
    fn eq(&self, other: &Self) -> bool {
        match (&self.set, &other.set) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Clock {}

/// The system's time, for comparing with the times the file system writes (a file's
/// modification against the moment it was read, a `Last-Modified`): those must be the
/// real clock's, whatever a test set.
pub fn wall() -> SystemTime {
    SystemTime::now()
}

/// Blocks this thread for `duration`: a background loop's period, a retry's back-off.
pub fn sleep(duration: Duration) {
    std::thread::sleep(duration);
}

/// Waits `duration` without blocking the server's thread.
#[cfg(feature = "tokio")]
pub async fn pause(duration: Duration) {
    tokio::time::sleep(duration).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_clock_stands_still_until_moved_and_every_copy_sees_it() {
        let clock = Clock::fixed(1_795_496_400);
        let copy = clock.clone();
        assert_eq!(clock.now(), 1_795_496_400);
        assert_eq!(clock.now_ms(), 1_795_496_400_000);
        copy.advance(90);
        assert_eq!(clock.now(), 1_795_496_490);
        assert_eq!(
            clock
                .time()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .ok(),
            Some(1_795_496_490)
        );
        assert_eq!(clock, copy);
        assert_ne!(clock, Clock::fixed(1_795_496_490), "another set clock");
        assert!(!clock.is_system());
    }

    #[test]
    fn the_system_clock_is_the_wall_clock() {
        let clock = Clock::system();
        let before = wall().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let now = u64::try_from(clock.now()).unwrap_or(0);
        let after = wall().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        assert!(before <= now && now <= after);
        clock.advance(3600);
        assert!(
            u64::try_from(clock.now()).unwrap_or(0) < after + 3600,
            "not moved"
        );
        assert_eq!(clock, Clock::default());
    }

    #[test]
    fn a_moment_before_the_epoch_is_kept() {
        let clock = Clock::fixed(-90);
        assert_eq!(clock.now(), -90);
        assert_eq!(
            UNIX_EPOCH
                .duration_since(clock.time())
                .map(|d| d.as_secs())
                .ok(),
            Some(90)
        );
    }
}
