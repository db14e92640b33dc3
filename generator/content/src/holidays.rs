//! The days the practice does not answer the phone although its weekly hours say it would:
//! Poland's public holidays (the fixed ones and those that move with Easter, computed, never
//! listed by hand) and the practice's own closures (`closures` in `site.yaml`). The call
//! control treats such a day like a night: it offers the crisis numbers first.

use crate::dates::Date;
use crate::model::SiteConfig;

/// A day off by law (ustawa z 18 stycznia 1951 r. o dniach wolnych od pracy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holiday {
    pub date: Date,
    pub name: &'static str,
}

/// Easter Sunday of `year` in the Gregorian calendar (the anonymous algorithm of Meeus,
/// Jones and Butcher).
pub fn easter(year: u16) -> Date {
    let y = i32::from(year);
    let a = y % 19;
    let b = y / 100;
    let c = y % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    Date {
        year,
        month: month as u8,
        day: day as u8,
    }
}

/// Poland's public holidays of `year`, in the order of the calendar. Christmas Eve is one
/// from 2025 on (the law of 6 December 2024).
pub fn polish(year: u16) -> Vec<Holiday> {
    let on = |month: u8, day: u8, name: &'static str| Holiday {
        date: Date { year, month, day },
        name,
    };
    let sunday = easter(year);
    let moved = |days: i64, name: &'static str| Holiday {
        date: sunday.plus_days(days),
        name,
    };
    let mut out = vec![
        on(1, 1, "Nowy Rok"),
        on(1, 6, "Święto Trzech Króli"),
        moved(0, "Wielkanoc"),
        moved(1, "Poniedziałek Wielkanocny"),
        on(5, 1, "Święto Pracy"),
        on(5, 3, "Święto Konstytucji 3 Maja"),
        moved(49, "Zielone Świątki"),
        moved(60, "Boże Ciało"),
        on(8, 15, "Wniebowzięcie Najświętszej Maryi Panny"),
        on(11, 1, "Wszystkich Świętych"),
        on(11, 11, "Narodowe Święto Niepodległości"),
        on(12, 25, "Boże Narodzenie (pierwszy dzień)"),
        on(12, 26, "Boże Narodzenie (drugi dzień)"),
    ];
    if year >= 2025 {
        out.push(on(12, 24, "Wigilia Bożego Narodzenia"));
    }
    out.sort_by_key(|h| h.date);
    out
}

/// Every day from `first` to `last` (both included) the practice is closed although its
/// weekly hours say otherwise: public holidays and `closures`, in order, each once.
pub fn closed_days(site: &SiteConfig, first: Date, last: Date) -> Vec<Date> {
    let mut days: Vec<Date> = (first.year..=last.year)
        .flat_map(polish)
        .map(|h| h.date)
        .collect();
    for closure in &site.closures {
        let (Ok(from), Ok(until)) = (Date::parse(&closure.from), Date::parse(&closure.until))
        else {
            // A date that does not parse is a problem `validate` names; it closes nothing.
            continue;
        };
        let mut day = from;
        while day <= until {
            days.push(day);
            day = day.plus_days(1);
        }
    }
    days.retain(|d| first <= *d && *d <= last);
    days.sort();
    days.dedup();
    days
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).expect("a date")
    }

    fn dates(year: u16) -> Vec<String> {
        polish(year).iter().map(|h| h.date.iso()).collect()
    }

    /// Each year's fourteen holidays, checked against the calendar published for it.
    fn assert_year(year: u16, moving: [&str; 4]) {
        let [easter_sunday, easter_monday, pentecost, corpus_christi] = moving;
        let expected: Vec<String> = [
            "01-01",
            "01-06",
            &easter_sunday[5..],
            &easter_monday[5..],
            "05-01",
            "05-03",
            &pentecost[5..],
            &corpus_christi[5..],
            "08-15",
            "11-01",
            "11-11",
            "12-24",
            "12-25",
            "12-26",
        ]
        .iter()
        .map(|md| format!("{year}-{md}"))
        .collect();
        let mut expected = expected;
        expected.sort();
        assert_eq!(dates(year), expected, "{year}");
        assert_eq!(easter(year).iso(), easter_sunday);
    }

    #[test]
    fn holidays_of_2026() {
        assert_year(
            2026,
            ["2026-04-05", "2026-04-06", "2026-05-24", "2026-06-04"],
        );
    }

    #[test]
    fn holidays_of_2027() {
        assert_year(
            2027,
            ["2027-03-28", "2027-03-29", "2027-05-16", "2027-05-27"],
        );
    }

    #[test]
    fn holidays_of_2028() {
        assert_year(
            2028,
            ["2028-04-16", "2028-04-17", "2028-06-04", "2028-06-15"],
        );
    }

    #[test]
    fn holidays_of_2029() {
        assert_year(
            2029,
            ["2029-04-01", "2029-04-02", "2029-05-20", "2029-05-31"],
        );
    }

    #[test]
    fn holidays_of_2030() {
        assert_year(
            2030,
            ["2030-04-21", "2030-04-22", "2030-06-09", "2030-06-20"],
        );
    }

    #[test]
    fn christmas_eve_is_a_holiday_from_2025_on() {
        assert!(!dates(2024).contains(&"2024-12-24".to_string()));
        assert!(dates(2025).contains(&"2025-12-24".to_string()));
        assert_eq!(easter(2024).iso(), "2024-03-31");
    }

    #[test]
    fn closures_join_the_holidays_inside_the_window() {
        let yaml = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../content/site.yaml"
        ))
        .expect("site.yaml");
        let mut site: SiteConfig = crate::yaml::parse(&yaml).expect("parses");
        site.closures = vec![
            crate::model::Closure {
                from: "2026-12-30".into(),
                until: "2027-01-02".into(),
            },
            crate::model::Closure {
                from: "2027-01-06".into(),
                until: "2027-01-06".into(),
            },
        ];
        let days: Vec<String> = closed_days(&site, date("2026-12-20"), date("2027-01-10"))
            .iter()
            .map(Date::iso)
            .collect();
        assert_eq!(
            days,
            [
                "2026-12-24",
                "2026-12-25",
                "2026-12-26",
                "2026-12-30",
                "2026-12-31",
                "2027-01-01",
                "2027-01-02",
                "2027-01-06"
            ]
        );
    }
}
