//! Markdown to HTML with pulldown-cmark, and Polish typography. What the content model reads
//! from Markdown (its links and images, its plain text) is `content::markdown`, whose options
//! these are.

use content::markdown::options;
use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Parser, Tag, TagEnd};
use std::sync::OnceLock;

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

/// Units that stay on the line of their number ("190 zł", "50 min", "14 lat").
const UNITS: [&str; 24] = [
    "zł",
    "gr",
    "min",
    "min.",
    "minut",
    "minuty",
    "godz.",
    "godzin",
    "godziny",
    "godzina",
    "h",
    "%",
    "lat",
    "lata",
    "dni",
    "dzień",
    "tygodni",
    "tygodnie",
    "miesięcy",
    "miesiące",
    "km",
    "m",
    "sesji",
    "spotkań",
];

/// A group of digits, as in a phone number or a large number ("+48", "58", "2222").
fn is_digit_group(word: &str) -> bool {
    let word = word.trim_start_matches(['(', '„', '"', '[']);
    let digits = word.strip_prefix('+').unwrap_or(word);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn ends_with_digit(word: &str) -> bool {
    word.chars().next_back().is_some_and(|c| c.is_ascii_digit())
}

/// Whether the space between `before` and `after` must not break a line.
fn binds(before: &str, after: &str) -> bool {
    let word = after.trim_end_matches([',', ';', ':', ')', '!', '?']);
    let is_unit = UNITS.contains(&word) || UNITS.contains(&word.trim_end_matches('.'));
    is_orphan(before)
        || (ends_with_digit(before) && is_unit)
        || (is_digit_group(before) && is_digit_group(word.trim_end_matches('.')))
}

/// Whether the last word of `text` (what follows its last whitespace) can bind to the next
/// one at all: a one-letter word, or one that ends in a digit (a number before its unit, a
/// digit group). Told by the last two characters, without looking for where that word starts:
/// most words cannot bind, and need no more look.
fn may_bind(text: &str) -> bool {
    let mut chars = text.chars();
    match (chars.next_back(), chars.next_back()) {
        (Some(last), _) if last.is_whitespace() => false,
        (Some(last), _) if last.is_ascii_digit() => true,
        (Some(_), None) => true,
        (Some(_), Some(before)) => before.is_whitespace(),
        (None, _) => false,
    }
}

/// Polish typography: one-letter words are bound to the next word, numbers to their units,
/// and the digit groups of a phone number to each other, with non-breaking spaces.
pub fn typeset(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut words = text.split(' ').peekable();
    while let Some(word) = words.next() {
        out.push_str(word);
        let Some(next) = words.peek() else { break };
        // Only the last word before the space counts: "tekst\nw domu" binds "w".
        let bound = may_bind(word) && {
            let last = word.rsplit(char::is_whitespace).next().unwrap_or(word);
            let first = next.split(char::is_whitespace).next().unwrap_or(next);
            binds(last, first)
        };
        out.push(if bound { '\u{a0}' } else { ' ' });
    }
    out
}

/// The sanitiser of every text's HTML. It sees the pictures the generator made for the text's
/// images too (they are put in before it runs), so it allows their elements and attributes.
fn sanitizer() -> &'static ammonia::Builder<'static> {
    static SANITIZER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    SANITIZER.get_or_init(|| {
        let mut builder = ammonia::Builder::default();
        builder.link_rel(None);
        builder.add_tags(["picture", "source"]);
        builder.add_tag_attributes("source", ["type", "srcset", "sizes"]);
        builder.add_tag_attributes(
            "img",
            [
                "srcset",
                "sizes",
                "class",
                "loading",
                "decoding",
                "fetchpriority",
            ],
        );
        builder
    })
}

/// Renders Markdown to HTML, sanitised: raw HTML in Markdown (from an editor's commit or the
/// admin panel) can format text but never run a script on the public site.
pub(crate) fn to_html(markdown: &str) -> String {
    render(markdown, &|_, _| None, false).html
}

/// Marks where an image's own markup goes: a character no text keeps (every U+FFFC of the
/// Markdown is dropped before it is parsed), so the mark is only ever where the image was.
fn placeholder(n: usize) -> String {
    format!("\u{FFFC}{n}\u{FFFC}")
}

/// Like [`to_html`], with each image whose address `image(url, alt)` knows replaced by the
/// markup it returns (made by the generator, so it is not sanitised away).
#[cfg(test)]
pub(crate) fn to_html_with_images(
    markdown: &str,
    image: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    render(markdown, image, false).html
}

/// A section rendered: its HTML and, for a FAQ section, its questions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub html: String,
    pub faq: Vec<FaqItem>,
}

/// Renders Markdown in one pass of the parser: the sanitised HTML (each image whose address
/// `image(url, alt)` knows replaced by the markup it returns, made by the generator, so it is
/// not sanitised away) and, when `faq` is asked for, the questions and answers it holds.
pub(crate) fn render(
    markdown: &str,
    image: &dyn Fn(&str, &str) -> Option<String>,
    faq: bool,
) -> Rendered {
    let stripped: String;
    let markdown = match markdown.contains('\u{FFFC}') {
        true => {
            stripped = markdown.replace('\u{FFFC}', "");
            stripped.as_str()
        }
        false => markdown,
    };
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut pictures: Vec<String> = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    let mut questions = faq.then(Faq::default);
    for event in Parser::new_ext(markdown, options()) {
        if let Some(q) = questions.as_mut() {
            q.feed(&event);
        }
        match (&mut open, event) {
            (
                None,
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }),
            ) => {
                open = Some((events.len(), dest_url.to_string(), String::new()));
                events.push(Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            (Some((_, _, alt)), Event::Text(t) | Event::Code(t)) => {
                alt.push_str(&t);
                events.push(Event::Text(CowStr::from(typeset(&t))));
            }
            (Some(_), Event::End(TagEnd::Image)) => {
                let Some((start, url, alt)) = open.take() else {
                    continue;
                };
                match image(&url, &alt) {
                    Some(markup) => {
                        events.truncate(start);
                        events.push(Event::Text(CowStr::from(placeholder(pictures.len()))));
                        pictures.push(markup);
                    }
                    None => events.push(Event::End(TagEnd::Image)),
                }
            }
            (_, Event::Text(text)) => events.push(Event::Text(CowStr::from(typeset(&text)))),
            (_, other) => events.push(other),
        }
    }
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    // The pictures go in before the sanitiser runs: a mark that raw HTML left inside an
    // attribute (`<div title="` … `![x](a.png)` …) becomes that attribute's escaped text,
    // never markup of its own.
    for (n, markup) in pictures.iter().enumerate() {
        out = out.replacen(&placeholder(n), markup, 1);
    }
    let clean = sanitizer().clean(&out).to_string();
    Rendered {
        html: scrollable_tables(clean),
        faq: questions.map(Faq::finish).unwrap_or_default(),
    }
}

/// A wide table scrolls sideways on a phone; a region that scrolls must be reachable by
/// keyboard, so each table sits in a focusable, labelled scroll box.
fn scrollable_tables(html: String) -> String {
    if !html.contains("<table>") {
        return html;
    }
    html.replace(
        "<table>",
        "<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Tabela (przewijana w poziomie)\"><table>",
    )
    .replace("</table>", "</table></div>")
}

/// One question of a FAQ section and its answer, as plain text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FaqItem {
    pub question: String,
    pub answer: String,
}

/// The questions of a FAQ section, read from its events as they pass: a paragraph that opens
/// with bold text ending in '?', or a third-level heading ending in '?', starts a question;
/// what follows is its answer.
#[derive(Default)]
struct Faq {
    items: Vec<FaqItem>,
    in_question: bool,
    question: String,
    at_paragraph_start: bool,
}

impl Faq {
    fn answer(&mut self, text: &str) {
        if let Some(item) = self.items.last_mut() {
            item.answer.push_str(text);
        }
    }

    fn feed(&mut self, event: &Event<'_>) {
        match event {
            Event::Start(Tag::Paragraph) => self.at_paragraph_start = true,
            Event::Start(Tag::Strong) if self.at_paragraph_start => {
                self.in_question = true;
                self.question.clear();
            }
            Event::Start(Tag::Heading {
                level: HeadingLevel::H3,
                ..
            }) => {
                self.in_question = true;
                self.question.clear();
            }
            Event::End(TagEnd::Strong | TagEnd::Heading(HeadingLevel::H3)) if self.in_question => {
                self.in_question = false;
                let q = self.question.trim().to_string();
                if q.ends_with('?') {
                    self.items.push(FaqItem {
                        question: q,
                        answer: String::new(),
                    });
                } else {
                    self.answer(&q);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                self.at_paragraph_start = false;
                if self.in_question {
                    self.question.push_str(t);
                } else {
                    self.answer(t);
                }
            }
            Event::SoftBreak | Event::HardBreak | Event::End(TagEnd::Paragraph) => {
                self.at_paragraph_start = false;
                self.answer(" ");
            }
            _ => self.at_paragraph_start = false,
        }
    }

    fn finish(mut self) -> Vec<FaqItem> {
        for item in &mut self.items {
            item.answer = item.answer.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        self.items.retain(|i| !i.answer.is_empty());
        self.items
    }
}

/// The questions of a FAQ section (see [`Faq`]).
#[cfg(test)]
fn faq_items(markdown: &str) -> Vec<FaqItem> {
    render(markdown, &|_, _| None, true).faq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_last_word_of_one_letter_or_ending_in_a_digit_may_bind() {
        let cases = [
            ("w", true),
            ("tekst\nw", true),
            ("tekst\n190", true),
            ("+48", true),
            ("słowo", false),
            ("tekst\nab", false),
            ("w\n", false),
            ("", false),
        ];
        for (text, expected) in cases {
            assert_eq!(may_bind(text), expected, "{text:?}");
        }
    }

    #[test]
    fn renders_headings_and_lists() {
        let html = to_html("## Jak wygląda sesja\n\n- rozmowa\n- plan\n");
        assert!(html.contains("<h2>Jak wygląda sesja</h2>"), "{html}");
        assert!(html.contains("<li>rozmowa</li>"), "{html}");
    }

    #[test]
    fn tables_scroll_in_a_box_the_keyboard_reaches() {
        let html = to_html("| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(
            html.starts_with("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\""),
            "{html}"
        );
        assert!(html.trim_end().ends_with("</table></div>"), "{html}");
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
    fn a_picture_never_lands_inside_an_attribute() {
        // The attack: a raw `title` holding the mark of the first picture, and an
        // image named so that its markup, put there, would open an `onfocus` attribute.
        let picture = |_: &str, _: &str| {
            Some("<img src=\"/images/q autofocus tabindex=1 onfocus=alert(document.domain) x.svg\" alt=\"\">".to_string())
        };
        for md in [
            "<a title=\"\u{FFFC}0\u{FFFC}\">x</a>\n\n![x](q.svg)\n",
            "<div title=\"\n\n![x](q.svg)\n\n\">\n",
        ] {
            let html = to_html_with_images(md, &picture);
            let findings = crate::gate::check(&html, &Default::default());
            assert!(
                findings
                    .iter()
                    .all(|f| !matches!(f.found, content::problem::Markup::Handler { .. })),
                "{md:?} gave {html}"
            );
            assert!(!html.contains('\u{FFFC}'), "{html}");
        }
    }

    #[test]
    fn one_letter_words_stick_to_the_next_word() {
        assert_eq!(
            typeset("Spotkanie w gabinecie i online"),
            "Spotkanie w\u{a0}gabinecie i\u{a0}online"
        );
        assert_eq!(typeset("Zobacz, a potem"), "Zobacz, a\u{a0}potem");
        assert_eq!(typeset("ćwiczenie"), "ćwiczenie");
    }

    #[test]
    fn numbers_keep_their_units_and_phone_numbers_stay_whole() {
        assert_eq!(
            typeset("Sesja kosztuje 190 zł i trwa 50 min."),
            "Sesja kosztuje 190\u{a0}zł i\u{a0}trwa 50\u{a0}min."
        );
        assert_eq!(
            typeset("trwa 90–120 minut, dla osób 14–19 lat"),
            "trwa 90–120\u{a0}minut, dla osób 14–19\u{a0}lat"
        );
        assert_eq!(
            typeset("Zadzwoń pod 800 70 2222 lub 116 123."),
            "Zadzwoń pod 800\u{a0}70\u{a0}2222 lub 116\u{a0}123."
        );
        assert_eq!(
            typeset("tel. +48 58 345 21 90"),
            "tel. +48\u{a0}58\u{a0}345\u{a0}21\u{a0}90"
        );
        assert_eq!(
            typeset("rok 2016 minął"),
            "rok 2016 minął",
            "only units bind"
        );
    }

    #[test]
    fn faq_questions_are_bold_openings_or_third_level_headings() {
        let md = "## Najczęstsze pytania\n\n**Czy mogę przyjść z bliską osobą?** Tak, jeśli oboje tego chcecie.\n\nDrugi akapit odpowiedzi.\n\n### Ile to kosztuje?\n\nSpotkanie kosztuje 190 zł.\n\n**Uwaga:** to nie pytanie.\n";
        let items = faq_items(md);
        assert_eq!(items.len(), 2, "{items:?}");
        assert_eq!(items[0].question, "Czy mogę przyjść z bliską osobą?");
        assert_eq!(
            items[0].answer,
            "Tak, jeśli oboje tego chcecie. Drugi akapit odpowiedzi."
        );
        assert_eq!(items[1].question, "Ile to kosztuje?");
        assert!(items[1].answer.starts_with("Spotkanie kosztuje 190 zł."));
        assert!(
            items[1].answer.contains("Uwaga:"),
            "bold text that asks nothing is answer text"
        );
    }

    #[test]
    fn images_the_site_knows_become_its_markup_and_others_stay_images() {
        let md = "Tekst.\n\n![Morze o świcie](morze.jpg)\n\n![Obcy](https://x.pl/a.jpg)\n\nI <b>dalej</b> \u{FFFC}0\u{FFFC}.\n";
        let html = to_html_with_images(md, &|url, alt| {
            (url == "morze.jpg")
                .then(|| format!("<picture><img src=\"/m.jpg\" alt=\"{alt}\"></picture>"))
        });
        assert!(
            html.contains("<p><picture><img src=\"/m.jpg\" alt=\"Morze o świcie\"></picture></p>"),
            "{html}"
        );
        assert!(
            html.contains("<img src=\"https://x.pl/a.jpg\" alt=\"Obcy\">"),
            "{html}"
        );
        assert_eq!(html.matches("<picture").count(), 1, "{html}");
        assert!(
            !html.contains('\u{FFFC}'),
            "placeholders never leak: {html}"
        );
    }
}
