//! The panel's 'Statystyki': `GET /api/stats` (the period asked for, by default day by day)
//! and `GET /api/stats/export` (every count of it as CSV).

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::Admin;
use crate::serve::site::Site;
use crate::state::AppState;
use crate::stats::day_of;
use crate::stats::report::{self, Period, Titles};

/// The panel's 'Statystyki'.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/stats", web::get().to(read))
        .route("/api/stats/export", web::get().to(export));
}

#[derive(Deserialize)]
struct Asked {
    period: Option<Period>,
}

/// Each public page's title by its route, from the build being served.
fn titles(site: &Site) -> Titles {
    let Some(renderer) = &site.renderer else {
        return Titles::new();
    };
    let content = renderer.content();
    let pages = content.pages.iter().map(|d| (&d.route, &d.meta.title));
    let services = content.services.iter().map(|d| (&d.route, &d.meta.title));
    let articles = content.articles.iter().map(|d| (&d.route, &d.meta.title));
    pages
        .chain(services)
        .chain(articles)
        .filter_map(|(route, title)| {
            let route = route.clone()?;
            // The home page's title is what search engines show; the owner calls it this.
            let title = match route.as_str() {
                "/" => "Strona główna".to_string(),
                _ => title.clone(),
            };
            Some((route, title))
        })
        .collect()
}

/// 'Statystyki' of the period asked for (by default day by day).
async fn read(
    _admin: Admin,
    state: web::Data<AppState>,
    asked: web::Query<Asked>,
) -> Result<HttpResponse, ApiError> {
    state.stats.write_now().await;
    let period = asked.period.unwrap_or(Period::Day);
    let titles = titles(&state.site.live.current());
    let enabled = state.stats.enabled();
    let months = state.stats.settings.retention_months;
    let today = day_of(state.clock.now());
    let report = state
        .db
        .run(move |db| report::build(db, period, today, &titles, enabled, months))
        .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// Every count of the period asked for as a CSV file.
async fn export(
    _admin: Admin,
    state: web::Data<AppState>,
    asked: web::Query<Asked>,
) -> Result<HttpResponse, ApiError> {
    state.stats.write_now().await;
    let (from, to) = report::range(
        asked.period.unwrap_or(Period::Day),
        day_of(state.clock.now()),
    );
    let rows = state.db.run(move |db| db.stat_rows(from, to)).await?;
    let name = |day: i64| content::dates::Date::from_unix(day * 86_400).iso();
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"statystyki-{}-{}.csv\"",
                name(from),
                name(to)
            ),
        ))
        .body(report::csv(&rows)))
}
