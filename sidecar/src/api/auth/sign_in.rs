//! What the steps of signing in share: the throttle's reservation before any hashing, the
//! password check on the hashing threads, the session made and its cookie, and the end of
//! the other sessions after a change of how the administrator signs in.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use std::time::Duration;
use ts_rs::TS;

use crate::audit::Account;
use accounts::{hashing, password, sessions, throttle};

use crate::db::Repository;
use crate::error::{ApiError, Error};
use crate::http::admin::{cross_origin, from_panel, https, session_cookie, Admin};
use crate::state::AppState;

/// The longest e-mail address (RFC 5321).
pub const MAX_EMAIL_CHARS: usize = 254;

/// A sign-in that waits longer than this for a free hashing slot is refused.
const BUSY_WAIT: Duration = Duration::from_secs(10);

const BAD_LOGIN: &str = "Nieprawidłowy email lub hasło.";

pub(crate) const LOGIN_TITLE: &str = "Błąd logowania";

/// The cookie of a sign-in whose password was right, waiting for its second factor.
pub const PENDING_COOKIE: &str = "harmonia_pending";

/// How long the second factor may take after the password.
pub const PENDING_SECONDS: i64 = 300;

pub(crate) fn random_token() -> Result<String, Error> {
    Ok(accounts::random_token()?)
}

/// Records the attempt before any hashing, or refuses it with the wait.
pub(crate) async fn reserve(
    state: &web::Data<AppState>,
    email: &str,
    client: &str,
) -> Result<(), ApiError> {
    let (email, client) = (email.to_string(), client.to_string());
    let at = state.clock.now();
    let since = at - throttle::WINDOW_SECONDS;
    let reserved = state
        .auth
        .store
        .run(move |db| {
            db.reserve_login(&email, &client, at, since, |counts| {
                throttle::decide(counts, at)
            })
        })
        .await?;
    reserved.map(|_| ()).map_err(throttled)
}

/// The account behind the password, checked on one of the two hashing threads.
pub(crate) async fn verify(
    state: &web::Data<AppState>,
    email: &str,
    password: &str,
) -> Result<Option<password::Verified>, ApiError> {
    let (db, email, password) = (
        state.auth.store.clone(),
        email.to_string(),
        password.to_string(),
    );
    let checked = state
        .auth
        .hasher
        .run(BUSY_WAIT, move || {
            password::check_credentials(&db, &email, &password)
        })
        .await;
    match checked {
        Ok(account) => Ok(account?),
        Err(hashing::Wait::Busy) => Err(ApiError::too_many(
            LOGIN_TITLE,
            "Serwer jest teraz zajęty. Spróbuj ponownie za chwilę.",
            10,
        )),
        Err(hashing::Wait::Failed(e)) => Err(ApiError::from(e)),
    }
}

/// Refuses a client that must wait, whatever account it would name: known from the address
/// alone, so its body is never read.
pub(crate) async fn refuse_waiting(
    state: &web::Data<AppState>,
    client: &str,
) -> Result<(), ApiError> {
    let who = client.to_string();
    let at = state.clock.now();
    let counts = state
        .auth
        .store
        .run(move |db| db.client_failures(&who, at - throttle::WINDOW_SECONDS))
        .await?;
    match throttle::decide_client(&counts, at) {
        Some(wait) => Err(throttled(wait)),
        None => Ok(()),
    }
}

fn throttled(wait: i64) -> ApiError {
    let message = format!("Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za {wait} s.");
    ApiError::too_many(LOGIN_TITLE, message, u64::try_from(wait).unwrap_or(60))
}

/// After a change of how the administrator signs in (the app turned on or off, new recovery
/// codes, a passkey added or removed): written to the audit log, and every other session ends
/// — a browser that signed in the old way is asked to sign in again.
pub(crate) async fn sign_in_changed(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    admin: &Admin,
    event: Account,
    detail: &str,
) -> Result<(), ApiError> {
    crate::http::admin::audit(req, event, &admin.email, detail).await;
    end_sessions(state, &admin.email, Some(&admin.session)).await?;
    Ok(())
}

/// The client of a sign-in step (a password, a code, a passkey, a reset): refused when the
/// browser says the request comes from elsewhere, or when the client must wait after failures.
pub(crate) async fn sign_in_client(
    state: &web::Data<AppState>,
    req: &HttpRequest,
) -> Result<String, ApiError> {
    if !from_panel(&state.origins.admin, req) {
        return Err(cross_origin());
    }
    let client = state.clients.key(req).to_string();
    refuse_waiting(state, &client).await?;
    Ok(client)
}

pub(crate) fn bad_login() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, LOGIN_TITLE, BAD_LOGIN)
}

/// The browser's own name for itself, shortened: how the administrator tells sessions apart.
fn user_agent(req: &HttpRequest) -> String {
    req.headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}

/// Makes a session for `account` (checked just now) and answers with its cookie.
pub(crate) async fn start_session(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    email: &str,
    account: &password::Verified,
) -> Result<HttpResponse, ApiError> {
    let token = random_token()?;
    let at = state.clock.now();
    let row = accounts::store::SessionRow {
        token_hash: sessions::token_hash(&token),
        email: email.to_string(),
        created_at: at,
        last_seen_at: at,
        client: state.clients.key(req).to_string(),
        agent: user_agent(req),
    };
    let (made, account) = (state.clone(), account.clone());
    let created = state
        .auth
        .store
        .run(move |store| made.auth.sessions.create(store, &row, &account))
        .await?;
    if !created {
        // The password changed (or the account went) while it was being checked.
        return Err(bad_login());
    }
    let mut response = HttpResponse::Ok();
    response
        .cookie(session_cookie(
            https(state.origins.admin_https(), &state.clients, req),
            token,
            None,
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"));
    Ok(response.json(SignedIn {
        email: Some(email.to_string()),
    }))
}

/// Who is signed in: the administrator's e-mail, or `null` when no one is.
#[derive(Debug, Serialize, TS)]
pub struct SignedIn {
    pub email: Option<String>,
}

/// Ends the sessions of `email` but `keep`, in SQLite and in memory; how many.
pub(crate) async fn end_sessions(
    state: &web::Data<AppState>,
    email: &str,
    keep: Option<&str>,
) -> Result<usize, ApiError> {
    let (who, kept) = (email.to_string(), keep.map(str::to_string));
    let stored = state
        .auth
        .store
        .run(move |db| db.delete_sessions_except(&who, kept.as_deref()))
        .await?;
    let live = state
        .auth
        .sessions
        .remove_others(email, keep, state.clock.now());
    Ok(stored.max(live))
}
