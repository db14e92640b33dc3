//! Dates as Polish readers write them.

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
pub(crate) struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// Parses `YYYY-MM-DD`.
    pub(crate) fn parse(text: &str) -> Result<Date, String> {
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
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(bad());
        }
        Ok(Date { year, month, day })
    }

    /// "12 marca 2025".
    pub(crate) fn polish(&self) -> String {
        format!(
            "{} {} {}",
            self.day,
            MONTHS[usize::from(self.month - 1)],
            self.year
        )
    }

    /// The UTC calendar date of a Unix time.
    pub(crate) fn from_unix(seconds: i64) -> Date {
        // Howard Hinnant's days-to-civil algorithm.
        let z = seconds.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Date { year, month, day }
    }

    pub(crate) fn iso(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
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
