//! The size an SVG declares on its root element: `width` and `height` in pixels, or else its
//! `viewBox`. SVGs are published as they are, once the publish gate has found they only draw
//! ([`crate::gate::check_svg`]); their size only fills `width`/`height`.

use regex::Regex;
use std::sync::OnceLock;

fn attribute(tag: &str, name: &str) -> Option<String> {
    static ATTRIBUTE: OnceLock<Regex> = OnceLock::new();
    let re = ATTRIBUTE
        .get_or_init(|| content::constant_regex(r#"\s([a-zA-Z]+)\s*=\s*["']([^"']*)["']"#));
    re.captures_iter(tag)
        .find(|c| &c[1] == name)
        .map(|c| c[2].to_string())
}

fn pixels(value: &str) -> Option<u32> {
    let number = value.trim().strip_suffix("px").unwrap_or(value.trim());
    let parsed: f64 = number.parse().ok()?;
    (parsed >= 1.0).then(|| parsed.round() as u32)
}

/// Why an SVG is left out of the site: what the gate found in it, and at which line.
pub(crate) fn refusal(finding: &crate::gate::Finding) -> String {
    format!(
        "wiersz {}: obraz SVG może tylko rysować, a zawiera {}",
        finding.line,
        finding.found.polish()
    )
}

/// Width and height of the `<svg>` root, if it says.
pub(crate) fn size(source: &str) -> Option<(u32, u32)> {
    let start = source.find("<svg")?;
    let end = start + source[start..].find('>')?;
    let tag = &source[start..end];
    let declared = attribute(tag, "width")
        .and_then(|w| pixels(&w))
        .zip(attribute(tag, "height").and_then(|h| pixels(&h)));
    declared.or_else(|| {
        let view_box = attribute(tag, "viewBox")?;
        let numbers: Vec<&str> = view_box
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        match numbers.as_slice() {
            [_, _, w, h] => pixels(w).zip(pixels(h)),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_width_and_height_then_the_view_box() {
        assert_eq!(
            size(
                r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 900" width="800px" height="450">"#
            ),
            Some((800, 450))
        );
        assert_eq!(
            size(r#"<?xml version="1.0"?><svg viewBox="0,0,800,1000">"#),
            Some((800, 1000))
        );
        assert_eq!(size(r#"<svg width="100%" height="100%">"#), None);
        assert_eq!(size("not svg"), None);
    }
}
