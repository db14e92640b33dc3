//! `GET /api/git` for the panel: where the repository stands, with the author of a refused
//! commit and both texts of a document changed on both sides (what health leaves out);
//! `DELETE /api/git/conflicts/{kind}/{slug}` once the administrator has chosen a version.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/git", web::get().to(status))
        .route("/api/git/conflicts/{kind}/{slug}", web::delete().to(settle));
}

async fn status(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let status = state.git.as_ref().map(|g| g.status());
    Ok(HttpResponse::Ok().json(GitPanel {
        enabled: status.is_some(),
        status,
    }))
}

/// Whether the content follows a remote, and where it stands.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct GitPanel {
    pub enabled: bool,
    pub status: Option<contentsync::Status>,
}

async fn settle(
    AdminChange(_admin): AdminChange,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = format!("{}/{}", path.0, path.1);
    let settled = id.clone();
    let kept = state.db.run(move |db| db.settle_conflict(&settled)).await?;
    match &state.git {
        Some(git) if git.settle(&id) || kept => Ok(HttpResponse::NoContent().finish()),
        _ => Err(ApiError::not_found(
            "Ta strona nie ma zmian z repozytorium do rozstrzygnięcia.",
        )),
    }
}
