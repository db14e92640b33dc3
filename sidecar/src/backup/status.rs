//! What the last scheduled backups did, kept in `DATA_DIR/backup-status.json` (written whole
//! and atomically, read without following a link) so that a restarted server knows when the
//! next one is due and the alerts and metrics know how old the last good one is.

use serde::{Deserialize, Serialize};
use std::path::Path;

use crate::error::Error;

pub const STATUS_FILE: &str = "backup-status.json";

/// The last success and the last failure of a backup to the repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackupStatus {
    /// When the last backup that succeeded ended (Unix seconds).
    pub last_success_at: Option<i64>,
    /// Its snapshot.
    pub last_snapshot: Option<String>,
    /// How long it took, in milliseconds.
    pub last_duration_ms: Option<u64>,
    /// When the last backup that failed ended, and why it failed (cleared when the next one
    /// starts: what that one finds is the news).
    pub last_failure_at: Option<i64>,
    pub last_error: Option<String>,
    /// When the backup still running (or killed midway) started.
    #[serde(default)]
    pub running_since: Option<i64>,
}

impl BackupStatus {
    /// When the last backup ended, whatever its outcome.
    pub fn last_attempt_at(&self) -> Option<i64> {
        self.last_success_at.max(self.last_failure_at)
    }

    /// Whether the last backup failed.
    pub fn failing(&self) -> bool {
        self.last_failure_at > self.last_success_at
    }
}

/// The status recorded in `data_dir`; none when nothing was recorded (or it is unreadable,
/// which is logged: the next backup writes it again).
pub fn read(data_dir: &Path) -> BackupStatus {
    let path = data_dir.join(STATUS_FILE);
    let root = content::beneath::Root::new(data_dir);
    match root.read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(error = %e, path = %path.display(), "unreadable backup status");
            BackupStatus::default()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => BackupStatus::default(),
        Err(e) => {
            tracing::warn!(error = %e, path = %path.display(), "unreadable backup status");
            BackupStatus::default()
        }
    }
}

fn write(data_dir: &Path, status: &BackupStatus) -> Result<(), Error> {
    let path = data_dir.join(STATUS_FILE);
    let json = serde_json::to_vec_pretty(status)
        .map_err(|e| Error::Backup(format!("backup status: {e}")))?;
    content::beneath::Root::new(data_dir)
        .write_atomic_with(&path, &json, Some(0o600))
        .map_err(|source| Error::Write { path, source })
}

/// Records that a backup started at `at`: the last failure's words are cleared.
pub fn record_start(data_dir: &Path, at: i64) -> Result<BackupStatus, Error> {
    let mut status = read(data_dir);
    status.running_since = Some(at);
    status.last_error = None;
    write(data_dir, &status)?;
    Ok(status)
}

/// Records a backup that succeeded at `at` with `snapshot`, in `duration_ms`.
pub fn record_success(
    data_dir: &Path,
    at: i64,
    snapshot: &str,
    duration_ms: u64,
) -> Result<BackupStatus, Error> {
    let mut status = read(data_dir);
    status.last_success_at = Some(at);
    status.last_snapshot = Some(snapshot.to_string());
    status.last_duration_ms = Some(duration_ms);
    status.running_since = None;
    write(data_dir, &status)?;
    Ok(status)
}

/// Records a backup that failed at `at` because of `error`.
pub fn record_failure(data_dir: &Path, at: i64, error: &str) -> Result<BackupStatus, Error> {
    let mut status = read(data_dir);
    status.last_failure_at = Some(at);
    status.last_error = Some(error.to_string());
    status.running_since = None;
    write(data_dir, &status)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_after_a_success_is_failing_until_the_next_success() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(read(dir.path()), BackupStatus::default());
        record_success(dir.path(), 100, "abc", 1500).expect("written");
        let failed = record_failure(dir.path(), 200, "restic backup failed").expect("written");
        assert!(failed.failing());
        assert_eq!(failed.last_success_at, Some(100));
        assert_eq!(failed.last_attempt_at(), Some(200));
        assert_eq!(read(dir.path()), failed, "what a restart reads");
        let started = record_start(dir.path(), 250).expect("written");
        assert_eq!(
            (started.running_since, &started.last_error),
            (Some(250), &None)
        );
        assert!(started.failing(), "still failing until a backup succeeds");
        let ok = record_success(dir.path(), 300, "def", 900).expect("written");
        assert!(!ok.failing());
        assert_eq!(ok.running_since, None);
    }

    #[test]
    fn a_link_in_place_of_the_status_is_not_followed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let elsewhere = dir.path().join("elsewhere.json");
        std::fs::write(&elsewhere, br#"{"last_success_at": 5}"#).expect("write");
        let data = dir.path().join("var");
        std::fs::create_dir(&data).expect("mkdir");
        std::os::unix::fs::symlink(&elsewhere, data.join(STATUS_FILE)).expect("link");
        assert_eq!(read(&data), BackupStatus::default());
        record_failure(&data, 7, "x").expect("replaces the link");
        assert_eq!(
            std::fs::read_to_string(&elsewhere).expect("kept"),
            r#"{"last_success_at": 5}"#
        );
    }
}
