//! One way of writing a date in the legal texts (STYLE.md): dd.mm.rrrr, with a day that
//! exists ("14.12.2026"). A legal text is a page with a `dated` field (the terms, the privacy
//! policy, the minors' standards, an archived version of the terms); its `dated` and every
//! date written in figures in its body are checked.

use regex::Regex;
use std::sync::OnceLock;

use crate::problem::StyleProblem;

/// Whether `text` is a date written dd.mm.rrrr that exists.
pub fn is_legal_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    let [day, month, year] = parts.as_slice() else {
        return false;
    };
    let figures = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !(figures(day, 2) && figures(month, 2) && figures(year, 4)) {
        return false;
    }
    let (Ok(d), Ok(m), Ok(y)) = (day.parse::<i8>(), month.parse::<i8>(), year.parse::<i16>())
    else {
        return false;
    };
    jiff::civil::Date::new(y, m, d).is_ok()
}

/// Every date written in figures in `text` that is not dd.mm.rrrr, by its byte offset:
/// "26.02.25", "1.3.2026", "2026-12-14", "14/12/2026".
pub(crate) fn other_forms(text: &str) -> Vec<(usize, StyleProblem)> {
    static DATE: OnceLock<Regex> = OnceLock::new();
    let date =
        DATE.get_or_init(|| crate::pattern::constant_regex(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b"));
    date.find_iter(text)
        .filter(|m| !is_legal_date(m.as_str()))
        .map(|m| {
            let date = m.as_str().to_string();
            (m.start(), StyleProblem::LegalDate { date })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_two_figure_days_and_months_and_four_figure_years_that_exist() {
        assert!(is_legal_date("14.12.2026"));
        assert!(is_legal_date("29.02.2028"));
        for bad in [
            "26.02.25",
            "1.03.2026",
            "31.02.2026",
            "2026-12-14",
            "14.12.2026 r",
            "",
        ] {
            assert!(!is_legal_date(bad), "{bad}");
        }
    }

    #[test]
    fn every_other_form_in_a_text_is_found_where_it_is() {
        let text = "Obowiązuje od 26.02.25, zmiana 14.12.2026, potem 2027-01-01. Art. 70 § 1, poz. 187, 14.00–22.00.";
        let found = other_forms(text);
        let dates: Vec<String> = found
            .iter()
            .map(|(_, p)| match p {
                StyleProblem::LegalDate { date } => date.clone(),
                _ => String::new(),
            })
            .collect();
        assert_eq!(dates, ["26.02.25", "2027-01-01"]);
        assert_eq!(found[0].0, text.find("26.02.25").expect("there"));
    }
}
