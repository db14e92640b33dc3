//! The markup of one image on a page: a `<picture>` with AVIF and WebP sources and the
//! fallback format for a raster image of `content/images/`, a plain `<img>` for an SVG or an
//! external address. Every `<img>` has a width and height, and is lazy unless it is the first
//! large image of its page.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use super::catalog::{Catalog, ImageInfo};
use super::encode::Format;
use crate::templates::escape_html as esc;
use content::fields::Focus;

/// One image to show.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request<'a> {
    /// The address a page uses (`/images/…`, or a full address).
    pub src: &'a str,
    pub alt: &'a str,
    /// The `sizes` attribute: how wide the image is shown.
    pub sizes: &'a str,
    pub class: Option<&'a str>,
    /// The first large image of the page: fetched first, never lazy.
    pub priority: bool,
    /// The size to state for an image whose size cannot be known (an external address).
    pub default_size: (u32, u32),
    /// The point a crop keeps in view, when it is not the middle.
    pub focus: Option<Focus>,
}

/// The classes that set an `<img>`'s `object-position` to `focus` (the site's CSP allows no
/// `style` attributes): `focus fx30 fy70`, whose rules [`focus_rules`] writes.
fn focus_classes(focus: Focus) -> String {
    format!("focus fx{} fy{}", focus.x, focus.y)
}

/// The stylesheet's rules for every focal point: a custom property per percentage across
/// and down, one `object-position` made of the two.
pub(crate) fn focus_rules() -> String {
    let mut out = String::from(
        "\n/* Focal points of pictures (image_focus), written by the build. */\n.focus{object-position:var(--fx,50%) var(--fy,50%)}\n",
    );
    for n in 0..=100 {
        let _ = writeln!(out, ".fx{n}{{--fx:{n}%}}.fy{n}{{--fy:{n}%}}");
    }
    out
}

/// A `srcset` of the variants, escaped for its attribute (their addresses are
/// percent-encoded already, so no space or comma can split one).
fn srcset<'a>(variants: impl Iterator<Item = &'a super::catalog::Variant>) -> String {
    let list = variants
        .map(|v| format!("{} {}w", v.url, v.width))
        .collect::<Vec<_>>()
        .join(", ");
    esc(&list)
}

fn img_attributes(out: &mut String, request: &Request<'_>, (width, height): (u32, u32)) {
    let _ = write!(
        out,
        " alt=\"{}\" width=\"{width}\" height=\"{height}\"",
        esc(request.alt)
    );
    let focus = request.focus.map(focus_classes);
    let classes: Vec<&str> = [request.class.filter(|c| !c.is_empty()), focus.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !classes.is_empty() {
        let _ = write!(out, " class=\"{}\"", esc(&classes.join(" ")));
    }
    if request.priority {
        out.push_str(" fetchpriority=\"high\"");
    } else {
        out.push_str(" loading=\"lazy\" decoding=\"async\"");
    }
    out.push('>');
}

fn raster(info: &ImageInfo, request: &Request<'_>, size: (u32, u32)) -> String {
    let sizes = esc(request.sizes);
    let mut out = String::from("<picture>");
    for format in [Format::Avif, Format::Webp] {
        let _ = write!(
            out,
            "<source type=\"{}\" srcset=\"{}\" sizes=\"{sizes}\">",
            format.mime(),
            srcset(info.of(format))
        );
    }
    let fallback: Vec<_> = info
        .fallback
        .map(|f| info.of(f).collect())
        .unwrap_or_default();
    // Browsers without `srcset` (none still in use) get a middle-sized copy.
    let src = fallback
        .iter()
        .rev()
        .find(|v| v.width <= 1200)
        .or(fallback.first())
        .map_or("", |v| v.url.as_str());
    let _ = write!(
        out,
        "<img src=\"{}\" srcset=\"{}\" sizes=\"{sizes}\"",
        esc(src),
        srcset(fallback.into_iter())
    );
    img_attributes(&mut out, request, size);
    out.push_str("</picture>");
    out
}

/// The markup for `request`.
pub(crate) fn html(catalog: &Catalog, request: &Request<'_>) -> String {
    let info = catalog.get(request.src);
    match info {
        Some(info) if info.is_raster() => {
            raster(info, request, info.size.unwrap_or(request.default_size))
        }
        _ => {
            let size = info.and_then(|i| i.size).unwrap_or(request.default_size);
            // A file of the site's own is addressed by its name, percent-encoded.
            let src = match info {
                Some(_) => content::encoding::url_path(request.src),
                None => request.src.to_string(),
            };
            let mut out = format!("<img src=\"{}\"", esc(&src));
            img_attributes(&mut out, request, size);
            out
        }
    }
}

/// The link-preview address of an image: its fallback copy closest to 1200 px wide, or
/// `None` when it has none (an SVG; previews need a raster image).
pub(crate) fn preview(catalog: &Catalog, src: &str) -> Option<String> {
    let info = catalog.get(src)?;
    let fallback: Vec<_> = info.of(info.fallback?).collect();
    fallback
        .iter()
        .rev()
        .find(|v| v.width <= 1200)
        .or(fallback.first())
        .map(|v| v.url.clone())
}

/// `picture(src=…, alt=…, sizes=…, class=…, priority=…, width=…, height=…, focus=…)` in
/// templates.
pub(crate) struct PictureFunction {
    pub catalog: Arc<Catalog>,
}

fn string_arg<'a>(
    args: &'a HashMap<String, tera::Value>,
    name: &str,
) -> tera::Result<Option<&'a str>> {
    match args.get(name) {
        None | Some(tera::Value::Null) => Ok(None),
        Some(tera::Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(tera::Error::msg(format!(
            "picture(): `{name}` must be a string, not {other}"
        ))),
    }
}

fn number_arg(args: &HashMap<String, tera::Value>, name: &str, default: u32) -> u32 {
    args.get(name)
        .and_then(tera::Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(default)
}

impl tera::Function for PictureFunction {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let src = string_arg(args, "src")?
            .ok_or_else(|| tera::Error::msg("picture(): `src` is required"))?;
        let request = Request {
            src,
            alt: string_arg(args, "alt")?.unwrap_or(""),
            sizes: string_arg(args, "sizes")?.unwrap_or("100vw"),
            class: string_arg(args, "class")?,
            priority: args
                .get("priority")
                .and_then(tera::Value::as_bool)
                .unwrap_or(false),
            default_size: (
                number_arg(args, "width", 1600),
                number_arg(args, "height", 900),
            ),
            // A focus the build's checks refuse never gets here; an empty one is the middle.
            focus: string_arg(args, "focus")?.and_then(|f| Focus::parse(f).ok()),
        };
        Ok(tera::Value::String(html(&self.catalog, &request)))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// How wide an image in an article's or a page's text is shown: the measure of the prose.
pub(crate) const PROSE_SIZES: &str = "(min-width: 47rem) 44rem, calc(100vw - 3rem)";

/// The markup of an image written in Markdown, when it is a file of `content/images/`;
/// `None` leaves it to the Markdown renderer (a full address keeps its plain `<img>`).
pub(crate) fn markdown(catalog: &Catalog, url: &str, alt: &str) -> Option<String> {
    let content::images::ImageRef::Local(path) = content::images::classify(url) else {
        return None;
    };
    let src = format!("/images/{path}");
    catalog.get(&src)?;
    Some(html(
        catalog,
        &Request {
            src: &src,
            alt,
            sizes: PROSE_SIZES,
            class: None,
            priority: false,
            default_size: (1600, 900),
            focus: None,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::encode::{Settings, SETTINGS};
    use crate::images::{Cache, Memo};

    const SMALL: Settings = Settings {
        widths: &[16, 32],
        ..SETTINGS
    };

    /// A catalog of a small JPEG under each of `jpegs` and an SVG under each of `svgs`.
    fn catalog_of(jpegs: &[&str], svgs: &[&str]) -> (tempfile::TempDir, Catalog) {
        let dir = tempfile::tempdir().expect("temp dir");
        let images = dir.path().join("images");
        std::fs::create_dir_all(&images).expect("images");
        for name in jpegs {
            image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([x as u8, y as u8, 7]))
                .save_with_format(images.join(name), image::ImageFormat::Jpeg)
                .expect("jpeg");
        }
        for name in svgs {
            std::fs::write(images.join(name), r#"<svg width="800" height="1000">"#).expect("svg");
        }
        let cache = Cache::new(dir.path().join("cache"));
        let (catalog, _) = Catalog::build(
            &images,
            &cache,
            &SMALL,
            &mut Memo::default(),
            super::super::Encoding::Inline,
        )
        .expect("catalog");
        (dir, catalog)
    }

    fn catalog() -> (tempfile::TempDir, Catalog) {
        catalog_of(&["room.jpg"], &["sea.svg"])
    }

    fn request(src: &str, priority: bool) -> Request<'_> {
        Request {
            src,
            alt: "Pokój \"zielony\"",
            sizes: "100vw",
            class: Some("hero"),
            priority,
            default_size: (1600, 900),
            focus: None,
        }
    }

    #[test]
    fn a_file_name_never_becomes_markup_even_if_one_got_into_the_catalog() {
        // The issue's names: `make check` and vet refuse them, but the markup must hold even so.
        let names = [
            "a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.jpg",
            "q\" onmouseover=\"alert(1)\" x=\".jpg",
            "q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
        ];
        let (_dir, catalog) = catalog_of(&names[..2], &names[2..]);
        for name in names {
            let src = format!("/images/{name}");
            let html = html(&catalog, &request(&src, false));
            let findings = crate::gate::check(&html, &Default::default());
            assert!(findings.is_empty(), "{name}: {findings:?} in {html}");
            assert!(!html.contains("<script") && !html.contains('`'), "{html}");
        }
    }

    #[test]
    fn a_focal_point_is_the_img_s_object_position_by_its_classes() {
        let (_dir, catalog) = catalog();
        let focused = Request {
            focus: Some(Focus { x: 30, y: 70 }),
            ..request("/images/room.jpg", false)
        };
        let html = html(&catalog, &focused);
        assert!(html.contains("class=\"hero focus fx30 fy70\""), "{html}");
        let rules = focus_rules();
        assert!(rules.contains(".focus{object-position:var(--fx,50%) var(--fy,50%)}"));
        assert!(rules.contains(".fx30{--fx:30%}") && rules.contains(".fy70{--fy:70%}"));
        assert!(rules.contains(".fx100{") && !rules.contains(".fx101{"));
    }

    #[test]
    fn a_raster_image_is_a_picture_with_avif_webp_and_its_own_format() {
        let (_dir, catalog) = catalog();
        let html = html(&catalog, &request("/images/room.jpg", false));
        assert!(
            html.starts_with("<picture><source type=\"image/avif\" srcset=\"/assets/img/room.16."),
            "{html}"
        );
        assert!(html.contains("<source type=\"image/webp\""), "{html}");
        assert!(html.contains(".32.") && html.contains(" 32w"), "{html}");
        assert!(html.contains("<img src=\"/assets/img/room.32."), "{html}");
        assert!(html.contains(".jpg 16w, "), "{html}");
        assert!(
            html.contains("width=\"40\" height=\"30\""),
            "the source's own size: {html}"
        );
        assert!(html.contains("alt=\"Pokój &quot;zielony&quot;\""), "{html}");
        assert!(
            html.contains("class=\"hero\" loading=\"lazy\" decoding=\"async\">"),
            "{html}"
        );
        assert!(!html.contains("fetchpriority"), "{html}");
        assert!(
            !html.contains("/images/room.jpg"),
            "never the original: {html}"
        );
    }

    #[test]
    fn the_first_large_image_is_fetched_first_and_not_lazy() {
        let (_dir, catalog) = catalog();
        let html = html(&catalog, &request("/images/room.jpg", true));
        assert!(html.contains("fetchpriority=\"high\""), "{html}");
        assert!(!html.contains("loading=\"lazy\""), "{html}");
    }

    #[test]
    fn svgs_and_external_images_stay_plain_images_with_a_size() {
        let (_dir, catalog) = catalog();
        let svg = html(&catalog, &request("/images/sea.svg", false));
        assert!(svg.starts_with("<img src=\"/images/sea.svg\""), "{svg}");
        assert!(svg.contains("width=\"800\" height=\"1000\""), "{svg}");
        let url = "https://images.example/photo-1?w=1200&q=80";
        let external = html(&catalog, &request(url, false));
        assert!(
            external.starts_with("<img src=\"https://images.example/photo-1?w=1200&amp;q=80\""),
            "{external}"
        );
        assert!(
            external.contains("width=\"1600\" height=\"900\""),
            "{external}"
        );
    }

    #[test]
    fn previews_and_markdown_images_use_the_variants_of_local_files_only() {
        let (_dir, catalog) = catalog();
        let preview = preview(&catalog, "/images/room.jpg").expect("a preview");
        assert!(
            preview.starts_with("/assets/img/room.40.")
                || preview.starts_with("/assets/img/room.32."),
            "{preview}"
        );
        assert_eq!(super::preview(&catalog, "/images/sea.svg"), None);
        let md = markdown(&catalog, "room.jpg", "Pokój").expect("a picture");
        assert!(
            md.contains(PROSE_SIZES) && md.contains("loading=\"lazy\""),
            "{md}"
        );
        assert_eq!(markdown(&catalog, "https://x.pl/a.jpg", "A"), None);
        assert_eq!(markdown(&catalog, "missing.jpg", "A"), None);
    }
}
