//! The watcher: a thread that observes, evaluates and mails every `ALERT_CHECK_SECONDS`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web;

use crate::alerts::conditions::{self, Alert, Disk, Observation};
use crate::alerts::notify::{self, State};
use crate::alerts::System;
use crate::db::Db;
use crate::inbox::outbox::Outbox;
use crate::serve::site::SiteState;
use contentsync::{GitSync, Step};

/// Free and total bytes of the filesystem holding `path`.
pub fn disk(path: &Path) -> Option<Disk> {
    let stat = rustix::fs::statvfs(path).ok()?;
    Some(Disk {
        free: stat.f_bavail.saturating_mul(stat.f_frsize),
        total: stat.f_blocks.saturating_mul(stat.f_frsize),
    })
}

/// Photographs still waiting, and since when their number has not gone down.
fn images_waiting(before: Option<(usize, i64)>, count: usize, now: i64) -> Option<(usize, i64)> {
    match before {
        _ if count == 0 => None,
        Some((was, since)) if count >= was => Some((count, since)),
        _ => Some((count, now)),
    }
}

/// What the watcher looks at and whom it tells, handed down by the state that has them.
pub struct Watcher {
    pub system: web::Data<System>,
    pub db: Arc<Db>,
    pub git: Option<Arc<GitSync>>,
    pub site: web::Data<SiteState>,
    pub outbox: Arc<Outbox>,
    /// Whom an alert is e-mailed to.
    pub admin: String,
}

impl Watcher {
    fn observe(&self, state: &mut State, now: i64) -> Observation {
        let oldest_pending = self.db.oldest_pending().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "alerts: the outbox could not be read");
            None
        });
        let errors = self
            .git
            .as_ref()
            .map(|g| g.status().errors)
            .unwrap_or_default();
        // The newest error of the sync's own steps, and of the mirror's copy, apart.
        let newest = |mirror: bool| {
            errors
                .iter()
                .filter(|e| (e.step == Step::Mirror) == mirror)
                .max_by_key(|e| e.at)
                .map(|e| e.message.clone())
        };
        let (git_error, mirror_error) = (newest(false), newest(true));
        state.git_failing_since = git_error
            .as_ref()
            .map(|_| state.git_failing_since.unwrap_or(now));
        state.mirror_failing_since = mirror_error
            .as_ref()
            .map(|_| state.mirror_failing_since.unwrap_or(now));
        state.images_waiting = images_waiting(state.images_waiting, self.site.images.count(), now);
        Observation {
            now,
            oldest_pending,
            backup: self.system.backups(),
            started_at: self.system.started_at,
            git_failing: state.git_failing_since.zip(git_error),
            mirror_failing: state.mirror_failing_since.zip(mirror_error),
            disk: disk(&self.system.data_dir),
            schedule_next: self.site.schedule.next(),
            images_waiting: state.images_waiting,
        }
    }

    /// One check: the alerts of now, on the banner and mailed as due.
    fn check(&self, now: i64) -> Vec<Alert> {
        let data_dir = &self.system.data_dir;
        let mut state = notify::read(data_dir);
        let alerts = conditions::evaluate(&self.observe(&mut state, now));
        // The banner first: it must not wait for a slow relay.
        self.system.set(alerts.clone());
        for mail in notify::plan(&mut state, &alerts, now) {
            // Logged once when raised, reminded or resolved, not at every check.
            tracing::warn!(alert = %mail.key, "{}", mail.subject);
            match self
                .outbox
                .send_notice(&self.admin, &mail.subject, &mail.body)
            {
                Ok(()) => state.sent_mail(&mail, now),
                Err(e) => {
                    tracing::warn!(error = %e, alert = %mail.key, "alert e-mail not sent; trying again at the next check")
                }
            }
        }
        if let Err(e) = notify::write(data_dir, &state) {
            tracing::error!(error = %e, "alerts' state");
        }
        alerts
    }
}

impl Watcher {
    /// Starts the watcher on a thread of its own: checks every `every`, the first time `every`
    /// after the start (a restart pages nobody while the site is being built; what held before
    /// it is found a check later).
    pub fn spawn(self, every: Duration) {
        let started = std::thread::Builder::new()
            .name("alerts".into())
            .spawn(move || loop {
                clock::sleep(every);
                self.check(self.db.now());
            });
        if let Err(e) = started {
            tracing::error!(error = %e, "the alerts' thread could not start");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn photographs_are_stuck_from_when_their_number_last_went_down() {
        assert_eq!(images_waiting(None, 0, 10), None);
        assert_eq!(images_waiting(None, 4, 10), Some((4, 10)));
        assert_eq!(images_waiting(Some((4, 10)), 5, 20), Some((5, 10)));
        assert_eq!(images_waiting(Some((5, 10)), 3, 30), Some((3, 30)));
        assert_eq!(images_waiting(Some((3, 30)), 0, 40), None);
        let data = tempfile::tempdir().expect("temp dir");
        assert!(disk(data.path()).is_some_and(|d| d.total > 0 && d.free <= d.total));
    }
}
