//! What a section may hold, checked in one pass over its lines before anything parses it:
//! at most [`MAX_SECTION_BYTES`], and quotes, lists and HTML elements nested at most
//! [`MAX_NESTING`] deep. The sanitiser's work grows with the square of the nesting — one
//! megabyte of `>` kept a core busy for minutes — while real text nests a few levels: past
//! these limits a section is refused before pulldown-cmark or ammonia see it.

use crate::sections;

/// The length a page's description (what search engines show under its title) should have,
/// in characters: the panel says how far a description is from it.
pub const DESCRIPTION_MIN: usize = 120;
pub const DESCRIPTION_MAX: usize = 160;

/// The longest description of the practice in the footer.
pub const SITE_DESCRIPTION_MAX: usize = 300;
/// The most profiles in social networks the footer lists.
pub const SOCIAL_MAX: usize = 6;
/// The longest name of such a profile ('Facebook').
pub const SOCIAL_NAME_MAX: usize = 40;

/// The longest notice: one line of a banner.
pub const NOTICE_MAX_CHARS: usize = 200;

/// The largest picture the site takes: an upload, or a file of `content/images/` (what a
/// phone's photograph weighs, three times over).
pub const MAX_IMAGE_BYTES: usize = 15 * 1024 * 1024;
/// The largest text file of `content/` (a document, `site.yaml`, the price list): eight
/// sections of the longest size.
pub const MAX_TEXT_BYTES: usize = 8 * MAX_SECTION_BYTES;

/// The longest section: ten times the longest text of the site (the privacy policy).
pub const MAX_SECTION_BYTES: usize = 128 * 1024;
/// The deepest nesting of quotes (`>`), lists and HTML elements in a section.
pub const MAX_NESTING: usize = 16;

/// HTML elements that never hold others, or that the next one of their kind closes.
const NOT_NESTING: [&str; 22] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "p", "li", "dt", "dd", "option", "tr", "td", "th", "param",
];

/// What a section holds too much of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Excess {
    /// More than [`MAX_SECTION_BYTES`].
    Size,
    /// More than [`MAX_NESTING`] levels of quotes, lists or HTML elements at one line.
    Nesting,
}

/// Where a text first holds too much: the line (0-based) and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub line: usize,
    pub excess: Excess,
}

/// Counts the open HTML elements of a section, line by line.
#[derive(Default)]
struct OpenElements(usize);

impl OpenElements {
    fn feed(&mut self, line: &str) {
        let bytes = line.as_bytes();
        let mut i = 0;
        while let Some(at) = bytes[i..].iter().position(|&b| b == b'<') {
            i += at + 1;
            match bytes.get(i) {
                Some(b'/') => self.0 = self.0.saturating_sub(1),
                Some(c) if c.is_ascii_alphabetic() => {
                    let end = bytes[i..]
                        .iter()
                        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'-'))
                        .map_or(bytes.len(), |n| i + n);
                    let name = line[i..end].to_ascii_lowercase();
                    let close = bytes[end..].iter().position(|&b| b == b'>');
                    let self_closing = close.is_some_and(|n| n > 0 && bytes[end + n - 1] == b'/');
                    if !self_closing && !NOT_NESTING.contains(&name.as_str()) {
                        self.0 += 1;
                    }
                    i = end;
                }
                _ => {}
            }
        }
    }
}

/// A list item's marker at the start of `rest`: `-`, `+`, `*` or 1–9 digits with `.` or
/// `)`, followed by a space, a tab or the end of the line. Its length.
fn list_marker(rest: &[u8]) -> Option<usize> {
    let blank = |b: Option<&u8>| matches!(b, None | Some(b' ' | b'\t' | b'\n' | b'\r'));
    match rest.first()? {
        b'-' | b'+' | b'*' if blank(rest.get(1)) => Some(1),
        b'0'..=b'9' => {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            let ordered = digits <= 9
                && matches!(rest.get(digits), Some(b'.' | b')'))
                && blank(rest.get(digits + 1));
            ordered.then_some(digits + 1)
        }
        _ => None,
    }
}

/// The quotes and list items a line opens (its containers), counting the indentation before
/// a list item as the levels of lists it sits in; stops counting past the limit.
fn containers(line: &str) -> usize {
    let bytes = line.as_bytes();
    let (mut i, mut depth) = (0, 0);
    while depth <= MAX_NESTING {
        let mut indent = 0;
        while let Some(b' ' | b'\t') = bytes.get(i) {
            indent += if bytes[i] == b'\t' { 4 } else { 1 };
            i += 1;
        }
        if bytes.get(i) == Some(&b'>') {
            depth += 1;
            i += 1;
        } else if let Some(len) = list_marker(&bytes[i..]) {
            depth += 1 + indent / 2;
            i += len;
        } else {
            break;
        }
    }
    depth
}

/// Checks the sections of a document's body, where each marker line starts a section.
pub(crate) fn check_body(body: &str) -> Result<(), Found> {
    let (mut start, mut bytes, mut open) = (0, 0, OpenElements::default());
    for (i, line) in body.split_inclusive('\n').enumerate() {
        if sections::is_marker(line) {
            (start, bytes, open) = (i + 1, 0, OpenElements::default());
            continue;
        }
        bytes += line.len();
        if bytes > MAX_SECTION_BYTES {
            return Err(Found {
                line: start,
                excess: Excess::Size,
            });
        }
        open.feed(line);
        let depth = containers(line) + open.0;
        if depth > MAX_NESTING {
            return Err(Found {
                line: i,
                excess: Excess::Nesting,
            });
        }
    }
    Ok(())
}

/// Checks one section's text (from the panel).
pub fn check_section(text: &str) -> Result<(), Found> {
    if text.len() > MAX_SECTION_BYTES {
        return Err(Found {
            line: 0,
            excess: Excess::Size,
        });
    }
    check_body(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nesting(text: &str) -> Option<usize> {
        match check_body(text) {
            Err(Found {
                excess: Excess::Nesting,
                line,
            }) => Some(line),
            _ => None,
        }
    }

    #[test]
    fn real_text_passes() {
        for text in [
            "## Tytuł\n\nAkapit z <b>pogrubieniem</b> i <br> przerwą.\n\n- punkt\n  - podpunkt\n    - niżej\n\n> cytat\n> > w cytacie\n",
            "1. pierwszy\n2) drugi\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            "<p>akapit<p>drugi<ul><li>a<li>b</ul>\n",
            "Wizyta trwa <50 minut, a koszt to 190 zł.\n",
            "---\n***\n- - -\n",
            "        kod wcięty głęboko, bez znaczników\n",
        ] {
            assert_eq!(check_body(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn deep_quotes_lists_and_elements_are_found_at_their_line() {
        let quotes = format!("Wstęp\n\n{}x\n", ">".repeat(100_000));
        let found = check_body(&quotes).expect_err("too deep");
        assert_eq!(found.line, 2);
        assert_eq!(found.excess, Excess::Nesting);
        assert!(nesting(&format!("{}x\n", "> ".repeat(17))).is_some());
        assert!(nesting(&format!("{}x\n", "> ".repeat(16))).is_none());
        assert!(nesting(&format!("{}x\n", "- ".repeat(17))).is_some());
        let indented: String = (0..17)
            .map(|i| format!("{}- x\n", "  ".repeat(i)))
            .collect();
        assert!(nesting(&indented).is_some());
        assert!(nesting(&"<div>".repeat(17)).is_some());
        assert!(nesting(&"<div></div>".repeat(100)).is_none());
        assert!(nesting(&"<img src=x><br/><p>".repeat(100)).is_none());
    }

    #[test]
    fn a_long_section_is_found_at_its_start_and_each_section_counts_alone() {
        let half = "Zwykłe zdanie o terapii.\n".repeat(MAX_SECTION_BYTES / 25 / 2 + 1);
        let two = format!("{half}<!-- section: text -->\n{half}");
        assert_eq!(check_body(&two), Ok(()));
        let long = format!("Wstęp\n<!-- section: text -->\n{half}{half}");
        assert_eq!(
            check_body(&long),
            Err(Found {
                line: 2,
                excess: Excess::Size
            })
        );
        assert_eq!(
            check_section(&"x".repeat(MAX_SECTION_BYTES + 1)),
            Err(Found {
                line: 0,
                excess: Excess::Size
            })
        );
        let found = Found {
            line: 4,
            excess: Excess::Nesting,
        };
        let polish = crate::problem::Problem::excess_in_section(&found, 2).sentence();
        assert!(polish.starts_with("Sekcja 2, wiersz 5:"), "{polish}");
    }
}
