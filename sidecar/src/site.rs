//! The built site as the sidecar serves it: every file in memory, swapped in one step when a
//! build finishes, so a visitor sees either the old site or the new one, never a mix. Each
//! build is also published to `dist/` (atomically, for `PUBLISH_CMD` and CDNs) and
//! `PUBLISH_CMD` runs after it, without the process's secrets in its environment.

use actix_web::http::header::{HeaderName, HeaderValue};
use bytes::Bytes;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

use crate::config::SECRET_VARIABLES;

/// A published file with its compressed forms, made at most once each.
pub struct StaticFile {
    pub raw: Bytes,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    pub etag: String,
    pub content_type: String,
    fingerprint: [u8; 32],
}

/// How a body is sent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
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
    pub fn new(output: &generator::Output) -> Self {
        StaticFile {
            etag: format!("\"{}\"", generator::hex(&output.fingerprint[..10])),
            content_type: content_type(&output.path),
            raw: output.bytes.clone(),
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            fingerprint: output.fingerprint,
        }
    }

    /// The body in the best encoding the client accepts.
    pub fn body(&self, encoding: Encoding) -> (Bytes, Option<&'static str>) {
        if !compressible(&self.content_type) {
            return (self.raw.clone(), None);
        }
        match encoding {
            Encoding::Brotli => {
                let bytes = self.brotli.get_or_init(|| {
                    let mut out = Vec::new();
                    let params = brotli::enc::BrotliEncoderParams {
                        quality: 9,
                        ..Default::default()
                    };
                    let _ = brotli::BrotliCompress(&mut self.raw.as_ref(), &mut out, &params);
                    Bytes::from(out)
                });
                (bytes.clone(), Some("br"))
            }
            Encoding::Gzip => {
                let bytes = self.gzip.get_or_init(|| {
                    let mut encoder =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
                    let _ = encoder.write_all(&self.raw);
                    Bytes::from(encoder.finish().unwrap_or_default())
                });
                (bytes.clone(), Some("gzip"))
            }
            Encoding::Identity => (self.raw.clone(), None),
        }
    }
}

/// One build, as served.
pub struct Site {
    pub files: HashMap<String, Arc<StaticFile>>,
    /// The security headers of each path (HSTS only over HTTPS).
    pub headers: Vec<generator::HeaderRule>,
    /// Renders pages on request with this build's templates and content.
    pub renderer: Option<Arc<generator::Renderer>>,
    /// Counts builds since start; `/api/health` reports it.
    pub number: u64,
}

impl Site {
    /// The headers an answer for `path` carries.
    pub fn headers_for(&self, path: &str) -> Vec<(HeaderName, HeaderValue)> {
        generator::headers_for(&self.headers, path)
            .into_iter()
            .filter_map(|(k, v)| {
                Some((
                    HeaderName::try_from(k.as_str()).ok()?,
                    HeaderValue::try_from(v.as_str()).ok()?,
                ))
            })
            .collect()
    }

    fn empty() -> Self {
        Site {
            files: HashMap::new(),
            headers: Vec::new(),
            renderer: None,
            number: 0,
        }
    }

    /// The files of `build`, reusing those of `previous` that did not change (with their
    /// compressed forms).
    fn from_build(build: &generator::Build, previous: &Site) -> Self {
        let files = build
            .outputs
            .iter()
            .map(|output| {
                let reused = previous
                    .files
                    .get(&output.path)
                    .filter(|f| f.fingerprint == output.fingerprint)
                    .cloned();
                let file = reused.unwrap_or_else(|| Arc::new(StaticFile::new(output)));
                (output.path.clone(), file)
            })
            .collect();
        Site {
            files,
            headers: build.headers.clone(),
            renderer: Some(Arc::clone(&build.renderer)),
            number: previous.number + 1,
        }
    }
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

    fn swap(&self, build: &generator::Build) {
        let next = Arc::new(Site::from_build(build, &self.current()));
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = next;
    }
}

/// What a rebuild did.
#[derive(Debug)]
pub struct Published {
    pub report: generator::BuildReport,
    /// Why `PUBLISH_CMD` failed, if it did (the site itself was published).
    pub warning: Option<String>,
    /// When the public site changes next by itself (a scheduled article, a notice).
    pub next_change: Option<i64>,
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
    pub project: generator::Project,
    pub dist: PathBuf,
    pub live: LiveSite,
    /// One build at a time; only what changed is rendered.
    pub builder: Mutex<generator::Builder>,
    pub publish_cmd: Option<String>,
    pub content_git_commit: bool,
    pub schedule: Schedule,
}

impl SiteState {
    pub fn new(config: &crate::Config) -> Self {
        let project = generator::Project::at(&config.root);
        SiteState {
            builder: Mutex::new(generator::Builder::new(project.clone())),
            project,
            dist: config.dist.clone(),
            live: LiveSite::default(),
            publish_cmd: config.publish_cmd.clone(),
            content_git_commit: config.content_git_commit,
            schedule: Schedule::default(),
        }
    }

    pub fn builder(&self) -> std::sync::MutexGuard<'_, generator::Builder> {
        self.builder.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Rebuilds what changed, serves it, publishes it to `dist/` and runs `PUBLISH_CMD`.
    pub fn rebuild(&self) -> Result<Published, generator::Error> {
        let mut builder = self.builder();
        self.rebuild_with(&mut builder)
    }

    /// Like [`SiteState::rebuild`], with the builder already locked by the caller.
    pub fn rebuild_with(
        &self,
        builder: &mut generator::Builder,
    ) -> Result<Published, generator::Error> {
        let started = Instant::now();
        let build = builder.render()?;
        self.live.swap(&build);
        self.schedule.set(build.next_change);
        let publish_started = Instant::now();
        let build_dir = builder.publish(&self.dist, &build)?;
        let report = generator::BuildReport {
            files: build.outputs.len(),
            pages: build.pages(),
            rendered: build.rendered,
            bytes: build.outputs.iter().map(|o| o.bytes.len()).sum(),
            elapsed: started.elapsed(),
            build_dir,
            ssr: build.ssr,
            phases: generator::Phases {
                publish: publish_started.elapsed(),
                ..build.phases
            },
            headers: build.headers,
        };
        let warning = self
            .publish_cmd
            .as_deref()
            .and_then(|cmd| run_publish_cmd(cmd, &self.dist));
        if let Some(w) = &warning {
            tracing::warn!("{w}");
        }
        Ok(Published {
            report,
            warning,
            next_change: build.next_change,
        })
    }
}

/// A shell command for the site, without the process's secrets in its environment.
pub fn shell(cmd: &str) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(cmd);
    for name in SECRET_VARIABLES {
        command.env_remove(name);
    }
    command
}

fn run_publish_cmd(cmd: &str, dist: &Path) -> Option<String> {
    let output = shell(cmd).env("DIST_DIR", dist).output();
    match output {
        Ok(o) if o.status.success() => None,
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            let tail: String = stderr.chars().rev().take(300).collect::<Vec<_>>().into_iter().rev().collect();
            Some(format!("Zmiany zapisano i opublikowano na serwerze, ale polecenie publikacji (PUBLISH_CMD) nie powiodło się: {}", tail.trim()))
        }
        Err(e) => Some(format!("Zmiany zapisano i opublikowano na serwerze, ale nie udało się uruchomić PUBLISH_CMD: {e}")),
    }
}
