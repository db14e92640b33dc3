//! 'Podgląd': a document rendered from the panel's unsaved sections and settings with the
//! live build's templates, never written to `content/` or `dist/`, never cached and never
//! indexed. The panel posts a form into a new tab (a JSON body works too). A preview never
//! holds a core for long: one renders at a time, within `changes::preview::PREVIEW_DEADLINE` (checked before
//! each section, whose size and nesting `editing` bounds), or the answer
//! is 503 and the render stops. And 'Zapisz jako
//! szkic': the unsaved state of a document kept on the server, so that every device of the
//! administrator sees it, until it is saved or discarded.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use editing::edit::{EditableContent, Settings};
use serde::Deserialize;
use ts_rs::TS;

use crate::api::{doc_id, MAX_SAVE_BYTES};
use crate::changes::preview::{escape, render_in_time};
use crate::changes::{Pipeline, NOT_FOUND};
use crate::db::{Draft, Repository};
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange};
use crate::http::body::json_error;
use crate::http::body::{media_type, read_limited};
use crate::state::AppState;

const TOO_LARGE: &str = "Przesłane dane są zbyt duże.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    let json = web::JsonConfig::default()
        .limit(MAX_SAVE_BYTES)
        .error_handler(|err, _| json_error(err).into());
    // The panel origin's rules sandbox every answer under this path (site::headers::PREVIEW_PATH).
    let path = format!("{}{{kind}}/{{slug}}", site::headers::PREVIEW_PATH);
    cfg.route(&path, web::post().to(preview)).service(
        web::scope("/api/drafts")
            .app_data(json)
            .route("", web::get().to(drafts))
            .route("/{kind}/{slug}", web::put().to(put_draft))
            .route("/{kind}/{slug}", web::delete().to(drop_draft)),
    );
}

/// What a preview and a draft carry: the sections and, optionally, the settings.
#[derive(Debug, Clone, Deserialize, serde::Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Unsaved {
    pub content: EditableContent,
    #[serde(default)]
    #[ts(optional)]
    pub settings: Option<Settings>,
    /// The version the panel loaded (drafts keep it; previews ignore it).
    #[serde(default)]
    #[ts(optional)]
    pub version: Option<String>,
}

/// What a draft on the server keeps of a document: its sections and settings.
#[derive(Debug, Clone, Deserialize, serde::Serialize, TS)]
pub struct DraftBody {
    pub content: EditableContent,
    pub settings: Option<Settings>,
}

#[derive(Deserialize)]
struct PreviewForm {
    data: String,
}

/// The answer to a form posted into a new tab is a page, not JSON.
pub(crate) fn page_error(e: &ApiError) -> HttpResponse {
    let body = format!(
        "<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"noindex, nofollow\"><title>Podgląd niedostępny</title></head><body><main><h1>Podgląd niedostępny</h1><p>{}</p></main></body></html>",
        escape(&e.message)
    );
    HttpResponse::build(e.status)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("text/html; charset=utf-8")
        .body(body)
}

fn parse_unsaved(req: &HttpRequest, body: &[u8]) -> Result<(Unsaved, bool), ApiError> {
    let unreadable = || ApiError::bad_request("Nie udało się odczytać przesłanych danych.");
    match media_type(req).as_str() {
        "application/json" => serde_json::from_slice(body)
            .map(|u| (u, false))
            .map_err(|_| unreadable()),
        "application/x-www-form-urlencoded" => {
            let form: PreviewForm = serde_urlencoded::from_bytes(body).map_err(|_| unreadable())?;
            serde_json::from_str(&form.data)
                .map(|u| (u, true))
                .map_err(|_| unreadable())
        }
        _ => Err(ApiError::status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Podgląd przyjmuje dane jako JSON (application/json) albo formularz.",
        )),
    }
}

/// `POST /api/preview/{kind}/{slug}`: the page as it would look after a save.
async fn preview(
    AdminChange(_admin): AdminChange,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    payload: web::Payload,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let form = media_type(&req) == "application/x-www-form-urlencoded";
    let result = async {
        let id = doc_id(&path.0, &path.1)?;
        let body = read_limited(&req, payload, MAX_SAVE_BYTES, TOO_LARGE).await?;
        let (unsaved, _) = parse_unsaved(&req, &body)?;
        editing::edit::check_sections(&unsaved.content.sections)?;
        if let Some(settings) = &unsaved.settings {
            editing::edit::check_settings(id.kind, settings)?;
        }
        render_in_time(&pipeline, id, move |pipeline, id| {
            pipeline
                .site
                .editor
                .edited_text(id, &unsaved.content.sections, unsaved.settings.as_ref())?
                .ok_or_else(|| ApiError::not_found(NOT_FOUND))
        })
        .await
    }
    .await;
    match result {
        Ok(html) => Ok(preview_page(html)),
        Err(e) if form => Ok(page_error(&e)),
        Err(e) => Err(e),
    }
}

/// A rendered preview: never cached, never indexed.
pub(crate) fn preview_page(html: String) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("X-Robots-Tag", "noindex, nofollow"))
        .content_type("text/html; charset=utf-8")
        .body(html)
}

async fn drafts(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = state.db.run(|db| db.drafts()).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// `PUT /api/drafts/{kind}/{slug}`: keeps the unsaved state on the server.
async fn put_draft(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String)>,
    body: web::Json<Unsaved>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    if !state
        .site
        .editor
        .file_of(&id)
        .is_some_and(|f| state.site.editor.is_file(&f))
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    editing::edit::check_sections(&body.content.sections)?;
    let unsaved = body.into_inner();
    let draft = Draft {
        doc_id: id.to_string(),
        author: admin.email,
        saved_at: state.clock.now(),
        version: unsaved.version.clone().unwrap_or_default(),
        body: serde_json::to_value(DraftBody {
            content: unsaved.content,
            settings: unsaved.settings,
        })
        .map_err(|e| ApiError::internal(&e))?,
    };
    let stored = draft.clone();
    state.db.run(move |db| db.put_draft(&stored)).await?;
    Ok(HttpResponse::Ok().json(draft))
}

async fn drop_draft(
    AdminChange(_admin): AdminChange,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?.to_string();
    if state.db.run(move |db| db.delete_draft(&id)).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found("Ta strona nie ma szkicu na serwerze."))
    }
}
