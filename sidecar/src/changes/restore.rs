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
    let target = at.target(state)?;
    let text = at.text(state)?;
    if text == current(state, &target) {
        return Err(ChangeError::Unchanged);
    }
    let root = state.site.editor.root();
    apply(state, &target, author, || {
        editing::replace_file(&root, &target.file, version, |_| Ok(text))
    })
}
