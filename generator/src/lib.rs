//! The site generator: loads `content/`, validates it, renders it through `templates/` and
//! publishes the result atomically. The `site` CLI and the sidecar both call these functions.

mod assets;
mod data;
mod dates;
mod edit;
mod encoding;
mod error;
mod facts;
mod frontmatter;
mod headers;
mod images;
mod incremental;
mod islands;
mod kind;
mod load;
mod markdown;
mod model;
mod output;
mod polish;
mod publish;
mod render;
mod schedule;
mod sections;
mod seo;
mod style;
mod templates;
mod validate;
mod views;
mod walk;
mod yaml;

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use data::{
    check_facts, check_prices, FactsEditable, Hours, NoticeFacts, PracticeFacts, PriceRow, Prices,
    ServiceLink,
};
pub use edit::{
    check_sections, check_settings, write_atomic, Created, Editable, EditableContent, Saved,
    Settings, SETTINGS_MAX_CHARS,
};
pub use encoding::{hex, script_json};
pub use error::{Diagnostic, Error, Result};
pub use headers::{headers_for, HeaderRule};
pub use islands::{node_binary, SsrStats};
pub use kind::{is_slug, slugify, DocId, Kind, SLUG_MAX_CHARS};
pub use markdown::{plain_text, typeset};
pub use model::{
    Address, ArticleMeta, Content, Cookie, CookieCategory, Document, PageMeta, PriceItem,
    PriceList, ServiceMeta, SiteConfig, TeamMeta,
};
pub use output::{route_file, Output};
pub use polish::section_at;
pub use render::{ExtraPage, Preview, Renderer, PREVIEW_MARK, PREVIEW_PROBLEMS};
pub use schedule::{today, warsaw_time, Clock, Status};
pub use sections::Section;

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
    load::Loader::default().load(&project.content_dir)
}

/// Loads, validates and renders everything in memory, writing nothing.
pub fn check(project: &Project) -> Result<Vec<Output>> {
    Builder::new(project.clone()).render().map(|b| b.outputs)
}

/// Builds the whole site and publishes it at `out`; on any error `out` is left untouched.
pub fn build(project: &Project, out: &Path) -> Result<BuildReport> {
    Builder::new(project.clone()).build(out)
}

/// Where a build's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Phases {
    /// Reading, parsing and validating `content/` (only what changed is read again).
    pub load: Duration,
    /// Rendering the pages that changed, the islands, the search files and the headers.
    pub render: Duration,
    /// Writing (or linking) the new build and swapping it in.
    pub publish: Duration,
}

/// A rendered site, in memory: every file, and the headers every answer carries.
#[derive(Clone)]
pub struct Build {
    pub outputs: Vec<Output>,
    /// The headers of `_headers`, by path, for a server that serves this build itself.
    pub headers: Vec<HeaderRule>,
    /// The pages rendered this time; the others were unchanged and reused.
    pub rendered: usize,
    pub ssr: SsrStats,
    pub phases: Phases,
    /// What renders pages on request (the answer to a form sent without JavaScript) with
    /// this build's templates and content.
    pub renderer: Arc<Renderer>,
    /// The moment this build was made for, and the next one at which the public site
    /// changes by itself (a scheduled article's time, a notice's start or end): build again
    /// then.
    pub now: i64,
    pub next_change: Option<i64>,
}

impl Build {
    pub fn pages(&self) -> usize {
        self.outputs.iter().filter(|o| o.is_page()).count()
    }
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
    pub ssr: SsrStats,
    pub phases: Phases,
    pub headers: Vec<HeaderRule>,
}

/// Builds again and again (the sidecar after each save, `make dev` after each change): only
/// files that changed are read, only pages whose inputs changed are rendered, and only
/// changed files are written when publishing.
pub struct Builder {
    project: Project,
    loader: load::Loader,
    cards: views::CardCache,
    memo: incremental::Memo,
    script_sets: incremental::HashSets,
    git: seo::GitDates,
    publisher: publish::Publisher,
    clock: Clock,
}

impl Builder {
    pub fn new(project: Project) -> Self {
        Self {
            clock: Clock::System,
            project,
            loader: load::Loader::default(),
            cards: views::CardCache::default(),
            memo: incremental::Memo::default(),
            script_sets: incremental::HashSets::default(),
            git: seo::GitDates::default(),
            publisher: publish::Publisher::default(),
        }
    }

    pub fn project(&self) -> &Project {
        &self.project
    }

    /// Where builds take "now" from: what is public depends on it (scheduled articles, the
    /// notice), nothing else does.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Renders everything in memory, reusing what did not change since the last render.
    pub fn render(&mut self) -> Result<Build> {
        let started = Instant::now();
        let now = self.clock.now();
        let loaded = self.loader.load(&self.project.content_dir)?;
        let (public, next_change) = schedule::public_at(loaded, now)?;
        let content = Arc::new(public);
        let load_time = started.elapsed();
        let islands = islands::Islands::load(&self.project.islands_dir)?;
        let (renderer, mut outputs) = Renderer::prepare(
            Arc::clone(&content),
            &self.project.templates_dir,
            &islands,
            &mut self.cards,
        )?;
        let (pages, rendered, ssr) = self.render_pages(&renderer, &islands)?;
        outputs.extend(pages);
        let dates = self.git.refresh(&content.root);
        outputs.extend(search_files(&content, &renderer, dates));
        let headers = self.header_rules(&content);
        outputs.push(Output::new(headers::FILE, headers::headers_file(&headers)));
        outputs.sort_by(|a, b| a.path.cmp(&b.path));
        let phases = Phases {
            load: load_time,
            render: started.elapsed() - load_time,
            publish: Duration::ZERO,
        };
        Ok(Build {
            outputs,
            headers,
            rendered,
            ssr,
            phases,
            renderer: Arc::new(renderer),
            now,
            next_change,
        })
    }

    /// The security headers of every path, and the admin panel's stricter policy.
    fn header_rules(&self, content: &Content) -> Vec<HeaderRule> {
        let admin: Vec<&str> = content
            .pages
            .iter()
            .filter(|p| p.meta.template == "admin")
            .filter_map(|p| p.route.as_deref())
            .collect();
        let admin_files: Vec<String> = admin.iter().map(|r| route_file(r)).collect();
        let site = headers::security_headers(&content.site, &self.memo.script_hashes(&admin_files));
        let mut rules = vec![HeaderRule {
            pattern: "/*".into(),
            headers: site,
        }];
        for (route, file) in admin.iter().zip(&admin_files) {
            let csp = headers::admin_content_security_policy(&self.memo.script_hashes_of(file));
            rules.push(HeaderRule {
                pattern: route.to_string(),
                headers: vec![("Content-Security-Policy".into(), csp)],
            });
        }
        rules
    }

    /// The pages: from the memo where their fingerprint is unchanged, the others rendered in
    /// parallel and their islands prerendered. The memo then holds exactly these pages.
    fn render_pages(
        &mut self,
        renderer: &Renderer,
        islands: &islands::Islands,
    ) -> Result<(Vec<Output>, usize, SsrStats)> {
        let jobs: Vec<(render::Job, String, [u8; 32])> = renderer
            .jobs()
            .into_iter()
            .map(|job| {
                let fingerprint = renderer.fingerprint(&job);
                (job.clone(), job.path(), fingerprint)
            })
            .collect();
        let mut pages = Vec::with_capacity(jobs.len());
        let mut next = incremental::Memo::default();
        let mut to_render = Vec::new();
        for (job, path, fingerprint) in jobs {
            match self.memo.get(&path, &fingerprint) {
                Some(entry) => {
                    pages.push(entry.output(&path));
                    next.insert(path, entry.clone());
                }
                None => to_render.push((job, path, fingerprint)),
            }
        }
        let mut fresh: Vec<Output> = to_render
            .par_iter()
            .map(|(job, path, fingerprint)| {
                renderer.render(job).map(|bytes| Output {
                    path: path.clone(),
                    bytes,
                    fingerprint: *fingerprint,
                })
            })
            .collect::<Result<_>>()?;
        let ssr = islands.finish(&mut fresh)?;
        let rendered = fresh.len();
        for page in fresh {
            let hashes = self
                .script_sets
                .intern(headers::inline_script_hashes(&page.bytes));
            let entry = incremental::Entry {
                fingerprint: page.fingerprint,
                bytes: page.bytes.clone(),
                script_hashes: hashes,
            };
            next.insert(page.path.clone(), entry);
            pages.push(page);
        }
        self.memo = next;
        Ok((pages, rendered, ssr))
    }

    /// Publishes a rendered build at `out`, linking the files the live build already holds.
    pub fn publish(&mut self, out: &Path, build: &Build) -> Result<PathBuf> {
        self.publisher.publish(out, &build.outputs)
    }

    /// Renders and publishes at `out`; on any error `out` is left as it was.
    pub fn build(&mut self, out: &Path) -> Result<BuildReport> {
        let started = Instant::now();
        let build = self.render()?;
        let publish_started = Instant::now();
        let build_dir = self.publish(out, &build)?;
        let report = BuildReport {
            files: build.outputs.len(),
            pages: build.pages(),
            rendered: build.rendered,
            bytes: build.outputs.iter().map(|o| o.bytes.len()).sum(),
            elapsed: started.elapsed(),
            build_dir,
            ssr: build.ssr,
            phases: Phases {
                publish: publish_started.elapsed(),
                ..build.phases
            },
            headers: build.headers,
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

/// The sitemap, robots.txt and the blog's feed.
fn search_files(
    content: &Content,
    renderer: &Renderer,
    git_dates: &std::collections::HashMap<PathBuf, String>,
) -> Vec<Output> {
    let site = &content.site;
    vec![
        Output::new("sitemap.xml", seo::sitemap(content, git_dates)),
        Output::new("robots.txt", seo::robots(site)),
        Output::new(
            "blog/atom.xml",
            seo::atom_feed(site, &renderer.collections().articles),
        ),
    ]
}
