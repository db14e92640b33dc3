//! Request bodies read by hand, for the routes that take more than JSON: refused with 413
//! before anything is read when the announced length is too large, and as soon as the bytes
//! read pass the limit otherwise.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest};
use futures_util::StreamExt;

use crate::error::ApiError;

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
        let chunk = chunk
            .map_err(|_| ApiError::bad_request("Nie udało się odczytać przesłanych danych."))?;
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
