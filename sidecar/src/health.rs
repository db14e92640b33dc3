//! `GET /api/health`: for a monitor or a load balancer, without personal data — the build
//! being served, how many contact messages wait for delivery or have failed, and how many
//! photographs still wait for their variants, and where the content's repository stands
//! (`GIT_REMOTE`: commits not yet pushed, the last error, a refused commit's problems).

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::error::ApiError;
use crate::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/health", web::get().to(health));
}

async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let build = state.site.live.current().id.clone();
    let images = state.site.images.count();
    let db = state.db.clone();
    let (pending, failed) =
        web::block(move || Ok::<_, crate::Error>((db.count("pending")?, db.count("failed")?)))
            .await??;
    let git = state.git.as_ref().map(|g| g.status().public());
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(json!({ "build": build, "pending": pending, "failed": failed, "images": images, "git": git })))
}
