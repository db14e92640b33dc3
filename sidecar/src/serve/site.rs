//! The built site as the sidecar serves it: every file in memory, swapped in one step when a
//! build finishes, so a visitor sees either the old site or the new one, never a mix. Each
//! build is also published to `dist/` (atomically, for `PUBLISH_CMD` and CDNs), and a run of
//! `PUBLISH_CMD` and `PURGE_CMD` with the routes that changed is queued ([`crate::serve::publishing`]).

use actix_web::http::header::{ContentEncoding, EntityTag, HeaderName, HeaderValue};
use bytes::Bytes;
use content::load::Changes;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime};

use crate::serve::publishing::{Commands, Publishing};

/// A published file with its compressed forms, made at most once each.
pub struct StaticFile {
    pub raw: Bytes,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    /// The fingerprint, shortened: what the entity tags of the file's bodies are made of.
    tag: String,
    pub content_type: String,
    /// When this content was first served at its path, in whole seconds.
    modified: SystemTime,
    fingerprint: [u8; 32],
}

/// `time` without the fraction of a second an HTTP date cannot say.
fn whole_seconds(time: SystemTime) -> SystemTime {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
}

fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || ["javascript", "json", "xml", "svg"]
            .iter()
            .any(|t| content_type.contains(t))
}

fn content_type(path: &str) -> String {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    match mime.type_() {
        mime_guess::mime::TEXT | mime_guess::mime::APPLICATION
            if mime.subtype() != mime_guess::mime::OCTET_STREAM =>
        {
            format!("{mime}; charset=utf-8")
        }
        _ => mime.to_string(),
    }
}

impl StaticFile {
    /// `output`, changed now.
    pub fn new(output: &site::Output) -> Self {
        Self::modified_at(output, clock::wall())
    }

    /// `output`, whose content last changed at `modified`.
    pub fn modified_at(output: &site::Output, modified: SystemTime) -> Self {
        StaticFile {
            tag: content::encoding::hex(&output.fingerprint[..10]),
            content_type: content_type(&output.path),
            raw: output.bytes.clone(),
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            modified: whole_seconds(modified),
            fingerprint: output.fingerprint,
        }
    }

    /// When the content last changed, never later than now (RFC 9110 8.8.2.1).
    pub fn last_modified(&self) -> SystemTime {
        self.modified.min(whole_seconds(clock::wall()))
    }

    /// The coding the file is sent in when the client prefers `wanted`: brotli or gzip for
    /// text, none for anything else (pictures are compressed already).
    pub fn coding(&self, wanted: ContentEncoding) -> ContentEncoding {
        match wanted {
            ContentEncoding::Brotli | ContentEncoding::Gzip if compressible(&self.content_type) => {
                wanted
            }
            _ => ContentEncoding::Identity,
        }
    }

    /// The strong entity tag of the body in `coding`: each coding's bytes have their own, so
    /// a cache never takes one for another and a range is always of the bytes it names.
    pub fn etag(&self, coding: ContentEncoding) -> EntityTag {
        match self.coding(coding) {
            ContentEncoding::Identity => EntityTag::new_strong(self.tag.clone()),
            other => EntityTag::new_strong(format!("{}-{}", self.tag, other.as_str())),
        }
    }

    /// The body in `coding` (as [`StaticFile::coding`] decides), compressed at most once.
    pub fn body(&self, coding: ContentEncoding) -> Bytes {
        match self.coding(coding) {
            ContentEncoding::Brotli => self
                .brotli
                .get_or_init(|| {
                    let mut out = Vec::new();
                    let params = brotli::enc::BrotliEncoderParams {
                        quality: 9,
                        ..Default::default()
                    };
                    let _ = brotli::BrotliCompress(&mut self.raw.as_ref(), &mut out, &params);
                    Bytes::from(out)
                })
                .clone(),
            ContentEncoding::Gzip => self
                .gzip
                .get_or_init(|| {
                    let mut encoder =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
                    let _ = encoder.write_all(&self.raw);
                    Bytes::from(encoder.finish().unwrap_or_default())
                })
                .clone(),
            _ => self.raw.clone(),
        }
    }
}

/// When the published file at `path` (in the build `dist` points at, read beneath it) was
/// written, if it holds exactly `bytes`: how the first build of a start finds the dates of
/// content an earlier run already published (the dates nginx serves those files with).
fn published_at(dist: &content::beneath::Root, path: &Path, bytes: &[u8]) -> Option<SystemTime> {
    let stat = dist.stat(path).ok().filter(|s| s.is_file)?;
    if stat.len != bytes.len() as u64 || dist.read(path).ok()? != bytes {
        return None;
    }
    stat.modified
}

/// One build, as served.
pub struct Site {
    pub files: HashMap<String, Arc<StaticFile>>,
    /// The security headers of each path (HSTS only over HTTPS).
    pub headers: Vec<site::headers::HeaderRule>,
    /// Renders pages on request with this build's templates and content.
    pub renderer: Option<Arc<site::render::Renderer>>,
    /// Counts builds since start (keys the answers rendered on request).
    pub number: u64,
    /// What identifies the build (`site::Build::id`); `/api/health` reports it.
    pub id: String,
    /// Old addresses (`aliases:`) and the route each answers 301 with.
    pub redirects: HashMap<String, String>,
    /// The admin panel's pages by route: served only on the panel's origin.
    pub panel: HashMap<String, Arc<StaticFile>>,
    /// The headers of every answer of the panel's origin, by path.
    pub panel_headers: Vec<site::headers::HeaderRule>,
    /// The facts that keep this build from being published (a production start while
    /// `site.yaml` lists example data): the public listener answers 'Strona w
    /// przygotowaniu' instead of its pages; the panel works as always.
    pub held: Vec<content::model::ExampleFact>,
}

impl Site {
    /// The headers every answer for `path` carries, but `Cache-Control`: a file takes its
    /// own from [`Site::cache_control`], an API answer says its own.
    pub fn headers_for(&self, path: &str) -> Vec<(HeaderName, HeaderValue)> {
        without_cache_control(&self.headers, path)
    }

    /// Like [`Site::headers_for`], for an answer of the panel's origin.
    pub fn panel_headers_for(&self, path: &str) -> Vec<(HeaderName, HeaderValue)> {
        without_cache_control(&self.panel_headers, path)
    }

    /// How long caches may keep the panel origin's file at `path`.
    pub fn panel_cache_control(&self, path: &str) -> &str {
        site::headers::header_value(&self.panel_headers, path, "Cache-Control")
            .unwrap_or(site::headers::NOT_FOUND_CACHE)
    }

    /// How long caches may keep the file at `path`: the build's rule, as `_headers` and the
    /// edge's nginx say.
    pub fn cache_control(&self, path: &str) -> &str {
        site::headers::header_value(&self.headers, path, "Cache-Control")
            .unwrap_or(site::headers::SHORT_CACHE)
    }

    /// Whether `route` is a page of this build (not a file, not the panel's).
    pub fn is_page(&self, route: &str) -> bool {
        self.files.contains_key(&site::route_file(route))
    }

    pub fn empty() -> Self {
        Site {
            files: HashMap::new(),
            headers: Vec::new(),
            renderer: None,
            number: 0,
            id: String::new(),
            redirects: HashMap::new(),
            panel: HashMap::new(),
            panel_headers: Vec::new(),
            held: Vec::new(),
        }
    }

    /// The addresses whose answer differs between this site and `build`: changed, added
    /// and removed files (hidden ones like `_headers` are not served) and old addresses.
    fn changed_routes(&self, build: &site::Build) -> Vec<String> {
        let mut changed = std::collections::BTreeSet::new();
        let mut seen = std::collections::HashSet::new();
        for output in &build.outputs {
            seen.insert(output.path.as_str());
            let same = self
                .files
                .get(&output.path)
                .is_some_and(|f| f.fingerprint == output.fingerprint);
            if !same {
                changed.extend(route_of(&output.path));
            }
        }
        for path in self.files.keys() {
            if !seen.contains(path.as_str()) {
                changed.extend(route_of(path));
            }
        }
        let redirects: HashMap<&str, &str> = build
            .redirects
            .iter()
            .map(|r| (r.from.as_str(), r.to.as_str()))
            .collect();
        for (from, to) in &redirects {
            if self.redirects.get(*from).map(String::as_str) != Some(*to) {
                changed.insert(from.to_string());
            }
        }
        for from in self.redirects.keys() {
            if !redirects.contains_key(from.as_str()) {
                changed.insert(from.clone());
            }
        }
        changed.into_iter().collect()
    }

    /// The files of `build`, reusing those of `previous` that did not change (with their
    /// compressed forms and dates). A changed file is dated now; on the first build of a start,
    /// a file `published` (the `dist/` of the last run) holds with the same bytes keeps the
    /// date it was published at.
    fn from_build(
        build: &site::Build,
        previous: &Site,
        published: &Path,
        held: Vec<content::model::ExampleFact>,
    ) -> Self {
        let now = clock::wall();
        let dist_root = content::beneath::Root::new(published);
        let reuse = |output: &site::Output, before: Option<&Arc<StaticFile>>, dist: bool| {
            if let Some(same) = before.filter(|f| f.fingerprint == output.fingerprint) {
                return Arc::clone(same);
            }
            let modified = match before {
                // Later than the bytes it replaces, even within their second: a client that
                // holds them must not be told they are still current.
                Some(old) => now.max(old.modified + Duration::from_secs(1)),
                None if dist && previous.number == 0 => {
                    let path = published.join(&output.path);
                    published_at(&dist_root, &path, &output.bytes).unwrap_or(now)
                }
                None => now,
            };
            Arc::new(StaticFile::modified_at(output, modified))
        };
        let files = build
            .outputs
            .iter()
            .map(|o| (o.path.clone(), reuse(o, previous.files.get(&o.path), true)))
            .collect();
        let panel = build
            .panel
            .iter()
            .filter_map(|o| {
                let route = route_of(&o.path)?;
                let file = reuse(o, previous.panel.get(&route), false);
                Some((route, file))
            })
            .collect();
        Site {
            files,
            panel,
            panel_headers: build.panel_headers.clone(),
            headers: build.headers.clone(),
            renderer: Some(Arc::clone(&build.renderer)),
            number: previous.number + 1,
            id: build.id.clone(),
            redirects: build
                .redirects
                .iter()
                .map(|r| (r.from.clone(), r.to.clone()))
                .collect(),
            held,
        }
    }
}

/// The headers `rules` give `path`, but `Cache-Control`.
fn without_cache_control(
    rules: &[site::headers::HeaderRule],
    path: &str,
) -> Vec<(HeaderName, HeaderValue)> {
    site::headers::headers_for(rules, path)
        .into_iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case("cache-control"))
        .filter_map(|(k, v)| {
            Some((
                HeaderName::try_from(k.as_str()).ok()?,
                HeaderValue::try_from(v.as_str()).ok()?,
            ))
        })
        .collect()
}

/// The address a published file answers at (`blog/index.html` is `/blog`); none for hidden
/// files, which are not served, but those of `.well-known/` (RFC 8615).
pub fn route_of(path: &str) -> Option<String> {
    let visible = path.strip_prefix(".well-known/").unwrap_or(path);
    if visible.split('/').any(|s| s.starts_with(['_', '.'])) {
        return None;
    }
    Some(match path.strip_suffix("index.html") {
        Some("") => "/".to_string(),
        Some(dir) => format!("/{}", dir.trim_end_matches('/')),
        None => format!("/{path}"),
    })
}

/// The site being served, swapped whole by each build.
pub struct LiveSite {
    current: RwLock<Arc<Site>>,
}

impl Default for LiveSite {
    fn default() -> Self {
        LiveSite {
            current: RwLock::new(Arc::new(Site::empty())),
        }
    }
}

impl LiveSite {
    pub fn current(&self) -> Arc<Site> {
        Arc::clone(&self.current.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Serves `build` from now on (held back from the public while `held` names facts);
    /// returns the routes whose answer changed. `published`: the folder the previous build
    /// was published to.
    fn swap(
        &self,
        build: &site::Build,
        published: &Path,
        held: Vec<content::model::ExampleFact>,
    ) -> Vec<String> {
        let previous = self.current();
        let changed = previous.changed_routes(build);
        let next = Arc::new(Site::from_build(build, &previous, published, held));
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = next;
        changed
    }
}

/// What a rebuild did.
#[derive(Debug)]
pub struct Published {
    pub report: site::BuildReport,
    /// The routes whose answer changed (every route after the first build).
    pub changed: Vec<String>,
    /// When the public site changes next by itself (a scheduled article, a notice).
    pub next_change: Option<i64>,
    /// The facts still example data on a production start: the build is served to the panel
    /// only, and neither `dist/` nor the CDN got it.
    pub held: Vec<content::model::ExampleFact>,
    /// The photographs this build showed as they are, their variants missing.
    pub pending_images: Vec<String>,
}

/// The next moment the site must be built again without anyone saving anything: set by
/// every build, waited for by the scheduler (`scheduler::spawn`).
#[derive(Default)]
pub struct Schedule {
    next: Mutex<Option<i64>>,
    /// Woken whenever `next` changes.
    pub wake: tokio::sync::Notify,
}

impl Schedule {
    pub fn next(&self) -> Option<i64> {
        *self.next.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn set(&self, next: Option<i64>) {
        *self.next.lock().unwrap_or_else(|p| p.into_inner()) = next;
        self.wake.notify_one();
    }
}

/// Builds, serves and publishes the site.
pub struct SiteState {
    pub project: site::Project,
    /// What the panel changes the content files through.
    #[cfg(feature = "panel")]
    pub editor: editing::Editor,
    pub dist: PathBuf,
    pub live: LiveSite,
    /// One build at a time; only what changed is rendered.
    pub builder: Mutex<site::Builder>,
    /// `PUBLISH_CMD` and `PURGE_CMD`, run after each publish on a queue of their own.
    pub publishing: Publishing,
    pub content_git_commit: bool,
    /// Revisions older than this many days are pruned (the newest few of each stay).
    pub revision_retention_days: i64,
    pub schedule: Schedule,
    /// What going live needs, from the configuration (production, mail, backups, HTTPS).
    pub launch: crate::serve::launch::Launch,
    /// Photographs whose variants the image worker encodes (`variants::spawn`).
    pub images: crate::serve::images::Pending,
    /// One preview renders at a time (`preview`): a burst of previews holds one core, not
    /// all of them.
    pub previews: Arc<tokio::sync::Semaphore>,
    /// The panel's changes, one at a time (`changes::one_at_a_time`).
    pub changing: tokio::sync::Semaphore,
    /// The server's clock, the builder's too: when the next scheduled build is due.
    pub clock: clock::Clock,
}

impl SiteState {
    pub fn new(config: &crate::config::Config) -> Self {
        let project = site::Project::at(&config.root);
        let mut builder = site::Builder::new(project.clone())
            .with_deferred_images()
            .with_api_origin(config.api_origin.clone())
            .with_admin_origin(Some(config.origins.admin.clone()))
            .with_measurement(config.measurement.clone());
        builder.set_clock(config.clock.clone());
        let commands = Commands {
            publish: config.publish_cmd.clone(),
            purge: config.purge_cmd.clone(),
            env_names: config.publish_env.clone(),
            env: config.publish_environment.clone(),
        };
        SiteState {
            publishing: Publishing::new(commands, config.dist.clone(), builder.pins()),
            builder: Mutex::new(builder),
            #[cfg(feature = "panel")]
            editor: editing::Editor::new(&project.content_dir),
            project,
            dist: config.dist.clone(),
            live: LiveSite::default(),
            content_git_commit: config.content_git_commit,
            revision_retention_days: config.revision_retention_days,
            schedule: Schedule::default(),
            launch: crate::serve::launch::Launch::new(config),
            images: crate::serve::images::Pending::default(),
            previews: Arc::new(tokio::sync::Semaphore::new(1)),
            changing: tokio::sync::Semaphore::new(1),
            clock: config.clock.clone(),
        }
    }

    pub fn builder(&self) -> std::sync::MutexGuard<'_, site::Builder> {
        self.builder.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Rebuilds what changed (looking at every file), serves it, publishes it to `dist/` and
    /// queues `PUBLISH_CMD` and `PURGE_CMD`.
    pub fn rebuild(&self) -> Result<Published, site::Error> {
        let mut builder = self.builder();
        self.rebuild_with(&mut builder, Changes::Unknown)
    }

    /// Like [`SiteState::rebuild`], with the builder already locked by the caller and, when
    /// the caller wrote them itself, the content files that changed (`changes`: the others are
    /// not looked at again; a written text is not read back).
    pub fn rebuild_with(
        &self,
        builder: &mut site::Builder,
        changes: Changes<'_>,
    ) -> Result<Published, site::Error> {
        let started = Instant::now();
        let build = builder.render_changes(changes)?;
        self.publish_with(builder, &build, started)
    }

    /// Serves `build` (rendered by `builder` since `started`), publishes it to `dist/` and
    /// queues `PUBLISH_CMD` and `PURGE_CMD`.
    pub fn publish_with(
        &self,
        builder: &mut site::Builder,
        build: &site::Build,
        started: Instant,
    ) -> Result<Published, site::Error> {
        self.images.add(&build.pending_images);
        let held = self.launch.held(&build.renderer.content().site);
        let was_held = !self.live.current().held.is_empty();
        let mut changed = self.live.swap(build, &self.dist, held.clone());
        if was_held {
            // The CDN never got the builds that were held back: all of this one is new to it.
            changed = Site::empty().changed_routes(build);
        }
        // The public site changes by itself at `next_change`; `security.txt`'s expiry moves
        // at `renew_at` (monthly).
        let next = build
            .next_change
            .map_or(build.renew_at, |t| t.min(build.renew_at));
        self.schedule.set(Some(next));
        if !held.is_empty() {
            tracing::error!(
                facts = %crate::serve::launch::keys(&held),
                "NOT PUBLISHED: this is a production start and site.yaml lists these facts as example data, not the practice's own; the public site answers 'Strona w przygotowaniu' until the owner confirms them in the panel ('Dane gabinetu') or they are taken off example_data"
            );
            let report =
                site::BuildReport::new(build, self.dist.clone(), started.elapsed(), Duration::ZERO);
            return Ok(Published {
                report,
                changed,
                next_change: build.next_change,
                held,
                pending_images: build.pending_images.clone(),
            });
        }
        let publish_started = Instant::now();
        let build_dir = builder.publish(&self.dist, build)?;
        let report = site::BuildReport::new(
            build,
            build_dir,
            started.elapsed(),
            publish_started.elapsed(),
        );
        crate::metrics::built(report.elapsed, report.phases.publish);
        if !changed.is_empty() || self.publishing.status().runs == 0 {
            let site_url = &build.renderer.content().site.site_url;
            self.publishing.enqueue(&changed, site_url);
        }
        Ok(Published {
            report,
            changed,
            next_change: build.next_change,
            held,
            pending_images: build.pending_images.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_answer_at_their_routes_and_hidden_ones_nowhere() {
        assert_eq!(route_of("index.html").as_deref(), Some("/"));
        assert_eq!(route_of("blog/index.html").as_deref(), Some("/blog"));
        assert_eq!(route_of("blog/atom.xml").as_deref(), Some("/blog/atom.xml"));
        assert_eq!(
            route_of("assets/style.1.css").as_deref(),
            Some("/assets/style.1.css")
        );
        assert_eq!(route_of("_headers"), None);
        assert_eq!(route_of("_build"), None);
        assert_eq!(
            route_of(".well-known/security.txt").as_deref(),
            Some("/.well-known/security.txt")
        );
        assert_eq!(route_of(".well-known/.x"), None);
        assert_eq!(route_of(".git/config"), None);
    }
}
