//! The admin panel's pages API (SPEC §7 read pages, update page): every page, service and
//! article, saved into its content file and published at once.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use generator::{DocId, EditableContent, Saved};
use rusqlite::params;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::auth::{cross_origin, require_admin, same_origin};
use crate::error::Error;
use crate::outbox::now;
use crate::AppState;

const LOAD_FAILED: &str = "Nie udało się pobrać stron.";
const SAVE_FAILED: &str = "Nie udało się zapisać zmian.";
const NOT_FOUND: &str = "Nie ma takiej strony.";
const CONFLICT: &str = "Ta strona została w międzyczasie zmieniona (w innej karcie lub w repozytorium). Twoje zmiany nie zostały zapisane, ale wciąż są w edytorze: skopiuj je, odśwież stronę i wprowadź je ponownie.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/pages", web::get().to(list))
        .route("/api/pages/{kind}/{slug}", web::put().to(save))
        .route(
            "/api/pages/{kind}/{slug}/revisions",
            web::get().to(revisions),
        )
        .route(
            "/api/pages/{kind}/{slug}/revisions/{id}/restore",
            web::post().to(restore),
        );
}

fn answer(status: StatusCode, title: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({ "title": title, "error": message }))
}

fn failed(e: &impl std::fmt::Display, message: &str) -> HttpResponse {
    tracing::error!(error = %e, "pages");
    answer(StatusCode::INTERNAL_SERVER_ERROR, "Błąd", message)
}

async fn list(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if let Err(response) = require_admin(&req, &state).await {
        return response;
    }
    let project = state.project.clone();
    match web::block(move || project.editable_list()).await {
        Ok(Ok(pages)) => HttpResponse::Ok()
            .insert_header(("Cache-Control", "no-store"))
            .json(pages),
        Ok(Err(e)) => failed(&e, LOAD_FAILED),
        Err(e) => failed(&e, LOAD_FAILED),
    }
}

/// The administrator behind a request that changes something, checked for its origin too.
async fn admin_change(
    req: &HttpRequest,
    state: &web::Data<AppState>,
) -> Result<String, HttpResponse> {
    if !same_origin(req) {
        return Err(cross_origin());
    }
    require_admin(req, state).await
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

/// What a publish after a save reports to the panel.
enum Published {
    Done {
        version: String,
        warning: Option<String>,
        ms: u128,
    },
    Conflict,
    NotFound,
    BuildFailed(String),
}

fn run_publish_cmd(cmd: &str, dist: &Path) -> Option<String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("DIST_DIR", dist)
        .output();
    match output {
        Ok(o) if o.status.success() => None,
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            let tail: String = stderr.chars().rev().take(300).collect::<Vec<_>>().into_iter().rev().collect();
            Some(format!("Zmiany zapisano i opublikowano na serwerze, ale polecenie publikacji (PUBLISH_CMD) nie powiodło się: {}", tail.trim()))
        }
        Err(e) => Some(format!("Zmiany zapisano i opublikowano na serwerze, ale nie udało się uruchomić PUBLISH_CMD: {e}")),
    }
}

fn git_commit(content_dir: &Path, file: &Path, author: &str, id: &str) -> Option<String> {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(content_dir)
            .args(args)
            .output()
    };
    let inside = git(&["rev-parse", "--is-inside-work-tree"]).is_ok_and(|o| o.status.success());
    if !inside {
        return Some("CONTENT_GIT_COMMIT=1, ale content/ nie jest repozytorium git: zmian nie zapisano w historii git.".into());
    }
    let file = file.to_string_lossy();
    let author_arg = format!("--author=Administrator <{author}>");
    let message = format!("Edycja strony {id} w panelu administracyjnym");
    let identity = format!("user.email={author}");
    let ok = git(&["add", "--", &file]).is_ok_and(|o| o.status.success())
        && git(&[
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
        ])
        .is_ok_and(|o| o.status.success());
    (!ok).then(|| "Zmiany zapisano, ale nie udało się ich zatwierdzić w git.".to_string())
}

/// Writes a change with `write`, rebuilds and publishes; a failed build puts the file back.
fn publish_change(
    state: &AppState,
    id: &DocId,
    author: &str,
    write: impl FnOnce() -> generator::Result<Saved>,
) -> Result<Published, Error> {
    let started = Instant::now();
    let mut builder = state.builder.lock().unwrap_or_else(|p| p.into_inner());
    let (previous, saved, version) = match write()? {
        Saved::NotFound => return Ok(Published::NotFound),
        Saved::Conflict { .. } => return Ok(Published::Conflict),
        Saved::Written {
            previous,
            saved,
            version,
        } => (previous, saved, version),
    };
    let file = state
        .project
        .file_of(id)
        .ok_or_else(|| Error::Auth(format!("no file for {id}")))?;
    if let Err(e) = state.rebuild_with(&mut builder) {
        generator::write_atomic(&file, &previous)?;
        return Ok(Published::BuildFailed(e.to_string()));
    }
    drop(builder);
    let ms = started.elapsed().as_millis();
    state.db.with(|c| {
        c.execute(
            "INSERT INTO revisions (page, saved_at, author, previous, saved) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id.to_string(), now(), author, previous, saved],
        )
        .map(|_| ())
    })?;
    tracing::info!(
        page = %id,
        author,
        ms = ms as u64,
        "page saved and published"
    );
    let mut warnings = Vec::new();
    if let Some(cmd) = &state.publish_cmd {
        warnings.extend(run_publish_cmd(cmd, &state.dist));
    }
    if state.content_git_commit {
        warnings.extend(git_commit(
            &state.project.content_dir,
            &file,
            author,
            &id.to_string(),
        ));
    }
    for w in &warnings {
        tracing::warn!(page = %id, "{w}");
    }
    let warning = (!warnings.is_empty()).then(|| warnings.join(" "));
    Ok(Published::Done {
        version,
        warning,
        ms,
    })
}

fn published_answer(
    result: Result<Result<Published, Error>, actix_web::error::BlockingError>,
) -> HttpResponse {
    match result {
        Ok(Ok(Published::Done {
            version,
            warning,
            ms,
        })) => HttpResponse::Ok()
            .json(json!({ "version": version, "warning": warning, "publishMs": ms })),
        Ok(Ok(Published::Conflict)) => answer(StatusCode::CONFLICT, "Błąd", CONFLICT),
        Ok(Ok(Published::NotFound)) => answer(StatusCode::NOT_FOUND, "Błąd", NOT_FOUND),
        Ok(Ok(Published::BuildFailed(e))) => answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Błąd",
            &format!(
                "{SAVE_FAILED} Strona nie dałaby się zbudować, więc plik pozostał bez zmian: {e}"
            ),
        ),
        Ok(Err(e)) => failed(&e, SAVE_FAILED),
        Err(e) => failed(&e, SAVE_FAILED),
    }
}

async fn save(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<SaveBody>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let author = match admin_change(&req, &state).await {
        Ok(email) => email,
        Err(response) => return response,
    };
    let (kind, slug) = path.into_inner();
    let Some(id) = DocId::parse(&format!("{kind}/{slug}")) else {
        return answer(StatusCode::NOT_FOUND, "Błąd", NOT_FOUND);
    };
    if let Err(message) = generator::check_sections(&body.content.sections) {
        return answer(StatusCode::UNPROCESSABLE_ENTITY, "Błąd", &message);
    }
    let body = body.into_inner();
    let result = web::block(move || {
        let project = state.project.clone();
        publish_change(&state, &id, &author, || {
            project.save_sections(&id, &body.version, &body.content.sections)
        })
    })
    .await;
    published_answer(result)
}

async fn revisions(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> HttpResponse {
    if let Err(response) = require_admin(&req, &state).await {
        return response;
    }
    let (kind, slug) = path.into_inner();
    let id = format!("{kind}/{slug}");
    let db = state.db.clone();
    let rows = web::block(move || {
        db.with(|c| {
            let mut stmt = c.prepare("SELECT id, saved_at, author FROM revisions WHERE page = ?1 ORDER BY id DESC LIMIT 100")?;
            let rows = stmt.query_map([&id], |r| {
                Ok(json!({ "id": r.get::<_, i64>(0)?, "savedAt": r.get::<_, i64>(1)?, "author": r.get::<_, String>(2)? }))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })
    })
    .await;
    match rows {
        Ok(Ok(list)) => HttpResponse::Ok()
            .insert_header(("Cache-Control", "no-store"))
            .json(list),
        Ok(Err(e)) => failed(&e, LOAD_FAILED),
        Err(e) => failed(&e, LOAD_FAILED),
    }
}

async fn restore(
    req: HttpRequest,
    path: web::Path<(String, String, i64)>,
    body: web::Json<RestoreBody>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let author = match admin_change(&req, &state).await {
        Ok(email) => email,
        Err(response) => return response,
    };
    let (kind, slug, revision) = path.into_inner();
    let Some(id) = DocId::parse(&format!("{kind}/{slug}")) else {
        return answer(StatusCode::NOT_FOUND, "Błąd", NOT_FOUND);
    };
    let result = web::block(move || {
        let text: Option<String> = state.db.with(|c| {
            use rusqlite::OptionalExtension;
            c.query_row(
                "SELECT saved FROM revisions WHERE id = ?1 AND page = ?2",
                params![revision, id.to_string()],
                |r| r.get(0),
            )
            .optional()
        })?;
        let Some(text) = text else {
            return Ok(Published::NotFound);
        };
        let project = state.project.clone();
        publish_change(&state, &id, &author, || {
            project.replace_text(&id, &body.version, |_| Ok(text))
        })
    })
    .await;
    published_answer(result)
}
