//! Alerts to a person: every minute the server looks at what can quietly stop working — the
//! outbox, the backups, the content's git sync, the free disk — and when something needs
//! the administrator, says so by e-mail (through the outbox's mailer: [`notify`] decides
//! which mails, without repeats) and on a banner in the panel ([`System::current`]).

pub mod conditions;
pub mod notify;
pub mod watch;

use std::path::PathBuf;
use std::sync::Mutex;

use crate::audit::Server;
use crate::config::Config;
use conditions::Alert;

/// Wrong metrics tokens a client may send in a minute before every request of it is 429 (the
/// sign-in's free failures of one client).
pub const METRICS_REFUSALS_PER_MINUTE: u32 = accounts::throttle::FREE_PER_CLIENT as u32;

/// What the panel's 'Stan systemu' shows beside the alerts, shared with the watcher.
pub struct System {
    pub data_dir: PathBuf,
    /// Seconds between scheduled backups, when they are on.
    pub backup_interval: Option<u64>,
    /// Whether a backup repository is set at all (`BACKUP_REPOSITORY`).
    pub backup_configured: bool,
    /// The longest one restic call may take.
    pub backup_timeout: u64,
    pub started_at: i64,
    /// `/metrics`' bearer token; `None`: no `/metrics`.
    pub metrics_token: Option<String>,
    /// Wrong metrics tokens by client: throttled and audited like sign-in failures.
    pub metrics_refusals: actix_web::web::Data<crate::http::refusals::Refusals>,
    current: Mutex<Vec<Alert>>,
}

impl System {
    pub fn new(config: &Config) -> Self {
        System {
            data_dir: config.data_dir.clone(),
            backup_interval: config
                .backup
                .as_ref()
                .map(|b| b.interval_seconds)
                .filter(|i| *i > 0),
            backup_configured: config.backup.is_some(),
            backup_timeout: config.backup.as_ref().map_or(0, |b| b.timeout_seconds),
            started_at: config.clock.now(),
            metrics_token: config.metrics_token.clone(),
            metrics_refusals: actix_web::web::Data::new(crate::http::refusals::Refusals::new(
                Server::MetricsTokenRefused.into(),
                METRICS_REFUSALS_PER_MINUTE,
            )),
            current: Mutex::new(Vec::new()),
        }
    }

    /// The scheduled backups as they stand now; `None` when none are scheduled.
    pub fn backups(&self) -> Option<conditions::Backups> {
        let interval = self.backup_interval?;
        Some(conditions::Backups {
            status: crate::backup::status::read(&self.data_dir),
            interval,
            timeout: self.backup_timeout,
            running_since: crate::backup::schedule::running_since(&self.data_dir),
        })
    }

    /// What 'Stan systemu' warns of without an e-mail (backups not set up).
    pub fn warnings(&self, now: i64) -> Vec<Alert> {
        conditions::backups_off(self.backup_configured, self.backup_interval.is_some(), now)
            .into_iter()
            .collect()
    }

    /// The alerts of the last check.
    pub fn current(&self) -> Vec<Alert> {
        self.current
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn set(&self, alerts: Vec<Alert>) {
        *self.current.lock().unwrap_or_else(|p| p.into_inner()) = alerts;
    }
}
