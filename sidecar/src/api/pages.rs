//! The admin panel's pages API: every page, service and
//! article, its sections and its settings saved into its content file, rebuilt and
//! published at once; each save is a revision that can be restored; an article can be
//! deleted (its text stays in the history).

use actix_web::{web, HttpResponse};
use content::problem::EditProblem;
use content::Kind;
use editing::edit::{EditableContent, Settings};
use serde::Deserialize;
use ts_rs::TS;

use crate::api::{doc_id, VersionBody, MAX_SAVE_BYTES};
use crate::changes::restore::{self, At};
use crate::changes::{self, Pipeline, Target, Tracked};
use crate::db::{Action, Repository};
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};
use crate::http::body::json_error;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let json = web::JsonConfig::default()
        .limit(MAX_SAVE_BYTES)
        .error_handler(|err, _| json_error(err).into());
    cfg.service(
        web::scope("/api/pages")
            .app_data(json)
            .route("", web::get().to(list))
            .route("/{kind}/{slug}", web::put().to(save))
            .route("/{kind}/{slug}", web::delete().to(remove))
            .route("/{kind}/{slug}/revisions", web::get().to(revisions))
            .route(
                "/{kind}/{slug}/revisions/{id}/restore",
                web::post().to(restore),
            ),
    )
    .route("/api/publishing", web::get().to(publishing));
}

/// `GET /api/publishing`: whether the CDN's commands are still to run for the last change,
/// and why their last run failed, if it did.
async fn publishing(_admin: Admin, state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(state.site.publishing.status())
}

async fn list(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let pages = changes::read(&pipeline, |p| {
        Ok(p.site.editor.editable_list(p.clock.now())?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(pages))
}

/// A document's save: its sections, its settings, and the version it was loaded at.
#[derive(Debug, Deserialize, TS)]
pub struct SaveBody {
    pub content: EditableContent,
    /// The front-matter fields beside the sections; without them only sections change.
    #[serde(default)]
    #[ts(optional)]
    pub settings: Option<Settings>,
    pub version: String,
}

async fn save(
    author: Author,
    path: web::Path<(String, String)>,
    body: web::Json<SaveBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    editing::edit::check_sections(&body.content.sections)?;
    if let Some(settings) = &body.settings {
        editing::edit::check_settings(id.kind, settings)?;
    }
    let body = body.into_inner();
    let target = Target::new(
        &pipeline.site.editor,
        Tracked::Document(id.clone()),
        Action::Save,
    )?;
    let answer = changes::apply(&pipeline, &author, target, move |editor| {
        Ok(editor.save(
            &id,
            &body.version,
            &body.content.sections,
            body.settings.as_ref(),
        )?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// Deletes an article: its file goes, its text stays in the history (`GET /api/deleted`).
async fn remove(
    author: Author,
    path: web::Path<(String, String)>,
    body: web::Json<VersionBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    if id.kind != Kind::Article {
        return Err(EditProblem::NotAnArticle.into());
    }
    let target = Target::new(
        &pipeline.site.editor,
        Tracked::Document(id.clone()),
        Action::Delete,
    )?;
    let answer = changes::apply(&pipeline, &author, target, move |editor| {
        Ok(editor.delete(&id, &body.version)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

async fn revisions(
    _admin: Admin,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?.to_string();
    let list = state.db.run(move |db| db.revisions(&id)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// The version a revision saved, back (the panel's history uses `/api/history/restore`,
/// which also offers the version before a revision).
async fn restore(
    author: Author,
    path: web::Path<(String, String, i64)>,
    body: web::Json<VersionBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let (kind, slug, revision) = path.into_inner();
    let at = At::after(doc_id(&kind, &slug)?.to_string(), revision);
    let answer = restore::restore(&pipeline, &author, at, body.into_inner().version).await?;
    Ok(HttpResponse::Ok().json(answer))
}
