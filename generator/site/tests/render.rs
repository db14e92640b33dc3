//! The real site rendered into temp dirs: every route of SPEC §2 with its parts.

use crate::common;
use common::Fixture;
use std::collections::BTreeMap;

/// The nine pages of SPEC §2 and the crisis-help page of issue 13.
const PAGES: [&str; 10] = [
    "/m1",
    "/",
    "/o-mnie",
    "/uslugi",
    "/cennik",
    "/blog",
    "/regulamin",
    "/polityka-prywatnosci",
    "/administratormagda",
    "/pilna-pomoc",
];
const SERVICES: [&str; 11] = [
    "terapia-indywidualna",
    "konsultacje-psychologiczne",
    "rozwoj-osobisty",
    "terapia-par",
    "wsparcie-dla-mlodziezy",
    "konsultacje-rodzicielskie",
    "psychoedukacja",
    "diagnoza-adhd",
    "coaching-adhd",
    "coaching-indywidualny",
    "interwencja-kryzysowa",
];
const ARTICLES: [&str; 15] = [
    "pierwsza-wizyta",
    "terapia-online",
    "konsultacje-psychologiczne",
    "radzenie-sobie-z-lekiem",
    "zdrowie-psychiczne-harmonia",
    "terapia-cbt",
    "praktyka-mindfulness",
    "psycholog-gdansk",
    "terapia-gdansk",
    "psychologia-dzieci-gdansk",
    "terapia-dla-doroslych-gdansk",
    "techniki-psychoterapii",
    "psycholog-online-gdansk",
    "psychoterapia-par-gdansk",
    "psycholog-sportowy-gdansk",
];
const UNLISTED: [&str; 3] = [
    "konsultacje-psychologiczne",
    "radzenie-sobie-z-lekiem",
    "zdrowie-psychiczne-harmonia",
];

/// Every page of a build: the public site's and the panel's.
fn rendered(f: &Fixture) -> BTreeMap<String, String> {
    let build = site::Builder::new(f.project())
        .render()
        .expect("site renders");
    build
        .outputs
        .into_iter()
        .chain(build.panel)
        .filter(|o| o.path.ends_with(".html"))
        .map(|o| {
            (
                o.path,
                String::from_utf8(o.bytes.to_vec()).expect("utf-8 html"),
            )
        })
        .collect()
}

fn file_of(route: &str) -> String {
    match route.trim_matches('/') {
        "" => "index.html".into(),
        r => format!("{r}/index.html"),
    }
}

fn all_routes() -> Vec<String> {
    let services = SERVICES.iter().map(|s| format!("/uslugi/{s}"));
    let articles = ARTICLES.iter().map(|a| format!("/blog/{a}"));
    PAGES
        .iter()
        .map(|p| p.to_string())
        .chain(services)
        .chain(articles)
        .collect()
}

#[test]
fn every_route_of_the_spec_is_a_polish_page_with_title_and_description() {
    let html = rendered(&Fixture::real_site());
    for route in all_routes() {
        let page = html
            .get(&file_of(&route))
            .unwrap_or_else(|| panic!("{route} was not rendered"));
        assert!(page.contains("<html lang=\"pl\">"), "{route}");
        assert!(
            page.contains("<title>") && page.contains("<meta name=\"description\" content=\""),
            "{route}"
        );
        assert!(page.contains("<h1"), "{route} has no heading");
    }
    assert_eq!(
        html.len(),
        all_routes().len() + 1,
        "only the routes and 404.html"
    );
}

#[test]
fn two_builds_of_the_same_content_are_byte_identical() {
    let f = Fixture::real_site();
    let a = site::check(&f.project()).expect("first");
    let b = site::check(&f.project()).expect("second");
    assert_eq!(a, b);
}

#[test]
fn navigation_and_footer_are_on_every_page_but_the_landing_and_the_panel() {
    let html = rendered(&Fixture::real_site());
    let admin = &html[&file_of("/administratormagda")];
    assert!(
        !admin.contains("id=\"footer-brand\""),
        "the panel has its own frame"
    );
    assert!(!admin.contains("<script>"), "and no inline script");
    for route in all_routes()
        .iter()
        .filter(|r| *r != "/m1" && *r != "/administratormagda")
    {
        let page = &html[&file_of(route)];
        for link in [
            "href=\"/o-mnie\"",
            "href=\"/uslugi\"",
            "href=\"/cennik\"",
            "href=\"/blog\"",
        ] {
            assert!(page.contains(link), "{route} lacks {link}");
        }
        assert!(
            page.contains(
                "target=\"_blank\" rel=\"noopener\"><span>Umów</span> <span>wizytę</span>"
            ),
            "{route}"
        );
        assert!(
            page.contains("aria-expanded=\"false\" aria-controls=\"mobile-menu\""),
            "{route}"
        );
        for column in [
            "id=\"footer-brand\"",
            "id=\"footer-menu\"",
            "id=\"footer-contact\"",
            "id=\"footer-docs\"",
        ] {
            assert!(
                page.contains(column),
                "{route} lacks footer column {column}"
            );
        }
        assert!(page.contains("© 2025"), "{route}");
    }
    let landing = &html["m1/index.html"];
    assert!(landing.contains(">Przejdź do strony głównej</a>"));
    assert!(!landing.contains("id=\"footer-menu\""));
}

#[test]
fn the_blog_lists_twelve_articles_and_hides_three() {
    let html = rendered(&Fixture::real_site());
    let blog = &html["blog/index.html"];
    assert_eq!(blog.matches("<article class=\"card\">").count(), 12);
    for slug in UNLISTED {
        assert!(
            !blog.contains(&format!("href=\"/blog/{slug}\"")),
            "{slug} must not be listed"
        );
        assert!(
            html.contains_key(&format!("blog/{slug}/index.html")),
            "{slug} must be reachable"
        );
    }
}

#[test]
fn services_list_has_nine_cards_and_home_three_of_each() {
    let html = rendered(&Fixture::real_site());
    let services = &html["uslugi/index.html"];
    assert_eq!(services.matches("<article class=\"card\">").count(), 9);
    assert!(
        services.contains(">Rozwój Osobisty</a>"),
        "coaching-indywidualny is labelled Rozwój Osobisty"
    );
    let home = &html["index.html"];
    assert_eq!(home.matches("href=\"/uslugi/").count(), 3);
    assert_eq!(home.matches("<article class=\"card\">").count(), 6);
    assert!(home.contains("Znajdź swoją ścieżkę do harmonii"));
    assert!(home.contains("<strong>") && home.contains("10-minutowej konsultacji"));
    assert!(home.contains("id=\"contact\""));
}

#[test]
fn a_service_page_has_two_booking_buttons() {
    let html = rendered(&Fixture::real_site());
    let page = &html["uslugi/diagnoza-adhd/index.html"];
    assert!(page.contains("aria-haspopup=\"dialog\">Umów wizytę</a>"));
    assert!(page.contains("aria-haspopup=\"dialog\">Umów konsultację diagnostyczną</a>"));
    assert!(page.contains("DIVA-5") && page.contains("MOXO") && page.contains("90–120"));
}

#[test]
fn the_price_list_links_each_row_to_its_service() {
    let html = rendered(&Fixture::real_site());
    let page = &html["cennik/index.html"];
    assert_eq!(page.matches("<li class=\"price-row\">").count(), 16);
    assert!(page.contains("<a href=\"/uslugi/terapia-par\">Terapia par</a>"));
    assert!(page.contains("250\u{a0}zł") && page.contains("90\u{a0}min"));
    assert!(page.contains("od 500\u{a0}zł"));
    assert!(page.contains("bezpłatnie"));
    assert!(
        page.contains("<a href=\"/#contact\">Bezpłatna konsultacja telefoniczna</a>"),
        "the free call leads to the phone number and the form, not to a paid service"
    );
}

#[test]
fn articles_show_a_polish_date_and_a_16_9_hero() {
    let html = rendered(&Fixture::real_site());
    let page = &html["blog/terapia-cbt/index.html"];
    assert!(page.contains("<time datetime=\"2025-07-24\">24 lipca 2025</time>"));
    assert!(
        page.contains("class=\"article-hero\"") && page.contains("width=\"1600\" height=\"900\"")
    );
    assert!(page.contains("8 do 20"));
}

#[test]
fn a_missing_image_gets_the_same_stock_fallback_every_build() {
    let f = Fixture::real_site();
    f.edit(
        "content/blog/terapia-cbt.md",
        "image: \"las.svg\"",
        "image: \"\"",
    );
    let first = rendered(&f);
    let page = &first["blog/terapia-cbt/index.html"];
    let stock = "https://images.unsplash.com/photo-";
    let hero = page
        .split("<img ")
        .find(|tag| tag.contains("class=\"article-hero\""))
        .expect("the article's hero");
    assert!(
        hero.starts_with(&format!("src=\"{stock}")),
        "fallback is a stock image: {hero}"
    );
    assert_eq!(first, rendered(&f));
}

#[test]
fn a_stock_id_is_expanded_to_the_stock_address() {
    let f = Fixture::real_site();
    f.edit(
        "content/blog/terapia-cbt.md",
        "image: \"las.svg\"",
        "image: \"photo-123-abc\"",
    );
    let page = &rendered(&f)["blog/terapia-cbt/index.html"];
    assert!(page.contains("src=\"https://images.unsplash.com/photo-123-abc?auto=format"));
}

#[test]
fn the_error_page_shows_the_router_error_text() {
    let page = &rendered(&Fixture::real_site())["404.html"];
    assert!(page.contains("Unexpected Application Error!"));
    assert!(page.contains("404 Not Found"));
}

#[test]
fn the_admin_frame_is_titled_and_not_indexed() {
    let page = &rendered(&Fixture::real_site())["administratormagda/index.html"];
    assert!(page.contains("<h1>Panel Administracyjny</h1>"));
    assert!(page.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"));
}

#[test]
fn the_stylesheet_has_a_content_hashed_name() {
    let outputs = site::check(&Fixture::real_site().project()).expect("renders");
    let css = outputs
        .iter()
        .find(|o| o.path.starts_with("assets/style.") && o.path.ends_with(".css"))
        .expect("hashed stylesheet");
    assert_ne!(css.path, "assets/style.css");
    let home = outputs
        .iter()
        .find(|o| o.path == "index.html")
        .expect("home");
    assert!(String::from_utf8_lossy(&home.bytes).contains(&format!("href=\"/{}\"", css.path)));
}

#[test]
fn every_document_shows_its_own_text() {
    let f = Fixture::real_site();
    let html = rendered(&f);
    let content = site::load(&f.project()).expect("loads");
    let route = |r: &Option<String>| r.clone().expect("a public document");
    let pages = content.pages.iter().map(|d| (route(&d.route), &d.sections));
    let services = content
        .services
        .iter()
        .map(|d| (route(&d.route), &d.sections));
    let articles = content
        .articles
        .iter()
        .map(|d| (route(&d.route), &d.sections));
    for (route, sections) in pages.chain(services).chain(articles) {
        let Some(first) = sections.iter().find(|s| !s.content.trim().is_empty()) else {
            continue;
        };
        let line = first
            .content
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        let text = content::markdown::plain_text(line);
        let opening: Vec<&str> = text.split_whitespace().take(3).collect();
        let expected = site::markdown::typeset(&opening.join(" "));
        let page = html[&file_of(&route)].replace("&nbsp;", "\u{a0}");
        assert!(
            page.contains(&expected),
            "{route} does not show {expected:?}"
        );
    }
}

#[test]
fn facts_come_from_site_yaml_and_faq_sections_are_described_for_search_engines() {
    let f = Fixture::real_site();
    f.edit(
        "content/site.yaml",
        "street: \"al. Grunwaldzka 82/4\"",
        "street: \"al. Zwycięstwa 10\"",
    );
    f.edit(
        "content/services/terapia-par.md",
        "## Najczęstsze pytania",
        "Zapraszamy pod adres: {{ adres }}.\n\n<!-- section: faq -->\n## Najczęstsze pytania",
    );
    let pages = rendered(&f);
    let service = &pages["uslugi/terapia-par/index.html"];
    assert!(
        service.contains("al. Zwycięstwa 10, 80-244 Gdańsk"),
        "the address is filled in"
    );
    assert!(!service.contains("{{ adres }}"));
    assert!(
        service.contains("\"@type\":\"FAQPage\""),
        "a faq section gives a FAQPage"
    );
    assert!(service.contains("\"@type\":\"Question\""));
    let footer_address = pages["index.html"].contains("al. Zwycięstwa 10");
    assert!(footer_address, "the footer shows the same address");
}

#[test]
fn an_article_books_with_its_therapist_or_with_the_practice() {
    let f = Fixture::real_site();
    f.edit(
        "content/blog/terapia-cbt.md",
        "therapist: \"magdalena-wisniewska\"",
        "therapist: \"tomasz-lewandowski\"",
    );
    let pages = rendered(&f);
    let cta = |html: &str| {
        let start = html.find("article-cta").expect("a booking box");
        html[start..]
            .split("</aside>")
            .next()
            .expect("closed")
            .to_string()
    };
    let with = cta(&pages["blog/terapia-cbt/index.html"]);
    assert!(
        with.contains("booksy.com/pl-pl/184517_tomasz-lewandowski"),
        "{with}"
    );
    assert!(with.contains("Tomasz Lewandowski"), "{with}");
    let without = cta(&pages["blog/pierwsza-wizyta/index.html"]);
    assert!(
        without.contains("184512_gabinet-harmonia"),
        "the practice's page: {without}"
    );
}

#[test]
fn the_consent_banner_asks_only_about_categories_the_site_uses() {
    let f = Fixture::real_site();
    let home = rendered(&f)["index.html"].clone();
    assert!(home.contains("name=\"analytics\""));
    assert!(
        !home.contains("name=\"advertising\""),
        "no advertising cookie is listed"
    );
}
