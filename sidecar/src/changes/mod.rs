//! The one way content changes from the panel: [`apply`] writes a change of a [`Target`]
//! (a page, a service, an article, a therapist's profile, the price list, the facts or the
//! site's words) on the blocking pool, rebuilds from the text it wrote, publishes, commits it
//! (when the content is a git work tree), keeps it as a revision and writes the change's own
//! event to the audit log — or, if the site would not build, puts the file back and refuses
//! with every problem. Restores ([`restore`]) and the git sync ([`sync`]) are changes too.
//! What the pipeline works with is handed down to it as a [`Pipeline`].

pub mod compare;
pub mod forge;
pub mod hosted;
pub mod images;
mod message;
pub mod notify;
pub mod preview;
pub mod restore;
pub mod sync;

use actix_web::http::StatusCode;
use actix_web::web;
use content::load::{Changes, Written};
use content::problem::Place;
use content::{DocId, Kind};
use editing::edit::Editable;
use editing::{Editor, Saved};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use ts_rs::TS;

use crate::audit::Content;
use crate::db::{Action, Db};
use crate::error::{ApiError, Error};
use crate::http::admin::Author;
use crate::serve::publishing;
use crate::serve::site::SiteState;
use contentsync::GitSync;

pub const SAVE_FAILED: &str = "Nie udało się zapisać zmian.";
pub const NOT_FOUND: &str = "Nie ma takiej strony.";
const NO_VERSION: &str = "Nie ma takiej wersji w historii zmian.";
const SAME: &str = "Ta wersja jest taka sama jak obecna: nie ma czego przywracać.";
const NO_TEXT: &str = "Ta wersja to usunięcie strony; przywróć ją z listy usuniętych artykułów.";
const CONFLICT: &str = "Zapisywana treść została w międzyczasie zmieniona (w innej karcie albo przez inną osobę). Twoje zmiany nie zostały zapisane, ale nic nie zginęło: wciąż są w edytorze.";

/// A file of content with a history, and the key its revisions are kept under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tracked {
    /// A page, a service, an article or a therapist's profile.
    Document(DocId),
    /// The price list (`cennik.yaml`).
    Prices,
    /// The practice's facts (`site.yaml`).
    Facts,
    /// The site's own words (`napisy.yaml`).
    Words,
}

impl Tracked {
    const PRICES: &'static str = "cennik.yaml";
    const FACTS: &'static str = "site.yaml";
    const WORDS: &'static str = content::wording::FILE;

    /// The file a history names by `key` (`pages/home`, `cennik.yaml`, `site.yaml`).
    pub fn parse(key: &str) -> Option<Self> {
        match key {
            Self::PRICES => Some(Tracked::Prices),
            Self::FACTS => Some(Tracked::Facts),
            Self::WORDS => Some(Tracked::Words),
            _ => DocId::parse(key).map(Tracked::Document),
        }
    }

    /// The key its revisions are kept under.
    pub fn key(&self) -> String {
        match self {
            Tracked::Document(id) => id.to_string(),
            Tracked::Prices => Self::PRICES.to_string(),
            Tracked::Facts => Self::FACTS.to_string(),
            Tracked::Words => Self::WORDS.to_string(),
        }
    }

    /// Its file, when it can have one.
    pub fn file(&self, editor: &Editor) -> Option<PathBuf> {
        match self {
            Tracked::Document(id) if id.kind == Kind::Team => editor.team_file(&id.slug),
            Tracked::Document(id) => editor.file_of(id),
            Tracked::Prices => Some(editor.prices_file()),
            Tracked::Facts => Some(editor.site_file()),
            Tracked::Words => Some(editor.words_file()),
        }
    }

    /// How a commit message and the history name it.
    fn subject(&self) -> message::Subject<'_> {
        match self {
            Tracked::Document(id) => message::Subject::Document(id),
            Tracked::Prices => message::Subject::Prices,
            Tracked::Facts => message::Subject::Facts,
            Tracked::Words => message::Subject::Words,
        }
    }

    /// The fields that differ between a version of it and its text now, by their labels.
    pub fn compare(&self, version: &str, current: &str) -> Vec<compare::Compared> {
        compare::compare(self.subject(), version, current)
    }

    /// What a revision changed, in the history's words, from its texts.
    pub fn summary(&self, action: Action, previous: &str, saved: &str) -> String {
        message::summary(self.subject(), action, previous, saved)
    }

    /// The document it is, when it is one the site shows as a page.
    pub fn page(&self) -> Option<&DocId> {
        match self {
            Tracked::Document(id) if id.kind != Kind::Team => Some(id),
            _ => None,
        }
    }
}

/// What a change writes: the file, what it is, and what the change does.
#[derive(Debug, Clone)]
pub struct Target {
    pub tracked: Tracked,
    pub file: PathBuf,
    pub action: Action,
    /// What the change is, when its maker says it (a restore: 'przywrócono wersję z …');
    /// otherwise worked out from the texts.
    pub summary: Option<String>,
    /// The audit log's event for it: by default what `action` does to `tracked`.
    pub event: Content,
}

impl Target {
    /// `tracked`'s file, changed by `action`.
    pub fn new(editor: &Editor, tracked: Tracked, action: Action) -> Result<Self, ChangeError> {
        let file = tracked.file(editor).ok_or(ChangeError::NotFound)?;
        Ok(Target::of_file(tracked, file, action))
    }

    /// The change `action` makes to `tracked`, whose file is `file`.
    pub fn of_file(tracked: Tracked, file: PathBuf, action: Action) -> Self {
        Target {
            event: event_of(&tracked, action),
            tracked,
            file,
            action,
            summary: None,
        }
    }
}

/// The audit log's event of `action` on `tracked`: each kind of change its own.
fn event_of(tracked: &Tracked, action: Action) -> Content {
    match (tracked, action) {
        (Tracked::Prices, _) => Content::PricesChanged,
        (Tracked::Facts, _) => Content::FactsChanged,
        (Tracked::Words, _) => Content::WordsChanged,
        (Tracked::Document(id), action) => match (id.kind, action) {
            (Kind::Page, _) => Content::PageSaved,
            (Kind::Service, _) => Content::ServiceSaved,
            (Kind::Article, Action::Save) => Content::ArticleSaved,
            (Kind::Article, Action::Create) => Content::ArticleCreated,
            (Kind::Article, Action::Delete) => Content::ArticleDeleted,
            (Kind::Article, Action::Restore) => Content::ArticleUndeleted,
            (Kind::Team, Action::Save) => Content::ProfileSaved,
            (Kind::Team, Action::Create | Action::Restore) => Content::ProfileAdded,
            (Kind::Team, Action::Delete) => Content::ProfileRemoved,
        },
    }
}

/// What the change pipeline works with, handed down by the state that builds it: the site
/// (its builder, editor and publishing), the database of revisions and drafts, the content's
/// repository (when set) and the accounts' store, where the audit log is.
#[derive(Clone)]
pub struct Pipeline {
    pub site: web::Data<SiteState>,
    pub db: Arc<Db>,
    pub git: Option<Arc<GitSync>>,
    pub accounts: web::Data<accounts::Accounts>,
    /// The server's one clock: a revision's time, a page's state.
    pub clock: clock::Clock,
}

/// Why a change was not made.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    #[error("no such document")]
    NotFound,
    /// The file changed since the panel loaded it: nothing was written.
    #[error("the file changed since it was loaded")]
    Conflict,
    /// The site would not build with the change: the file was put back as it was.
    #[error("the site would not build: {sentence}")]
    Refused {
        /// Every problem, with where it is in the document being saved, as data and in Polish.
        places: Vec<Place>,
        /// The problems in Polish, each with where it is, one after another.
        sentence: String,
    },
    /// A change the rules of the content refuse before writing (a required text left empty).
    #[error(transparent)]
    Editing(#[from] editing::Error),
    /// A restore of a version the history does not have.
    #[error("no such version")]
    NoVersion,
    /// A restore of a deletion's side: there is no text to put back.
    #[error("the version is a deletion")]
    Deletion,
    /// A restore of the text the file has now.
    #[error("the version is the current text")]
    Unchanged,
    #[error(transparent)]
    Server(#[from] Error),
}

impl From<ChangeError> for ApiError {
    fn from(e: ChangeError) -> Self {
        match e {
            ChangeError::NotFound => ApiError::not_found(NOT_FOUND),
            ChangeError::Conflict => ApiError::status(StatusCode::CONFLICT, CONFLICT),
            ChangeError::Refused { places, sentence } => ApiError::unprocessable(format!(
                "{SAVE_FAILED} Strona nie dałaby się zbudować, więc plik pozostał bez zmian. {sentence}"
            ))
            .with_problems(places),
            ChangeError::Editing(e) => e.into(),
            ChangeError::NoVersion => ApiError::not_found(NO_VERSION),
            ChangeError::Deletion => ApiError::unprocessable(NO_TEXT),
            ChangeError::Unchanged => ApiError::unprocessable(SAME),
            ChangeError::Server(e) => e.into(),
        }
    }
}

/// What a change of the panel answers: the file's new version (empty for a deleted one),
/// what went wrong beside it (a git commit, the last run of the CDN's commands), how long
/// the build and publish took, and the document as it is now (for a page, a service or an
/// article that is still there).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub version: String,
    pub warning: Option<String>,
    #[ts(type = "number")]
    pub publish_ms: u64,
    pub page: Option<Editable>,
    /// Where the CDN's commands are: the panel waits for the run this change queued.
    pub publishing: publishing::Status,
    /// Whether visitors see the change: `false` while a production start holds the site back
    /// because its facts are example data (`warning` says which).
    pub published: bool,
}

impl Changed {
    /// Adds a warning after any there is.
    pub fn warn(&mut self, note: &str) {
        self.warning = Some(match self.warning.take() {
            Some(w) => format!("{w} {note}"),
            None => note.to_string(),
        });
    }
}

/// Why a build refused a change, each problem with where it is in the text that was saved.
fn refusal(pipeline: &Pipeline, target: &Target, saved: &str, e: &site::Error) -> ChangeError {
    let content_dir = &pipeline.site.project.content_dir;
    let edited = Some((target.file.as_path(), saved));
    let places: Vec<Place> = e
        .diagnostics()
        .iter()
        .map(|d| d.place(content_dir, edited))
        .collect();
    let sentence = if places.is_empty() {
        format!("błąd budowania ({e})")
    } else {
        places
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    ChangeError::Refused { places, sentence }
}

/// Puts a refused change back: the file as it was (or gone, if the change made it), and the
/// builder told so.
fn put_back(pipeline: &Pipeline, builder: &mut site::Builder, target: &Target, previous: &str) {
    let file = &target.file;
    let root = pipeline.site.editor.root();
    let restored = match target.action {
        Action::Create | Action::Restore if previous.is_empty() => {
            root.remove_file(file).map_err(|e| e.to_string())
        }
        _ => editing::write_atomic(&root, file, previous).map_err(|e| e.to_string()),
    };
    if let Err(e) = restored {
        tracing::error!(error = %e, file = %file.display(), "the refused change could not be put back");
    }
    // The builder parsed the refused text; it is told the file changed back.
    let changed = [file.clone()];
    if let Err(again) = pipeline
        .site
        .rebuild_with(builder, Changes::Only(&changed))
        .map(|_| ())
    {
        tracing::error!(error = %again, "the site does not build after putting the file back");
    }
}

/// Writes a change with `write` (given the editor, under the build lock: a check that reads
/// the files belongs in it), rebuilds from the text it wrote (not read back) and publishes,
/// all on the blocking pool; a build that fails puts the file back as it was (or removes it,
/// if the change made it) and the change is refused with the reason. Every change is a
/// revision, an entry of the audit log (`target.event`, by `author`) and a git commit (when
/// the content is a work tree); the document's server-side draft is dropped. The CDN's
/// commands run after, on their queue.
pub async fn apply<W>(
    pipeline: &Pipeline,
    author: &Author,
    target: Target,
    write: W,
) -> Result<Changed, ApiError>
where
    W: FnOnce(&Editor) -> Result<Saved, ApiError> + Send + 'static,
{
    let (changing, author) = (pipeline.clone(), author.clone());
    one_at_a_time(pipeline, move || changing.change(&author, &target, write)).await
}

/// Runs a change's `work` on the blocking pool once the changes before it are done. They
/// wait their turn here, not each on a blocking thread held while it waits for the build
/// lock: a burst of saves or uploads leaves the panel's reads the threads of its one worker.
pub async fn one_at_a_time<T, F>(pipeline: &Pipeline, work: F) -> Result<T, ApiError>
where
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    let _turn = pipeline.site.changing.acquire().await.map_err(|_| {
        ApiError::status(
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            "Serwer kończy pracę; zmiana nie została zapisana.",
        )
    })?;
    crate::tasks::block(work).await?
}

/// Runs `work` on the blocking pool with what the pipeline works with: the reads a change
/// needs before or after it (the files, the history).
pub async fn read<T, F>(pipeline: &Pipeline, work: F) -> Result<T, ApiError>
where
    F: FnOnce(&Pipeline) -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    let pipeline = pipeline.clone();
    crate::tasks::block(move || work(&pipeline)).await?
}

impl Pipeline {
    /// [`apply`]'s work, on the thread that may block.
    fn change(
        &self,
        author: &Author,
        target: &Target,
        write: impl FnOnce(&Editor) -> Result<Saved, ApiError>,
    ) -> Result<Changed, ApiError> {
        let started = Instant::now();
        let mut builder = self.site.builder();
        let (previous, saved, version) = match write(&self.site.editor)? {
            Saved::NotFound => return Err(ChangeError::NotFound.into()),
            Saved::Conflict { .. } => return Err(ChangeError::Conflict.into()),
            Saved::Written {
                previous,
                saved,
                version,
            } => (previous, saved, version),
        };
        let file = &target.file;
        let written = Written {
            path: file.clone(),
            text: saved.clone(),
        };
        let removed = [file.clone()];
        let changes = match target.action {
            Action::Delete => Changes::Only(&removed),
            _ => Changes::Written(&written),
        };
        let published = match self.site.rebuild_with(&mut builder, changes) {
            Ok(published) => published,
            Err(e) => {
                put_back(self, &mut builder, target, &previous);
                return Err(refusal(self, target, &saved, &e).into());
            }
        };
        let key = target.tracked.key();
        let mut warnings: Vec<String> = Vec::new();
        if !published.held.is_empty() {
            warnings.push(crate::serve::launch::held_warning(&published.held));
        }
        let subject = target.tracked.subject();
        let texts = (previous.as_str(), saved.as_str());
        let given = target.summary.as_deref();
        let message = message::describe(subject, target.action, texts, given);
        warnings.extend(commit(self, file, &author.email, &message));
        drop(builder);
        let ms = started.elapsed().as_millis() as u64;
        let summary = match given {
            Some(what) => what.to_string(),
            None => message::summary(subject, target.action, &previous, &saved),
        };
        let (action, who) = (target.action, author.email.as_str());
        self.db
            .insert_revision_as(&key, who, texts, self.clock.now(), action, &summary)
            .map_err(ChangeError::from)?;
        self.db.delete_draft(&key).map_err(ChangeError::from)?;
        self.accounts.audit(target.event, who, &author.client, &key);
        tracing::info!(doc = %key, action = ?target.action, author = who, ms, "change saved and published");
        let page = match (target.tracked.page(), target.action) {
            (Some(id), Action::Save | Action::Create | Action::Restore)
                if Kind::EDITABLE.contains(&id.kind) =>
            {
                Some(Editable::of(id.clone(), file, &saved, self.clock.now())?)
            }
            _ => None,
        };
        Ok(Changed {
            version,
            warning: (!warnings.is_empty()).then(|| warnings.join(" ")),
            publish_ms: ms,
            page,
            publishing: self.site.publishing.status(),
            published: published.held.is_empty(),
        })
    }
}

/// Commits a change the panel made to `file` when `CONTENT_GIT_COMMIT` or `GIT_REMOTE` asks
/// for it, and has the sync thread push it; a warning in Polish when it could not. The
/// caller holds the build lock: the sync thread applies editors' commits under it, so it
/// never sees a change written but not committed.
pub fn commit(pipeline: &Pipeline, file: &Path, author: &str, message: &str) -> Option<String> {
    if !pipeline.site.content_git_commit && pipeline.git.is_none() {
        return None;
    }
    let content_dir = &pipeline.site.project.content_dir;
    let warning = contentsync::commit::commit_file(content_dir, file, author, message);
    if let (None, Some(git)) = (&warning, &pipeline.git) {
        git.committed();
    }
    warning
}
