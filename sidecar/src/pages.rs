//! The admin panel's pages API (SPEC §7 read pages, update page): every page, service and
//! article, its sections and its settings saved into its content file, rebuilt and
//! published at once; each save is a revision that can be restored; an article can be
//! deleted (its text stays in the history).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use content::load::{Changes, Written};
use content::problem::EditProblem;
use content::{Diagnostic, DocId, Kind};
use editing::edit::{Editable, EditableContent, Settings};
use editing::Saved;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;
use ts_rs::TS;

use crate::auth::{Admin, AdminChange};
use crate::db::Action;
use crate::error::{json_error, ApiError};
use crate::history::{restore_version, At};
use crate::publishing;
use crate::{now, AppState};

pub(crate) const SAVE_FAILED: &str = "Nie udało się zapisać zmian.";
pub(crate) const NOT_FOUND: &str = "Nie ma takiej strony.";
const CONFLICT: &str = "Zapisywana treść została w międzyczasie zmieniona (w innej karcie albo przez inną osobę). Twoje zmiany nie zostały zapisane, ale nic nie zginęło: wciąż są w edytorze.";
/// The longest body a save may send: far above the longest document.
pub const MAX_SAVE_BYTES: usize = 1024 * 1024;

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
    no_store().json(state.site.publishing.status())
}

pub(crate) fn no_store() -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"));
    response
}

pub(crate) fn doc_id(kind: &str, slug: &str) -> Result<DocId, ApiError> {
    DocId::parse(&format!("{kind}/{slug}")).ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn list(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let editor = state.site.editor.clone();
    let pages = web::block(move || editor.editable_list(now())).await??;
    Ok(no_store().json(pages))
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

/// The version a change (a deletion, a restore) was asked for at.
#[derive(Debug, Deserialize, TS)]
pub struct VersionBody {
    pub version: String,
}

/// What a change writes: the file, the name its revisions carry, and what it does.
pub(crate) struct Target {
    pub doc_id: String,
    pub file: PathBuf,
    pub action: Action,
}

impl Target {
    pub(crate) fn document(state: &AppState, id: &DocId, action: Action) -> Result<Self, ApiError> {
        let file = state
            .site
            .editor
            .file_of(id)
            .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
        Ok(Target {
            doc_id: id.to_string(),
            file,
            action,
        })
    }
}

/// Why a build refused a change, in Polish, each problem with where it is.
pub(crate) fn refusal(state: &AppState, target: &Target, saved: &str, e: &site::Error) -> ApiError {
    let content_dir = &state.site.project.content_dir;
    let problems = e.diagnostics();
    let reason = if problems.is_empty() {
        format!("błąd budowania ({e})")
    } else {
        Diagnostic::polish_all(problems, content_dir, Some((&target.file, saved)))
    };
    ApiError::unprocessable(format!(
        "{SAVE_FAILED} Strona nie dałaby się zbudować, więc plik pozostał bez zmian. {reason}"
    ))
}

/// What a change of the panel answers: the file's new version (empty for a deleted one),
/// what went wrong beside it (a git commit, the last run of the CDN's commands), how long
/// the build and publish took, and the document as it is now (for a page, a service or an
/// article that is still there).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub version: String,
    pub warning: Option<String>,
    #[ts(type = "number")]
    pub publish_ms: u64,
    pub page: Option<Editable>,
    /// Where the CDN's commands are: the panel waits for the run this change queued.
    pub publishing: publishing::Status,
}

impl Changed {
    /// Adds a warning after any there is.
    pub(crate) fn warn(&mut self, note: &str) {
        self.warning = Some(match self.warning.take() {
            Some(w) => format!("{w} {note}"),
            None => note.to_string(),
        });
    }
}

/// Puts a refused change back: the file as it was (or gone, if the change made it), and the
/// builder told so.
fn put_back(state: &AppState, builder: &mut site::Builder, target: &Target, previous: &str) {
    let file = &target.file;
    let root = state.site.editor.root();
    let restored = match target.action {
        Action::Create | Action::Restore if previous.is_empty() => {
            root.remove_file(file).map_err(|e| e.to_string())
        }
        _ => editing::write_atomic(&root, file, previous).map_err(|e| e.to_string()),
    };
    if let Err(e) = restored {
        tracing::error!(error = %e, file = %file.display(), "the refused change could not be put back");
    }
    // The builder parsed the refused text; it is told the file changed back.
    let changed = [file.clone()];
    if let Err(again) = state
        .site
        .rebuild_with(builder, Changes::Only(&changed))
        .map(|_| ())
    {
        tracing::error!(error = %again, "the site does not build after putting the file back");
    }
}

/// Writes a change with `write`, rebuilds from the text it wrote (not read back) and
/// publishes; a build that fails puts the file back as it was (or removes it, if the change
/// made it) and the change is refused with the reason. Every change is a revision; the
/// document's server-side draft is dropped. The CDN's commands run after, on their queue.
pub(crate) fn publish_change(
    state: &AppState,
    target: &Target,
    author: &str,
    write: impl FnOnce() -> editing::Result<Saved>,
) -> Result<Changed, ApiError> {
    let started = Instant::now();
    let mut builder = state.site.builder();
    let (previous, saved, version) = match write()? {
        Saved::NotFound => return Err(ApiError::not_found(NOT_FOUND)),
        Saved::Conflict { .. } => return Err(ApiError::status(StatusCode::CONFLICT, CONFLICT)),
        Saved::Written {
            previous,
            saved,
            version,
        } => (previous, saved, version),
    };
    let file = &target.file;
    let written = Written {
        path: file.clone(),
        text: saved.clone(),
    };
    let removed = [file.clone()];
    let changes = match target.action {
        Action::Delete => Changes::Only(&removed),
        _ => Changes::Written(&written),
    };
    if let Err(e) = state.site.rebuild_with(&mut builder, changes) {
        put_back(state, &mut builder, target, &previous);
        return Err(refusal(state, target, &saved, &e));
    }
    let message = crate::git::message(target.action, &target.doc_id);
    let mut warnings: Vec<String> = Vec::new();
    warnings.extend(crate::git::record(state, file, author, &message));
    drop(builder);
    let ms = started.elapsed().as_millis() as u64;
    state.db.insert_revision_as(
        &target.doc_id,
        author,
        &previous,
        &saved,
        now(),
        target.action,
    )?;
    state.db.delete_draft(&target.doc_id)?;
    tracing::info!(doc = %target.doc_id, action = ?target.action, author, ms, "change saved and published");
    let page = match (DocId::parse(&target.doc_id), target.action) {
        (Some(id), Action::Save | Action::Create | Action::Restore)
            if Kind::EDITABLE.contains(&id.kind) =>
        {
            Some(Editable::of(id, file, &saved, now())?)
        }
        _ => None,
    };
    Ok(Changed {
        version,
        warning: (!warnings.is_empty()).then(|| warnings.join(" ")),
        publish_ms: ms,
        page,
        publishing: state.site.publishing.status(),
    })
}

async fn save(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String)>,
    body: web::Json<SaveBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    editing::edit::check_sections(&body.content.sections)?;
    if let Some(settings) = &body.settings {
        editing::edit::check_settings(id.kind, settings)?;
    }
    let body = body.into_inner();
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let target = Target::document(&state, &id, Action::Save)?;
        publish_change(&state, &target, &admin.email, || {
            editor.save(
                &id,
                &body.version,
                &body.content.sections,
                body.settings.as_ref(),
            )
        })
    })
    .await??;
    Ok(no_store().json(answer))
}

/// Deletes an article: its file goes, its text stays in the history (`GET /api/deleted`).
async fn remove(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String)>,
    body: web::Json<VersionBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    if id.kind != Kind::Article {
        return Err(EditProblem::NotAnArticle.into());
    }
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let target = Target::document(&state, &id, Action::Delete)?;
        publish_change(&state, &target, &admin.email, || {
            editor.delete(&id, &body.version)
        })
    })
    .await??;
    Ok(no_store().json(answer))
}

async fn revisions(
    _admin: Admin,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?.to_string();
    let db = state.db.clone();
    let list = web::block(move || db.revisions(&id)).await??;
    Ok(no_store().json(list))
}

/// The version a revision saved, back (the panel's history uses `/api/history/restore`,
/// which also offers the version before a revision).
async fn restore(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String, i64)>,
    body: web::Json<VersionBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (kind, slug, revision) = path.into_inner();
    let at = At::after(doc_id(&kind, &slug)?.to_string(), revision);
    let answer =
        web::block(move || restore_version(&state, &admin.email, &at, &body.version)).await??;
    Ok(no_store().json(answer))
}
