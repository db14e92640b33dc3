//! A version from the history put back: any text a tracked file had — what a revision saved,
//! or what it replaced — becomes the file's text again, as a change of its own (so a restore
//! can be undone from the same history).

use serde::{Deserialize, Serialize};

use crate::changes::{apply, ChangeError, Changed, Target, Tracked};
use crate::db::Action;
use crate::state::AppState;

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
    pub fn target(&self, state: &AppState) -> Result<Target, ChangeError> {
        let tracked = Tracked::parse(&self.doc).ok_or(ChangeError::NotFound)?;
        Target::new(&state.site.editor, tracked, Action::Save)
    }

    /// The version's text; refused when there is none (a deletion's side).
    pub fn text(&self, state: &AppState) -> Result<String, ChangeError> {
        let key = Tracked::parse(&self.doc)
            .ok_or(ChangeError::NotFound)?
            .key();
        let texts = state
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
pub fn current(state: &AppState, target: &Target) -> String {
    state
        .site
        .editor
        .root()
        .read_to_string(&target.file)
        .unwrap_or_default()
}

/// Puts the version `at` back, if the file is still at `version` and is not that text
/// already.
pub fn restore(
    state: &AppState,
    author: &str,
    at: &At,
    version: &str,
) -> Result<Changed, ChangeError> {
    let mut target = at.target(state)?;
    let text = at.text(state)?;
    if text == current(state, &target) {
        return Err(ChangeError::Unchanged);
    }
    target.summary = Some(summary(state, at, &target)?);
    let root = state.site.editor.root();
    apply(state, &target, author, || {
        editing::replace_file(&root, &target.file, version, |_| Ok(text))
    })
}

/// What a restore is, in the history's words: the version put back by its date
/// ('przywrócono wersję z 12.11.2026 18:03'), or the undoing of a restore just made.
fn summary(state: &AppState, at: &At, target: &Target) -> Result<String, ChangeError> {
    let key = target.tracked.key();
    let revision = state
        .db
        .revision(&key, at.revision)?
        .ok_or(ChangeError::NoVersion)?;
    let was_restore = revision
        .summary
        .as_deref()
        .is_some_and(|s| s.starts_with(RESTORED));
    Ok(match at.side {
        Side::Before if was_restore => UNDONE.to_string(),
        Side::Before => format!("{RESTORED} sprzed zmiany z {}", when(revision.saved_at)),
        Side::After => format!("{RESTORED} z {}", when(revision.saved_at)),
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
