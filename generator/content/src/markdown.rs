//! Markdown as the content model reads it, without rendering it: the targets of its links and
//! images (with where they are), and its plain text. Rendering to HTML is the site's; both
//! parse with [`options`], so an offset found here is an offset there.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The Markdown extensions the site uses: tables, strikethrough, heading attributes.
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES
}

/// A link or image target with its byte offset in the Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub url: String,
    pub offset: usize,
    pub is_image: bool,
    /// An image's alt text (the words between its brackets); empty for a link.
    pub alt: String,
}

pub fn targets(markdown: &str) -> Vec<Target> {
    let mut found: Vec<Target> = Vec::new();
    let mut in_image = false;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => found.push(Target {
                url: dest_url.to_string(),
                offset: range.start,
                is_image: false,
                alt: String::new(),
            }),
            Event::Start(Tag::Image { dest_url, .. }) => {
                in_image = true;
                found.push(Target {
                    url: dest_url.to_string(),
                    offset: range.start,
                    is_image: true,
                    alt: String::new(),
                });
            }
            Event::End(TagEnd::Image) => in_image = false,
            Event::Text(t) | Event::Code(t) if in_image => {
                if let Some(image) = found.last_mut() {
                    image.alt.push_str(&t);
                }
            }
            _ => {}
        }
    }
    found
}

/// Every link's words and address, in order (`[116 123](tel:116123)` is ("116 123", "tel:116123")).
pub fn links(markdown: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut open = false;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                open = true;
                found.push((String::new(), dest_url.to_string()));
            }
            Event::End(TagEnd::Link) => open = false,
            Event::Text(t) | Event::Code(t) if open => {
                if let Some((words, _)) = found.last_mut() {
                    words.push_str(&t);
                }
            }
            _ => {}
        }
    }
    found
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
    fn finds_links_and_images_with_offsets() {
        let md = "Tekst [usługi](/uslugi).\n\n![obraz](/images/a.svg)\n";
        let found = targets(md);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].url, "/uslugi");
        assert_eq!(found[0].offset, 6);
        assert!(found[1].is_image);
        assert_eq!(found[1].alt, "obraz");
        assert_eq!(found[0].alt, "");
    }
}
