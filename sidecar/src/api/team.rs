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
use crate::audit::Content;
use crate::changes::{self, Changed, Pipeline, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};
use crate::http::body::json_error;

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
    let tracked = Tracked::Document(DocId::new(Kind::Team, slug));
    Ok(Target::of_file(tracked, file, action))
}

/// A change of the team's answer: the change and the team as it is after it.
async fn answer(
    pipeline: &Pipeline,
    changed: Changed,
    slug: String,
) -> Result<HttpResponse, ApiError> {
    let team = changes::read(pipeline, |p| Ok(p.site.editor.team()?)).await?;
    Ok(HttpResponse::Ok().json(TeamChanged {
        changed,
        team: marked(pipeline, team),
        slug,
    }))
}

/// The team with whoever signs a new article by default marked.
fn marked(pipeline: &Pipeline, mut team: Vec<TeamMember>) -> Vec<TeamMember> {
    let site = pipeline.site.live.current();
    let default = site
        .renderer
        .as_ref()
        .and_then(|r| crate::api::articles::default_author_slug(r.content()));
    for member in &mut team {
        member.default_author = default.as_deref() == Some(member.slug.as_str());
    }
    team
}

async fn list(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let team = changes::read(&pipeline, |p| Ok(p.site.editor.team()?)).await?;
    Ok(HttpResponse::Ok().json(marked(&pipeline, team)))
}

async fn save(
    author: Author,
    path: web::Path<String>,
    body: web::Json<ProfileBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    check_profile(&body.profile)?;
    let slug = path.into_inner();
    let target = target(&pipeline.site.editor, &slug, Action::Save)?;
    let saved = slug.clone();
    let changed = changes::apply(&pipeline, &author, target, move |editor| {
        Ok(editor.save_profile(&saved, &body.version, &body.profile)?)
    })
    .await?;
    answer(&pipeline, changed, slug).await
}

async fn create(
    author: Author,
    body: web::Json<NewProfile>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    check_profile(&body.profile)?;
    let slug = Editor::team_slug(&body.profile.name)?;
    let target = target(&pipeline.site.editor, &slug, Action::Create)?;
    let (file, made) = (target.file.clone(), slug.clone());
    let changed = changes::apply(&pipeline, &author, target, move |editor| {
        if editor.root().exists(&file) {
            return Err(ApiError::status(
                StatusCode::CONFLICT,
                format!(
                    "Terapeuta o imieniu i nazwisku „{}” już jest w zespole. Zmień jego profil albo wpisz inne imię i nazwisko.",
                    body.profile.name.trim()
                ),
            ));
        }
        Ok(editor.create_profile(&made, &body.profile)?)
    })
    .await?;
    answer(&pipeline, changed, slug).await
}

/// Removes a therapist the site names nowhere else (their text stays in the history).
async fn remove(
    author: Author,
    path: web::Path<String>,
    body: web::Json<VersionBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let slug = path.into_inner();
    let target = target(&pipeline.site.editor, &slug, Action::Delete)?;
    let removed = slug.clone();
    let changed = changes::apply(&pipeline, &author, target, move |editor| {
        let uses = editor.therapist_uses(&removed)?;
        if !uses.is_empty() {
            return Err(ApiError::unprocessable(format!(
                "Tego terapeuty nie można usunąć, bo strona wciąż się do niego odwołuje: {}. Najpierw zmień te miejsca.",
                uses.join(", ")
            )));
        }
        Ok(editor.delete_profile(&removed, &body.version)?)
    })
    .await?;
    answer(&pipeline, changed, slug).await
}

/// Gives each profile its place in `order` (from 1), writing only those whose place changed:
/// each move a change of its own.
async fn reorder(
    author: Author,
    body: web::Json<OrderBody>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let team = changes::read(&pipeline, |p| Ok(p.site.editor.team()?)).await?;
    let mut last = None;
    for (i, item) in body.order.iter().enumerate() {
        let place = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let Some(member) = team.iter().find(|m| m.slug == item.slug) else {
            return Err(ApiError::not_found(NO_THERAPIST));
        };
        if member.order == place {
            continue;
        }
        let mut target = target(&pipeline.site.editor, &item.slug, Action::Save)?;
        target.event = Content::TeamReordered;
        let (slug, version) = (item.slug.clone(), item.version.clone());
        last = Some(
            changes::apply(&pipeline, &author, target, move |editor| {
                Ok(editor.set_order(&slug, &version, place)?)
            })
            .await?,
        );
    }
    let slug = body
        .order
        .first()
        .map(|i| i.slug.clone())
        .unwrap_or_default();
    match last {
        Some(changed) => answer(&pipeline, changed, slug).await,
        None => Err(ApiError::unprocessable("Kolejność się nie zmieniła.")),
    }
}
