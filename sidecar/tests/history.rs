//! 'Historia zmian' against a copy of the site: the version before the
//! first change is there to restore, any version is shown beside the current text and
//! previewed with the templates, a restore is undone from the same list, and the price list
//! has a history of its own.

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

/// `POST /api/history/restore` of one version, from a panel at `version`.
async fn restore<S, B>(
    app: &S,
    cookie: &Cookie_,
    doc: &str,
    revision: i64,
    side: &str,
    version: &Value,
) -> Answer
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let body = json!({ "doc": doc, "revision": revision, "side": side, "version": version });
    let req = test::TestRequest::post()
        .uri("/api/history/restore")
        .cookie(cookie.clone())
        .set_json(body);
    send(app, req).await
}

fn put(cookie: &Cookie_, uri: &str, body: Value) -> test::TestRequest {
    test::TestRequest::put()
        .uri(uri)
        .cookie(cookie.clone())
        .set_json(body)
}

const DOC: &str = "pages/regulamin";

#[actix_rt::test]
async fn the_first_change_is_undone_and_so_is_the_undoing() {
    let s = setup(&[]);
    let app = admin_app!(s);
    let cookie = signed_in(&app).await;
    let original = s.file("pages/regulamin.md");
    let pages = send(&app, get(&cookie, "/api/pages")).await.body;
    let page = pages
        .as_array()
        .expect("pages")
        .iter()
        .find(|p| p["id"] == DOC)
        .expect("listed")
        .clone();
    let history = |uri: &str| get(&cookie, uri);
    let empty = send(&app, history(&format!("/api/history?doc={DOC}"))).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.body["entries"], json!([]), "no change, no versions");

    let sections = json!([{ "type": "text", "content": "Nowy regulamin gabinetu." }]);
    let saved = send(
        &app,
        put(
            &cookie,
            &format!("/api/pages/{DOC}"),
            json!({ "content": { "sections": sections }, "version": page["version"] }),
        ),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let list = send(&app, history(&format!("/api/history?doc={DOC}")))
        .await
        .body;
    let entries = list["entries"].as_array().expect("entries").clone();
    assert_eq!(
        entries.len(),
        2,
        "the save and the version before it: {list}"
    );
    assert_eq!(entries[0]["side"], "after");
    assert_eq!(entries[0]["current"], true);
    assert_eq!(entries[1]["side"], "before");
    assert_eq!(entries[1]["current"], false);
    let revision = entries[1]["revision"].as_i64().expect("id");

    let compared = send(
        &app,
        history(&format!(
            "/api/history/version?doc={DOC}&revision={revision}&side=before"
        )),
    )
    .await
    .body;
    assert_eq!(compared["text"], original.as_str());
    assert!(compared["current"]
        .as_str()
        .expect("current")
        .contains("Nowy regulamin gabinetu."));

    let preview = send(
        &app,
        history(&format!(
            "/api/preview/version?doc={DOC}&revision={revision}&side=before"
        )),
    )
    .await;
    assert_eq!(preview.status, StatusCode::OK);
    assert!(preview.text.contains("<html") && !preview.text.contains("Nowy regulamin gabinetu."));
    assert_eq!(
        preview.headers.get("cache-control").map(|v| v.as_bytes()),
        Some(&b"no-store"[..])
    );

    let restored = restore(
        &app,
        &cookie,
        DOC,
        revision,
        "before",
        &saved.body["version"],
    )
    .await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.text);
    assert_eq!(
        s.file("pages/regulamin.md"),
        original,
        "the text before the first save"
    );

    let again = restore(
        &app,
        &cookie,
        DOC,
        revision,
        "before",
        &restored.body["version"],
    )
    .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "already that text"
    );

    let list = send(&app, history(&format!("/api/history?doc={DOC}")))
        .await
        .body;
    let entries = list["entries"].as_array().expect("entries").clone();
    assert_eq!(entries.len(), 3, "the restore is a version of its own");
    let undo = entries[0]["revision"].as_i64().expect("id");
    let undone = restore(
        &app,
        &cookie,
        DOC,
        undo,
        "before",
        &restored.body["version"],
    )
    .await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);
    assert!(s
        .file("pages/regulamin.md")
        .contains("Nowy regulamin gabinetu."));

    let stale = restore(
        &app,
        &cookie,
        DOC,
        revision,
        "before",
        &restored.body["version"],
    )
    .await;
    assert_eq!(
        stale.status,
        StatusCode::CONFLICT,
        "a stale version is refused"
    );
}

#[actix_rt::test]
async fn the_price_list_has_a_history_that_restores_and_refuses_strangers() {
    let s = setup(&[]);
    let app = admin_app!(s);
    assert_eq!(
        send(
            &app,
            test::TestRequest::get().uri("/api/history?doc=cennik.yaml")
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    let cookie = signed_in(&app).await;
    let original = s.file("cennik.yaml");
    let prices = send(&app, get(&cookie, "/api/prices")).await.body;
    let mut items = prices["items"].as_array().expect("items").clone();
    items[0]["price"] = json!(999);
    let saved = send(
        &app,
        put(
            &cookie,
            "/api/prices",
            json!({ "items": items, "version": prices["version"] }),
        ),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let list = send(&app, get(&cookie, "/api/history?doc=cennik.yaml"))
        .await
        .body;
    let entries = list["entries"].as_array().expect("entries").clone();
    assert_eq!(entries.len(), 2, "{list}");
    let revision = entries[1]["revision"].as_i64().expect("id");
    let preview = send(
        &app,
        get(
            &cookie,
            &format!("/api/preview/version?doc=cennik.yaml&revision={revision}&side=before"),
        ),
    )
    .await;
    assert!(
        preview.text.contains("Podgląd jest dostępny dla stron"),
        "no page preview of a data file"
    );
    let restored = restore(
        &app,
        &cookie,
        "cennik.yaml",
        revision,
        "before",
        &saved.body["version"],
    )
    .await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.text);
    assert_eq!(s.file("cennik.yaml"), original);
    for doc in ["../secret", "pages/nie-ma-takiej", "dist/index.html"] {
        let answer = send(
            &app,
            get(
                &cookie,
                &format!("/api/history/version?doc={doc}&revision={revision}&side=before"),
            ),
        )
        .await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{doc}: {}",
            answer.text
        );
    }
}
