//! How far behind the outbox is, for the alerts and the metrics.

use super::store::Db;
use crate::error::Error;

impl Db {
    /// When the oldest message still waiting for delivery arrived (held ones aside).
    pub fn oldest_pending(&self) -> Result<Option<i64>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT MIN(received_at) FROM messages WHERE status = 'pending' AND held = 0",
                [],
                |r| r.get(0),
            )
        })
    }
}
