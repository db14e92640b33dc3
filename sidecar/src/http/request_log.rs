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

/// A request answered after this long is also logged as a warning (the operator's log and the
/// browser tests' show it at their level).
const SLOW: std::time::Duration = std::time::Duration::from_secs(5);

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
        let took = started.map(|Started(at)| at.elapsed());
        if let Some(took) = took {
            span.record("us", took.as_micros() as u64);
        }
        tracing::info!(parent: &span, "request");
        if let (Some(took), Ok(response)) = (took, outcome) {
            if took >= SLOW {
                // With its method and path: at the warning level the span is not recorded.
                let request = response.request();
                tracing::warn!(
                    parent: &span,
                    method = %request.method(),
                    path = %request.path(),
                    status = status.as_u16(),
                    ms = took.as_millis() as u64,
                    "slow request: answered after 5 s or more"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use actix_web::HttpResponse;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// What the log wrote, at warning level and above.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The warnings of one request to the inbox answered `took` after it arrived.
    fn warnings_of_a_request_that_took(took: Duration) -> String {
        let written = Written::default();
        let writer = written.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_max_level(tracing::Level::WARN)
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let request = TestRequest::get().uri("/api/messages").to_srv_request();
            let span = RequestSpan::on_request_start(&request);
            request
                .extensions_mut()
                .insert(Started(Instant::now() - took));
            let answered = request.into_response(HttpResponse::Ok().finish());
            RequestSpan::on_request_end(span, &Ok(answered));
        });
        let text = written.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        String::from_utf8_lossy(&text).into_owned()
    }

    #[test]
    fn a_request_answered_after_five_seconds_is_also_a_warning_with_its_path() {
        let slow = warnings_of_a_request_that_took(Duration::from_secs(6));
        assert!(slow.contains("slow request"), "{slow}");
        assert!(slow.contains("/api/messages"), "{slow}");
        let quick = warnings_of_a_request_that_took(Duration::from_millis(20));
        assert_eq!(quick, "");
    }
}
