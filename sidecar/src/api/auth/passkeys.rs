//! Passkeys (WebAuthn, `accounts::webauthn`): a key kept by the administrator's phone, laptop or
//! security key, unlocked by their fingerprint, face or PIN. It is a whole sign-in on its
//! own — something they have and something they are or know — and cannot be phished: the
//! browser signs only for the panel's own host (`ADMIN_ORIGIN`). Keys are added and removed
//! in 'Bezpieczeństwo'; a ceremony's state stays on the server, under a one-time cookie.

use accounts::passkeys::{user_handle, Ceremony, CEREMONY_SECONDS};
use accounts::webauthn::{AssertionCredential, Passkey, RegistrationCredential, RelyingParty};
use actix_web::cookie::{time::Duration as CookieAge, Cookie};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use super::sign_in::{reserve, sign_in_client, start_session, LOGIN_TITLE};
use crate::audit::Account;
use crate::db::Repository;
use crate::error::ApiError;
use crate::http::admin::{https, Admin, AdminChange, Reauthenticated};
use crate::state::AppState;
use accounts::password;

/// The cookie that names a sign-in ceremony in progress.
const CEREMONY_COOKIE: &str = "harmonia_passkey";
const NO_KEYS: &str = "Nie ma jeszcze zapisanego klucza dostępu. Zaloguj się hasłem i dodaj klucz w zakładce „Bezpieczeństwo”.";
const BAD_KEY: &str =
    "Klucz dostępu nie został rozpoznany. Spróbuj ponownie albo zaloguj się hasłem.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/passkeys", web::get().to(list))
        .route("/api/auth/passkeys/{id}", web::delete().to(remove))
        .route(
            "/api/auth/passkeys/register",
            web::post().to(register_start),
        )
        .route(
            "/api/auth/passkeys/register/finish",
            web::post().to(register_finish),
        )
        .route("/api/auth/passkeys/login", web::post().to(login_start))
        .route(
            "/api/auth/passkeys/login/finish",
            web::post().to(login_finish),
        );
}

/// The relying party, or why passkeys are off.
fn relying_party(state: &AppState) -> Result<&RelyingParty, ApiError> {
    state.auth.passkeys.relying_party().ok_or_else(|| {
        ApiError::status(
            StatusCode::CONFLICT,
            "Klucze dostępu działają tylko, gdy panel ma adres z nazwą hosta (ADMIN_ORIGIN).",
        )
    })
}

fn ceremony_cookie(https: bool, value: String, age: CookieAge) -> Cookie<'static> {
    crate::http::admin::step_cookie(CEREMONY_COOKIE, "/api/auth/passkeys/", https, value, age)
}

/// Keeps `ceremony` and answers with what the browser needs for it, and its cookie.
fn begin(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    ceremony: Ceremony,
    options: impl Serialize,
) -> Result<HttpResponse, ApiError> {
    let client = state.clients.key(req).to_string();
    let token = state.auth.passkeys.begin(ceremony, &client)?;
    let cookie = ceremony_cookie(
        https(state.origins.admin_https(), &state.clients, req),
        token,
        CookieAge::seconds(CEREMONY_SECONDS),
    );
    Ok(HttpResponse::Ok().cookie(cookie).json(options))
}

fn ceremony_of(req: &HttpRequest, state: &AppState) -> Option<Ceremony> {
    let token = req.cookie(CEREMONY_COOKIE)?;
    state.auth.passkeys.take(token.value())
}

async fn account_of(
    state: &web::Data<AppState>,
    email: &str,
) -> Result<(i64, Vec<(i64, Passkey)>), ApiError> {
    let email = email.to_string();
    state
        .auth
        .store
        .run(move |db| {
            let Some((id, _)) = db.account(&email)? else {
                return Ok((0, Vec::new()));
            };
            let keys = db
                .passkeys(id)?
                .into_iter()
                .filter_map(|row| Passkey::from_json(&row.passkey).map(|p| (row.id, p)))
                .collect();
            Ok::<_, crate::error::Error>((id, keys))
        })
        .await
}

/// A passkey as the panel lists it.
#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyInfo {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// The name of a passkey just added.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PasskeyAdded {
    pub name: String,
}

/// `GET /api/auth/passkeys`: the administrator's keys.
async fn list(admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let email = admin.email.clone();
    let rows = state
        .auth
        .store
        .run(move |db| match db.account(&email)? {
            Some((id, _)) => db.passkeys(id),
            None => Ok(Vec::new()),
        })
        .await?;
    let listed: Vec<PasskeyInfo> = rows
        .into_iter()
        .map(|r| PasskeyInfo {
            id: r.id,
            name: r.name,
            created_at: r.created_at,
            last_used_at: r.last_used_at,
        })
        .collect();
    Ok(HttpResponse::Ok().json(listed))
}

/// `POST /api/auth/passkeys/register`: what the browser needs to make a new key.
async fn register_start(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let party = relying_party(&state)?;
    let (id, keys) = account_of(&state, &admin.email).await?;
    let kept: Vec<Passkey> = keys.into_iter().map(|(_, k)| k).collect();
    let (options, registration) = party
        .start_registration(user_handle(id, &admin.email), &admin.email, &kept)
        .map_err(|e| ApiError::internal(&e))?;
    begin(&state, &req, Ceremony::Register(registration), options)
}

#[derive(Deserialize)]
struct NewKey {
    #[serde(default)]
    name: String,
    credential: RegistrationCredential,
}

/// `POST /api/auth/passkeys/register/finish {name, credential}`: keeps the new key.
async fn register_finish(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<NewKey>,
) -> Result<HttpResponse, ApiError> {
    let party = relying_party(&state)?;
    let Some(Ceremony::Register(registration)) = ceremony_of(&req, &state) else {
        return Err(ApiError::unprocessable(
            "Dodawanie klucza trwało zbyt długo. Spróbuj jeszcze raz.",
        ));
    };
    let passkey = party
        .finish_registration(&body.credential, &registration)
        .map_err(|e| {
            tracing::warn!(error = %e, "a passkey was refused");
            ApiError::unprocessable("Nie udało się dodać klucza dostępu. Spróbuj jeszcze raz.")
        })?;
    let name: String = match body.name.trim() {
        "" => "Klucz dostępu".to_string(),
        given => given.chars().take(60).collect(),
    };
    let (id, _) = account_of(&state, &admin.email).await?;
    let kept = passkey.to_json().map_err(|e| ApiError::internal(&e))?;
    let credential_id = content::encoding::hex(&passkey.credential_id.0);
    let label = name.clone();
    let added = state
        .auth
        .store
        .run(move |db| db.insert_passkey(id, &label, &credential_id, &kept, db.now()))
        .await?;
    if !added {
        return Err(ApiError::status(
            StatusCode::CONFLICT,
            "Ten klucz dostępu jest już zapisany.",
        ));
    }
    super::sign_in::sign_in_changed(&state, &req, &admin, Account::PasskeyAdded, &name).await?;
    Ok(HttpResponse::Created()
        .cookie(ceremony_cookie(
            https(state.origins.admin_https(), &state.clients, &req),
            String::new(),
            CookieAge::ZERO,
        ))
        .json(PasskeyAdded { name }))
}

/// `DELETE /api/auth/passkeys/{id}`.
async fn remove(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    key: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (id, _) = account_of(&state, &admin.email).await?;
    let key = key.into_inner();
    let deleted = state
        .auth
        .store
        .run(move |db| db.delete_passkey(id, key))
        .await?;
    if !deleted {
        return Err(ApiError::not_found("Nie ma takiego klucza."));
    }
    super::sign_in::sign_in_changed(
        &state,
        &req,
        &admin,
        Account::PasskeyRemoved,
        &format!("nr {key}"),
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/auth/passkeys/login`: the challenge for the administrator's keys.
async fn login_start(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    sign_in_client(&state, &req).await?;
    let party = relying_party(&state)?;
    let admin = &state.auth.admin_email;
    let (id, keys) = account_of(&state, admin).await?;
    if keys.is_empty() {
        return Err(ApiError::new(StatusCode::NOT_FOUND, LOGIN_TITLE, NO_KEYS));
    }
    let passkeys: Vec<Passkey> = keys.into_iter().map(|(_, k)| k).collect();
    let (options, authentication) = party
        .start_authentication(user_handle(id, admin), passkeys)
        .map_err(|e| ApiError::internal(&e))?;
    begin(&state, &req, Ceremony::SignIn(authentication), options)
}

#[derive(Deserialize)]
struct Assertion {
    credential: AssertionCredential,
}

/// `POST /api/auth/passkeys/login/finish {credential}`: a right signature makes a session.
async fn login_finish(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Assertion>,
) -> Result<HttpResponse, ApiError> {
    let client = sign_in_client(&state, &req).await?;
    let admin = state.auth.admin_email.clone();
    reserve(&state, &admin, &client).await?;
    let party = relying_party(&state)?;
    let bad = || ApiError::new(StatusCode::UNAUTHORIZED, LOGIN_TITLE, BAD_KEY);
    let Some(Ceremony::SignIn(authentication)) = ceremony_of(&req, &state) else {
        return Err(bad());
    };
    let used = match party.finish_authentication(&body.credential, &authentication) {
        Ok(used) => used,
        Err(e) => {
            tracing::warn!(error = %e, "a passkey sign-in was refused");
            crate::http::admin::audit(&req, Account::SignInFailed, &admin, "klucz dostępu").await;
            return Err(bad());
        }
    };
    let (account_id, keys) = account_of(&state, &admin).await?;
    let Some((key_id, _)) = keys
        .into_iter()
        .find(|(_, k)| k.credential_id == used.credential_id)
    else {
        return Err(bad());
    };
    let kept = used.to_json().map_err(|e| ApiError::internal(&e))?;
    let who = admin.clone();
    let password_hash = state
        .auth
        .store
        .run(move |db| {
            db.used_passkey(key_id, &kept, db.now())?;
            db.clear_login_failures(&who, &client)?;
            Ok::<_, crate::error::Error>(db.account(&who)?.map(|(_, hash)| hash))
        })
        .await?
        .ok_or_else(bad)?;
    let account = password::Verified {
        id: account_id,
        password_hash,
    };
    let mut response = start_session(&state, &req, &admin, &account).await?;
    response
        .add_cookie(&ceremony_cookie(
            https(state.origins.admin_https(), &state.clients, &req),
            String::new(),
            CookieAge::ZERO,
        ))
        .map_err(|e| ApiError::internal(&e))?;
    crate::http::admin::audit(&req, Account::SignIn, &admin, "klucz dostępu").await;
    Ok(response)
}
