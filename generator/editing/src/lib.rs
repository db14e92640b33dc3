//! Editing: the admin panel's changes to the content files. Every page, service and article
//! is an editable document whose sections and settings a save rewrites in place (every other
//! line, comment and key order stays); the price list and the practice's facts are edited
//! line by line; articles are created and deleted. Every write is atomic and refused when the
//! file changed since the panel read it.
//!
//! It may use the `content` crate (ids, front matter, YAML, sections, the rules of the facts)
//! and nothing that renders: never the `site` or `sidecar` crates.

use std::path::{Path, PathBuf};

use content::beneath::Root;

pub mod data;
pub mod edit;
mod error;
pub mod team;
mod transaction;

pub use error::{Error, Result};
pub use transaction::{replace_file, write_atomic, Saved};

/// The content folder the panel edits: every change to a content file goes through it.
#[derive(Debug, Clone)]
pub struct Editor {
    pub content_dir: PathBuf,
}

impl Editor {
    pub fn new(content_dir: impl Into<PathBuf>) -> Self {
        Self {
            content_dir: content_dir.into(),
        }
    }

    /// `content/`, which every read and write of the panel stays beneath.
    pub fn root(&self) -> Root {
        Root::new(&self.content_dir)
    }

    /// The text of the content file `path`, never read through a link.
    pub(crate) fn read(&self, path: &Path) -> Result<String> {
        self.root()
            .read_to_string(path)
            .map_err(|e| Error::read(path, e))
    }

    /// Whether `path` is a content file (a link is none).
    pub fn is_file(&self, path: &Path) -> bool {
        self.root().is_file(path)
    }

    /// The visible files of the kind folder `folder`, links left out.
    pub(crate) fn files_of(&self, folder: &str) -> Result<Vec<content::walk::Found>> {
        let dir = self.content_dir.join(folder);
        Ok(content::walk::files(&self.content_dir, &dir)?)
    }
}
