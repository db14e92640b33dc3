//! What a page's `<title>` says, the one text search results and link previews show as its
//! name: its search title (`seo_title`) or its title, followed by the practice's name unless
//! it names the practice already. Templates show it as the build computes it here, and
//! `make check` measures the same text.

/// The most characters of a `<title>` search results show before they cut it.
pub const TITLE_MAX_CHARS: usize = 70;

/// Between a page's own title and the practice's name.
const SEPARATOR: &str = " | ";

/// The `<title>` of a page titled `title` (or `seo_title`, where it has one) on the site of
/// the practice `brand`.
pub fn title_tag(title: &str, seo_title: Option<&str>, brand: &str) -> String {
    let shown = seo_title
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(title.trim());
    if brand.trim().is_empty() || shown.contains(brand.trim()) {
        shown.to_string()
    } else {
        format!("{shown}{SEPARATOR}{}", brand.trim())
    }
}

/// The `<title>` and its length in characters, when it is longer than search results show.
pub fn too_long(tag: &str) -> Option<usize> {
    let chars = tag.chars().count();
    (chars > TITLE_MAX_CHARS).then_some(chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_practice_is_named_once() {
        assert_eq!(title_tag("Cennik", None, "Gabinet"), "Cennik | Gabinet");
        assert_eq!(
            title_tag("Cennik", Some("Cennik – psycholog w Gdańsku"), "Gabinet"),
            "Cennik – psycholog w Gdańsku | Gabinet"
        );
        assert_eq!(
            title_tag("Gabinet – psycholog", None, "Gabinet"),
            "Gabinet – psycholog",
            "a title that names the practice does not repeat it"
        );
        assert_eq!(
            title_tag("Cennik", Some("  "), "Gabinet"),
            "Cennik | Gabinet"
        );
    }

    #[test]
    fn seventy_characters_fit_and_seventy_one_do_not() {
        assert_eq!(too_long(&"ą".repeat(70)), None);
        assert_eq!(too_long(&"ą".repeat(71)), Some(71));
    }
}
