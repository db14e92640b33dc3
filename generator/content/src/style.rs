//! The house style of `content/STYLE.md`, where a machine can check it: units written with
//! a space and in złoty, questions ending with '?', the adult crisis line beside the others,
//! the Blue Line where violence is mentioned, every crisis number a link that dials it
//! (`crate::crisis`), the address taken from `site.yaml`, one word
//! for the people the practice helps and one for those who help them ('psycholog', never
//! 'terapeuta' outside quotation marks), and the minors' protection standards linked from
//! the footer.

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

fn regex(cell: &'static OnceLock<Regex>, pattern: &'static str) -> &'static Regex {
    cell.get_or_init(|| crate::pattern::constant_regex(pattern))
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

/// The byte ranges of `text` inside quotation marks: „…” or “…” (Polish and English), and
/// "…" on one line. A quoted word is a name or a quotation, not how we call ourselves.
fn quoted(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (at, c) in text.char_indices() {
        match (open, c) {
            (None, '„' | '“') => open = Some((at, '”')),
            (None, '"') => open = Some((at, '"')),
            (Some((start, close)), c) if c == close => {
                spans.push(start..at);
                open = None;
            }
            // A straight quote left open does not run past its line.
            (Some((_, '"')), '\n') => open = None,
            _ => {}
        }
    }
    spans
}

/// 'terapeuta' (and 'terapeutka') in any case, not 'psychoterapeuta' nor 'terapeutyczny'.
fn one_word_for_ourselves(text: &str, out: &mut Vec<Found>) {
    static THERAPIST: OnceLock<Regex> = OnceLock::new();
    let therapist = regex(
        &THERAPIST,
        r"(?i)\bterapeu(?:t(?:a|y|ę|ą|o|ów|om|ami|ach|ce|ek|k(?:a|i|ę|ą|o|om|ami|ach))|cie|ci)\b",
    );
    let mut found = therapist.find_iter(text).peekable();
    if found.peek().is_none() {
        return;
    }
    let spans = quoted(text);
    for m in found.filter(|m| !spans.iter().any(|s| s.contains(&m.start()))) {
        out.push(problem(
            m.start(),
            StyleProblem::Therapist {
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
    for (offset, found) in crate::crisis::unlinked(text) {
        out.push(problem(offset, found));
    }
    address(text, site, &mut out);
    one_word_for_patients(text, &mut out);
    one_word_for_ourselves(text, &mut out);
    out
}

/// The route of the minors' protection standards (STYLE.md): a page of its own, which the
/// footer of every page links.
pub const MINORS_ROUTE: &str = "/standardy-ochrony-maloletnich";

/// The footer's template, under `templates/`.
pub const FOOTER_TEMPLATE: &str = "partials/footer.html";

/// The problems of the minors' standards, each at a 1-based line of the footer template:
/// the footer (`None`: there is none) does not link [`MINORS_ROUTE`], or it does but the
/// content has no such page (`has_page`).
pub(crate) fn minors_standards(has_page: bool, footer: Option<&str>) -> Vec<(usize, StyleProblem)> {
    let route = MINORS_ROUTE.to_string();
    let footer = footer.unwrap_or("");
    let line_of = |needle: &str| {
        footer
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
    };
    let link = line_of(&format!("href=\"{MINORS_ROUTE}\""))
        .or_else(|| line_of(&format!("href='{MINORS_ROUTE}'")));
    let mut out = Vec::new();
    match link {
        None => {
            let line = line_of("footer-docs").unwrap_or(1);
            out.push((
                line,
                StyleProblem::MinorsFooter {
                    route: route.clone(),
                },
            ));
        }
        Some(line) if !has_page => out.push((line, StyleProblem::MinorsPage { route })),
        Some(_) => {}
    }
    out
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
        one_word_for_ourselves(text, &mut out);
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
    fn we_are_psychologists_not_therapists_outside_quotation_marks() {
        for text in [
            "Terapeuta pomaga parze.",
            "Porozmawiaj z terapeutą.",
            "Zapytaj terapeutkę o nurt.",
            "Wielu terapeutów tak pracuje.",
            "Na pierwszym spotkaniu terapeuci słuchają.",
            "Powiedz o tym terapeucie.",
        ] {
            assert_eq!(messages(text).len(), 1, "{text}");
        }
        assert!(messages(
            "Psycholog pomaga parze. Psychoterapeuta ma certyfikat, przymierze terapeutyczne."
        )
        .is_empty());
        assert!(
            messages("Uczy się być „terapeutą dla siebie”, a \"Terapeuta roku\" to nagroda.")
                .is_empty(),
            "quoted names and quotations stay"
        );
        let found = messages("„Cytat” i terapeuta.\n\"Niezamknięty\nterapeuta");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("'terapeuta'"), "{found:?}");
    }

    #[test]
    fn the_footer_links_the_minors_standards_and_the_page_exists() {
        let footer = "<nav aria-labelledby=\"footer-docs\">\n<ul>\n<li><a href=\"/regulamin\">Regulamin</a></li>\n</ul>";
        assert_eq!(
            minors_standards(true, Some(footer)),
            vec![(
                1,
                StyleProblem::MinorsFooter {
                    route: MINORS_ROUTE.into()
                }
            )]
        );
        assert_eq!(minors_standards(true, None).len(), 1, "no footer at all");
        let linked = footer.replace(
            "</ul>",
            "<li><a href=\"/standardy-ochrony-maloletnich\">Standardy</a></li>\n</ul>",
        );
        assert!(minors_standards(true, Some(&linked)).is_empty());
        assert_eq!(
            minors_standards(false, Some(&linked)),
            vec![(
                4,
                StyleProblem::MinorsPage {
                    route: MINORS_ROUTE.into()
                }
            )],
            "a link to a page that is gone, at the link's line"
        );
    }
}
