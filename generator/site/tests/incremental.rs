//! An incremental rebuild after any sequence of changes gives exactly what a clean full build
//! gives, byte for byte, and re-renders only what changed.

use crate::common;
use common::Fixture;
use std::collections::BTreeMap;

/// A small deterministic generator, so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

fn as_map(outputs: Vec<site::Output>) -> BTreeMap<String, Vec<u8>> {
    outputs
        .into_iter()
        .map(|o| (o.path, o.bytes.to_vec()))
        .collect()
}

fn assert_same(
    incremental: &BTreeMap<String, Vec<u8>>,
    full: &BTreeMap<String, Vec<u8>>,
    step: &str,
) {
    let a: Vec<&String> = incremental.keys().collect();
    let b: Vec<&String> = full.keys().collect();
    assert_eq!(a, b, "after {step}: different files");
    for (path, bytes) in full {
        assert!(
            incremental[path] == *bytes,
            "after {step}: {path} differs from a clean build"
        );
    }
}

fn articles(f: &Fixture) -> Vec<String> {
    let mut slugs: Vec<String> = std::fs::read_dir(f.path("content/blog"))
        .expect("blog folder")
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".md")
                .map(String::from)
        })
        .collect();
    slugs.sort();
    slugs
}

/// One random change; returns what it did and the content files it wrote, created or removed.
fn change(f: &Fixture, rng: &mut Lcg, step: usize) -> (String, Vec<std::path::PathBuf>) {
    let before = content_files(f);
    let what = change_only(f, rng, step);
    let after = content_files(f);
    let changed = before
        .iter()
        .chain(after.iter())
        .filter(|(path, _)| before.get(*path) != after.get(*path))
        .map(|(path, _)| path.clone())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    (what, changed)
}

/// Every file under `content/` with its text.
fn content_files(f: &Fixture) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(f.path("content"))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().to_path_buf(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect()
}

fn change_only(f: &Fixture, rng: &mut Lcg, step: usize) -> String {
    let all = articles(f);
    let added: Vec<&String> = all.iter().filter(|s| s.starts_with("nowy-")).collect();
    let pick = |rng: &mut Lcg| all[rng.next(all.len())].clone();
    match rng.next(10) {
        0 => {
            let slug = pick(rng);
            let path = format!("content/blog/{slug}.md");
            f.write(
                &path,
                &format!("{}\nDopisany akapit numer {step}.\n", f.read(&path)),
            );
            format!("body of {slug}")
        }
        1 => {
            let slug = pick(rng);
            // A new title short enough for search results (titles ≤ 70 characters).
            let path = format!("content/blog/{slug}.md");
            let text = f.read(&path);
            let line = text
                .lines()
                .find(|l| l.starts_with("title: "))
                .expect("a title");
            f.edit(
                &path,
                line,
                &format!("title: \"Artykuł po zmianie {step}\""),
            );
            format!("title of {slug}")
        }
        2 => {
            // Only the site's own articles: a link to an added one would outlive its deletion.
            let own: Vec<&String> = all.iter().filter(|s| !s.starts_with("nowy-")).collect();
            let slug = own[rng.next(own.len())].clone();
            let path = format!("content/blog/{slug}.md");
            let text = f.read(&path);
            let toggled = if text.contains("listed: false\n") {
                text.replace("listed: false\n", "")
            } else {
                // An unlisted article stays linked from another page (no orphan pages).
                let uslugi = "content/pages/uslugi.md";
                f.write(
                    uslugi,
                    &format!("{}\n[Artykuł {step}](/blog/{slug})\n", f.read(uslugi)),
                );
                text.replacen("author:", "listed: false\nauthor:", 1)
            };
            f.write(&path, &toggled);
            format!("listing of {slug}")
        }
        3 => {
            let source = f.read("content/blog/terapia-online.md");
            let slug = format!("nowy-{step}");
            f.write(
                &format!("content/blog/{slug}.md"),
                &source.replacen(
                    "title: \"Terapia online – czy działa jak w gabinecie?\"",
                    &format!("title: \"Nowy {step}: terapia online\""),
                    1,
                ),
            );
            format!("added {slug}")
        }
        4 if !added.is_empty() => {
            let slug = added[rng.next(added.len())].clone();
            std::fs::remove_file(f.path(&format!("content/blog/{slug}.md"))).expect("remove");
            format!("deleted {slug}")
        }
        5 if !added.is_empty() => {
            let slug = added[rng.next(added.len())].clone();
            let renamed = format!("nowy-przemianowany-{step}");
            std::fs::rename(
                f.path(&format!("content/blog/{slug}.md")),
                f.path(&format!("content/blog/{renamed}.md")),
            )
            .expect("rename");
            format!("renamed {slug} to {renamed}")
        }
        6 => {
            let template = [
                "templates/article.html",
                "templates/base.html",
                "templates/partials/footer.html",
                "templates/blog.html",
            ][rng.next(4)];
            f.write(
                template,
                &format!("{}<!-- zmiana {step} -->\n", f.read(template)),
            );
            format!("template {template}")
        }
        7 => {
            f.edit(
                "content/site.yaml",
                "phone: \"+48 58 345 21 9",
                &format!("phone: \"+48 58 345 21 9{}", step % 10),
            );
            "site.yaml".into()
        }
        8 => {
            f.edit(
                "content/services/terapia-par.md",
                "card_description: \"",
                &format!("card_description: \"[{step}] "),
            );
            "a service card".into()
        }
        _ => {
            let prices: String = f
                .read("content/cennik.yaml")
                .lines()
                .map(|l| {
                    if l.starts_with("    price: 25") {
                        format!("    price: 25{}\n", step % 10)
                    } else {
                        format!("{l}\n")
                    }
                })
                .collect();
            f.write("content/cennik.yaml", &prices);
            let profile = "content/team/tomasz-lewandowski.md";
            f.write(
                profile,
                &format!("{}\nZdanie dopisane w kroku {step}.\n", f.read(profile)),
            );
            "the price list and a therapist's profile".into()
        }
    }
}

#[test]
fn incremental_rebuilds_equal_clean_builds_after_random_changes() {
    let f = Fixture::real_site();
    let mut builder = site::Builder::new(f.project());
    builder.render().expect("first build");
    let mut rng = Lcg(0x5eed_2025);
    for step in 0..40 {
        let (what, _) = change(&f, &mut rng, step);
        let incremental = as_map(builder.render().expect("incremental build").outputs);
        let full = as_map(site::check(&f.project()).expect("clean build"));
        assert_same(&incremental, &full, &format!("step {step}: {what}"));
    }
}

#[test]
fn renders_told_what_changed_equal_clean_builds_after_random_changes() {
    let f = Fixture::real_site();
    let mut builder = site::Builder::new(f.project());
    builder
        .render_changed(&[])
        .expect("a first render looks at everything");
    let mut rng = Lcg(0x5eed_2026);
    for step in 0..40 {
        let (what, changed) = change(&f, &mut rng, step);
        let incremental = as_map(
            builder
                .render_changed(&changed)
                .expect("incremental build")
                .outputs,
        );
        let full = as_map(site::check(&f.project()).expect("clean build"));
        assert_same(
            &incremental,
            &full,
            &format!("step {step}: {what} ({changed:?})"),
        );
    }
}

/// An article's new title changes its card on the listings (the blog, the home page), not the
/// other articles: their template's loop variables once counted as showing the listings, and
/// every page then had every card copied in and was rendered again (quadratic in articles).
#[test]
fn a_title_edit_re_renders_that_article_and_the_listings_only() {
    let f = Fixture::real_site();
    let dist = f.path("dist");
    let mut builder = site::Builder::new(f.project());
    let first = builder.build(&dist).expect("first build");
    let path = "content/blog/terapia-cbt.md";
    let text = f.read(path);
    let title = text
        .lines()
        .find(|l| l.starts_with("title:"))
        .expect("a title");
    f.write(
        path,
        &text.replacen(title, "title: \"Nowy tytuł artykułu o CBT\"", 1),
    );
    let second = builder.build(&dist).expect("second build");
    let listings = [
        "index.html",
        "blog/index.html",
        "o-mnie/index.html",
        "uslugi/index.html",
        "cennik/index.html",
    ];
    assert!(
        second.rendered <= 1 + listings.len() && second.rendered < first.pages / 4,
        "{} of {} pages rendered again",
        second.rendered,
        first.pages
    );
    let blog = std::fs::read_to_string(dist.join("blog/index.html")).expect("published");
    assert!(blog.contains("Nowy tytuł artykułu o CBT"));
}

#[test]
fn a_body_edit_re_renders_only_that_article_and_the_published_site_matches() {
    let f = Fixture::real_site();
    let dist = f.path("dist");
    let mut builder = site::Builder::new(f.project());
    let first = builder.build(&dist).expect("first build");
    assert_eq!(
        first.rendered, first.pages,
        "a first build renders every page"
    );
    let path = "content/blog/terapia-cbt.md";
    f.write(path, &format!("{}\nJeszcze jeden akapit.\n", f.read(path)));
    let second = builder.build(&dist).expect("second build");
    assert_eq!(second.rendered, 1, "only the edited article is rendered");
    let html =
        std::fs::read_to_string(dist.join("blog/terapia-cbt/index.html")).expect("published");
    assert!(html.contains("Jeszcze jeden akapit."));
    std::fs::remove_file(f.path("content/blog/psycholog-sportowy-gdansk.md")).expect("delete");
    builder.build(&dist).expect("third build");
    assert!(
        !dist.join("blog/psycholog-sportowy-gdansk").exists(),
        "a deleted article's page is gone"
    );
    let blog = std::fs::read_to_string(dist.join("blog/index.html")).expect("blog index");
    assert!(
        !blog.contains("/blog/psycholog-sportowy-gdansk"),
        "and so is its card"
    );
    let full = as_map(site::check(&f.project()).expect("clean"));
    for (p, bytes) in &full {
        assert!(
            std::fs::read(dist.join(p)).expect("published file") == *bytes,
            "{p} differs on disk"
        );
    }
}

/// The number the next publish at `dist` will give its build folder.
fn next_build(dist: &std::path::Path) -> u64 {
    let builds = dist.with_file_name("dist.builds");
    std::fs::read_dir(builds)
        .expect("builds folder")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0)
        + 1
}

#[test]
fn after_a_failed_publish_the_next_build_equals_a_clean_one() {
    let f = Fixture::real_site();
    let dist = f.path("dist");
    let mut builder = site::Builder::new(f.project());
    builder.build(&dist).expect("first build");
    let edited = "content/blog/terapia-cbt.md";
    f.write(
        edited,
        &format!("{}\nAkapit, który musi dotrzeć.\n", f.read(edited)),
    );
    // A file where the next build's staging folder goes: that publish fails half-way, as on
    // a full disk, after the page was already rendered.
    let blocker = f.path(&format!("dist.builds/{}.partial", next_build(&dist)));
    std::fs::write(&blocker, "zajęte").expect("blocker");
    assert!(builder.build(&dist).is_err(), "the publish must fail");
    std::fs::remove_file(&blocker).expect("unblock");
    let other = "content/blog/pierwsza-wizyta.md";
    f.write(other, &format!("{}\nInna zmiana.\n", f.read(other)));
    builder.build(&dist).expect("build after the failure");
    let clean = as_map(site::check(&f.project()).expect("clean"));
    for (path, bytes) in &clean {
        let published = std::fs::read(dist.join(path)).expect("published file");
        assert!(published == *bytes, "{path} differs from a clean build");
    }
    let page = std::fs::read_to_string(dist.join("blog/terapia-cbt/index.html")).expect("page");
    assert!(
        page.contains("Akapit, który musi dotrzeć."),
        "the edit of the failed publish is live"
    );
}

#[test]
fn the_gate_reads_again_only_the_pages_whose_bytes_changed() {
    let f = Fixture::real_site();
    let mut builder = site::Builder::new(f.project());
    let first = builder.render().expect("first build");
    assert_eq!(
        first.gated, first.rendered,
        "a first build reads every page"
    );
    // A word every page's fingerprint holds, shown on the home page only.
    let path = "content/napisy.yaml";
    let words = f.read(path);
    let heading = r#"home_blog_heading: "Z naszego bloga""#;
    assert!(words.contains(heading), "the fixture's words changed");
    f.write(
        path,
        &words.replace(heading, r#"home_blog_heading: "Nowe na blogu""#),
    );
    let second = builder.render().expect("second build");
    assert_eq!(
        second.rendered, first.rendered,
        "every page is rendered again"
    );
    assert!(
        (1..=2).contains(&second.gated),
        "only the pages that show the word are read again: {} of {}",
        second.gated,
        second.rendered
    );
    let home = second
        .outputs
        .iter()
        .find(|o| o.path == "index.html")
        .expect("home page");
    assert!(String::from_utf8_lossy(&home.bytes).contains("Nowe na blogu"));
    // The phone is in every page's footer: every page is read again.
    let site_yaml = f.read("content/site.yaml");
    let phone = site_yaml
        .lines()
        .find(|l| l.starts_with("phone:"))
        .expect("a phone line")
        .to_string();
    f.write(
        "content/site.yaml",
        &site_yaml.replace(&phone, r#"phone: "+48 58 000 00 99""#),
    );
    let third = builder.render().expect("third build");
    let showing = third
        .outputs
        .iter()
        .chain(&third.panel)
        .filter(|o| o.path.ends_with(".html"))
        .filter(|o| {
            let html = String::from_utf8_lossy(&o.bytes);
            html.contains("000 00 99") || html.contains("580000099")
        })
        .count();
    assert!(showing > third.rendered / 2, "the footer shows the phone");
    assert_eq!(
        third.gated, showing,
        "every page that shows the new phone is read again"
    );
}
