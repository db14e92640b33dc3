//! The edge's rules, written from the build's own definitions: caching in `_headers`,
//! `_redirects` with the aliases and the API proxy, the nginx locations; and `make check`
//! refusing an alias that collides with a route, another alias or a file.

use crate::common;
use common::{assert_problem, Fixture};

const ARTICLE: &str = "content/blog/terapia-cbt.md";
const SERVICE: &str = "content/services/terapia-par.md";

fn with_aliases(f: &Fixture, file: &str, aliases: &[&str]) {
    let list: String = aliases.iter().map(|a| format!("  - \"{a}\"\n")).collect();
    f.edit(file, "\ndate:", &format!("\naliases:\n{list}date:"));
}

fn file(outputs: &[site::Output], path: &str) -> String {
    let output = outputs
        .iter()
        .find(|o| o.path == path)
        .unwrap_or_else(|| panic!("no {path}"));
    String::from_utf8(output.bytes.to_vec()).expect("utf-8")
}

#[test]
fn headers_cache_hashed_assets_for_a_year_and_everything_else_briefly() {
    let f = Fixture::real_site();
    let build = site::Builder::new(f.project()).render().expect("builds");
    let css = build
        .outputs
        .iter()
        .find(|o| o.path.starts_with("assets/style."))
        .expect("the stylesheet");
    let value = |path: &str| {
        site::headers::header_value(&build.headers, path, "Cache-Control").map(String::from)
    };
    assert_eq!(
        value(&format!("/{}", css.path)).as_deref(),
        Some(site::headers::IMMUTABLE_CACHE)
    );
    assert!(site::headers::IMMUTABLE_CACHE.contains("immutable"));
    for path in [
        "/",
        "/blog/terapia-cbt",
        "/blog/atom.xml",
        "/administratormagda",
    ] {
        let short = value(path).expect("a policy");
        assert_eq!(short, site::headers::SHORT_CACHE, "{path}");
        assert!(
            short.contains("max-age=60")
                && short.contains("s-maxage=")
                && short.contains("stale-while-revalidate="),
            "{short}"
        );
    }
    let headers = file(&build.outputs, "_headers");
    let assets = &headers[headers.find("/assets/*\n").expect("an assets rule")..];
    assert!(
        assets.starts_with(&format!(
            "/assets/*\n  ! Cache-Control\n  Cache-Control: {}\n",
            site::headers::IMMUTABLE_CACHE
        )),
        "{assets}"
    );
    assert!(headers.starts_with("/*\n"));
    assert!(headers.contains(&format!(
        "  Cache-Control: {}\n",
        site::headers::SHORT_CACHE
    )));
}

#[test]
fn an_alias_answers_301_in_redirects_and_nginx_and_the_api_is_proxied_to_its_origin() {
    let f = Fixture::real_site();
    with_aliases(&f, ARTICLE, &["/blog/cbt", "/terapia-cbt.html"]);
    let build = site::Builder::new(f.project())
        .with_api_origin(Some("https://api.gabinet.pl".into()))
        .render()
        .expect("builds");
    assert_eq!(
        build.redirects,
        vec![
            site::edge::Redirect {
                from: "/blog/cbt".into(),
                to: "/blog/terapia-cbt".into()
            },
            site::edge::Redirect {
                from: "/terapia-cbt.html".into(),
                to: "/blog/terapia-cbt".into()
            },
        ]
    );
    let redirects = file(&build.outputs, "_redirects");
    assert!(
        redirects.contains("/blog/cbt  /blog/terapia-cbt  301\n"),
        "{redirects}"
    );
    assert!(redirects.contains("/api/*  https://api.gabinet.pl/api/:splat  200\n"));
    let nginx = file(&build.outputs, "_nginx.conf");
    assert!(nginx.contains("location = /blog/cbt {"), "{nginx}");
    assert!(nginx.contains("return 301 /blog/terapia-cbt$is_args$args;"));
    let without = site::Builder::new(f.project()).render().expect("builds");
    assert!(!file(&without.outputs, "_redirects").contains("/api/*  "));
    assert_eq!(
        file(&build.outputs, "_build").trim(),
        build.id,
        "the build names itself"
    );
    assert_ne!(build.id, without.id, "another _redirects is another build");
}

#[test]
fn an_alias_that_is_a_route_is_refused_with_its_line() {
    let f = Fixture::real_site();
    with_aliases(&f, ARTICLE, &["/blog/cbt", "/cennik"]);
    let line = f.line_of(ARTICLE, "\"/cennik\"");
    assert_problem(&f.problems(), ARTICLE, line, "address of an existing page");
}

#[test]
fn an_alias_declared_twice_names_the_first() {
    let f = Fixture::real_site();
    with_aliases(&f, ARTICLE, &["/stara-terapia"]);
    let service_text = f.read(SERVICE);
    let first_field = service_text
        .lines()
        .nth(1)
        .expect("a front matter line")
        .to_string();
    f.edit(
        SERVICE,
        &first_field,
        &format!("{first_field}\naliases: [\"/stara-terapia\"]"),
    );
    let line = f.line_of(ARTICLE, "/stara-terapia");
    let problems = f.problems();
    assert_problem(&problems, ARTICLE, line, "already an alias in");
    assert!(
        problems
            .iter()
            .any(|d| d.english().contains("terapia-par.md:3")),
        "the first one is named with its line: {problems:#?}"
    );
    assert_eq!(problems.len(), 1, "{problems:#?}");
}

#[test]
fn an_alias_of_a_file_or_the_api_or_not_a_plain_path_is_refused() {
    for (alias, expected) in [
        ("/sitemap.xml", "published file"),
        ("/api/contact", "belongs to files or the API"),
        ("/stary adres", "may hold only"),
        ("stary", "must start with '/'"),
    ] {
        let f = Fixture::real_site();
        with_aliases(&f, ARTICLE, &[alias]);
        let line = f.line_of(ARTICLE, &format!("\"{alias}\""));
        assert_problem(&f.problems(), ARTICLE, line, expected);
    }
}

#[test]
fn the_panel_is_not_published_and_the_edge_sends_its_address_to_its_own_origin() {
    let f = Fixture::real_site();
    let build = site::Builder::new(f.project())
        .with_admin_origin(Some("https://panel.gabinet.pl".into()))
        .render()
        .expect("builds");
    let panel = "administratormagda/index.html";
    assert!(
        build.outputs.iter().all(|o| o.path != panel),
        "the public site does not hold the panel"
    );
    assert!(build.panel.iter().any(|o| o.path == panel));
    let headers = file(&build.outputs, "_headers");
    assert!(!headers.contains("administratormagda"), "{headers}");
    let redirects = file(&build.outputs, "_redirects");
    assert!(redirects
        .contains("/administratormagda  https://panel.gabinet.pl/administratormagda  302\n"));
    let nginx = file(&build.outputs, "_nginx.conf");
    let location = &nginx[nginx
        .find("location = /administratormagda {")
        .expect("the panel's address")..];
    let location = &location[..location.find("\n}\n").expect("closed")];
    assert!(location.contains("return 302 https://panel.gabinet.pl/administratormagda;"));
    let policy = |path: &str| {
        site::headers::header_value(&build.panel_headers, path, "Content-Security-Policy")
            .expect("a policy")
            .to_string()
    };
    let own = policy("/administratormagda");
    assert!(own.contains("script-src 'self'") && own.contains("connect-src 'self'"));
    assert!(own.contains("frame-ancestors 'none'"));
    assert!(!own.contains("https://"), "no third party: {own}");
    let preview = policy("/api/preview/pages/cennik");
    assert!(preview.starts_with("sandbox;"), "{preview}");
    assert!(!preview.contains("allow-"), "{preview}");
    assert!(
        !preview.contains("script-src"),
        "no script runs in a preview: {preview}"
    );
    assert!(policy("/api/messages").contains("sandbox"));
    let without = site::Builder::new(f.project()).render().expect("builds");
    assert!(!file(&without.outputs, "_redirects").contains("/administratormagda  "));
    assert!(!file(&without.outputs, "_nginx.conf").contains("location = /administratormagda"));
}

#[test]
fn security_txt_is_published_under_well_known_with_its_type_for_every_edge() {
    let f = Fixture::real_site();
    f.edit(
        "content/site.yaml",
        "security_contact: \"kontakt@gabinet-harmonia.pl\"",
        "security_contact: \"https://gabinet-harmonia.pl/bezpieczenstwo\"",
    );
    let mut builder = site::Builder::new(f.project());
    // 2026-11-24 05:00 UTC: valid until the first of November a year on; renewed monthly.
    builder.set_clock(content::Clock::fixed(1_795_496_400));
    let build = builder.render().expect("builds");
    assert_eq!(
        file(&build.outputs, ".well-known/security.txt"),
        "Contact: https://gabinet-harmonia.pl/bezpieczenstwo\n\
         Expires: 2027-11-01T00:00:00Z\n\
         Preferred-Languages: pl, en\n\
         Canonical: https://gabinet-harmonia.pl/.well-known/security.txt\n"
    );
    assert_eq!(build.renew_at, 1_796_083_200, "the first of December");
    assert!(file(&build.outputs, "_headers")
        .contains("/.well-known/security.txt\n  Content-Type: text/plain; charset=utf-8\n"));
    let nginx = file(&build.outputs, "_nginx.conf");
    let start = nginx
        .find("location = /.well-known/security.txt {")
        .expect("an exact location, which wins over the refusal of hidden files");
    let block = &nginx[start..start + nginx[start..].find("\n}\n").expect("closed")];
    assert!(
        block.contains("default_type \"text/plain; charset=utf-8\";"),
        "{block}"
    );
    assert!(!block.contains("add_header Content-Type"), "{block}");
    assert!(block.contains("Content-Security-Policy"), "{block}");
    assert!(nginx.contains("location ~ /[._] {\n    return 404;"));

    f.edit(
        "content/site.yaml",
        "security_contact: \"https://gabinet-harmonia.pl/bezpieczenstwo\"",
        "security_contact: \"napisz do nas\"",
    );
    let line = f.line_of("content/site.yaml", "security_contact:");
    assert_problem(
        &f.problems(),
        "content/site.yaml",
        line,
        "security_contact 'napisz do nas' must be one address",
    );
}
