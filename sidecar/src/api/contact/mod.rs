//! `POST /api/contact` (JSON from the form island, form-encoded from the form without
//! JavaScript) and `GET /api/contact/token`. Refusals come first and cost next to nothing
//! (content type, origin, the client's rate, the size); a valid message is then committed to
//! SQLite before the answer says it was sent — whatever the spam checks say: a suspected
//! message is kept with its verdict, e-mailed with a marker or held for the panel, and the
//! visitor's answer is the same, so a bot learns nothing.

pub mod answer;

use answer::Outcome;

use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde_json::json;

use crate::db::{Arrival, NewMessage, Spam, Stored};
use crate::error::ApiError;
use crate::inbox::rules::{self, ContactInput};
use crate::inbox::token::{self, Verdict};
use crate::{http::client, state::AppState};

/// Far above the longest valid message (5,000 characters of up to 4 bytes each).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

const RATE_LIMITED: &str =
    "Wysłano zbyt wiele wiadomości w krótkim czasie. Spróbuj ponownie za kilka minut.";
const TOO_LARGE: &str = "Wiadomość jest zbyt duża.";
const BAD_TYPE: &str = "Wyślij formularz jako JSON (application/json) lub jako formularz (application/x-www-form-urlencoded).";
const BAD_BODY: &str = "Nie udało się odczytać danych formularza.";
const NOT_STORED: &str = "Nie udało się zapisać wiadomości. Spróbuj ponownie za chwilę.";
const CROSS_ORIGIN: &str = "Formularz wysłano z innej witryny, więc go odrzuciliśmy.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/contact", web::post().to(submit))
        .route("/api/contact/token", web::get().to(issue_token));
}

/// A form's token, for the form shown by the island.
#[derive(serde::Serialize)]
struct Token {
    token: String,
}

/// A message stored: the visitor's answer, whatever the spam checks said.
#[derive(serde::Serialize)]
struct Sent {
    ok: bool,
}

async fn issue_token(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(Token {
            token: token::issue(&state.contact.secret, state.clock.now()),
        })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Json,
    Form,
}

async fn read_body(mut payload: web::Payload) -> Result<web::BytesMut, Outcome> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| match crate::http::body::too_slow(&e) {
            true => Outcome::Refused(StatusCode::REQUEST_TIMEOUT, crate::http::body::TOO_SLOW),
            false => Outcome::Refused(StatusCode::BAD_REQUEST, BAD_BODY),
        })?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(Outcome::Refused(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn parse(kind: Kind, body: &[u8]) -> Result<ContactInput, Outcome> {
    let parsed = match kind {
        Kind::Json => serde_json::from_slice::<ContactInput>(body).map_err(|_| ()),
        Kind::Form => serde_urlencoded::from_bytes::<ContactInput>(body).map_err(|_| ()),
    };
    parsed.map_err(|()| Outcome::Refused(StatusCode::BAD_REQUEST, BAD_BODY))
}

/// The spam check's verdict, before the token's single use is recorded.
fn suspicion(state: &AppState, input: &ContactInput) -> (Option<Spam>, Option<String>) {
    if input
        .website
        .as_deref()
        .is_some_and(|w| !w.trim().is_empty())
    {
        return (Some(Spam::Honeypot), None);
    }
    let verdict = input.token.as_deref().filter(|t| !t.is_empty()).map(|t| {
        token::check(
            &state.contact.secret,
            t,
            state.clock.now(),
            state.contact.min_seconds,
        )
    });
    match verdict {
        Some(Verdict::Fine(nonce)) => (None, Some(nonce)),
        Some(Verdict::TooFast(nonce)) => (Some(Spam::TooFast), Some(nonce)),
        Some(Verdict::Expired | Verdict::Invalid) | None => (Some(Spam::BadToken), None),
    }
}

/// Commits the message (a token used before makes it suspect), through the one writer; one
/// not suspected of spam counts in the statistics as a message sent.
async fn store(state: &web::Data<AppState>, req: &HttpRequest, input: &ContactInput) -> Outcome {
    let (spam, nonce) = suspicion(state, input);
    let message = NewMessage {
        name: input.name.trim().to_string(),
        email: input.email.trim().to_string(),
        phone: input.national_phone().unwrap_or_default(),
        country_code: input.country_code.clone(),
        full_phone: input.expected_full_phone(),
        message: input.kept_message(),
        spam,
    };
    let arrival = Arrival {
        message,
        nonce,
        nonce_expires_at: state.clock.now() + token::MAX_AGE_SECONDS,
    };
    match state.contact.writer.store(arrival).await {
        Ok(Stored { id, spam }) => {
            tracing::info!(id, ?spam, "contact message stored");
            state.contact.outbox.wake();
            if spam.is_none() {
                let live = state.site.live.current();
                state.stats.count_message(req, |route| live.is_page(route));
            }
            Outcome::Stored
        }
        Err(e) => {
            tracing::error!(error = %e, "contact message could not be stored");
            Outcome::Refused(StatusCode::SERVICE_UNAVAILABLE, NOT_STORED)
        }
    }
}

/// Applies the rules, then stores; the form without JavaScript first confirms.
async fn decide(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    kind: Kind,
    input: ContactInput,
) -> Outcome {
    let errors = rules::validate(&input);
    if !errors.is_empty() {
        return Outcome::Invalid(errors, Box::new(input));
    }
    let no_token = input.token.as_deref().is_none_or(str::is_empty);
    let honeypot = input
        .website
        .as_deref()
        .is_some_and(|w| !w.trim().is_empty());
    if kind == Kind::Form && no_token && !honeypot {
        return Outcome::Confirm(Box::new(input));
    }
    store(state, req, &input).await
}

/// The answer to a request refused before its body is read.
fn refused_early(req: &HttpRequest, state: &AppState) -> Option<Outcome> {
    let https = state.clients.https(req);
    if !client::same_origin(req, https) {
        return Some(Outcome::Refused(StatusCode::FORBIDDEN, CROSS_ORIGIN));
    }
    if state
        .contact
        .limiter
        .check_key(&state.clients.key(req))
        .is_err()
    {
        return Some(Outcome::Refused(
            StatusCode::TOO_MANY_REQUESTS,
            RATE_LIMITED,
        ));
    }
    None
}

pub async fn submit(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> HttpResponse {
    let kind = match req.content_type() {
        "application/json" => Kind::Json,
        "application/x-www-form-urlencoded" => Kind::Form,
        _ => {
            return json_answer(Outcome::Refused(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                BAD_TYPE,
            ))
        }
    };
    let outcome = match refused_early(&req, &state) {
        Some(refusal) => refusal,
        None => match read_body(payload).await.and_then(|body| parse(kind, &body)) {
            Ok(input) => decide(&state, &req, kind, input).await,
            Err(outcome) => outcome,
        },
    };
    match kind {
        Kind::Json => json_answer(outcome),
        Kind::Form => answer::page(&state, outcome).await,
    }
}

fn json_answer(outcome: Outcome) -> HttpResponse {
    use actix_web::ResponseError;
    match outcome {
        Outcome::Stored => HttpResponse::Ok().json(Sent { ok: true }),
        Outcome::Invalid(errors, _) => {
            ApiError::unprocessable("Popraw zaznaczone pola formularza.")
                .with_fields(json!(errors))
                .error_response()
        }
        Outcome::Confirm(_) => ApiError::bad_request(BAD_BODY).error_response(),
        Outcome::Refused(status, message) => {
            let mut error = ApiError::status(status, message);
            if status == StatusCode::TOO_MANY_REQUESTS {
                error.retry_after = Some(60);
            }
            error.error_response()
        }
    }
}
