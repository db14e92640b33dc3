//! The house style of `content/STYLE.md`, where a machine can check it: units written with
//! a space and in złoty, questions ending with '?', the adult crisis line beside the others,
//! the Blue Line where violence is mentioned, the address taken from `site.yaml`, and one
//! word for the people the practice helps.

use regex::Regex;
use std::sync::OnceLock;

use crate::model::SiteConfig;
use crate::problem::StyleProblem;

/// A style problem at a byte offset of the checked text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub offset: usize,
    pub problem: StyleProblem,
}

fn problem(offset: usize, problem: StyleProblem) -> Found {
    Found { offset, problem }
}

const QUESTION_WORDS: [&str; 24] = [
    "czy", "jak", "jaka", "jaki", "jakie", "jakich", "jakim", "co", "czym", "czego", "ile",
    "kiedy", "dlaczego", "gdzie", "kto", "komu", "kogo", "skąd", "dokąd", "który", "która",
    "które", "czemu", "czyja",
];

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

fn is_question(text: &str) -> bool {
    let mut words = text.split_whitespace().map(|w| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    });
    match (words.next(), words.next()) {
        (Some(first), second) => {
            QUESTION_WORDS.contains(&first.as_str())
                || (first == "po" && second.as_deref() == Some("co"))
        }
        _ => false,
    }
}

/// A heading without its number: "§ 2. Jakie dane…" asks "Jakie dane…".
fn without_number(heading: &str) -> &str {
    let rest = heading.trim_start_matches('§').trim_start();
    let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.len() < rest.len() {
        digits.trim_start_matches(['.', ')']).trim_start()
    } else {
        heading
    }
}

/// Headings and bold paragraph openings that ask a question must end with '?'.
fn questions(text: &str, out: &mut Vec<Found>) {
    static BOLD: OnceLock<Regex> = OnceLock::new();
    let bold = regex(&BOLD, r"^\*\*([^*]+)\*\*");
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        let asked = if let Some(heading) = trimmed.strip_prefix('#') {
            Some(without_number(heading.trim_start_matches('#').trim()))
        } else if !trimmed.starts_with("**") {
            None
        } else {
            bold.captures(trimmed)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().trim())
        };
        if let Some(asked) = asked {
            if is_question(asked) && !asked.ends_with('?') {
                out.push(problem(
                    offset,
                    StyleProblem::Question {
                        text: asked.to_string(),
                    },
                ));
            }
        }
        offset += line.len();
    }
}

/// Whether `c` is a letter, a digit or '_': what ends a word for `\b`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn units(text: &str, out: &mut Vec<Found>) {
    static GLUED: OnceLock<Regex> = OnceLock::new();
    static PLN: OnceLock<Regex> = OnceLock::new();
    // "min", "minut" and "PLN" must end a word; the end is checked here rather than with
    // `\b`, which in a Polish (non-ASCII) text keeps the regex off its fast engines.
    let glued = regex(&GLUED, r"\d(zł|minut|min|PLN)");
    let ends_word = |m: &regex::Match<'_>| {
        m.as_str().ends_with("zł") || !text[m.end()..].chars().next().is_some_and(is_word)
    };
    for m in glued.find_iter(text).filter(ends_word) {
        out.push(problem(
            m.start(),
            StyleProblem::GluedUnit {
                text: m.as_str().to_string(),
            },
        ));
    }
    for m in regex(&PLN, r"\bPLN\b").find_iter(text) {
        out.push(problem(m.start(), StyleProblem::Pln));
    }
}

fn crisis_numbers(text: &str, out: &mut Vec<Found>) {
    let plain = match text.contains('\u{a0}') {
        true => std::borrow::Cow::Owned(text.replace('\u{a0}', " ")),
        false => std::borrow::Cow::Borrowed(text),
    };
    let first = |needle: &str| plain.find(needle);
    let helplines = first("800 70 2222").or_else(|| first("116 111"));
    if let (Some(at), None) = (helplines, first("116 123")) {
        out.push(problem(at, StyleProblem::AdultLine));
    }
    static VIOLENCE: OnceLock<Regex> = OnceLock::new();
    let violence = regex(&VIOLENCE, r"(?i)\bprzemoc");
    if let (Some(m), None) = (violence.find(&plain), first("800 120 002")) {
        out.push(problem(m.start(), StyleProblem::BlueLine));
    }
}

/// The street's name without its ending, so that every declension is found:
/// "al. Grunwaldzka 82/4" gives "Grunwaldzk".
fn street_stem(site: &SiteConfig) -> Option<String> {
    let name = site
        .address
        .street
        .split_whitespace()
        .find(|w| w.chars().next().is_some_and(char::is_uppercase))?;
    let mut chars: Vec<char> = name.chars().collect();
    chars.pop();
    (chars.len() >= 4).then(|| chars.into_iter().collect())
}

fn address(text: &str, site: &SiteConfig, out: &mut Vec<Found>) {
    if let Some(stem) = street_stem(site) {
        if let Some(at) = text.find(&stem) {
            out.push(problem(at, StyleProblem::Street));
        }
    }
}

fn one_word_for_patients(text: &str, out: &mut Vec<Found>) {
    static CLIENT: OnceLock<Regex> = OnceLock::new();
    if let Some(m) = regex(
        &CLIENT,
        r"\b[Kk]lien(t|ci|ta|tem|towi|tów|tom|tami|tach|tka|tki|tką|tce)\b",
    )
    .find(text)
    {
        out.push(problem(
            m.start(),
            StyleProblem::Patient {
                word: m.as_str().to_string(),
            },
        ));
    }
}

/// Every style problem of one Markdown text.
pub(crate) fn check(text: &str, site: &SiteConfig) -> Vec<Found> {
    let mut out = Vec::new();
    questions(text, &mut out);
    units(text, &mut out);
    crisis_numbers(text, &mut out);
    address(text, site, &mut out);
    one_word_for_patients(text, &mut out);
    out
}

/// Whether a Polish tax number (NIP, 10 digits) has a valid check digit.
pub(crate) fn valid_nip(nip: &str) -> bool {
    const WEIGHTS: [u32; 9] = [6, 5, 7, 2, 3, 4, 5, 6, 7];
    checksum(nip, &WEIGHTS, 10).is_some_and(|ok| ok)
}

/// Whether a REGON (9 digits) has a valid check digit.
pub(crate) fn valid_regon(regon: &str) -> bool {
    const WEIGHTS: [u32; 8] = [8, 9, 2, 3, 4, 5, 6, 7];
    checksum(regon, &WEIGHTS, 9).is_some_and(|ok| ok)
}

fn checksum(number: &str, weights: &[u32], len: usize) -> Option<bool> {
    let digits: Vec<u32> = number
        .chars()
        .filter(|c| *c != '-' && *c != ' ')
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()?;
    if digits.len() != len {
        return None;
    }
    let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
    Some(sum % 11 % 10 == digits[len - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        questions(text, &mut out);
        units(text, &mut out);
        crisis_numbers(text, &mut out);
        one_word_for_patients(text, &mut out);
        out.into_iter()
            .map(|p| crate::Problem::from(p.problem).english())
            .collect()
    }

    #[test]
    fn questions_need_a_question_mark() {
        let found = messages("## Jak wygląda pierwsza wizyta\n\n**Czy mogę przyjść z partnerem** Tak.\n\n## Po co nam plan?\n\n## Praktycznie\n\n## § 2. Jakie dane zbieramy\n\n## 3. Gdzie nas znaleźć?\n");
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].contains("Jak wygląda pierwsza wizyta"));
    }

    #[test]
    fn units_are_spaced_and_in_zloty() {
        assert_eq!(messages("Cena 190zł, czas 50min, razem 300 PLN.").len(), 3);
        assert!(messages("Cena 190 zł za 50 minut.").is_empty());
        assert_eq!(
            messages("Trwa 50minut, 3minuty i 2minę; kod PLN2 i 100PLN_x.").len(),
            1
        );
        assert_eq!(
            messages("Wartość: 5zła, 12PLN.").len(),
            2,
            "zł needs no end of word"
        );
    }

    #[test]
    fn the_adult_line_stands_beside_the_others_and_violence_gets_the_blue_line() {
        assert_eq!(messages("Zadzwoń: 800 70 2222.").len(), 1);
        assert!(messages("Zadzwoń: 800 70 2222 lub 116 123.").is_empty());
        assert_eq!(
            messages("Gdy doświadczasz przemocy, zadzwoń pod 112.").len(),
            1
        );
        assert!(messages("Gdy doświadczasz przemocy: 800 120 002.").is_empty());
    }

    #[test]
    fn patients_are_patients() {
        assert_eq!(messages("Każdy klient jest ważny.").len(), 1);
        assert!(messages("Każdy pacjent jest ważny. Klientela? Nie.").is_empty());
    }

    #[test]
    fn tax_numbers_are_checked() {
        assert!(valid_nip("1234563218"));
        assert!(!valid_nip("1234563219"));
        assert!(valid_regon("123456785"));
        assert!(!valid_regon("123456786"));
    }
}
