//! The site generator: loads `content/`, validates it, renders it through `templates/` and
//! publishes the result atomically. The `site` CLI and the sidecar both call these functions.

pub mod dates;
pub mod edit;
pub mod error;
pub mod facts;
pub mod frontmatter;
pub mod headers;
pub mod images;
pub mod islands;
pub mod load;
pub mod markdown;
pub mod model;
pub mod publish;
pub mod render;
pub mod sections;
pub mod seo;
pub mod style;
pub mod validate;
pub mod views;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use error::{Diagnostic, Error, Result};
pub use model::Content;
pub use render::{ExtraPage, Output};

/// Where a project keeps its sources: `content/` and `templates/` under one root.
#[derive(Debug, Clone)]
pub struct Project {
    pub content_dir: PathBuf,
    pub templates_dir: PathBuf,
    /// The output of `islands/build.mjs`: browser bundles, SSR bundle, manifest.
    pub islands_dir: PathBuf,
}

impl Project {
    pub fn at(root: &Path) -> Self {
        Self {
            content_dir: root.join("content"),
            templates_dir: root.join("templates"),
            islands_dir: root.join("islands").join("build"),
        }
    }
}

/// Loads and validates the content; fails with every problem found.
pub fn load(project: &Project) -> Result<Content> {
    let (raw, mut problems) = load::load(&project.content_dir);
    if let Some(raw) = &raw {
        problems.extend(validate::validate(raw));
    }
    problems.sort();
    match raw {
        Some(raw) if problems.is_empty() => Ok(raw.content),
        _ => Err(Error::Content(problems)),
    }
}

/// Loads, validates and renders everything in memory, writing nothing.
pub fn check(project: &Project) -> Result<Vec<Output>> {
    render_all(project).map(|(outputs, _)| outputs)
}

fn render_all(project: &Project) -> Result<(Vec<Output>, islands::SsrStats)> {
    let content = load(project)?;
    let islands = islands::Islands::load(&project.islands_dir)?;
    render::render_site(&content, &project.templates_dir, &islands)
}

/// Renders one page on request, with its islands prerendered and never cached.
pub fn render_extra(project: &Project, page: &ExtraPage<'_>) -> Result<String> {
    let content = load(project)?;
    let islands = islands::Islands::load_uncached(&project.islands_dir)?;
    render::render_extra(&content, &project.templates_dir, &islands, page)
}

#[derive(Debug, Clone)]
pub struct BuildReport {
    pub files: usize,
    pub pages: usize,
    /// Pages rendered by this build; the others were unchanged and reused.
    pub rendered: usize,
    pub bytes: usize,
    pub elapsed: Duration,
    pub build_dir: PathBuf,
    pub ssr: islands::SsrStats,
    pub phases: Phases,
}

/// Where a build's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Phases {
    /// Reading, parsing and validating `content/`.
    pub load: Duration,
    /// Rendering the pages that changed, and the rest of the outputs.
    pub render: Duration,
    /// Writing (or linking) the new build and swapping it in.
    pub publish: Duration,
}

/// Builds the whole site and publishes it at `out`; on any error `out` is left untouched.
pub fn build(project: &Project, out: &Path) -> Result<BuildReport> {
    Builder::new(project.clone()).build(out)
}

/// Builds again and again (the sidecar after each save, `make dev` after each change): only
/// outputs whose inputs changed are rendered, and unchanged files are linked, not rewritten.
pub struct Builder {
    project: Project,
    memo: render::Memo,
}

impl Builder {
    pub fn new(project: Project) -> Self {
        Self {
            project,
            memo: render::Memo::default(),
        }
    }

    /// Renders everything in memory, reusing what did not change since the last build.
    pub fn render(&mut self) -> Result<render::Rendered> {
        self.render_timed().map(|(rendered, _)| rendered)
    }

    /// Like [`Builder::render`], with the time spent loading and validating, and rendering.
    fn render_timed(&mut self) -> Result<(render::Rendered, [Duration; 2])> {
        let started = Instant::now();
        let content = load(&self.project)?;
        let loaded = started.elapsed();
        let islands = islands::Islands::load(&self.project.islands_dir)?;
        let rendered =
            render::render_with_memo(&content, &self.project.templates_dir, &islands, &self.memo)?;
        self.memo = rendered.memo.clone();
        Ok((rendered, [loaded, started.elapsed() - loaded]))
    }

    /// Builds and publishes at `out`; on any error `out` is left as it was.
    pub fn build(&mut self, out: &Path) -> Result<BuildReport> {
        let started = Instant::now();
        let previous = self.memo.clone();
        let (rendered, [load_time, render_time]) = match self.render_timed() {
            Ok(r) => r,
            Err(e) => {
                self.memo = previous;
                return Err(e);
            }
        };
        let reuse = |path: &str| previous.contains(path) && !rendered.fresh.contains(path);
        let publish_started = Instant::now();
        let build_dir = publish::publish_reusing(out, &rendered.outputs, &reuse)?;
        let phases = Phases {
            load: load_time,
            render: render_time,
            publish: publish_started.elapsed(),
        };
        let report = BuildReport {
            files: rendered.outputs.len(),
            pages: rendered
                .outputs
                .iter()
                .filter(|o| o.path.ends_with(".html"))
                .count(),
            rendered: rendered.fresh.len(),
            bytes: rendered.outputs.iter().map(|o| o.bytes.len()).sum(),
            elapsed: started.elapsed(),
            build_dir,
            ssr: rendered.stats,
            phases,
        };
        tracing::info!(
            files = report.files,
            rendered = report.rendered,
            ms = report.elapsed.as_millis() as u64,
            "site built"
        );
        Ok(report)
    }
}
