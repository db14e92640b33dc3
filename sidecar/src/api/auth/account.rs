//! The administrator's account from the panel: the list of active sessions, ending one or
//! all the others ('Wyloguj wszędzie'), changing the password (which ends every other
//! session at once), confirming who they are before exports and erasures, and a forgotten
//! password reset with a one-time code sent to the administrator's e-mail — throttled like
//! sign-in, and still asking for the app's code when the account has one.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::factors;
use super::sign_in::{
    random_token, refuse_waiting, reserve, sign_in_client, start_session, verify, LOGIN_TITLE,
};
use crate::audit::Account;
use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange};
use crate::http::client::ClientKey;
use crate::state::AppState;
use accounts::password;
use content::problem::Place;

/// A reset code is valid this long, for this many attempts.
pub const RESET_SECONDS: i64 = 15 * 60;
const RESET_ATTEMPTS: i64 = 5;
/// At most this many reset e-mails an hour.
const RESETS_PER_HOUR: i64 = 3;
const RESET_SENT: &str =
    "Jeśli to adres administratora, wysłaliśmy na niego kod. Kod jest ważny 15 minut.";
const RESET_WRONG: &str = "Kod jest nieprawidłowy albo wygasł. Poproś o nowy kod.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/sessions", web::get().to(list))
        .route("/api/auth/sessions/others", web::delete().to(end_others))
        .route("/api/auth/sessions/{id}", web::delete().to(end_one))
        .route("/api/auth/password", web::post().to(change_password))
        .route("/api/auth/reauth", web::post().to(reauth))
        .route("/api/auth/reset", web::post().to(request_reset))
        .route("/api/auth/reset/confirm", web::post().to(confirm_reset));
}

/// `GET /api/auth/sessions`: the administrator's active sessions, newest first.
async fn list(admin: Admin, state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(state.auth.sessions.list(
        &admin.email,
        &admin.session,
        state.clock.now(),
    ))
}

/// `DELETE /api/auth/sessions/{id}`: ends one session (this one too, if named).
async fn end_one(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    id: web::Path<String>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let hash = state
        .auth
        .sessions
        .find(&admin.email, &id)
        .ok_or_else(|| ApiError::not_found("Ta sesja już się zakończyła."))?;
    state.auth.sessions.end(&hash, state.clock.now());
    state
        .auth
        .store
        .run(move |db| db.delete_session(&hash))
        .await?;
    crate::http::admin::audit(&req, Account::SessionEnded, &admin.email, &id).await;
    Ok(HttpResponse::NoContent().finish())
}

/// `DELETE /api/auth/sessions/others`: 'Wyloguj wszędzie' — every session but this one ends.
async fn end_others(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let ended = super::sign_in::end_sessions(&state, &admin.email, Some(&admin.session)).await?;
    crate::http::admin::audit(
        &req,
        Account::OtherSessionsEnded,
        &admin.email,
        &ended.to_string(),
    )
    .await;
    Ok(HttpResponse::Ok().json(Ended { ended }))
}

/// How many sessions were ended.
#[derive(Debug, serde::Serialize, ts_rs::TS)]
pub struct Ended {
    pub ended: usize,
}

/// A message for the person, the same whatever happened behind it.
#[derive(Debug, serde::Serialize, ts_rs::TS)]
pub struct Notice {
    pub message: &'static str,
}

#[derive(Deserialize)]
struct PasswordChange {
    #[serde(default)]
    current: String,
    #[serde(default)]
    password: String,
}

fn weak_password(password: &str) -> Option<ApiError> {
    let chars = password.chars().count();
    if chars < password::MIN_PASSWORD_CHARS {
        return Some(ApiError::unprocessable(format!(
            "Nowe hasło musi mieć co najmniej {} znaków (najlepiej kilka słów, które zapamiętasz).",
            password::MIN_PASSWORD_CHARS
        )));
    }
    (password.len() > password::MAX_PASSWORD_BYTES)
        .then(|| ApiError::unprocessable("Nowe hasło jest zbyt długie."))
}

/// Sets `email`'s password on a hashing thread; SQLite ends every session of the account.
async fn set_password(state: &web::Data<AppState>, email: &str, new: &str) -> Result<(), ApiError> {
    let (db, who, new) = (state.auth.store.clone(), email.to_string(), new.to_string());
    state
        .auth
        .hasher
        .run(std::time::Duration::from_secs(10), move || {
            password::set_password(&db, &who, &new)
        })
        .await
        .map_err(|_| ApiError::internal(&"no hashing thread"))??;
    state
        .auth
        .sessions
        .remove_others(email, None, state.clock.now());
    Ok(())
}

/// `POST /api/auth/password {current, password}`: every other session ends; this browser
/// gets a new one.
async fn change_password(
    AdminChange(admin): AdminChange,
    client: ClientKey,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    if let Some(refusal) = weak_password(&body.password) {
        return Err(refusal);
    }
    let client = client.to_string();
    refuse_waiting(&state, &client).await?;
    reserve(&state, &admin.email, &client).await?;
    if verify(&state, &admin.email, &body.current).await?.is_none() {
        crate::http::admin::audit(&req, Account::ReauthFailed, &admin.email, "zmiana hasła").await;
        return Err(ApiError::unprocessable("Obecne hasło jest nieprawidłowe."));
    }
    set_password(&state, &admin.email, &body.password).await?;
    let who = admin.email.clone();
    state
        .auth
        .store
        .run(move |db| db.clear_login_failures(&who, &client))
        .await?;
    let account = verify(&state, &admin.email, &body.password)
        .await?
        .ok_or_else(|| ApiError::internal(&"the new password does not check"))?;
    crate::http::admin::audit(&req, Account::PasswordChanged, &admin.email, "w panelu").await;
    start_session(&state, &req, &admin.email, &account).await
}

#[derive(Deserialize)]
struct Confirmation {
    #[serde(default)]
    password: String,
    #[serde(default)]
    code: String,
}

/// `POST /api/auth/reauth {password, code?}`: confirms who is at the panel; exports,
/// erasures and second-factor changes are open for the next ten minutes of this session.
async fn reauth(
    AdminChange(admin): AdminChange,
    client: ClientKey,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Confirmation>,
) -> Result<HttpResponse, ApiError> {
    let client = client.to_string();
    refuse_waiting(&state, &client).await?;
    reserve(&state, &admin.email, &client).await?;
    // The refusal names its field as data, so the dialog puts the cursor there.
    let wrong = |message: &str, field: &str| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Potwierdź, że to Ty",
            message,
        )
        .with_problems(vec![Place {
            text: message.to_string(),
            field: Some(field.to_string()),
            ..Place::default()
        }])
    };
    let Some(account) = verify(&state, &admin.email, &body.password).await? else {
        crate::http::admin::audit(&req, Account::ReauthFailed, &admin.email, "hasło").await;
        return Err(wrong("Hasło jest nieprawidłowe.", "password"));
    };
    let (id, code) = (account.id, body.code.trim().to_string());
    let passed = state
        .auth
        .store
        .run(move |db| {
            if !db.totp(id)?.is_some_and(|t| t.confirmed) {
                return Ok::<_, crate::error::Error>(true);
            }
            Ok(factors::check_code(db, id, &code, db.now())?.is_some())
        })
        .await?;
    if !passed {
        crate::http::admin::audit(&req, Account::ReauthFailed, &admin.email, "kod").await;
        return Err(wrong(
            "Podaj też aktualny kod z aplikacji uwierzytelniającej (albo kod zapasowy).",
            "code",
        ));
    }
    let who = admin.email.clone();
    state
        .auth
        .store
        .run(move |db| db.clear_login_failures(&who, &client))
        .await?;
    state
        .auth
        .sessions
        .reauthenticated(&admin.session, state.clock.now());
    crate::http::admin::audit(&req, Account::Reauthenticated, &admin.email, "").await;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize)]
struct ResetRequest {
    #[serde(default)]
    email: String,
}

fn code_hash(code: &str) -> String {
    content::encoding::hex(&Sha256::digest(code.trim().as_bytes()))
}

/// Eight random digits.
fn reset_code() -> Result<String, ApiError> {
    let token = random_token()?;
    let number = u64::from_str_radix(&token[..15], 16).map_err(|e| ApiError::internal(&e))?;
    Ok(format!("{:08}", number % 100_000_000))
}

/// `POST /api/auth/reset {email}`: sends a one-time code to the administrator's e-mail.
/// The answer is the same whatever the address, so it tells nobody who the administrator is.
async fn request_reset(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<ResetRequest>,
) -> Result<HttpResponse, ApiError> {
    let client = sign_in_client(&state, &req).await?;
    let email = body.email.trim().to_string();
    // Counted as a failed sign-in until the reset succeeds: codes cost an attacker tries.
    reserve(&state, &email, &client).await?;
    let answer = HttpResponse::Ok().json(Notice {
        message: RESET_SENT,
    });
    if !state.auth.is_admin(&email) {
        return Ok(answer);
    }
    let who = email.clone();
    let found = state
        .auth
        .store
        .run(move |db| {
            let recent = db.audit_count(Account::ResetRequested.name(), db.now() - 3600)?;
            Ok::<_, crate::error::Error>(db.account(&who)?.filter(|_| recent < RESETS_PER_HOUR))
        })
        .await?;
    let Some((id, _)) = found else {
        return Ok(answer);
    };
    let code = reset_code()?;
    let hash = code_hash(&code);
    let live = (state.clock.now() - RESET_SECONDS, RESET_ATTEMPTS);
    let stored = state
        .auth
        .store
        .run(move |db| db.put_reset_code(id, &hash, db.now(), live))
        .await?;
    if !stored {
        // A code sent earlier still works: it is not replaced, and nothing more is sent.
        return Ok(answer);
    }
    crate::http::admin::audit(&req, Account::ResetRequested, &email, "").await;
    let subject = "Kod do zmiany hasła w panelu";
    let sent = state
        .contact
        .outbox
        .notice(&email, subject, reset_body(&code))
        .await;
    if let Err(e) = sent {
        tracing::error!(error = %e, "the reset code could not be e-mailed");
    }
    Ok(answer)
}

/// Checks a reset code of account `id` (and the app's `second` code, if it has the app),
/// using the reset code up when right or out of attempts: `Err` names what was wrong.
fn check_reset(
    db: &accounts::Store,
    id: i64,
    code: &str,
    second: &str,
) -> Result<Result<(), &'static str>, crate::error::Error> {
    let Some((hash, attempts)) = db.attempt_reset_code(id, db.now() - RESET_SECONDS)? else {
        return Ok(Err("kod"));
    };
    let right = crate::config::secrets::same_secret(hash.as_bytes(), code_hash(code).as_bytes());
    if attempts > RESET_ATTEMPTS || !right {
        if attempts >= RESET_ATTEMPTS {
            db.delete_reset_code(id)?;
        }
        return Ok(Err("kod"));
    }
    let has_app = db.totp(id)?.is_some_and(|t| t.confirmed);
    if has_app && factors::check_code(db, id, second, db.now())?.is_none() {
        return Ok(Err("kod z aplikacji"));
    }
    db.delete_reset_code(id)?;
    Ok(Ok(()))
}

fn reset_body(code: &str) -> String {
    format!(
        "Ktoś (prawdopodobnie Ty) poprosił o zmianę hasła do panelu administracyjnego strony.\n\n\
         Kod: {code}\n\n\
         Kod jest ważny 15 minut i można go użyć raz. Jeśli to nie Ty, zignoruj tę wiadomość: \
         hasło się nie zmieni, a próba jest zapisana w dzienniku zdarzeń panelu."
    )
}

#[derive(Deserialize)]
struct ResetConfirm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    password: String,
    /// The app's code (or a recovery code), when the account has the app.
    #[serde(default, rename = "secondCode")]
    second_code: String,
}

/// `POST /api/auth/reset/confirm`: a right code (and the app's code, if the account has
/// one) sets the new password; every session ends.
async fn confirm_reset(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<ResetConfirm>,
) -> Result<HttpResponse, ApiError> {
    let client = sign_in_client(&state, &req).await?;
    if let Some(refusal) = weak_password(&body.password) {
        return Err(refusal);
    }
    let email = body.email.trim().to_string();
    reserve(&state, &email, &client).await?;
    let wrong = || ApiError::new(StatusCode::UNAUTHORIZED, LOGIN_TITLE, RESET_WRONG);
    if !state.auth.is_admin(&email) {
        return Err(wrong());
    }
    let who = email.clone();
    let Some((id, _)) = state.auth.store.run(move |db| db.account(&who)).await? else {
        return Err(wrong());
    };
    let reserved = factors::reserve_code(&state, id).await?;
    let (code, second) = (body.code.clone(), body.second_code.trim().to_string());
    let checked = state
        .auth
        .store
        .run(move |db| check_reset(db, id, &code, &second))
        .await?;
    if let Err(what) = checked {
        crate::http::admin::audit(&req, Account::ResetFailed, &email, what).await;
        let kind = match what {
            "kod z aplikacji" => "kod z aplikacji",
            _ => "kod do zmiany hasła",
        };
        factors::wrong_code(&state, &req, (reserved, &email), kind).await?;
        return Err(match what {
            "kod z aplikacji" => ApiError::new(
                StatusCode::UNAUTHORIZED,
                LOGIN_TITLE,
                "Podaj też aktualny kod z aplikacji uwierzytelniającej (albo kod zapasowy).",
            ),
            _ => wrong(),
        });
    }
    factors::code_was_right(&state, reserved).await?;
    set_password(&state, &email, &body.password).await?;
    let who = email.clone();
    state
        .auth
        .store
        .run(move |db| db.clear_login_failures(&who, &client))
        .await?;
    crate::http::admin::audit(&req, Account::PasswordReset, &email, "kod z e-maila").await;
    Ok(HttpResponse::NoContent().finish())
}
