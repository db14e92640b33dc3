//! The site's own statistics, without a cookie or a third party (issue 47): what the page
//! script's beacon says (`beacon`), told apart by the day's visitor hash (`visitor`), counted
//! in memory and written as aggregates by one writer (`tally`), and read back as the panel's
//! 'Statystyki' (`report`). `STATS=off` starts none of it.

pub mod beacon;
pub mod report;
pub mod tally;
pub mod visitor;

use actix_web::http::header;
use actix_web::HttpRequest;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use crate::db::{Db, Event};
use beacon::Hit;
use tally::{Arrival, Busy, Writer};
use visitor::Visitors;

/// How the statistics are kept: `STATS_RETENTION_MONTHS`, `STATS_EVENTS_PER_SECOND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Counts older than this many whole months are deleted.
    pub retention_months: u32,
    /// Events one client may send each second; four times as many at once.
    pub per_second: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            retention_months: 25,
            per_second: 5,
        }
    }
}

/// The statistics at run time.
pub struct Stats {
    pub settings: Settings,
    /// Each client's events a second.
    pub limiter: DefaultKeyedRateLimiter<IpAddr>,
    visitors: Visitors,
    /// `None` with `STATS=off`: no thread, no route, nothing counted.
    writer: Option<Writer>,
    /// The last day the old counts were deleted before.
    pruned: AtomicI64,
    /// The server's clock (the database's).
    clock: clock::Clock,
}

/// The Warsaw calendar day of the Unix time `at`, as days since 1970-01-01.
pub fn day_of(at: i64) -> i64 {
    content::dates::warsaw(at).0.days()
}

impl Stats {
    /// Starts the writer on `db`, or with `enabled` false nothing (what is kept is still read,
    /// and deleted past its retention).
    pub fn start(db: Arc<Db>, settings: Settings, enabled: bool) -> std::io::Result<Self> {
        let rate = NonZeroU32::new(settings.per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(rate.get().saturating_mul(4)).unwrap_or(rate);
        Ok(Stats {
            clock: db.clock().clone(),
            settings,
            limiter: RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)),
            visitors: Visitors::default(),
            writer: enabled.then(|| Writer::start(db)).transpose()?,
            pruned: AtomicI64::new(i64::MIN),
        })
    }

    /// Counts `hit` of the client at `address` with user agent `agent` (hashed into the day's
    /// visitor, never kept), or refuses it when the writer is behind.
    pub fn count(&self, hit: Hit, address: IpAddr, agent: &[u8]) -> Result<(), Busy> {
        let writer = self.writer.as_ref().ok_or(Busy)?;
        let at = self.clock.now();
        let day = day_of(at);
        writer.count(Arrival {
            at,
            day,
            visitor: self.visitors.of(day, address, agent),
            hit,
        })
    }

    /// Whether the site counts (`STATS` is not `off`).
    pub fn enabled(&self) -> bool {
        self.writer.is_some()
    }

    /// Counts a contact message (never its content) that `req` sent: from the page of this
    /// site its `Referer` names (one `is_page` knows, else the home page), on the class of
    /// device its user agent says; not when the sender asked not to be tracked or is a
    /// program.
    pub fn count_message(&self, req: &HttpRequest, is_page: impl Fn(&str) -> bool) {
        let Some(writer) = &self.writer else {
            return;
        };
        let agent = req
            .headers()
            .get(header::USER_AGENT)
            .map_or(&b""[..], |v| v.as_bytes());
        if visitor::opted_out(req) || visitor::is_program(agent) {
            return;
        }
        let path = req
            .headers()
            .get(header::REFERER)
            .and_then(|v| v.to_str().ok())
            .and_then(|url| url.split_once("://"))
            .map(|(_, rest)| rest.find('/').map_or("/", |at| &rest[at..]))
            .and_then(beacon::route)
            .filter(|route| is_page(route));
        let at = self.clock.now();
        let hit = Hit {
            event: Event::Message,
            route: path.unwrap_or_else(|| "/".to_string()),
            source: String::new(),
            device: visitor::device_of(agent),
            label: String::new(),
        };
        let arrival = Arrival {
            at,
            day: day_of(at),
            visitor: None,
            hit,
        };
        if writer.count(arrival).is_err() {
            tracing::warn!("a sent message was not counted: the statistics' writer is behind");
        }
    }

    /// Writes what is counted so far, so a reader sees it.
    pub async fn write_now(&self) {
        if let Some(writer) = &self.writer {
            writer.write_now().await;
        }
    }

    /// The first day whose counts are kept on `today`: the first of the month
    /// `retention_months` before this one.
    pub fn first_kept_day(&self, today: i64) -> i64 {
        let date = content::dates::Date::from_unix(today * 86_400);
        let months = i64::from(date.year) * 12 + i64::from(date.month)
            - 1
            - i64::from(self.settings.retention_months);
        let first = content::dates::Date {
            year: months.div_euclid(12).clamp(1970, 9999) as u16,
            month: (months.rem_euclid(12) + 1) as u8,
            day: 1,
        };
        first.days()
    }

    /// Deletes the counts past their retention, once a day; forgets idle clients' limits.
    pub fn maintain(&self, db: &Db, now: i64) -> Result<(), crate::error::Error> {
        self.limiter.retain_recent();
        let today = day_of(now);
        if self.pruned.swap(today, Ordering::Relaxed) != today {
            let gone = db.prune_stats(self.first_kept_day(today))?;
            if gone > 0 {
                tracing::info!(rows = gone, "statistics past their retention deleted");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::db;

    #[test]
    fn counts_are_kept_for_whole_months() {
        let dir = tempfile::tempdir().expect("temp dir");
        let stats = Stats::start(Arc::new(db(&dir)), Settings::default(), false).expect("made");
        let day = |text: &str| content::dates::Date::parse(text).expect("date").days();
        assert_eq!(stats.first_kept_day(day("2027-03-15")), day("2025-02-01"));
        assert_eq!(stats.first_kept_day(day("2027-01-01")), day("2024-12-01"));
    }
}
