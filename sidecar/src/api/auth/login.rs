//! Signing in with the password (then, with an authenticator app, its code: `factors`),
//! asking who is signed in, signing out, and ending the sessions another process deleted.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::audit::Account;
use accounts::{password, sessions};

use super::factors;
use super::sign_in::{
    bad_login, reserve, sign_in_client, start_session, verify, SignedIn, LOGIN_TITLE,
    MAX_EMAIL_CHARS,
};
use crate::db::Repository;
use crate::error::{ApiError, Error};
use crate::http::admin::{
    cross_origin, from_panel, https, session_cookie, session_token, Admin, FORBIDDEN,
    FORBIDDEN_TITLE,
};
use crate::state::AppState;

#[derive(Deserialize)]
pub struct Login {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

fn check_lengths(email: &str, password: &str) -> Result<(), ApiError> {
    if email.is_empty() || password.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            LOGIN_TITLE,
            "Podaj e-mail i hasło.",
        ));
    }
    if email.chars().count() > MAX_EMAIL_CHARS {
        let message = format!("Adres e-mail może mieć najwyżej {MAX_EMAIL_CHARS} znaki.");
        return Err(ApiError::new(StatusCode::BAD_REQUEST, LOGIN_TITLE, message));
    }
    if password.len() > password::MAX_PASSWORD_BYTES {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            LOGIN_TITLE,
            "Hasło jest zbyt długie.",
        ));
    }
    Ok(())
}

/// The largest sign-in body: an e-mail, a password and the JSON around them.
const MAX_LOGIN_BYTES: usize = 8 * 1024;

/// The sign-in's JSON, read only after the client was found not to be waiting.
async fn read_login(req: &HttpRequest, payload: web::Payload) -> Result<Login, ApiError> {
    use actix_web::error::JsonPayloadError;
    if crate::http::body::media_type(req) != "application/json" {
        return Err(crate::http::body::json_error(JsonPayloadError::ContentType));
    }
    let body =
        crate::http::body::read_limited(req, payload, MAX_LOGIN_BYTES, crate::error::TOO_LARGE)
            .await?;
    serde_json::from_slice(&body)
        .map_err(|e| crate::http::body::json_error(JsonPayloadError::Deserialize(e)))
}

pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let client = sign_in_client(&state, &req).await?;
    let body = read_login(&req, payload).await?;
    let email = body.email.trim().to_string();
    check_lengths(&email, &body.password)?;
    reserve(&state, &email, &client).await?;
    let Some(account) = verify(&state, &email, &body.password).await? else {
        crate::http::admin::audit(&req, Account::SignInFailed, &email, "hasło").await;
        return Err(bad_login());
    };
    let who = email.clone();
    state
        .auth
        .store
        .run(move |db| db.clear_login_failures(&who, &client))
        .await?;
    if !state.auth.is_admin(&email) {
        // Signed in, but not the administrator: no session is made.
        crate::http::admin::audit(&req, Account::SignInRefused, &email, "").await;
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            FORBIDDEN_TITLE,
            FORBIDDEN,
        ));
    }
    let id = account.id;
    let second_factor = state
        .auth
        .store
        .run(move |db| db.totp(id))
        .await?
        .is_some_and(|t| t.confirmed);
    if second_factor {
        return factors::ask_for_code(&state, &req, &email, &account).await;
    }
    let response = start_session(&state, &req, &email, &account).await?;
    crate::http::admin::audit(&req, Account::SignIn, &email, "hasło").await;
    Ok(response)
}

/// The signed-in administrator, or `null`: not being signed in is an answer, not an error.
pub async fn session(admin: Option<Admin>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(SignedIn {
            email: admin.map(|a| a.email),
        })
}

pub async fn logout(
    req: HttpRequest,
    admin: Option<Admin>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if !from_panel(&state.origins.admin, &req) {
        return Err(cross_origin());
    }
    if let Some(token) = session_token(
        &req,
        https(state.origins.admin_https(), &state.clients, &req),
    ) {
        let hash = sessions::token_hash(&token);
        state.auth.sessions.remove(&hash);
        state
            .auth
            .store
            .run(move |db| db.delete_session(&hash))
            .await?;
    }
    if let Some(admin) = admin {
        crate::http::admin::audit(&req, Account::SignOut, &admin.email, "").await;
    }
    let mut response = HttpResponse::NoContent();
    for secure in [true, false] {
        response.cookie(session_cookie(
            secure,
            String::new(),
            Some(actix_web::cookie::time::Duration::ZERO),
        ));
    }
    Ok(response.finish())
}

/// Ends, within [`sessions::SYNC_EVERY`], the sessions another process deleted from SQLite
/// (`sidecar set-password`, `delete-account`). Requests never wait for this: it runs beside
/// them, and looks at the stored sessions only when SQLite says another process wrote.
pub fn spawn_session_sync(state: web::Data<AppState>) {
    crate::tasks::spawn(async move {
        let mut every = tokio::time::interval(sessions::SYNC_EVERY);
        let mut seen = None;
        loop {
            every.tick().await;
            let s = state.clone();
            let synced = state
                .auth
                .store
                .blocking(move |store| {
                    let version = store.data_version()?;
                    if seen != Some(version) {
                        let ended = s.auth.sessions.sync(store, s.clock.now())?;
                        if ended > 0 {
                            tracing::info!(ended, "sessions ended by another process");
                        }
                    }
                    Ok::<_, Error>(version)
                })
                .await;
            match synced {
                Ok(Ok(version)) => seen = Some(version),
                Ok(Err(e)) => tracing::warn!(error = %e, "sessions"),
                Err(e) => tracing::warn!(error = %e, "sessions"),
            }
        }
    });
}
