//! Islands are prerendered in one node call per build, cached by island and props.

use crate::common;
use common::Fixture;

#[test]
fn a_rebuild_with_unchanged_island_props_does_not_start_node() {
    let f = Fixture::real_site();
    let dist = f.path("dist");
    let project = f.project_with_own_ssr_cache();
    let first = site::build(&project, &dist).expect("first build");
    assert!(first.ssr.islands > 0);
    assert_eq!(
        first.ssr.rendered_by_node, first.ssr.islands,
        "a fresh cache renders every island"
    );
    let second = site::build(&project, &dist).expect("second build");
    assert_eq!(
        second.ssr.rendered_by_node, 0,
        "unchanged props must not start node"
    );
    f.edit(
        "content/services/terapia-par.md",
        "button_label: \"Umów spotkanie dla pary\"",
        "button_label: \"Zarezerwuj sesję dla pary\"",
    );
    let third = site::build(&project, &dist).expect("third build");
    assert_eq!(
        third.ssr.rendered_by_node, 1,
        "only the changed island is rendered"
    );
    let page =
        std::fs::read_to_string(dist.join("uslugi/terapia-par/index.html")).expect("service page");
    assert!(page.contains(">Zarezerwuj sesję dla pary</a>"));
}

#[test]
fn islands_are_prerendered_html_with_their_props() {
    let f = Fixture::real_site();
    let outputs = site::check(&f.project()).expect("renders");
    let page = |path: &str| {
        let o = outputs
            .iter()
            .find(|o| o.path == path)
            .expect("page exists");
        String::from_utf8(o.bytes.to_vec()).expect("utf-8")
    };
    let service = page("uslugi/terapia-par/index.html");
    assert_eq!(service.matches("data-island=\"BookingButton\"").count(), 2);
    assert!(
        !service.contains("<!--island"),
        "every placeholder is filled"
    );
    assert!(service.contains("<div class=\"island-root\" data-island-root><a class=\"btn btn-primary\" href=\"https://www.znanylekarz.pl/magdalena-wisniewska/"));
    assert!(
        service.contains("\"label\":\"Umów spotkanie dla pary\""),
        "props are embedded as JSON"
    );
    assert!(
        service.contains("/assets/islands/loader."),
        "pages with islands load the loader"
    );
    let blog = page("blog/index.html");
    assert!(
        !blog.contains("loader.") && !blog.contains("<!--island"),
        "pages without islands do not"
    );
    let home = page("index.html");
    assert!(
        home.contains("data-island=\"ContactForm\"") && home.contains("id=\"contact-countryCode\"")
    );
}

#[test]
fn a_missing_islands_build_is_a_clear_error() {
    let f = Fixture::real_site();
    std::fs::remove_file(f.path("islands/build/manifest.json")).expect("remove manifest");
    let err = site::check(&f.project()).expect_err("no islands build");
    assert!(err.to_string().contains("make islands"), "{err}");
}

#[test]
fn two_islands_of_a_page_never_share_an_id() {
    let f = Fixture::real_site();
    f.edit(
        "content/services/terapia-par.md",
        "button_label: \"Umów spotkanie dla pary\"",
        "button_label: \"Umów wizytę\"",
    );
    let outputs = site::check(&f.project()).expect("renders");
    let page = outputs
        .iter()
        .find(|o| o.path == "uslugi/terapia-par/index.html")
        .expect("the service page");
    let html = String::from_utf8(page.bytes.to_vec()).expect("utf-8");
    let titles: Vec<&str> = html
        .split("<h2 id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|id| id.ends_with("R_0_"))
        .collect();
    assert_eq!(titles.len(), 2, "two dialogs' titles: {titles:?}");
    assert_ne!(
        titles[0], titles[1],
        "the same props, yet each island has its own identifierPrefix"
    );
    for title in &titles {
        let prefix = title.trim_start_matches('_').trim_end_matches("R_0_");
        assert!(
            html.contains(&format!("data-id-prefix=\"{prefix}\"")),
            "hydrated with the prefix it was prerendered with: {prefix}"
        );
    }
    f.edit("templates/service.html", "id=\"bottom\", ", "");
    f.edit("templates/service.html", "id=\"top\", ", "");
    let err = site::check(&f.project()).expect_err("two identical islands on one page");
    assert!(
        err.to_string()
            .contains("uslugi/terapia-par/index.html shows the island BookingButton twice"),
        "{err}"
    );
}
