//! Who is behind a request to the panel: the signed-in administrator as extractors
//! ([`Admin`], [`AdminChange`], [`Reauthenticated`]), checked without I/O before a body is
//! read; whether the browser says the request comes from the panel itself; the cookies of a
//! session and of a sign-in's steps; and the audit log of what the administrator does.
//! Handlers that need the administrator take the extractor, and those that change something
//! take [`AdminChange`]; both refuse a request that a browser says comes from elsewhere than
//! the panel's own origin (another site, or the public site beside it).

use accounts::audit::Event;
use accounts::{sessions, Accounts};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest};
use std::future::{ready, Ready};

use crate::db::Repository;
use crate::error::{ApiError, ErrorCode};
use crate::http::client::Clients;

/// The session cookie over plain HTTP; over HTTPS it carries the `__Host-` prefix, which
/// browsers accept only from a secure origin, for the whole host and without a domain, so
/// no other host (the public site's) can set it — over HTTPS only that one is read.
pub const COOKIE: &str = "harmonia_session";
pub const SECURE_COOKIE: &str = "__Host-harmonia_session";

/// How long a confirmation of who the administrator is opens exports and erasures.
pub const REAUTH_SECONDS: i64 = 600;
pub const FORBIDDEN_TITLE: &str = "Brak dostępu";
pub const FORBIDDEN: &str = "Nie masz uprawnień do wyświetlenia tej strony.";
const CROSS_ORIGIN: &str = "Żądanie z innej witryny zostało odrzucone.";
const SIGNED_OUT: &str = "Sesja wygasła. Zaloguj się ponownie.";
const ENDED_ELSEWHERE: &str = "Wylogowano na innym urządzeniu. Zaloguj się ponownie.";
const PASSWORD_CHANGED: &str = "Hasło do panelu zostało zmienione przy ponownym uruchomieniu serwera (przez osobę, która się nim opiekuje). Zaloguj się nowym hasłem.";
/// The header the panel sends with a request it makes by itself (a refresh, a poll): checked
/// like any other, but not counted as the administrator's use of the session.
pub const BACKGROUND_HEADER: &str = "x-panel-background";

pub fn cross_origin() -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, FORBIDDEN_TITLE, CROSS_ORIGIN)
}

fn unauthorized() -> ApiError {
    ApiError::status(StatusCode::UNAUTHORIZED, SIGNED_OUT).with_code(ErrorCode::SignedOut)
}

fn ended_elsewhere() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "Wylogowano", ENDED_ELSEWHERE)
        .with_code(ErrorCode::SignedOutElsewhere)
}

fn password_changed() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "Zmieniono hasło",
        PASSWORD_CHANGED,
    )
    .with_code(ErrorCode::PasswordChanged)
}

/// Whether the request is the administrator's own action or one the panel made by itself.
fn use_of(req: &HttpRequest) -> sessions::Use {
    match req.headers().contains_key(BACKGROUND_HEADER) {
        true => sessions::Use::Background,
        false => sessions::Use::Action,
    }
}

/// Where the panel is reached (`ADMIN_ORIGIN`), handed down by the state: the origin a
/// request that changes something must come from, and whether it is HTTPS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelOrigin {
    pub origin: String,
    pub https: bool,
}

/// What checking a session needs: the accounts, where the panel is, who the client is.
struct Gate {
    accounts: web::Data<Accounts>,
    panel: web::Data<PanelOrigin>,
    clients: web::Data<Clients>,
}

fn gate_of(req: &HttpRequest) -> Result<Gate, ApiError> {
    let missing =
        || ApiError::internal(&"the app does not share its accounts, panel origin or clients");
    Ok(Gate {
        accounts: req
            .app_data::<web::Data<Accounts>>()
            .cloned()
            .ok_or_else(missing)?,
        panel: req
            .app_data::<web::Data<PanelOrigin>>()
            .cloned()
            .ok_or_else(missing)?,
        clients: req
            .app_data::<web::Data<Clients>>()
            .cloned()
            .ok_or_else(missing)?,
    })
}

/// Whether the panel is reached over HTTPS: its origin says so (`admin_https`), or
/// `FORCE_HTTPS`, or a trusted proxy.
pub fn https(admin_https: bool, clients: &Clients, req: &HttpRequest) -> bool {
    admin_https || clients.https(req)
}

/// The session's token: over HTTPS only from the `__Host-` cookie, over HTTP only from the
/// plain one.
pub fn session_token(req: &HttpRequest, https: bool) -> Option<String> {
    req.cookie(if https { SECURE_COOKIE } else { COOKIE })
        .map(|c| c.value().to_string())
}

/// Whether a request comes from the panel itself, as far as the browser tells: its `Origin`
/// (sent with every change and every cross-origin read) is the panel's, and its
/// `Sec-Fetch-Site` is `same-origin` (or `none`, an address typed by the administrator).
/// A request that says neither (curl, a script of the administrator's) passes: it carries
/// no cookie a browser would add on its own.
pub fn from_panel(panel: &str, req: &HttpRequest) -> bool {
    let text = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let origin_ok = match text("origin") {
        Some(origin) => origin.eq_ignore_ascii_case(panel),
        None => true,
    };
    let site_ok = matches!(text("sec-fetch-site"), None | Some("same-origin" | "none"));
    origin_ok && site_ok
}

/// Writes a session's last use to SQLite in the background.
fn persist(accounts: &Accounts, check: &sessions::Check, at: i64) {
    let store = accounts.store.clone();
    let (hash, expired) = match check {
        sessions::Check::Valid {
            persist: Some(hash),
            ..
        } => (hash.clone(), false),
        sessions::Check::Expired(hash) => (hash.clone(), true),
        _ => return,
    };
    crate::tasks::spawn(async move {
        let written = store
            .blocking(move |db| match expired {
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
    let Gate {
        accounts,
        panel,
        clients,
    } = gate_of(req)?;
    if !from_panel(&panel.origin, req) {
        return Err(cross_origin());
    }
    let token = session_token(req, https(panel.https, &clients, req)).ok_or_else(unauthorized)?;
    let at = accounts.store.now();
    let check = accounts.sessions.check(&token, at, use_of(req));
    persist(&accounts, &check, at);
    match check {
        sessions::Check::Valid {
            email,
            hash,
            reauth_at,
            ..
        } if accounts.is_admin(&email) => Ok(Admin {
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
        sessions::Check::PasswordChanged => Err(password_changed()),
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

/// The administrator behind a change of content, sent from the panel, with the client it
/// came from: who and where from, as the audit log writes each change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    pub email: String,
    /// The client's rate-limit key ([`Clients::key`]), as the audit log writes it.
    pub client: String,
}

impl FromRequest for Author {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admin_of(req).and_then(|admin| {
            let Gate { clients, .. } = gate_of(req)?;
            Ok(Author {
                email: admin.email,
                client: clients.key(req).to_string(),
            })
        }))
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
            let now = gate_of(req)?.accounts.store.now();
            if now - admin.reauth_at <= REAUTH_SECONDS {
                Ok(Reauthenticated(admin))
            } else {
                Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Potwierdź, że to Ty",
                    "Ze względów bezpieczeństwa podaj ponownie hasło (i kod z aplikacji, jeśli go używasz), zanim to zrobisz.",
                )
                .with_code(ErrorCode::Reauth))
            }
        }))
    }
}

/// A cookie of one step of signing in (a waiting sign-in, a passkey ceremony): private to
/// the panel's `path`, strict, and gone after `age`.
pub fn step_cookie(
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

pub fn session_cookie(
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

/// Writes an entry of the audit log before the request is answered: `actor` is who (an
/// e-mail, as given), `detail` what to (a message's number, an address), never what a
/// message says. A failure to write is logged and does not fail the request it describes.
pub async fn audit(req: &HttpRequest, event: impl Into<Event>, actor: &str, detail: &str) {
    let event = event.into();
    let Ok(Gate {
        accounts, clients, ..
    }) = gate_of(req)
    else {
        tracing::error!(
            event = event.name(),
            "audit log: the app shares no accounts"
        );
        return;
    };
    let client = clients.key(req).to_string();
    let (actor, detail) = (actor.to_string(), detail.to_string());
    let written = accounts
        .store
        .blocking(move |store| accounts::audit::record(store, event, &actor, &client, &detail))
        .await;
    if let Err(e) = written {
        tracing::error!(error = %e, event = event.name(), "audit log");
    }
}
