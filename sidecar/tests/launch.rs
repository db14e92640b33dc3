//! Going live: a production start publishes nothing while the practice's facts are example
//! data, says which in the panel's checklist and after each save, and publishes the moment the
//! owner confirms the last of them.

use crate::common;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::test;
use common::{send, setup, signed_in};
use serde_json::{json, Value};

type Cookie_ = Cookie<'static>;

fn get(cookie: &Cookie_, uri: &str) -> test::TestRequest {
    test::TestRequest::get().uri(uri).cookie(cookie.clone())
}

fn put(cookie: &Cookie_, uri: &str, body: Value) -> test::TestRequest {
    test::TestRequest::put()
        .uri(uri)
        .cookie(cookie.clone())
        .set_json(body)
}

/// Saves 'Dane gabinetu' as loaded, with only `examples` still marked as example data.
async fn confirm_all_but<S, B>(admin: &S, cookie: &Cookie_, examples: Value) -> common::Answer
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let loaded = send(admin, get(cookie, "/api/facts")).await.body;
    let mut facts = loaded["facts"].clone();
    facts["exampleData"] = examples;
    let body = json!({ "facts": facts, "version": loaded["version"] });
    send(admin, put(cookie, "/api/facts", body)).await
}

fn step<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["step"] == name))
        .unwrap_or_else(|| panic!("no step {name} in {list}"))
}

#[actix_rt::test]
async fn a_production_site_goes_live_when_the_owner_confirms_the_last_example_fact() {
    let s = setup(&[("FORCE_HTTPS", "1")]);
    let public = public_app!(s);
    let admin = admin_app!(s);
    let cookie = signed_in(&admin).await;
    let home = send(&public, test::TestRequest::get().uri("/")).await;
    assert_eq!(
        home.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        home.text
    );
    assert!(home.text.contains("Strona w przygotowaniu"));
    assert!(
        !home.text.contains("5842738192"),
        "no example fact is shown"
    );
    assert!(
        !s.dir.path().join("dist").exists(),
        "nothing published to dist/"
    );

    let list = send(&admin, get(&cookie, "/api/launch")).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let list = list.body;
    assert_eq!(
        (list["production"].clone(), list["published"].clone()),
        (json!(true), json!(false))
    );
    let facts = step(&list, "facts");
    assert_eq!(facts["done"], false);
    assert_eq!(facts["facts"].as_array().map(Vec::len), Some(12), "{facts}");
    assert!(facts["facts"].to_string().contains("NIP"), "{facts}");
    // What is missing is said in her words; the settings' names only for the person who runs
    // the server ('Szczegóły dla informatyka').
    for (name, missing, technical) in [
        ("mail", "poczty", "SMTP_URL"),
        ("backups", "Kopie zapasowe", "BACKUP_REPOSITORY"),
        ("secondFactor", "aplikację uwierzytelniającą", ""),
        ("https", "https://", "PUBLIC_ORIGIN"),
    ] {
        let item = step(&list, name);
        assert_eq!(item["done"], false, "{item}");
        let detail = item["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(missing), "{item}");
        assert!(
            !detail.contains('_'),
            "no setting's name in her words: {item}"
        );
        assert!(
            item["technical"]
                .as_str()
                .unwrap_or_default()
                .contains(technical),
            "{item}"
        );
    }

    // Every fact but the NIP confirmed: saved, still not published, and the save says why.
    let saved = confirm_all_but(&admin, &cookie, json!(["nip"])).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(saved.body["published"], false);
    let warning = saved.body["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("nie jest jeszcze opublikowana") && warning.contains("NIP"),
        "{warning}"
    );
    let home = send(&public, test::TestRequest::get().uri("/")).await;
    assert_eq!(home.status, StatusCode::SERVICE_UNAVAILABLE);

    // The last one confirmed: the very save publishes the site.
    let saved = confirm_all_but(&admin, &cookie, json!([])).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(saved.body["published"], true);
    assert!(saved.body["warning"].is_null(), "{}", saved.text);
    let home = send(&public, test::TestRequest::get().uri("/")).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.text.contains("<h1"), "the home page itself");
    assert!(
        s.dir.path().join("dist/index.html").exists(),
        "published to dist/"
    );
    assert!(
        s.file("site.yaml").contains("example_data: []"),
        "{}",
        s.file("site.yaml")
    );
    let list = send(&admin, get(&cookie, "/api/launch")).await.body;
    assert_eq!(list["published"], true);
    assert_eq!(step(&list, "facts")["done"], true);
}

#[actix_rt::test]
async fn a_development_start_publishes_with_the_examples_and_still_lists_them() {
    let s = setup(&[]);
    let public = public_app!(s);
    let admin = admin_app!(s);
    let home = send(&public, test::TestRequest::get().uri("/")).await;
    assert_eq!(home.status, StatusCode::OK, "make run serves the examples");
    let cookie = signed_in(&admin).await;
    let list = send(&admin, get(&cookie, "/api/launch")).await.body;
    assert_eq!(
        (list["production"].clone(), list["published"].clone()),
        (json!(false), json!(true))
    );
    assert_eq!(step(&list, "facts")["done"], false);
}
