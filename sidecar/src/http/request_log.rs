//! The request log: one span per request (tracing-actix-web's middleware), carrying a request
//! id, the method, the path, and once answered the status and how long it took, and one event
//! `request` in it when the answer is ready. Query strings, headers and bodies are never
//! recorded: a contact message or a search can hold personal data.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{Error, HttpMessage};
use std::time::Instant;
use tracing::field::Empty;
use tracing::Span;
use tracing_actix_web::{RequestId, RootSpanBuilder};

/// When the request reached the log's middleware.
#[derive(Clone, Copy)]
struct Started(Instant);

/// Builds the span of each request for [`tracing_actix_web::TracingLogger`].
pub struct RequestSpan;

impl RootSpanBuilder for RequestSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        request.extensions_mut().insert(Started(Instant::now()));
        let id = request
            .extensions()
            .get::<RequestId>()
            .map(ToString::to_string)
            .unwrap_or_default();
        tracing::info_span!(
            "request",
            id = %id,
            method = %request.method(),
            path = %request.path(),
            status = Empty,
            us = Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        let (status, started) = match outcome {
            Ok(response) => (
                response.status(),
                response.request().extensions().get::<Started>().copied(),
            ),
            Err(e) => (e.as_response_error().status_code(), None),
        };
        span.record("status", status.as_u16());
        if let Some(Started(at)) = started {
            span.record("us", at.elapsed().as_micros() as u64);
        }
        tracing::info!(parent: &span, "request");
    }
}
