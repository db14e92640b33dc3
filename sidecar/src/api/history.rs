//! 'Historia zmian' of every file the panel changes — pages, services, articles, the price
//! list and the facts: each version it had, the one before the first change in the panel
//! included; any of them shown beside the current text, previewed with the site's
//! templates (documents) and restored. A restore is itself a change, so it can be undone
//! from the same list.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::api::preview::{page_error, preview_page};
use crate::changes::preview::render_in_time;
use crate::changes::restore::{self, At, Side};
use crate::changes::{self, Pipeline, Tracked, NOT_FOUND};
use crate::db::{Action, Revision};
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};

const NOT_A_PAGE: &str = "Podgląd jest dostępny dla stron, usług i artykułów.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/history", web::get().to(list))
        .route("/api/history/version", web::get().to(version))
        .route("/api/history/restore", web::post().to(restore))
        .route(
            &format!("{}version", site::headers::PREVIEW_PATH),
            web::get().to(preview),
        );
}

/// One version in the history: `revision`'s text on `side`.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Version")]
pub struct Entry {
    pub revision: i64,
    pub side: Side,
    pub saved_at: i64,
    pub author: String,
    pub action: Action,
    /// What the revision changed, in the history's words ('Terapia indywidualna 190 → 200
    /// zł', 'przywrócono wersję z 12.11.2026 18:03'); for the version before the first change,
    /// that it is that one.
    pub summary: String,
    /// The text is the file's text now.
    pub current: bool,
}

/// The versions of one file, newest first.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct HistoryList {
    pub doc: String,
    pub entries: Vec<Entry>,
}

/// One version's text beside the file's text now.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct VersionTexts {
    pub text: String,
    pub current: String,
    /// The fields that differ, by the panel's labels (what the panel compares).
    pub fields: Vec<crate::changes::compare::Compared>,
}

/// The summary of the version before the first change the panel made.
const BEFORE_FIRST: &str = "wersja sprzed pierwszej zmiany w panelu";

/// The versions of a history, newest first: what each revision saved, then, after the
/// oldest, what was there before it.
fn entries(
    revisions: &[Revision],
    oldest_before: bool,
    current: &str,
    newest_after: &str,
) -> Vec<Entry> {
    let entry = |r: &Revision, side| Entry {
        revision: r.id,
        side,
        saved_at: r.saved_at,
        author: r.author.clone(),
        action: r.action,
        summary: match side {
            Side::After => r.summary.clone().unwrap_or_default(),
            Side::Before => BEFORE_FIRST.to_string(),
        },
        current: false,
    };
    let mut list: Vec<Entry> = revisions
        .iter()
        .filter(|r| r.action != Action::Delete)
        .map(|r| entry(r, Side::After))
        .collect();
    if let Some(first) = list.first_mut() {
        first.current = revisions.first().map(|r| r.id) == Some(first.revision)
            && !current.is_empty()
            && current == newest_after;
    }
    if let (Some(oldest), true) = (revisions.last(), oldest_before) {
        list.push(entry(oldest, Side::Before));
    }
    list
}

#[derive(Deserialize)]
struct Doc {
    doc: String,
}

async fn list(
    _admin: Admin,
    query: web::Query<Doc>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let answer = changes::read(&pipeline, move |state| {
        let at = At::after(query.doc.clone(), 0);
        let target = at.target(state)?;
        let key = target.tracked.key();
        let mut revisions = state.db.revisions(&key)?;
        // Revisions kept before summaries were: worked out from their texts.
        for r in revisions.iter_mut().filter(|r| r.summary.is_none()) {
            if let Some(t) = state.db.revision_texts(&key, r.id)? {
                r.summary = Some(target.tracked.summary(r.action, &t.before, &t.after));
            }
        }
        let newest = match revisions.first() {
            Some(r) => state.db.revision_texts(&key, r.id)?,
            None => None,
        };
        let oldest = match revisions.last() {
            Some(r) => state.db.revision_texts(&key, r.id)?,
            None => None,
        };
        let oldest_before = oldest.is_some_and(|t| !t.before.is_empty());
        let current = restore::current(state, &target);
        let newest_after = newest.map(|t| t.after).unwrap_or_default();
        Ok::<_, ApiError>(HistoryList {
            entries: entries(&revisions, oldest_before, &current, &newest_after),
            doc: key,
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// `GET /api/history/version`: a version's text and the current one, to compare.
async fn version(
    _admin: Admin,
    query: web::Query<At>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let answer = changes::read(&pipeline, move |state| {
        let target = query.target(state)?;
        let text = query.text(state)?;
        let current = restore::current(state, &target);
        Ok::<_, ApiError>(VersionTexts {
            fields: target.tracked.compare(&text, &current),
            text,
            current,
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// `GET /api/preview/version`: a version rendered with the live templates, in a new tab.
async fn preview(
    _admin: Admin,
    query: web::Query<At>,
    pipeline: web::Data<Pipeline>,
) -> HttpResponse {
    let at = query.into_inner();
    let result = async {
        let tracked = Tracked::parse(&at.doc).ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
        let id = tracked
            .page()
            .cloned()
            .ok_or_else(|| ApiError::unprocessable(NOT_A_PAGE))?;
        render_in_time(&pipeline, id, move |state, _| Ok(at.text(state)?)).await
    }
    .await;
    match result {
        Ok(html) => preview_page(html),
        Err(e) => page_error(&e),
    }
}

#[derive(Deserialize)]
struct RestoreBody {
    #[serde(flatten)]
    at: At,
    /// The version of the file the panel shows.
    version: String,
}

/// `POST /api/history/restore`: the file becomes that version again, rebuilt and
/// published; the restore is a revision of its own, so it can be undone.
async fn restore(
    author: Author,
    body: web::Json<RestoreBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let answer = restore::restore(&pipeline, &author, body.at, body.version).await?;
    Ok(HttpResponse::Ok().json(answer))
}
