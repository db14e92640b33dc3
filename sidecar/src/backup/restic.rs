//! The `restic` program, run on the backups' repository: restic encrypts, deduplicates and
//! speaks to every kind of storage (a path, sftp, S3, rclone), so the sidecar only tells it
//! what to do. The repository's key goes to restic on its standard input (restic reads it
//! there when no terminal is attached), never in an environment or a file; restic gets only
//! the base environment of every child ([`subprocess`]) and keeps its cache beside the
//! database.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::config::BackupSettings;
use crate::error::Error;

/// Snapshots of this server carry this tag: retention and `latest` look at them only.
pub const TAG: &str = "sidecar";

/// What restic may read of the server's environment beyond the base names: the credentials
/// of its storage backends (S3, B2, Azure, Google Cloud, OpenStack Swift, rclone) and the SSH
/// agent for `sftp:`. Never the site's own secrets, nor restic's password settings (the key
/// goes to its standard input).
const STORAGE_ENVIRONMENT: [&str; 8] = [
    "AWS_*",
    "B2_*",
    "AZURE_*",
    "GOOGLE_*",
    "OS_*",
    "ST_*",
    "RCLONE_*",
    "SSH_AUTH_SOCK",
];

/// 48 hourly, 30 daily and 12 monthly snapshots: a message erased today is gone from every
/// snapshot after twelve months at most (the privacy policy says so).
pub const RETENTION: [&str; 6] = [
    "--keep-hourly",
    "48",
    "--keep-daily",
    "30",
    "--keep-monthly",
    "12",
];

/// One restic repository with its key.
pub struct Repository<'a> {
    settings: &'a BackupSettings,
    cache: PathBuf,
}

/// The last lines of what a failed restic said: enough to know why, never pages of it.
fn tail(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" / ")
}

/// Reads `pipe` to its end on a thread of its own (so that neither of restic's outputs fills
/// while the other is read): what it held.
fn read_all(pipe: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` until `deadline`: its exit status, or `None` when it is still running.
fn wait_until(child: &mut Child, deadline: Instant) -> std::io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        clock::sleep(Duration::from_millis(50));
    }
}

/// Kills `child`'s process group (restic and what it started) and reaps it.
fn stop_group(child: &mut Child) {
    let group = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw);
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The line of JSON in what restic wrote (restic 0.14 first says where it read the key from).
fn json_line(out: &[u8]) -> &str {
    let text = std::str::from_utf8(out).unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with('[') || l.starts_with('{'))
        .unwrap_or(text)
}

impl<'a> Repository<'a> {
    pub fn new(settings: &'a BackupSettings, data_dir: &Path) -> Self {
        Repository {
            settings,
            cache: data_dir.join("restic-cache"),
        }
    }

    /// Runs `restic ARGS` and returns its standard output. restic runs in a process group of
    /// its own: one that has not finished within the repository's timeout is killed with
    /// every program it started (the `ssh` of an sftp repository), and the call fails.
    fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Vec<u8>, Error> {
        use std::os::unix::process::CommandExt;
        let name = args
            .first()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut command = subprocess::command_with("restic", &STORAGE_ENVIRONMENT);
        command
            .arg("--repo")
            .arg(&self.settings.repository)
            .arg("--cache-dir")
            .arg(&self.cache)
            .args(args)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| Error::Backup(format!("cannot start restic (is it installed?): {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            // restic may have failed before reading it: its answer says why.
            let _ = stdin.write_all(format!("{}\n", self.settings.password).as_bytes());
        }
        let stdout = read_all(child.stdout.take());
        let stderr = read_all(child.stderr.take());
        let timeout = Duration::from_secs(self.settings.timeout_seconds);
        let status = match wait_until(&mut child, Instant::now() + timeout) {
            Ok(Some(status)) => status,
            Ok(None) => {
                stop_group(&mut child);
                return Err(Error::Backup(format!(
                    "restic {name} did not finish within {} s (BACKUP_TIMEOUT): it was stopped with the programs it started; the repository {} does not answer",
                    timeout.as_secs(),
                    self.settings.repository
                )));
            }
            Err(e) => return Err(Error::Backup(format!("restic {name}: {e}"))),
        };
        let stderr = stderr.join().unwrap_or_default();
        if !status.success() {
            return Err(Error::Backup(format!(
                "restic {name} failed ({status}): {}",
                tail(&stderr)
            )));
        }
        Ok(stdout.join().unwrap_or_default())
    }

    /// Opens the repository, creating it when there is none at its address yet.
    pub fn ensure_initialised(&self) -> Result<(), Error> {
        let Err(missing) = self.run(&["cat", "config"]) else {
            return Ok(());
        };
        let reason = |e: Error| match e {
            Error::Backup(message) => message,
            e => e.to_string(),
        };
        self.run(&["init"]).map(|_| ()).map_err(|e| {
            Error::Backup(format!(
                "the repository can be neither opened ({}) nor created ({})",
                reason(missing),
                reason(e)
            ))
        })
    }

    /// Removes the locks of restic processes that no longer exist (a backup killed midway).
    pub fn remove_stale_locks(&self) -> Result<(), Error> {
        self.run(&["unlock"]).map(|_| ())
    }

    /// Backs up the folder `dir` (an absolute path, the same each time, so that restic finds
    /// the previous snapshot and stores only what changed) and returns the new snapshot's id.
    pub fn backup(&self, dir: &Path) -> Result<String, Error> {
        let args: [&OsStr; 5] = [
            "backup".as_ref(),
            "--json".as_ref(),
            "--tag".as_ref(),
            TAG.as_ref(),
            dir.as_os_str(),
        ];
        let out = self.run(&args)?;
        String::from_utf8_lossy(&out)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .find(|v| v["message_type"] == "summary")
            .and_then(|v| v["snapshot_id"].as_str().map(str::to_string))
            .ok_or_else(|| Error::Backup("restic backup named no snapshot".into()))
    }

    /// Forgets the snapshots beyond [`RETENTION`] and frees their space. Pruning needs the
    /// repository alone: the lock of a restic killed moments ago counts as live until its
    /// process is gone, so a refusal for a lock clears stale locks and tries again, a few times.
    pub fn apply_retention(&self) -> Result<(), Error> {
        let mut args = vec!["forget", "--prune", "--tag", TAG];
        args.extend(RETENTION);
        let mut attempt = 1;
        loop {
            match self.run(&args) {
                Err(Error::Backup(message)) if message.contains("lock") && attempt < 5 => {
                    tracing::warn!(
                        attempt,
                        "the repository is locked; clearing stale locks and trying again"
                    );
                    clock::sleep(std::time::Duration::from_secs(2));
                    let _ = self.remove_stale_locks();
                    attempt += 1;
                }
                other => return other.map(|_| ()),
            }
        }
    }

    /// The snapshot `id` (or `latest`) of this server: its full id and the folder it holds.
    pub fn snapshot(&self, id: &str) -> Result<(String, PathBuf), Error> {
        let out = self.run(&["snapshots", "--json", "--tag", TAG, id])?;
        let list: Vec<serde_json::Value> = serde_json::from_str(json_line(&out))
            .map_err(|e| Error::Backup(format!("restic snapshots: {e}")))?;
        let found = list
            .last()
            .ok_or_else(|| Error::Backup(format!("the repository has no snapshot '{id}'")))?;
        let id = found["id"].as_str().unwrap_or_default().to_string();
        match found["paths"].as_array().map(Vec::as_slice) {
            Some([path]) => Ok((id, PathBuf::from(path.as_str().unwrap_or_default()))),
            _ => Err(Error::Backup(format!(
                "snapshot {id} holds no single backup folder: it was not made by the sidecar"
            ))),
        }
    }

    /// Writes the snapshot `id` under `target` (its folder's absolute path recreated there).
    pub fn restore(&self, id: &str, target: &Path) -> Result<(), Error> {
        let args: [&OsStr; 4] = [
            "restore".as_ref(),
            id.as_ref(),
            "--target".as_ref(),
            target.as_os_str(),
        ];
        self.run(&args).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restic_gets_its_storages_credentials_and_none_of_the_sites_secrets() {
        let environment = [
            ("AWS_ACCESS_KEY_ID", "klucz"),
            ("AWS_SECRET_ACCESS_KEY", "sekret"),
            ("B2_ACCOUNT_KEY", "b2"),
            ("PATH", "/usr/bin"),
            ("ADMIN_PASSWORD", "hasło"),
            ("BACKUP_PASSWORD", "klucz kopii"),
            ("RESTIC_PASSWORD_COMMAND", "cat /etc/shadow"),
            ("SMTP_URL", "smtp://a:b@host"),
        ]
        .map(|(k, v)| (k.into(), v.into()));
        let given: Vec<String> = subprocess::child_environment(environment, &STORAGE_ENVIRONMENT)
            .into_iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            given,
            [
                "AWS_ACCESS_KEY_ID",
                "AWS_SECRET_ACCESS_KEY",
                "B2_ACCOUNT_KEY",
                "PATH"
            ]
        );
    }

    #[test]
    fn the_privacy_policy_states_the_retention_of_the_backups() {
        let policy = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/pages/polityka-prywatnosci.md"),
        )
        .expect("the privacy policy");
        let [_, hours, _, days, _, months] = RETENTION;
        let stated = format!("kopie z ostatnich {hours} godzin, {days} dni i {months} miesięcy");
        assert!(policy.contains(&stated), "the policy says: {stated}");
        let erased = format!("najpóźniej {months} miesięcy po usunięciu");
        assert!(policy.contains(&erased), "the policy says: {erased}");
    }

    #[test]
    fn a_failure_is_told_by_its_last_lines() {
        let said =
            b"reading repository password from stdin\n\nFatal: wrong password\nor no key found\n";
        assert_eq!(
            tail(said),
            "reading repository password from stdin / Fatal: wrong password / or no key found"
        );
        assert_eq!(tail(b""), "");
        assert_eq!(
            json_line(b"reading repository password from stdin\n[{\"id\":\"a\"}]\n"),
            r#"[{"id":"a"}]"#
        );
    }
}
