//! Responsive images on the real site: `<picture>` with real sizes, Markdown images, the
//! cache (a rebuild encodes nothing), a changed image, and the checks of `make check`.

use crate::common;
use common::{assert_problem, Fixture};
use std::collections::BTreeMap;

fn pages(build: &site::Build) -> BTreeMap<String, String> {
    build
        .outputs
        .iter()
        .filter(|o| o.is_page())
        .map(|o| {
            (
                o.path.clone(),
                String::from_utf8_lossy(&o.bytes).into_owned(),
            )
        })
        .collect()
}

/// The `<picture>…</picture>` of a page whose `<img>` has `needle`.
fn picture<'a>(html: &'a str, needle: &str) -> &'a str {
    html.split("<picture>")
        .skip(1)
        .map(|p| p.split("</picture>").next().unwrap_or(p))
        .find(|p| p.contains(needle))
        .unwrap_or_else(|| panic!("no <picture> with {needle:?}"))
}

#[test]
fn photographs_are_pictures_with_real_sizes_and_only_the_first_is_eager() {
    let f = Fixture::real_site();
    let build = site::Builder::new(f.project()).render().expect("builds");
    let html = pages(&build);
    let about = &html["o-mnie/index.html"];
    let room = picture(about, "Pokój do rozmów");
    assert!(room.contains("type=\"image/avif\"") && room.contains("type=\"image/webp\""));
    assert!(room.contains("width=\"2400\" height=\"1600\""), "{room}");
    assert!(room.contains("fetchpriority=\"high\"") && !room.contains("loading="));
    assert!(room.contains("gabinet-fotele.480.") && room.contains("gabinet-fotele.1600."));
    assert!(!room.contains("2400w"), "never larger than 1600: {room}");

    let article = &html["blog/pierwsza-wizyta/index.html"];
    let hero = picture(article, "article-hero");
    assert!(
        hero.contains("width=\"2400\" height=\"1350\""),
        "16:9: {hero}"
    );
    assert!(hero.contains("fetchpriority=\"high\""));
    let card = picture(&html["index.html"], "notes-herbata");
    assert!(
        card.contains("loading=\"lazy\" decoding=\"async\""),
        "{card}"
    );

    let mindfulness = &html["blog/praktyka-mindfulness/index.html"];
    let in_text = picture(mindfulness, "Bałtykiem");
    assert!(in_text.contains("baltyk-poranek.800."), "{in_text}");
    assert!(in_text.contains("loading=\"lazy\""), "{in_text}");
    for (path, page) in &html {
        assert!(
            !page.contains("src=\"/images/notes-herbata.jpg\""),
            "{path} links the original photograph"
        );
    }
    let published: Vec<&str> = build.outputs.iter().map(|o| o.path.as_str()).collect();
    for needed in room.split('"').filter(|s| s.starts_with("/assets/img/")) {
        let file = needed.split(' ').next().unwrap_or(needed);
        assert!(published.contains(&&file[1..]), "{file} is not published");
    }
    assert!(
        !published.contains(&"images/README.md"),
        "notes are not published"
    );
}

#[test]
fn a_rebuild_with_nothing_changed_encodes_no_image() {
    let f = Fixture::real_site();
    let mut builder = site::Builder::new(f.project());
    let first = builder.render().expect("first build");
    assert!(first.images.sources >= 3, "{:?}", first.images);
    let again = builder.render().expect("second build");
    assert_eq!(again.images.encoded, 0, "{:?}", again.images);
    assert_eq!(again.rendered, 0);
    let fresh = site::Builder::new(f.project())
        .render()
        .expect("a new builder");
    assert_eq!(
        fresh.images.encoded, 0,
        "a new builder takes every variant from the cache"
    );
    assert_eq!(fresh.images.variants, first.images.variants);
}

#[test]
fn a_changed_photograph_re_renders_the_pages_that_show_it() {
    let f = Fixture::real_site();
    let mut builder = site::Builder::new(f.project());
    let before = pages(&builder.render().expect("first build"));
    // Another photograph under the same name (its variants are in the cache already).
    std::fs::copy(
        f.path("content/images/baltyk-poranek.jpg"),
        f.path("content/images/notes-herbata.jpg"),
    )
    .expect("replace the photograph");
    let build = builder.render().expect("rebuild");
    let after = pages(&build);
    for page in [
        "blog/pierwsza-wizyta/index.html",
        "blog/index.html",
        "index.html",
    ] {
        assert_ne!(before[page], after[page], "{page} shows the new photograph");
    }
    let clean = pages(&site::Builder::new(f.project()).render().expect("clean"));
    assert_eq!(after, clean, "the incremental build equals a clean one");
}

fn small_jpeg(f: &Fixture, name: &str, width: u32) {
    let image = image::RgbImage::from_fn(width, width * 9 / 16, |x, y| {
        image::Rgb([(x % 200) as u8, (y % 200) as u8, 120])
    });
    image
        .save(f.path(&format!("content/images/{name}")))
        .expect("write a small photograph");
}

#[test]
fn a_photograph_too_small_for_where_it_is_shown_is_a_warning_with_its_line() {
    let f = Fixture::real_site();
    small_jpeg(&f, "maly.jpg", 320);
    let file = "content/blog/terapia-online.md";
    f.edit(file, "image: \"", "image: \"maly.jpg\"\nold_image: \"");
    let text = f.read(file).replace("old_image: ", "# ");
    f.write(file, &text);
    let build = site::Builder::new(f.project())
        .render()
        .expect("a warning does not stop the build");
    let line = f.line_of(file, "image: \"maly.jpg\"");
    assert_problem(&build.warnings, file, line, "320 px wide");
    let images: Vec<_> = build
        .warnings
        .iter()
        .filter(|w| !w.file.ends_with("content/site.yaml"))
        .collect();
    assert_eq!(images.len(), 1, "one image warning: {images:?}");
}

#[test]
fn images_without_alt_text_where_it_is_shown_are_errors() {
    let f = Fixture::real_site();
    let article = "content/blog/pierwsza-wizyta.md";
    f.edit(
        article,
        "image_alt: \"Otwarty notes",
        "image_alt: \"\"\n# \"Otwarty notes",
    );
    let text = "content/blog/praktyka-mindfulness.md";
    f.edit(
        text,
        "![Poranne słońce nisko nad spokojnym Bałtykiem – wizualizacja komputerowa, nie fotografia]",
        "![]",
    );
    let page = "content/pages/o-mnie.md";
    f.edit(page, "image_alt: \"Pokój", "# \"Pokój");
    let problems = f.problems();
    assert_problem(
        &problems,
        article,
        f.line_of(article, "image_alt: \"\""),
        "alt text",
    );
    assert_problem(
        &problems,
        text,
        f.line_of(text, "![](baltyk-poranek.jpg)"),
        "no alt text",
    );
    assert_problem(
        &problems,
        page,
        f.line_of(page, "image: \"gabinet-fotele.jpg\""),
        "image_alt",
    );
    assert_eq!(problems.len(), 3, "{problems:#?}");
}

#[test]
fn a_missing_image_in_markdown_is_an_error_with_its_line() {
    let f = Fixture::real_site();
    let text = "content/blog/praktyka-mindfulness.md";
    f.edit(text, "(baltyk-poranek.jpg)", "(baltyk-wieczor.jpg)");
    let problems = f.problems();
    assert_problem(
        &problems,
        text,
        f.line_of(text, "baltyk-wieczor.jpg"),
        "not a file under content/images/",
    );
}

#[test]
fn an_unreadable_image_is_a_warning_until_a_page_shows_it_then_an_error_at_that_line() {
    let f = Fixture::real_site();
    f.write_bytes(
        "content/images/bomba.png",
        &site::images::testing::png_bomb(),
    );
    f.write_bytes(
        "content/images/udaje.png",
        &site::images::testing::fake_png(),
    );
    let build = site::Builder::new(f.project())
        .render()
        .expect("images no page shows do not stop the build");
    assert_problem(
        &build.warnings,
        "content/images/bomba.png",
        1,
        "100000 × 100000",
    );
    assert_problem(
        &build.warnings,
        "content/images/udaje.png",
        1,
        "cannot read",
    );
    assert!(build.outputs.iter().all(|o| !o.path.contains("bomba")));

    let text = "content/blog/praktyka-mindfulness.md";
    f.edit(text, "(baltyk-poranek.jpg)", "(bomba.png)");
    let problems = f.problems();
    assert_problem(
        &problems,
        text,
        f.line_of(text, "(bomba.png)"),
        "'bomba.png' cannot be shown",
    );
}
