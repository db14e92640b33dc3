//! `POST /api/git/push` on the public listener: a forge says the branch moved. Verified the
//! way forges sign (GitHub, Gitea and Forgejo: `X-Hub-Signature-256`, an HMAC-SHA256 of the
//! body with `GIT_WEBHOOK_SECRET`; GitLab: `X-Gitlab-Token`, the secret itself), every
//! comparison in constant time, and refused cheaply otherwise. A delivery is known by what
//! the forge signed — the hash of its body — never by a header an attacker could change
//! (`X-GitHub-Delivery` is outside the signature): one seen before is not acted on again, and
//! however many arrive at once, they make one fetch at a time
//! ([`super::GitSync::fetch_soon`]). A refusal is written to the audit log at most once a
//! minute, so a flood of them costs no more than one row.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::json;
use sha2::Sha256;

use crate::audit::Git;
use crate::error::ApiError;
use crate::state::AppState;

/// Far above a push event's body (GitHub's are a few kilobytes a commit); more is refused
/// before it is read.
pub const MAX_BODY: usize = 256 * 1024;
const TOO_LARGE: &str = "Zbyt duże powiadomienie.";
const NOT_VERIFIED: &str = "Podpis powiadomienia jest nieprawidłowy.";
/// Refusals written to the audit log: the first of each minute.
const AUDIT_EVERY_SECONDS: i64 = 60;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/git/push", web::post().to(push));
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Whether `signature` (`sha256=HEX`) is the HMAC-SHA256 of `body` with `secret`, compared
/// in constant time (`verify_slice`).
pub fn signed(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Some(hex) = signature.strip_prefix("sha256=") else {
        return false;
    };
    let Some(bytes) = unhex(hex) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&bytes).is_ok()
}

fn unhex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// Writes a refused notification to the audit log, unless one was written this minute.
fn audit_refusal(state: &AppState, req: &HttpRequest, why: &str) {
    static LAST: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    let at = state.clock.now();
    let last = LAST.load(std::sync::atomic::Ordering::Relaxed);
    if at - last < AUDIT_EVERY_SECONDS
        || LAST
            .compare_exchange(
                last,
                at,
                std::sync::atomic::Ordering::Relaxed,
                std::sync::atomic::Ordering::Relaxed,
            )
            .is_err()
    {
        return;
    }
    let client = state.clients.key(req).to_string();
    state.auth.audit(Git::WebhookRefused, "", &client, why);
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
    // Neither header, or a wrong token: refused before a byte of the body is read.
    let token_ok = |t: &[u8]| crate::config::secrets::same_secret(t, secret.as_bytes());
    if match (&signature, token) {
        (None, None) => true,
        (None, Some(token)) => !token_ok(token),
        _ => false,
    } {
        audit_refusal(&state, &req, "brak podpisu albo zły token");
        return Err(refuse(NOT_VERIFIED));
    }
    let body = crate::http::body::read_limited(&req, payload, MAX_BODY, TOO_LARGE).await?;
    if let Some(signature) = &signature {
        if !signed(secret.as_bytes(), &body, signature) {
            audit_refusal(&state, &req, "zły podpis");
            return Err(refuse(NOT_VERIFIED));
        }
    }
    // The delivery is what was verified: its body (and, for a token, the token with it).
    let delivery = content::encoding::hex(&<Sha256 as sha2::Digest>::digest(&body));
    if !git.first_delivery(&delivery) {
        return Ok(HttpResponse::Ok().json(json!({ "replay": true })));
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
