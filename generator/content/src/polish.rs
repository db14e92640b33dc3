//! Counting in Polish: a number takes one of three forms of the word after it ("1 plik",
//! "2 pliki", "5 plików", "22 pliki", "12 plików"). Every count the server writes for people
//! (the audit log, alerts, the hook's answers) goes through [`count`]; the panel has the same
//! rule in `islands/src/admin/plural.ts`, tested on the same numbers.

/// The three forms of a counted word: after 1, after 2–4 (but 12–14), after the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forms {
    pub one: &'static str,
    pub few: &'static str,
    pub many: &'static str,
}

impl Forms {
    pub const fn new(one: &'static str, few: &'static str, many: &'static str) -> Self {
        Forms { one, few, many }
    }

    /// The form `n` takes.
    pub fn of(&self, n: u64) -> &'static str {
        let (tens, units) = (n % 100, n % 10);
        match n {
            1 => self.one,
            _ if (2..=4).contains(&units) && !(12..=14).contains(&tens) => self.few,
            _ => self.many,
        }
    }
}

pub const FILES: Forms = Forms::new("plik", "pliki", "plików");
pub const PHOTOGRAPHS: Forms = Forms::new("zdjęcie", "zdjęcia", "zdjęć");
pub const MESSAGES: Forms = Forms::new("wiadomość", "wiadomości", "wiadomości");
pub const CHANGES: Forms = Forms::new("zmiana", "zmiany", "zmian");
pub const MINUTES: Forms = Forms::new("minuta", "minuty", "minut");
pub const HOURS: Forms = Forms::new("godzina", "godziny", "godzin");
pub const DAYS: Forms = Forms::new("dzień", "dni", "dni");
pub const CODES: Forms = Forms::new("błędny kod", "błędne kody", "błędnych kodów");
pub const COOKIES: Forms = Forms::new("plik cookie", "pliki cookie", "plików cookie");

/// `n` and its word in the form `n` takes: `count(5, FILES)` is "5 plików".
pub fn count(n: impl TryInto<u64> + Copy + std::fmt::Display, forms: Forms) -> String {
    let form = n.try_into().map_or(forms.many, |n| forms.of(n));
    format!("{n} {form}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers where the forms change, with what each must read: the panel's rule
    /// (`islands/test/plural.test.mjs`) is checked on the same file.
    const CASES: &str = include_str!("polish_cases.json");

    #[test]
    fn a_number_takes_the_form_polish_gives_it() {
        let cases: Vec<(u64, String)> = serde_json::from_str(CASES).expect("the cases");
        assert!(cases.len() >= 10);
        for (n, said) in cases {
            assert_eq!(count(n, FILES), said);
        }
        assert_eq!(count(1, DAYS), "1 dzień");
        assert_eq!(count(3, PHOTOGRAPHS), "3 zdjęcia");
        assert_eq!(count(-1_i64, FILES), "-1 plików");
    }
}
