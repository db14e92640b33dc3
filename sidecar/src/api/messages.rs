//! The panel's inbox ('Wiadomości'): every contact message, newest first, with its delivery
//! state and spam verdict; one can be opened, a failed delivery retried, a held one released
//! (and so sent), one deleted; and all messages of one e-mail address exported as JSON or
//! erased (RODO: the rights of access and erasure). Every call needs the administrator;
//! exports and erasures also a fresh confirmation of who they are (`Reauthenticated`).
//! Each is written to the audit log: what was done to which message or address.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::db::{now, Repository, StoredMessage};
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange, Reauthenticated};
use crate::state::AppState;
use accounts::audit::Event;

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

async fn list(
    admin: Admin,
    req: HttpRequest,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.email.clone().filter(|e| !e.trim().is_empty());
    let detail = email.clone().unwrap_or_default();
    let messages = state
        .db
        .run(move |db| db.messages(email.as_deref(), LIST_LIMIT))
        .await?;
    crate::http::admin::audit(&req, Event::InboxViewed, &admin.email, &detail).await;
    Ok(HttpResponse::Ok().json(MessageList { messages }))
}

async fn find(state: &web::Data<AppState>, id: i64) -> Result<StoredMessage, ApiError> {
    state
        .db
        .run(move |db| db.message(id))
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn one(
    admin: Admin,
    req: HttpRequest,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let message = find(&state, id.into_inner()).await?;
    let detail = format!("nr {}", message.id);
    crate::http::admin::audit(&req, Event::MessageOpened, &admin.email, &detail).await;
    Ok(HttpResponse::Ok().json(message))
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
    state.db.run(move |db| db.requeue(id, now())).await?;
    state.contact.outbox.wake();
    let message = find(state, id).await?;
    Ok(HttpResponse::Ok().json(message))
}

async fn retry(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let refusal = "Ponowić można tylko wiadomość, której nie udało się doręczyć.";
    let id = id.into_inner();
    let answer = requeue(&state, id, |m| m.status == "failed", refusal).await?;
    crate::http::admin::audit(
        &req,
        Event::MessageRetried,
        &admin.email,
        &format!("nr {id}"),
    )
    .await;
    Ok(answer)
}

async fn release(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let refusal = "Ta wiadomość nie jest w kwarantannie.";
    let id = id.into_inner();
    let answer = requeue(&state, id, |m| m.held, refusal).await?;
    crate::http::admin::audit(
        &req,
        Event::MessageReleased,
        &admin.email,
        &format!("nr {id}"),
    )
    .await;
    Ok(answer)
}

async fn delete(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if state.db.run(move |db| db.delete_message(id)).await? {
        crate::http::admin::audit(
            &req,
            Event::MessageDeleted,
            &admin.email,
            &format!("nr {id}"),
        )
        .await;
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found(NOT_FOUND))
    }
}

async fn export(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.required()?;
    let wanted = email.clone();
    let messages = state
        .db
        .run(move |db| db.messages(Some(&wanted), usize::MAX >> 1))
        .await?;
    let detail = format!("{email}: {}", messages.len());
    crate::http::admin::audit(&req, Event::MessagesExported, &admin.email, &detail).await;
    let body = Export {
        email,
        exported_at: now(),
        messages,
    };
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"wiadomosci.json\"",
        ))
        .json(body))
}

async fn erase_sender(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.required()?;
    let erased = email.clone();
    let deleted = state
        .db
        .run(move |db| db.delete_messages_of(&erased))
        .await?;
    let detail = format!("{email}: {deleted}");
    crate::http::admin::audit(&req, Event::MessagesErased, &admin.email, &detail).await;
    Ok(HttpResponse::Ok().json(Erased { deleted }))
}
