//! A document body is a list of sections `{type, content}`.
//!
//! A section starts with a marker line `<!-- section: TYPE -->`; a body without markers
//! is one section of type `text`. Parsing keeps the exact whitespace around each section
//! so that writing back unchanged sections gives a byte-identical body.

use serde::{Deserialize, Serialize};

use crate::shared_text::SharedText;

pub const DEFAULT_TYPE: &str = "text";

/// A type of section the templates know, and how the owner picks it: its Polish name and
/// what it is for. Any other type renders as `text`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SectionType {
    #[serde(rename = "type")]
    pub key: &'static str,
    pub name: &'static str,
    pub hint: &'static str,
}

/// The types of section the templates know. A `faq` section is also described to search
/// engines as a `FAQPage`.
pub const TYPES: [SectionType; 3] = [
    SectionType {
        key: DEFAULT_TYPE,
        name: "Tekst",
        hint: "Zwykły tekst strony: akapity, śródtytuły, listy.",
    },
    SectionType {
        key: "callout",
        name: "Ramka wyróżniona",
        hint: "Tekst w wyróżnionej ramce, na przykład numery telefonów pomocy w kryzysie.",
    },
    SectionType {
        key: "faq",
        name: "Pytania i odpowiedzi",
        hint: "Każde pytanie pogrubione na początku akapitu albo jako śródtytuł ###, pod nim odpowiedź. Wyszukiwarki pokazują je jako FAQ.",
    },
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Section {
    #[serde(rename = "type", default = "default_type")]
    #[ts(optional = false)]
    pub kind: String,
    // A stretch of its document's body, shared rather than copied.
    #[serde(default)]
    #[ts(type = "string")]
    pub content: SharedText,
}

fn default_type() -> String {
    DEFAULT_TYPE.to_string()
}

/// How one section was laid out in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layout {
    /// The exact marker line with its newline, or `None` for an unmarked section.
    marker: Option<String>,
    leading: String,
    trailing: String,
}

/// A parsed body: its sections and the whitespace needed to write them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub sections: Vec<Section>,
    preamble: String,
    layout: Vec<Layout>,
}

/// Reads the type out of a marker line, if the line is one.
fn marker_type(line: &str) -> Option<&str> {
    let inner = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim()
        .strip_prefix("section:")?
        .trim();
    crate::kind::is_slug(inner).then_some(inner)
}

/// Whether `line` starts a section.
pub(crate) fn is_marker(line: &str) -> bool {
    marker_type(line).is_some()
}

/// A chunk's leading line breaks, its content and its trailing whitespace.
fn split_whitespace(chunk: &str) -> (&str, &str, &str) {
    let start = chunk.len() - chunk.trim_start_matches(['\n', '\r']).len();
    let rest = &chunk[start..];
    let content = rest.trim_end();
    (&chunk[..start], content, &rest[content.len()..])
}

/// Cuts the body into (marker line, chunk) pairs; the first pair may have no marker.
fn chunks(body: &str) -> Vec<(Option<&str>, &str)> {
    let mut out = Vec::new();
    let mut marker: Option<&str> = None;
    let mut chunk_start = 0;
    let mut offset = 0;
    while offset < body.len() {
        let end = body[offset..]
            .find('\n')
            .map_or(body.len(), |i| offset + i + 1);
        if marker_type(&body[offset..end]).is_some() {
            out.push((marker, &body[chunk_start..offset]));
            marker = Some(&body[offset..end]);
            chunk_start = end;
        }
        offset = end;
    }
    out.push((marker, &body[chunk_start..]));
    out
}

pub fn parse(body: &str) -> Body {
    parse_shared(&SharedText::from(body))
}

/// [`parse`] of a body whose sections share its text instead of copying it.
pub fn parse_shared(shared: &SharedText) -> Body {
    let body = shared.as_str();
    let mut sections = Vec::new();
    let mut layout = Vec::new();
    let mut preamble = String::new();
    let all = chunks(body);
    let has_markers = all.len() > 1;
    for (marker, chunk) in all {
        if marker.is_none() && has_markers && chunk.trim().is_empty() {
            preamble = chunk.to_string();
            continue;
        }
        let (leading, content, trailing) = split_whitespace(chunk);
        let kind = marker.and_then(marker_type).unwrap_or(DEFAULT_TYPE);
        sections.push(Section {
            kind: kind.to_string(),
            content: shared.stretch(content),
        });
        layout.push(Layout {
            marker: marker.map(str::to_string),
            leading: leading.to_string(),
            trailing: trailing.to_string(),
        });
    }
    Body {
        sections,
        preamble,
        layout,
    }
}

impl Body {
    /// Writes `sections` back in the layout of this body where they line up with it.
    pub fn write(&self, sections: &[Section]) -> String {
        let mut out = self.preamble.clone();
        let last = sections.len().saturating_sub(1);
        for (i, section) in sections.iter().enumerate() {
            let same = self.layout.get(i).filter(|l| match &l.marker {
                Some(m) => marker_type(m) == Some(section.kind.as_str()),
                None => i == 0 && section.kind == DEFAULT_TYPE,
            });
            let content = section.content.trim_end();
            match same {
                Some(l) => {
                    out.push_str(l.marker.as_deref().unwrap_or(""));
                    out.push_str(&l.leading);
                    out.push_str(content);
                    out.push_str(&l.trailing);
                }
                None => {
                    out.push_str(&format!("<!-- section: {} -->\n", section.kind));
                    out.push_str(content);
                    out.push_str(if i == last { "\n" } else { "\n\n" });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(content: &str) -> Section {
        Section {
            kind: "text".into(),
            content: content.into(),
        }
    }

    #[test]
    fn body_without_markers_is_one_text_section() {
        let body = parse("\nHello *world*.\n\nSecond paragraph.\n");
        assert_eq!(
            body.sections,
            vec![text("Hello *world*.\n\nSecond paragraph.")]
        );
    }

    #[test]
    fn markers_start_sections_of_their_type() {
        let body = parse("<!-- section: text -->\nA\n\n<!-- section: callout -->\nB\n");
        assert_eq!(body.sections.len(), 2);
        assert_eq!(body.sections[1].kind, "callout");
        assert_eq!(body.sections[1].content, "B");
    }

    #[test]
    fn unchanged_sections_round_trip_byte_for_byte() {
        for src in [
            "Plain body\n",
            "\n\n<!-- section: text -->\n\nA  \n\n\n<!--   section: callout -->\nB",
            "Intro text\n<!-- section: callout -->\nB\n\n",
            "",
        ] {
            let body = parse(src);
            assert_eq!(body.write(&body.sections), src, "source {src:?}");
        }
    }

    #[test]
    fn added_section_gets_a_marker() {
        let body = parse("<!-- section: text -->\nA\n");
        let mut sections = body.sections.clone();
        sections.push(text("B"));
        assert_eq!(
            body.write(&sections),
            "<!-- section: text -->\nA\n<!-- section: text -->\nB\n"
        );
    }

    #[test]
    fn invalid_marker_type_is_plain_text() {
        let body = parse("<!-- section: Bad Type -->\nA\n");
        assert_eq!(body.sections.len(), 1);
        assert!(body.sections[0].content.starts_with("<!--"));
    }
}
