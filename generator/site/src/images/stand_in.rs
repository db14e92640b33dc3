//! What a preview shows for a picture that cannot load. On the site, the page script swaps
//! an image that fails for one of the stock photos; a preview runs no script, and on the
//! panel's origin it may load only the site's own files and the stock photos. So a preview
//! makes the swap itself, before the page is shown, for every address it cannot load: the
//! page then looks as the site would, with a stock photo in place of the broken one.

use std::sync::OnceLock;

use regex::{Captures, Regex};

/// An address a preview loads: the site's own, inline data, or a stock photo (`stock_base`).
fn loads(stock_base: &str, url: &str) -> bool {
    let url = url.trim();
    (url.starts_with('/') && !url.starts_with("//"))
        || url.starts_with("data:")
        || (!stock_base.is_empty() && url.starts_with(stock_base))
}

fn tag() -> &'static Regex {
    static TAG: OnceLock<Regex> = OnceLock::new();
    TAG.get_or_init(|| content::constant_regex(r"<(?:img|source)\b[^>]*>"))
}

fn attribute() -> &'static Regex {
    static ATTRIBUTE: OnceLock<Regex> = OnceLock::new();
    ATTRIBUTE.get_or_init(|| content::constant_regex(r#"\s(src|srcset)="([^"]*)""#))
}

/// `html` with every picture address a preview cannot load replaced by `stock`, the stock
/// photo the site would show (`stock_base`: where stock photos come from).
pub(crate) fn stand_in(html: &str, stock_base: &str, stock: &str) -> String {
    if stock.is_empty() {
        return html.to_string();
    }
    let stock = stock.replace('&', "&amp;").replace('"', "&quot;");
    tag()
        .replace_all(html, |tag: &Captures<'_>| {
            attribute()
                .replace_all(&tag[0], |a: &Captures<'_>| {
                    let every_address_loads = match &a[1] {
                        "src" => loads(stock_base, &a[2]),
                        _ => a[2]
                            .split(',')
                            .filter_map(|candidate| candidate.split_whitespace().next())
                            .all(|url| loads(stock_base, url)),
                    };
                    match every_address_loads {
                        true => a[0].to_string(),
                        false => format!(" {}=\"{}\"", &a[1], stock),
                    }
                })
                .into_owned()
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://images.unsplash.com/";
    const STOCK: &str = "https://images.unsplash.com/photo-1?auto=format&w=1200";

    #[test]
    fn a_picture_from_elsewhere_becomes_the_stock_photo_the_site_would_show() {
        let html = r#"<p><img src="https://zdjecia.example.pl/a.jpg" alt="Las"></p><picture><source srcset="/assets/img/a-480.avif 480w, https://cdn.example.pl/a.avif 800w" type="image/avif"><img src="/images/a.jpg" alt=""></picture>"#;
        let escaped = "https://images.unsplash.com/photo-1?auto=format&amp;w=1200";
        assert_eq!(
            stand_in(html, BASE, STOCK),
            format!(
                r#"<p><img src="{escaped}" alt="Las"></p><picture><source srcset="{escaped}" type="image/avif"><img src="/images/a.jpg" alt=""></picture>"#
            )
        );
    }

    #[test]
    fn the_sites_own_files_stock_photos_and_other_tags_stay() {
        let html = format!(
            r#"<img src="/assets/img/a-800.webp" srcset="/assets/img/a-480.webp 480w, /assets/img/a-800.webp 800w"><img src="{STOCK}"><a href="https://example.pl/" src="x">"#
        );
        assert_eq!(stand_in(&html, BASE, STOCK), html);
    }
}
