//! The one writer of contact messages. Messages that arrive while a transaction is being
//! written wait for the next one and are then written together (group commit): one fsync
//! for all of them instead of one each, so under a burst each waits for at most one write
//! before its own. A message is acknowledged only once its transaction is on disk, so a
//! crash (kill -9 included) loses nothing that was acknowledged.

use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

use crate::db::{Arrival, Db, Stored};

/// Messages written in one transaction, at most: a bound on how long one write takes.
const BATCH: usize = 256;
/// Messages waiting for the writer, at most; a sender beyond that waits its turn.
const QUEUE: usize = 4096;

type Answer = Result<Stored, String>;

struct Job {
    arrival: Arrival,
    done: oneshot::Sender<Answer>,
}

/// Hands messages to the writer's thread and waits for them to be on disk.
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writer's thread on `db`; it ends when the last `Writer` is dropped, after
    /// writing what it was given.
    pub fn start(db: Arc<Db>) -> std::io::Result<Self> {
        let (jobs, queue) = mpsc::channel(QUEUE);
        std::thread::Builder::new()
            .name("contact-writer".into())
            .spawn(move || write_all(&db, queue))?;
        Ok(Writer { jobs })
    }

    /// Stores `arrival`; returns once it is on disk, with its id, or why it is not.
    pub async fn store(&self, arrival: Arrival) -> Answer {
        let (done, answer) = oneshot::channel();
        self.jobs
            .send(Job { arrival, done })
            .await
            .map_err(|_| "the contact writer has stopped".to_string())?;
        answer
            .await
            .map_err(|_| "the contact writer stopped before writing".to_string())?
    }
}

fn write_all(db: &Db, mut queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = queue.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        write(db, &mut batch);
    }
}

fn write(db: &Db, batch: &mut Vec<Job>) {
    let arrivals: Vec<Arrival> = batch.iter().map(|j| j.arrival.clone()).collect();
    let answers = match db.insert_arrivals(&arrivals, db.now()) {
        Ok(answers) => answers,
        Err(e) => {
            tracing::error!(error = %e, messages = batch.len(), "contact messages could not be stored");
            vec![Err(e.to_string()); batch.len()]
        }
    };
    if batch.len() > 1 {
        tracing::debug!(
            messages = batch.len(),
            "contact messages stored in one transaction"
        );
    }
    for (job, answer) in batch.drain(..).zip(answers) {
        // A sender that went away (its client closed the connection) still has its message kept.
        let _ = job.done.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::{db, message};

    fn arrival(nonce: &str) -> Arrival {
        Arrival {
            message: message(),
            nonce: Some(nonce.into()),
            nonce_expires_at: i64::MAX,
        }
    }

    #[actix_rt::test]
    async fn a_burst_is_stored_whole_each_sender_with_its_own_answer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Arc::new(db(&dir));
        let writer = Arc::new(Writer::start(db.clone()).expect("started"));
        let sends: Vec<_> = (0..300)
            .map(|i| {
                let writer = writer.clone();
                actix_web::rt::spawn(async move {
                    writer.store(arrival(&format!("n{}", i % 150))).await
                })
            })
            .collect();
        let mut stored: Vec<Stored> = Vec::new();
        for send in sends {
            stored.push(send.await.expect("joined").expect("stored"));
        }
        let mut ids: Vec<i64> = stored.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 300, "every sender has its own message");
        let suspect = stored.iter().filter(|s| s.spam.is_some()).count();
        assert_eq!(suspect, 150, "each token's second use is suspect");
        assert_eq!(db.messages(None, 1000).expect("listed").len(), 300);
    }
}
