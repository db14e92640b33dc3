//! The crisis lines, in one place: the header's strip, the phone menu, the call control's
//! list and /m1 show them from [`list`], and `make check` refuses a text that writes one of
//! them without a link that dials it ([`unlinked`]): whoever reads a number in distress can
//! tap it. Their hours come from the operators' public material (content/STYLE.md, 'Pomoc w
//! kryzysie', names the sources).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

use crate::problem::StyleProblem;

/// A free line for people in crisis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Line {
    /// As written in texts: "116 123".
    pub number: &'static str,
    /// What a link dials: "tel:116123".
    pub tel: &'static str,
    /// Who answers and for whom, in a phrase: "telefon zaufania dla dorosłych…".
    pub name: &'static str,
    /// The few words the header's strip shows beside the number.
    pub short: &'static str,
    /// When it answers ("całodobowo").
    pub hours: &'static str,
    /// Where one can write instead of calling.
    pub chat: Option<&'static str>,
    /// A line for children and young people.
    pub youth: bool,
    /// In the call control's list of numbers to call now.
    pub quick: bool,
}

const LINES: [Line; 6] = [
    Line {
        number: "112",
        tel: "tel:112",
        name: "numer alarmowy, gdy zagrożone jest życie lub zdrowie",
        short: "numer alarmowy",
        hours: "całodobowo",
        chat: None,
        youth: false,
        quick: true,
    },
    Line {
        number: "800 70 2222",
        tel: "tel:800702222",
        name: "Centrum Wsparcia dla dorosłych w kryzysie psychicznym",
        short: "Centrum Wsparcia",
        hours: "całodobowo",
        chat: None,
        youth: false,
        quick: true,
    },
    Line {
        number: "116 123",
        tel: "tel:116123",
        name: "telefon zaufania dla dorosłych w kryzysie emocjonalnym",
        short: "telefon zaufania",
        hours: "całodobowo",
        chat: None,
        youth: false,
        quick: true,
    },
    Line {
        number: "116 111",
        tel: "tel:116111",
        name: "telefon zaufania dla dzieci i młodzieży",
        short: "telefon dla młodzieży",
        hours: "całodobowo",
        chat: Some("https://116111.pl"),
        youth: true,
        quick: true,
    },
    Line {
        number: "800 120 002",
        tel: "tel:800120002",
        name: "Niebieska Linia, pomoc dla osób doznających przemocy domowej",
        short: "Niebieska Linia",
        hours: "całodobowo",
        chat: None,
        youth: false,
        quick: false,
    },
    Line {
        number: "800 12 12 12",
        tel: "tel:800121212",
        name: "Dziecięcy Telefon Zaufania Rzecznika Praw Dziecka",
        short: "telefon Rzecznika Praw Dziecka",
        hours: "całodobowo",
        chat: None,
        youth: true,
        quick: false,
    },
];

/// Every crisis line the site knows, 112 first.
pub fn list() -> &'static [Line] {
    &LINES
}

/// The line whose number is `number` as written ("116 123").
pub fn line(number: &str) -> Option<&'static Line> {
    LINES.iter().find(|l| l.number == number)
}

/// Pages written for young people: their strip offers the young people's line instead of
/// the adults' one.
pub const YOUTH_ROUTES: [&str; 2] = [
    "/uslugi/wsparcie-dla-mlodziezy",
    "/standardy-ochrony-maloletnich",
];

/// What the strip shows: the emergency number and the line for the page's readers.
pub fn strip(youth: bool) -> [&'static Line; 2] {
    let wanted = if youth { "116 111" } else { "116 123" };
    let pick = |n: &str| LINES.iter().find(|l| l.number == n).unwrap_or(&LINES[0]);
    [pick("112"), pick(wanted)]
}

/// The lines as the templates read them (`crisis` in every page's context).
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub all: Vec<Line>,
    pub quick: Vec<Line>,
    pub strip: Vec<Line>,
    pub strip_youth: Vec<Line>,
    pub youth_routes: Vec<&'static str>,
}

pub fn view() -> View {
    View {
        all: LINES.to_vec(),
        quick: LINES.iter().filter(|l| l.quick).copied().collect(),
        strip: strip(false).into_iter().copied().collect(),
        strip_youth: strip(true).into_iter().copied().collect(),
        youth_routes: YOUTH_ROUTES.to_vec(),
    }
}

fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

/// Any crisis number of [`LINES`], its groups separated by a space, a no-break space, a dash
/// or nothing; the longest first, so that "800 12 12 12" is not read as something shorter.
fn numbers() -> &'static Regex {
    static NUMBERS: OnceLock<Regex> = OnceLock::new();
    NUMBERS.get_or_init(|| {
        crate::pattern::constant_regex(concat!(
            r"800[ \x{A0}-]?12[ \x{A0}-]?12[ \x{A0}-]?12|800[ \x{A0}-]?120[ \x{A0}-]?002",
            r"|800[ \x{A0}-]?70[ \x{A0}-]?2222|116[ \x{A0}-]?123|116[ \x{A0}-]?111|112",
        ))
    })
}

/// The crisis numbers written in `text`: their byte offsets and digits, those standing
/// between other digits ("2112", "112 345") left out.
fn found_in(text: &str) -> Vec<(usize, String)> {
    numbers()
        .find_iter(text)
        .filter(|m| {
            let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
            let space = |c: Option<char>| matches!(c, Some(' ' | '\u{a0}'));
            let mut before = text[..m.start()].chars().rev();
            let mut after = text[m.end()..].chars();
            let (b1, b2) = (before.next(), before.next());
            let (a1, a2) = (after.next(), after.next());
            // Part of a longer number (digits touch it, or follow a single space), or of an
            // address ("116111.pl").
            let address = a1 == Some('.') && a2.is_some_and(|c| c.is_alphabetic())
                || matches!(b1, Some('/' | '.' | '@'));
            !(digit(b1)
                || digit(a1)
                || (space(b1) && digit(b2))
                || (space(a1) && digit(a2))
                || address)
        })
        .map(|m| (m.start(), digits(m.as_str())))
        .collect()
}

/// The crisis numbers of a Markdown text that a tap would not dial: written outside a
/// `tel:` link, or inside one that dials another number. Each with its byte offset.
pub(crate) fn unlinked(markdown: &str) -> Vec<(usize, StyleProblem)> {
    let mut out = Vec::new();
    let mut link: Option<String> = None;
    let mut run = String::new();
    let mut run_at = 0;
    let mut flush = |run: &mut String, at: usize, link: &Option<String>| {
        for (offset, number) in found_in(run) {
            let written = LINES
                .iter()
                .find(|l| digits(l.number) == number)
                .map_or(number.clone(), |l| l.number.to_string());
            let problem = match link.as_deref().and_then(|d| d.strip_prefix("tel:")) {
                Some(dialed) if digits(dialed) == number => continue,
                Some(dialed) => StyleProblem::CrisisNumberDialsOther {
                    number: written,
                    dialed: dialed.to_string(),
                },
                None => StyleProblem::CrisisNumberNotLinked { number: written },
            };
            out.push((at + offset.min(run.len()), problem));
        }
        run.clear();
    };
    let parser = Parser::new_ext(markdown, crate::markdown::options()).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Text(t) | Event::Code(t) => {
                if run.is_empty() {
                    run_at = range.start;
                }
                run.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => run.push(' '),
            Event::Start(Tag::Link { dest_url, .. }) => {
                flush(&mut run, run_at, &link);
                link = Some(dest_url.to_string());
            }
            Event::End(TagEnd::Link) => {
                flush(&mut run, run_at, &link);
                link = None;
            }
            _ => flush(&mut run, run_at, &link),
        }
    }
    flush(&mut run, run_at, &link);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<String> {
        unlinked(text)
            .into_iter()
            .map(|(_, p)| crate::Problem::from(p).english())
            .collect()
    }

    #[test]
    fn every_line_dials_its_own_number() {
        for l in list() {
            assert_eq!(
                Some(digits(l.number).as_str()),
                l.tel.strip_prefix("tel:"),
                "{}",
                l.number
            );
            assert!(!l.hours.is_empty());
        }
        assert_eq!(list()[0].number, "112");
        for l in list() {
            let found = found_in(&format!("Numer: {}.", l.number));
            assert_eq!(
                found,
                [(7, digits(l.number))],
                "the pattern knows {}",
                l.number
            );
        }
        assert_eq!(line("116 123").map(|l| l.hours), Some("całodobowo"));
        assert_eq!(strip(true)[1].number, "116 111");
        assert_eq!(strip(false)[1].number, "116 123");
    }

    #[test]
    fn a_number_written_as_a_link_that_dials_it_passes() {
        for text in [
            "Zadzwoń pod [112](tel:112).",
            "Numer **[800 70 2222](tel:800702222)** odbiera całą dobę.",
            "Dzwoń: [**116\u{a0}123**](tel:116123) albo [116 111](tel:116111).",
            "Linia [800 12 12 12](tel:800121212).",
            "Cena 1120 zł, rok 2112, numer 58 112 34 56, kod 800 702 222 1.",
            "Czat: [116111.pl](https://116111.pl), strona https://116111.pl/czat.",
        ] {
            assert_eq!(problems(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn a_bare_or_misdialled_number_is_refused_where_it_stands() {
        let text = "Wstęp.\n\nZadzwoń pod 116 123 albo **800 70 2222**.\n\n[112](/pilna-pomoc), [116 111](tel:116123), 116\u{a0}111.";
        let found = unlinked(text);
        let english: Vec<String> = found
            .iter()
            .map(|(_, p)| crate::Problem::from(p.clone()).english())
            .collect();
        assert_eq!(english.len(), 5, "{english:?}");
        assert!(english[0].contains("'116 123'"), "{english:?}");
        assert!(english[0].contains("[116 123](tel:116123)"), "{english:?}");
        assert!(english[2].contains("'112'"), "{english:?}");
        assert!(english[3].contains("dials 116123"), "{english:?}");
        assert!(english[4].contains("'116 111'"), "{english:?}");
        assert_eq!(&text[found[0].0..found[0].0 + 7], "116 123");
    }
}
