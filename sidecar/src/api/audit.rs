//! The audit log as the panel reads it (`GET /api/audit`), and how handlers write to it:
//! [`record`], never failing the request it describes.
//! Entries are kept `AUDIT_RETENTION_DAYS` (the maintenance task prunes them).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::Admin;
use crate::state::AppState;

use accounts::audit::Event;

/// Writes an entry before the request is answered: `actor` is who (an e-mail, as given),
/// `detail` what to (a message's number, an address), never what a message says. A failure
/// to write is logged and does not fail the request it describes.
pub async fn record(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    event: impl Into<Event>,
    actor: &str,
    detail: &str,
) {
    let event = event.into();
    let client = state.clients.key(req).to_string();
    let (actor, detail) = (actor.to_string(), detail.to_string());
    let written = state
        .auth
        .store
        .blocking(move |store| accounts::audit::record(store, event, &actor, &client, &detail))
        .await;
    if let Err(e) = written {
        tracing::error!(error = %e, event = event.name(), "audit log");
    }
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/audit", web::get().to(list));
}

#[derive(Deserialize)]
struct Page {
    before: Option<i64>,
}

/// `GET /api/audit?before=ID`: 100 entries, the newest first.
async fn list(
    _admin: Admin,
    page: web::Query<Page>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let before = page.before;
    let entries = state
        .auth
        .store
        .run(move |db| db.audit(100, before))
        .await?;
    Ok(HttpResponse::Ok().json(entries))
}
