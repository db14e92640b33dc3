//! `POST /api/contact` (JSON from the form island, form-encoded from the form without
//! JavaScript) and `GET /api/contact/token`. A message is committed to SQLite before the
//! answer says it was sent.

pub mod rules;
pub mod token;

use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde_json::json;

use crate::db::NewMessage;
use crate::outbox::now;
use crate::AppState;
use rules::{ContactInput, Errors};
use token::Verdict;

/// Far above the longest valid message (5,000 characters of up to 4 bytes each).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

const RATE_LIMITED: &str =
    "Wysłano zbyt wiele wiadomości w krótkim czasie. Spróbuj ponownie za kilka minut.";
const TOO_LARGE: &str = "Wiadomość jest zbyt duża.";
const BAD_TYPE: &str = "Wyślij formularz jako JSON (application/json) lub jako formularz (application/x-www-form-urlencoded).";
const BAD_BODY: &str = "Nie udało się odczytać danych formularza.";
const STALE_FORM: &str =
    "Formularz był otwarty zbyt długo. Odśwież stronę i wyślij wiadomość ponownie.";
const NO_TOKEN: &str = "Brakuje znacznika formularza. Odśwież stronę i wyślij wiadomość ponownie.";
const NOT_STORED: &str = "Nie udało się zapisać wiadomości. Spróbuj ponownie za chwilę.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/contact", web::post().to(submit))
        .route("/api/contact/token", web::get().to(issue_token));
}

async fn issue_token(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(json!({ "token": token::issue(&state.secret, now()) }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    Form,
}

/// What happened to a submission, answered as JSON or as a page depending on the sender.
enum Outcome {
    Stored,
    Invalid(Errors, Box<ContactInput>),
    /// The no-JS form arrived without a usable token: show it again, filled in, to confirm.
    Confirm(Box<ContactInput>),
    Refused(StatusCode, &'static str),
}

async fn read_body(mut payload: web::Payload) -> Result<web::BytesMut, Outcome> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|_| Outcome::Refused(StatusCode::BAD_REQUEST, BAD_BODY))?;
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
    let mut input = parsed.map_err(|()| Outcome::Refused(StatusCode::BAD_REQUEST, BAD_BODY))?;
    if kind == Kind::Form {
        // The JavaScript form strips non-digits as they are typed; do the same here.
        input.phone.retain(|c| c.is_ascii_digit());
    }
    Ok(input)
}

async fn store(state: &web::Data<AppState>, input: &ContactInput) -> Outcome {
    let message = NewMessage {
        name: input.name.trim().to_string(),
        email: input.email.trim().to_string(),
        phone: input.phone.clone(),
        country_code: input.country_code.clone(),
        full_phone: input.expected_full_phone(),
        message: input.message.trim().to_string(),
    };
    let db = state.db.clone();
    match web::block(move || db.insert_message(&message, now())).await {
        Ok(Ok(id)) => {
            tracing::info!(id, "contact message stored");
            state.outbox.wake();
            Outcome::Stored
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "contact message could not be stored");
            Outcome::Refused(StatusCode::SERVICE_UNAVAILABLE, NOT_STORED)
        }
        Err(e) => {
            tracing::error!(error = %e, "contact message could not be stored");
            Outcome::Refused(StatusCode::SERVICE_UNAVAILABLE, NOT_STORED)
        }
    }
}

/// Applies the rules, then the spam checks: a tripped check is answered as if stored.
async fn decide(state: &web::Data<AppState>, kind: Kind, input: ContactInput) -> Outcome {
    let errors = rules::validate(&input);
    if !errors.is_empty() {
        return Outcome::Invalid(errors, Box::new(input));
    }
    if input
        .website
        .as_deref()
        .is_some_and(|w| !w.trim().is_empty())
    {
        tracing::info!("contact message dropped: honeypot filled");
        return Outcome::Stored;
    }
    let verdict = input
        .token
        .as_deref()
        .filter(|t| !t.is_empty())
        .map(|t| token::check(&state.secret, t, now(), state.min_seconds));
    match (verdict, kind) {
        (Some(Verdict::Fine), _) => store(state, &input).await,
        (Some(Verdict::TooFast | Verdict::Invalid), _) => {
            tracing::info!(?verdict, "contact message dropped: token");
            Outcome::Stored
        }
        (None | Some(Verdict::Expired), Kind::Form) => Outcome::Confirm(Box::new(input)),
        (Some(Verdict::Expired), Kind::Json) => {
            Outcome::Refused(StatusCode::BAD_REQUEST, STALE_FORM)
        }
        (None, Kind::Json) => Outcome::Refused(StatusCode::BAD_REQUEST, NO_TOKEN),
    }
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
    let outcome = if !state.allow(&req) {
        Outcome::Refused(StatusCode::TOO_MANY_REQUESTS, RATE_LIMITED)
    } else {
        match read_body(payload).await.and_then(|body| parse(kind, &body)) {
            Ok(input) => decide(&state, kind, input).await,
            Err(outcome) => outcome,
        }
    };
    match kind {
        Kind::Json => json_answer(outcome),
        Kind::Form => page_answer(&state, outcome).await,
    }
}

fn json_answer(outcome: Outcome) -> HttpResponse {
    match outcome {
        Outcome::Stored => HttpResponse::Ok().json(json!({ "ok": true })),
        Outcome::Invalid(errors, _) => HttpResponse::UnprocessableEntity().json(json!({
            "error": "Popraw zaznaczone pola formularza.",
            "errors": errors,
        })),
        Outcome::Confirm(_) => HttpResponse::BadRequest().json(json!({ "error": NO_TOKEN })),
        Outcome::Refused(status, message) => {
            HttpResponse::build(status).json(json!({ "error": message }))
        }
    }
}

/// The answer to the form sent without JavaScript: a page with the form as it was sent.
async fn page_answer(state: &web::Data<AppState>, outcome: Outcome) -> HttpResponse {
    let (status, props) = match outcome {
        Outcome::Stored => (StatusCode::OK, json!({ "notice": "sent" })),
        Outcome::Invalid(errors, input) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({ "initial": initial(&input), "errors": errors }),
        ),
        Outcome::Confirm(input) => (
            StatusCode::OK,
            // Backdated: this person has already typed the message once.
            json!({ "initial": initial(&input), "notice": "confirm", "token": token::issue(&state.secret, now() - state.min_seconds) }),
        ),
        Outcome::Refused(status, message) => (
            status,
            json!({ "notice": "refused", "noticeText": message }),
        ),
    };
    let renderer = state.renderer.read().ok().and_then(|r| r.clone());
    let Some(renderer) = renderer else {
        return render_failed(status, "the site has not been built yet");
    };
    let rendered = web::block(move || {
        renderer.render_extra(&generator::ExtraPage {
            template: "contact.html",
            route: "/kontakt",
            title: "Kontakt",
            description: "Formularz kontaktowy Gabinetu Harmonia.",
            extra: vec![("form", props)],
        })
    })
    .await;
    match rendered {
        Ok(Ok(html)) => HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .body(html),
        Ok(Err(e)) => render_failed(status, &e.to_string()),
        Err(e) => render_failed(status, &e.to_string()),
    }
}

fn render_failed(status: StatusCode, error: &str) -> HttpResponse {
    tracing::error!(%error, "contact answer page could not be rendered");
    let text = if status == StatusCode::OK {
        "Wiadomość została zapisana. Dziękujemy za kontakt."
    } else {
        "Nie udało się wysłać wiadomości. Wróć do poprzedniej strony i spróbuj ponownie."
    };
    HttpResponse::build(status)
        .content_type("text/plain; charset=utf-8")
        .body(text)
}

fn initial(input: &ContactInput) -> serde_json::Value {
    json!({
        "name": input.name,
        "email": input.email,
        "phone": input.phone,
        "countryCode": input.country_code,
        "message": input.message,
    })
}
