//! The site: turns the content into the published site — views of the documents, Markdown
//! to HTML, Tera templates, React islands prerendered with node, responsive images, the
//! sitemap and feed, the security headers and the edge's rules, and the atomic publish. A
//! [`Builder`] renders again and again, only what changed; the `site` command line and the
//! sidecar both use it.
//!
//! It may use the `content` crate (the model, its loading and checks) and the libraries of
//! rendering (tera, pulldown-cmark, ammonia, html5ever for the publish gate, image and its
//! encoders, rayon). It never uses the `editing` or `sidecar` crates.

mod assets;
pub mod edge;
mod error;
pub mod gate;
pub mod headers;
mod image_findings;
pub mod images;
mod incremental;
pub mod islands;
pub mod markdown;
mod output;
mod page_gate;
mod publish;
pub mod render;
mod security_txt;
mod seo;
mod structured;
mod templates;
mod views;

use content::schedule::{self, Clock};
use content::Content;
use content::Diagnostic;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use content::encoding::hex;
use edge::Redirect;
use headers::HeaderRule;
use images::ImageStats;
use islands::SsrStats;
use render::Renderer;

pub use error::{polish_line, Error, Result};
pub use output::{route_file, Output};
pub use publish::{Pin, Pins};

/// Where a project keeps its sources: `content/` and `templates/` under one root.
#[derive(Debug, Clone)]
pub struct Project {
    pub content_dir: PathBuf,
    pub templates_dir: PathBuf,
    /// The output of `islands/build.mjs`: browser bundles, SSR bundle, manifest.
    pub islands_dir: PathBuf,
    /// Encoded image variants kept between builds: `IMAGE_CACHE_DIR`, or `ROOT/.cache/images`.
    pub image_cache: PathBuf,
    /// Prerendered islands kept between builds: `SSR_CACHE_DIR`, or `islands_dir/ssr-cache`.
    pub ssr_cache: PathBuf,
}

impl Project {
    pub fn at(root: &Path) -> Self {
        let islands_dir = root.join("islands").join("build");
        Self {
            content_dir: root.join("content"),
            templates_dir: root.join("templates"),
            ssr_cache: islands::default_cache_dir(&islands_dir),
            islands_dir,
            image_cache: images::default_cache_dir(root),
        }
    }
}

/// Loads and validates the content; fails with every problem found.
pub fn load(project: &Project) -> Result<Content> {
    Ok(content::load(&project.content_dir)?)
}

/// Loads, validates and renders everything in memory, writing nothing; returns the files
/// a publish would write (the panel's pages are rendered too, but never published).
pub fn check(project: &Project) -> Result<Vec<Output>> {
    Builder::new(project.clone())
        .once()
        .render()
        .map(|b| b.outputs)
}

/// Builds the whole site and publishes it at `out`; on any error `out` is left untouched.
pub fn build(project: &Project, out: &Path) -> Result<BuildReport> {
    Builder::new(project.clone()).once().build(out)
}

/// Where a build's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Phases {
    /// Reading and parsing `content/` (only what changed is read again); the checks across
    /// files run beside the render.
    pub load: Duration,
    /// Rendering the pages that changed, the islands, the search files and the headers.
    pub render: Duration,
    /// Writing (or linking) the new build and swapping it in.
    pub publish: Duration,
    /// The publish gate's part of `render`: checking the pages rendered this time.
    pub gate: Duration,
}

/// The file of a build that holds its id (hidden, like `_headers`).
pub const BUILD_ID_FILE: &str = "_build";

/// What identifies a build: a hash of every file's path and fingerprint, so two builds of
/// the same sources have the same id.
fn build_id<'a>(outputs: impl Iterator<Item = &'a Output>) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for output in outputs {
        hasher.update(output.path.as_bytes());
        hasher.update([0]);
        hasher.update(output.fingerprint);
    }
    hex(&hasher.finalize()[..8])
}

/// A rendered site, in memory: every file, and the headers every answer carries.
#[derive(Clone)]
pub struct Build {
    /// What identifies this build (also its file `_build`): equal for equal sources.
    pub id: String,
    /// The public site: what is published to `dist/` (and from there to an edge).
    pub outputs: Vec<Output>,
    /// The headers of `_headers`, by path, for a server that serves this build itself.
    pub headers: Vec<HeaderRule>,
    /// The admin panel's pages (`template: admin`): served only on the panel's own origin,
    /// never published with the public site.
    pub panel: Vec<Output>,
    /// The headers of every answer of the panel's origin, by path.
    pub panel_headers: Vec<HeaderRule>,
    /// The old addresses of documents (`aliases:`), answered with 301.
    pub redirects: Vec<Redirect>,
    /// The pages rendered this time; the others were unchanged and reused.
    pub rendered: usize,
    /// The rendered pages the publish gate read: not those rendered to the bytes it passed last time.
    pub gated: usize,
    pub ssr: SsrStats,
    /// The images, and how many variants this build had to encode.
    pub images: ImageStats,
    /// Photographs shown as they are because their variants were left for
    /// [`images::prepare`] (`images::Encoding::Deferred`), by path under `content/images/`.
    pub pending_images: Vec<String>,
    /// Problems that do not stop the build (an image too small for where it is shown).
    pub warnings: Vec<Diagnostic>,
    pub phases: Phases,
    /// What renders pages on request (the answer to a form sent without JavaScript) with
    /// this build's templates and content.
    pub renderer: Arc<Renderer>,
    /// The moment this build was made for, and the next one at which the public site
    /// changes by itself (a scheduled article's time, a notice's start or end): build again
    /// then.
    pub now: i64,
    pub next_change: Option<i64>,
    /// When a file that follows the calendar alone changes (the `Expires` of
    /// `security.txt`, monthly): build again then, though no content changes.
    pub renew_at: i64,
}

impl Build {
    /// The pages rendered for this build: the public site's and the panel's.
    pub fn pages(&self) -> usize {
        self.outputs
            .iter()
            .chain(&self.panel)
            .filter(|o| o.is_page())
            .count()
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
    /// The images, and how many variants this build had to encode.
    pub images: ImageStats,
    /// Problems that do not stop the build, each with its file and line.
    pub warnings: Vec<Diagnostic>,
    pub phases: Phases,
    pub headers: Vec<HeaderRule>,
}

impl BuildReport {
    /// The report of `build`, published into `build_dir`; `elapsed` is the whole build's
    /// time, `publish` the part of it spent publishing.
    pub fn new(build: &Build, build_dir: PathBuf, elapsed: Duration, publish: Duration) -> Self {
        BuildReport {
            files: build.outputs.len(),
            pages: build.pages(),
            rendered: build.rendered,
            bytes: build.outputs.iter().map(|o| o.bytes.len()).sum(),
            elapsed,
            build_dir,
            ssr: build.ssr,
            images: build.images,
            warnings: build.warnings.clone(),
            phases: Phases {
                publish,
                ..build.phases
            },
            headers: build.headers.clone(),
        }
    }
}

/// Builds again and again (the sidecar after each save, `make dev` after each change): only
/// files that changed are read, only pages whose inputs changed are rendered, and only
/// changed files are written when publishing.
pub struct Builder {
    project: Project,
    loader: content::load::Loader,
    caches: render::Caches,
    images: images::Memo,
    memo: incremental::Memo,
    git: seo::GitDates,
    publisher: publish::Publisher,
    /// Where the edge proxies `/api/*` (`_redirects`); none: not proxied.
    api_origin: Option<String>,
    /// The panel's own origin, where the edge sends the panel's address; none: not sent.
    admin_origin: Option<String>,
    /// How visits are measured: the operator's `STATS` and `ANALYTICS_ID`.
    measurement: content::measurement::Measurement,
    clock: Clock,
    encoding: images::Encoding,
    /// How long the last render's publish gate took, and how many pages it read.
    gate_time: Duration,
    gated: usize,
    /// Whether what only a next render reuses is kept (not by [`Builder::once`]).
    keeps: bool,
}

impl Builder {
    pub fn new(project: Project) -> Self {
        Self {
            clock: Clock::system(),
            project,
            loader: content::load::Loader::default(),
            caches: render::Caches::default(),
            images: images::Memo::default(),
            memo: incremental::Memo::default(),
            git: seo::GitDates::default(),
            publisher: publish::Publisher::default(),
            api_origin: None,
            admin_origin: None,
            measurement: Default::default(),
            encoding: images::Encoding::Inline,
            gate_time: Duration::ZERO,
            gated: 0,
            keeps: true,
        }
    }

    /// A builder of one build (`site build`, [`build`], [`check`]): it keeps nothing that only a
    /// next render would reuse (the sections' HTML, the memo of pages), so a clean build of
    /// 10,000 articles holds about 35 MiB less.
    pub fn once(mut self) -> Self {
        self.caches = render::Caches::once();
        self.keeps = false;
        self
    }

    /// Leaves the encoding of missing image variants to [`images::prepare`], outside the
    /// build: those photographs are shown as they are until then (`Build::pending_images`).
    pub fn with_deferred_images(mut self) -> Self {
        self.encoding = images::Encoding::Deferred;
        self
    }

    /// Proxies `/api/*` of `_redirects` to `origin` (`https://api.example.pl`), checked by
    /// [`edge::check_origin`].
    pub fn with_api_origin(mut self, origin: Option<String>) -> Self {
        self.api_origin = origin;
        self
    }

    /// Sends the panel's address (`/administratormagda`) of the public site to `origin`
    /// (`https://panel.example.pl`) in `_redirects` and `_nginx.conf`.
    pub fn with_admin_origin(mut self, origin: Option<String>) -> Self {
        self.admin_origin = origin;
        self
    }

    /// Builds the site with the operator's choice of measurement (the site's own statistics,
    /// the analytics tag and so the consent banner): see [`content::measurement`].
    pub fn with_measurement(mut self, measurement: content::measurement::Measurement) -> Self {
        self.measurement = measurement;
        self
    }

    pub fn project(&self) -> &Project {
        &self.project
    }

    /// Where builds take "now" from: what is public depends on it (scheduled articles, the
    /// notice), nothing else does.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Renders everything in memory, reusing what did not change since the last render;
    /// every content file is looked at to find what changed.
    pub fn render(&mut self) -> Result<Build> {
        self.render_with(content::load::Changes::Unknown)
    }

    /// Like [`Builder::render`] when the caller knows exactly which content files changed
    /// (were written, created or removed) since the last render — the sidecar after its own
    /// save, a watcher after its events: the other files are not looked at again. The first
    /// render of a builder always looks at everything.
    pub fn render_changed(&mut self, changed: &[PathBuf]) -> Result<Build> {
        self.render_with(content::load::Changes::Only(changed))
    }

    /// Renders what the content files that changed, as `changes` says, need (see
    /// [`Builder::render_changed`]); a file the caller just wrote is parsed from the text it
    /// holds (`Changes::Written`), not read back.
    pub fn render_changes(&mut self, changes: content::load::Changes<'_>) -> Result<Build> {
        self.render_with(changes)
    }

    /// What pins a published build folder, so that none of this builder's publishes removes
    /// it while something reads it (a CDN sync).
    pub fn pins(&self) -> Pins {
        self.publisher.pins()
    }

    #[tracing::instrument(name = "build", skip_all)]
    fn render_with(&mut self, changes: content::load::Changes<'_>) -> Result<Build> {
        let started = Instant::now();
        let now = self.clock.now();
        // The checks across files run beside the render (`load_then`), which needs every part
        // of the builder but its loader: the loader is taken out of it meanwhile.
        let mut loader = std::mem::take(&mut self.loader);
        let content_dir = self.project.content_dir.clone();
        let loaded = tracing::info_span!("load").in_scope(|| {
            loader.load_then(&content_dir, changes, |content| {
                self.render_loaded(content, now, started)
            })
        });
        self.loader = loader;
        match loaded {
            (_, problems, Some(built)) if problems.is_empty() => built,
            (content, mut problems, _) => {
                if let Some(content) = content {
                    problems.extend(self.later_problems(content, now));
                }
                problems.sort();
                problems.dedup();
                Err(Error::Content(problems))
            }
        }
    }

    /// The render of content that loaded without a problem of its own (the checks across
    /// files may still find some: then this render is not used).
    fn render_loaded(&mut self, loaded: Content, now: i64, started: Instant) -> Result<Build> {
        let load_time = started.elapsed();
        let (mut public, next_change) = schedule::public_at(loaded, now)?;
        public.measurement = self.measurement.clone();
        let content = Arc::new(public);
        let islands = islands::Islands::load(&self.project.islands_dir, &self.project.ssr_cache)?;
        let (catalog, image_files) = tracing::info_span!("images").in_scope(|| {
            images::Catalog::build(
                &self.project.content_dir.join("images"),
                &images::Cache::new(self.project.image_cache.clone()),
                &images::SETTINGS,
                &mut self.images,
                self.encoding,
            )
        })?;
        let image_stats = catalog.stats;
        let pending_images = catalog.pending.clone();
        let (renderer, mut outputs) = tracing::info_span!("render").in_scope(|| {
            Renderer::prepare(
                Arc::clone(&content),
                Arc::new(catalog),
                &self.project.templates_dir,
                &islands,
                &mut self.caches,
                now,
            )
        })?;
        outputs.extend(image_files);
        let panel_files: Vec<String> = content
            .panel_routes()
            .iter()
            .map(|r| route_file(r))
            .collect();
        let (pages, rendered, ssr) = self.render_pages(&renderer, &islands, &panel_files)?;
        outputs.extend(pages);
        let dates = self.git.refresh(&content.root);
        outputs.extend(search_files(&content, &renderer, dates));
        outputs.extend(
            security_txt::file(&content.site, now)
                .map(|text| Output::new(security_txt::PATH, text)),
        );
        let (headers, panel_headers) = header_rules(&content, renderer.script_hashes());
        let redirects = edge::redirects(&content);
        let shadowed = edge::shadowed(&content, &outputs);
        if !shadowed.is_empty() {
            return Err(Error::Content(shadowed));
        }
        let (mut panel, mut outputs): (Vec<Output>, Vec<Output>) = outputs
            .into_iter()
            .partition(|o| panel_files.contains(&o.path));
        let panel_moved = edge::PanelMoved {
            routes: content.panel_routes(),
            origin: self.admin_origin.as_deref(),
        };
        outputs.push(Output::new(headers::FILE, headers::headers_file(&headers)));
        outputs.push(Output::new(
            edge::REDIRECTS_FILE,
            edge::redirects_file(&redirects, &panel_moved, self.api_origin.as_deref()),
        ));
        outputs.push(Output::new(
            edge::NGINX_FILE,
            edge::nginx_file(&headers, &redirects, &panel_moved),
        ));
        outputs.sort_by(|a, b| a.path.cmp(&b.path));
        panel.sort_by(|a, b| a.path.cmp(&b.path));
        let id = build_id(outputs.iter().chain(&panel));
        outputs.push(Output::new(BUILD_ID_FILE, format!("{id}\n")));
        outputs.sort_by(|a, b| a.path.cmp(&b.path));
        let phases = Phases {
            load: load_time,
            render: started.elapsed() - load_time,
            publish: Duration::ZERO,
            gate: self.gate_time,
        };
        Ok(Build {
            id,
            outputs,
            headers,
            panel,
            panel_headers,
            redirects,
            rendered,
            gated: self.gated,
            ssr,
            images: image_stats,
            pending_images,
            warnings: renderer.warnings().to_vec(),
            phases,
            renderer: Arc::new(renderer),
            now,
            next_change,
            renew_at: security_txt::renew_at(now),
        })
    }

    /// The problems the checks after loading find in `content`, which loaded with problems
    /// of its own (links to what is not public yet, the images' alt texts and sizes): so that
    /// a build reports every problem at once, not some of them only on the next attempt.
    fn later_problems(&mut self, content: Content, now: i64) -> Vec<Diagnostic> {
        let public = match schedule::public_at(content, now) {
            Ok((public, _)) => public,
            Err(e) => return e.diagnostics().to_vec(),
        };
        let Ok(islands) =
            islands::Islands::load(&self.project.islands_dir, &self.project.ssr_cache)
        else {
            return Vec::new();
        };
        let Ok(templates) = templates::load(&self.project.templates_dir, &islands) else {
            return Vec::new();
        };
        let catalog = images::Catalog::build(
            &self.project.content_dir.join("images"),
            &images::Cache::new(self.project.image_cache.clone()),
            &images::SETTINGS,
            &mut self.images,
            self.encoding,
        );
        let Ok((catalog, _)) = catalog else {
            return Vec::new();
        };
        let shows_page_alt = |template: &str| {
            templates
                .shows_page_alt
                .contains(&format!("{template}.html"))
        };
        let smallest = images::SETTINGS.widths.iter().copied().min().unwrap_or(1);
        images::check(&public, &catalog, &shows_page_alt, smallest).errors
    }

    /// The pages: from the memo where their fingerprint is unchanged, the others rendered in
    /// parallel, their islands prerendered, and passed through the publish gate (the panel's
    /// pages, `panel_files`, may hold no inline script). The memo then holds exactly these
    /// pages.
    fn render_pages(
        &mut self,
        renderer: &Renderer,
        islands: &islands::Islands,
        panel_files: &[String],
    ) -> Result<(Vec<Output>, usize, SsrStats)> {
        let jobs = renderer.jobs();
        let mut pages = Vec::with_capacity(jobs.len());
        let mut to_render = Vec::with_capacity(jobs.len());
        self.memo.begin();
        for job in jobs {
            let inputs = renderer.inputs(&job);
            let path = job.path();
            match self.memo.reuse(&path, &inputs) {
                Some(entry) => pages.push(entry.output(path)),
                None => to_render.push((job, path, inputs)),
            }
        }
        let fresh: Vec<(Output, render::Inputs)> =
            tracing::info_span!("render").in_scope(|| {
                to_render
                    .par_iter()
                    .map_init(
                        || renderer.page_context(),
                        |ctx, (job, path, inputs)| {
                            let bytes = renderer.render_in(ctx, job)?;
                            let fingerprint = renderer.fingerprint(job);
                            Ok((
                                Output {
                                    path: path.clone(),
                                    bytes,
                                    fingerprint,
                                },
                                *inputs,
                            ))
                        },
                    )
                    .collect::<Result<_>>()
            })?;
        let (mut fresh, inputs): (Vec<Output>, Vec<render::Inputs>) = fresh.into_iter().unzip();
        let ssr = tracing::info_span!("islands").in_scope(|| islands.finish(&mut fresh))?;
        let none = BTreeSet::new();
        let (public, panel) = (
            gate::allowed_fingerprint(renderer.script_hashes()),
            gate::allowed_fingerprint(&none),
        );
        // Each page with the inline scripts its origin allows; a page rendered again to the
        // very bytes the gate passed last time, under the same scripts, is not read again.
        let allowed: Vec<(&BTreeSet<String>, [u8; 32])> = fresh
            .iter()
            .map(|page| match panel_files.contains(&page.path) {
                true => (&none, panel),
                false => (renderer.script_hashes(), public),
            })
            .collect();
        let checked: Vec<(&render::Job, &Output, &BTreeSet<String>)> = to_render
            .iter()
            .zip(&fresh)
            .zip(&allowed)
            .filter(|((_, page), (_, with))| !self.memo.passed(&page.path, &page.bytes, with))
            .map(|(((job, _, _), page), (scripts, _))| (job, page, *scripts))
            .collect();
        let gate_started = Instant::now();
        tracing::info_span!("gate").in_scope(|| page_gate::pages(renderer, &checked))?;
        self.gate_time = gate_started.elapsed();
        self.gated = checked.len();
        let rendered = fresh.len();
        if !self.keeps {
            pages.extend(fresh);
            return Ok((pages, rendered, ssr));
        }
        self.memo.reserve(fresh.len());
        for ((page, inputs), (_, gated_with)) in fresh.into_iter().zip(inputs).zip(allowed) {
            let memo = incremental::Rendered {
                inputs,
                fingerprint: page.fingerprint,
                bytes: page.bytes.clone(),
            };
            self.memo.insert(page.path.clone(), memo, gated_with);
            pages.push(page);
        }
        self.memo.finish();
        Ok((pages, rendered, ssr))
    }

    /// Publishes a rendered build at `out`, linking the files the live build already holds.
    #[tracing::instrument(name = "publish", skip_all)]
    pub fn publish(&mut self, out: &Path, build: &Build) -> Result<PathBuf> {
        self.publisher.publish(out, &build.outputs)
    }

    /// Renders and publishes at `out`; on any error `out` is left as it was.
    pub fn build(&mut self, out: &Path) -> Result<BuildReport> {
        let started = Instant::now();
        let build = self.render()?;
        let publish_started = Instant::now();
        let build_dir = self.publish(out, &build)?;
        let report = BuildReport::new(
            &build,
            build_dir,
            started.elapsed(),
            publish_started.elapsed(),
        );
        tracing::info!(
            files = report.files,
            rendered = report.rendered,
            images_encoded = report.images.encoded,
            ms = report.elapsed.as_millis() as u64,
            "site built"
        );
        Ok(report)
    }
}

/// The public site's security and caching headers of every path (its policy allows the
/// templates' inline scripts, `script_hashes`), and the rules of the panel's origin, whose
/// pages may hold no inline script at all.
fn header_rules(
    content: &Content,
    script_hashes: &BTreeSet<String>,
) -> (Vec<HeaderRule>, Vec<HeaderRule>) {
    let site = headers::security_headers(
        &content.site,
        script_hashes,
        content.measurement.asks_consent(),
    );
    let (short, immutable) = headers::cache_rules();
    let public = vec![
        HeaderRule {
            pattern: "/*".into(),
            headers: site.into_iter().chain(short.headers).collect(),
        },
        immutable,
        headers::security_txt_rule(),
    ];
    let pages: Vec<(String, BTreeSet<String>)> = content
        .panel_routes()
        .iter()
        .map(|route| (route.to_string(), BTreeSet::new()))
        .collect();
    (public, headers::panel_rules(&content.site, &pages))
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
