//! `GET /api/git` for the panel: where the repository stands, with the author of a refused
//! commit and both texts of a document changed on both sides (what health leaves out).

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::auth::Admin;
use crate::error::ApiError;
use crate::pages::no_store;
use crate::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/git", web::get().to(status));
}

async fn status(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let status = state.git.as_ref().map(|g| g.status());
    Ok(no_store().json(json!({ "enabled": status.is_some(), "status": status })))
}
