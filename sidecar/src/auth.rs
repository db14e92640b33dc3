//! The administrator's account and sessions (SPEC §5, §6): argon2id password hashes, random
//! session tokens kept server-side as hashes with an idle expiry, throttled sign-in, and an
//! Origin check on every state-changing request.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::db::Db;
use crate::error::Error;
use crate::outbox::now;
use crate::AppState;

pub const COOKIE: &str = "harmonia_session";
pub const THROTTLE_WINDOW_SECONDS: i64 = 15 * 60;
pub const MAX_FAILURES_PER_CLIENT: i64 = 10;
pub const MAX_FAILURES_PER_ACCOUNT: i64 = 5;

const BAD_LOGIN: &str = "Nieprawidłowy email lub hasło.";
const THROTTLED: &str = "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 15 minut.";
const FORBIDDEN_TITLE: &str = "Brak dostępu";
const FORBIDDEN: &str = "Nie masz uprawnień do wyświetlenia tej strony.";
const CROSS_ORIGIN: &str = "Żądanie z innej witryny zostało odrzucone.";
const SIGNED_OUT: &str = "Sesja wygasła. Zaloguj się ponownie.";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_password(password: &str) -> Result<String, Error> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| Error::Auth(format!("cannot hash the password: {e}")))
}

fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A strong password for a first start without `ADMIN_PASSWORD`: 20 characters from a set
/// without look-alikes.
pub fn generate_password() -> Result<String, Error> {
    const SET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0_u8; 20];
    getrandom::fill(&mut bytes).map_err(|e| Error::Auth(format!("no randomness: {e}")))?;
    Ok(bytes
        .iter()
        .map(|b| char::from(SET[usize::from(*b) % SET.len()]))
        .collect())
}

/// Creates the account or gives it a new password.
pub fn set_password(db: &Db, email: &str, password: &str) -> Result<(), Error> {
    if password.chars().count() < 12 {
        return Err(Error::Auth(
            "the password must have at least 12 characters".into(),
        ));
    }
    let hash = hash_password(password)?;
    let now = now();
    db.with(|c| {
        c.execute(
            "INSERT INTO accounts (email, password_hash, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at",
            params![email.trim(), hash, now],
        )?;
        // A new password signs out every session of that account.
        c.execute(
            "DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = ?1)",
            [email.trim()],
        )
        .map(|_| ())
    })
}

/// Makes sure the admin account exists: with `ADMIN_PASSWORD` if given, else a generated
/// password returned once so that it can be printed.
pub fn ensure_admin(db: &Db, email: &str, password: Option<&str>) -> Result<Option<String>, Error> {
    if let Some(password) = password {
        set_password(db, email, password)?;
        return Ok(None);
    }
    let exists: bool = db.with(|c| {
        c.query_row(
            "SELECT COUNT(*) FROM accounts WHERE email = ?1",
            [email],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
    })?;
    if exists {
        return Ok(None);
    }
    let generated = generate_password()?;
    set_password(db, email, &generated)?;
    Ok(Some(generated))
}

fn client_ip(req: &HttpRequest) -> String {
    req.peer_addr()
        .map_or_else(|| "unknown".to_string(), |a| a.ip().to_string())
}

fn throttled(db: &Db, ip: &str, email: &str, now: i64) -> Result<bool, Error> {
    let since = now - THROTTLE_WINDOW_SECONDS;
    db.with(|c| {
        let by_ip: i64 = c.query_row(
            "SELECT COUNT(*) FROM login_failures WHERE ip = ?1 AND at > ?2",
            params![ip, since],
            |r| r.get(0),
        )?;
        let by_email: i64 = c.query_row(
            "SELECT COUNT(*) FROM login_failures WHERE email = ?1 AND at > ?2",
            params![email, since],
            |r| r.get(0),
        )?;
        Ok(by_ip >= MAX_FAILURES_PER_CLIENT || by_email >= MAX_FAILURES_PER_ACCOUNT)
    })
}

/// Checks a password; an unknown e-mail costs the same work as a wrong password.
fn check_credentials(db: &Db, email: &str, password: &str) -> Result<Option<i64>, Error> {
    let found: Option<(i64, String)> = db.with(|c| {
        c.query_row(
            "SELECT id, password_hash FROM accounts WHERE email = ?1",
            [email],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
    })?;
    match found {
        Some((id, hash)) => Ok(verify_password(password, &hash).then_some(id)),
        None => {
            static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
            let dummy = DUMMY
                .get_or_init(|| hash_password("dummy password for timing").unwrap_or_default());
            let _ = verify_password(password, dummy);
            Ok(None)
        }
    }
}

fn create_session(db: &Db, account_id: i64, now: i64) -> Result<String, Error> {
    let mut raw = [0_u8; 32];
    getrandom::fill(&mut raw).map_err(|e| Error::Auth(format!("no randomness: {e}")))?;
    let token = hex(&raw);
    let token_hash = hex(&Sha256::digest(token.as_bytes()));
    db.with(|c| {
        c.execute(
            "INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at) VALUES (?1, ?2, ?3, ?3)",
            params![token_hash, account_id, now],
        )
        .map(|_| ())
    })?;
    Ok(token)
}

/// The e-mail of a live session, touching it; expired sessions are deleted.
pub fn session_email(
    db: &Db,
    token: &str,
    idle_seconds: i64,
    now: i64,
) -> Result<Option<String>, Error> {
    let token_hash = hex(&Sha256::digest(token.as_bytes()));
    db.with(|c| {
        c.execute("DELETE FROM sessions WHERE last_seen_at < ?1", [now - idle_seconds])?;
        let email: Option<String> = c
            .query_row(
                "SELECT a.email FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?1",
                [&token_hash],
                |r| r.get(0),
            )
            .optional()?;
        if email.is_some() {
            c.execute("UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1", params![token_hash, now])?;
        }
        Ok(email)
    })
}

/// Whether a state-changing request comes from this site (browsers send Origin on them).
pub fn same_origin(req: &HttpRequest) -> bool {
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
    else {
        return true;
    };
    let info = req.connection_info();
    origin == format!("{}://{}", info.scheme(), info.host())
}

fn session_cookie(
    req: &HttpRequest,
    value: String,
    max_age: Option<actix_web::cookie::time::Duration>,
) -> Cookie<'static> {
    let mut cookie = Cookie::build(COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(req.connection_info().scheme() == "https")
        .finish();
    if let Some(age) = max_age {
        cookie.set_max_age(age);
    }
    cookie
}

fn error(status: actix_web::http::StatusCode, title: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({ "title": title, "error": message }))
}

pub fn cross_origin() -> HttpResponse {
    error(
        actix_web::http::StatusCode::FORBIDDEN,
        FORBIDDEN_TITLE,
        CROSS_ORIGIN,
    )
}

fn server_error(e: &impl std::fmt::Display) -> HttpResponse {
    tracing::error!(error = %e, "auth");
    error(
        actix_web::http::StatusCode::INTERNAL_SERVER_ERROR,
        "Błąd",
        "Wystąpił błąd serwera. Spróbuj ponownie.",
    )
}

#[derive(Deserialize)]
pub struct Login {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

/// What a sign-in attempt came to.
enum Attempt {
    Throttled,
    Failed,
    OtherAccount,
    Admin(String),
}

fn attempt(state: &AppState, ip: &str, login: &Login) -> Result<Attempt, Error> {
    let db = &state.db;
    let email = login.email.trim();
    let now = now();
    if throttled(db, ip, email, now)? {
        return Ok(Attempt::Throttled);
    }
    let Some(account) = check_credentials(db, email, &login.password)? else {
        db.with(|c| {
            c.execute(
                "INSERT INTO login_failures (ip, email, at) VALUES (?1, ?2, ?3)",
                params![ip, email, now],
            )
            .map(|_| ())
        })?;
        return Ok(Attempt::Failed);
    };
    db.with(|c| {
        c.execute(
            "DELETE FROM login_failures WHERE ip = ?1 OR email = ?2",
            params![ip, email],
        )
        .map(|_| ())
    })?;
    if !email.eq_ignore_ascii_case(&state.admin_email) {
        // Signed in, but not the administrator: signed out at once (no session is made).
        return Ok(Attempt::OtherAccount);
    }
    create_session(db, account, now).map(Attempt::Admin)
}

pub async fn login(
    req: HttpRequest,
    body: web::Json<Login>,
    state: web::Data<AppState>,
) -> HttpResponse {
    if !same_origin(&req) {
        return cross_origin();
    }
    let ip = client_ip(&req);
    let email = body.email.trim().to_string();
    let state2 = state.clone();
    let result = web::block(move || attempt(&state2, &ip, &body)).await;
    use actix_web::http::StatusCode as S;
    match result {
        Ok(Ok(Attempt::Admin(token))) => HttpResponse::Ok()
            .cookie(session_cookie(&req, token, None))
            .json(json!({ "email": email })),
        Ok(Ok(Attempt::Throttled)) => error(S::TOO_MANY_REQUESTS, "Błąd logowania", THROTTLED),
        Ok(Ok(Attempt::Failed)) => error(S::UNAUTHORIZED, "Błąd logowania", BAD_LOGIN),
        Ok(Ok(Attempt::OtherAccount)) => error(S::FORBIDDEN, FORBIDDEN_TITLE, FORBIDDEN),
        Ok(Err(e)) => server_error(&e),
        Err(e) => server_error(&e),
    }
}

/// The administrator behind a request, or the answer to give instead.
pub async fn require_admin(
    req: &HttpRequest,
    state: &web::Data<AppState>,
) -> Result<String, HttpResponse> {
    let unauthorized = || {
        error(
            actix_web::http::StatusCode::UNAUTHORIZED,
            "Błąd",
            SIGNED_OUT,
        )
    };
    let Some(token) = req.cookie(COOKIE).map(|c| c.value().to_string()) else {
        return Err(unauthorized());
    };
    let (db, idle) = (state.db.clone(), state.session_idle_seconds);
    match web::block(move || session_email(&db, &token, idle, now())).await {
        Ok(Ok(Some(email))) if email.eq_ignore_ascii_case(&state.admin_email) => Ok(email),
        Ok(Ok(_)) => Err(unauthorized()),
        Ok(Err(e)) => Err(server_error(&e)),
        Err(e) => Err(server_error(&e)),
    }
}

/// The signed-in administrator, or `null`: not being signed in is an answer, not an error.
pub async fn session(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let email = match require_admin(&req, &state).await {
        Ok(email) => Some(email),
        Err(response) if response.status() == actix_web::http::StatusCode::UNAUTHORIZED => None,
        Err(response) => return response,
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(json!({ "email": email }))
}

pub async fn logout(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !same_origin(&req) {
        return cross_origin();
    }
    if let Some(token) = req.cookie(COOKIE).map(|c| c.value().to_string()) {
        let token_hash = hex(&Sha256::digest(token.as_bytes()));
        let db = state.db.clone();
        let deleted = web::block(move || {
            db.with(|c| {
                c.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])
                    .map(|_| ())
            })
        })
        .await;
        if let Ok(Err(e)) = deleted {
            return server_error(&e);
        }
    }
    HttpResponse::NoContent()
        .cookie(session_cookie(
            &req,
            String::new(),
            Some(actix_web::cookie::time::Duration::ZERO),
        ))
        .finish()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/login", web::post().to(login))
        .route("/api/auth/session", web::get().to(session))
        .route("/api/auth/logout", web::post().to(logout));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hashed_with_argon2id_and_verified() {
        let hash = hash_password("długie hasło do panelu").expect("test setup");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("długie hasło do panelu", &hash));
        assert!(!verify_password("inne hasło do panelu", &hash));
    }

    #[test]
    fn generated_passwords_are_long_and_different() {
        let a = generate_password().expect("test setup");
        assert_eq!(a.chars().count(), 20);
        assert_ne!(a, generate_password().expect("test setup"));
    }

    #[test]
    fn sessions_expire_when_idle_and_are_stored_only_as_hashes() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Db::open(&dir.path().join("db")).expect("test setup");
        set_password(&db, "magda@example.pl", "bardzo-dlugie-haslo").expect("test setup");
        let id = check_credentials(&db, "magda@example.pl", "bardzo-dlugie-haslo")
            .expect("test setup")
            .expect("test setup");
        let token = create_session(&db, id, 1000).expect("test setup");
        let stored: String = db
            .with(|c| c.query_row("SELECT token_hash FROM sessions", [], |r| r.get(0)))
            .expect("test setup");
        assert_ne!(stored, token);
        assert_eq!(
            session_email(&db, &token, 600, 1500)
                .expect("test setup")
                .as_deref(),
            Some("magda@example.pl")
        );
        assert_eq!(
            session_email(&db, &token, 600, 2000)
                .expect("test setup")
                .as_deref(),
            Some("magda@example.pl"),
            "touched at 1500"
        );
        assert_eq!(
            session_email(&db, &token, 600, 2601).expect("test setup"),
            None,
            "idle for longer than 600 s"
        );
    }

    #[test]
    fn a_short_password_is_refused() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Db::open(&dir.path().join("db")).expect("test setup");
        assert!(set_password(&db, "a@b.pl", "krótkie").is_err());
    }
}
