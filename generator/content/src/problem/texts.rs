//! A problem's two texts, English and Polish, and the capital a Polish sentence starts with.

/// A problem's two texts, written side by side where the problem is defined.
pub(crate) struct Texts {
    pub english: String,
    /// As it reads after the place it is at ("Sekcja 2: …"): a lowercase start, unless the
    /// first word is a name.
    pub polish: String,
}

pub(crate) fn texts(english: String, polish: String) -> Texts {
    Texts { english, polish }
}

pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
