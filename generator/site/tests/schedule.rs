//! What is public depends on the moment a build is made for, and on nothing else: scheduled
//! and unpublished articles, and the notice of `site.yaml`. Time is given to the builder, so
//! every assertion here is about fixed moments.

use crate::common;
use common::{assert_problem, Fixture};
use content::Clock;
use site::Builder;
use std::collections::BTreeMap;

/// 2025-11-20 12:00 in Warsaw (11:00 UTC).
const NOON: i64 = 1_763_636_400;
const HOUR: i64 = 3600;

fn build_at(f: &Fixture, now: i64) -> site::Build {
    let mut builder = Builder::new(f.project());
    builder.set_clock(Clock::fixed(now));
    builder.render().expect("the site builds")
}

fn files(build: &site::Build) -> BTreeMap<String, Vec<u8>> {
    build
        .outputs
        .iter()
        .map(|o| (o.path.clone(), o.bytes.to_vec()))
        .collect()
}

fn text(build: &site::Build, path: &str) -> String {
    let output = build.outputs.iter().find(|o| o.path == path);
    String::from_utf8(
        output
            .unwrap_or_else(|| panic!("{path} built"))
            .bytes
            .to_vec(),
    )
    .expect("utf-8")
}

fn has(build: &site::Build, path: &str) -> bool {
    build.outputs.iter().any(|o| o.path == path)
}

/// A copy of `terapia-online` as `slug`, dated `date`, titled so it can be found.
fn add_article(f: &Fixture, slug: &str, date: &str, extra: &str) {
    let source = f.read("content/blog/terapia-online.md");
    let dated: String = source
        .lines()
        .map(|l| {
            if l.starts_with("date:") {
                format!("date: \"{date}\"\n{extra}")
            } else if l.starts_with("title:") {
                format!("title: \"Artykuł {slug}\"\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    f.write(&format!("content/blog/{slug}.md"), &dated);
}

fn public_everywhere(build: &site::Build, slug: &str) -> [bool; 4] {
    let route = format!("/blog/{slug}");
    [
        has(build, &format!("blog/{slug}/index.html")),
        text(build, "blog/index.html").contains(&format!("href=\"{route}\"")),
        text(build, "blog/atom.xml").contains(&route),
        text(build, "sitemap.xml").contains(&route),
    ]
}

#[test]
fn a_scheduled_article_is_built_from_its_moment_and_not_a_second_before() {
    let f = Fixture::real_site();
    add_article(&f, "zaplanowany", "2025-11-20 14:30", "");
    let publish = NOON + 2 * HOUR + 30 * 60;
    let before = build_at(&f, publish - 1);
    assert_eq!(public_everywhere(&before, "zaplanowany"), [false; 4]);
    assert_eq!(
        before.next_change,
        Some(publish),
        "the builder names its time"
    );
    let after = build_at(&f, publish);
    assert_eq!(public_everywhere(&after, "zaplanowany"), [true; 4]);
    assert_eq!(after.next_change, None);
    assert!(text(&after, "blog/zaplanowany/index.html").contains("20 listopada 2025"));
}

#[test]
fn a_date_without_a_time_publishes_at_midnight_in_warsaw() {
    let f = Fixture::real_site();
    add_article(&f, "jutro", "2025-11-21", "");
    // 2025-11-21 00:00 CET is 2025-11-20 23:00 UTC.
    let midnight = NOON + 12 * HOUR;
    assert_eq!(
        public_everywhere(&build_at(&f, midnight - 1), "jutro"),
        [false; 4]
    );
    assert_eq!(build_at(&f, midnight - 1).next_change, Some(midnight));
    assert_eq!(
        public_everywhere(&build_at(&f, midnight), "jutro"),
        [true; 4]
    );
}

#[test]
fn an_unpublished_article_is_never_built() {
    let f = Fixture::real_site();
    add_article(&f, "wycofany", "2025-01-01", "published: false\n");
    let build = build_at(&f, NOON);
    assert_eq!(public_everywhere(&build, "wycofany"), [false; 4]);
    assert_eq!(build.next_change, None);
}

#[test]
fn a_public_page_may_not_link_to_an_article_that_is_not_public() {
    let f = Fixture::real_site();
    add_article(&f, "zaplanowany", "2025-12-01", "");
    f.write(
        "content/pages/blog.md",
        &format!(
            "{}\nZajrzyj do [nowego tekstu](/blog/zaplanowany).\n",
            f.read("content/pages/blog.md")
        ),
    );
    let mut builder = Builder::new(f.project());
    builder.set_clock(Clock::fixed(NOON));
    let problems = builder
        .render()
        .err()
        .expect("refused")
        .diagnostics()
        .to_vec();
    let line = f.line_of("content/pages/blog.md", "nowego tekstu");
    assert_problem(&problems, "pages/blog.md", line, "not published");
    builder.set_clock(Clock::fixed(NOON + 30 * 24 * HOUR));
    builder
        .render()
        .expect("once the article is public, the link is fine");
}

fn with_notice(f: &Fixture, from: &str, until: &str) {
    f.write(
        "content/site.yaml",
        &format!(
            "{}notice:\n  text: \"Gabinet nieczynny 24.12–1.01\"\n  from: \"{from}\"\n  until: \"{until}\"\n",
            f.read("content/site.yaml")
        ),
    );
}

#[test]
fn the_notice_shows_on_every_page_inside_its_dates_only() {
    let f = Fixture::real_site();
    with_notice(&f, "2025-12-24", "2026-01-01");
    // 2025-12-24 00:00 CET and 2026-01-02 00:00 CET.
    let start = 1_766_530_800;
    let end = 1_767_308_400;
    let banner = "Gabinet nieczynny 24.12–1.01";
    let before = build_at(&f, start - 1);
    assert!(!text(&before, "index.html").contains(banner));
    assert_eq!(before.next_change, Some(start));
    let during = build_at(&f, start);
    let pages: Vec<&site::Output> = during.outputs.iter().filter(|o| o.is_page()).collect();
    for page in &pages {
        let html = String::from_utf8_lossy(&page.bytes);
        let admin = page.path.starts_with("administratormagda");
        assert_eq!(html.contains(banner), !admin, "{}", page.path);
    }
    assert_eq!(during.next_change, Some(end));
    let last = build_at(&f, end - 1);
    assert!(text(&last, "blog/index.html").contains(banner));
    let after = build_at(&f, end);
    assert!(!text(&after, "index.html").contains(banner));
    assert_eq!(after.next_change, None);
}

#[test]
fn a_notice_may_start_and_end_at_a_time_of_day() {
    let f = Fixture::real_site();
    with_notice(&f, "2025-11-20 12:00", "2025-11-20 12:00:30");
    assert!(!text(&build_at(&f, NOON - 1), "index.html").contains("nieczynny"));
    assert!(text(&build_at(&f, NOON), "index.html").contains("nieczynny"));
    assert!(text(&build_at(&f, NOON + 29), "index.html").contains("nieczynny"));
    assert!(!text(&build_at(&f, NOON + 30), "index.html").contains("nieczynny"));
}

#[test]
fn a_notice_with_dates_that_do_not_exist_or_end_before_they_start_is_refused() {
    let f = Fixture::real_site();
    with_notice(&f, "2025-02-30", "2025-01-01");
    let problems = f.problems();
    let line = f.line_of("content/site.yaml", "notice:");
    assert_problem(&problems, "site.yaml", line, "notice from: '2025-02-30'");
    let g = Fixture::real_site();
    with_notice(&g, "2025-12-24", "2025-12-01");
    let line = g.line_of("content/site.yaml", "notice:");
    assert_problem(&g.problems(), "site.yaml", line, "is before from");
}

#[test]
fn an_article_date_with_an_impossible_time_is_refused() {
    let f = Fixture::real_site();
    add_article(&f, "nocny", "2025-01-01 25:00", "");
    let line = f.line_of("content/blog/nocny.md", "date: ");
    assert_problem(&f.problems(), "blog/nocny.md", line, "HH:MM");
}

#[test]
fn an_incremental_builder_follows_the_clock_exactly_like_clean_builds() {
    let f = Fixture::real_site();
    add_article(&f, "pierwszy", "2025-11-20 13:00", "published: true\n");
    add_article(&f, "drugi", "2025-11-21", "");
    with_notice(&f, "2025-11-20 12:30", "2025-11-20");
    let mut builder = Builder::new(f.project());
    let mut now = NOON;
    let mut moments = Vec::new();
    for step in 0..8 {
        builder.set_clock(Clock::fixed(now));
        let incremental = builder.render().expect("incremental build");
        let clean = build_at(&f, now);
        assert!(
            files(&incremental) == files(&clean),
            "step {step} at {now}: incremental differs from clean"
        );
        moments.push(now);
        match incremental.next_change {
            Some(next) => now = next,
            None => break,
        }
    }
    // 12:00, the notice at 12:30, the article at 13:00, the notice's end at midnight (which
    // is also when the second article's day starts), and nothing after.
    assert_eq!(
        moments,
        vec![NOON, NOON + 1800, NOON + HOUR, NOON + 12 * HOUR]
    );
    // Unpublished afterwards: the same builder drops it, as a clean build does.
    f.edit(
        "content/blog/pierwszy.md",
        "published: true",
        "published: false",
    );
    let incremental = builder.render().expect("incremental build");
    assert!(!public_everywhere(&incremental, "pierwszy")[0]);
    assert!(files(&incremental) == files(&build_at(&f, now)));
}
