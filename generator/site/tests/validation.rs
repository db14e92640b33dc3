//! Each kind of content error is reported with its file and line, all at once.

use crate::common;
use common::{assert_problem, Fixture};

const ARTICLE: &str = "content/blog/terapia-cbt.md";
const SERVICE: &str = "content/services/terapia-par.md";

#[test]
fn the_real_content_has_no_problems() {
    let outputs = site::check(&Fixture::real_site().project()).expect("the real site checks clean");
    assert!(outputs.iter().any(|o| o.path == "index.html"));
}

#[test]
fn an_unknown_front_matter_field_is_named_with_its_line() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "author:", "autor: \"Ktoś\"\nauthor:");
    let line = f.line_of(ARTICLE, "autor:");
    assert_problem(&f.problems(), ARTICLE, line, "unknown field `autor`");
}

#[test]
fn a_missing_front_matter_field_is_named() {
    let f = Fixture::real_site();
    let line = f.line_of(ARTICLE, "excerpt:");
    let text = f.read(ARTICLE);
    let without: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| i + 1 != line)
        .map(|(_, l)| l)
        .collect();
    f.write(ARTICLE, &(without.join("\n") + "\n"));
    let problems = f.problems();
    assert!(
        problems
            .iter()
            .any(|d| d.file.ends_with(ARTICLE) && d.english().contains("missing field `excerpt`")),
        "{problems:#?}"
    );
}

#[test]
fn an_unclosed_front_matter_points_at_line_one() {
    let f = Fixture::real_site();
    f.write(
        SERVICE,
        "---\ntitle: \"Konsultacje dla par\"\n\nTreść bez końca front matter.\n",
    );
    assert_problem(&f.problems(), SERVICE, 1, "not closed");
}

#[test]
fn a_duplicate_slug_names_both_files() {
    let f = Fixture::real_site();
    f.write("content/blog/2024/terapia-cbt.md", &f.read(ARTICLE));
    let problems = f.problems();
    assert_problem(
        &problems,
        "content/blog/terapia-cbt.md",
        1,
        "duplicate slug 'terapia-cbt'",
    );
}

#[test]
fn a_link_to_a_missing_route_or_the_panel_points_at_its_line() {
    for (url, problem) in [
        (
            "/uslugi/nie-ma-takiej",
            "'/uslugi/nie-ma-takiej' leads to no page",
        ),
        (
            "/administratormagda",
            "'/administratormagda' leads to the admin panel",
        ),
    ] {
        let f = Fixture::real_site();
        f.edit(
            ARTICLE,
            "## Ile trwa",
            &format!("Zobacz [tę stronę]({url}).\n\n## Ile trwa"),
        );
        let line = f.line_of(ARTICLE, &format!("({url})"));
        assert_problem(&f.problems(), ARTICLE, line, problem);
    }
}

#[test]
fn a_price_list_link_to_a_missing_route_is_reported() {
    let f = Fixture::real_site();
    f.edit(
        "content/cennik.yaml",
        "link: \"/uslugi/terapia-par\"",
        "link: \"/uslugi/terapia-pary\"",
    );
    let line = f.line_of("content/cennik.yaml", "/uslugi/terapia-pary");
    assert_problem(
        &f.problems(),
        "content/cennik.yaml",
        line,
        "leads to no page",
    );
}

#[test]
fn an_image_that_is_neither_url_stock_nor_file_is_reported() {
    let f = Fixture::real_site();
    f.edit(
        SERVICE,
        "image: \"zmierzch.svg\"",
        "image: \"zdjecie-pary.jpg\"",
    );
    let line = f.line_of(SERVICE, "zdjecie-pary.jpg");
    assert_problem(&f.problems(), SERVICE, line, "is neither a full address");
}

#[test]
fn url_and_stock_images_are_accepted() {
    let f = Fixture::real_site();
    f.edit(
        SERVICE,
        "image: \"zmierzch.svg\"",
        "image: \"photo-1506126613408-eca07ce68773\"",
    );
    f.edit(
        ARTICLE,
        "image: \"las.svg\"",
        "image: \"https://example.org/a.jpg\"",
    );
    site::check(&f.project()).expect("stock ids and full addresses are valid images");
}

#[test]
fn an_impossible_date_is_reported() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "date: \"2025-07-24\"", "date: \"2025-02-30\"");
    let line = f.line_of(ARTICLE, "2025-02-30");
    assert_problem(&f.problems(), ARTICLE, line, "is not a date");
}

#[test]
fn a_page_with_an_unknown_template_is_reported() {
    let f = Fixture::real_site();
    f.edit(
        "content/pages/regulamin.md",
        "title:",
        "template: legal\ntitle:",
    );
    match site::check(&f.project()) {
        Err(e) => assert!(e.to_string().contains("templates/legal.html"), "{e}"),
        Ok(_) => panic!("an unknown template must fail the check"),
    }
}

#[test]
fn all_problems_are_reported_at_once() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "author:", "autor: \"x\"\nauthor:");
    f.edit(SERVICE, "image: \"zmierzch.svg\"", "image: \"brak.png\"");
    f.edit(
        "content/pages/cennik.md",
        "](/regulamin)",
        "](/regulamin-stary)",
    );
    let problems = f.problems();
    assert_eq!(problems.len(), 3, "{problems:#?}");
}

#[test]
fn a_broken_front_matter_a_missing_field_a_dead_link_and_a_missing_alt_text_are_one_answer() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "title: \"", "title: \"Bez końca\n# \"");
    let missing = "content/blog/praktyka-mindfulness.md";
    f.edit(missing, "excerpt:", "# excerpt:");
    f.edit(
        "content/pages/cennik.md",
        "](/regulamin)",
        "](/regulamin-stary)",
    );
    let no_alt = "content/blog/pierwsza-wizyta.md";
    f.edit(
        no_alt,
        "image_alt: \"Otwarty notes",
        "image_alt: \"\"\n# \"Otwarty notes",
    );
    let problems = f.problems();
    assert_problem(
        &problems,
        ARTICLE,
        f.line_of(ARTICLE, "title: \"Bez końca"),
        "quote opened on this line",
    );
    assert!(
        problems
            .iter()
            .any(|d| d.file.ends_with(missing) && d.english().contains("missing field `excerpt`")),
        "{problems:#?}"
    );
    assert_problem(
        &problems,
        "content/pages/cennik.md",
        f.line_of("content/pages/cennik.md", "/regulamin-stary"),
        "/regulamin-stary",
    );
    assert_problem(
        &problems,
        no_alt,
        f.line_of(no_alt, "image_alt: \"\""),
        "alt text",
    );
    assert_eq!(problems.len(), 4, "{problems:#?}");
}

#[test]
fn a_conflict_left_in_a_file_is_refused_at_its_marker() {
    let f = Fixture::real_site();
    f.edit(
        ARTICLE,
        "\n\n",
        "\n\n<<<<<<< HEAD\nNasza wersja.\n=======\nIch wersja.\n>>>>>>> 3f2a9c1 (Poprawki)\n\n",
    );
    let line = f.line_of(ARTICLE, "<<<<<<< HEAD");
    assert_problem(
        &f.problems(),
        ARTICLE,
        line,
        "`git add content/blog/terapia-cbt.md` and `git commit`",
    );
    f.edit(
        "content/cennik.yaml",
        "items:",
        "items:\n<<<<<<< HEAD\n=======\n>>>>>>> main",
    );
    let line = f.line_of("content/cennik.yaml", "<<<<<<< HEAD");
    assert_problem(
        &f.problems(),
        "content/cennik.yaml",
        line,
        "unresolved git conflict",
    );
}

#[test]
fn a_broken_file_never_touches_the_published_site() {
    let f = Fixture::real_site();
    let dist = f.path("dist");
    site::build(&f.project(), &dist).expect("first build");
    let before = std::fs::read(dist.join("blog/terapia-cbt/index.html")).expect("built article");
    f.edit(ARTICLE, "title:", "tytul: \"x\"\ntitle:");
    assert!(site::build(&f.project(), &dist).is_err());
    let after =
        std::fs::read(dist.join("blog/terapia-cbt/index.html")).expect("article still there");
    assert_eq!(before, after);
}

#[test]
fn the_site_command_exits_non_zero_and_names_the_file() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "author:", "autor: \"x\"\nauthor:");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_site"))
        .args(["check", "--root"])
        .arg(f.root())
        .output()
        .expect("run site");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = f.line_of(ARTICLE, "autor:");
    assert!(
        stderr.contains(&format!(
            "terapia-cbt.md:{line}: front matter: unknown field"
        )),
        "{stderr}"
    );
}

#[test]
fn an_unknown_fact_is_named_with_its_line_and_the_known_ones() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "\n## ", "\nAdres: {{ ulica }}.\n\n## ");
    let line = f.line_of(ARTICLE, "{{ ulica }}");
    assert_problem(
        &f.problems(),
        ARTICLE,
        line,
        "'{{ ulica }}' is not a fact of site.yaml; known: nazwa, godziny, adres",
    );
}

#[test]
fn the_house_style_is_checked_with_file_and_line() {
    let f = Fixture::real_site();
    f.edit(ARTICLE, "\n## ", "\n## Jak wybrać terapeutę\n\nSesja kosztuje 190zł. Zadzwoń pod 800 70 2222.\n\nGabinet przy al. Grunwaldzkiej przyjmuje klientów.\n\n## ");
    let problems = f.problems();
    let heading = f.line_of(ARTICLE, "## Jak wybrać terapeutę");
    assert_problem(&problems, ARTICLE, heading, "must end with '?'");
    let price = f.line_of(ARTICLE, "190zł");
    assert_problem(
        &problems,
        ARTICLE,
        price,
        "space between a number and its unit",
    );
    assert_problem(&problems, ARTICLE, price, "116 123");
    let street = f.line_of(ARTICLE, "Grunwaldzkiej");
    assert_problem(&problems, ARTICLE, street, "{{ adres }}");
    assert_problem(&problems, ARTICLE, street, "'pacjent'");
}

#[test]
fn a_bad_tax_number_and_an_unknown_therapist_are_refused() {
    let f = Fixture::real_site();
    f.edit(
        "content/site.yaml",
        "nip: \"5842738192\"",
        "nip: \"5842738193\"",
    );
    f.edit(
        ARTICLE,
        "therapist: \"magdalena-wisniewska\"",
        "therapist: \"jan-kowalski\"",
    );
    f.edit(
        "content/site.yaml",
        "default_author: \"magdalena-wisniewska\"",
        "default_author: \"anna-nowak\"",
    );
    let problems = f.problems();
    let nip = f.line_of("content/site.yaml", "nip:");
    assert_problem(&problems, "content/site.yaml", nip, "not a valid NIP");
    let author = f.line_of("content/site.yaml", "default_author:");
    assert_problem(
        &problems,
        "content/site.yaml",
        author,
        "default_author: 'anna-nowak' is not a file under content/team/",
    );
    let therapist = f.line_of(ARTICLE, "therapist:");
    assert_problem(
        &problems,
        ARTICLE,
        therapist,
        "'jan-kowalski' is not a file under content/team/",
    );
}

#[test]
fn the_site_command_logs_on_standard_error_and_reports_on_standard_output() {
    let f = Fixture::real_site();
    let out = f.path("out");
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_site"))
        .args(["build", "--root"])
        .arg(f.root())
        .arg("--out")
        .arg(&out)
        .env_remove("RUST_LOG")
        .env_remove("API_ORIGIN")
        .output()
        .expect("site runs");
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("site build: ") && stdout.lines().count() == 1,
        "only the report on standard output: {stdout}"
    );
    assert!(
        stderr.contains("INFO") && stderr.contains("site built"),
        "the library's log, at info by default: {stderr}"
    );
}

#[test]
fn a_too_deeply_nested_or_too_long_section_is_named_with_its_line_before_it_is_parsed() {
    let f = Fixture::real_site();
    let text = f.read(ARTICLE);
    f.write(
        ARTICLE,
        &format!(
            "{text}\n<!-- section: text -->\nWstęp.\n\n{}x\n",
            ">".repeat(100_000)
        ),
    );
    let line = f.read(ARTICLE).lines().count();
    let started = std::time::Instant::now();
    let problems = f.problems();
    assert_problem(
        &problems,
        ARTICLE,
        line,
        "nested more than 16 levels deep here",
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "refused before the sanitiser's quadratic work: {:?}",
        started.elapsed()
    );
    f.write(
        ARTICLE,
        &format!(
            "{text}\n<!-- section: callout -->\n{}",
            "Zdanie.\n".repeat(20_000)
        ),
    );
    let marker = f.line_of(ARTICLE, "<!-- section: callout -->");
    assert_problem(&f.problems(), ARTICLE, marker + 1, "longer than 128 KiB");
}

const SITE: &str = "content/site.yaml";

#[test]
fn the_booking_model_names_every_service_and_therapist_on_their_own_platform() {
    let f = Fixture::real_site();
    f.edit(SITE, "    rozwoj-osobisty: practice\n", "");
    f.edit(
        SITE,
        "psychoedukacja: tomasz-lewandowski",
        "psychoedukacja: jan-kowalski",
    );
    f.edit(
        SITE,
        "badge_therapist: \"magdalena-wisniewska\"",
        "badge_therapist: \"tomasz-lewandowski\"",
    );
    f.edit(
        SITE,
        "url: \"https://booksy.com/pl-pl/184517",
        "url: \"https://www.znanylekarz.pl/pl-pl/184517",
    );
    let problems = f.problems();
    let services = f.line_of(SITE, "  services:");
    assert_problem(
        &problems,
        SITE,
        services,
        "'rozwoj-osobisty' (content/services/) is missing",
    );
    let stranger = f.line_of(SITE, "psychoedukacja: jan-kowalski");
    assert_problem(
        &problems,
        SITE,
        stranger,
        "booked with 'jan-kowalski', which is neither a therapist",
    );
    let badge = f.line_of(SITE, "badge_therapist:");
    assert_problem(&problems, SITE, badge, "with a doctor_id on ZnanyLekarz");
    let therapists = f.line_of(SITE, "  therapists:");
    assert_problem(
        &problems,
        SITE,
        therapists,
        "'tomasz-lewandowski': 'https://www.znanylekarz.pl/pl-pl/184517",
    );
    assert_problem(
        &problems,
        SITE,
        therapists,
        "is not a page of Booksy (booksy.com)",
    );
}

#[test]
fn facts_marked_as_example_data_are_warnings_at_their_lines_until_they_are_unmarked() {
    let f = Fixture::real_site();
    let build = site::Builder::new(f.project()).render().expect("builds");
    for key in [
        "name",
        "legal_name",
        "nip",
        "regon",
        "registered_address",
        "address",
        "phone",
        "email",
        "site_url",
        "social",
        "booking",
        "analytics_id",
        "telephony",
    ] {
        let line = f.line_of(SITE, &format!("{key}:"));
        assert_problem(
            &build.warnings,
            SITE,
            line,
            &format!("{key} is example data"),
        );
    }
    let listed = f.line_of(SITE, "example_data:");
    let text = f.read(SITE);
    let old = text.lines().nth(listed - 1).expect("the list's line");
    f.edit(SITE, old, "example_data: [nip]");
    let build = site::Builder::new(f.project()).render().expect("builds");
    let example: Vec<_> = build
        .warnings
        .iter()
        .filter(|w| w.problem.english().contains("example data"))
        .collect();
    assert_eq!(example.len(), 1, "{example:?}");
    assert!(example[0]
        .problem
        .english()
        .starts_with("nip is example data"));
    f.edit(SITE, "example_data: [nip]", "example_data: [pesel]");
    let line = f.line_of(SITE, "example_data:");
    assert_problem(&f.problems(), SITE, line, "unknown variant `pesel`");
}

#[test]
fn a_visible_text_is_checked_by_the_rules_the_panel_uses() {
    let f = Fixture::real_site();
    f.edit(
        SERVICE,
        "button_label: \"Umów spotkanie dla pary\"",
        "button_label: \"\"",
    );
    let home = "content/pages/home.md";
    let long = "ż".repeat(101);
    f.edit(
        home,
        "heading: \"Znajdź swoją ścieżkę do harmonii\"",
        &format!("heading: \"{long}\""),
    );
    let problems = f.problems();
    let label = f.line_of(SERVICE, "button_label:");
    assert_problem(
        &problems,
        SERVICE,
        label,
        "button label: the field must not be empty",
    );
    let heading = f.line_of(home, "heading:");
    assert_problem(
        &problems,
        home,
        heading,
        "heading: the text may have at most 100 characters",
    );
}

#[test]
fn terapeuta_outside_quotation_marks_is_reported_with_file_and_line() {
    let f = Fixture::real_site();
    f.edit(
        SERVICE,
        "\n## ",
        "\nNa spotkaniu terapeuta wyjaśnia zasady, a „Terapeuta roku” to nazwa nagrody.\n\n## ",
    );
    let problems = f.problems();
    let line = f.line_of(SERVICE, "Na spotkaniu terapeuta");
    assert_problem(&problems, SERVICE, line, "'terapeuta'");
    assert_eq!(
        problems.len(),
        1,
        "the quoted name is not reported: {problems:#?}"
    );
    assert!(
        problems[0]
            .problem
            .polish()
            .contains("o sobie piszemy „psycholog”"),
        "{problems:#?}"
    );
}

#[test]
fn the_footer_links_the_minors_standards_and_the_page_exists() {
    const FOOTER: &str = "templates/partials/footer.html";
    let f = Fixture::real_site();
    f.edit(
        FOOTER,
        "        <li><a href=\"/standardy-ochrony-maloletnich\">Standardy ochrony małoletnich</a></li>\n",
        "",
    );
    let problems = f.problems();
    let docs = f.line_of(FOOTER, "footer-docs");
    assert_problem(&problems, FOOTER, docs, "minors' protection standards");
    assert_eq!(problems.len(), 1, "{problems:#?}");

    // The page gone, and with it every link of the texts (which the link check reports on
    // its own): the footer's link is what is left.
    let f = Fixture::real_site();
    std::fs::remove_file(f.path("content/pages/standardy-ochrony-maloletnich.md"))
        .expect("remove the page");
    for entry in walkdir::WalkDir::new(f.path("content")) {
        let path = entry.expect("walk").into_path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("read");
            let text = text.replace("](/standardy-ochrony-maloletnich)", "](/regulamin)");
            std::fs::write(&path, text).expect("write");
        }
    }
    let problems = f.problems();
    let link = f.line_of(FOOTER, "/standardy-ochrony-maloletnich");
    assert_problem(&problems, FOOTER, link, "there is no such page");
    assert_eq!(problems.len(), 1, "{problems:#?}");
}

#[test]
fn the_site_command_says_what_it_takes_when_it_is_called_wrongly() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_site"))
            .args(args)
            .output()
            .expect("run site")
    };
    let missing = run(&["rebuild-timing"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--edit <EDIT>"));
    let unknown = run(&["publish"]);
    assert_eq!(unknown.status.code(), Some(2));
    let help = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    for command in ["check", "build", "rebuild-timing"] {
        assert!(help.contains(command), "{help}");
    }
}

#[test]
fn a_sentence_that_has_a_trainee_conduct_therapy_needs_the_qualifier_at_its_line() {
    let f = Fixture::real_site();
    let qualified = "Terapię CBT prowadzi Magdalena Wiśniewska, psycholożka w trakcie czteroletniego szkolenia w psychoterapii poznawczo-behawioralnej, pracująca pod superwizją.";
    f.edit(
        ARTICLE,
        qualified,
        "Terapię CBT prowadzi Magdalena Wiśniewska.",
    );
    let line = f.line_of(ARTICLE, "Terapię CBT prowadzi Magdalena Wiśniewska.");
    let problems = f.problems();
    assert_problem(
        &problems,
        ARTICLE,
        line,
        "conducts therapy without saying that the psychotherapy training is still under way",
    );
    let polish = problems
        .iter()
        .find(|d| d.file.ends_with(ARTICLE))
        .expect("the problem")
        .problem
        .sentence();
    assert!(polish.contains("w trakcie szkolenia"), "{polish}");
    let team = "content/team/magdalena-wisniewska.md";
    f.edit(
        team,
        "Czteroletnie szkolenie w psychoterapii poznawczo-behawioralnej – w trakcie (od 2023)",
        "Czteroletnie szkolenie w psychoterapii poznawczo-behawioralnej – ukończone (2026), certyfikat nr 1234",
    );
    site::check(&f.project()).expect("a completed training needs no qualifier");
}

#[test]
fn dates_of_legal_texts_are_written_one_way() {
    let f = Fixture::real_site();
    let terms = "content/pages/regulamin.md";
    f.edit(terms, "dated: \"14.12.2026\"", "dated: \"14.12.26\"");
    f.edit(
        terms,
        "obowiązywał [Regulamin",
        "(26.2.2025) obowiązywał [Regulamin",
    );
    let problems = f.problems();
    assert_problem(
        &problems,
        terms,
        f.line_of(terms, "dated:"),
        "'14.12.26' is not a date written dd.mm.rrrr",
    );
    assert_problem(
        &problems,
        terms,
        f.line_of(terms, "(26.2.2025)"),
        "'26.2.2025' is not a date written dd.mm.rrrr",
    );
}

#[test]
fn a_title_search_results_would_cut_is_reported_at_its_field() {
    let f = Fixture::real_site();
    f.edit(
        ARTICLE,
        "title: \"Terapia poznawczo-behawioralna (CBT) – jak działa?\"",
        "title: \"Terapia poznawczo-behawioralna (CBT) – na czym polega ta metoda?\"",
    );
    assert_problem(
        &f.problems(),
        ARTICLE,
        2,
        "has 83 characters; at most 70 fit",
    );
    let page = "content/pages/cennik.md";
    f.edit(ARTICLE, "na czym polega ta metoda?", "jak działa?");
    f.edit(
        page,
        "seo_title: \"Cennik – psycholog w Gdańsku\"",
        "seo_title: \"Cennik usług psychologicznych: konsultacje, terapia i diagnoza ADHD\"",
    );
    let line = f.line_of(page, "seo_title:");
    assert_problem(&f.problems(), page, line, "at most 70 fit");
}

#[test]
fn a_public_page_no_other_page_links_to_is_reported() {
    let f = Fixture::real_site();
    let article = "content/blog/radzenie-sobie-z-lekiem.md";
    f.edit(
        "content/blog/praktyka-mindfulness.md",
        "Inne sposoby na codzienny niepokój opisujemy w artykule [Pięć sposobów na radzenie sobie z lękiem](/blog/radzenie-sobie-z-lekiem), a o tym",
        "O tym",
    );
    f.edit(
        "content/services/terapia-indywidualna.md",
        " (kilka sposobów, które możesz wypróbować już dziś, opisujemy w artykule [Pięć sposobów na radzenie sobie z lękiem](/blog/radzenie-sobie-z-lekiem))",
        "",
    );
    let problems = f.problems();
    assert_problem(
        &problems,
        article,
        2,
        "no other page of the site links to /blog/radzenie-sobie-z-lekiem",
    );
    assert_eq!(problems.len(), 1, "{problems:#?}");
    f.edit(article, "listed: false", "listed: true");
    site::check(&f.project()).expect("a listed article is linked from the blog");
}

#[test]
fn fallback_images_are_four_files_the_site_serves_itself() {
    let f = Fixture::real_site();
    f.edit(
        SITE,
        "  - \"morze.svg\"",
        "  - \"photo-1519681393784-d120267933ba\"",
    );
    let line = f.line_of(SITE, "fallback_images:");
    assert_problem(
        &f.problems(),
        SITE,
        line,
        "fallback_images must list exactly four images of content/images/",
    );
    f.edit(
        SITE,
        "  - \"photo-1519681393784-d120267933ba\"",
        "  - \"nie-ma.jpg\"",
    );
    assert_problem(
        &f.problems(),
        SITE,
        line,
        "fallback_images must list exactly four images",
    );
}
