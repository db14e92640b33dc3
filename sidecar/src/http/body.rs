//! Request bodies. Every body must arrive at a minimal rate: it has [`Deadline::grace`] to
//! start and then must keep [`MIN_BYTES_PER_SECOND`] on average, or reading it fails and the
//! request is answered 408 ([`deadline`] puts that clock on every request's payload, so the
//! JSON and form extractors are held to it too). Routes that take more than JSON read their
//! body with [`read_limited`]: refused with 413 before anything is read when the announced
//! length is too large, and as soon as the bytes read pass the limit otherwise.

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpRequest};
use futures_util::{Stream, StreamExt};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

use crate::error::ApiError;

/// The slowest a body may arrive once it has started, on average (a phone on a weak signal
/// sends tens of kilobytes a second; a client holding a connection open sends a byte now
/// and then).
pub const MIN_BYTES_PER_SECOND: u64 = 1024;

pub const TOO_SLOW: &str =
    "Dane przychodziły zbyt wolno i połączenie zostało przerwane. Spróbuj ponownie.";
const UNREADABLE: &str = "Nie udało się odczytać przesłanych danych.";

/// How long a body may take: `grace` plus a second per [`MIN_BYTES_PER_SECOND`] received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub grace: Duration,
}

impl Deadline {
    fn due(self, started: Instant, received: u64) -> Instant {
        let allowed = received.saturating_mul(1000) / MIN_BYTES_PER_SECOND;
        started + self.grace + Duration::from_millis(allowed)
    }
}

/// A payload that fails with [`std::io::ErrorKind::TimedOut`] when it falls behind.
struct Timed {
    inner: Payload,
    rule: Deadline,
    started: Option<Instant>,
    received: u64,
    timer: Option<Pin<Box<Sleep>>>,
    expired: bool,
}

fn timed_out() -> PayloadError {
    PayloadError::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "the request body arrived too slowly",
    ))
}

impl Stream for Timed {
    type Item = Result<web::Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        let started = *this.started.get_or_insert_with(Instant::now);
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                this.received += chunk.len() as u64;
                return Poll::Ready(Some(Ok(chunk)));
            }
            Poll::Ready(other) => return Poll::Ready(other),
            Poll::Pending => {}
        }
        let due = this.rule.due(started, this.received);
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(due)));
        if timer.deadline() != due {
            timer.as_mut().reset(due);
        }
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.expired = true;
                Poll::Ready(Some(Err(timed_out())))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Middleware: holds every request body to the server's [`Deadline`].
pub async fn deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let rule = req.app_data::<web::Data<Deadline>>().map(|d| *d.get_ref());
    let payload = req.take_payload();
    match (rule, payload) {
        (Some(rule), payload @ (Payload::H1 { .. } | Payload::Stream { .. })) => {
            let timed = Timed {
                inner: payload,
                rule,
                started: None,
                received: 0,
                timer: None,
                expired: false,
            };
            req.set_payload(Payload::Stream {
                payload: Box::pin(timed),
            });
        }
        (_, payload) => req.set_payload(payload),
    }
    next.call(req).await
}

/// Whether reading a body failed because it came too slowly.
pub fn too_slow(error: &PayloadError) -> bool {
    matches!(error, PayloadError::Io(e) if e.kind() == std::io::ErrorKind::TimedOut)
}

/// The answer to a body that could not be read: 408 when it came too slowly.
pub fn read_error(error: &PayloadError) -> ApiError {
    match too_slow(error) {
        true => ApiError::status(StatusCode::REQUEST_TIMEOUT, TOO_SLOW),
        false => ApiError::bad_request(UNREADABLE),
    }
}

pub async fn read_limited(
    req: &HttpRequest,
    mut payload: web::Payload,
    limit: usize,
    too_large: &str,
) -> Result<web::BytesMut, ApiError> {
    let refuse = || ApiError::status(StatusCode::PAYLOAD_TOO_LARGE, too_large);
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(refuse());
    }
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| read_error(&e))?;
        if body.len() + chunk.len() > limit {
            return Err(refuse());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The media type of a request, without parameters, lowercase.
pub fn media_type(req: &HttpRequest) -> String {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// A JSON body the server cannot take: too large, not JSON, or not the right shape.
pub fn json_error(err: actix_web::error::JsonPayloadError) -> ApiError {
    use actix_web::error::JsonPayloadError as E;
    match err {
        E::OverflowKnownLength { .. } | E::Overflow { .. } => {
            ApiError::status(StatusCode::PAYLOAD_TOO_LARGE, crate::error::TOO_LARGE)
        }
        E::ContentType => ApiError::status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Dane trzeba przesłać jako JSON (application/json).",
        ),
        E::Payload(e) => read_error(&e),
        _ => ApiError::bad_request("Nie udało się odczytać przesłanych danych."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_grows_with_each_kilobyte_received() {
        let rule = Deadline {
            grace: Duration::from_secs(10),
        };
        let start = Instant::now();
        assert_eq!(rule.due(start, 0), start + Duration::from_secs(10));
        assert_eq!(rule.due(start, 5 * 1024), start + Duration::from_secs(15));
    }

    #[actix_rt::test]
    async fn a_body_that_stalls_fails_as_timed_out_and_then_ends() {
        let (mut sender, stalled) = actix_http::h1::Payload::create(false);
        sender.feed_data(web::Bytes::from_static(b"{\"a\":"));
        let mut timed = Timed {
            inner: Payload::from(stalled),
            rule: Deadline {
                grace: Duration::from_millis(50),
            },
            started: None,
            received: 0,
            timer: None,
            expired: false,
        };
        assert_eq!(
            timed.next().await.and_then(Result::ok).as_deref(),
            Some(&b"{\"a\":"[..])
        );
        let error = timed.next().await.and_then(Result::err).expect("timed out");
        assert_eq!(read_error(&error).status, StatusCode::REQUEST_TIMEOUT);
        assert!(timed.next().await.is_none());
        drop(sender);
    }
}
