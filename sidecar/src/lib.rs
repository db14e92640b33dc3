//! The sidecar: serves the built site and, later, the site's small dynamic API.

pub mod auth;
pub mod config;
pub mod contact;
pub mod db;
pub mod dev;
pub mod error;
pub mod outbox;
pub mod pages;
pub mod static_files;

use actix_web::http::header;
use actix_web::{middleware, web, App, HttpRequest, HttpServer};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use config::Config;
pub use error::Error;

/// What request handlers share.
pub struct AppState {
    pub db: Arc<db::Db>,
    pub outbox: Arc<outbox::Outbox>,
    /// Signs the contact form's tokens; made once and kept in SQLite.
    pub secret: Vec<u8>,
    pub contact_limiter: DefaultKeyedRateLimiter<IpAddr>,
    pub min_seconds: i64,
    pub project: generator::Project,
    pub dist: std::path::PathBuf,
    pub admin_email: String,
    pub session_idle_seconds: i64,
    pub publish_cmd: Option<String>,
    pub content_git_commit: bool,
    /// Rebuilds after each save, rendering only what changed; one at a time.
    pub builder: std::sync::Mutex<generator::Builder>,
    /// Published files in memory, compressed once.
    pub files: Arc<static_files::FileCache>,
    /// The security headers of the published build, added to every answer.
    pub headers: std::sync::RwLock<Vec<(header::HeaderName, header::HeaderValue)>>,
    /// The last build's renderer: pages rendered on request use its templates and content.
    pub renderer: std::sync::RwLock<Option<Arc<generator::Renderer>>>,
}

fn random_secret() -> Vec<u8> {
    let mut secret = vec![0_u8; 32];
    if let Err(e) = getrandom::fill(&mut secret) {
        // Without randomness there is no safe secret; stop rather than sign with zeros.
        panic!("no source of randomness: {e}");
    }
    secret
}

fn mailbox(text: &str, name: &'static str) -> Result<lettre::message::Mailbox, Error> {
    text.parse().map_err(|e| Error::Config {
        name,
        message: format!("'{text}' is not an e-mail address: {e}"),
    })
}

impl AppState {
    /// Opens the database and the outbox for `config`, with the practice's facts in `site`.
    pub fn open(config: &Config, site: &generator::SiteConfig) -> Result<Self, Error> {
        let db = Arc::new(db::Db::open(&config.data_dir.join("site.sqlite3"))?);
        let secret = db.setting_or("token_secret", random_secret)?;
        let domain = site
            .site_url
            .split("://")
            .last()
            .unwrap_or("localhost")
            .trim_end_matches('/')
            .to_string();
        let addresses = outbox::Addresses {
            from: mailbox(
                &format!("{} <{}>", site.name, site.email),
                "site.yaml email",
            )?,
            to: mailbox(
                config.contact_to.as_deref().unwrap_or(&site.email),
                "CONTACT_TO",
            )?,
            site_name: site.name.clone(),
            domain,
        };
        let mailer = outbox::Mailer::from_config(
            config.smtp_url.as_deref(),
            &config.data_dir.join("outbox"),
        )?;
        let outbox = outbox::Outbox::new(
            Arc::clone(&db),
            mailer,
            addresses,
            config.message_retention_days,
            config.outbox_retry_seconds,
        );
        let rate =
            NonZeroU32::new(config.contact_rate_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Ok(Self {
            db,
            outbox: Arc::new(outbox),
            secret,
            contact_limiter: RateLimiter::keyed(Quota::per_minute(rate)),
            min_seconds: config.contact_min_seconds,
            project: generator::Project::at(&config.root),
            dist: config.dist.clone(),
            admin_email: config
                .admin_email
                .clone()
                .unwrap_or_else(|| site.email.clone()),
            session_idle_seconds: config.session_idle_minutes.max(1) * 60,
            publish_cmd: config.publish_cmd.clone(),
            content_git_commit: config.content_git_commit,
            builder: std::sync::Mutex::new(generator::Builder::new(generator::Project::at(
                &config.root,
            ))),
            headers: std::sync::RwLock::new(Vec::new()),
            renderer: std::sync::RwLock::new(None),
            files: Arc::default(),
        })
    }

    /// Builds and publishes the site (only what changed since the last build) and serves the
    /// headers it came with.
    pub fn rebuild(&self) -> Result<generator::BuildReport, generator::Error> {
        let mut builder = self.builder.lock().unwrap_or_else(|p| p.into_inner());
        self.rebuild_with(&mut builder)
    }

    /// Like [`AppState::rebuild`], with the builder already locked.
    pub fn rebuild_with(
        &self,
        builder: &mut generator::Builder,
    ) -> Result<generator::BuildReport, generator::Error> {
        let started = Instant::now();
        let build = builder.render()?;
        let build_dir = builder.publish(&self.dist, &build)?;
        self.serve_headers(&build.headers);
        if let Ok(mut renderer) = self.renderer.write() {
            *renderer = Some(Arc::clone(&build.renderer));
        }
        Ok(generator::BuildReport {
            files: build.outputs.len(),
            pages: build.pages(),
            rendered: build.rendered,
            bytes: build.outputs.iter().map(|o| o.bytes.len()).sum(),
            elapsed: started.elapsed(),
            build_dir,
            ssr: build.ssr,
            images: build.images,
            warnings: build.warnings,
            phases: build.phases,
            headers: build.headers,
        })
    }

    fn serve_headers(&self, headers: &[(String, String)]) {
        let parsed = headers
            .iter()
            .filter_map(|(k, v)| {
                Some((
                    header::HeaderName::try_from(k.as_str()).ok()?,
                    header::HeaderValue::try_from(v.as_str()).ok()?,
                ))
            })
            .chain(std::iter::once((
                header::STRICT_TRANSPORT_SECURITY,
                header::HeaderValue::from_static("max-age=31536000; includeSubDomains"),
            )))
            .collect();
        if let Ok(mut served) = self.headers.write() {
            *served = parsed;
        }
    }

    /// Whether this client may send another contact message now.
    pub fn allow(&self, req: &HttpRequest) -> bool {
        let ip = req
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| a.ip());
        self.contact_limiter.check_key(&ip).is_ok()
    }
}

/// Adds the site's security headers to every answer; HSTS only when served over HTTPS.
pub async fn security_headers(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let https = req.connection_info().scheme() == "https";
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let mut response = next.call(req).await?;
    if let Some(headers) = state.as_ref().and_then(|s| s.headers.read().ok()) {
        for (name, value) in headers.iter() {
            if https || name.as_str() != "strict-transport-security" {
                response.headers_mut().insert(name.clone(), value.clone());
            }
        }
    }
    Ok(response)
}

/// Registers every route of the sidecar.
pub fn configure(
    state: web::Data<AppState>,
    dist: std::path::PathBuf,
) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state)
            .app_data(web::Data::new(static_files::Root(dist)))
            .configure(contact::configure)
            .configure(auth::configure)
            .configure(pages::configure)
            .default_service(web::to(static_files::serve));
    }
}

/// Builds the site, then serves it until the process is stopped.
pub async fn run(config: Config) -> Result<(), Error> {
    let project = generator::Project::at(&config.root);
    let content = generator::load(&project)?;
    let state = web::Data::new(AppState::open(&config, &content.site)?);
    let report = state.rebuild()?;
    tracing::info!(
        files = report.files,
        ms = report.elapsed.as_millis() as u64,
        "site built into {}",
        config.dist.display()
    );
    Arc::clone(&state.outbox).spawn(Duration::from_secs(config.outbox_poll_seconds.max(1)));
    if let Some(password) = auth::ensure_admin(
        &state.db,
        &state.admin_email,
        config.admin_password.as_deref(),
    )? {
        // Shown once, on the first start without ADMIN_PASSWORD; only its hash is kept.
        tracing::warn!(
            "Utworzono konto administratora {} z hasłem: {password} (zapisz je; zmienisz je poleceniem `sidecar set-password {}`)",
            state.admin_email,
            state.admin_email
        );
    }
    let dev = config.dev.then(dev::Dev::new);
    // Kept alive while the server runs: dropping it stops watching.
    let _watcher = match &dev {
        Some(d) => Some(
            dev::watch(state.clone(), Arc::clone(d), config.root.clone()).map_err(|message| {
                Error::Config {
                    name: "DEV",
                    message,
                }
            })?,
        ),
        None => None,
    };
    let dist = config.dist.clone();
    let server = HttpServer::new(move || {
        let mut app = App::new()
            .wrap(middleware::from_fn(security_headers))
            .wrap(middleware::from_fn(log_request));
        if let Some(d) = &dev {
            app = app.configure(dev::configure(Arc::clone(d)));
        }
        app.configure(configure(state.clone(), dist.clone()))
    })
    .bind((config.bind.as_str(), config.port))
    .map_err(|source| Error::Bind {
        address: format!("{}:{}", config.bind, config.port),
        source,
    })?;
    for address in server.addrs() {
        println!("Strona działa pod adresem http://{address}");
    }
    server.run().await.map_err(Error::Serve)
}

async fn log_request(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_string();
    let response = next.call(req).await?;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        us = started.elapsed().as_micros() as u64,
        "request"
    );
    Ok(response)
}
