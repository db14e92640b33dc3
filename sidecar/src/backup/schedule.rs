//! Backups to the restic repository of `BACKUP_REPOSITORY`, every `BACKUP_INTERVAL`: each
//! run makes the consistent copy of `sidecar backup` in `DATA_DIR/backup-staging` (always
//! that folder, so restic stores only what changed since the last snapshot), gives it to
//! restic, applies the retention and records the outcome in the status file. One run at a
//! time (a lock beside the database, held by the kernel's `flock`): a run killed midway
//! leaves a lock the kernel releases, a staging folder the next run removes first, and a
//! restic lock the next run removes as stale, so the next run starts clean. The server runs
//! the schedule on a thread of its own: a backup takes seconds to minutes and must not hold
//! one of the few threads that answer requests.
//!
//! After a good backup, `BACKUP_PING_URL` (if set) is fetched: a healthchecks-style monitor
//! then raises its own alarm when the pings stop.
//!
//! `sidecar restore --snapshot ID` writes a snapshot into a scratch folder beside the
//! database and restores it with every check of a restore from a folder.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::backup::restic::Repository;
use crate::backup::{self as backups, status, Manifest};
use crate::config::{BackupSettings, Config};
use crate::db;
use crate::error::Error;

const STAGING: &str = "backup-staging";
const LOCK: &str = "backup.lock";

/// How often the scheduler looks whether a backup is due (it also wakes when one is).
const TICK: Duration = Duration::from_secs(60);

/// A backup that went to the repository.
#[derive(Debug, Clone)]
pub struct Done {
    pub snapshot: String,
    pub files: usize,
    pub duration_ms: u64,
}

fn settings(config: &Config) -> Result<&BackupSettings, Error> {
    config.backup.as_ref().ok_or_else(|| {
        Error::Backup("BACKUP_REPOSITORY is not set: there is no repository to use".into())
    })
}

/// Takes the lock that lets one backup run at a time in `data_dir`.
fn lock(data_dir: &Path) -> Result<File, Error> {
    free_lock(data_dir)?
        .ok_or_else(|| Error::Backup("another backup is running: this one is not started".into()))
}

/// The lock of `data_dir`'s backups, or `None` when a backup holds it.
fn free_lock(data_dir: &Path) -> Result<Option<File>, Error> {
    crate::data_lock::try_lock(&data_dir.join(LOCK))
}

/// When the backup running now in `data_dir` started; `None` when none runs (one killed
/// midway left its start in the status, but no lock: the kernel released it).
pub fn running_since(data_dir: &Path) -> Option<i64> {
    let since = status::read(data_dir).running_since?;
    match free_lock(data_dir) {
        Ok(None) => Some(since),
        _ => None,
    }
}

/// Removes what a run killed midway left at `path` (a link is removed, never followed).
fn clear(path: &Path) -> Result<(), Error> {
    let failed = |e: std::io::Error| Error::Backup(format!("cannot clear {}: {e}", path.display()));
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(failed(e)),
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path).map_err(failed),
        Ok(_) => fs::remove_file(path).map_err(failed),
    }
}

/// The data folder as an absolute path: restic names snapshots by it.
fn absolute(path: &Path) -> Result<PathBuf, Error> {
    std::path::absolute(path)
        .map_err(|e| Error::Backup(format!("cannot resolve {}: {e}", path.display())))
}

/// One backup to the repository, now; its outcome is recorded in the status file.
pub fn run_once(config: &Config) -> Result<Done, Error> {
    let settings = settings(config)?;
    db::private_dir(&config.data_dir)?;
    let _lock = lock(&config.data_dir)?;
    if let Err(e) = status::record_start(&config.data_dir, config.clock.now()) {
        tracing::error!(error = %e, "the backup's start could not be recorded");
    }
    let started = Instant::now();
    let outcome = copy_and_send(config, settings);
    let duration_ms = started.elapsed().as_millis() as u64;
    let recorded = match &outcome {
        Ok((snapshot, _)) => {
            status::record_success(&config.data_dir, config.clock.now(), snapshot, duration_ms)
        }
        Err(e) => status::record_failure(&config.data_dir, config.clock.now(), &e.to_string()),
    };
    if let Err(e) = recorded {
        tracing::error!(error = %e, "the backup's outcome could not be recorded");
    }
    let (snapshot, manifest) = outcome?;
    if let Some(url) = &settings.ping_url {
        ping(url);
    }
    Ok(Done {
        snapshot,
        files: manifest.files.len(),
        duration_ms,
    })
}

fn copy_and_send(config: &Config, settings: &BackupSettings) -> Result<(String, Manifest), Error> {
    let repository = Repository::new(settings, &config.data_dir);
    repository.ensure_initialised()?;
    repository.remove_stale_locks()?;
    let staging = absolute(&config.data_dir.join(STAGING))?;
    clear(&staging)?;
    let manifest = backups::copy_into(config, &staging)?;
    let snapshot = repository.backup(&staging)?;
    clear(&staging)?;
    repository.apply_retention()?;
    Ok((snapshot, manifest))
}

/// Tells the monitor at `url` that a backup succeeded; a failure is only logged (the
/// monitor's silence is its alarm).
fn ping(url: &str) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    if let Err(e) = agent.get(url).call() {
        tracing::warn!(error = %e, "BACKUP_PING_URL could not be reached");
    }
}

/// When the next backup is due: an interval after the last one ended, or now.
pub fn next_due(last_attempt: Option<i64>, interval_seconds: u64, now: i64) -> i64 {
    last_attempt.map_or(now, |at| at.saturating_add(interval_seconds as i64))
}

/// Starts the scheduled backups on a thread of their own, if a repository and an interval
/// are set.
pub fn spawn(config: &Config) -> Option<std::thread::JoinHandle<()>> {
    let interval = config.backup.as_ref()?.interval_seconds;
    if interval == 0 {
        return None;
    }
    let config = config.clone();
    let started = std::thread::Builder::new()
        .name("backups".into())
        .spawn(move || loop {
            let last = status::read(&config.data_dir).last_attempt_at();
            let now = config.clock.now();
            let wait = next_due(last, interval, now) - now;
            if wait > 0 {
                clock::sleep(TICK.min(Duration::from_secs(wait as u64)));
                continue;
            }
            match run_once(&config) {
                Ok(done) => tracing::info!(
                    snapshot = %done.snapshot,
                    files = done.files,
                    ms = done.duration_ms,
                    "backup sent to the repository"
                ),
                Err(e) => tracing::error!(error = %e, "the scheduled backup failed"),
            }
        });
    match started {
        Ok(handle) => Some(handle),
        Err(e) => {
            tracing::error!(error = %e, "the backups' thread could not start");
            None
        }
    }
}

/// Restores the snapshot `id` (or `latest`) of the repository into `config`'s data folder
/// and `content/`, refused while a server runs there.
pub fn restore_snapshot(config: &Config, id: &str) -> Result<(String, Manifest), Error> {
    let settings = settings(config)?;
    let lock = backups::lock_data_dir(&config.data_dir)?;
    let repository = Repository::new(settings, &config.data_dir);
    let (full_id, folder) = repository.snapshot(id)?;
    let scratch = tempfile::Builder::new()
        .prefix("restoring-snapshot-")
        .tempdir_in(&config.data_dir)
        .map_err(|e| Error::Backup(format!("cannot create a scratch folder: {e}")))?;
    repository.restore(&full_id, scratch.path())?;
    let relative = folder.strip_prefix("/").unwrap_or(&folder);
    let manifest = backups::restore_locked(config, &scratch.path().join(relative), &lock)?;
    Ok((full_id, manifest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_backup_is_due_at_once_and_each_next_an_interval_after_the_last() {
        assert_eq!(next_due(None, 3600, 1_000), 1_000);
        assert_eq!(next_due(Some(500), 3600, 1_000), 4_100);
        assert_eq!(next_due(Some(i64::MAX - 1), 3600, 0), i64::MAX);
    }

    #[test]
    fn a_second_run_waits_for_the_first_and_leftovers_are_cleared_without_following_links() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = lock(dir.path()).expect("first");
        let err = lock(dir.path()).expect_err("second");
        assert!(err.to_string().contains("another backup"), "{err}");
        drop(first);
        lock(dir.path()).expect("free again");

        let outside = dir.path().join("outside");
        fs::create_dir(&outside).expect("mkdir");
        fs::write(outside.join("keep"), "x").expect("write");
        let staging = dir.path().join(STAGING);
        std::os::unix::fs::symlink(&outside, &staging).expect("link");
        clear(&staging).expect("cleared");
        assert!(outside.join("keep").is_file(), "the link was not followed");
        fs::create_dir_all(staging.join("content/pages")).expect("mkdir");
        fs::write(staging.join("content/pages/a.md"), "x").expect("write");
        clear(&staging).expect("cleared");
        assert!(!staging.exists());
    }
}
