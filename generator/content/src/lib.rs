//! The content of the practice's site and what reading it means: the documents of `content/`
//! (pages, services, articles, team profiles) with their ids, kinds and routes, their front
//! matter and sections, `site.yaml` and the price list; dates and what is public when; and the
//! checks of the content that need neither rendered pages nor encoded images.
//!
//! It may use serde, `serde_yaml` (in `yaml.rs` only: every YAML parse and edit is there, so
//! the parser can be swapped), pulldown-cmark to read (never to render) Markdown, regex,
//! sha2 and foldhash (the maps kept between builds, `maps.rs`). It never uses the `site`, `editing` or `sidecar` crates: they build on this one.

use std::path::Path;

pub mod aliases;
pub mod beneath;
pub mod booking;
pub mod conflicts;
pub mod contact;
pub mod crisis;
pub mod dates;
pub mod encoding;
mod error;
pub mod facts;
pub mod fields;
pub mod footer;
pub mod frontmatter;
pub mod holidays;
pub mod identity;
pub mod images;
pub mod kind;
pub mod legal_dates;
pub mod limits;
pub mod linking;
pub mod load;
pub mod maps;
pub mod markdown;
pub mod measurement;
pub mod model;
pub mod named;
pub mod pattern;
pub mod polish;
pub mod prices;
pub mod problem;
pub mod providers;
pub mod qualifications;
pub mod schedule;
pub mod sections;
pub mod security_txt;
pub mod shared_text;
mod style;
pub mod titles;
pub mod validate;
pub mod walk;
pub mod wording;
pub mod yaml;

pub use error::{Diagnostic, Error, Result};
pub use kind::{DocId, Kind};
pub use model::{Content, Document, SiteConfig};
pub use pattern::constant_regex;
pub use problem::Problem;
pub use schedule::Clock;
pub use sections::Section;

/// Loads and validates everything under `content_dir`; fails with every problem found.
pub fn load(content_dir: &Path) -> Result<Content> {
    load::Loader::default().load(content_dir, load::Changes::Unknown)
}
