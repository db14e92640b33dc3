//! The panel's 'Zespół': the therapists' profiles listed in the site's order, one saved,
//! a new one created (its file named after the therapist, never over another) and the order
//! changed. Each change is a revision, rebuilt and published like any other.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use content::{DocId, Kind};
use editing::team::{check_profile, Profile, TeamMember};
use editing::Editor;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::VersionBody;
use crate::changes::{self, Changed, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::{Admin, AdminChange};
use crate::http::body::json_error;
use crate::state::AppState;

const NO_THERAPIST: &str = "Nie ma takiego terapeuty.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    let json = web::JsonConfig::default()
        .limit(256 * 1024)
        .error_handler(|err, _| json_error(err).into());
    cfg.service(
        web::scope("/api/team")
            .app_data(json)
            .route("", web::get().to(list))
            .route("", web::post().to(create))
            .route("/order", web::put().to(reorder))
            .route("/{slug}", web::put().to(save))
            .route("/{slug}", web::delete().to(remove)),
    );
}

/// A profile's save: the profile and the version it was loaded at.
#[derive(Debug, Deserialize, TS)]
pub struct ProfileBody {
    pub profile: Profile,
    pub version: String,
}

/// A new therapist.
#[derive(Debug, Deserialize, TS)]
pub struct NewProfile {
    pub profile: Profile,
}

/// The team's new order: each profile's slug with the version it was loaded at, first first.
#[derive(Debug, Deserialize, TS)]
pub struct OrderBody {
    pub order: Vec<OrderItem>,
}

#[derive(Debug, Deserialize, TS)]
pub struct OrderItem {
    pub slug: String,
    pub version: String,
}

/// What a change of the team answers: the change and the team as it is now.
#[derive(Debug, Serialize, TS)]
pub struct TeamChanged {
    #[serde(flatten)]
    pub changed: Changed,
    pub team: Vec<TeamMember>,
    /// The profile the change was about.
    pub slug: String,
}

fn target(editor: &Editor, slug: &str, action: Action) -> Result<Target, ApiError> {
    let file = editor
        .team_file(slug)
        .ok_or_else(|| ApiError::not_found(NO_THERAPIST))?;
    Ok(Target {
        tracked: Tracked::Document(DocId::new(Kind::Team, slug)),
        file,
        action,
        summary: None,
    })
}

fn answer(state: &AppState, changed: Changed, slug: String) -> Result<TeamChanged, ApiError> {
    Ok(TeamChanged {
        changed,
        team: marked(state, state.site.editor.team()?),
        slug,
    })
}

/// The team with whoever signs a new article by default marked.
fn marked(state: &AppState, mut team: Vec<TeamMember>) -> Vec<TeamMember> {
    let site = state.site.live.current();
    let default = site
        .renderer
        .as_ref()
        .and_then(|r| crate::api::articles::default_author_slug(r.content()));
    for member in &mut team {
        member.default_author = default.as_deref() == Some(member.slug.as_str());
    }
    team
}

async fn list(_admin: Admin, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let editor = state.site.editor.clone();
    let team = web::block(move || editor.team()).await??;
    Ok(HttpResponse::Ok().json(marked(&state, team)))
}

async fn save(
    AdminChange(admin): AdminChange,
    path: web::Path<String>,
    body: web::Json<ProfileBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    check_profile(&body.profile)?;
    let slug = path.into_inner();
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let target = target(&editor, &slug, Action::Save)?;
        let changed = changes::apply(&state, &target, &admin.email, || {
            editor.save_profile(&slug, &body.version, &body.profile)
        })?;
        answer(&state, changed, slug)
    })
    .await??;
    Ok(HttpResponse::Ok().json(answer))
}

async fn create(
    AdminChange(admin): AdminChange,
    body: web::Json<NewProfile>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    check_profile(&body.profile)?;
    let slug = Editor::team_slug(&body.profile.name)?;
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let target = target(&editor, &slug, Action::Create)?;
        if editor.root().exists(&target.file) {
            return Err(ApiError::status(
                StatusCode::CONFLICT,
                format!(
                    "Terapeuta o imieniu i nazwisku „{}” już jest w zespole. Zmień jego profil albo wpisz inne imię i nazwisko.",
                    body.profile.name.trim()
                ),
            ));
        }
        let changed = changes::apply(&state, &target, &admin.email, || {
            editor.create_profile(&slug, &body.profile)
        })?;
        answer(&state, changed, slug)
    })
    .await??;
    Ok(HttpResponse::Ok().json(answer))
}

/// Removes a therapist the site names nowhere else (their text stays in the history).
async fn remove(
    AdminChange(admin): AdminChange,
    path: web::Path<String>,
    body: web::Json<VersionBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let slug = path.into_inner();
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let target = target(&editor, &slug, Action::Delete)?;
        let uses = editor.therapist_uses(&slug)?;
        if !uses.is_empty() {
            return Err(ApiError::unprocessable(format!(
                "Tego terapeuty nie można usunąć, bo strona wciąż się do niego odwołuje: {}. Najpierw zmień te miejsca.",
                uses.join(", ")
            )));
        }
        let changed = changes::apply(&state, &target, &admin.email, || {
            editor.delete_profile(&slug, &body.version)
        })?;
        answer(&state, changed, slug)
    })
    .await??;
    Ok(HttpResponse::Ok().json(answer))
}

/// Gives each profile its place in `order` (from 1), writing only those whose place changed.
async fn reorder(
    AdminChange(admin): AdminChange,
    body: web::Json<OrderBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let answer = web::block(move || {
        let editor = state.site.editor.clone();
        let team = editor.team()?;
        let mut last = None;
        for (i, item) in body.order.iter().enumerate() {
            let place = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let Some(member) = team.iter().find(|m| m.slug == item.slug) else {
                return Err(ApiError::not_found(NO_THERAPIST));
            };
            if member.order == place {
                continue;
            }
            let target = target(&editor, &item.slug, Action::Save)?;
            last = Some(changes::apply(&state, &target, &admin.email, || {
                editor.set_order(&item.slug, &item.version, place)
            })?);
        }
        let slug = body
            .order
            .first()
            .map(|i| i.slug.clone())
            .unwrap_or_default();
        match last {
            Some(changed) => answer(&state, changed, slug),
            None => Err(ApiError::unprocessable("Kolejność się nie zmieniła.")),
        }
    })
    .await??;
    Ok(HttpResponse::Ok().json(answer))
}
