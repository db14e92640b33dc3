//! The administrator's sign-in and sessions (SPEC §5, §6). Passwords are argon2id hashes,
//! checked at most a few at a time; attempts are throttled per account and client before any
//! hashing starts; sessions are random tokens whose hashes are kept. Handlers that need the
//! administrator take the [`Admin`] extractor, and those that change something take
//! [`AdminChange`]. Both refuse a request that a browser says comes from elsewhere than the
//! panel's own origin (`ADMIN_ORIGIN`): another site, or the public site beside it.

pub mod account;
pub mod factors;
pub mod passkeys;

pub use accounts::{hashing, password, sessions, throttle, totp};

use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde::Serialize;
use std::future::{ready, Ready};
use std::time::Duration;
use ts_rs::TS;

use crate::audit::{self, Event};
use crate::error::{ApiError, Error};
use crate::{now, AppState};

/// The session cookie over plain HTTP; over HTTPS it carries the `__Host-` prefix, which
/// browsers accept only from a secure origin, for the whole host and without a domain, so
/// no other host (the public site's) can set it — over HTTPS only that one is read.
pub const COOKIE: &str = "harmonia_session";
pub const SECURE_COOKIE: &str = "__Host-harmonia_session";
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
/// How long a confirmation of who the administrator is opens exports and erasures.
pub const REAUTH_SECONDS: i64 = 600;
const FORBIDDEN_TITLE: &str = "Brak dostępu";
const FORBIDDEN: &str = "Nie masz uprawnień do wyświetlenia tej strony.";
const CROSS_ORIGIN: &str = "Żądanie z innej witryny zostało odrzucone.";
const SIGNED_OUT: &str = "Sesja wygasła. Zaloguj się ponownie.";
const ENDED_ELSEWHERE: &str = "Wylogowano na innym urządzeniu. Zaloguj się ponownie.";
/// The header the panel sends with a request it makes by itself (a refresh, a poll): checked
/// like any other, but not counted as the administrator's use of the session.
pub const BACKGROUND_HEADER: &str = "x-panel-background";

pub fn cross_origin() -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, FORBIDDEN_TITLE, CROSS_ORIGIN)
}

fn unauthorized() -> ApiError {
    ApiError::status(StatusCode::UNAUTHORIZED, SIGNED_OUT).with_code("signed_out")
}

fn ended_elsewhere() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "Wylogowano", ENDED_ELSEWHERE)
        .with_code("signed_out_elsewhere")
}

/// Whether the request is the administrator's own action or one the panel made by itself.
fn use_of(req: &HttpRequest) -> sessions::Use {
    match req.headers().contains_key(BACKGROUND_HEADER) {
        true => sessions::Use::Background,
        false => sessions::Use::Action,
    }
}

pub(crate) fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal(&"the app has no state"))
}

/// Whether the panel is reached over HTTPS: its origin says so, or `FORCE_HTTPS`, or a
/// trusted proxy.
pub fn https(state: &AppState, req: &HttpRequest) -> bool {
    state.origins.admin_https() || state.clients.https(req)
}

/// The session's token: over HTTPS only from the `__Host-` cookie, over HTTP only from the
/// plain one.
pub(crate) fn session_token(req: &HttpRequest, https: bool) -> Option<String> {
    req.cookie(if https { SECURE_COOKIE } else { COOKIE })
        .map(|c| c.value().to_string())
}

/// Whether a request comes from the panel itself, as far as the browser tells: its `Origin`
/// (sent with every change and every cross-origin read) is the panel's, and its
/// `Sec-Fetch-Site` is `same-origin` (or `none`, an address typed by the administrator).
/// A request that says neither (curl, a script of the administrator's) passes: it carries
/// no cookie a browser would add on its own.
pub(crate) fn from_panel(state: &AppState, req: &HttpRequest) -> bool {
    let text = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let origin_ok = match text("origin") {
        Some(origin) => origin.eq_ignore_ascii_case(&state.origins.admin),
        None => true,
    };
    let site_ok = matches!(text("sec-fetch-site"), None | Some("same-origin" | "none"));
    origin_ok && site_ok
}

/// Writes a session's last use to SQLite in the background.
fn persist(state: &web::Data<AppState>, check: &sessions::Check, at: i64) {
    let db = state.auth.store.clone();
    let (hash, expired) = match check {
        sessions::Check::Valid {
            persist: Some(hash),
            ..
        } => (hash.clone(), false),
        sessions::Check::Expired(hash) => (hash.clone(), true),
        _ => return,
    };
    actix_web::rt::spawn(async move {
        let written = web::block(move || match expired {
            true => db.delete_session(&hash),
            false => db.touch_session(&hash, at),
        })
        .await;
        if let Ok(Err(e)) = written {
            tracing::warn!(error = %e, "session");
        }
    });
}

/// The signed-in administrator. Checking needs no I/O, so a request without a session is
/// refused before anything reads its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admin {
    pub email: String,
    /// The hash of the session's token: which of the administrator's sessions this is.
    pub session: String,
    /// When the administrator last confirmed who they are in this session (0: not yet).
    pub reauth_at: i64,
}

fn admin_of(req: &HttpRequest) -> Result<Admin, ApiError> {
    let state = state_of(req)?;
    if !from_panel(&state, req) {
        return Err(cross_origin());
    }
    let token = session_token(req, https(&state, req)).ok_or_else(unauthorized)?;
    let at = now();
    let check = state.auth.sessions.check(&token, at, use_of(req));
    persist(&state, &check, at);
    match check {
        sessions::Check::Valid {
            email,
            hash,
            reauth_at,
            ..
        } if state.auth.is_admin(&email) => Ok(Admin {
            email,
            session: hash,
            reauth_at,
        }),
        // A session of another account (the admin changed since it was made).
        sessions::Check::Valid { .. } => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            FORBIDDEN_TITLE,
            FORBIDDEN,
        )),
        sessions::Check::EndedElsewhere => Err(ended_elsewhere()),
        _ => Err(unauthorized()),
    }
}

impl FromRequest for Admin {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admin_of(req))
    }
}

/// The administrator behind a request that changes something, sent from the panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminChange(pub Admin);

impl FromRequest for AdminChange {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admin_of(req).map(AdminChange))
    }
}

/// The administrator, having confirmed who they are within the last
/// [`REAUTH_SECONDS`]: what exporting or erasing someone's messages, and changing the second
/// factor, need. Otherwise 401 with `code: "reauth"`, and the panel asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reauthenticated(pub Admin);

impl FromRequest for Reauthenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admin_of(req).and_then(|admin| {
            if now() - admin.reauth_at <= REAUTH_SECONDS {
                Ok(Reauthenticated(admin))
            } else {
                Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Potwierdź, że to Ty",
                    "Ze względów bezpieczeństwa podaj ponownie hasło (i kod z aplikacji, jeśli go używasz), zanim to zrobisz.",
                )
                .with_code("reauth"))
            }
        }))
    }
}

/// A cookie of one step of signing in (a waiting sign-in, a passkey ceremony): private to
/// the panel's `path`, strict, and gone after `age`.
pub(crate) fn step_cookie(
    name: &'static str,
    path: &'static str,
    https: bool,
    value: String,
    age: actix_web::cookie::time::Duration,
) -> Cookie<'static> {
    let mut cookie = Cookie::build(name, value)
        .path(path)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(https)
        .finish();
    cookie.set_max_age(age);
    cookie
}

pub(crate) fn session_cookie(
    https: bool,
    value: String,
    max_age: Option<actix_web::cookie::time::Duration>,
) -> Cookie<'static> {
    let name = if https { SECURE_COOKIE } else { COOKIE };
    let mut cookie = Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(https)
        .finish();
    if let Some(age) = max_age {
        cookie.set_max_age(age);
    }
    cookie
}

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

pub(crate) fn random_token() -> Result<String, Error> {
    Ok(accounts::random_token()?)
}

/// Records the attempt before any hashing, or refuses it with the wait.
pub(crate) async fn reserve(
    state: &web::Data<AppState>,
    email: &str,
    client: &str,
) -> Result<(), ApiError> {
    let (db, email, client) = (
        state.auth.store.clone(),
        email.to_string(),
        client.to_string(),
    );
    let at = now();
    let since = at - throttle::WINDOW_SECONDS;
    let reserved = web::block(move || {
        db.reserve_login(&email, &client, at, since, |counts| {
            throttle::decide(counts, at)
        })
    })
    .await??;
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

/// The largest sign-in body: an e-mail, a password and the JSON around them.
const MAX_LOGIN_BYTES: usize = 8 * 1024;

/// Refuses a client that must wait, whatever account it would name: known from the address
/// alone, so its body is never read.
pub(crate) async fn refuse_waiting(
    state: &web::Data<AppState>,
    client: &str,
) -> Result<(), ApiError> {
    let (db, who) = (state.auth.store.clone(), client.to_string());
    let at = now();
    let counts =
        web::block(move || db.client_failures(&who, at - throttle::WINDOW_SECONDS)).await??;
    match throttle::decide_client(&counts, at) {
        Some(wait) => Err(throttled(wait)),
        None => Ok(()),
    }
}

fn throttled(wait: i64) -> ApiError {
    let message = format!("Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za {wait} s.");
    ApiError::too_many(LOGIN_TITLE, message, u64::try_from(wait).unwrap_or(60))
}

/// The sign-in's JSON, read only after the client was found not to be waiting.
async fn read_login(req: &HttpRequest, payload: web::Payload) -> Result<Login, ApiError> {
    use actix_web::error::JsonPayloadError;
    if crate::body::media_type(req) != "application/json" {
        return Err(crate::error::json_error(JsonPayloadError::ContentType));
    }
    let body =
        crate::body::read_limited(req, payload, MAX_LOGIN_BYTES, crate::error::TOO_LARGE).await?;
    serde_json::from_slice(&body)
        .map_err(|e| crate::error::json_error(JsonPayloadError::Deserialize(e)))
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
        audit::record(&state, &req, Event::SignInFailed, &email, "hasło").await;
        return Err(bad_login());
    };
    let (db, who, from) = (state.auth.store.clone(), email.clone(), client);
    web::block(move || db.clear_login_failures(&who, &from)).await??;
    if !state.auth.is_admin(&email) {
        // Signed in, but not the administrator: no session is made.
        audit::record(&state, &req, Event::SignInRefused, &email, "").await;
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            FORBIDDEN_TITLE,
            FORBIDDEN,
        ));
    }
    let db = state.auth.store.clone();
    let id = account.id;
    let second_factor = web::block(move || db.totp(id))
        .await??
        .is_some_and(|t| t.confirmed);
    if second_factor {
        return factors::ask_for_code(&state, &req, &email, &account).await;
    }
    let response = start_session(&state, &req, &email, &account).await?;
    audit::record(&state, &req, Event::SignIn, &email, "hasło").await;
    Ok(response)
}

/// After a change of how the administrator signs in (the app turned on or off, new recovery
/// codes, a passkey added or removed): written to the audit log, and every other session ends
/// — a browser that signed in the old way is asked to sign in again.
pub(crate) async fn sign_in_changed(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    admin: &Admin,
    event: Event,
    detail: &str,
) -> Result<(), ApiError> {
    audit::record(state, req, event, &admin.email, detail).await;
    account::end_sessions(state, &admin.email, Some(&admin.session)).await?;
    Ok(())
}

/// The client of a sign-in step (a password, a code, a passkey, a reset): refused when the
/// browser says the request comes from elsewhere, or when the client must wait after failures.
pub(crate) async fn sign_in_client(
    state: &web::Data<AppState>,
    req: &HttpRequest,
) -> Result<String, ApiError> {
    if !from_panel(state, req) {
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
    let at = now();
    let row = accounts::store::SessionRow {
        token_hash: sessions::token_hash(&token),
        email: email.to_string(),
        created_at: at,
        last_seen_at: at,
        client: state.clients.key(req).to_string(),
        agent: user_agent(req),
    };
    let (made, account) = (state.clone(), account.clone());
    let created =
        web::block(move || made.auth.sessions.create(&made.auth.store, &row, &account)).await??;
    if !created {
        // The password changed (or the account went) while it was being checked.
        return Err(bad_login());
    }
    let mut response = HttpResponse::Ok();
    response
        .cookie(session_cookie(https(state, req), token, None))
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
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if !from_panel(&state, &req) {
        return Err(cross_origin());
    }
    let admin = admin_of(&req).ok();
    if let Some(token) = session_token(&req, https(&state, &req)) {
        let hash = sessions::token_hash(&token);
        state.auth.sessions.remove(&hash);
        let db = state.auth.store.clone();
        web::block(move || db.delete_session(&hash)).await??;
    }
    if let Some(admin) = admin {
        audit::record(&state, &req, Event::SignOut, &admin.email, "").await;
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
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(sessions::SYNC_EVERY);
        let mut seen = None;
        loop {
            every.tick().await;
            let s = state.clone();
            let synced = web::block(move || {
                let version = s.auth.store.data_version()?;
                if seen != Some(version) {
                    let ended = s.auth.sessions.sync(&s.auth.store, now())?;
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

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/login", web::post().to(login))
        .route("/api/auth/session", web::get().to(session))
        .route("/api/auth/logout", web::post().to(logout))
        .configure(factors::configure)
        .configure(passkeys::configure)
        .configure(account::configure);
}
