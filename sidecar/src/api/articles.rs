//! New articles and deleted ones: 'Nowy artykuł' proposes a slug from the title (Polish
//! letters folded), refuses one in use and creates the article unpublished; a deleted
//! article is listed with the text it had and can be made again.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use content::problem::{EditProblem, Field};
use content::{DocId, Kind};
use editing::Saved;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::doc_id;
use crate::changes::{self, Changed, Pipeline, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};
use crate::http::body::json_error;

/// The longest title of a new article.
pub const TITLE_MAX_CHARS: usize = 200;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let json = web::JsonConfig::default()
        .limit(16 * 1024)
        .error_handler(|err, _| json_error(err).into());
    cfg.service(
        web::scope("/api/articles")
            .app_data(json)
            .route("", web::post().to(create))
            .route("/slug", web::get().to(propose)),
    )
    .service(
        web::scope("/api/deleted")
            .route("", web::get().to(deleted))
            .route("/{kind}/{slug}/restore", web::post().to(undelete)),
    );
}

fn taken(slug: &str) -> ApiError {
    ApiError::status(
        StatusCode::CONFLICT,
        format!("Adres /blog/{slug} jest już zajęty przez inny artykuł. Zmień tytuł albo adres."),
    )
}

fn check_title(title: &str) -> Result<(), EditProblem> {
    if title.trim().is_empty() {
        return Err(EditProblem::NoArticleTitle);
    }
    if title.contains(['\n', '\r']) || title.chars().count() > TITLE_MAX_CHARS {
        return Err(EditProblem::ArticleTitleForm {
            max: TITLE_MAX_CHARS,
        });
    }
    Ok(())
}

fn check_slug(slug: &str) -> Result<(), EditProblem> {
    if slug.is_empty() {
        return Err(EditProblem::NoSlug);
    }
    if !content::kind::is_slug(slug)
        || slug.len() > content::kind::SLUG_MAX_CHARS
        || slug.starts_with('-')
        || slug.ends_with('-')
    {
        return Err(EditProblem::SlugForm {
            max: content::kind::SLUG_MAX_CHARS,
        });
    }
    Ok(())
}

/// The address a title gives a new article, and whether it is in use.
#[derive(Debug, Serialize, TS)]
pub struct SlugProposal {
    pub slug: String,
    pub route: Option<String>,
    pub taken: bool,
}

/// What creating an article answers: the change, and the new article's id and address.
#[derive(Debug, Serialize, TS)]
pub struct ArticleCreated {
    #[serde(flatten)]
    pub changed: Changed,
    pub id: String,
    pub route: Option<String>,
}

#[derive(Deserialize)]
struct TitleQuery {
    #[serde(default)]
    title: String,
}

/// `GET /api/articles/slug?title=…`: the slug a title gives, and whether it is taken.
async fn propose(
    _admin: Admin,
    query: web::Query<TitleQuery>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let slug = content::kind::slugify(&query.title);
    let id = DocId::new(Kind::Article, slug.clone());
    let editor = &pipeline.site.editor;
    let taken = !slug.is_empty()
        && editor
            .file_of(&id)
            .is_some_and(|f| editor.root().exists(&f));
    Ok(HttpResponse::Ok().json(SlugProposal {
        route: id.route(),
        slug,
        taken,
    }))
}

/// A new article: its title, and the address chosen in the panel.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewArticle {
    pub title: String,
    /// The slug chosen in the panel; the title's folded slug without one.
    #[serde(default)]
    #[ts(optional)]
    pub slug: Option<String>,
    /// Who signs it, as chosen in the panel; the first of the team without one.
    #[serde(default)]
    #[ts(optional)]
    pub author: Option<String>,
}

/// The author of a new article none was chosen for: `default_author` of `site.yaml`, or the
/// first therapist of the team without it.
fn default_author(pipeline: &Pipeline) -> String {
    let site = pipeline.site.live.current();
    site.renderer
        .as_ref()
        .and_then(|r| {
            let content = r.content();
            let slug = default_author_slug(content)?;
            let author = content.team.iter().find(|t| t.slug() == slug);
            author.map(|t| t.meta.name.clone())
        })
        .unwrap_or_else(|| "Redakcja".to_string())
}

/// The team file of whoever signs a new article unless told otherwise: `default_author` of
/// `site.yaml`, or the team's first without it.
pub(crate) fn default_author_slug(content: &content::model::Content) -> Option<String> {
    match &content.site.default_author {
        Some(slug) => Some(slug.clone()),
        None => content
            .team
            .iter()
            .min_by_key(|t| (t.meta.order, t.slug().to_string()))
            .map(|t| t.slug().to_string()),
    }
}

/// `POST /api/articles`: a new, unpublished article dated today.
async fn create(
    author: Author,
    body: web::Json<NewArticle>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let title = body.title.trim().to_string();
    check_title(&title)?;
    let slug = match &body.slug {
        Some(s) => s.trim().to_string(),
        None => content::kind::slugify(&title),
    };
    check_slug(&slug)?;
    let id = DocId::new(Kind::Article, slug.clone());
    let signed_by = match body.author.as_deref().map(str::trim) {
        Some(chosen) if !chosen.is_empty() => {
            content::fields::one_line(Field::Author, chosen, editing::edit::SETTINGS_MAX_CHARS)?;
            chosen.to_string()
        }
        _ => default_author(&pipeline),
    };
    let tracked = Tracked::Document(id.clone());
    let target = Target::new(&pipeline.site.editor, tracked, Action::Create)?;
    let date = content::schedule::today(pipeline.clock.now());
    let made = id.slug.clone();
    let changed = changes::apply(&pipeline, &author, target, move |editor| {
        match editor.create_article(&made, &title, &date, &signed_by)? {
            Saved::Conflict { .. } => Err(taken(&made)),
            saved => Ok(saved),
        }
    })
    .await?;
    Ok(HttpResponse::Created()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(ArticleCreated {
            changed,
            id: id.to_string(),
            route: id.route(),
        }))
}

/// A deleted article, as the panel lists it.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeletedView {
    pub id: String,
    pub title: String,
    #[ts(type = "number")]
    pub deleted_at: i64,
    pub author: String,
}

fn title_of(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("title:"))
        .map(|t| t.trim().trim_matches('"').to_string())
        .unwrap_or_default()
}

/// Deleted documents whose file is still gone.
fn still_deleted(pipeline: &Pipeline) -> Result<Vec<(DocId, crate::db::Deleted)>, ApiError> {
    let editor = &pipeline.site.editor;
    Ok(pipeline
        .db
        .deleted()?
        .into_iter()
        .filter_map(|d| {
            let id = DocId::parse(&d.doc_id)?;
            let gone = editor
                .file_of(&id)
                .is_some_and(|f| !editor.root().exists(&f));
            gone.then_some((id, d))
        })
        .collect())
}

/// `GET /api/deleted`: deleted articles, newest first.
async fn deleted(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    let list = changes::read(&pipeline, still_deleted).await?;
    let view: Vec<DeletedView> = list
        .into_iter()
        .map(|(id, d)| DeletedView {
            id: id.to_string(),
            title: title_of(&d.text),
            deleted_at: d.deleted_at,
            author: d.author,
        })
        .collect();
    Ok(HttpResponse::Ok().json(view))
}

/// `POST /api/deleted/{kind}/{slug}/restore`: the article made again from its last text.
async fn undelete(
    author: Author,
    path: web::Path<(String, String)>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let id = doc_id(&path.0, &path.1)?;
    let wanted = id.clone();
    let (_, d) = changes::read(&pipeline, move |p| {
        still_deleted(p)?
            .into_iter()
            .find(|(i, _)| *i == wanted)
            .ok_or_else(|| ApiError::not_found("Nie ma takiego usuniętego artykułu."))
    })
    .await?;
    let target = Target::new(
        &pipeline.site.editor,
        Tracked::Document(id.clone()),
        Action::Restore,
    )?;
    let changed = changes::apply(&pipeline, &author, target, move |editor| {
        match editor.create(&id, &d.text)? {
            Saved::Conflict { .. } => Err(taken(&id.slug)),
            saved => Ok(saved),
        }
    })
    .await?;
    Ok(HttpResponse::Ok().json(changed))
}
