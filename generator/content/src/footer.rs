//! What the footer says of the practice, checked by one rule on both sides: here (`make check`,
//! every save) and in the panel as she types (`FOOTER_RULES` in `islands/src/generated/schema.ts`).
//! The cases both must agree on are `tests/vectors/footer.json`, run by this crate's tests and the
//! panel's (`islands/test/rules.test.mjs`).

use serde::Serialize;
use std::sync::OnceLock;

use crate::limits::{SITE_DESCRIPTION_MAX, SOCIAL_MAX, SOCIAL_NAME_MAX};

/// The footer's limits, the address a profile must have, and what the panel says of each.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rules {
    pub description: usize,
    pub social: usize,
    pub social_name: usize,
    /// A profile's address: `https://`, a dot, no white space.
    pub url_pattern: &'static str,
    /// Its longest address, in characters.
    pub url_max: usize,
    pub messages: Messages,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Messages {
    pub description: &'static str,
    pub social_name: &'static str,
    pub social_url: &'static str,
}

pub const RULES: Rules = Rules {
    description: SITE_DESCRIPTION_MAX,
    social: SOCIAL_MAX,
    social_name: SOCIAL_NAME_MAX,
    url_pattern: r"^https://\S*\.\S*$",
    url_max: 500,
    messages: Messages {
        description: "Wpisz kilka słów o gabinecie: stopka je pokazuje.",
        social_name: "Wpisz nazwę serwisu (do 40 znaków), na przykład Facebook.",
        social_url: "Wklej pełny adres profilu, zaczynający się od https://.",
    },
};

/// Which part of a profile is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SocialField {
    Name,
    Url,
}

fn url_pattern() -> &'static regex::Regex {
    static PATTERN: OnceLock<regex::Regex> = OnceLock::new();
    PATTERN.get_or_init(|| crate::pattern::constant_regex(RULES.url_pattern))
}

/// What is wrong with a profile in a social network, its name first; `None` when it is right.
pub fn social_problem(name: &str, url: &str) -> Option<SocialField> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > RULES.social_name {
        return Some(SocialField::Name);
    }
    if url.chars().count() > RULES.url_max || !url_pattern().is_match(url) {
        return Some(SocialField::Url);
    }
    None
}

/// Whether the footer's description is one it can show: some words, one line, not too long.
pub fn description_ok(description: &str) -> bool {
    let text = description.trim();
    !text.is_empty() && text.chars().count() <= RULES.description && !text.contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        name: String,
        url: String,
        problem: Option<SocialField>,
    }

    #[derive(serde::Deserialize)]
    struct Vectors {
        social: Vec<Case>,
        description: Vec<(String, bool)>,
    }

    #[test]
    fn the_shared_vectors_hold_here_as_in_the_panel() {
        let text = include_str!("../../../tests/vectors/footer.json");
        let vectors: Vectors = serde_json::from_str(text).expect("tests/vectors/footer.json");
        for case in vectors.social {
            assert_eq!(
                social_problem(&case.name, &case.url),
                case.problem,
                "{} {}",
                case.name,
                case.url
            );
        }
        for (text, ok) in vectors.description {
            assert_eq!(description_ok(&text), ok, "{text:?}");
        }
    }

    #[test]
    fn the_name_message_says_the_limit() {
        assert!(RULES
            .messages
            .social_name
            .contains(&format!("do {SOCIAL_NAME_MAX} znaków")));
    }
}
