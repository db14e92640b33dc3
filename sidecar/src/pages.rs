//! The admin panel's pages API (SPEC §7 read pages, update page): every page, service and
//! article, saved into its content file, rebuilt and published at once; each save is a
//! revision that can be restored.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use generator::{DocId, EditableContent, Saved};
use serde::Deserialize;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::auth::{Admin, AdminChange};
use crate::config::SECRET_VARIABLES;
use crate::error::{json_error, ApiError};
use crate::{now, AppState};

const SAVE_FAILED: &str = "Nie udało się zapisać zmian.";
const NOT_FOUND: &str = "Nie ma takiej strony.";
const CONFLICT: &str = "Ta strona została w międzyczasie zmieniona (w innej karcie lub w repozytorium). Twoje zmiany nie zostały zapisane, ale wciąż są w edytorze: skopiuj je, odśwież stronę i wprowadź je ponownie.";
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
            .route("/{kind}/{slug}/revisions", web::get().to(revisions))
            .route(
                "/{kind}/{slug}/revisions/{id}/restore",
                web::post().to(restore),
            ),
    );
}

fn no_store() -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"));
    response
}

fn doc_id(kind: &str, slug: &str) -> Result<DocId, ApiError> {
    DocId::parse(&format!("{kind}/{slug}")).ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn list(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let project = state.site.project.clone();
    let pages = web::block(move || project.editable_list()).await??;
    Ok(no_store().json(pages))
}

#[derive(Deserialize)]
struct SaveBody {
    content: EditableContent,
    version: String,
}

#[derive(Deserialize)]
struct RestoreBody {
    version: String,
}

/// A git command in `content/`, without the process's secrets in its environment.
fn git(content_dir: &Path, args: &[&str]) -> std::io::Result<std::process::Output> {
    let mut command = Command::new("git");
    command.arg("-C").arg(content_dir).args(args);
    for name in SECRET_VARIABLES {
        command.env_remove(name);
    }
    command.output()
}

fn git_commit(content_dir: &Path, file: &Path, author: &str, id: &DocId) -> Option<String> {
    let inside =
        git(content_dir, &["rev-parse", "--is-inside-work-tree"]).is_ok_and(|o| o.status.success());
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

/// Writes a change with `write`, rebuilds and publishes; a build that fails puts the file
/// back and the change is refused with the reason.
fn publish_change(
    state: &AppState,
    id: &DocId,
    author: &str,
    write: impl FnOnce() -> generator::Result<Saved>,
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
    let file = state
        .site
        .project
        .file_of(id)
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let changed = [file.clone()];
    let published = match state.site.rebuild_with(&mut builder, Some(&changed)) {
        Ok(p) => p,
        Err(e) => {
            generator::write_atomic(&file, &previous)?;
            // The builder read the refused text; tell it the file changed back, rather than
            // rely on the just-written file being read again anyway.
            if let Err(again) = builder.render_changed(&changed) {
                tracing::error!(error = %again, "the site does not build after putting the file back");
            }
            return Err(ApiError::unprocessable(format!(
                "{SAVE_FAILED} Strona nie dałaby się zbudować, więc plik pozostał bez zmian: {e}"
            )));
        }
    };
    drop(builder);
    let ms = started.elapsed().as_millis();
    state
        .db
        .insert_revision(&id.to_string(), author, &previous, &saved, now())?;
    tracing::info!(page = %id, author, ms = ms as u64, "page saved and published");
    let mut warnings: Vec<String> = published.warning.into_iter().collect();
    if state.site.content_git_commit {
        warnings.extend(git_commit(
            &state.site.project.content_dir,
            &file,
            author,
            id,
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
    generator::check_sections(&body.content.sections).map_err(ApiError::unprocessable)?;
    let body = body.into_inner();
    let answer = web::block(move || {
        let project = state.site.project.clone();
        publish_change(&state, &id, &admin.email, || {
            project.save_sections(&id, &body.version, &body.content.sections)
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

async fn restore(
    AdminChange(admin): AdminChange,
    path: web::Path<(String, String, i64)>,
    body: web::Json<RestoreBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (kind, slug, revision) = path.into_inner();
    let id = doc_id(&kind, &slug)?;
    let answer = web::block(move || {
        let text = state
            .db
            .revision_text(&id.to_string(), revision)?
            .ok_or_else(|| ApiError::not_found("Nie ma takiej wersji tej strony."))?;
        let project = state.site.project.clone();
        publish_change(&state, &id, &admin.email, || {
            project.replace_text(&id, &body.version, |_| Ok(text))
        })
    })
    .await??;
    Ok(no_store().json(answer))
}
