//! The panel's 'Zespół' and the visible texts of a document, against a copy of the site: a
//! therapist added, shown on `/o-mnie` at once, moved, refused when already there or
//! incomplete, with the history of a profile; a service's button label refused empty.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::test;
use common::{send, setup, signed_in};
use serde_json::{json, Value};

type Cookie_ = Cookie<'static>;

fn with_json(req: test::TestRequest, cookie: &Cookie_, body: Value) -> test::TestRequest {
    req.cookie(cookie.clone()).set_json(body)
}

fn zofia() -> Value {
    json!({
        "name": "Zofia Żądło-Łęcka",
        "role": "Psycholożka dziecięca",
        "photo": "las.svg",
        "photoAlt": "Portret Zofii",
        "imageFocus": "40% 20%",
        "qualifications": ["Magister psychologii", "Psychologia dziecięca"],
        "body": "Pracuje z dziećmi w wieku szkolnym."
    })
}

#[actix_rt::test]
async fn a_therapist_is_added_published_moved_and_has_a_history() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let req = test::TestRequest::post().uri("/api/team");
    let made = send(&app, with_json(req, &cookie, json!({ "profile": zofia() }))).await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.text);
    assert_eq!(made.body["slug"], "zofia-zadlo-lecka");
    let team = made.body["team"].as_array().expect("the team").clone();
    assert_eq!(team.len(), 3);
    assert_eq!(team[2]["slug"], "zofia-zadlo-lecka");
    let signing: Vec<&Value> = team.iter().filter(|m| m["defaultAuthor"] == true).collect();
    assert_eq!(signing.len(), 1, "one default author");
    assert_eq!(
        signing[0]["slug"], "magdalena-wisniewska",
        "the one site.yaml names"
    );
    assert_eq!(team[2]["order"], 3);
    assert!(s
        .file("team/zofia-zadlo-lecka.md")
        .contains("image_focus: \"40% 20%\"\n"));
    let about = s.served("/o-mnie");
    assert!(
        about.contains("id=\"zofia-zadlo-lecka\""),
        "listed on /o-mnie"
    );
    assert!(about.contains("class=\"profile-photo focus fx40 fy20\""));

    // The same name again: refused, nothing written over.
    let req = test::TestRequest::post().uri("/api/team");
    let again = send(&app, with_json(req, &cookie, json!({ "profile": zofia() }))).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.body["error"]
        .as_str()
        .unwrap_or_default()
        .contains("już jest w zespole"));

    // First, then the others after it.
    let order: Vec<Value> = [2, 0, 1]
        .iter()
        .map(|&i| json!({ "slug": team[i]["slug"], "version": team[i]["version"] }))
        .collect();
    let req = test::TestRequest::put().uri("/api/team/order");
    let moved = send(&app, with_json(req, &cookie, json!({ "order": order }))).await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    assert_eq!(moved.body["team"][0]["slug"], "zofia-zadlo-lecka");
    let about = s.served("/o-mnie");
    assert!(about.find("id=\"zofia-zadlo-lecka\"") < about.find("id=\"magdalena-wisniewska\""));

    let req = test::TestRequest::get()
        .uri("/api/history?doc=team/zofia-zadlo-lecka")
        .cookie(cookie.clone());
    let history = send(&app, req).await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.text);
    assert!(history.body["entries"]
        .as_array()
        .is_some_and(|e| e.len() >= 2));
}

#[actix_rt::test]
async fn an_incomplete_profile_and_an_empty_button_label_are_refused_in_polish() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let mut profile = zofia();
    profile["photo"] = json!("");
    let req = test::TestRequest::post().uri("/api/team");
    let refused = send(&app, with_json(req, &cookie, json!({ "profile": profile }))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["error"], "Zdjęcie: pole nie może być puste.");
    assert_eq!(refused.body["problems"][0]["field"], "photo");
    assert!(!s.root.join("content/team/zofia-zadlo-lecka.md").exists());

    let list = send(
        &app,
        test::TestRequest::get()
            .uri("/api/pages")
            .cookie(cookie.clone()),
    )
    .await
    .body;
    let doc = list
        .as_array()
        .and_then(|l| l.iter().find(|p| p["id"] == "services/terapia-par"))
        .cloned()
        .expect("the service");
    assert_eq!(doc["fields"][3]["label"], "Napis na przycisku rezerwacji");
    let before = s.file("services/terapia-par.md");
    let mut settings = doc["settings"].clone();
    settings["buttonLabel"] = json!("");
    let body =
        json!({ "content": doc["content"], "settings": settings, "version": doc["version"] });
    let req = test::TestRequest::put().uri("/api/pages/services/terapia-par");
    let refused = send(&app, with_json(req, &cookie, body)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.body["error"],
        "Napis na przycisku rezerwacji: pole nie może być puste."
    );
    // The panel's name of the field, the one its form and the page's settings use.
    assert_eq!(refused.body["problems"][0]["field"], "buttonLabel");
    assert_eq!(s.file("services/terapia-par.md"), before);
}
