//! The editors' access tokens of the hosted repository (`GIT_HOSTED`), in the panel's 'Dostęp
//! przez git': `GET /api/git/tokens` lists them (name, made, last used) with the address to
//! clone, `POST` makes one — shown once, kept only as its hash — and `DELETE …/{id}` revokes
//! one. Making a token, which opens the site's content to whoever holds it, needs the
//! administrator to have confirmed who they are; each change is written to the audit log.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::api::audit::record;
use crate::audit::Git;
use crate::db::{GitToken, Repository};
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange, Reauthenticated};
use crate::state::AppState;

/// The longest name of a token (whose it is: 'Anna, laptop').
const MAX_NAME: usize = 80;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/git/tokens", web::get().to(list))
        .route("/api/git/tokens", web::post().to(create))
        .route("/api/git/tokens/{id}", web::delete().to(revoke));
}

/// The tokens, and where to clone from; `clone_url` is `None` when the server does not host
/// the repository.
#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct GitTokens {
    pub clone_url: Option<String>,
    pub branch: String,
    pub tokens: Vec<GitToken>,
}

#[derive(Debug, Deserialize, ts_rs::TS)]
pub struct NewGitToken {
    pub name: String,
}

/// A token just made: the only time its text is shown.
#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct GitTokenCreated {
    pub id: i64,
    pub name: String,
    pub token: String,
}

fn hosted(state: &AppState) -> Result<(), ApiError> {
    match state.hosted {
        Some(_) => Ok(()),
        None => Err(ApiError::not_found(
            "Serwer nie udostępnia repozytorium (ustawienie GIT_HOSTED=1).",
        )),
    }
}

async fn list(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let tokens = match state.hosted {
        Some(_) => state.db.run(|db| db.git_tokens()).await?,
        None => Vec::new(),
    };
    Ok(HttpResponse::Ok().json(GitTokens {
        clone_url: state
            .hosted
            .as_ref()
            .map(|_| format!("{}{}", state.origins.admin, super::http::PATH)),
        branch: state
            .git
            .as_ref()
            .map_or_else(|| "main".into(), |g| g.remote.branch.clone()),
        tokens,
    }))
}

async fn create(
    Reauthenticated(admin): Reauthenticated,
    req: HttpRequest,
    body: web::Json<NewGitToken>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    hosted(&state)?;
    let name = body.into_inner().name.trim().to_string();
    // The name is the pusher's name git is given (`REMOTE_USER`): one line of text.
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "Podaj, czyj to token (od 1 do {MAX_NAME} znaków), np. „Anna, laptop”."
        )));
    }
    let token = accounts::tokens::random_token()?;
    let (hash, kept) = (super::http::hash(&token), name.clone());
    let id = state
        .db
        .run(move |db| db.add_git_token(&kept, &hash, db.now()))
        .await?;
    record(&state, &req, Git::GitTokenCreated, &admin.email, &name).await;
    Ok(HttpResponse::Created().json(GitTokenCreated { id, name, token }))
}

async fn revoke(
    AdminChange(admin): AdminChange,
    req: HttpRequest,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let Some(name) = state.db.run(move |db| db.revoke_git_token(id)).await? else {
        return Err(ApiError::not_found("Nie ma takiego tokenu."));
    };
    record(&state, &req, Git::GitTokenRevoked, &admin.email, &name).await;
    Ok(HttpResponse::NoContent().finish())
}
