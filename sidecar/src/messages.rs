//! The panel's inbox ('Wiadomości'): every contact message, newest first, with its delivery
//! state and spam verdict; one can be opened, a failed delivery retried, a held one released
//! (and so sent), one deleted; and all messages of one e-mail address exported as JSON or
//! erased (RODO: the rights of access and erasure). Every call needs the administrator.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::auth::{Admin, AdminChange};
use crate::db::StoredMessage;
use crate::error::ApiError;
use crate::{now, AppState};

/// The most messages one list shows.
pub const LIST_LIMIT: usize = 500;
const NOT_FOUND: &str = "Nie ma takiej wiadomości.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api/messages")
            .route("", web::get().to(list))
            .route("", web::delete().to(erase_sender))
            .route("/export", web::get().to(export))
            .route("/{id}", web::get().to(one))
            .route("/{id}", web::delete().to(delete))
            .route("/{id}/retry", web::post().to(retry))
            .route("/{id}/release", web::post().to(release)),
    );
}

#[derive(Deserialize)]
struct Sender {
    email: Option<String>,
}

impl Sender {
    fn required(&self) -> Result<String, ApiError> {
        self.email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(str::to_string)
            .ok_or_else(|| ApiError::bad_request("Podaj adres e-mail nadawcy."))
    }
}

/// The inbox: the newest messages, or all of one sender's.
#[derive(Debug, Serialize, TS)]
pub struct MessageList {
    pub messages: Vec<StoredMessage>,
}

/// Every message of one sender, as the right of access gives them.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    pub email: String,
    #[ts(type = "number")]
    pub exported_at: i64,
    pub messages: Vec<StoredMessage>,
}

/// How many messages of a sender were erased.
#[derive(Debug, Serialize, TS)]
pub struct Erased {
    #[ts(type = "number")]
    pub deleted: usize,
}

fn no_store() -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.insert_header((header::CACHE_CONTROL, "no-store"));
    response
}

async fn list(
    _admin: Admin,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let db = state.db.clone();
    let email = query.email.clone().filter(|e| !e.trim().is_empty());
    let messages = web::block(move || db.messages(email.as_deref(), LIST_LIMIT)).await??;
    Ok(no_store().json(MessageList { messages }))
}

async fn find(state: &web::Data<AppState>, id: i64) -> Result<StoredMessage, ApiError> {
    let db = state.db.clone();
    web::block(move || db.message(id))
        .await??
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn one(
    _admin: Admin,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let message = find(&state, id.into_inner()).await?;
    Ok(no_store().json(message))
}

/// Sends a message again if `ready` holds for it; the outbox picks it up at once.
async fn requeue(
    state: &web::Data<AppState>,
    id: i64,
    ready: fn(&StoredMessage) -> bool,
    refusal: &'static str,
) -> Result<HttpResponse, ApiError> {
    let message = find(state, id).await?;
    if !ready(&message) {
        return Err(ApiError::status(StatusCode::CONFLICT, refusal));
    }
    let db = state.db.clone();
    web::block(move || db.requeue(id, now())).await??;
    state.contact.outbox.wake();
    let message = find(state, id).await?;
    Ok(no_store().json(message))
}

async fn retry(
    _admin: AdminChange,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let refusal = "Ponowić można tylko wiadomość, której nie udało się doręczyć.";
    requeue(&state, id.into_inner(), |m| m.status == "failed", refusal).await
}

async fn release(
    _admin: AdminChange,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let refusal = "Ta wiadomość nie jest w kwarantannie.";
    requeue(&state, id.into_inner(), |m| m.held, refusal).await
}

async fn delete(
    _admin: AdminChange,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (db, id) = (state.db.clone(), id.into_inner());
    if web::block(move || db.delete_message(id)).await?? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found(NOT_FOUND))
    }
}

async fn export(
    _admin: Admin,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.required()?;
    let db = state.db.clone();
    let wanted = email.clone();
    let messages = web::block(move || db.messages(Some(&wanted), usize::MAX >> 1)).await??;
    let body = Export {
        email,
        exported_at: now(),
        messages,
    };
    Ok(no_store()
        .insert_header((
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"wiadomosci.json\"",
        ))
        .json(body))
}

async fn erase_sender(
    _admin: AdminChange,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.required()?;
    let db = state.db.clone();
    let deleted = web::block(move || db.delete_messages_of(&email)).await??;
    Ok(no_store().json(Erased { deleted }))
}
