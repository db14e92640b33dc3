//! Publishing to the CDN as a service of its own: `PUBLISH_CMD` (a sync of `dist/` to a
//! bucket) and `PURGE_CMD` (the changed addresses dropped from the CDN's caches) run on a
//! thread of their own, after the build that asked for them has released the build lock, so
//! that a slow sync never holds up a save. Runs are one at a time, in order. Builds that
//! come while one runs are taken together by the next run: it syncs the newest build (the
//! newest state wins) and purges every route any of them changed (none is lost). A run that
//! fails keeps its routes and is tried again, sooner if another build comes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

/// The first wait before a failed run is tried again; it doubles up to [`MAX_RETRY`].
const FIRST_RETRY: Duration = Duration::from_secs(30);
const MAX_RETRY: Duration = Duration::from_secs(15 * 60);

/// The commands and what they may see.
#[derive(Debug, Clone, Default)]
pub struct Commands {
    pub publish: Option<String>,
    pub purge: Option<String>,
    /// What the commands may see of the environment besides the base (`PUBLISH_ENV`).
    pub env_names: Vec<String>,
    /// The values of `PUBLISH_ENV`'s variables, kept out of the server's own environment.
    pub env: Vec<(String, String)>,
}

impl Commands {
    fn any(&self) -> bool {
        self.publish.is_some() || self.purge.is_some()
    }

    /// A command in a shell, with the base environment and the variables of `PUBLISH_ENV`.
    fn shell(&self, cmd: &str) -> Command {
        let mut command = subprocess::command_with("sh", &self.env_names);
        command
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .arg("-c")
            .arg(cmd);
        command
    }
}

/// Where the queue is: what the panel is told after a save.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PublishingStatus")]
pub struct Status {
    /// A run is waiting or under way.
    pub pending: bool,
    /// Why the last run failed, in Polish; `None` after a run that succeeded.
    pub failure: Option<String>,
    /// Runs finished since start, successful or not.
    #[ts(type = "number")]
    pub runs: u64,
}

#[derive(Default)]
struct Queue {
    /// Routes changed by builds whose purge has not run (or failed) yet.
    routes: BTreeSet<String>,
    site_url: String,
    /// A build was published since the last run started.
    waiting: bool,
    running: bool,
    /// When a failed run is tried again (sooner if a build comes).
    retry_at: Option<Instant>,
    retry: Duration,
    failure: Option<String>,
    runs: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Woken when a build is queued and when a run ends.
    changed: Condvar,
    commands: Commands,
    dist: PathBuf,
    pins: site::Pins,
    /// Starts the thread with the first queued build.
    thread: Once,
    /// The wait after a run's first failure ([`FIRST_RETRY`]; shorter in tests).
    first_retry: Duration,
}

/// The queue of runs of `PUBLISH_CMD` and `PURGE_CMD`, and the thread that works it off.
#[derive(Clone)]
pub struct Publishing {
    shared: Arc<Shared>,
}

impl Publishing {
    /// The queue for `dist` (builds of a builder whose `pins` keep a synced build whole); its
    /// thread starts with the first queued build.
    pub fn new(commands: Commands, dist: PathBuf, pins: site::Pins) -> Self {
        Self::with_first_retry(commands, dist, pins, FIRST_RETRY)
    }

    fn with_first_retry(
        commands: Commands,
        dist: PathBuf,
        pins: site::Pins,
        first_retry: Duration,
    ) -> Self {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                retry: first_retry,
                ..Queue::default()
            }),
            changed: Condvar::new(),
            commands,
            dist,
            pins,
            thread: Once::new(),
            first_retry,
        });
        Publishing { shared }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        lock(&self.shared.queue)
    }

    /// Queues a run for a build just published to `dist/` that changed `routes`.
    pub fn enqueue(&self, routes: &[String], site_url: &str) {
        if !self.shared.commands.any() {
            return;
        }
        let mut queue = self.queue();
        queue.routes.extend(routes.iter().cloned());
        queue.site_url = site_url.trim_end_matches('/').to_string();
        queue.waiting = true;
        queue.retry_at = None;
        drop(queue);
        self.shared.thread.call_once(|| self.spawn());
        self.shared.changed.notify_all();
    }

    fn spawn(&self) {
        let shared = Arc::clone(&self.shared);
        let spawned = std::thread::Builder::new()
            .name("publishing".into())
            .spawn(move || work(&shared));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "the publishing thread did not start");
        }
    }

    pub fn status(&self) -> Status {
        let queue = self.queue();
        Status {
            // A failed run waiting for its retry is not pending: the failure says it.
            pending: queue.running || (queue.waiting && queue.retry_at.is_none()),
            failure: queue.failure.clone(),
            runs: queue.runs,
        }
    }

    /// Waits until no run is waiting or under way (a failed one waiting for its retry counts
    /// as done), at most `limit`; whether it got there.
    pub fn wait_idle(&self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        let mut queue = self.queue();
        loop {
            let idle = !queue.running && (!queue.waiting || queue.retry_at.is_some());
            let left = until.saturating_duration_since(Instant::now());
            if idle || left.is_zero() {
                return idle;
            }
            queue = self
                .shared
                .changed
                .wait_timeout(queue, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

fn lock(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    queue.lock().unwrap_or_else(|p| p.into_inner())
}

/// What one run takes from the queue.
struct Run {
    routes: BTreeSet<String>,
    site_url: String,
}

/// Waits for the next run that is due and takes it.
fn next_run(shared: &Shared) -> Run {
    let mut queue = lock(&shared.queue);
    loop {
        let due = queue.retry_at.is_none_or(|at| Instant::now() >= at);
        if queue.waiting && due {
            queue.waiting = false;
            queue.running = true;
            queue.retry_at = None;
            return Run {
                routes: std::mem::take(&mut queue.routes),
                site_url: queue.site_url.clone(),
            };
        }
        queue = match queue.retry_at.filter(|_| queue.waiting) {
            Some(at) => {
                let wait = at.saturating_duration_since(Instant::now());
                shared
                    .changed
                    .wait_timeout(queue, wait)
                    .unwrap_or_else(|p| p.into_inner())
                    .0
            }
            None => shared
                .changed
                .wait(queue)
                .unwrap_or_else(|p| p.into_inner()),
        };
    }
}

fn work(shared: &Shared) {
    loop {
        let run = next_run(shared);
        let failure = execute(shared, &run);
        let mut queue = lock(&shared.queue);
        queue.running = false;
        queue.runs += 1;
        match &failure {
            None => queue.retry = shared.first_retry,
            Some(message) => {
                tracing::warn!("{message}");
                // Purged by the next run that succeeds, with the routes changed since.
                queue.routes.extend(run.routes);
                // A build published during the run is synced at once; otherwise the failed
                // run waits, each time twice as long. (The wait was once set only when none
                // was, so every run after the first retry started again at once: a shell a
                // millisecond for as long as the bucket was unreachable.)
                if !queue.waiting {
                    queue.waiting = true;
                    queue.retry_at = Some(Instant::now() + queue.retry);
                    queue.retry = (queue.retry * 2).min(MAX_RETRY);
                }
            }
        }
        queue.failure = failure;
        drop(queue);
        shared.changed.notify_all();
    }
}

/// One run: `PUBLISH_CMD` on the build `dist/` points at (pinned while it runs), then, if
/// that succeeded and routes changed, `PURGE_CMD`. Why it failed, if it did.
fn execute(shared: &Shared, run: &Run) -> Option<String> {
    let commands = &shared.commands;
    let pin = shared.pins.pin(&shared.dist);
    let dist = pin.as_ref().map_or(shared.dist.as_path(), |p| p.dir());
    if let Some(cmd) = &commands.publish {
        let output = commands.shell(cmd).env("DIST_DIR", dist).output();
        let failed = failure(output, "polecenie publikacji (PUBLISH_CMD)", "PUBLISH_CMD");
        if failed.is_some() {
            return failed;
        }
        tracing::info!(dist = %dist.display(), "PUBLISH_CMD ran");
    }
    match (&commands.purge, run.routes.is_empty()) {
        (Some(cmd), false) => purge(commands.shell(cmd), dist, run),
        _ => None,
    }
}

/// `PURGE_CMD` with `CHANGED_ROUTES` (one absolute path a line), `SITE_URL` and `DIST_DIR`.
fn purge(mut shell: Command, dist: &Path, run: &Run) -> Option<String> {
    let routes: Vec<&str> = run.routes.iter().map(String::as_str).collect();
    let output = shell
        .env("DIST_DIR", dist)
        .env("SITE_URL", &run.site_url)
        .env("CHANGED_ROUTES", routes.join("\n"))
        .output();
    tracing::info!(routes = routes.len(), "PURGE_CMD ran");
    failure(
        output,
        "polecenie czyszczenia pamięci CDN (PURGE_CMD)",
        "PURGE_CMD",
    )
}

/// The admin's warning when a command failed or could not start.
fn failure(
    output: std::io::Result<std::process::Output>,
    what: &str,
    name: &str,
) -> Option<String> {
    match output {
        Ok(o) if o.status.success() => None,
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            let tail: String = stderr
                .chars()
                .rev()
                .take(300)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            Some(format!(
                "Zmiany zapisano i opublikowano na serwerze, ale {what} nie powiodło się: {}",
                tail.trim()
            ))
        }
        Err(e) => Some(format!(
            "Zmiany zapisano i opublikowano na serwerze, ale nie udało się uruchomić {name}: {e}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing(dir: &Path, first_retry: Duration) -> Publishing {
        let commands = Commands {
            publish: Some("echo 'bucket unreachable' >&2; exit 3".into()),
            ..Commands::default()
        };
        Publishing::with_first_retry(
            commands,
            dir.join("dist"),
            site::Pins::default(),
            first_retry,
        )
    }

    /// Waits until `runs` runs have ended, at most ten seconds; the runs counted.
    fn wait_for_runs(publishing: &Publishing, runs: u64) -> u64 {
        let until = Instant::now() + Duration::from_secs(10);
        let mut queue = publishing.queue();
        while queue.runs < runs && Instant::now() < until {
            let left = until.saturating_duration_since(Instant::now());
            queue = publishing
                .shared
                .changed
                .wait_timeout(queue, left)
                .expect("lock")
                .0;
        }
        queue.runs
    }

    #[test]
    fn a_failing_run_is_tried_again_after_waits_that_double() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = Duration::from_millis(40);
        let publishing = failing(dir.path(), first);
        let started = Instant::now();
        publishing.enqueue(&["/cennik".into()], "https://example.pl");
        assert_eq!(wait_for_runs(&publishing, 4), 4);
        // Run 1 at once, then waits of 40, 80 and 160 ms before runs 2, 3 and 4.
        assert!(started.elapsed() >= first * 7, "{:?}", started.elapsed());
        let failure = publishing.status().failure;
        assert!(failure.is_some_and(|f| f.contains("bucket unreachable")));
    }

    #[test]
    fn a_build_during_the_wait_is_synced_at_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let publishing = failing(dir.path(), Duration::from_secs(3600));
        publishing.enqueue(&["/cennik".into()], "https://example.pl");
        assert_eq!(wait_for_runs(&publishing, 1), 1);
        publishing.enqueue(&["/blog".into()], "https://example.pl");
        assert_eq!(
            wait_for_runs(&publishing, 2),
            2,
            "not held back by the hour's wait"
        );
        assert!(publishing.wait_idle(Duration::from_secs(10)));
        assert_eq!(
            publishing.queue().routes.len(),
            2,
            "both routes kept for the next run"
        );
    }
}
