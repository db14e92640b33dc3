//! The practice's data from the panel: the price list, the facts of `site.yaml` that
//! change, and the site's own words (`napisy.yaml`). Checked by the rules of `make check` (in
//! Polish), written by targeted edits that keep comments and the order of keys, refused on a
//! stale version, rebuilt and published by `changes::apply`, and kept in the history under
//! `cennik.yaml`, `site.yaml` and `napisy.yaml`.

use actix_web::{web, HttpResponse};
use editing::data::{PracticeFacts, PriceRow};
use serde::Deserialize;
use ts_rs::TS;

use crate::changes::{self, Pipeline, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};
use crate::http::body::json_error;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let json = web::JsonConfig::default()
        .limit(256 * 1024)
        .error_handler(|err, _| json_error(err).into());
    cfg.service(
        web::resource("/api/prices")
            .app_data(json.clone())
            .route(web::get().to(prices))
            .route(web::put().to(save_prices)),
    )
    .service(
        web::resource("/api/facts")
            .app_data(json)
            .route(web::get().to(facts))
            .route(web::put().to(save_facts)),
    )
    .service(
        web::resource("/api/words")
            .app_data(
                web::JsonConfig::default()
                    .limit(64 * 1024)
                    .error_handler(|err, _| json_error(err).into()),
            )
            .route(web::get().to(words))
            .route(web::put().to(save_words)),
    )
    .route("/api/placeholders", web::get().to(placeholders));
}

/// `GET /api/placeholders`: the facts a text may name (`{{ adres }}`), each with its Polish
/// meaning and what the live site shows in its place, for the editor's labelled chips.
async fn placeholders(_admin: Admin, pipeline: web::Data<Pipeline>) -> HttpResponse {
    let list = match &pipeline.site.live.current().renderer {
        Some(renderer) => content::facts::placeholders(renderer.content()),
        None => Vec::new(),
    };
    HttpResponse::Ok().json(list)
}

/// `GET /api/prices`: the price list, with the pages of the live site that name each price.
async fn prices(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let mut prices = changes::read(&pipeline, |p| Ok(p.site.editor.prices()?)).await?;
    if let Some(renderer) = &pipeline.site.live.current().renderer {
        prices.uses = content::prices::uses(renderer.content());
    }
    Ok(HttpResponse::Ok().json(prices))
}

/// The price list as the panel saves it.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PricesBody {
    pub items: Vec<PriceRow>,
    pub version: String,
}

async fn save_prices(
    author: Author,
    body: web::Json<PricesBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let target = Target::new(&pipeline.site.editor, Tracked::Prices, Action::Save)?;
    let answer = changes::apply(&pipeline, &author, target, move |editor| {
        editing::data::check_prices(&body.items, &editor.service_links()?)?;
        Ok(editor.save_prices(&body.version, &body.items)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

async fn facts(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let facts = changes::read(&pipeline, |p| Ok(p.site.editor.facts()?)).await?;
    Ok(HttpResponse::Ok().json(facts))
}

/// The practice's facts as the panel saves them.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct FactsBody {
    pub facts: PracticeFacts,
    pub version: String,
}

async fn save_facts(
    author: Author,
    body: web::Json<FactsBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let email_before = changes::read(&pipeline, |p| Ok(p.site.editor.site_config()?.email)).await?;
    let email_after = body.facts.email.clone();
    let target = Target::new(&pipeline.site.editor, Tracked::Facts, Action::Save)?;
    let mut answer = changes::apply(&pipeline, &author, target, move |editor| {
        editing::data::check_facts(&editor.site_config()?, &body.facts)?;
        Ok(editor.save_facts(&body.version, &body.facts)?)
    })
    .await?;
    if email_before != email_after && pipeline.accounts.is_admin(&email_before) {
        let note = "Uwaga: dotychczasowy e-mail gabinetu jest też loginem do panelu. Logujesz się nim dalej; ustaw ADMIN_EMAIL na serwerze, zanim zostanie ponownie uruchomiony.";
        answer.warn(note);
    }
    Ok(HttpResponse::Ok().json(answer))
}

async fn words(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let words = changes::read(&pipeline, |p| Ok(p.site.editor.words()?)).await?;
    Ok(HttpResponse::Ok().json(words))
}

/// The site's own words as the panel saves them.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct WordsBody {
    pub values: std::collections::BTreeMap<String, String>,
    pub version: String,
}

/// `PUT /api/words`: checked by the rules of `make check`, written line by line, rebuilt and
/// published, kept in the history under `napisy.yaml`.
async fn save_words(
    author: Author,
    body: web::Json<WordsBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let target = Target::new(&pipeline.site.editor, Tracked::Words, Action::Save)?;
    let answer = changes::apply(&pipeline, &author, target, move |editor| {
        editing::data::check_words(&body.values, &editor.site_config()?)?;
        Ok(editor.save_words(&body.version, &body.values)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}
