//! Where password hashes are checked: two threads of their own. argon2 takes 19 MiB per
//! check; on the server's general pool of blocking threads, each of hundreds of threads
//! would keep its own 19 MiB in the allocator after a burst. Here at most two checks run at
//! once, always on the same two threads, and a check that cannot start within the wait is
//! refused instead of queued.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{oneshot, Semaphore};

use crate::error::Error;

type Job = Box<dyn FnOnce() + Send>;

pub struct Hasher {
    jobs: SyncSender<Job>,
    slots: Semaphore,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

/// What waiting for a hashing thread came to.
#[derive(Debug)]
pub enum Wait {
    /// No thread became free within the wait.
    Busy,
    Failed(Error),
}

impl Hasher {
    pub fn new(threads: usize) -> Self {
        let (jobs, queue) = sync_channel::<Job>(threads);
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("argon2-{i}"))
                .spawn(move || loop {
                    let job = match queue.lock() {
                        Ok(q) => q.recv(),
                        Err(poisoned) => poisoned.into_inner().recv(),
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password hashing thread");
            }
        }
        Hasher {
            jobs,
            slots: Semaphore::new(threads),
            running: Arc::default(),
            peak: Arc::default(),
        }
    }

    /// The most checks that ever ran at the same moment.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Runs `check` on a hashing thread, waiting at most `wait` for one to be free.
    pub async fn run<T: Send + 'static>(
        &self,
        wait: Duration,
        check: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Wait> {
        let _slot = tokio::time::timeout(wait, self.slots.acquire())
            .await
            .map_err(|_| Wait::Busy)?
            .map_err(|_| Wait::Failed(Error::Hashing("the slots were closed")))?;
        let (answer, answered) = oneshot::channel();
        let (running, peak) = (Arc::clone(&self.running), Arc::clone(&self.peak));
        let job: Job = Box::new(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let result = check();
            running.fetch_sub(1, Ordering::SeqCst);
            let _ = answer.send(result);
        });
        self.jobs
            .send(job)
            .map_err(|_| Wait::Failed(Error::Hashing("the threads stopped")))?;
        answered
            .await
            .map_err(|_| Wait::Failed(Error::Hashing("a password check did not finish")))
    }
}
