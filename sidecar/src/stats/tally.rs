//! The one writer of the statistics: counts gathered in memory and written together every
//! few seconds, one transaction each time. Here too the day's visitors are told apart (by
//! their hash, never written), so that a visitor's first page of the day counts as a visit,
//! their last page before half an hour without another counts as where they left, and a
//! "visitor" that reads pages faster than a person can is taken for a program and no longer
//! counted. Everything this keeps in memory is bounded: the visitors of one day, the names of
//! one day's sources, unknown addresses and labels.
//!
//! What a row is crossed by is chosen so that a year stays small: a page view by page and
//! device, a visit (a visitor's first page of the day) by source and device, an exit by page,
//! a tap by page, device and label.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::beacon::Hit;
use crate::db::{Db, Device, Event, StatKey};

/// How often counts are written.
pub const WRITE_EVERY: Duration = Duration::from_secs(10);
/// A visitor who reads nothing for this long has left from their last page.
pub const LEFT_AFTER_SECONDS: i64 = 30 * 60;
/// Events waiting for the writer, at most; past that an event is refused (the endpoint says
/// 429), never waited for.
const QUEUE: usize = 16_384;
/// Visitors told apart in one day, at most; past that their pages still count, but not as
/// visits or exits.
const MAX_VISITORS: usize = 200_000;
/// Distinct sources, unknown addresses and labels kept in one day; past that they are one
/// name, [`OTHER`].
const MAX_NAMES: usize = 200;
/// What the names past [`MAX_NAMES`] are kept as.
pub const OTHER: &str = "(inne)";
/// More events than this from one visitor within a minute, or in a day, is a program's pace.
const PER_MINUTE: u32 = 40;
const PER_DAY: u32 = 1_000;

/// A hit as it reached the server: when, on which Warsaw day, from which visitor.
#[derive(Debug, Clone)]
pub struct Arrival {
    pub at: i64,
    pub day: i64,
    pub visitor: Option<u64>,
    pub hit: Hit,
}

enum Job {
    Count(Arrival),
    Write(tokio::sync::oneshot::Sender<()>),
}

/// One visitor of the day, as far as it is needed: where they are and how fast they go.
struct Seen {
    /// Whether a page of theirs was counted today (their visit).
    visited: bool,
    page: Option<String>,
    last_at: i64,
    minute_from: i64,
    in_minute: u32,
    in_day: u32,
    program: bool,
}

/// The counts not yet written, and what the day's visitors did.
#[derive(Default)]
pub struct Tally {
    day: i64,
    pending: HashMap<StatKey, u64>,
    visitors: HashMap<u64, Seen>,
    names: HashSet<(Event, bool, String)>,
}

impl Tally {
    /// `name` as kept today in its kind (`source`: a referrer host, else a label or an unknown
    /// address of `event`): itself while the day has room, [`OTHER`] after.
    fn bounded(&mut self, event: Event, source: bool, name: String) -> String {
        if name.is_empty() {
            return name;
        }
        let key = (if source { Event::View } else { event }, source, name);
        if self.names.contains(&key) || self.names.len() < MAX_NAMES {
            let name = key.2.clone();
            self.names.insert(key);
            return name;
        }
        OTHER.to_string()
    }

    fn count(&mut self, key: StatKey) {
        *self.pending.entry(key).or_default() += 1;
    }

    /// Counts the exit of every visitor still on a page, and forgets the day.
    fn close_day(&mut self) {
        let day = self.day;
        for seen in std::mem::take(&mut self.visitors).into_values() {
            if let Some(route) = seen.page {
                self.count(exit(day, route));
            }
        }
        self.names.clear();
    }

    /// Counts one arrival; a program's pace stops a visitor's counts for the day.
    pub fn add(&mut self, arrival: Arrival) {
        if arrival.day > self.day {
            self.close_day();
            self.day = arrival.day;
        }
        let Arrival {
            at,
            day,
            visitor,
            mut hit,
        } = arrival;
        hit.source = self.bounded(hit.event, true, hit.source);
        if matches!(hit.event, Event::NotFound) {
            hit.route = self.bounded(hit.event, false, hit.route);
        }
        hit.label = self.bounded(hit.event, false, hit.label);
        let today = day == self.day;
        let seen = match visitor.filter(|_| today) {
            Some(v) if self.visitors.contains_key(&v) || self.visitors.len() < MAX_VISITORS => {
                Some(self.visitors.entry(v).or_insert(Seen {
                    visited: false,
                    page: None,
                    last_at: at,
                    minute_from: at,
                    in_minute: 0,
                    in_day: 0,
                    program: false,
                }))
            }
            _ => None,
        };
        let mut first_view = false;
        if let Some(seen) = seen {
            if at - seen.minute_from >= 60 {
                seen.minute_from = at;
                seen.in_minute = 0;
            }
            seen.in_minute += 1;
            seen.in_day += 1;
            seen.program |= seen.in_minute > PER_MINUTE || seen.in_day > PER_DAY;
            if seen.program {
                seen.page = None;
                return;
            }
            if hit.event == Event::View {
                first_view = !seen.visited;
                seen.visited = true;
                seen.page = Some(hit.route.clone());
            }
            seen.last_at = at;
        }
        if first_view {
            self.count(StatKey {
                event: Event::Visit,
                route: String::new(),
                ..key(day, &hit)
            });
        }
        self.count(StatKey {
            source: String::new(),
            ..key(day, &hit)
        });
    }

    /// Counts the exits of visitors who have read nothing for half an hour by `now`.
    pub fn sweep(&mut self, now: i64) {
        let day = self.day;
        let mut left = Vec::new();
        for seen in self.visitors.values_mut() {
            if now - seen.last_at >= LEFT_AFTER_SECONDS {
                if let Some(page) = seen.page.take() {
                    left.push(page);
                }
            }
        }
        for route in left {
            self.count(exit(day, route));
        }
    }

    /// What is to be written, taken out.
    pub fn take(&mut self) -> Vec<(StatKey, u64)> {
        self.pending.drain().collect()
    }
}

fn key(day: i64, hit: &Hit) -> StatKey {
    StatKey {
        day,
        event: hit.event,
        route: hit.route.clone(),
        source: hit.source.clone(),
        device: hit.device,
        label: hit.label.clone(),
    }
}

fn exit(day: i64, route: String) -> StatKey {
    StatKey {
        day,
        event: Event::Exit,
        route,
        source: String::new(),
        device: Device::Unknown,
        label: String::new(),
    }
}

/// Hands hits to the writer's thread without waiting.
pub struct Writer {
    jobs: SyncSender<Job>,
}

/// The writer's queue is full: the event is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

impl Writer {
    /// Starts the writer's thread on `db`; it writes what it holds and ends when the last
    /// `Writer` is dropped.
    pub fn start(db: Arc<Db>) -> std::io::Result<Self> {
        let (jobs, queue) = mpsc::sync_channel(QUEUE);
        std::thread::Builder::new()
            .name("stats-writer".into())
            .spawn(move || run(&db, &queue))?;
        Ok(Writer { jobs })
    }

    /// Queues `arrival` to be counted, or refuses it at once when the queue is full.
    pub fn count(&self, arrival: Arrival) -> Result<(), Busy> {
        match self.jobs.try_send(Job::Count(arrival)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Busy),
        }
    }

    /// Writes everything counted so far; returns once it is written (or the writer stopped).
    pub async fn write_now(&self) {
        let (done, written) = tokio::sync::oneshot::channel();
        let jobs = self.jobs.clone();
        // The queue may be full: wait for room on the blocking pool, not on a worker.
        let queued = crate::tasks::block(move || jobs.send(Job::Write(done))).await;
        if matches!(queued, Ok(Ok(()))) {
            let _ = written.await;
        }
    }
}

fn write(db: &Db, tally: &mut Tally) {
    let counts = tally.take();
    if counts.is_empty() {
        return;
    }
    if let Err(e) = db.add_counts(&counts) {
        tracing::error!(error = %e, rows = counts.len(), "statistics could not be written");
    }
}

fn run(db: &Db, queue: &mpsc::Receiver<Job>) {
    let mut tally = Tally::default();
    let mut next = Instant::now() + WRITE_EVERY;
    loop {
        match queue.recv_timeout(next.saturating_duration_since(Instant::now())) {
            Ok(Job::Count(arrival)) => tally.add(arrival),
            Ok(Job::Write(done)) => {
                tally.sweep(db.now());
                write(db, &mut tally);
                let _ = done.send(());
            }
            Err(RecvTimeoutError::Timeout) => {
                tally.sweep(db.now());
                write(db, &mut tally);
                next = Instant::now() + WRITE_EVERY;
            }
            Err(RecvTimeoutError::Disconnected) => {
                tally.close_day();
                write(db, &mut tally);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(at: i64, visitor: u64, route: &str) -> Arrival {
        Arrival {
            at,
            day: 100,
            visitor: Some(visitor),
            hit: Hit {
                event: Event::View,
                route: route.into(),
                source: if route == "/" {
                    "google.com".into()
                } else {
                    String::new()
                },
                device: Device::Phone,
                label: String::new(),
            },
        }
    }

    fn counted(tally: &mut Tally, event: Event) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = tally
            .pending
            .iter()
            .filter(|(k, _)| k.event == event)
            .map(|(k, n)| (k.route.clone(), *n))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_visit_counts_once_a_day_and_its_exit_after_half_an_hour() {
        let mut tally = Tally::default();
        tally.add(view(1_000, 7, "/"));
        tally.add(view(1_060, 7, "/cennik"));
        tally.add(view(1_100, 8, "/cennik"));
        assert_eq!(
            counted(&mut tally, Event::Visit),
            vec![(String::new(), 1), (String::new(), 1)]
        );
        let mut sources: Vec<&str> = tally
            .pending
            .keys()
            .filter(|k| k.event == Event::Visit)
            .map(|k| k.source.as_str())
            .collect();
        sources.sort_unstable();
        assert_eq!(
            sources,
            vec!["", "google.com"],
            "a visit keeps where it came from"
        );
        assert!(
            tally
                .pending
                .keys()
                .all(|k| k.event == Event::Visit || k.source.is_empty()),
            "a view does not"
        );
        assert_eq!(
            counted(&mut tally, Event::View)
                .iter()
                .map(|c| c.1)
                .sum::<u64>(),
            3
        );
        tally.sweep(1_060 + LEFT_AFTER_SECONDS - 1);
        assert!(counted(&mut tally, Event::Exit).is_empty(), "still reading");
        tally.sweep(1_100 + LEFT_AFTER_SECONDS);
        assert_eq!(
            counted(&mut tally, Event::Exit),
            vec![("/cennik".into(), 2)]
        );
        tally.add(view(5_000, 7, "/"));
        assert_eq!(
            counted(&mut tally, Event::Visit)
                .iter()
                .map(|c| c.1)
                .sum::<u64>(),
            2,
            "a return is no new visitor"
        );
    }

    #[test]
    fn a_program_pace_stops_counting_and_a_new_day_closes_the_last() {
        let mut tally = Tally::default();
        for i in 0..100 {
            tally.add(view(2_000 + i / 10, 9, "/"));
        }
        assert_eq!(
            counted(&mut tally, Event::View),
            vec![("/".into(), u64::from(PER_MINUTE))]
        );
        tally.add(view(3_000, 10, "/cennik"));
        let mut tomorrow = view(90_000, 10, "/");
        tomorrow.day = 101;
        tally.add(tomorrow);
        let exits: Vec<_> = tally
            .pending
            .keys()
            .filter(|k| k.event == Event::Exit)
            .collect();
        assert_eq!(exits.len(), 1);
        assert_eq!((exits[0].day, exits[0].route.as_str()), (100, "/cennik"));
    }

    #[test]
    fn names_of_a_day_are_bounded() {
        let mut tally = Tally::default();
        for i in 0..(MAX_NAMES + 50) {
            let mut hit = view(10 + i as i64, i as u64, "/");
            hit.hit.source = format!("site{i}.example");
            tally.add(hit);
        }
        let sources: HashSet<&str> = tally.pending.keys().map(|k| k.source.as_str()).collect();
        assert!(sources.contains(OTHER));
        assert!(sources.len() <= MAX_NAMES + 2, "the names, (inne) and none");
    }
}
