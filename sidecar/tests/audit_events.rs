//! Every kind of change the panel makes, through the HTTP API of the very app `run()` serves:
//! each goes live and writes its own event to the audit log, under the name the log keeps and
//! with the Polish words of the panel's legend.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::test;
use common::{send, setup, signed_in, Answer};
use serde_json::{json, Value};

type Cookie_ = Cookie<'static>;

fn get(cookie: &Cookie_, uri: &str) -> test::TestRequest {
    test::TestRequest::get().uri(uri).cookie(cookie.clone())
}

fn with(req: test::TestRequest, cookie: &Cookie_, body: Value) -> test::TestRequest {
    req.cookie(cookie.clone()).set_json(body)
}

/// The words the panel's legend shows for the event the log keeps as `name`.
fn label(name: &str) -> &'static str {
    sidecar::audit::all()
        .into_iter()
        .find(|e| e.name() == name)
        .map(|e| e.label())
        .unwrap_or_default()
}

/// The change answered `status`, and the newest entry of the audit log is `name` (shown as
/// `words`) by the administrator, about `detail`.
macro_rules! audited {
    ($app:expr, $cookie:expr, $answer:expr, $status:expr, $name:expr, $words:expr, $detail:expr) => {{
        let answer: &Answer = &$answer;
        assert_eq!(answer.status, $status, "{}: {}", $name, answer.text);
        let log = send($app, get($cookie, "/api/audit")).await.body;
        let newest = &log[0];
        assert_eq!(newest["event"], $name, "{log}");
        assert_eq!(newest["actor"], common::ADMIN, "{newest}");
        assert_eq!(newest["detail"], $detail, "{newest}");
        assert_eq!(label($name), $words, "the panel's words for {}", $name);
    }};
}

/// The document `id` as the panel lists it.
async fn listed<S, B>(app: &S, cookie: &Cookie_, id: &str) -> Value
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let pages = send(app, get(cookie, "/api/pages")).await.body;
    pages
        .as_array()
        .expect("pages")
        .iter()
        .find(|p| p["id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

/// `doc`'s sections with `text` added to the first one.
fn added(doc: &Value, text: &str) -> Value {
    let mut sections = doc["content"]["sections"].clone();
    let first = sections[0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    sections[0]["content"] = json!(format!("{first}\n\n{text}"));
    json!({ "content": { "sections": sections }, "version": doc["version"] })
}

#[actix_rt::test]
async fn every_kind_of_change_goes_live_with_its_own_audit_event() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let ok = StatusCode::OK;

    // A page, a service and an article, each saved.
    let pages = send(&app, get(&cookie, "/api/pages")).await.body;
    let first_of = |kind: &str| {
        pages
            .as_array()
            .expect("pages")
            .iter()
            .find(|p| p["kind"] == kind && p["route"].is_string())
            .cloned()
            .expect("a document of the kind")
    };
    for (kind, name, words, text) in [
        (
            "page",
            "page_saved",
            "Zmiana strony",
            "Zdanie dopisane do strony.",
        ),
        (
            "service",
            "service_saved",
            "Zmiana opisu usługi",
            "Zdanie dopisane do usługi.",
        ),
        (
            "article",
            "article_saved",
            "Zmiana artykułu",
            "Zdanie dopisane do artykułu.",
        ),
    ] {
        let doc = first_of(kind);
        let id = doc["id"].as_str().expect("id").to_string();
        let req = test::TestRequest::put().uri(&format!("/api/pages/{id}"));
        let saved = send(&app, with(req, &cookie, added(&doc, text))).await;
        audited!(&app, &cookie, saved, ok, name, words, id.as_str());
        let route = doc["route"].as_str().expect("route");
        assert!(s.served(route).contains(text), "{route} shows the change");
    }

    // A new article, deleted, and made again from the list of deleted ones.
    let req = test::TestRequest::post().uri("/api/articles");
    let title = json!({ "title": "Sen a nastrój" });
    let made = send(&app, with(req, &cookie, title)).await;
    audited!(
        &app,
        &cookie,
        made,
        StatusCode::CREATED,
        "article_created",
        "Nowy artykuł",
        "blog/sen-a-nastroj"
    );
    assert!(s.root.join("content/blog/sen-a-nastroj.md").exists());
    let article = listed(&app, &cookie, "blog/sen-a-nastroj").await;
    assert_eq!(article["id"], "blog/sen-a-nastroj", "listed in the panel");
    let req = test::TestRequest::delete().uri("/api/pages/blog/sen-a-nastroj");
    let version = json!({ "version": article["version"] });
    let deleted = send(&app, with(req, &cookie, version)).await;
    audited!(
        &app,
        &cookie,
        deleted,
        ok,
        "article_deleted",
        "Usunięcie artykułu",
        "blog/sen-a-nastroj"
    );
    assert!(!s.root.join("content/blog/sen-a-nastroj.md").exists());
    let req = test::TestRequest::post()
        .uri("/api/deleted/blog/sen-a-nastroj/restore")
        .cookie(cookie.clone());
    let back = send(&app, req).await;
    let words = "Przywrócenie usuniętego artykułu";
    audited!(
        &app,
        &cookie,
        back,
        ok,
        "article_undeleted",
        words,
        "blog/sen-a-nastroj"
    );
    assert!(s.file("blog/sen-a-nastroj.md").contains("Sen a nastrój"));

    // A therapist added, changed, moved first and removed.
    let profile = json!({
        "name": "Zofia Żądło-Łęcka",
        "role": "Psycholożka dziecięca",
        "photo": "las.svg",
        "photoAlt": "Portret Zofii",
        "qualifications": ["Magister psychologii"],
        "body": "Pracuje z dziećmi w wieku szkolnym."
    });
    let slug = "zofia-zadlo-lecka";
    let detail = format!("team/{slug}");
    let req = test::TestRequest::post().uri("/api/team");
    let added_one = send(&app, with(req, &cookie, json!({ "profile": profile }))).await;
    let words = "Dodanie terapeuty do zespołu";
    audited!(
        &app,
        &cookie,
        added_one,
        ok,
        "profile_added",
        words,
        detail.as_str()
    );
    assert!(s.served("/o-mnie").contains(&format!("id=\"{slug}\"")));
    let team = added_one.body["team"].as_array().expect("team").clone();
    let zofia = team
        .iter()
        .find(|m| m["slug"] == slug)
        .expect("in the team");
    let mut changed = profile.clone();
    changed["role"] = json!("Psycholożka dzieci i młodzieży");
    let req = test::TestRequest::put().uri(&format!("/api/team/{slug}"));
    let body = json!({ "profile": changed, "version": zofia["version"] });
    let saved = send(&app, with(req, &cookie, body)).await;
    let words = "Zmiana profilu terapeuty";
    audited!(
        &app,
        &cookie,
        saved,
        ok,
        "profile_saved",
        words,
        detail.as_str()
    );
    assert!(s
        .served("/o-mnie")
        .contains("Psycholożka dzieci i młodzieży"));
    let team = saved.body["team"].as_array().expect("team").clone();
    let mut order: Vec<Value> = team
        .iter()
        .map(|m| json!({ "slug": m["slug"], "version": m["version"] }))
        .collect();
    order.rotate_right(1);
    assert_eq!(order[0]["slug"], slug, "the new one first");
    let req = test::TestRequest::put().uri("/api/team/order");
    let moved = send(&app, with(req, &cookie, json!({ "order": order }))).await;
    let words = "Zmiana kolejności zespołu";
    assert_eq!(moved.status, ok, "{}", moved.text);
    let log = send(&app, get(&cookie, "/api/audit")).await.body;
    assert_eq!(log[0]["event"], "team_reordered", "{log}");
    assert_eq!(label("team_reordered"), words);
    let about = s.served("/o-mnie");
    let first = about.find(&format!("id=\"{slug}\"")).expect("listed");
    assert!(team.iter().filter(|m| m["slug"] != slug).all(|m| about
        .find(&format!("id=\"{}\"", m["slug"].as_str().unwrap_or("")))
        > Some(first)));
    let zofia = moved.body["team"]
        .as_array()
        .and_then(|t| t.iter().find(|m| m["slug"] == slug).cloned())
        .expect("still there");
    let req = test::TestRequest::delete().uri(&format!("/api/team/{slug}"));
    let removed = send(
        &app,
        with(req, &cookie, json!({ "version": zofia["version"] })),
    )
    .await;
    let words = "Usunięcie terapeuty z zespołu";
    audited!(
        &app,
        &cookie,
        removed,
        ok,
        "profile_removed",
        words,
        detail.as_str()
    );
    assert!(!s.served("/o-mnie").contains(&format!("id=\"{slug}\"")));

    // The price list, the facts and the site's words.
    let mut prices = send(&app, get(&cookie, "/api/prices")).await.body;
    prices["items"][0]["price"] = json!(987);
    let body = json!({ "items": prices["items"], "version": prices["version"] });
    let saved = send(
        &app,
        with(test::TestRequest::put().uri("/api/prices"), &cookie, body),
    )
    .await;
    audited!(
        &app,
        &cookie,
        saved,
        ok,
        "prices_changed",
        "Zmiana cennika",
        "cennik.yaml"
    );
    assert!(
        s.served("/cennik").contains("987"),
        "the price list shows it"
    );
    let facts = send(&app, get(&cookie, "/api/facts")).await.body;
    let mut changed = facts["facts"].clone();
    changed["street"] = json!("ul. Kwiatowa 17");
    let body = json!({ "facts": changed, "version": facts["version"] });
    let saved = send(
        &app,
        with(test::TestRequest::put().uri("/api/facts"), &cookie, body),
    )
    .await;
    let words = "Zmiana danych gabinetu";
    audited!(
        &app,
        &cookie,
        saved,
        ok,
        "facts_changed",
        words,
        "site.yaml"
    );
    assert!(s.file("site.yaml").contains("street: \"ul. Kwiatowa 17\""));
    // The footer's address (the site keeps short words and numbers with their neighbours).
    let contact = s.served("/");
    assert!(contact.contains("Kwiatowa"), "the address is new");
    assert!(
        !contact.contains("Grunwaldzka 82/4<br>"),
        "the old one is gone"
    );
    let words_now = send(&app, get(&cookie, "/api/words")).await.body;
    let mut values = words_now["values"].clone();
    values["home_services_heading"] = json!("Obszary naszej pracy");
    let body = json!({ "values": values, "version": words_now["version"] });
    let saved = send(
        &app,
        with(test::TestRequest::put().uri("/api/words"), &cookie, body),
    )
    .await;
    let words = "Zmiana napisów strony";
    audited!(
        &app,
        &cookie,
        saved,
        ok,
        "words_changed",
        words,
        "napisy.yaml"
    );
    assert!(s.served("/").contains("Obszary naszej pracy"));

    // A version from the history restored, and the restore undone.
    let doc = first_of("page");
    let id = doc["id"].as_str().expect("id").to_string();
    let history = send(&app, get(&cookie, &format!("/api/history?doc={id}")))
        .await
        .body;
    let before = history["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["side"] == "before").cloned())
        .expect("the version before the save");
    let now = listed(&app, &cookie, &id).await;
    let body = json!({ "doc": id, "revision": before["revision"], "side": "before", "version": now["version"] });
    let req = test::TestRequest::post().uri("/api/history/restore");
    let restored = send(&app, with(req, &cookie, body)).await;
    let words = "Przywrócenie wersji z historii";
    audited!(
        &app,
        &cookie,
        restored,
        ok,
        "version_restored",
        words,
        id.as_str()
    );
    let route = doc["route"].as_str().expect("route");
    assert!(
        !s.served(route).contains("Zdanie dopisane do strony."),
        "the old text is back"
    );
    let history = send(&app, get(&cookie, &format!("/api/history?doc={id}")))
        .await
        .body;
    let newest = history["entries"][0]["revision"].clone();
    let body = json!({ "doc": id, "revision": newest, "side": "before", "version": restored.body["version"] });
    let req = test::TestRequest::post().uri("/api/history/restore");
    let undone = send(&app, with(req, &cookie, body)).await;
    let words = "Cofnięcie przywrócenia wersji";
    audited!(
        &app,
        &cookie,
        undone,
        ok,
        "restore_undone",
        words,
        id.as_str()
    );
    assert!(
        s.served(route).contains("Zdanie dopisane do strony."),
        "the restore is undone"
    );

    // A picture uploaded and removed.
    let png: Vec<u8> = vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
        0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];
    let req = test::TestRequest::post()
        .uri("/api/images?name=kropka.png&alt=Kropka")
        .cookie(cookie.clone())
        .insert_header(("Content-Type", "application/octet-stream"))
        .set_payload(png);
    let stored = send(&app, req).await;
    let words = "Przesłanie obrazu";
    audited!(
        &app,
        &cookie,
        stored,
        StatusCode::CREATED,
        "image_uploaded",
        words,
        "kropka.png"
    );
    assert!(s.root.join("content/images/kropka.png").exists());
    let req = test::TestRequest::delete()
        .uri("/api/images/kropka.png")
        .cookie(cookie.clone());
    let gone = send(&app, req).await;
    audited!(
        &app,
        &cookie,
        gone,
        StatusCode::NO_CONTENT,
        "image_deleted",
        "Usunięcie obrazu",
        "kropka.png"
    );
    assert!(!s.root.join("content/images/kropka.png").exists());
}
