//! Placeholders written in a text, `{{ name }}` or `{{ cena.id }}`: what the facts fill in
//! ([`crate::facts`]) and the prices are checked by ([`crate::prices`]).

use std::sync::OnceLock;

use regex::Regex;

/// `{{ name }}`, or `{{ group.id }}` for a price; the name is the first group.
pub(crate) fn pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| {
        crate::pattern::constant_regex(r"\{\{\s*([A-Za-z_]+(?:\.[a-z0-9-]+)?)\s*\}\}")
    })
}

/// Every placeholder in `text`: its byte offset and the name written.
pub fn named(text: &str) -> Vec<(usize, String)> {
    pattern()
        .captures_iter(text)
        .filter_map(|c| Some((c.get(0)?.start(), c.get(1)?.as_str().to_string())))
        .collect()
}
