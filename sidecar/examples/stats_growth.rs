//! `make bench`'s storage figure of the statistics: how much the database grows per 100,000
//! page views when they come as a practice's site gets them — 1,000 a day for 100 days, about
//! 400 visitors a day reading 2–3 pages, over the real site's routes, a dozen sources and three
//! classes of device, with booking taps, calls and crisis numbers — counted by the very tally
//! and SQL the sidecar uses. Prints the growth in bytes after VACUUM, and the rows.
//!
//! `cargo run --release -p sidecar --example stats_growth [PAGE_VIEWS]`

// A measurement tool run by hand: a failure should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sidecar::db::{Db, Device, Event};
use sidecar::stats::beacon::Hit;
use sidecar::stats::tally::{Arrival, Tally};

/// A small deterministic generator (xorshift): the same figures every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// An index below `n`, the first ones likelier (about Zipf's law, as pages are read).
    fn skewed(&mut self, n: usize) -> usize {
        let a = (self.next() % n as u64) as usize;
        let b = (self.next() % n as u64) as usize;
        a.min(b)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const ROUTES: &[&str] = &[
    "/",
    "/cennik",
    "/uslugi",
    "/o-mnie",
    "/blog",
    "/uslugi/terapia-indywidualna",
    "/uslugi/diagnoza-adhd",
    "/uslugi/konsultacje-psychologiczne",
    "/uslugi/terapia-par",
    "/pilna-pomoc",
    "/blog/pierwsza-wizyta",
    "/blog/terapia-online",
    "/blog/radzenie-sobie-z-lekiem",
    "/uslugi/wsparcie-dla-mlodziezy",
    "/uslugi/coaching-adhd",
    "/blog/terapia-cbt",
    "/blog/psycholog-gdansk",
    "/uslugi/interwencja-kryzysowa",
    "/m1",
    "/polityka-prywatnosci",
    "/regulamin",
    "/blog/praktyka-mindfulness",
    "/uslugi/psychoedukacja",
    "/uslugi/rozwoj-osobisty",
    "/uslugi/konsultacje-rodzicielskie",
    "/uslugi/coaching-indywidualny",
    "/blog/terapia-gdansk",
    "/blog/psychologia-dzieci-gdansk",
    "/blog/terapia-dla-doroslych-gdansk",
    "/blog/techniki-psychoterapii",
    "/blog/psycholog-online-gdansk",
    "/blog/psychoterapia-par-gdansk",
    "/blog/psycholog-sportowy-gdansk",
    "/standardy-ochrony-maloletnich",
];
const SOURCES: &[&str] = &[
    "",
    "google.com",
    "facebook.com",
    "znanylekarz.pl",
    "bing.com",
    "instagram.com",
    "duckduckgo.com",
    "booksy.com",
    "m.facebook.com",
    "l.instagram.com",
    "yandex.ru",
    "ecosia.org",
];

fn main() {
    let views: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let per_day = 1_000;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("site.sqlite3");
    let empty = dir.path().join("empty.sqlite3");
    drop(Db::open(&empty).expect("an empty database"));
    let db = Db::open(&path).expect("the database");
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut tally = Tally::default();
    let (first_day, mut counted, mut visitor) = (20_000_i64, 0_u64, 0_u64);
    let mut day = first_day;
    while counted < views {
        let mut today = 0;
        while today < per_day && counted < views {
            visitor += 1;
            let device = match dice.next() % 10 {
                0..=5 => (Device::Phone, 390),
                6 => (Device::Tablet, 820),
                _ => (Device::Desktop, 1440),
            };
            let pages = 1 + dice.skewed(5) as u64;
            let mut at = day * 86_400 + (dice.next() % 80_000) as i64;
            for page in 0..pages {
                let route = ROUTES[dice.skewed(ROUTES.len())].to_string();
                let source = match page {
                    0 => SOURCES[dice.skewed(SOURCES.len())].to_string(),
                    _ => String::new(),
                };
                let mut hit = |event, route: String, source, label: String| {
                    tally.add(Arrival {
                        at,
                        day,
                        visitor: Some(visitor),
                        hit: Hit {
                            event,
                            route,
                            source,
                            device: device.0,
                            label,
                        },
                    })
                };
                hit(Event::View, route.clone(), source, String::new());
                if dice.chance(5) {
                    let label = [
                        "Booksy · gabinet",
                        "ZnanyLekarz · Magdalena Wiśniewska",
                        "ZnanyLekarz · Tomasz Lewandowski",
                    ];
                    hit(
                        Event::Book,
                        route.clone(),
                        String::new(),
                        label[dice.skewed(3)].into(),
                    );
                }
                if dice.chance(2) {
                    hit(Event::Call, route.clone(), String::new(), String::new());
                }
                if dice.chance(1) {
                    hit(
                        Event::Crisis,
                        route,
                        String::new(),
                        ["116123", "112", "800702222"][dice.skewed(3)].into(),
                    );
                }
                at += 40;
                counted += 1;
                today += 1;
            }
        }
        tally.sweep((day + 1) * 86_400);
        db.add_counts(&tally.take())
            .expect("the day's counts are written");
        day += 1;
    }
    drop(db);
    let size = |p: &std::path::Path| {
        let c = rusqlite::Connection::open(p).expect("opens");
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
            .expect("vacuum");
        let rows: i64 = c
            .query_row("SELECT COUNT(*) FROM stat_counts", [], |r| r.get(0))
            .expect("rows");
        drop(c);
        (std::fs::metadata(p).expect("size").len(), rows)
    };
    let (after, rows) = size(&path);
    let (before, _) = size(&empty);
    println!(
        "{{\"page_views\": {counted}, \"days\": {}, \"visitors\": {visitor}, \"rows\": {rows}, \"bytes\": {}}}",
        day - first_day,
        after.saturating_sub(before)
    );
}
