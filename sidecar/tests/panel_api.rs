//! The panel's APIs against a copy of the site: settings, preview, new and
//! deleted articles, drafts, prices, facts and the notice, pictures, and scheduled
//! publishing. Every refusal has its status and a Polish message.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::{header, StatusCode};
use actix_web::test;
use common::{send, setup, signed_in, Answer};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

type Cookie_ = Cookie<'static>;

fn get(cookie: &Cookie_, uri: &str) -> test::TestRequest {
    test::TestRequest::get().uri(uri).cookie(cookie.clone())
}

fn with_json(req: test::TestRequest, cookie: &Cookie_, body: Value) -> test::TestRequest {
    req.cookie(cookie.clone()).set_json(body)
}

fn evil(req: test::TestRequest) -> test::TestRequest {
    req.insert_header((header::ORIGIN, "https://evil.example"))
}

/// The error message of a refusal, which must be Polish (it has Polish letters or words).
fn polish(answer: &Answer) -> String {
    let message = answer.body["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        !message.is_empty() && answer.body["title"].is_string(),
        "a refusal with a title and a message: {}",
        answer.text
    );
    message
}

async fn document<S, B>(app: &S, cookie: &Cookie_, id: &str) -> Value
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let list = send(app, get(cookie, "/api/pages")).await.body;
    list.as_array()
        .expect("a list")
        .iter()
        .find(|p| p["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} listed"))
}

#[actix_rt::test]
async fn settings_are_saved_into_the_front_matter_and_published() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "blog/terapia-cbt").await;
    assert_eq!(doc["status"], "published");
    assert_eq!(doc["settings"]["listed"], true);
    let mut settings = doc["settings"].clone();
    settings["title"] = json!("Terapia CBT – nowy tytuł z panelu");
    settings["description"] = json!("Nowy opis artykułu o terapii poznawczo-behawioralnej.");
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/blog/terapia-cbt");
    let saved = send(&app, with_json(req, &cookie, body.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let file = s.file("blog/terapia-cbt.md");
    assert!(file.contains("title: \"Terapia CBT – nowy tytuł z panelu\"\n"));
    let page = s.served("/blog/terapia-cbt");
    assert!(page.contains("<h1>Terapia CBT – nowy tytuł z panelu</h1>"));
    assert!(page.contains("content=\"Nowy opis artykułu o terapii poznawczo-behawioralnej.\""));
    let history = send(&app, get(&cookie, "/api/pages/blog/terapia-cbt/revisions")).await;
    assert_eq!(history.body[0]["action"], "save");
    // The same body again: its version is stale now.
    let req = test::TestRequest::put().uri("/api/pages/blog/terapia-cbt");
    let stale = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert!(polish(&stale).contains("w międzyczasie zmieniona"));
}

#[actix_rt::test]
async fn bad_settings_are_refused_in_polish_and_the_file_is_kept() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "blog/terapia-online").await;
    let before = s.file("blog/terapia-online.md");
    let cases = [
        ("title", json!(""), "Tytuł nie może być pusty."),
        ("date", json!("2025-02-30"), "„2025-02-30” nie istnieje"),
        ("image", json!("nie-ma-takiego.jpg"), "nie ma wśród obrazów"),
    ];
    for (field, value, expected) in cases {
        let mut settings = doc["settings"].clone();
        settings[field] = value;
        let body =
            json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
        let req = test::TestRequest::put().uri("/api/pages/blog/terapia-online");
        let answer = send(&app, with_json(req, &cookie, body)).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        let message = polish(&answer);
        assert!(message.contains(expected), "{field}: {message}");
        assert_eq!(s.file("blog/terapia-online.md"), before, "{field}");
    }
    let mut settings = doc["settings"].clone();
    settings["unknown"] = json!(1);
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/blog/terapia-online");
    let answer = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    polish(&answer);
}

#[actix_rt::test]
async fn a_preview_renders_unsaved_text_and_changes_nothing() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "pages/cennik").await;
    let before = s.file("pages/cennik.md");
    let public = s.served("/cennik");
    let mut content = doc["content"].clone();
    content["sections"][0]["content"] = json!("Niezapisany tekst podglądu.");
    let mut settings = doc["settings"].clone();
    settings["heading"] = json!("Cennik z podglądu");
    let unsaved = json!({ "content": content, "settings": settings });
    let req = test::TestRequest::post().uri("/api/preview/pages/cennik");
    let answer = send(&app, with_json(req, &cookie, unsaved.clone())).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(answer.text.contains("Niezapisany tekst podglądu."));
    assert!(answer
        .text
        .contains("<strong>Podgląd – niezapisane zmiany</strong>"));
    assert!(answer
        .text
        .contains("<meta name=\"robots\" content=\"noindex, nofollow\">"));
    assert_eq!(
        answer.headers.get(header::CACHE_CONTROL).unwrap(),
        "no-store"
    );
    assert_eq!(
        answer.headers.get("x-robots-tag").unwrap(),
        "noindex, nofollow"
    );
    assert_eq!(s.file("pages/cennik.md"), before);
    assert_eq!(s.served("/cennik"), public);
    let dist = std::fs::read_to_string(s.dir.path().join("dist/cennik/index.html")).unwrap();
    assert!(!dist.contains("Niezapisany tekst podglądu."));
    // As the panel sends it: a form into a new tab.
    let form = format!(
        "data={}",
        percent_encoding::utf8_percent_encode(
            &unsaved.to_string(),
            percent_encoding::NON_ALPHANUMERIC
        )
    );
    let req = test::TestRequest::post()
        .uri("/api/preview/pages/cennik")
        .cookie(cookie.clone())
        .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
        .set_payload(form);
    let answer = send(&app, req).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.text.contains("Cennik z podglądu"));
}

#[actix_rt::test]
async fn a_preview_says_what_a_save_would_be_refused_for() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "pages/regulamin").await;
    let mut content = doc["content"].clone();
    content["sections"][0]["content"] = json!("Zobacz [to](/nie-ma-takiej-strony).");
    let req = test::TestRequest::post().uri("/api/preview/pages/regulamin");
    let answer = send(&app, with_json(req, &cookie, json!({ "content": content }))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer
        .text
        .contains("Tej wersji nie da się zapisać: Sekcja 1: link „/nie-ma-takiej-strony”"));
}

#[actix_rt::test]
async fn previews_are_refused_without_a_session_from_elsewhere_and_for_bad_bodies() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let body = json!({ "content": { "sections": [] } });
    let req = test::TestRequest::post()
        .uri("/api/preview/pages/cennik")
        .set_json(&body);
    assert_eq!(send(&app, req).await.status, StatusCode::UNAUTHORIZED);
    let cookie = signed_in(&app).await;
    let req = evil(test::TestRequest::post().uri("/api/preview/pages/cennik"));
    let answer = send(&app, with_json(req, &cookie, body.clone())).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    polish(&answer);
    let req = test::TestRequest::post().uri("/api/preview/pages/nie-ma");
    let answer = send(&app, with_json(req, &cookie, body.clone())).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(polish(&answer), "Nie ma takiej strony.");
    let req = test::TestRequest::post()
        .uri("/api/preview/pages/cennik")
        .cookie(cookie.clone())
        .insert_header((header::CONTENT_TYPE, "text/plain"))
        .set_payload("tekst");
    let answer = send(&app, req).await;
    assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    polish(&answer);
    let huge = json!({ "content": { "sections": [{ "type": "text", "content": "a".repeat(2 * 1024 * 1024) }] } });
    let req = test::TestRequest::post().uri("/api/preview/pages/cennik");
    let answer = send(&app, with_json(req, &cookie, huge)).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    polish(&answer);
    let marker = json!({ "content": { "sections": [{ "type": "text", "content": "a\n<!-- section: text -->\nb" }] } });
    let req = test::TestRequest::post().uri("/api/preview/pages/cennik");
    let answer = send(&app, with_json(req, &cookie, marker)).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&answer).contains("znacznika sekcji"));
}

#[actix_rt::test]
async fn a_deeply_nested_or_huge_section_is_refused_in_polish_before_it_is_parsed() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "pages/cennik").await;
    let before = s.file("pages/cennik.md");
    // Almost a megabyte of nested quotes: minutes of the sanitiser's time if it got there.
    let nested = format!("Wstęp.\n\n{}x", ">".repeat(120 * 1024));
    let huge = "Zwykłe zdanie o terapii.\n".repeat(6 * 1024);
    for (content, expected) in [
        (
            nested,
            "Sekcja 2, wiersz 3: cytaty („>”), listy lub znaczniki HTML są zagnieżdżone",
        ),
        (huge, "Sekcja 2: tekst jest dłuższy niż 128 KiB"),
    ] {
        let sections = json!([
            { "type": "text", "content": "Pierwsza sekcja." },
            { "type": "text", "content": content },
        ]);
        let started = Instant::now();
        for (req, body) in [
            (
                test::TestRequest::put().uri("/api/pages/pages/cennik"),
                json!({ "content": { "sections": sections }, "version": doc["version"] }),
            ),
            (
                test::TestRequest::post().uri("/api/preview/pages/cennik"),
                json!({ "content": { "sections": sections } }),
            ),
            (
                test::TestRequest::put().uri("/api/drafts/pages/cennik"),
                json!({ "content": { "sections": sections } }),
            ),
        ] {
            let answer = send(&app, with_json(req, &cookie, body)).await;
            assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
            let message = polish(&answer);
            assert!(message.starts_with(expected), "{message}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "refused without parsing: {:?}",
            started.elapsed()
        );
    }
    assert_eq!(s.file("pages/cennik.md"), before, "nothing was written");
}

#[actix_rt::test]
async fn a_preview_that_would_take_too_long_is_stopped_at_its_deadline() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    // Each section within the limits, but together far more work than a preview may take.
    let lists = format!("{}x\n", "- ".repeat(16)).repeat(3_500);
    let sections: Vec<Value> = (0..7)
        .map(|_| json!({ "type": "text", "content": lists }))
        .collect();
    let req = test::TestRequest::post().uri("/api/preview/pages/cennik");
    let started = Instant::now();
    let answer = send(
        &app,
        with_json(req, &cookie, json!({ "content": { "sections": sections } })),
    )
    .await;
    let took = started.elapsed();
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "after {took:?}"
    );
    assert!(polish(&answer).starts_with("Podgląd tej wersji trwałby zbyt długo"));
    // A preview right after it renders: the stopped one does not hold the only permit.
    let doc = document(&app, &cookie, "pages/cennik").await;
    let req = test::TestRequest::post().uri("/api/preview/pages/cennik");
    let answer = send(
        &app,
        with_json(req, &cookie, json!({ "content": doc["content"] })),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
}

#[actix_rt::test]
async fn a_new_article_is_proposed_a_slug_created_unpublished_then_published() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let proposal = send(
        &app,
        get(
            &cookie,
            "/api/articles/slug?title=Jak%20radzi%C4%87%20sobie%20z%20l%C4%99kiem%3F",
        ),
    )
    .await;
    assert_eq!(
        proposal.body,
        json!({ "slug": "jak-radzic-sobie-z-lekiem", "route": "/blog/jak-radzic-sobie-z-lekiem", "taken": false })
    );
    let taken = send(&app, get(&cookie, "/api/articles/slug?title=Terapia%20CBT")).await;
    assert_eq!(taken.body["taken"], true);
    let req = test::TestRequest::post().uri("/api/articles");
    let created = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "title": "Jak radzić sobie z lękiem?", "author": "Tomasz Lewandowski" }),
        ),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(created.body["id"], "blog/jak-radzic-sobie-z-lekiem");
    let doc = document(&app, &cookie, "blog/jak-radzic-sobie-z-lekiem").await;
    assert_eq!(doc["status"], "unpublished");
    assert_eq!(
        doc["settings"]["author"], "Tomasz Lewandowski",
        "signed by the one chosen, not the team's first"
    );
    assert!(!s
        .served("/blog")
        .contains("/blog/jak-radzic-sobie-z-lekiem"));
    assert!(s.served("/blog/jak-radzic-sobie-z-lekiem").is_empty());
    let history = send(
        &app,
        get(
            &cookie,
            "/api/pages/blog/jak-radzic-sobie-z-lekiem/revisions",
        ),
    )
    .await;
    assert_eq!(history.body[0]["action"], "create");
    let req = test::TestRequest::post().uri("/api/articles");
    let again = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "title": "Jak radzić sobie z lękiem!" }),
        ),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(polish(&again).contains("jest już zajęty"));
    let mut settings = doc["settings"].clone();
    settings["published"] = json!(true);
    settings["description"] = json!("Opis nowego artykułu.");
    settings["author"] = json!("Magdalena Wiśniewska");
    let content =
        json!({ "sections": [{ "type": "text", "content": "Pierwszy akapit nowego artykułu." }] });
    let req = test::TestRequest::put().uri("/api/pages/blog/jak-radzic-sobie-z-lekiem");
    let body = json!({ "content": content, "settings": settings, "version": doc["version"] });
    let saved = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert!(s
        .served("/blog")
        .contains("/blog/jak-radzic-sobie-z-lekiem"));
    let page = s.served("/blog/jak-radzic-sobie-z-lekiem");
    assert!(page.contains("Pierwszy akapit nowego artykułu."));
    assert!(
        page.contains("</time> · Magdalena Wiśniewska</p>"),
        "the author changed in the settings"
    );
}

#[actix_rt::test]
async fn bad_new_articles_are_refused_in_polish() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let req = test::TestRequest::post()
        .uri("/api/articles")
        .set_json(json!({ "title": "A" }));
    assert_eq!(send(&app, req).await.status, StatusCode::UNAUTHORIZED);
    let cookie = signed_in(&app).await;
    let req = evil(test::TestRequest::post().uri("/api/articles"));
    assert_eq!(
        send(&app, with_json(req, &cookie, json!({ "title": "A" })))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    for (body, expected) in [
        (json!({ "title": "  " }), "Podaj tytuł"),
        (json!({ "title": "???" }), "użyj liter lub cyfr"),
        (
            json!({ "title": "Dobry", "slug": "Zły Adres" }),
            "małe litery",
        ),
        (json!({ "title": "x".repeat(201) }), "najwyżej 200"),
    ] {
        let req = test::TestRequest::post().uri("/api/articles");
        let answer = send(&app, with_json(req, &cookie, body.clone())).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(
            polish(&answer).contains(expected),
            "{body}: {}",
            answer.text
        );
    }
}

#[actix_rt::test]
async fn a_deleted_article_leaves_the_site_stays_in_the_history_and_comes_back() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    // Other articles link to this one: deleting it would break them.
    let linked = document(&app, &cookie, "blog/praktyka-mindfulness").await;
    let req = test::TestRequest::delete().uri("/api/pages/blog/praktyka-mindfulness");
    let refused = send(
        &app,
        with_json(req, &cookie, json!({ "version": linked["version"] })),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&refused)
        .contains("link „/blog/praktyka-mindfulness” prowadzi do strony, której nie ma"));
    assert!(
        s.root.join("content/blog/praktyka-mindfulness.md").exists(),
        "kept"
    );
    assert!(s.served("/blog").contains("/blog/praktyka-mindfulness"));
    let doc = document(&app, &cookie, "blog/psycholog-sportowy-gdansk").await;
    let text = s.file("blog/psycholog-sportowy-gdansk.md");
    let req = test::TestRequest::delete().uri("/api/pages/blog/psycholog-sportowy-gdansk");
    let stale = send(&app, with_json(req, &cookie, json!({ "version": "stara" }))).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    polish(&stale);
    let req = test::TestRequest::delete().uri("/api/pages/pages/regulamin");
    let page = send(&app, with_json(req, &cookie, json!({ "version": "x" }))).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&page).contains("tylko artykuł"));
    let req = test::TestRequest::delete().uri("/api/pages/blog/psycholog-sportowy-gdansk");
    let deleted = send(
        &app,
        with_json(req, &cookie, json!({ "version": doc["version"] })),
    )
    .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert!(!s
        .root
        .join("content/blog/psycholog-sportowy-gdansk.md")
        .exists());
    assert!(!s
        .served("/blog")
        .contains("/blog/psycholog-sportowy-gdansk"));
    let list = send(&app, get(&cookie, "/api/deleted")).await;
    assert_eq!(list.body[0]["id"], "blog/psycholog-sportowy-gdansk");
    assert_eq!(list.body[0]["title"], doc["title"]);
    let restored = send(
        &app,
        test::TestRequest::post()
            .uri("/api/deleted/blog/psycholog-sportowy-gdansk/restore")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.text);
    assert_eq!(s.file("blog/psycholog-sportowy-gdansk.md"), text);
    assert!(s
        .served("/blog")
        .contains("/blog/psycholog-sportowy-gdansk"));
    assert_eq!(
        send(&app, get(&cookie, "/api/deleted")).await.body,
        json!([])
    );
    let again = send(
        &app,
        test::TestRequest::post()
            .uri("/api/deleted/blog/psycholog-sportowy-gdansk/restore")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    polish(&again);
}

#[actix_rt::test]
async fn unpublishing_an_article_that_a_page_links_to_is_refused_with_the_page_named() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let linked = "blog/terapia-cbt";
    let linking = std::fs::read_dir(s.root.join("content/blog"))
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| {
            std::fs::read_to_string(e.path())
                .unwrap()
                .contains("](/blog/terapia-cbt)")
        })
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".md")
                .to_string()
        })
        .expect("an article links to terapia-cbt");
    let doc = document(&app, &cookie, linked).await;
    let mut settings = doc["settings"].clone();
    settings["published"] = json!(false);
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/blog/terapia-cbt");
    let answer = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = polish(&answer);
    assert!(
        message.contains(&format!("Artykuł blog/{linking}, sekcja"))
            && message.contains("nie jest opublikowany"),
        "{message}"
    );
    assert!(!s.file("blog/terapia-cbt.md").contains("published: false"));
}

#[actix_rt::test]
async fn drafts_are_kept_on_the_server_until_saved_or_discarded() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let doc = document(&app, &cookie, "pages/blog").await;
    let mut content = doc["content"].clone();
    content["sections"][0]["content"] = json!("Szkic z telefonu.");
    let draft =
        json!({ "content": content, "settings": doc["settings"], "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/drafts/pages/blog");
    let put = send(&app, with_json(req, &cookie, draft)).await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    let listed = send(&app, get(&cookie, "/api/drafts")).await;
    assert_eq!(listed.body[0]["docId"], "pages/blog");
    assert_eq!(
        listed.body[0]["body"]["content"]["sections"][0]["content"],
        "Szkic z telefonu."
    );
    assert_eq!(listed.body[0]["version"], doc["version"]);
    assert!(
        !s.file("pages/blog.md").contains("Szkic z telefonu."),
        "a draft is not a save"
    );
    let body = json!({ "content": content, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/pages/blog");
    assert_eq!(
        send(&app, with_json(req, &cookie, body)).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, get(&cookie, "/api/drafts")).await.body,
        json!([]),
        "published"
    );
    let gone = send(
        &app,
        test::TestRequest::delete()
            .uri("/api/drafts/pages/blog")
            .cookie(cookie.clone()),
    )
    .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    polish(&gone);
    let req = evil(test::TestRequest::put().uri("/api/drafts/pages/blog"));
    assert_eq!(
        send(&app, with_json(req, &cookie, json!({ "content": content })))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

#[actix_rt::test]
async fn the_price_list_is_edited_row_by_row_and_shown_on_cennik() {
    let s = setup(&[]);
    let app = admin_app!(s);
    assert_eq!(
        send(&app, test::TestRequest::get().uri("/api/prices"))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    let cookie = signed_in(&app).await;
    let prices = send(&app, get(&cookie, "/api/prices")).await.body;
    let mut items = prices["items"].as_array().unwrap().clone();
    assert_eq!(items[1]["name"], "Konsultacja psychologiczna");
    items[1]["price"] = json!(210);
    items.swap(0, 1);
    items.push(json!({ "name": "Warsztat uważności", "price": 135, "duration": "90 min", "link": "/uslugi/psychoedukacja" }));
    let req = test::TestRequest::put().uri("/api/prices");
    let body = json!({ "items": items, "version": prices["version"] });
    let saved = send(&app, with_json(req, &cookie, body.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let page = s.served("/cennik");
    assert!(page.contains("210\u{a0}zł") && page.contains("Warsztat uważności"));
    assert!(
        page.find("Konsultacja psychologiczna").unwrap()
            < page.find("Bezpłatna rozmowa telefoniczna").unwrap()
    );
    assert!(s
        .file("cennik.yaml")
        .starts_with("# The practice's price list."));
    let req = test::TestRequest::put().uri("/api/prices");
    let stale = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    polish(&stale);
    let fresh = send(&app, get(&cookie, "/api/prices")).await.body;
    let mut bad = fresh["items"].as_array().unwrap().clone();
    bad[0]["link"] = json!("/nie-ma");
    let req = test::TestRequest::put().uri("/api/prices");
    let refused = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "items": bad, "version": fresh["version"] }),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&refused).starts_with("Pozycja 1: wybierz usługę"));
    assert_eq!(refused.body["problems"][0]["row"], 1, "{}", refused.text);
    assert_eq!(refused.body["problems"][0]["field"], "link");
    let req = evil(test::TestRequest::put().uri("/api/prices"));
    let body = json!({ "items": fresh["items"], "version": fresh["version"] });
    assert_eq!(
        send(&app, with_json(req, &cookie, body)).await.status,
        StatusCode::FORBIDDEN
    );
    let history = send(&app, get(&cookie, "/api/pages/pages/cennik/revisions")).await;
    assert_eq!(
        history.body,
        json!([]),
        "the price list has its own history"
    );
    assert_eq!(s.state.db.revisions("cennik.yaml").unwrap().len(), 1);
}

#[actix_rt::test]
async fn the_facts_are_edited_checked_in_polish_and_shown_on_every_page() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let facts = send(&app, get(&cookie, "/api/facts")).await.body;
    assert_eq!(
        facts["therapists"]["magdalena-wisniewska"],
        "Magdalena Wiśniewska"
    );
    let mut new = facts["facts"].clone();
    new["phone"] = json!("+48 58 111 22 33");
    new["openingHours"][1]["closes"] = json!("15:00");
    let req = test::TestRequest::put().uri("/api/facts");
    let saved = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "facts": new, "version": facts["version"] }),
        ),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    for route in ["/", "/cennik", "/blog/terapia-cbt"] {
        let page = s.served(route);
        assert!(page.contains("+48 58 111 22 33"), "{route}");
        assert!(page.contains("pt. 9:00–15:00"), "{route}");
    }
    assert!(
        s.file("site.yaml").contains("# Where patients come"),
        "comments stay"
    );
    let placeholders = send(&app, get(&cookie, "/api/placeholders")).await.body;
    let phone = placeholders
        .as_array()
        .and_then(|all| all.iter().find(|p| p["name"] == "telefon"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        phone,
        json!({ "name": "telefon", "label": "telefon gabinetu", "shown": "+48 58 111 22 33" }),
        "the editor's chips show the fact as visitors see it now"
    );
    let fresh = send(&app, get(&cookie, "/api/facts")).await.body;
    for (field, value, expected) in [
        ("postalCode", json!("80244"), "NN-NNN"),
        ("email", json!("nie-email"), "nie jest adresem e-mail"),
        ("phone", json!("123"), "od 9 do 15 cyfr"),
        (
            "nip",
            json!("1234563219"),
            "Ten NIP ma błędną cyfrę kontrolną",
        ),
        ("regon", json!("12345"), "REGON ma 9 albo 14 cyfr"),
    ] {
        let mut bad = fresh["facts"].clone();
        bad[field] = value;
        let req = test::TestRequest::put().uri("/api/facts");
        let answer = send(
            &app,
            with_json(
                req,
                &cookie,
                json!({ "facts": bad, "version": fresh["version"] }),
            ),
        )
        .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert!(
            polish(&answer).contains(expected),
            "{field}: {}",
            answer.text
        );
    }
    let req = test::TestRequest::put().uri("/api/facts");
    let stale = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "facts": fresh["facts"], "version": facts["version"] }),
        ),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    polish(&stale);
}

/// Waits, with a generous deadline, until `check` holds; the moment it holds is the event.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check() {
        assert!(Instant::now() < deadline, "{what} did not happen");
        clock::pause(Duration::from_millis(100)).await;
    }
}

#[actix_rt::test]
async fn a_notice_shows_inside_its_moments_and_goes_by_itself() {
    let s = setup(&[]);
    sidecar::serve::scheduler::spawn(s.state.site.clone());
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let facts = send(&app, get(&cookie, "/api/facts")).await.body;
    let now = crate::common::now();
    let mut new = facts["facts"].clone();
    new["notice"] = json!({
        "text": "Gabinet nieczynny 24.12–1.01",
        "from": content::schedule::warsaw_time(now + 2),
        "until": content::schedule::warsaw_time(now + 4),
    });
    let req = test::TestRequest::put().uri("/api/facts");
    let saved = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "facts": new, "version": facts["version"] }),
        ),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert!(!s.served("/").contains("Gabinet nieczynny"), "not yet");
    eventually("the notice appearing", || {
        s.served("/").contains("Gabinet nieczynny")
    })
    .await;
    assert!(crate::common::now() >= now + 2);
    assert!(s.served("/o-mnie").contains("Gabinet nieczynny"));
    eventually("the notice going", || {
        !s.served("/").contains("Gabinet nieczynny")
    })
    .await;
    assert!(crate::common::now() >= now + 4);
    let mut bad = new.clone();
    bad["notice"]["until"] = json!("2020-01-01");
    let fresh = send(&app, get(&cookie, "/api/facts")).await.body;
    let req = test::TestRequest::put().uri("/api/facts");
    let answer = send(
        &app,
        with_json(
            req,
            &cookie,
            json!({ "facts": bad, "version": fresh["version"] }),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&answer).contains("wcześniejsza"));
}

#[actix_rt::test]
async fn a_scheduled_article_is_published_when_its_time_comes() {
    // The server runs on the test's clock: the article is dated an hour ahead, and the hour
    // passes when the test moves the clock, however slow the machine is meanwhile. The clock
    // stands mid-month (2030-06-12 10:00 UTC): in a month's last hour the next build would be
    // the one that renews security.txt's expiry, due before the article.
    let s = crate::common::setup_at(&[], clock::Clock::fixed(1_907_488_800));
    sidecar::serve::scheduler::spawn(s.state.site.clone());
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let req = test::TestRequest::post().uri("/api/articles");
    let created = send(
        &app,
        with_json(req, &cookie, json!({ "title": "Zaplanowany wpis" })),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let doc = document(&app, &cookie, "blog/zaplanowany-wpis").await;
    let at = s.state.clock.now() + 3600;
    let mut settings = doc["settings"].clone();
    settings["published"] = json!(true);
    settings["date"] = json!(content::schedule::warsaw_time(at));
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/blog/zaplanowany-wpis");
    let saved = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        document(&app, &cookie, "blog/zaplanowany-wpis").await["status"],
        "scheduled"
    );
    assert!(!s.served("/blog").contains("/blog/zaplanowany-wpis"));
    assert_eq!(
        s.state.site.schedule.next(),
        Some(at),
        "the next build is due then"
    );
    s.state.clock.advance(3600);
    s.state.site.schedule.wake.notify_one();
    eventually("the article appearing", || {
        s.served("/blog").contains("/blog/zaplanowany-wpis")
    })
    .await;
    assert!(s.state.clock.now() >= at, "not before its time");
    assert!(!s.served("/blog/zaplanowany-wpis").is_empty());
    let feed = String::from_utf8_lossy(&s.state.site.live.current().files["blog/atom.xml"].raw)
        .into_owned();
    assert!(feed.contains("/blog/zaplanowany-wpis"));
}

fn png() -> Vec<u8> {
    // A 1×1 PNG.
    vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
        0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}

fn upload(cookie: &Cookie_, query: &str, body: Vec<u8>) -> test::TestRequest {
    test::TestRequest::post()
        .uri(&format!("/api/images?{query}"))
        .cookie(cookie.clone())
        .insert_header((header::CONTENT_TYPE, "application/octet-stream"))
        .set_payload(body)
}

#[actix_rt::test]
async fn an_image_is_stored_by_what_it_is_under_a_safe_name_and_served() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let stored = send(
        &app,
        upload(
            &cookie,
            "name=Gabinet%20%C5%9Bwiat%C5%82o.PNG&alt=Jasny%20gabinet",
            png(),
        ),
    )
    .await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.text);
    assert_eq!(stored.body["file"], "gabinet-swiatlo.png");
    assert_eq!(stored.body["url"], "/images/gabinet-swiatlo.png");
    assert_eq!(
        std::fs::read(s.root.join("content/images/gabinet-swiatlo.png")).unwrap(),
        png()
    );
    assert!(s
        .state
        .site
        .live
        .current()
        .files
        .contains_key("images/gabinet-swiatlo.png"));
    let mut other = png();
    other.extend_from_slice(b"\0");
    let second = send(
        &app,
        upload(&cookie, "name=gabinet-swiatlo.png&alt=Inny", other),
    )
    .await;
    assert_eq!(
        second.body["file"], "gabinet-swiatlo-2.png",
        "never over another file"
    );
    let listed = send(&app, get(&cookie, "/api/images")).await.body;
    let mine = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["file"] == "gabinet-swiatlo.png")
        .expect("listed");
    assert_eq!(mine["alt"], "Jasny gabinet");
    // Then chosen as an article's hero, with its text.
    let doc = document(&app, &cookie, "blog/terapia-online").await;
    let mut settings = doc["settings"].clone();
    settings["image"] = json!("gabinet-swiatlo.png");
    settings["imageAlt"] = json!("Jasny gabinet");
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/blog/terapia-online");
    assert_eq!(
        send(&app, with_json(req, &cookie, body)).await.status,
        StatusCode::OK
    );
    assert!(
        s.state
            .site
            .images
            .wait_idle(std::time::Duration::from_secs(60)),
        "the variants are encoded in the background"
    );
    let listed = send(&app, get(&cookie, "/api/images")).await.body;
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["pending"] == json!(false)),
        "no picture waits once the worker is idle: {listed}"
    );
    let page = s.served("/blog/terapia-online");
    // The hero is the uploaded photo's responsive set (the image pipeline's variants), with
    // the text given at upload.
    let hero = page
        .split("<picture>")
        .nth(1)
        .and_then(|p| p.split("</picture>").next())
        .unwrap_or_else(|| panic!("no picture on the page: {page}"));
    assert!(hero.contains("/assets/img/gabinet-swiatlo."), "{hero}");
    assert!(hero.contains("type=\"image/avif\""), "{hero}");
    assert!(hero.contains("alt=\"Jasny gabinet\""), "{hero}");
}

#[actix_rt::test]
async fn uploads_that_are_not_images_too_large_or_without_a_text_are_refused() {
    let s = setup(&[]);
    let app = admin_app!(s);
    assert_eq!(
        send(
            &app,
            test::TestRequest::post()
                .uri("/api/images?name=a.png&alt=a")
                .set_payload(png())
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    let cookie = signed_in(&app).await;
    assert_eq!(
        send(&app, evil(upload(&cookie, "name=a.png&alt=a", png())))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    for body in [
        b"GIF89a\x01\x00".to_vec(),
        b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
        b"MZ\x90\x00".to_vec(),
    ] {
        let answer = send(&app, upload(&cookie, "name=zdjecie.png&alt=a", body)).await;
        assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(polish(&answer).contains("nie jest obrazem JPEG, PNG ani WebP"));
    }
    let mut huge = png();
    huge.resize(sidecar::api::images::MAX_IMAGE_BYTES + 1, 0);
    let answer = send(&app, upload(&cookie, "name=duze.png&alt=a", huge)).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(polish(&answer).contains("najwyżej 15 MB"));
    let answer = send(&app, upload(&cookie, "name=a.png&alt=", png())).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&answer).contains("tekst alternatywny"));
    assert!(!s.root.join("content/images/duze.png").exists());
    assert!(!s.root.join("content/images/zdjecie.png").exists());
}

/// What `content/images/` holds.
fn images_of(s: &common::Setup) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(s.root.join("content/images"))
        .expect("images folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[actix_rt::test]
async fn images_that_declare_more_pixels_than_they_hold_or_do_not_decode_are_refused_and_nothing_is_kept(
) {
    use site::images::testing::{fake_png, jpeg_declaring, png_bomb};
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let before = images_of(&s);
    let photo = std::fs::read(s.root.join("content/images/notes-herbata.jpg")).expect("a photo");
    let cases = [
        ("bomba.png", png_bomb(), "100000 × 100000 pikseli"),
        (
            "bomba.jpg",
            jpeg_declaring(&photo, 65_500, 65_500),
            "65500 × 65500 pikseli",
        ),
        ("udaje.png", fake_png(), "nie da się odczytać"),
    ];
    for (name, bytes, says) in cases {
        let started = std::time::Instant::now();
        let answer = send(&app, upload(&cookie, &format!("name={name}&alt=a"), bytes)).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name}: {}",
            answer.text
        );
        assert!(polish(&answer).contains(says), "{name}: {}", answer.text);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{name} refused cheaply"
        );
    }
    assert_eq!(images_of(&s), before, "nothing kept");
    assert!(s.state.db.uploads().expect("uploads").is_empty());
    // The site still builds and serves.
    s.state
        .site
        .rebuild()
        .expect("the site builds after the refusals");
}

#[actix_rt::test]
async fn a_picture_no_page_shows_can_be_deleted_and_one_a_page_shows_cannot() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let stored = send(
        &app,
        upload(&cookie, "name=zbedne.png&alt=Zb%C4%99dne", png()),
    )
    .await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.text);
    let delete = |file: &str| {
        test::TestRequest::delete()
            .uri(&format!("/api/images/{file}"))
            .cookie(cookie.clone())
            .insert_header((header::ORIGIN, common::PANEL_ORIGIN))
    };
    let used = send(&app, delete("notes-herbata.jpg")).await;
    assert_eq!(used.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(polish(&used).contains("Pierwsza wizyta"), "{}", used.text);
    assert!(s.root.join("content/images/notes-herbata.jpg").exists());
    assert_eq!(
        send(&app, delete("zbedne.png")).await.status,
        StatusCode::NO_CONTENT
    );
    assert!(!s.root.join("content/images/zbedne.png").exists());
    assert!(s.state.db.uploads().expect("uploads").is_empty());
    assert!(!s
        .state
        .site
        .live
        .current()
        .files
        .contains_key("images/zbedne.png"));
    for missing in ["zbedne.png", "..%2Fsite.yaml", ".hidden.png"] {
        assert_eq!(
            send(&app, delete(missing)).await.status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
    assert_eq!(
        send(&app, evil(delete("notes-herbata.jpg"))).await.status,
        StatusCode::FORBIDDEN
    );
}
