//! 'Statystyki' as the owner reads it: visitors and page views per day, week or month with
//! the change from the period before, the pages and articles read most, where visitors came
//! from, booking taps, calls and messages, the pages people leave from and the addresses that
//! do not exist; and every count as CSV.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use ts_rs::TS;

use crate::db::{Db, Dimension, Event, StatRow};
use crate::error::Error;
use content::dates::Date;

/// How the counts are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "StatsPeriod")]
pub enum Period {
    /// The last 30 days, day by day.
    Day,
    /// The last 12 weeks (Monday to Sunday), this one included.
    Week,
    /// The last 12 months, this one included.
    Month,
}

/// The totals of a stretch of time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "StatsTotals")]
pub struct Totals {
    /// Visitors of each day, added up (a visitor of two days counts twice).
    #[ts(type = "number")]
    pub visitors: i64,
    #[ts(type = "number")]
    pub views: i64,
    #[ts(type = "number")]
    pub bookings: i64,
    #[ts(type = "number")]
    pub calls: i64,
    #[ts(type = "number")]
    pub messages: i64,
    #[ts(type = "number")]
    pub crisis: i64,
    /// /m1's 'Przejdź do strony głównej'.
    #[ts(type = "number")]
    pub landing: i64,
}

impl Totals {
    fn merge(&mut self, other: &Totals) {
        self.visitors += other.visitors;
        self.views += other.views;
        self.bookings += other.bookings;
        self.calls += other.calls;
        self.messages += other.messages;
        self.crisis += other.crisis;
        self.landing += other.landing;
    }

    fn add(&mut self, event: Event, count: i64) {
        let field = match event {
            Event::Visit => &mut self.visitors,
            Event::View => &mut self.views,
            Event::Book => &mut self.bookings,
            Event::Call => &mut self.calls,
            Event::Message => &mut self.messages,
            Event::Crisis => &mut self.crisis,
            Event::Landing => &mut self.landing,
            _ => return,
        };
        *field += count;
    }
}

/// One day, week or month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "StatsBucket")]
pub struct Bucket {
    /// Its first day, `YYYY-MM-DD`.
    pub start: String,
    /// How the owner names it: '3 mar', '3–9 mar', 'marzec 2026'.
    pub label: String,
    pub totals: Totals,
}

/// One line of a list: a route, a source, a label, with how people name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "StatsRanked")]
pub struct Ranked {
    /// What is counted as it is kept (a route, a host, a label).
    pub name: String,
    /// Its name for the owner: a page's title, 'Wejścia bezpośrednie', '116 123'.
    pub title: String,
    #[ts(type = "number")]
    pub count: i64,
}

/// `GET /api/stats`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Statistics")]
pub struct Report {
    /// Whether the site counts now (`STATS` is not `off`).
    pub enabled: bool,
    pub period: Period,
    /// The first and last day shown, `YYYY-MM-DD`.
    pub from: String,
    pub to: String,
    /// Oldest first.
    pub buckets: Vec<Bucket>,
    /// The one before the first, for its change.
    pub before: Bucket,
    pub totals: Totals,
    /// The totals of as long a stretch just before.
    pub previous: Totals,
    pub pages: Vec<Ranked>,
    pub articles: Vec<Ranked>,
    pub sources: Vec<Ranked>,
    pub devices: Vec<Ranked>,
    pub exits: Vec<Ranked>,
    pub bookings: Vec<Ranked>,
    pub crisis: Vec<Ranked>,
    pub not_found: Vec<Ranked>,
    pub widgets: Vec<Ranked>,
    pub retention_months: u32,
}

const SHORT_MONTHS: [&str; 12] = [
    "sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru",
];
const MONTHS: [&str; 12] = [
    "styczeń",
    "luty",
    "marzec",
    "kwiecień",
    "maj",
    "czerwiec",
    "lipiec",
    "sierpień",
    "wrzesień",
    "październik",
    "listopad",
    "grudzień",
];
/// How many of each list are shown.
const LISTED: usize = 10;

fn date(day: i64) -> Date {
    Date::from_unix(day * 86_400)
}

fn short(d: Date) -> String {
    format!("{} {}", d.day, SHORT_MONTHS[usize::from(d.month - 1)])
}

/// Monday of the week of `day`.
fn monday(day: i64) -> i64 {
    date(day).monday().days()
}

/// The first day of the month `months` after the month of `day` (before, when negative).
fn month_start(day: i64, months: i64) -> i64 {
    date(day).month_start(months).days()
}

/// The buckets of `period` ending with the one of `today`: `count` of them, each as its first
/// day, last day and label.
fn spans(period: Period, today: i64, count: i64) -> Vec<(i64, i64, String)> {
    (0..count)
        .rev()
        .map(|back| match period {
            Period::Day => {
                let day = today - back;
                (day, day, short(date(day)))
            }
            Period::Week => {
                let first = monday(today) - 7 * back;
                let (a, b) = (date(first), date(first + 6));
                let label = match a.month == b.month {
                    true => format!("{}–{}", a.day, short(b)),
                    false => format!("{} – {}", short(a), short(b)),
                };
                (first, first + 6, label)
            }
            Period::Month => {
                let first = month_start(today, -back);
                let d = date(first);
                let label = format!("{} {}", MONTHS[usize::from(d.month - 1)], d.year);
                (first, month_start(first, 1) - 1, label)
            }
        })
        .collect()
}

/// How many buckets a report shows.
fn shown(period: Period) -> i64 {
    match period {
        Period::Day => 30,
        Period::Week | Period::Month => 12,
    }
}

fn number_title(digits: &str) -> String {
    match digits.len() {
        3 => digits.to_string(),
        6 => format!("{} {}", &digits[..3], &digits[3..]),
        9 => format!("{} {} {}", &digits[..3], &digits[3..5], &digits[5..]),
        _ => digits.to_string(),
    }
}

fn widget_title(name: &str) -> String {
    match name {
        "kalendarz" => "kalendarz wolnych terminów na stronie głównej".into(),
        "okno-rezerwacji" => "kalendarz w oknie „Umów wizytę”".into(),
        other => other.to_string(),
    }
}

/// What the report needs of the live site: each page's title by its route.
pub type Titles = HashMap<String, String>;

fn ranked(rows: Vec<(String, i64)>, title: impl Fn(&str) -> String) -> Vec<Ranked> {
    rows.into_iter()
        .map(|(name, count)| Ranked {
            title: title(&name),
            name,
            count,
        })
        .collect()
}

/// The report of `period` up to `today` (a Warsaw day), the pages named by `titles`.
pub fn build(
    db: &Db,
    period: Period,
    today: i64,
    titles: &Titles,
    enabled: bool,
    retention_months: u32,
) -> Result<Report, Error> {
    let n = shown(period);
    let all = spans(period, today, 2 * n);
    let (earlier, range) = all.split_at(n as usize);
    let (from, to) = (range[0].0, today);
    let mut by_day: HashMap<i64, Totals> = HashMap::new();
    for (day, event, count) in db.stat_days(earlier[0].0, to)? {
        by_day.entry(day).or_default().add(event, count);
    }
    let sum = |first: i64, last: i64| {
        let mut totals = Totals::default();
        for day in first..=last {
            if let Some(t) = by_day.get(&day) {
                totals.merge(t);
            }
        }
        totals
    };
    let bucket = |(first, last, label): &(i64, i64, String)| Bucket {
        start: date(*first).iso(),
        label: label.clone(),
        totals: sum(*first, *last),
    };
    let page_title = |route: &str| {
        titles
            .get(route)
            .cloned()
            .unwrap_or_else(|| route.to_string())
    };
    let span = (from, to);
    let views = db.stat_by(Event::View, Dimension::Route, span, 200)?;
    let (articles, pages): (Vec<_>, Vec<_>) = views
        .into_iter()
        .partition(|(r, _)| r.starts_with("/blog/"));
    let top =
        |rows: Vec<(String, i64)>| ranked(rows.into_iter().take(LISTED).collect(), page_title);
    Ok(Report {
        enabled,
        period,
        from: date(from).iso(),
        to: date(to).iso(),
        before: bucket(&earlier[earlier.len() - 1]),
        buckets: range.iter().map(bucket).collect(),
        // As long a stretch just before: the same number of days.
        previous: sum(from - (to - from + 1), from - 1),
        totals: sum(from, to),
        pages: top(pages),
        articles: top(articles),
        sources: ranked(
            db.stat_by(Event::Visit, Dimension::Source, span, LISTED)?,
            |s| match s {
                "" => "Wejścia bezpośrednie (wpisany adres, zakładka, aplikacja)".to_string(),
                host => host.to_string(),
            },
        ),
        devices: ranked(
            db.stat_by(Event::Visit, Dimension::Device, span, LISTED)?,
            str::to_string,
        ),
        exits: ranked(
            db.stat_by(Event::Exit, Dimension::Route, span, LISTED)?,
            page_title,
        ),
        bookings: ranked(
            db.stat_by(Event::Book, Dimension::Label, span, LISTED)?,
            |l| match l {
                "" => "bez opisu".to_string(),
                label => label.to_string(),
            },
        ),
        crisis: ranked(
            db.stat_by(Event::Crisis, Dimension::Label, span, LISTED)?,
            number_title,
        ),
        not_found: ranked(
            db.stat_by(Event::NotFound, Dimension::Route, span, LISTED)?,
            str::to_string,
        ),
        widgets: ranked(
            db.stat_by(Event::WidgetFailed, Dimension::Label, span, LISTED)?,
            widget_title,
        ),
        retention_months,
    })
}

/// The first and last day of `period`'s report on `today`.
pub fn range(period: Period, today: i64) -> (i64, i64) {
    let all = spans(period, today, shown(period));
    (all.first().map_or(today, |s| s.0), today)
}

/// A CSV field as a spreadsheet reads it: quoted when it must be, and never a formula.
fn field(text: &str) -> String {
    let text = match text.starts_with(['=', '+', '-', '@']) {
        true => format!("'{text}"),
        false => text.to_string(),
    };
    match text.contains([';', '"', '\n', '\r']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text,
    }
}

/// Every count as CSV for a spreadsheet: semicolons (what Polish spreadsheets expect), UTF-8
/// with its mark, one line per day, event, page, source, device and label.
pub fn csv(rows: &[StatRow]) -> String {
    let mut out = String::from("\u{feff}dzień;zdarzenie;strona;źródło;urządzenie;opis;liczba\r\n");
    for row in rows {
        let k = &row.key;
        let line = [
            date(k.day).iso(),
            k.event.polish().to_string(),
            k.route.clone(),
            k.source.clone(),
            k.device.polish().to_string(),
            k.label.clone(),
            row.count.to_string(),
        ]
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(";");
        out.push_str(&line);
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::db;
    use crate::db::{Device, StatKey};

    fn day(text: &str) -> i64 {
        Date::parse(text).expect("date").days()
    }

    fn key(day: i64, event: Event, route: &str) -> StatKey {
        StatKey {
            day,
            event,
            route: route.into(),
            source: String::new(),
            device: Device::Phone,
            label: String::new(),
        }
    }

    #[test]
    fn weeks_and_months_are_named_as_people_name_them() {
        let weeks = spans(Period::Week, day("2026-03-05"), 2);
        assert_eq!(weeks[1].0, day("2026-03-02"), "weeks start on Monday");
        assert_eq!(weeks[1].2, "2–8 mar");
        assert_eq!(weeks[0].2, "23 lut – 1 mar");
        let months = spans(Period::Month, day("2026-01-20"), 2);
        assert_eq!(
            months[0],
            (day("2025-12-01"), day("2025-12-31"), "grudzień 2025".into())
        );
        assert_eq!(months[1].2, "styczeń 2026");
    }

    #[test]
    fn a_report_adds_up_days_into_periods_with_the_one_before() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let today = day("2026-03-05");
        db.add_counts(&[
            (key(today, Event::View, "/"), 5),
            (key(today, Event::Visit, "/"), 2),
            (key(today - 1, Event::View, "/blog/terapia-cbt"), 3),
            (key(today - 7, Event::Visit, "/"), 4),
            (key(today, Event::Book, "/cennik"), 1),
        ])
        .expect("added");
        let titles = Titles::from([("/".to_string(), "Strona główna".to_string())]);
        let report = build(&db, Period::Week, today, &titles, true, 25).expect("report");
        assert_eq!(report.buckets.len(), 12);
        let this_week = report.buckets.last().expect("a week");
        assert_eq!(
            (
                this_week.totals.views,
                this_week.totals.visitors,
                this_week.totals.bookings
            ),
            (8, 2, 1)
        );
        assert_eq!(report.buckets[10].totals.visitors, 4);
        assert_eq!(report.pages[0].title, "Strona główna");
        assert_eq!(report.articles[0].name, "/blog/terapia-cbt");
        assert_eq!(report.totals.views, 8);
        let daily = build(&db, Period::Day, today, &titles, true, 25).expect("report");
        assert_eq!(daily.before.totals, Totals::default());
        assert_eq!(daily.buckets[29].totals.views, 5);
        assert_eq!(daily.from, "2026-02-04");
    }

    #[test]
    fn the_export_is_a_spreadsheet_without_formulas() {
        let rows = vec![StatRow {
            key: StatKey {
                label: "=HYPERLINK(\"x\")".into(),
                ..key(day("2026-03-05"), Event::Book, "/")
            },
            count: 2,
        }];
        let text = csv(&rows);
        assert!(text.starts_with("\u{feff}dzień;zdarzenie"));
        assert!(
            text.contains(
                "2026-03-05;kliknięcie „Umów wizytę”;/;;telefon;\"'=HYPERLINK(\"\"x\"\")\";2\r\n"
            ),
            "{text}"
        );
    }
}
