//! The second factor: after a right password, an account with an authenticator app gets no
//! session but a short-lived waiting sign-in (its own cookie, [`PENDING_SECONDS`]); a code
//! of the app (each accepted once) or a recovery code (each used once) then makes the
//! session. Failed codes are throttled like passwords. Setting the app up, turning it off
//! and new recovery codes are done from the panel.

use actix_web::cookie::{time::Duration as CookieAge, Cookie};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::sign_in::{
    random_token, reserve, sign_in_client, start_session, LOGIN_TITLE, PENDING_COOKIE,
    PENDING_SECONDS,
};
use crate::audit::Account;
use crate::db::Repository;
use crate::error::{ApiError, ErrorCode};
use crate::http::admin::{https, AdminChange, Reauthenticated};
use crate::state::AppState;
use accounts::sessions::token_hash;
use accounts::{password, throttle, totp};

const BAD_CODE: &str =
    "Nieprawidłowy kod. Wpisz 6 cyfr z aplikacji uwierzytelniającej albo jeden z kodów zapasowych.";
const EXPIRED: &str = "Logowanie trwało zbyt długo. Podaj e-mail i hasło jeszcze raz.";
const TOO_MANY_CODES: &str =
    "Zbyt wiele błędnych kodów. Ze względów bezpieczeństwa podaj e-mail i hasło jeszcze raz.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/login/code", web::post().to(login_code))
        .route("/api/auth/totp", web::get().to(status))
        .route("/api/auth/totp", web::delete().to(disable))
        .route("/api/auth/totp/setup", web::post().to(setup))
        .route("/api/auth/totp/confirm", web::post().to(confirm))
        .route("/api/auth/totp/recovery-codes", web::post().to(renew_codes));
}

fn pending_cookie(https: bool, value: String, age: CookieAge) -> Cookie<'static> {
    crate::http::admin::step_cookie(PENDING_COOKIE, "/api/auth/", https, value, age)
}

/// The answer to a right password of an account with an app: no session yet.
pub(crate) async fn ask_for_code(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    email: &str,
    account: &password::Verified,
) -> Result<HttpResponse, ApiError> {
    let token = random_token()?;
    let (hash, account) = (token_hash(&token), account.clone());
    state
        .auth
        .store
        .run(move |db| db.insert_pending_login(&hash, account.id, &account.password_hash, db.now()))
        .await?;
    crate::http::admin::audit(req, Account::SecondFactorNeeded, email, "").await;
    Ok(HttpResponse::Ok()
        .cookie(pending_cookie(
            https(state.origins.admin_https(), &state.clients, req),
            token,
            CookieAge::seconds(PENDING_SECONDS),
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(SecondFactorNeeded {
            second_factor: true,
        }))
}

/// The answer to a right password when the app's code is still needed.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SecondFactorNeeded {
    pub second_factor: bool,
}

/// Whether the app is on, how many recovery codes are left, and until when (Unix seconds,
/// 0 for never) the session counts as having confirmed who it is.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TotpStatus {
    pub enabled: bool,
    pub recovery_codes_left: i64,
    pub reauth_until: i64,
}

/// Recovery codes, shown once.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodes {
    pub recovery_codes: Vec<String>,
}

#[derive(Deserialize)]
pub struct Code {
    #[serde(default)]
    code: String,
}

/// Checks `code` for the account: an app's code (its step used once) or a recovery code
/// (used up). Whether it was right, and which kind it was.
pub(crate) fn check_code(
    db: &accounts::Store,
    account_id: i64,
    code: &str,
    at: i64,
) -> Result<Option<&'static str>, crate::error::Error> {
    if code.len() > 64 {
        return Ok(None);
    }
    if totp::is_recovery_code(code) {
        let used = db.use_recovery_code(account_id, &totp::recovery_hash(code), at)?;
        return Ok(used.then_some("kod zapasowy"));
    }
    let Some(row) = db.totp(account_id)?.filter(|t| t.confirmed) else {
        return Ok(None);
    };
    match totp::check(&row.secret, code, at) {
        Some(step) if db.use_totp_step(account_id, step)? => Ok(Some("kod z aplikacji")),
        _ => Ok(None),
    }
}

/// One code attempt of an account, reserved before its code is checked (see
/// [`reserve_code`]); settle it with [`code_was_right`] or [`wrong_code`].
#[must_use = "a reserved attempt counts as a wrong code until it is settled"]
pub(crate) struct CodeAttempt {
    account_id: i64,
    reservation: i64,
}

/// Reserves one code attempt of `account_id`, refused while the account waits after wrong
/// codes from anywhere. The check of the limit and the reservation are one transaction, so a
/// burst of codes from many addresses has at most the account's free codes checked.
pub(crate) async fn reserve_code(
    state: &web::Data<AppState>,
    account_id: i64,
) -> Result<CodeAttempt, ApiError> {
    let at = state.clock.now();
    let reserved = state
        .auth
        .store
        .run(move |db| db.reserve_code(account_id, at, at - throttle::WINDOW_SECONDS))
        .await?;
    match reserved {
        Ok(reservation) => Ok(CodeAttempt {
            account_id,
            reservation,
        }),
        Err(wait) => Err(ApiError::too_many(
            LOGIN_TITLE,
            format!("Zbyt wiele błędnych kodów dla tego konta. Spróbuj ponownie za {wait} s."),
            u64::try_from(wait).unwrap_or(60),
        )),
    }
}

/// The reserved attempt's code was right: it does not count.
pub(crate) async fn code_was_right(
    state: &web::Data<AppState>,
    attempt: CodeAttempt,
) -> Result<(), ApiError> {
    let since = state.clock.now() - throttle::WINDOW_SECONDS;
    let key = (attempt.account_id, attempt.reservation);
    state
        .auth
        .store
        .run(move |db| db.settle_code(key, None, since))
        .await?;
    Ok(())
}

/// Counts the reserved attempt as a wrong code (`kind`) of its account, from wherever it came.
/// When the account's codes start to wait, the administrator is e-mailed — once a window —
/// since whoever guesses the app's codes has the password, and whoever guesses reset codes is
/// trying to take over.
pub(crate) async fn wrong_code(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    (attempt, email): (CodeAttempt, &str),
    kind: &'static str,
) -> Result<(), ApiError> {
    let since = state.clock.now() - throttle::WINDOW_SECONDS;
    let key = (attempt.account_id, attempt.reservation);
    let (failures, _) = state
        .auth
        .store
        .run(move |db| db.settle_code(key, Some(kind), since))
        .await?;
    if failures != throttle::FREE_CODES_PER_ACCOUNT {
        return Ok(());
    }
    let alerted = state
        .auth
        .store
        .run(move |db| db.audit_count(Account::CodesThrottled.name(), since))
        .await?;
    crate::http::admin::audit(req, Account::CodesThrottled, email, kind).await;
    if alerted > 0 {
        return Ok(());
    }
    let subject = "Wiele błędnych kodów przy logowaniu do panelu";
    let body = codes_alert(kind, failures);
    let sent = state.contact.outbox.notice(email, subject, body).await;
    if let Err(e) = sent {
        tracing::error!(error = %e, "the alert about wrong codes could not be e-mailed");
    }
    Ok(())
}

fn codes_alert(kind: &str, failures: i64) -> String {
    let minutes = throttle::WINDOW_SECONDS / 60;
    let who = match kind {
        "kod do zmiany hasła" => {
            "Ktoś próbuje odgadnąć kod do zmiany hasła, który wysyłamy na ten adres."
        }
        _ => "Ktoś, kto zna Twoje hasło, próbuje odgadnąć kod z aplikacji uwierzytelniającej.",
    };
    let codes = content::polish::count(failures, content::polish::CODES);
    format!(
        "W ciągu ostatnich {minutes} minut podano {codes} ({kind}) przy logowaniu do panelu administracyjnego strony.\n\n\
         {who} Każdy kolejny kod czeka teraz coraz dłużej, skądkolwiek przychodzi.\n\n\
         Jeśli to nie Ty: zmień hasło do panelu (zakładka „Bezpieczeństwo”) i sprawdź listę sesji oraz dziennik zdarzeń."
    )
}

/// `POST /api/auth/login/code {code}`: the second step of signing in.
async fn login_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Code>,
) -> Result<HttpResponse, ApiError> {
    let client = sign_in_client(&state, &req).await?;
    let expired = || ApiError::new(StatusCode::UNAUTHORIZED, LOGIN_TITLE, EXPIRED);
    let token = req
        .cookie(PENDING_COOKIE)
        .map(|c| c.value().to_string())
        .ok_or_else(expired)?;
    let hash = token_hash(&token);
    let pending = state
        .auth
        .store
        .run(move |db| db.pending_login(&hash, db.now() - PENDING_SECONDS))
        .await?
        .ok_or_else(expired)?;
    reserve(&state, &pending.email, &client).await?;
    let too_many = || {
        ApiError::new(StatusCode::UNAUTHORIZED, LOGIN_TITLE, TOO_MANY_CODES)
            .with_code(ErrorCode::Expired)
    };
    let hash = token_hash(&token);
    let attempt = state
        .auth
        .store
        .run(move |db| db.attempt_pending_login(&hash, throttle::CODES_PER_SIGN_IN))
        .await?
        .ok_or_else(too_many)?;
    let reserved = reserve_code(&state, pending.account_id).await?;
    let (code, id) = (body.code.trim().to_string(), pending.account_id);
    let kind = state
        .auth
        .store
        .run(move |db| check_code(db, id, &code, db.now()))
        .await?;
    let Some(kind) = kind else {
        crate::http::admin::audit(&req, Account::SecondFactorFailed, &pending.email, "").await;
        wrong_code(&state, &req, (reserved, &pending.email), "kod z aplikacji").await?;
        if attempt >= throttle::CODES_PER_SIGN_IN {
            let hash = token_hash(&token);
            state
                .auth
                .store
                .run(move |db| db.delete_pending_login(&hash))
                .await?;
            return Err(too_many());
        }
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            LOGIN_TITLE,
            BAD_CODE,
        ));
    };
    code_was_right(&state, reserved).await?;
    let (email, hash) = (pending.email.clone(), token_hash(&token));
    state
        .auth
        .store
        .run(move |db| {
            db.clear_login_failures(&email, &client)?;
            db.delete_pending_login(&hash)
        })
        .await?;
    let account = password::Verified {
        id: pending.account_id,
        password_hash: pending.password_hash.clone(),
    };
    let mut response = start_session(&state, &req, &pending.email, &account).await?;
    response
        .add_cookie(&pending_cookie(
            https(state.origins.admin_https(), &state.clients, &req),
            String::new(),
            CookieAge::ZERO,
        ))
        .map_err(|e| ApiError::internal(&e))?;
    crate::http::admin::audit(&req, Account::SignIn, &pending.email, kind).await;
    Ok(response)
}

async fn account_id(state: &web::Data<AppState>, email: &str) -> Result<i64, ApiError> {
    let email = email.to_string();
    state
        .auth
        .store
        .run(move |db| db.account(&email))
        .await?
        .map(|(id, _)| id)
        .ok_or_else(|| ApiError::internal(&"the administrator has no account"))
}

/// `GET /api/auth/totp`: whether the app is on, and how many recovery codes are left.
async fn status(
    admin: crate::http::admin::Admin,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = account_id(&state, &admin.email).await?;
    let (on, left) = state
        .auth
        .store
        .run(move |db| {
            let on = db.totp(id)?.is_some_and(|t| t.confirmed);
            Ok::<_, crate::error::Error>((on, db.recovery_codes_left(id)?))
        })
        .await?;
    Ok(HttpResponse::Ok().json(TotpStatus {
        enabled: on,
        recovery_codes_left: left,
        reauth_until: if admin.reauth_at > 0 {
            admin.reauth_at + crate::http::admin::REAUTH_SECONDS
        } else {
            0
        },
    }))
}

/// `POST /api/auth/totp/setup`: a new secret for the app, shown once as a QR code.
async fn setup(
    Reauthenticated(admin): Reauthenticated,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = account_id(&state, &admin.email).await?;
    let secret = totp::new_secret()?;
    let kept = secret.clone();
    let proposed = state
        .auth
        .store
        .run(move |db| db.propose_totp(id, &kept))
        .await?;
    if !proposed {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "Aplikacja jest już włączona",
            "Logowanie kodem z aplikacji jest już włączone. Aby zmienić telefon, najpierw je wyłącz.",
        ));
    }
    Ok(HttpResponse::Ok().json(totp::enrolment(&secret, &admin.email)?))
}

/// `POST /api/auth/totp/confirm {code}`: the first code from the app turns it on; the
/// answer holds the recovery codes, shown this once.
async fn confirm(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Code>,
) -> Result<HttpResponse, ApiError> {
    let id = account_id(&state, &admin.email).await?;
    let code = body.code.trim().to_string();
    let codes = state
        .auth
        .store
        .run(move |db| {
            let Some(row) = db.totp(id)?.filter(|t| !t.confirmed) else {
                return Ok(None);
            };
            let Some(step) = totp::check(&row.secret, &code, db.now()) else {
                return Ok(Some(Err(())));
            };
            let (codes, hashes) = totp::recovery_codes()?;
            db.confirm_totp(id, step, &hashes, db.now())?;
            Ok::<_, crate::error::Error>(Some(Ok(codes)))
        })
        .await?;
    match codes {
        None => Err(ApiError::new(
            StatusCode::CONFLICT,
            "Błąd",
            "Najpierw rozpocznij włączanie aplikacji (kod QR).",
        )),
        Some(Err(())) => Err(ApiError::unprocessable(
            "Ten kod się nie zgadza. Sprawdź, czy zegar telefonu jest ustawiony automatycznie, i wpisz kod, który aplikacja pokazuje teraz.",
        )),
        Some(Ok(codes)) => {
            super::sign_in::sign_in_changed(&state, &req, &admin, Account::TotpEnabled, "").await?;
            Ok(HttpResponse::Ok().json(RecoveryCodes {
                recovery_codes: codes,
            }))
        }
    }
}

/// `DELETE /api/auth/totp`: signing in needs the password only again.
async fn disable(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = account_id(&state, &admin.email).await?;
    state.auth.store.run(move |db| db.remove_totp(id)).await?;
    super::sign_in::sign_in_changed(&state, &req, &admin, Account::TotpDisabled, "").await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/auth/totp/recovery-codes`: ten new codes; the old ones stop working.
async fn renew_codes(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = account_id(&state, &admin.email).await?;
    let codes = state
        .auth
        .store
        .run(move |db| {
            if !db.totp(id)?.is_some_and(|t| t.confirmed) {
                return Ok(None);
            }
            let (codes, hashes) = totp::recovery_codes()?;
            db.replace_recovery_codes(id, &hashes)?;
            Ok::<_, crate::error::Error>(Some(codes))
        })
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                "Błąd",
                "Najpierw włącz logowanie kodem z aplikacji.",
            )
        })?;
    super::sign_in::sign_in_changed(&state, &req, &admin, Account::RecoveryCodesRenewed, "")
        .await?;
    Ok(HttpResponse::Ok().json(RecoveryCodes {
        recovery_codes: codes,
    }))
}
