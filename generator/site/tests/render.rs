//! The real site rendered into temp dirs: every route with its parts.

use crate::common;
use common::Fixture;
use std::collections::BTreeMap;

/// The nine pages of the site, the crisis-help page and the minors' protection standards.
const PAGES: [&str; 12] = [
    "/m1",
    "/",
    "/o-mnie",
    "/uslugi",
    "/cennik",
    "/blog",
    "/regulamin",
    "/regulamin-2025",
    "/polityka-prywatnosci",
    "/administratormagda",
    "/pilna-pomoc",
    "/standardy-ochrony-maloletnich",
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

/// Every page of one build of the real site, shared by the tests that only read it: the
/// site is rendered once per test binary, not once per test.
fn real_pages() -> &'static BTreeMap<String, String> {
    static PAGES: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    PAGES.get_or_init(|| rendered(&Fixture::real_site()))
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
    let html = real_pages();
    for route in all_routes() {
        let page = html
            .get(&file_of(&route))
            .unwrap_or_else(|| panic!("{route} was not rendered"));
        assert!(page.contains("<html lang=\"pl\""), "{route}");
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
    let html = real_pages();
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
                "target=\"_blank\" rel=\"noopener\" aria-describedby=\"booking-note-nav\"><span>Umów</span> <span>wizytę</span>"
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
    let html = real_pages();
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
    let html = real_pages();
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
    assert!(home.contains("<strong>") && home.contains("rozmowy telefonicznej (do 10\u{a0}minut)"));
    assert!(
        home.contains("<a class=\"nowrap\" href=\"tel:+48583452190\">Zadzwoń:"),
        "the free call's prompt gives the number to dial"
    );
    assert!(home.contains("id=\"contact\""));
}

#[test]
fn a_service_page_has_two_booking_buttons() {
    let html = real_pages();
    let page = &html["uslugi/diagnoza-adhd/index.html"];
    // Each opens the dialog and is described by the line saying whose calendar it is.
    for label in ["Umów wizytę", "Umów konsultację diagnostyczną"] {
        let button = page
            .split("<a ")
            .find(|a| a.contains(&format!(">{label}</a>")))
            .unwrap_or_else(|| panic!("no button {label}"));
        assert!(button.contains("aria-haspopup=\"dialog\""), "{button}");
        assert!(button.contains("aria-describedby=\""), "{button}");
    }
    assert_eq!(
        page.matches(
            ">Rezerwacja w\u{a0}serwisie ZnanyLekarz, kalendarz: Magdalena Wiśniewska</p>"
        )
        .count(),
        2
    );
    assert!(page.contains("DIVA-5") && page.contains("MOXO") && page.contains("90–120"));
}

#[test]
fn the_price_list_links_each_row_to_its_service() {
    let html = real_pages();
    let page = &html["cennik/index.html"];
    assert_eq!(page.matches("<li class=\"price-row\">").count(), 16);
    assert!(page.contains("<a href=\"/uslugi/terapia-par\">Konsultacje dla par</a>"));
    assert!(page.contains("250\u{a0}zł") && page.contains("90\u{a0}min"));
    assert!(page.contains("od 500\u{a0}zł"));
    assert!(page.contains("bezpłatnie"));
    assert!(
        page.contains("<a href=\"/#contact\">Bezpłatna rozmowa telefoniczna (do 10 minut)</a>"),
        "the free call leads to the phone number and the form, not to a paid service"
    );
    let free = page
        .split("<li class=\"price-row\">")
        .find(|row| row.contains("Bezpłatna rozmowa telefoniczna"))
        .expect("the free call's row");
    assert!(
        free.contains("href=\"tel:+48583452190\">Zadzwoń<"),
        "the free call is a call: {free}"
    );
    assert!(!free.contains("Umów wizytę"), "not a booking: {free}");
    let rows = page
        .split("<li class=\"price-row\">")
        .skip(1)
        .filter(|row| row.contains(">Umów wizytę<span"))
        .count();
    assert_eq!(rows, 15, "every other row books");
}

#[test]
fn articles_show_a_polish_date_and_a_16_9_hero() {
    let html = real_pages();
    let page = &html["blog/terapia-cbt/index.html"];
    assert!(page.contains("<time datetime=\"2025-07-24\">24 lipca 2025</time>"));
    assert!(
        page.contains("class=\"article-hero\"") && page.contains("width=\"1600\" height=\"900\"")
    );
    assert!(page.contains("8 do 20"));
}

#[test]
fn a_missing_image_gets_the_same_fallback_of_the_site_every_build() {
    let f = Fixture::real_site();
    f.edit(
        "content/blog/terapia-cbt.md",
        "image: \"las.svg\"",
        "image: \"\"",
    );
    let first = rendered(&f);
    let page = &first["blog/terapia-cbt/index.html"];
    let hero = page
        .split("<img ")
        .find(|tag| tag.contains("class=\"article-hero\""))
        .expect("the article's hero");
    let fallbacks = ["gabinet-fotele", "notes-herbata", "baltyk-poranek", "morze"];
    let src = hero.split('"').nth(1).unwrap_or_default();
    assert!(
        (src.starts_with("/assets/img/") || src.starts_with("/images/"))
            && fallbacks.iter().any(|f| src.contains(f)),
        "the fallback is one of the site's own images, served from dist/: {hero}"
    );
    assert!(
        !page.contains("images.unsplash.com"),
        "nothing from a third party"
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
    let page = &real_pages()["404.html"];
    assert!(page.contains("Unexpected Application Error!"));
    assert!(page.contains("404 Not Found"));
    assert!(
        !page.contains("rel=\"canonical\"") && !page.contains("og:url"),
        "the error page names no address of its own: /404 is itself a 404"
    );
}

#[test]
fn no_page_repeats_an_id_however_many_islands_it_has() {
    let id = regex::Regex::new(r#"\sid="([^"]+)""#).expect("regex");
    for (file, html) in real_pages() {
        let mut seen = std::collections::BTreeSet::new();
        for c in id.captures_iter(html) {
            assert!(seen.insert(c[1].to_string()), "{file} repeats id {}", &c[1]);
        }
    }
}

#[test]
fn link_previews_describe_their_image_and_articles_their_publisher() {
    let pages = real_pages();
    for (file, html) in pages
        .iter()
        .filter(|(f, _)| !f.starts_with("administratormagda"))
    {
        assert!(
            html.contains("<meta property=\"og:image:alt\" content=\""),
            "{file}"
        );
    }
    assert!(pages["index.html"].contains("content=\"Napis „Gabinet Harmonia."));
    let alt = |file: &str| {
        let html = &pages[file];
        let start = html.find("og:image:alt\" content=\"").expect("an alt") + 23;
        html[start..].split('"').next().expect("closed").to_string()
    };
    assert!(
        alt("blog/pierwsza-wizyta/index.html").starts_with("Otwarty notes"),
        "a photograph previews with its own alt text"
    );
    assert!(
        alt("blog/terapia-cbt/index.html").starts_with("Napis „Gabinet Harmonia."),
        "an illustration (SVG) previews as the site's image, with that image's alt text"
    );
    let article = &pages["blog/terapia-cbt/index.html"];
    let publisher = article.split("\"publisher\":").nth(1).expect("a publisher");
    assert!(
        publisher.starts_with("{\"@id\":\"https://gabinet-harmonia.pl/#gabinet\"}"),
        "the publisher is named by its @id: {publisher}"
    );
    assert!(
        article.contains(
            "\"@id\":\"https://gabinet-harmonia.pl/#gabinet\",\"@type\":\"MedicalBusiness\""
        ) && article.contains("\"streetAddress\":\"al. Grunwaldzka 82/4\""),
        "and described in full, with its address, on the same page"
    );
    let home = &pages["index.html"];
    assert!(
        home.contains("\"@type\":\"WebSite\""),
        "the home page describes the site"
    );
    assert!(home.contains("\"@id\":\"https://gabinet-harmonia.pl/#strona\""));
}

#[test]
fn the_admin_frame_is_titled_and_not_indexed() {
    let page = &real_pages()["administratormagda/index.html"];
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

const PRACTICE: &str = "https://booksy.com/pl-pl/184512_gabinet-harmonia_psycholog_11093_gdansk";
const MAGDALENA: &str = "https://www.znanylekarz.pl/magdalena-wisniewska/psycholog/gdansk";
const TOMASZ: &str =
    "https://booksy.com/pl-pl/184517_tomasz-lewandowski-coaching-adhd_psycholog_11093_gdansk";
const FACILITY: &str = "https://www.znanylekarz.pl/placowki/1184377-gabinet-harmonia";

/// The article's booking box.
fn cta(html: &str) -> String {
    let start = html.find("article-cta").expect("a booking box");
    html[start..]
        .split("</aside>")
        .next()
        .expect("closed")
        .to_string()
}

#[test]
fn every_article_links_to_the_doctor_listing_platform() {
    let f = Fixture::real_site();
    f.edit(
        "content/blog/terapia-cbt.md",
        "therapist: \"magdalena-wisniewska\"",
        "therapist: \"tomasz-lewandowski\"",
    );
    let pages = rendered(&f);
    for article in ARTICLES {
        let box_ = cta(&pages[&file_of(&format!("/blog/{article}"))]);
        assert!(
            box_.contains("href=\"https://www.znanylekarz.pl/"),
            "{article}: {box_}"
        );
        assert!(
            box_.contains("w&nbsp;serwisie ZnanyLekarz"),
            "{article}: {box_}"
        );
    }
    let own = cta(&pages["blog/techniki-psychoterapii/index.html"]);
    assert!(own.contains(MAGDALENA), "her profile: {own}");
    assert!(own.contains("zaprasza Magdalena Wiśniewska"), "{own}");
    let booksy_only = cta(&pages["blog/terapia-cbt/index.html"]);
    assert!(
        booksy_only.contains(FACILITY),
        "Tomasz books on Booksy: {booksy_only}"
    );
    assert!(
        !booksy_only.contains("Tomasz"),
        "the box does not promise him on the facility's page: {booksy_only}"
    );
    let without = cta(&pages["blog/pierwsza-wizyta/index.html"]);
    assert!(without.contains(FACILITY), "the facility's page: {without}");
}

/// The booking button islands' props on a service page.
fn booking_props(html: &str) -> Vec<serde_json::Value> {
    html.split("data-island=\"BookingButton\"")
        .skip(1)
        .map(|part| {
            let open = "<script type=\"application/json\">";
            let start = part.find(open).expect("props") + open.len();
            let end = start + part[start..].find("</script>").expect("closed");
            serde_json::from_str(&part[start..end]).expect("json props")
        })
        .collect()
}

#[test]
fn every_booking_row_of_the_spec_holds_at_once() {
    let pages = real_pages();
    let nav = format!("class=\"btn btn-primary nav-book\" href=\"{PRACTICE}\"");
    for route in ["/", "/cennik", "/uslugi/terapia-par", "/blog/terapia-cbt"] {
        assert!(pages[&file_of(route)].contains(&nav), "{route}");
    }
    let home = &pages["index.html"];
    assert!(
        home.contains(&format!("href=\"{PRACTICE}\"")),
        "the hero's button"
    );
    assert!(
        home.contains("data-zlw-facility=\"1184377\"") && home.contains(FACILITY),
        "the facility's calendar"
    );
    assert!(
        home.contains("kalendarz serwisu ZnanyLekarz")
            && home.contains("strony rezerwacji w&nbsp;serwisie Booksy"),
        "the home text names both platforms its buttons lead to"
    );
    assert!(
        home.contains(&format!("href=\"{MAGDALENA}\""))
            && home.contains("data-zlw-doctor=\"magdalena-wisniewska\""),
        "her certificate badge on her portrait"
    );
    assert!(
        !home.contains("<script src=\"https://platform.docplanner.com"),
        "nothing of the platform loads with the page"
    );
    let about = &pages["o-mnie/index.html"];
    for url in [MAGDALENA, TOMASZ] {
        assert!(about.contains(&format!("href=\"{url}\"")), "{url}");
    }
    let service = |slug: &str| booking_props(&pages[&file_of(&format!("/uslugi/{slug}"))]);
    for slug in SERVICES {
        assert_eq!(service(slug).len(), 2, "{slug}: two buttons");
    }
    let widget = &service("terapia-indywidualna")[0];
    assert_eq!(widget["bookingUrl"], MAGDALENA);
    assert_eq!(widget["doctor"]["doctorId"], "magdalena-wisniewska");
    assert_eq!(
        widget["doctor"]["widgetHost"],
        "https://platform.docplanner.com"
    );
    let booksy = &service("coaching-adhd")[1];
    assert_eq!(
        (&booksy["bookingUrl"], &booksy["doctor"]),
        (&serde_json::json!(TOMASZ), &serde_json::Value::Null)
    );
    assert_eq!(
        service("konsultacje-psychologiczne")[0]["bookingUrl"],
        PRACTICE
    );
}

#[test]
fn every_service_has_a_price_row_whose_button_books_it_where_its_page_does() {
    let pages = real_pages();
    let prices = &pages["cennik/index.html"];
    let rows: Vec<&str> = prices.split("<li class=\"price-row\">").skip(1).collect();
    for slug in SERVICES {
        let href = format!("<a href=\"/uslugi/{slug}\">");
        let row = rows
            .iter()
            .find(|r| r.contains(&href))
            .unwrap_or_else(|| panic!("no price row for {slug}"));
        let props = booking_props(&pages[&file_of(&format!("/uslugi/{slug}"))]);
        let url = props[0]["bookingUrl"].as_str().expect("a booking url");
        assert!(
            row.contains(&format!(
                "href=\"{url}\" target=\"_blank\" rel=\"noopener\""
            )) && row.contains(">Umów wizytę<"),
            "{slug}: {row}"
        );
        // Every row says where it books: the platform, and whose calendar.
        let whose = if url == PRACTICE {
            "Rezerwacja w\u{a0}serwisie Booksy, kalendarz gabinetu"
        } else {
            "Rezerwacja w\u{a0}serwisie "
        };
        assert!(
            row.contains("class=\"booking-note\"") && row.contains(whose),
            "{slug}: {row}"
        );
    }
    let free = rows
        .iter()
        .find(|r| r.contains("<a href=\"/#contact\">"))
        .expect("the free call's row");
    assert!(
        free.contains("href=\"tel:") && !free.contains(&format!("href=\"{PRACTICE}\"")),
        "the free call dials rather than books: {free}"
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

#[test]
fn search_titles_name_the_place_where_the_spec_fixes_the_page_name() {
    let html = real_pages();
    for route in ["/o-mnie", "/uslugi", "/cennik", "/blog", "/pilna-pomoc"] {
        let page = &html[&file_of(route)];
        let title = page
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .expect("a title");
        assert!(title.contains("Gdańsk"), "{route}: {title}");
        let og = page
            .split("<meta property=\"og:title\" content=\"")
            .nth(1)
            .expect("og:title");
        assert!(
            og.split('"').next().is_some_and(|t| t.contains("Gdańsk")),
            "{route}"
        );
    }
    let about = &html[&file_of("/o-mnie")];
    assert!(
        about.contains("<h1>O Nas</h1>"),
        "the visible title stays the SPEC's"
    );
}
