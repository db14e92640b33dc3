//! `GET /api/health`: for a monitor or a load balancer, without personal data — the build
//! being served, how many contact messages wait for delivery or have failed, and how many
//! photographs still wait for their variants, and where the content's repository stands
//! (`GIT_REMOTE`: commits not yet pushed, the last error, a refused commit's problems), and
//! on a production start the example facts that keep the site from being published.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::db::Repository;
use crate::error::ApiError;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/health", web::get().to(health));
}

/// The build served, how many contact messages wait for delivery or have failed, and how
/// many photographs wait for their variants.
#[derive(Debug, Serialize)]
pub struct Health {
    pub build: String,
    pub pending: i64,
    pub failed: i64,
    pub images: usize,
    /// Where the content's repository stands (`GIT_REMOTE`), without authors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git: Option<serde_json::Value>,
    /// On a production start, the facts of `site.yaml` still listed as example data, which
    /// keep the site from being published (their keys); absent when the site is published.
    #[serde(rename = "notPublished", skip_serializing_if = "Vec::is_empty")]
    pub not_published: Vec<&'static str>,
}

async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let live = state.site.live.current();
    let build = live.id.clone();
    let not_published = live.held.iter().map(|f| f.key()).collect();
    let images = state.site.images.count();
    let (pending, failed) = state
        .db
        .run(|db| Ok::<_, crate::error::Error>((db.count("pending")?, db.count("failed")?)))
        .await?;
    let git = state.git_status();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(Health {
            build,
            pending,
            failed,
            images,
            git,
            not_published,
        }))
}
