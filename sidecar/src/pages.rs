//! The admin panel's pages API (SPEC §7 read pages, update page): every page, service and
//! article, its sections and its settings saved into its content file, rebuilt and
//! published at once; each save is a revision that can be restored; an article can be
//! deleted (its text stays in the history).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use content::{DocId, Kind};
use editing::edit::{EditableContent, Settings};
use editing::Saved;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::auth::{Admin, AdminChange};
use crate::db::Action;
use crate::error::{json_error, ApiError};
use crate::history::{restore_version, At};
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
    );
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

#[derive(Deserialize)]
struct SaveBody {
    content: EditableContent,
    /// The front-matter fields beside the sections; without them only sections change.
    #[serde(default)]
    settings: Option<Settings>,
    version: String,
}

#[derive(Deserialize)]
pub(crate) struct VersionBody {
    pub version: String,
}

/// A git command in `content/` that runs no program the repository names (hooks,
/// fsmonitor, filters): see [`site::process::git_without_filters`].
fn git(content_dir: &Path, args: &[&str]) -> std::io::Result<std::process::Output> {
    site::process::git_without_filters(content_dir)
        .args(args)
        .output()
}

fn git_commit(content_dir: &Path, file: &Path, author: &str, id: &str) -> Option<String> {
    let inside = site::process::git(content_dir)
        .args(["rev-parse", "--is-inside-work-tree"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !inside {
        return Some("CONTENT_GIT_COMMIT=1, ale content/ nie jest repozytorium git: zmian nie zapisano w historii git.".into());
    }
    let file = file.to_string_lossy();
    let author_arg = format!("--author=Administrator <{author}>");
    let message = format!("Edycja strony {id} w panelu administracyjnym");
    let identity = format!("user.email={author}");
    let ok = git(content_dir, &["add", "--", &file]).is_ok_and(|o| o.status.success())
        && git(
            content_dir,
            &[
                "-c",
                "user.name=Administrator",
                "-c",
                &identity,
                "commit",
                "-q",
                &author_arg,
                "-m",
                &message,
                "--",
                &file,
            ],
        )
        .is_ok_and(|o| o.status.success());
    (!ok).then(|| "Zmiany zapisano, ale nie udało się ich zatwierdzić w git.".to_string())
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
    let problems: Vec<String> = e
        .diagnostics()
        .iter()
        .map(|d| d.polish(content_dir, Some((&target.file, saved))))
        .collect();
    let reason = if problems.is_empty() {
        format!("błąd budowania ({e})")
    } else {
        problems.join(" ")
    };
    ApiError::unprocessable(format!(
        "{SAVE_FAILED} Strona nie dałaby się zbudować, więc plik pozostał bez zmian. {reason}"
    ))
}

/// Writes a change with `write`, rebuilds and publishes; a build that fails puts the file
/// back as it was (or removes it, if the change made it) and the change is refused with the
/// reason. Every change is a revision; the document's server-side draft is dropped.
pub(crate) fn publish_change(
    state: &AppState,
    target: &Target,
    author: &str,
    write: impl FnOnce() -> editing::Result<Saved>,
) -> Result<serde_json::Value, ApiError> {
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
    let changed = [file.clone()];
    let published = match state.site.rebuild_with(&mut builder, Some(&changed)) {
        Ok(p) => p,
        Err(e) => {
            match target.action {
                Action::Create | Action::Restore => {
                    let _ = std::fs::remove_file(file);
                }
                Action::Save | Action::Delete => editing::write_atomic(file, &previous)?,
            }
            // The builder read the refused text; tell it the file changed back, rather than
            // rely on the just-written file being read again anyway.
            if let Err(again) = builder.render_changed(&changed) {
                tracing::error!(error = %again, "the site does not build after putting the file back");
            }
            return Err(refusal(state, target, &saved, &e));
        }
    };
    drop(builder);
    let ms = started.elapsed().as_millis();
    state.db.insert_revision_as(
        &target.doc_id,
        author,
        &previous,
        &saved,
        now(),
        target.action,
    )?;
    state.db.delete_draft(&target.doc_id)?;
    tracing::info!(doc = %target.doc_id, action = ?target.action, author, ms = ms as u64, "change saved and published");
    let mut warnings: Vec<String> = published.warning.into_iter().collect();
    if state.site.content_git_commit {
        warnings.extend(git_commit(
            &state.site.project.content_dir,
            file,
            author,
            &target.doc_id,
        ));
    }
    let warning = (!warnings.is_empty()).then(|| warnings.join(" "));
    Ok(json!({ "version": version, "warning": warning, "publishMs": ms }))
}

async fn save(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String)>,
    body: web::Json<SaveBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    editing::edit::check_sections(&body.content.sections).map_err(ApiError::unprocessable)?;
    if let Some(settings) = &body.settings {
        editing::edit::check_settings(id.kind, settings).map_err(ApiError::unprocessable)?;
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
        return Err(ApiError::unprocessable(
            "Usunąć można tylko artykuł; strony i usługi są częścią układu serwisu.",
        ));
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
