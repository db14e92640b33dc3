//! A version from the history put back: any text a tracked file had — what a revision saved,
//! or what it replaced — becomes the file's text again, as a change of its own (so a restore
//! can be undone from the same history).

use serde::{Deserialize, Serialize};

use crate::audit::Content;
use crate::changes::{apply, read, ChangeError, Changed, Pipeline, Target, Tracked};
use crate::db::Action;
use crate::error::ApiError;
use crate::http::admin::Author;

/// Which text of a revision a version is: the one it saved, or the one it replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    After,
    Before,
}

/// One version of a tracked file: `revision`'s text on `side`, of the file `doc` names.
#[derive(Debug, Clone, Deserialize)]
pub struct At {
    pub doc: String,
    pub revision: i64,
    pub side: Side,
}

impl At {
    /// What `revision` of `doc` saved.
    pub fn after(doc: String, revision: i64) -> Self {
        At {
            doc,
            revision,
            side: Side::After,
        }
    }

    /// The file this version is of.
    pub fn target(&self, pipeline: &Pipeline) -> Result<Target, ChangeError> {
        let tracked = Tracked::parse(&self.doc).ok_or(ChangeError::NotFound)?;
        Target::new(&pipeline.site.editor, tracked, Action::Save)
    }

    /// The version's text; refused when there is none (a deletion's side).
    pub fn text(&self, pipeline: &Pipeline) -> Result<String, ChangeError> {
        let key = Tracked::parse(&self.doc)
            .ok_or(ChangeError::NotFound)?
            .key();
        let texts = pipeline
            .db
            .revision_texts(&key, self.revision)?
            .ok_or(ChangeError::NoVersion)?;
        let text = match self.side {
            Side::After => texts.after,
            Side::Before => texts.before,
        };
        match text.is_empty() {
            true => Err(ChangeError::Deletion),
            false => Ok(text),
        }
    }
}

/// The file's text now; empty when it is gone (a deleted article).
pub fn current(pipeline: &Pipeline, target: &Target) -> String {
    pipeline
        .site
        .editor
        .root()
        .read_to_string(&target.file)
        .unwrap_or_default()
}

/// Puts the version `at` back, if the file is still at `version` and is not that text
/// already: a change of its own, logged as a version restored (or a restore undone).
pub async fn restore(
    pipeline: &Pipeline,
    author: &Author,
    at: At,
    version: String,
) -> Result<Changed, ApiError> {
    let (target, text) = read(pipeline, move |pipeline| {
        let mut target = at.target(pipeline)?;
        let text = at.text(pipeline)?;
        if text == current(pipeline, &target) {
            return Err(ChangeError::Unchanged.into());
        }
        let (summary, event) = summary(pipeline, &at, &target)?;
        target.summary = Some(summary);
        target.event = event;
        Ok((target, text))
    })
    .await?;
    let file = target.file.clone();
    apply(pipeline, author, target, move |editor| {
        Ok(editing::replace_file(
            &editor.root(),
            &file,
            &version,
            |_| Ok(text),
        )?)
    })
    .await
}

/// What a restore is, in the history's words — the version put back by its date
/// ('przywrócono wersję z 12.11.2026 18:03'), or the undoing of a restore just made — and
/// its event in the audit log.
fn summary(
    pipeline: &Pipeline,
    at: &At,
    target: &Target,
) -> Result<(String, Content), ChangeError> {
    let key = target.tracked.key();
    let revision = pipeline
        .db
        .revision(&key, at.revision)?
        .ok_or(ChangeError::NoVersion)?;
    let was_restore = revision
        .summary
        .as_deref()
        .is_some_and(|s| s.starts_with(RESTORED));
    let restored = Content::VersionRestored;
    Ok(match at.side {
        Side::Before if was_restore => (UNDONE.to_string(), Content::RestoreUndone),
        Side::Before => (
            format!("{RESTORED} sprzed zmiany z {}", when(revision.saved_at)),
            restored,
        ),
        Side::After => (
            format!("{RESTORED} z {}", when(revision.saved_at)),
            restored,
        ),
    })
}

/// How a restore's summary starts.
const RESTORED: &str = "przywrócono wersję";
/// The summary of a restore undone.
const UNDONE: &str = "cofnięto przywrócenie";

/// A moment as the panel writes it, in Warsaw: `12.11.2026 18:03`.
fn when(unix: i64) -> String {
    let (date, seconds) = content::dates::warsaw(unix);
    format!(
        "{:02}.{:02}.{} {:02}:{:02}",
        date.day,
        date.month,
        date.year,
        seconds / 3600,
        seconds % 3600 / 60
    )
}
