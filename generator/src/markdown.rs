//! Markdown to HTML with pulldown-cmark, Polish typography, and link extraction.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag};
use std::sync::OnceLock;

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES
}

/// One-letter Polish words that must not end a line ("w domu", "z tobą", "i", "o", "a", "u").
fn is_orphan(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(
        (chars.next(), chars.next()),
        (
            Some('a' | 'i' | 'o' | 'u' | 'w' | 'z' | 'A' | 'I' | 'O' | 'U' | 'W' | 'Z'),
            None
        )
    )
}

/// Binds one-letter words to the word after them with a non-breaking space.
pub fn bind_orphans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_start = 0;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            out.push(if is_orphan(&text[word_start..i]) {
                '\u{a0}'
            } else {
                ' '
            });
            word_start = i + 1;
        } else {
            out.push(c);
            if c.is_whitespace() {
                word_start = i + c.len_utf8();
            }
        }
    }
    out
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static SANITIZER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    SANITIZER.get_or_init(|| {
        let mut builder = ammonia::Builder::default();
        builder.link_rel(None);
        builder
    })
}

/// Renders Markdown to HTML, sanitised: raw HTML in Markdown (from an editor's commit or the
/// admin panel) can format text but never run a script on the public site.
pub fn to_html(markdown: &str) -> String {
    let events = Parser::new_ext(markdown, options()).map(|event| match event {
        Event::Text(text) => Event::Text(CowStr::from(bind_orphans(&text))),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    sanitizer().clean(&out).to_string()
}

/// A link or image target with its byte offset in the Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub url: String,
    pub offset: usize,
    pub is_image: bool,
}

pub fn targets(markdown: &str) -> Vec<Target> {
    Parser::new_ext(markdown, options())
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(Target {
                url: dest_url.to_string(),
                offset: range.start,
                is_image: false,
            }),
            Event::Start(Tag::Image { dest_url, .. }) => Some(Target {
                url: dest_url.to_string(),
                offset: range.start,
                is_image: true,
            }),
            _ => None,
        })
        .collect()
}

/// The first paragraph's plain text, for excerpts where none is written.
pub fn plain_text(markdown: &str) -> String {
    Parser::new_ext(markdown, options())
        .filter_map(|event| match event {
            Event::Text(t) | Event::Code(t) => Some(t.to_string()),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => Some(" ".to_string()),
            _ => None,
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_headings_and_lists() {
        let html = to_html("## Jak wygląda sesja\n\n- rozmowa\n- plan\n");
        assert!(html.contains("<h2>Jak wygląda sesja</h2>"), "{html}");
        assert!(html.contains("<li>rozmowa</li>"), "{html}");
    }

    #[test]
    fn scripts_and_handlers_never_reach_the_page() {
        let html = to_html("Tekst <script>alert(1)</script> i <img src=x onerror=\"alert(2)\"> oraz [link](javascript:alert(3)) <b>pogrubienie</b>");
        assert!(
            !html.contains("<script") && !html.contains("onerror") && !html.contains("javascript:"),
            "{html}"
        );
        assert!(
            html.contains("<b>pogrubienie</b>"),
            "harmless formatting stays: {html}"
        );
    }

    #[test]
    fn one_letter_words_stick_to_the_next_word() {
        assert_eq!(
            bind_orphans("Spotkanie w gabinecie i online"),
            "Spotkanie w\u{a0}gabinecie i\u{a0}online"
        );
        assert_eq!(bind_orphans("Zobacz, a potem"), "Zobacz, a\u{a0}potem");
        assert_eq!(bind_orphans("ćwiczenie"), "ćwiczenie");
    }

    #[test]
    fn finds_links_and_images_with_offsets() {
        let md = "Tekst [usługi](/uslugi).\n\n![obraz](/images/a.svg)\n";
        let found = targets(md);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].url, "/uslugi");
        assert_eq!(found[0].offset, 6);
        assert!(found[1].is_image);
    }
}
