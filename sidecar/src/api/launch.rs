//! `GET /api/launch`: the go-live checklist of the panel's first screen and of 'Stan
//! systemu' — the practice's facts still example data, outgoing mail, backups, the second
//! factor and HTTPS — and whether the public site is published ([`crate::serve::launch`]).

use actix_web::{web, HttpResponse};

use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::Admin;
use crate::serve::launch::Checklist;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/launch", web::get().to(launch));
}

async fn launch(admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let live = state.site.live.current();
    let example = live
        .renderer
        .as_ref()
        .map(|r| r.content().site.example_data.clone())
        .unwrap_or_default();
    let email = admin.email.clone();
    let second_factor = state
        .auth
        .store
        .run(move |db| {
            let on = match db.account(&email)? {
                Some((id, _)) => db.totp(id)?.is_some_and(|t| t.confirmed),
                None => false,
            };
            Ok::<_, crate::error::Error>(on)
        })
        .await?;
    Ok(HttpResponse::Ok().json(Checklist::new(
        &state.site.launch,
        &example,
        live.held.is_empty(),
        second_factor,
    )))
}
