//! `GET /api/system`: what the panel's 'Stan systemu' shows and its banner warns of — the
//! alerts of the last check, the outbox, the backups, the disk and the metrics — for the
//! administrator; and `GET /metrics`, the same metrics for Prometheus, on the panel's origin
//! for whoever sends `METRICS_TOKEN` as a bearer token.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use ts_rs::TS;

use crate::alerts::conditions::Alert;
use crate::alerts::watch::disk;
use crate::backup::status;
use crate::config::secrets::same_secret;
use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::Admin;
use crate::metrics::{self, Gauges, Sample};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/system", web::get().to(system))
        .route("/metrics", web::get().to(prometheus));
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
    /// restic's words of the last failure: shown only under 'Szczegóły dla informatyka'.
    pub last_error: Option<String>,
    /// When the backup running now started.
    #[ts(type = "number | null")]
    pub running_since: Option<i64>,
    /// The longest one restic call may take before it is stopped.
    #[ts(type = "number")]
    pub timeout_seconds: u64,
}

/// `GET /api/system`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemStatus")]
pub struct SystemStatus {
    #[ts(type = "number")]
    pub now: i64,
    pub alerts: Vec<Alert>,
    /// What is not set up that should be (backups off): never "all is well" while any is.
    pub warnings: Vec<Alert>,
    pub outbox: Outbox,
    /// `null` when no backup repository is set.
    pub backups: Option<Backups>,
    #[ts(type = "number | null")]
    pub disk_free_bytes: Option<u64>,
    #[ts(type = "number | null")]
    pub disk_total_bytes: Option<u64>,
    /// What `/metrics` says, line by line.
    pub metrics: Vec<Sample>,
}

/// The figures read at each look: the outbox and the last good backup.
async fn gauges(state: &web::Data<AppState>) -> Result<(Outbox, Gauges), ApiError> {
    let system = state.system.clone();
    let (outbox, delivered) = state
        .db
        .run(|db| {
            Ok::<_, crate::error::Error>((
                Outbox {
                    pending: db.count("pending")?,
                    failed: db.count("failed")?,
                    oldest_pending_at: db.oldest_pending()?,
                },
                db.count("delivered")?,
            ))
        })
        .await?;
    let now = state.clock.now();
    let last_backup = system
        .backup_interval
        .and_then(|_| status::read(&system.data_dir).last_success_at);
    let gauges = Gauges {
        pending: outbox.pending,
        delivered,
        failed: outbox.failed,
        oldest_pending_age: outbox.oldest_pending_at.map(|at| now - at),
        last_backup_age: last_backup.map(|at| now - at),
    };
    Ok((outbox, gauges))
}

/// `GET /metrics`: 404 while no token is set, 401 without the right one.
async fn prometheus(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let Some(token) = state.system.metrics_token.clone() else {
        return Err(ApiError::status(
            StatusCode::NOT_FOUND,
            "Metryki są wyłączone: ustaw METRICS_TOKEN, aby je udostępnić.",
        ));
    };
    let refusals = &state.system.metrics_refusals;
    if !refusals.allows(state.clients.key(&req)) {
        return Err(ApiError::too_many(
            "Zbyt wiele prób",
            "Zbyt wiele błędnych tokenów metryk. Spróbuj ponownie za minutę.",
            60,
        ));
    }
    let sent = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if !same_secret(sent.as_bytes(), token.as_bytes()) {
        let audit = Some("brak lub błędny token metryk");
        let client = state.clients.key(&req);
        crate::http::refusals::Refusals::refused(refusals, &state.auth.store, client, audit);
        return Err(ApiError::status(
            StatusCode::UNAUTHORIZED,
            "Brak lub błędny token metryk (nagłówek Authorization: Bearer …).",
        ));
    }
    let (_, gauges) = gauges(&state).await?;
    Ok(HttpResponse::Ok()
        .content_type(metrics::CONTENT_TYPE)
        .body(metrics::render(&gauges)))
}

async fn system(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let system = state.system.clone();
    let (outbox, gauges) = gauges(&state).await?;
    let backups = system.backups().map(|b| Backups {
        interval_seconds: b.interval,
        last_success_at: b.status.last_success_at,
        last_duration_ms: b.status.last_duration_ms,
        last_failure_at: b.status.last_failure_at,
        last_error: b.status.last_error,
        running_since: b.running_since,
        timeout_seconds: b.timeout,
    });
    let disk = disk(&system.data_dir);
    let now = state.clock.now();
    Ok(HttpResponse::Ok().json(SystemStatus {
        now,
        alerts: system.current(),
        warnings: system.warnings(now),
        outbox,
        backups,
        disk_free_bytes: disk.map(|d| d.free),
        disk_total_bytes: disk.map(|d| d.total),
        metrics: metrics::samples(&metrics::render(&gauges)),
    }))
}
