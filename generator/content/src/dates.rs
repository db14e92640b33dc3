//! Dates as Polish readers write them, and moments in the practice's time zone
//! (Europe/Warsaw, with its daylight saving time from `jiff`'s bundled time zone database):
//! when an article is published, when a notice shows.

use jiff::tz::TimeZone;
use jiff::Timestamp;
use std::sync::OnceLock;

const MONTHS: [&str; 12] = [
    "stycznia",
    "lutego",
    "marca",
    "kwietnia",
    "maja",
    "czerwca",
    "lipca",
    "sierpnia",
    "września",
    "października",
    "listopada",
    "grudnia",
];

/// A checked calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

/// 1970-01-01, where Unix days count from.
const EPOCH: jiff::civil::Date = jiff::civil::date(1970, 1, 1);

impl Date {
    /// The same date in `jiff`'s calendar, when it is a real one.
    fn civil(&self) -> Option<jiff::civil::Date> {
        let year = i16::try_from(self.year).ok()?;
        jiff::civil::Date::new(year, self.month as i8, self.day as i8).ok()
    }

    fn of(civil: jiff::civil::Date) -> Date {
        Date {
            year: u16::try_from(civil.year()).unwrap_or(0),
            month: civil.month().unsigned_abs(),
            day: civil.day().unsigned_abs(),
        }
    }

    /// Parses `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Result<Date, String> {
        let bad = || format!("'{text}' is not a date in the form YYYY-MM-DD");
        let mut parts = text.split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let year: u16 = y.parse().map_err(|_| bad())?;
        let month: u8 = m.parse().map_err(|_| bad())?;
        let day: u8 = d.parse().map_err(|_| bad())?;
        let date = Date { year, month, day };
        date.civil().map(Date::of).ok_or_else(bad)
    }

    /// "12 marca 2025".
    pub fn polish(&self) -> String {
        format!(
            "{} {} {}",
            self.day,
            MONTHS[usize::from(self.month - 1)],
            self.year
        )
    }

    /// The UTC calendar date of a Unix time.
    pub fn from_unix(seconds: i64) -> Date {
        let days = seconds.div_euclid(86_400);
        let date = jiff::Span::new()
            .try_days(days)
            .ok()
            .and_then(|span| EPOCH.checked_add(span).ok());
        Date::of(date.unwrap_or(match days < 0 {
            true => jiff::civil::Date::MIN,
            false => jiff::civil::Date::MAX,
        }))
    }

    pub fn iso(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// Days since 1970-01-01 (0 for a date no calendar has: [`Date::parse`] makes none).
    pub fn days(&self) -> i64 {
        self.civil().map_or(0, |date| {
            date.duration_since(EPOCH).as_secs().div_euclid(86_400)
        })
    }

    /// The first day of the month `months` after this date's (before, when negative).
    pub fn month_start(&self, months: i64) -> Date {
        self.civil()
            .and_then(|date| {
                let span = jiff::Span::new().try_months(months).ok()?;
                date.first_of_month().checked_add(span).ok()
            })
            .map_or(*self, Date::of)
    }

    /// The Monday of this date's week (the date itself on a Monday).
    pub fn monday(&self) -> Date {
        let after_monday = self
            .civil()
            .map_or(0, |date| date.weekday().to_monday_zero_offset());
        self.plus_days(-i64::from(after_monday))
    }

    /// The date `days` later (earlier when negative).
    pub fn plus_days(&self, days: i64) -> Date {
        self.civil()
            .and_then(|date| {
                date.checked_add(jiff::Span::new().try_days(days).ok()?)
                    .ok()
            })
            .map_or(*self, Date::of)
    }
}

/// The practice's time zone, from the time zone database compiled into the program (the
/// machine's own may be missing or old).
fn warsaw_zone() -> &'static TimeZone {
    static ZONE: OnceLock<TimeZone> = OnceLock::new();
    #[allow(
        clippy::expect_used,
        reason = "the database is compiled in: the zone is always there"
    )]
    ZONE.get_or_init(|| {
        TimeZone::get("Europe/Warsaw").expect("Europe/Warsaw is in the bundled database")
    })
}

/// Seconds east of UTC in Europe/Warsaw at the Unix time `utc` (CET or CEST).
pub fn warsaw_offset(utc: i64) -> i64 {
    match Timestamp::from_second(utc) {
        Ok(at) => i64::from(warsaw_zone().to_offset(at).seconds()),
        Err(_) => 3600,
    }
}

/// A moment written as the practice reads a clock: `YYYY-MM-DD` (midnight) or
/// `YYYY-MM-DD HH:MM` / `YYYY-MM-DD HH:MM:SS`, in Warsaw time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LocalTime {
    pub date: Date,
    /// Seconds after midnight, when a time of day was written.
    pub time: Option<u32>,
}

impl LocalTime {
    pub fn parse(text: &str) -> Result<LocalTime, String> {
        let bad =
            || format!("'{text}' is not a date in the form YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]");
        let (day, clock) = match text.split_once([' ', 'T']) {
            Some((d, c)) => (d, Some(c)),
            None => (text, None),
        };
        let date = Date::parse(day).map_err(|_| bad())?;
        let time = match clock {
            None => None,
            Some(c) => {
                let parts: Vec<&str> = c.split(':').collect();
                if !(2..=3).contains(&parts.len()) || parts.iter().any(|p| p.len() != 2) {
                    return Err(bad());
                }
                let mut n = [0_u32; 3];
                for (i, p) in parts.iter().enumerate() {
                    n[i] = p.parse().map_err(|_| bad())?;
                }
                if n[0] > 23 || n[1] > 59 || n[2] > 59 {
                    return Err(bad());
                }
                Some(n[0] * 3600 + n[1] * 60 + n[2])
            }
        };
        Ok(LocalTime { date, time })
    }

    /// The Unix time this moment is in Warsaw. In the hour the clocks go back it is the
    /// first of the two; in the hour they skip, an hour later than written.
    pub fn unix(&self) -> i64 {
        let seconds = self.time.unwrap_or(0);
        let civil = jiff::civil::DateTime::new(
            i16::try_from(self.date.year).unwrap_or(i16::MAX),
            self.date.month as i8,
            self.date.day as i8,
            (seconds / 3600) as i8,
            (seconds / 60 % 60) as i8,
            (seconds % 60) as i8,
            0,
        );
        let local = self.date.days() * 86_400 + i64::from(seconds);
        civil
            .and_then(|dt| warsaw_zone().to_ambiguous_timestamp(dt).compatible())
            .map_or(local - 3600, |at| at.as_second())
    }

    /// The moment with its date, time and Warsaw's offset, as schema.org and feeds want it:
    /// "2026-03-12T00:00:00+01:00" (midnight for a date without a time).
    pub fn rfc3339(&self) -> String {
        match Timestamp::from_second(self.unix()) {
            Ok(at) => at
                .to_zoned(warsaw_zone().clone())
                .strftime("%Y-%m-%dT%H:%M:%S%:z")
                .to_string(),
            Err(_) => format!("{}T00:00:00+01:00", self.date.iso()),
        }
    }

    /// The first moment after the day this names (for a date without a time), or the moment.
    pub fn end_unix(&self) -> i64 {
        match self.time {
            Some(_) => self.unix(),
            None => LocalTime {
                date: self.date.plus_days(1),
                time: None,
            }
            .unix(),
        }
    }
}

/// A moment as the content writes it — an article's `date`, the notice's `from` and `until`
/// — read once when its file loads: the text as written, and the moment it names (none when
/// the text is no date: the checks report it). Written back as the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    text: String,
    time: Option<LocalTime>,
}

impl Moment {
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let time = LocalTime::parse(&text).ok();
        Moment { text, time }
    }

    /// As written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The moment, if the text is a date.
    pub fn time(&self) -> Option<LocalTime> {
        self.time
    }

    /// Its Unix time in Warsaw, if the text is a date.
    pub fn unix(&self) -> Option<i64> {
        self.time.map(|t| t.unix())
    }

    /// Whether it is a date whose Unix time in Warsaw ([`Moment::unix`]) comes after `now`.
    /// Warsaw is one or two hours ahead of UTC: only a moment within two hours of `now` needs
    /// the time zone's rules (asked of every article on every build).
    pub fn is_after(&self, now: i64) -> bool {
        let Some(t) = self.time else {
            return false;
        };
        let local = t.date.days() * 86_400 + i64::from(t.time.unwrap_or(0));
        if local - 3600 <= now {
            false
        } else if local - 7200 > now {
            true
        } else {
            t.unix() > now
        }
    }
}

/// Earlier moments first; texts that are no date after every date, by their text.
impl Ord for Moment {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |m: &Moment| (m.time.is_none(), m.time);
        key(self)
            .cmp(&key(other))
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl PartialOrd for Moment {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl serde::Serialize for Moment {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Moment {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Moment::new)
    }
}

/// The Warsaw calendar date and time of a Unix time, written `YYYY-MM-DD HH:MM:SS`.
pub fn warsaw(utc: i64) -> (Date, u32) {
    let local = utc + warsaw_offset(utc);
    (Date::from_unix(local), local.rem_euclid(86_400) as u32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_moment_is_written_with_its_time_and_warsaws_offset() {
        let at = |text: &str| LocalTime::parse(text).expect("a moment").rfc3339();
        assert_eq!(at("2026-03-12"), "2026-03-12T00:00:00+01:00");
        assert_eq!(at("2026-07-01 10:30"), "2026-07-01T10:30:00+02:00");
        assert_eq!(at("2026-12-24 23:59"), "2026-12-24T23:59:00+01:00");
    }

    use super::*;

    #[test]
    fn formats_in_polish_genitive() {
        assert_eq!(Date::parse("2025-03-12").unwrap().polish(), "12 marca 2025");
        assert_eq!(
            Date::parse("2024-09-01").unwrap().polish(),
            "1 września 2024"
        );
    }

    #[test]
    fn unix_times_become_utc_dates() {
        assert_eq!(Date::from_unix(0).iso(), "1970-01-01");
        assert_eq!(Date::from_unix(1_740_528_000).iso(), "2025-02-26");
        assert_eq!(Date::from_unix(951_782_400).iso(), "2000-02-29");
    }

    #[test]
    fn a_moment_is_after_now_as_its_unix_time_says() {
        // Around both changes of the clocks in 2025, an ordinary day, a date without a time
        // and a text that is no date, against moments every quarter of an hour nearby.
        for text in [
            "2025-03-30 01:30",
            "2025-03-30 02:30",
            "2025-03-30 03:30",
            "2025-10-26 02:30",
            "2025-10-26 03:00",
            "2025-07-01 12:00",
            "2025-07-01",
            "wkrótce",
        ] {
            let moment = Moment::new(text);
            let at = moment.unix().unwrap_or(1_751_364_000);
            for step in -16..=16 {
                let now = at + step * 900;
                let expected = moment.unix().is_some_and(|t| t > now);
                assert_eq!(moment.is_after(now), expected, "{text} at {now}");
            }
        }
    }

    #[test]
    fn days_and_unix_dates_are_inverse() {
        for text in [
            "1970-01-01",
            "2000-02-29",
            "2024-12-31",
            "2025-03-30",
            "2099-07-15",
        ] {
            let d = Date::parse(text).unwrap();
            assert_eq!(Date::from_unix(d.days() * 86_400), d, "{text}");
        }
    }

    #[test]
    fn the_calendar_holds_at_its_edges() {
        let date = |text: &str| Date::parse(text).unwrap();
        assert_eq!(date("1969-12-31").days(), -1);
        assert_eq!(Date::from_unix(-1).iso(), "1969-12-31");
        assert_eq!(date("2000-03-01").days() - date("2000-02-28").days(), 2);
        assert_eq!(date("2100-03-01").days() - date("2100-02-28").days(), 1);
        assert_eq!(date("2024-12-31").plus_days(1), date("2025-01-01"));
        assert_eq!(date("2024-03-01").plus_days(-1), date("2024-02-29"));
        assert_eq!(date("2025-01-01").plus_days(365), date("2026-01-01"));
        assert_eq!(
            Date::from_unix(date("9999-12-31").days() * 86_400).iso(),
            "9999-12-31"
        );
        assert!(Date::parse("2100-02-29").is_err(), "not a leap year");
        assert!(Date::parse("2000-02-29").is_ok(), "a leap year");
        assert_eq!(date("2025-12-15").month_start(1), date("2026-01-01"));
        assert_eq!(date("2025-01-31").month_start(-1), date("2024-12-01"));
        assert_eq!(date("2025-03-31").month_start(-13), date("2024-02-01"));
        assert_eq!(date("2025-11-30").monday(), date("2025-11-24"), "a Sunday");
        assert_eq!(date("2025-11-24").monday(), date("2025-11-24"), "a Monday");
        assert_eq!(
            date("1970-01-01").monday(),
            date("1969-12-29"),
            "a Thursday"
        );
        for text in [
            "2025-01-31",
            "2025-04-30",
            "2025-06-30",
            "2025-09-30",
            "2025-11-30",
        ] {
            assert_eq!(date(text).plus_days(1).day, 1, "{text} ends its month");
        }
    }

    #[test]
    fn a_day_without_a_time_ends_at_the_next_midnight_in_warsaw() {
        // The clocks go forward on 2025-03-30 and back on 2025-10-26: 23 and 25 hours.
        let length = |text: &str| {
            let day = LocalTime::parse(text).unwrap();
            day.end_unix() - day.unix()
        };
        assert_eq!(length("2025-03-30"), 23 * 3600);
        assert_eq!(length("2025-10-26"), 25 * 3600);
        assert_eq!(length("2025-12-31"), 24 * 3600);
        assert_eq!(
            LocalTime::parse("2025-10-26 02:30").unwrap().rfc3339(),
            "2025-10-26T02:30:00+02:00",
            "the first of the two half past twos"
        );
    }

    #[test]
    fn warsaw_changes_clocks_on_the_last_sundays_of_march_and_october() {
        // 2025: summer time from 30 March 01:00 UTC to 26 October 01:00 UTC.
        let at = |t: &str| LocalTime::parse(t).unwrap().unix();
        assert_eq!(at("2025-01-15 12:00"), 1_736_938_800, "11:00 UTC in winter");
        assert_eq!(at("2025-07-15 12:00"), 1_752_573_600, "10:00 UTC in summer");
        assert_eq!(
            warsaw_offset(1_743_296_400 - 1),
            3600,
            "30 March 00:59:59 UTC"
        );
        assert_eq!(warsaw_offset(1_743_296_400), 7200, "30 March 01:00 UTC");
        assert_eq!(
            warsaw_offset(1_761_440_400 - 1),
            7200,
            "26 October 00:59:59 UTC"
        );
        assert_eq!(warsaw_offset(1_761_440_400), 3600, "26 October 01:00 UTC");
        assert_eq!(at("2025-03-30 03:00") - at("2025-03-30 01:59:59"), 1);
        assert_eq!(
            warsaw(at("2025-10-26 12:34:56")).1,
            12 * 3600 + 34 * 60 + 56
        );
        assert_eq!(warsaw(at("2025-12-31 23:30")).0.iso(), "2025-12-31");
    }

    #[test]
    fn a_moment_is_a_date_with_an_optional_time() {
        let day = LocalTime::parse("2025-12-24").unwrap();
        assert_eq!(day.time, None);
        assert_eq!(day.end_unix() - day.unix(), 86_400);
        let time = LocalTime::parse("2025-12-24 09:30").unwrap();
        assert_eq!(time.unix() - day.unix(), 9 * 3600 + 1800);
        assert_eq!(
            LocalTime::parse("2025-12-24T09:30:15").unwrap().time,
            Some(34_215)
        );
        for bad in [
            "2025-12-24 24:00",
            "2025-12-24 9:30",
            "2025-02-30",
            "2025-12-24 09:30:60",
            "2025-12-24 09",
        ] {
            assert!(LocalTime::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_moment_is_read_once_and_written_as_it_was() {
        let m: Moment = crate::yaml::parse("\"2025-12-24 09:30\"").unwrap();
        assert_eq!(m.text(), "2025-12-24 09:30");
        assert_eq!(m.time(), LocalTime::parse("2025-12-24 09:30").ok());
        assert_eq!(serde_json::to_string(&m).unwrap(), "\"2025-12-24 09:30\"");
        let bad = Moment::new("24.12.2025");
        assert_eq!(bad.time(), None);
        assert!(Moment::new("2025-12-24") < m && m < bad);
    }

    #[test]
    fn rejects_impossible_dates() {
        for bad in [
            "2025-02-29",
            "2025-13-01",
            "25-01-01",
            "2025-1-1",
            "2025-01-01-01",
            "dzisiaj",
        ] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
        assert!(Date::parse("2024-02-29").is_ok());
    }
}
