//! 'Historia zmian' of every file the panel changes — pages, services, articles, the price
//! list and the facts: each version it had, the one before the first change in the panel
//! included; any of them shown beside the current text, previewed with the site's
//! templates (documents) and restored. A restore is itself a change, so it can be undone
//! from the same list.

use actix_web::{web, HttpResponse};
use content::DocId;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

use crate::auth::{Admin, AdminChange};
use crate::data::{FACTS_ID, PRICES_ID};
use crate::db::{Action, Revision};
use crate::error::ApiError;
use crate::pages::{no_store, publish_change, Target, NOT_FOUND};
use crate::preview::{page_error, preview_page, render_in_time};
use crate::AppState;

const NO_VERSION: &str = "Nie ma takiej wersji w historii zmian.";
const SAME: &str = "Ta wersja jest taka sama jak obecna: nie ma czego przywracać.";
const NO_TEXT: &str = "Ta wersja to usunięcie strony; przywróć ją z listy usuniętych artykułów.";
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

/// Which text of a revision a version is: the one it saved, or the one it replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    After,
    Before,
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
}

/// A file with a history: a document, the price list or the facts.
struct Tracked {
    doc_id: String,
    file: PathBuf,
    document: Option<DocId>,
}

impl Tracked {
    fn find(state: &AppState, doc: &str) -> Result<Self, ApiError> {
        let editor = &state.site.editor;
        let file = match doc {
            PRICES_ID => editor.prices_file(),
            FACTS_ID => editor.site_file(),
            _ => {
                let id = DocId::parse(doc).ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
                // A therapist's profile has a history but is no page of its own to preview.
                if id.kind == content::Kind::Team {
                    let file = editor
                        .team_file(&id.slug)
                        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
                    return Ok(Tracked {
                        doc_id: id.to_string(),
                        file,
                        document: None,
                    });
                }
                let file = editor
                    .file_of(&id)
                    .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
                return Ok(Tracked {
                    doc_id: id.to_string(),
                    file,
                    document: Some(id),
                });
            }
        };
        Ok(Tracked {
            doc_id: doc.to_string(),
            file,
            document: None,
        })
    }

    /// The file's text now; empty when it is gone (a deleted article).
    fn current(&self, state: &AppState) -> String {
        state
            .site
            .editor
            .root()
            .read_to_string(&self.file)
            .unwrap_or_default()
    }

    /// The text of one version, refused when there is none (a deletion's side).
    fn text(&self, state: &AppState, at: &At) -> Result<String, ApiError> {
        let texts = state
            .db
            .revision_texts(&self.doc_id, at.revision)?
            .ok_or_else(|| ApiError::not_found(NO_VERSION))?;
        let text = match at.side {
            Side::After => texts.after,
            Side::Before => texts.before,
        };
        if text.is_empty() {
            return Err(ApiError::unprocessable(NO_TEXT));
        }
        Ok(text)
    }
}

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
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let answer = web::block(move || {
        let tracked = Tracked::find(&state, &query.doc)?;
        let revisions = state.db.revisions(&tracked.doc_id)?;
        let newest = match revisions.first() {
            Some(r) => state.db.revision_texts(&tracked.doc_id, r.id)?,
            None => None,
        };
        let oldest = match revisions.last() {
            Some(r) => state.db.revision_texts(&tracked.doc_id, r.id)?,
            None => None,
        };
        let oldest_before = oldest.is_some_and(|t| !t.before.is_empty());
        let current = tracked.current(&state);
        let newest_after = newest.map(|t| t.after).unwrap_or_default();
        Ok::<_, ApiError>(HistoryList {
            entries: entries(&revisions, oldest_before, &current, &newest_after),
            doc: tracked.doc_id,
        })
    })
    .await??;
    Ok(no_store().json(answer))
}

#[derive(Deserialize)]
pub(crate) struct At {
    doc: String,
    revision: i64,
    side: Side,
}

/// `GET /api/history/version`: a version's text and the current one, to compare.
async fn version(
    _admin: Admin,
    query: web::Query<At>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let answer = web::block(move || {
        let tracked = Tracked::find(&state, &query.doc)?;
        let text = tracked.text(&state, &query)?;
        Ok::<_, ApiError>(VersionTexts {
            text,
            current: tracked.current(&state),
        })
    })
    .await??;
    Ok(no_store().json(answer))
}

/// `GET /api/preview/version`: a version rendered with the live templates, in a new tab.
async fn preview(_admin: Admin, query: web::Query<At>, state: web::Data<AppState>) -> HttpResponse {
    let at = query.into_inner();
    let result = async {
        let tracked = Tracked::find(&state, &at.doc)?;
        let id = tracked
            .document
            .ok_or_else(|| ApiError::unprocessable(NOT_A_PAGE))?;
        render_in_time(state, id, move |state, _| {
            Tracked::find(state, &at.doc)?.text(state, &at)
        })
        .await
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
    AdminChange(admin): AdminChange,
    body: web::Json<RestoreBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let answer = web::block(move || restore_version(&state, &admin.email, &body.at, &body.version))
        .await??;
    Ok(no_store().json(answer))
}

/// Puts a version back, unless the file is already that text.
pub(crate) fn restore_version(
    state: &AppState,
    author: &str,
    at: &At,
    version: &str,
) -> Result<crate::pages::Changed, ApiError> {
    let tracked = Tracked::find(state, &at.doc)?;
    let text = tracked.text(state, at)?;
    if text == tracked.current(state) {
        return Err(ApiError::unprocessable(SAME));
    }
    let target = Target {
        doc_id: tracked.doc_id.clone(),
        file: tracked.file.clone(),
        action: Action::Save,
    };
    publish_change(state, &target, author, || {
        editing::replace_file(&state.site.editor.root(), &tracked.file, version, |_| {
            Ok(text)
        })
    })
}

impl At {
    pub(crate) fn after(doc: String, revision: i64) -> Self {
        At {
            doc,
            revision,
            side: Side::After,
        }
    }
}
