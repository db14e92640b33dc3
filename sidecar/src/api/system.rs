//! `GET /api/system`: what the panel's 'Stan systemu' shows and its banner warns of — the
//! alerts of the last check, the outbox, the backups and the disk — for the administrator.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use ts_rs::TS;

use crate::alerts::conditions::Alert;
use crate::alerts::watch::disk;
use crate::backup::status;
use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::Admin;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/system", web::get().to(system));
}

/// The outbox: messages waiting for delivery, failed ones, the oldest waiting one.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemOutbox")]
pub struct Outbox {
    #[ts(type = "number")]
    pub pending: i64,
    #[ts(type = "number")]
    pub failed: i64,
    #[ts(type = "number | null")]
    pub oldest_pending_at: Option<i64>,
}

/// The scheduled backups, when a repository is set.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemBackups")]
pub struct Backups {
    #[ts(type = "number")]
    pub interval_seconds: u64,
    #[ts(type = "number | null")]
    pub last_success_at: Option<i64>,
    #[ts(type = "number | null")]
    pub last_duration_ms: Option<u64>,
    #[ts(type = "number | null")]
    pub last_failure_at: Option<i64>,
    pub last_error: Option<String>,
}

/// `GET /api/system`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemStatus")]
pub struct SystemStatus {
    #[ts(type = "number")]
    pub now: i64,
    pub alerts: Vec<Alert>,
    pub outbox: Outbox,
    /// `null` when no backup repository is set.
    pub backups: Option<Backups>,
    #[ts(type = "number | null")]
    pub disk_free_bytes: Option<u64>,
    #[ts(type = "number | null")]
    pub disk_total_bytes: Option<u64>,
}

async fn system(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let system = state.system.clone();
    let outbox = state
        .db
        .run(|db| {
            Ok::<_, crate::error::Error>(Outbox {
                pending: db.count("pending")?,
                failed: db.count("failed")?,
                oldest_pending_at: db.oldest_pending()?,
            })
        })
        .await?;
    let backups = system.backup_interval.map(|interval_seconds| {
        let s = status::read(&system.data_dir);
        Backups {
            interval_seconds,
            last_success_at: s.last_success_at,
            last_duration_ms: s.last_duration_ms,
            last_failure_at: s.last_failure_at,
            last_error: s.last_error,
        }
    });
    let disk = disk(&system.data_dir);
    Ok(HttpResponse::Ok().json(SystemStatus {
        now: crate::db::now(),
        alerts: system.current(),
        outbox,
        backups,
        disk_free_bytes: disk.map(|d| d.free),
        disk_total_bytes: disk.map(|d| d.total),
    }))
}
