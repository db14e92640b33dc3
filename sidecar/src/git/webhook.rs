//! `POST /api/git/push` on the public listener: a forge says the branch moved. Verified the
//! way forges sign (GitHub, Gitea and Forgejo: `X-Hub-Signature-256`, an HMAC-SHA256 of the
//! body with `GIT_WEBHOOK_SECRET`; GitLab: `X-Gitlab-Token`, the secret itself), refused
//! cheaply otherwise; a delivery seen before is not acted on again, and however many arrive
//! at once, they make one fetch at a time ([`super::GitSync::fetch_soon`]).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use hmac::{Hmac, Mac};
use serde_json::json;
use sha2::Sha256;

use crate::error::ApiError;
use crate::AppState;

/// Far above a push event's body (GitHub's are a few kilobytes a commit); more is refused
/// before it is read.
pub const MAX_BODY: usize = 256 * 1024;
const TOO_LARGE: &str = "Zbyt duże powiadomienie.";
const NOT_VERIFIED: &str = "Podpis powiadomienia jest nieprawidłowy.";
/// The headers that carry a delivery's id, by forge.
const DELIVERY_HEADERS: [&str; 5] = [
    "X-GitHub-Delivery",
    "X-Gitea-Delivery",
    "X-Forgejo-Delivery",
    "X-Gitlab-Event-UUID",
    "X-Gitlab-Webhook-UUID",
];

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/git/push", web::post().to(push));
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Compares in time that does not depend on where the texts differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `signature` (`sha256=HEX`) is the HMAC-SHA256 of `body` with `secret`.
pub fn signed(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Some(hex) = signature.strip_prefix("sha256=") else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    same(expected.as_bytes(), hex.to_ascii_lowercase().as_bytes())
}

async fn push(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let refuse = |message: &str| ApiError::status(StatusCode::FORBIDDEN, message);
    let Some(git) = state.git.clone() else {
        return Err(ApiError::not_found(
            "Repozytorium nie jest skonfigurowane (GIT_REMOTE).",
        ));
    };
    let Some(secret) = git.remote.webhook_secret.clone() else {
        return Err(refuse(
            "Powiadomienia są wyłączone: brak GIT_WEBHOOK_SECRET.",
        ));
    };
    let signature = header(&req, "X-Hub-Signature-256").map(str::to_string);
    let token = req.headers().get("X-Gitlab-Token").map(|v| v.as_bytes());
    // Neither header: refused before a byte of the body is read.
    match (&signature, token) {
        (None, None) => return Err(refuse(NOT_VERIFIED)),
        (None, Some(token)) if !same(token, secret.as_bytes()) => return Err(refuse(NOT_VERIFIED)),
        _ => {}
    }
    let body = crate::body::read_limited(&req, payload, MAX_BODY, TOO_LARGE).await?;
    if let Some(signature) = &signature {
        if !signed(secret.as_bytes(), &body, signature) {
            return Err(refuse(NOT_VERIFIED));
        }
    }
    let delivery = DELIVERY_HEADERS.iter().find_map(|h| header(&req, h));
    if let Some(id) = delivery {
        if !git.first_delivery(id) {
            return Ok(HttpResponse::Ok().json(json!({ "replay": true })));
        }
    }
    git.fetch_soon();
    Ok(HttpResponse::Accepted().json(json!({ "fetch": true })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_signatures_are_checked_against_the_body() {
        // GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
        let signature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assert!(signed(
            b"It's a Secret to Everybody",
            b"Hello, World!",
            signature
        ));
        assert!(!signed(
            b"It's a Secret to Everybody",
            b"Hello, World?",
            signature
        ));
        assert!(!signed(b"another secret", b"Hello, World!", signature));
        assert!(!signed(
            b"It's a Secret to Everybody",
            b"Hello, World!",
            "sha1=757107"
        ));
    }
}
