//! The panel's inbox ('Wiadomości'): every contact message, newest first, with its delivery
//! state and spam verdict; one can be opened, a failed delivery retried, a held one released
//! (and so sent), one deleted; and all messages of one e-mail address exported (RODO art. 15
//! and 20: a document the person reads, or JSON for machines) or erased with every file of
//! them (art. 17). Every call needs the administrator; exports and erasures also a fresh
//! confirmation of who they are (`Reauthenticated`). Each is written to the audit log: what
//! was done to which message; an export or erasure without the address or any content, so
//! the log keeps no copy of what was erased.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::audit::Inbox;
use crate::db::{Repository, StoredMessage};
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange, Reauthenticated};
use crate::inbox::export;
use crate::state::AppState;

/// The most messages one list shows.
pub const LIST_LIMIT: usize = 500;
const NOT_FOUND: &str = "Nie ma takiej wiadomości.";

/// How long backups keep what was erased (48 hourly, 30 daily, 12 monthly snapshots).
pub const BACKUP_RETENTION: &str = "Kopie zapasowe serwera przechowują te dane w zaszyfrowanej postaci jeszcze do 12 miesięcy, potem znikają same.";

/// The copy the server cannot reach: what the outbox already delivered.
pub const MAILBOX_REMINDER: &str = "Usuń też te wiadomości ze skrzynki pocztowej gabinetu (i z jej kosza): serwer strony nie ma do niej dostępu.";

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
    /// `html` (the document for the person, the default) or `json`.
    format: Option<String>,
}

/// The forms of an export.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Html,
    Json,
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

    fn format(&self) -> Result<Format, ApiError> {
        match self.format.as_deref() {
            None | Some("html") => Ok(Format::Html),
            Some("json") => Ok(Format::Json),
            Some(_) => Err(ApiError::bad_request(
                "Eksport jest dostępny jako dokument HTML albo plik JSON.",
            )),
        }
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

/// What an erasure removed, and what it could not: backups and the practice's mailbox.
#[derive(Debug, Serialize, TS)]
pub struct Erased {
    /// Messages deleted from the database.
    #[ts(type = "number")]
    pub deleted: usize,
    /// `.eml` files deleted from the outbox folder.
    #[ts(type = "number")]
    pub files: usize,
    /// How long backups keep the data.
    pub backups: String,
    /// The reminder to delete the copy in the practice's mailbox.
    pub mailbox: String,
}

async fn list(
    admin: Admin,
    req: HttpRequest,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.email.clone().filter(|e| !e.trim().is_empty());
    // Whose messages were looked at is not written down: an erasure would leave it behind.
    let detail = if email.is_some() {
        "wiadomości jednej osoby"
    } else {
        ""
    };
    let messages = state
        .db
        .run(move |db| db.messages(email.as_deref(), LIST_LIMIT))
        .await?;
    crate::http::admin::audit(&req, Inbox::InboxViewed, &admin.email, detail).await;
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
    crate::http::admin::audit(&req, Inbox::MessageOpened, &admin.email, &detail).await;
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
    state.db.run(move |db| db.requeue(id, db.now())).await?;
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
        Inbox::MessageRetried,
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
        Inbox::MessageReleased,
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
            Inbox::MessageDeleted,
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
    let format = query.format()?;
    let wanted = email.clone();
    let messages = state
        .db
        .run(move |db| db.messages(Some(&wanted), usize::MAX >> 1))
        .await?;
    let kind = if format == Format::Html {
        "dokument"
    } else {
        "JSON"
    };
    let detail = format!("wiadomości: {} ({kind})", messages.len());
    crate::http::admin::audit(&req, Inbox::MessagesExported, &admin.email, &detail).await;
    let now = state.clock.now();
    let answer = |name: &str| {
        let mut answer = HttpResponse::Ok();
        answer
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ))
            .insert_header((header::CACHE_CONTROL, "no-store"));
        answer
    };
    Ok(match format {
        Format::Html => {
            let outbox = &state.contact.outbox;
            let kept = export::Kept {
                practice: outbox.site_name(),
                days: outbox.retention_days(),
            };
            let html = export::document(&kept, &email, &messages, now);
            answer("dane-osobowe.html")
                .content_type("text/html; charset=utf-8")
                .body(html)
        }
        Format::Json => answer("dane-osobowe.json").json(Export {
            email,
            exported_at: now,
            messages,
        }),
    })
}

async fn erase_sender(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    query: web::Query<Sender>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let email = query.required()?;
    let erased = state.contact.outbox.erase(email).await?;
    let detail = format!(
        "wiadomości: {}, pliki poczty: {}",
        erased.messages, erased.files
    );
    crate::http::admin::audit(&req, Inbox::MessagesErased, &admin.email, &detail).await;
    Ok(HttpResponse::Ok().json(Erased {
        deleted: erased.messages,
        files: erased.files,
        backups: BACKUP_RETENTION.into(),
        mailbox: MAILBOX_REMINDER.into(),
    }))
}
