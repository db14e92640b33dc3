//! The answer to the contact form sent without JavaScript: a page with the form as it was
//! sent, rendered from the current build's templates and content (never starting node). The
//! pages that hold nothing the visitor typed ("sent", each refusal) are rendered once per
//! build and kept; the others are rendered at most two at a time.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use bytes::Bytes;
use serde_json::{json, Value};

use crate::inbox::contact::Rendering;
use crate::inbox::rules::{ContactInput, Errors};
use crate::inbox::token;
use crate::state::AppState;

/// What happened to a submission, answered as JSON or as a page depending on the sender.
pub enum Outcome {
    Stored,
    Invalid(Errors, Box<ContactInput>),
    /// The form without JavaScript arrived without a token: shown again, filled in, with a
    /// fresh token, to confirm.
    Confirm(Box<ContactInput>),
    Refused(StatusCode, &'static str),
}

fn initial(input: &ContactInput) -> Value {
    json!({
        "name": input.name,
        "email": input.email,
        "phone": input.phone,
        "countryCode": input.country_code,
        "message": input.message,
        "earlyStart": input.early_start,
    })
}

/// The status, the form's props, and the key under which the page may be kept.
fn props(state: &AppState, outcome: Outcome) -> (StatusCode, Value, Option<&'static str>) {
    match outcome {
        Outcome::Stored => (StatusCode::OK, json!({ "notice": "sent" }), Some("sent")),
        Outcome::Invalid(errors, input) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({ "initial": initial(&input), "errors": errors }),
            None,
        ),
        Outcome::Confirm(input) => (
            StatusCode::OK,
            // A fresh token: the confirming click is checked like any other.
            json!({ "initial": initial(&input), "notice": "confirm", "token": token::issue(&state.contact.secret, state.clock.now()) }),
            None,
        ),
        Outcome::Refused(status, message) => (
            status,
            json!({ "notice": "refused", "noticeText": message }),
            Some(message),
        ),
    }
}

fn html(status: StatusCode, body: Bytes) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
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

pub async fn page(state: &web::Data<AppState>, outcome: Outcome) -> HttpResponse {
    let (status, form, keep) = props(state, outcome);
    let site = state.site.live.current();
    let key = keep.map(|k| (site.number, status.as_u16(), k));
    if let Some(key) = key {
        let kept = state
            .contact
            .answers
            .kept
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned());
        if let Some(body) = kept {
            return html(status, body);
        }
    }
    let Some(renderer) = site.renderer.clone() else {
        return render_failed(status, "the site has not been built yet");
    };
    let Ok(_slot) = state.contact.answers.slots.acquire().await else {
        return render_failed(status, "the answer pages are shutting down");
    };
    let _counted = Rendering::start(&state.contact.answers);
    match crate::inbox::contact::render_answer(renderer, form).await {
        Ok(page) => {
            let body = Bytes::from(page);
            if let (Some(key), Ok(mut kept)) = (key, state.contact.answers.kept.lock()) {
                kept.retain(|(build, _, _), _| *build == key.0);
                kept.insert(key, body.clone());
            }
            html(status, body)
        }
        Err(e) => render_failed(status, &e),
    }
}
