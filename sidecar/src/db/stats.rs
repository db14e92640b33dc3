//! The site's statistics as they are kept: aggregates only. A row is a count of one event on
//! one Warsaw day at one route, from one referrer host, on one class of device, with one
//! label (a booking button's platform and person, a crisis number); its strings are kept once
//! in `stat_names`. Nothing here can tell one visitor from another: no address, user agent or
//! identifier has a column (the day's visitor hashes live only in the writer's memory,
//! [`crate::stats`]).

use rusqlite::{params, OptionalExtension, Transaction};
use std::collections::HashMap;

use super::store::Db;
use crate::error::Error;

/// What a count counts. The numbers are what the database keeps: never change one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Event {
    /// A page was read.
    View = 1,
    /// A visitor's first page of the day: counted once a day per visitor, at the page they
    /// came in by, with where they came from.
    Visit = 2,
    /// The last page a visitor read before leaving (half an hour without another).
    Exit = 3,
    /// A booking button tapped (label: platform and person).
    Book = 4,
    /// The practice's phone tapped ('Zadzwoń do gabinetu').
    Call = 5,
    /// A crisis number tapped (label: the number).
    Crisis = 6,
    /// A contact message sent (never its content).
    Message = 7,
    /// A booking platform's widget did not load (label: which).
    WidgetFailed = 8,
    /// An address that does not exist was asked for (route: that address).
    NotFound = 9,
    /// /m1's 'Przejdź do strony głównej' tapped.
    Landing = 10,
}

impl Event {
    pub const ALL: [Event; 10] = [
        Event::View,
        Event::Visit,
        Event::Exit,
        Event::Book,
        Event::Call,
        Event::Crisis,
        Event::Message,
        Event::WidgetFailed,
        Event::NotFound,
        Event::Landing,
    ];

    pub fn code(self) -> i64 {
        self as i64
    }

    pub fn from_code(code: i64) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.code() == code)
    }

    /// Its name in the CSV export.
    pub fn polish(self) -> &'static str {
        match self {
            Event::View => "wyświetlenie strony",
            Event::Visit => "wejście na stronę (odwiedzający)",
            Event::Exit => "wyjście ze strony",
            Event::Book => "kliknięcie „Umów wizytę”",
            Event::Call => "kliknięcie „Zadzwoń do gabinetu”",
            Event::Crisis => "kliknięcie numeru pomocy",
            Event::Message => "wysłana wiadomość",
            Event::WidgetFailed => "kalendarz rezerwacji się nie wczytał",
            Event::NotFound => "nieistniejący adres",
            Event::Landing => "/m1: przejście na stronę główną",
        }
    }
}

/// The class of a visitor's screen. The numbers are what the database keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Device {
    /// Not said (a message sent without JavaScript).
    Unknown = 0,
    Phone = 1,
    Tablet = 2,
    Desktop = 3,
}

impl Device {
    pub const ALL: [Device; 4] = [
        Device::Unknown,
        Device::Phone,
        Device::Tablet,
        Device::Desktop,
    ];

    pub fn code(self) -> i64 {
        self as i64
    }

    pub fn from_code(code: i64) -> Device {
        Device::ALL
            .into_iter()
            .find(|d| d.code() == code)
            .unwrap_or(Device::Unknown)
    }

    /// The class of a screen `width` CSS pixels wide, as held.
    pub fn of_width(width: u32) -> Device {
        match width {
            0 => Device::Unknown,
            1..600 => Device::Phone,
            600..1024 => Device::Tablet,
            _ => Device::Desktop,
        }
    }

    pub fn polish(self) -> &'static str {
        match self {
            Device::Unknown => "nieznane",
            Device::Phone => "telefon",
            Device::Tablet => "tablet",
            Device::Desktop => "komputer",
        }
    }
}

/// What one count is of. `day` is days since 1970-01-01 of the Warsaw calendar; an empty
/// source is a visit from no other site (typed, a bookmark, a link in an e-mail app).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StatKey {
    pub day: i64,
    pub event: Event,
    pub route: String,
    pub source: String,
    pub device: Device,
    pub label: String,
}

/// One row of the aggregates with its names, for the export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatRow {
    pub key: StatKey,
    pub count: i64,
}

/// What counts are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Route,
    Source,
    Label,
    Device,
}

impl Dimension {
    fn column(self) -> &'static str {
        match self {
            Dimension::Route => "route",
            Dimension::Source => "source",
            Dimension::Label => "label",
            Dimension::Device => "device",
        }
    }
}

/// The id of `name` in `stat_names`, made the first time.
fn name_id(
    tx: &Transaction<'_>,
    known: &mut HashMap<String, i64>,
    name: &str,
) -> rusqlite::Result<i64> {
    if let Some(id) = known.get(name) {
        return Ok(*id);
    }
    let found: Option<i64> = tx
        .prepare_cached("SELECT id FROM stat_names WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?;
    let id = match found {
        Some(id) => id,
        None => {
            tx.prepare_cached("INSERT INTO stat_names (name) VALUES (?1)")?
                .execute([name])?;
            tx.last_insert_rowid()
        }
    };
    known.insert(name.to_string(), id);
    Ok(id)
}

impl Db {
    /// Adds `counts` to the aggregates in one transaction.
    pub fn add_counts(&self, counts: &[(StatKey, u64)]) -> Result<(), Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            let mut known = HashMap::new();
            for (key, count) in counts {
                let route = name_id(&tx, &mut known, &key.route)?;
                let source = name_id(&tx, &mut known, &key.source)?;
                let label = name_id(&tx, &mut known, &key.label)?;
                tx.prepare_cached(
                    "INSERT INTO stat_counts (day, event, route, source, device, label, count)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                     ON CONFLICT (day, event, route, source, device, label)
                     DO UPDATE SET count = count + excluded.count",
                )?
                .execute(params![
                    key.day,
                    key.event.code(),
                    route,
                    source,
                    key.device.code(),
                    label,
                    *count as i64
                ])?;
            }
            tx.commit()
        })
    }

    /// Each day's total of each event from day `from` to `to` (both included).
    pub fn stat_days(&self, from: i64, to: i64) -> Result<Vec<(i64, Event, i64)>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT day, event, SUM(count) FROM stat_counts
                 WHERE day BETWEEN ?1 AND ?2 GROUP BY day, event ORDER BY day",
            )?;
            let rows = stmt.query_map(params![from, to], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (day, event, count) = row?;
                if let Some(event) = Event::from_code(event) {
                    out.push((day, event, count));
                }
            }
            Ok(out)
        })
    }

    /// The counts of `event` from day `from` to `to`, grouped by `by`, largest first (at most
    /// `limit`); a device is named by its Polish name.
    pub fn stat_by(
        &self,
        event: Event,
        by: Dimension,
        (from, to): (i64, i64),
        limit: usize,
    ) -> Result<Vec<(String, i64)>, Error> {
        let column = by.column();
        let sql = match by {
            Dimension::Device => "SELECT device, SUM(count) AS n FROM stat_counts
                 WHERE day BETWEEN ?1 AND ?2 AND event = ?3
                 GROUP BY device ORDER BY n DESC, device LIMIT ?4"
                .to_string(),
            _ => format!(
                "SELECT n.name, SUM(c.count) AS total FROM stat_counts c
                 JOIN stat_names n ON n.id = c.{column}
                 WHERE c.day BETWEEN ?1 AND ?2 AND c.event = ?3
                 GROUP BY c.{column} ORDER BY total DESC, n.name LIMIT ?4"
            ),
        };
        self.run(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let limit = limit.min(i64::MAX as usize) as i64;
            let rows = stmt.query_map(params![from, to, event.code(), limit], |r| {
                let name = match by {
                    Dimension::Device => Device::from_code(r.get(0)?).polish().to_string(),
                    _ => r.get(0)?,
                };
                Ok((name, r.get::<_, i64>(1)?))
            })?;
            rows.collect()
        })
    }

    /// Every row from day `from` to `to`, by day and event: the export.
    pub fn stat_rows(&self, from: i64, to: i64) -> Result<Vec<StatRow>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT c.day, c.event, r.name, s.name, c.device, l.name, c.count
                 FROM stat_counts c
                 JOIN stat_names r ON r.id = c.route
                 JOIN stat_names s ON s.id = c.source
                 JOIN stat_names l ON l.id = c.label
                 WHERE c.day BETWEEN ?1 AND ?2
                 ORDER BY c.day, c.event, r.name, s.name, c.device, l.name",
            )?;
            let rows = stmt.query_map(params![from, to], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, i64>(6)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (day, event, route, source, device, label, count) = row?;
                let Some(event) = Event::from_code(event) else {
                    continue;
                };
                out.push(StatRow {
                    key: StatKey {
                        day,
                        event,
                        route,
                        source,
                        device: Device::from_code(device),
                        label,
                    },
                    count,
                });
            }
            Ok(out)
        })
    }

    /// The first day with any count, if there is one.
    pub fn first_stat_day(&self) -> Result<Option<i64>, Error> {
        self.run(|c| c.query_row("SELECT MIN(day) FROM stat_counts", [], |r| r.get(0)))
    }

    /// Deletes the counts of days before `day`, and the names no count uses any more;
    /// returns how many counts went.
    pub fn prune_stats(&self, day: i64) -> Result<usize, Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            let gone = tx.execute("DELETE FROM stat_counts WHERE day < ?1", [day])?;
            if gone > 0 {
                tx.execute(
                    "DELETE FROM stat_names WHERE id NOT IN (
                       SELECT route FROM stat_counts UNION SELECT source FROM stat_counts
                       UNION SELECT label FROM stat_counts)",
                    [],
                )?;
            }
            tx.commit()?;
            Ok(gone)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::db;

    fn key(day: i64, event: Event, route: &str, source: &str) -> StatKey {
        StatKey {
            day,
            event,
            route: route.into(),
            source: source.into(),
            device: Device::Phone,
            label: String::new(),
        }
    }

    #[test]
    fn counts_add_up_and_group_by_what_is_asked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let batch = [
            (key(100, Event::View, "/", "google.com"), 3),
            (key(100, Event::View, "/cennik", ""), 2),
            (key(101, Event::View, "/", "google.com"), 1),
        ];
        db.add_counts(&batch).expect("added");
        db.add_counts(&batch[..1]).expect("added again");
        let days = db.stat_days(100, 101).expect("read");
        assert_eq!(days, vec![(100, Event::View, 8), (101, Event::View, 1)]);
        let routes = db
            .stat_by(Event::View, Dimension::Route, (100, 101), 10)
            .expect("read");
        assert_eq!(
            routes,
            vec![("/".to_string(), 7), ("/cennik".to_string(), 2)]
        );
        let devices = db
            .stat_by(Event::View, Dimension::Device, (100, 100), 10)
            .expect("read");
        assert_eq!(devices, vec![("telefon".to_string(), 8)]);
        assert_eq!(db.stat_rows(101, 101).expect("rows").len(), 1);
        assert_eq!(db.first_stat_day().expect("first"), Some(100));
    }

    #[test]
    fn pruning_drops_old_days_and_their_names() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        db.add_counts(&[
            (key(10, Event::View, "/stara", "old.example"), 1),
            (key(20, Event::View, "/", ""), 1),
        ])
        .expect("added");
        assert_eq!(db.prune_stats(15).expect("pruned"), 1);
        let names: Vec<String> = db
            .run(|c| {
                c.prepare("SELECT name FROM stat_names ORDER BY name")?
                    .query_map([], |r| r.get(0))?
                    .collect()
            })
            .expect("names");
        assert_eq!(names, vec!["".to_string(), "/".to_string()]);
    }
}
