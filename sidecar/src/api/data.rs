//! The practice's data from the panel: the price list, the facts of `site.yaml` that
//! change, and the site's own words (`napisy.yaml`). Checked by the rules of `make check` (in Polish), written by targeted edits that
//! keep comments and the order of keys, refused on a stale version, rebuilt and published,
//! and kept in the history under `cennik.yaml` and `site.yaml`.

use actix_web::{web, HttpResponse};
use editing::data::{PracticeFacts, PriceRow};
use serde::Deserialize;
use ts_rs::TS;

use crate::changes::{self, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange};
use crate::http::body::json_error;
use crate::state::AppState;
use accounts::audit::Event;

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
async fn placeholders(_admin: Admin, state: web::Data<AppState>) -> HttpResponse {
    let list = match &state.site.live.current().renderer {
        Some(renderer) => content::facts::placeholders(renderer.content()),
        None => Vec::new(),
    };
    HttpResponse::Ok().json(list)
}

/// `GET /api/prices`: the price list, with the pages of the live site that name each price.
async fn prices(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let editor = state.site.editor.clone();
    let mut prices = web::block(move || editor.prices()).await??;
    if let Some(renderer) = &state.site.live.current().renderer {
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
    AdminChange(admin): AdminChange,
    req: actix_web::HttpRequest,
    body: web::Json<PricesBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let (_done, who) = (state.clone(), admin.email.clone());
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let services = editor.service_links()?;
        editing::data::check_prices(&body.items, &services)?;
        let target = Target::new(&editor, Tracked::Prices, Action::Save)?;
        let changed = changes::apply(&state, &target, &admin.email, || {
            editor.save_prices(&body.version, &body.items)
        })?;
        Ok::<_, ApiError>(changed)
    })
    .await??;
    crate::http::admin::audit(&req, Event::PricesChanged, &who, "cennik.yaml").await;
    Ok(HttpResponse::Ok().json(answer))
}

async fn facts(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let editor = state.site.editor.clone();
    let facts = web::block(move || editor.facts()).await??;
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
    AdminChange(admin): AdminChange,
    req: actix_web::HttpRequest,
    body: web::Json<FactsBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let (_done, who) = (state.clone(), admin.email.clone());
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let site = editor.site_config()?;
        editing::data::check_facts(&site, &body.facts)?;
        let target = Target::new(&editor, Tracked::Facts, Action::Save)?;
        let mut answer = changes::apply(&state, &target, &admin.email, || {
            editor.save_facts(&body.version, &body.facts)
        })?;
        if site.email != body.facts.email && state.auth.admin_email.eq_ignore_ascii_case(&site.email) {
            let note = "Uwaga: dotychczasowy e-mail gabinetu jest też loginem do panelu. Logujesz się nim dalej; ustaw ADMIN_EMAIL na serwerze, zanim zostanie ponownie uruchomiony.";
            answer.warn(note);
        }
        Ok::<_, ApiError>(answer)
    })
    .await??;
    crate::http::admin::audit(&req, Event::FactsChanged, &who, "site.yaml").await;
    Ok(HttpResponse::Ok().json(answer))
}

async fn words(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let editor = state.site.editor.clone();
    let words = web::block(move || editor.words()).await??;
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
    AdminChange(admin): AdminChange,
    req: actix_web::HttpRequest,
    body: web::Json<WordsBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let who = admin.email.clone();
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        editing::data::check_words(&body.values, &editor.site_config()?)?;
        let target = Target::new(&editor, Tracked::Words, Action::Save)?;
        let changed = changes::apply(&state, &target, &admin.email, || {
            editor.save_words(&body.version, &body.values)
        })?;
        Ok::<_, ApiError>(changed)
    })
    .await??;
    crate::http::admin::audit(&req, Event::FactsChanged, &who, content::wording::FILE).await;
    Ok(HttpResponse::Ok().json(answer))
}
