//! The sidecar: serves the built site from memory and answers what cannot be static — the
//! contact form, the admin panel's sign-in, pages and inbox — rebuilding the site after each
//! change. Two applications on two listeners: [`public_app`] (the site, the contact form,
//! health) and [`admin_app`] (the panel and its API, on the panel's own origin). [`run`] and
//! the tests use the very same two, middleware and all.
//!
//! It uses the `content` crate (the model), `site` (builds and serves the site) and `editing`
//! (the panel's changes to files); none of them uses it. All SQL is in [`db`].

// The crate's own rules: no panic on what comes from outside, no lock held across an await.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
#![deny(clippy::await_holding_lock)]

pub mod api_types;
pub mod articles;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod body;
pub mod client;
pub mod config;
pub mod connections;
pub mod contact;
pub mod data;
pub mod db;
pub mod dev;
pub mod error;
pub mod git;
pub mod health;
pub mod history;
pub mod images;
pub mod messages;
pub mod outbox;
pub mod pages;
pub mod panel;
pub mod preview;
pub mod publishing;
pub mod request_log;
pub mod scheduler;
pub mod secrets;
pub mod site;
pub mod static_files;
mod target_limit;
pub mod team;
pub mod variants;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{middleware, web, App, HttpRequest};
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use config::{Config, Origins};
pub use error::{ApiError, Error};

/// How many of each document's newest revisions outlive `REVISION_RETENTION_DAYS`.
pub const KEPT_REVISIONS: usize = 10;

/// Threads each HTTP worker may use for blocking work (SQLite, files, builds).
pub const BLOCKING_THREADS_PER_WORKER: usize = 16;

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// How a request's client is told apart: its address behind trusted proxies, its scheme.
pub struct Clients {
    pub proxies: client::Proxies,
    pub force_https: bool,
}

impl Clients {
    /// The client's rate-limit key (an IPv6 client's /64).
    pub fn key(&self, req: &HttpRequest) -> IpAddr {
        client::key(client::address(req, &self.proxies))
    }

    pub fn https(&self, req: &HttpRequest) -> bool {
        client::is_https(req, &self.proxies, self.force_https)
    }
}

/// What request handlers share, by concern.
pub struct AppState {
    pub db: Arc<db::Db>,
    pub clients: Clients,
    /// Where the public site and the panel are reached.
    pub origins: Origins,
    pub auth: accounts::Accounts,
    pub contact: contact::ContactState,
    pub site: site::SiteState,
    /// `make dev`: rebuild on change and reload open tabs.
    pub dev: Option<Arc<dev::Dev>>,
    /// How slowly a request body may arrive.
    pub body_deadline: body::Deadline,
    /// `content/`'s repository and its remote branch (`GIT_REMOTE`), when set.
    pub git: Option<Arc<git::GitSync>>,
}

fn random_secret() -> Result<Vec<u8>, Error> {
    let mut secret = vec![0_u8; 32];
    getrandom::fill(&mut secret).map_err(|e| Error::Config {
        name: "randomness",
        message: format!("no source of randomness for the form's secret: {e}"),
    })?;
    Ok(secret)
}

fn mailbox(text: &str, name: &'static str) -> Result<lettre::message::Mailbox, Error> {
    text.parse().map_err(|e| Error::Config {
        name,
        message: format!("'{text}' is not an e-mail address: {e}"),
    })
}

fn outbox(
    config: &Config,
    site: &content::SiteConfig,
    db: &Arc<db::Db>,
) -> Result<outbox::Outbox, Error> {
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
    let mailer =
        outbox::Mailer::from_config(config.smtp_url.as_deref(), &config.data_dir.join("outbox"))?;
    Ok(outbox::Outbox::new(
        Arc::clone(db),
        mailer,
        addresses,
        config.message_retention_days,
        config.outbox_retry_seconds,
    ))
}

impl AppState {
    /// Opens the database and the outbox for `config`, with the practice's facts in `site`.
    /// The site is not built yet: call `state.site.rebuild()`.
    pub fn open(config: &Config, site: &content::SiteConfig) -> Result<Self, Error> {
        let db = Arc::new(db::Db::open(&config.data_dir.join("site.sqlite3"))?);
        let secret = db.setting_or("token_secret", || random_secret().unwrap_or_default())?;
        if secret.len() < 32 {
            return Err(Error::Config {
                name: "randomness",
                message: "no source of randomness for the form's secret".into(),
            });
        }
        let outbox = Arc::new(outbox(config, site, &db)?);
        let idle = config.session_idle_seconds.max(1);
        let max = config.session_max_hours.max(1) * 3600;
        let sessions = auth::sessions::Sessions::load(&db.accounts(), idle, max)?;
        let admin_email = config
            .admin_email
            .clone()
            .unwrap_or_else(|| site.email.clone());
        Ok(Self {
            clients: Clients {
                proxies: config.trusted_proxies.clone(),
                force_https: config.force_https,
            },
            origins: config.origins.clone(),
            auth: accounts::Accounts {
                audit_retention_days: config.audit_retention_days,
                ..accounts::Accounts::new(
                    db.accounts(),
                    admin_email,
                    sessions,
                    &config.origins.admin,
                )
            },
            contact: contact::ContactState::new(
                secret,
                config.contact_rate_per_minute,
                config.contact_min_seconds,
                outbox,
            ),
            site: site::SiteState::new(config),
            dev: config.dev.then(dev::Dev::new),
            git: match &config.git {
                Some(remote) => Some(Arc::new(git::GitSync::open(
                    remote.clone(),
                    &config.root.join("content"),
                    &config.data_dir,
                    db.conflicts()?,
                )?)),
                None => None,
            },
            body_deadline: body::Deadline {
                grace: Duration::from_secs(config.body_timeout_seconds.max(1)),
            },
            db,
        })
    }

    /// Forgets what has expired: sessions, old sign-in failures, idle rate-limit keys,
    /// revisions past `REVISION_RETENTION_DAYS` (but the newest few of each document) and
    /// audit entries past `AUDIT_RETENTION_DAYS`.
    pub fn maintain(&self, now: i64) -> Result<(), Error> {
        self.auth.sessions.prune(now);
        let (idle_before, made_before) = self.auth.sessions.cutoffs(now);
        let accounts = &self.auth.store;
        accounts.delete_expired_sessions(idle_before, made_before)?;
        accounts.prune_login_failures(now - auth::throttle::WINDOW_SECONDS)?;
        self.contact.prune();
        let kept_from = now - self.site.revision_retention_days * 86_400;
        self.db.prune_revisions(kept_from, KEPT_REVISIONS)?;
        accounts.prune_audit(now - self.auth.audit_retention_days * 86_400)?;
        Ok(())
    }
}

/// Adds the site's security headers to every answer; HSTS only when served over HTTPS.
async fn security_headers(
    req: ServiceRequest,
    next: middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let https = state
        .as_ref()
        .is_some_and(|s| s.clients.https(req.request()));
    let path = req.path().to_string();
    let mut response = next.call(req).await?;
    if let Some(state) = state {
        let headers = state.site.live.current().headers_for(&path);
        add_headers(response.headers_mut(), headers, https);
    }
    Ok(response)
}

/// Puts `headers` on an answer, and HSTS when it goes over HTTPS.
pub(crate) fn add_headers(
    answer: &mut actix_web::http::header::HeaderMap,
    headers: Vec<(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )>,
    https: bool,
) {
    for (name, value) in headers {
        answer.insert(name, value);
    }
    if https {
        answer.insert(
            actix_web::http::header::STRICT_TRANSPORT_SECURITY,
            actix_web::http::header::HeaderValue::from_static(
                "max-age=31536000; includeSubDomains",
            ),
        );
    }
}

/// The public site's application: the built pages and files, the contact form and health,
/// with the site's security headers and the request log. Nothing of the panel: its address
/// answers with a redirect to the panel's origin.
pub fn public_app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let dev = state.dev.clone();
    App::new()
        .app_data(state)
        .wrap(middleware::from_fn(target_limit::refuse_long_targets))
        .wrap(middleware::from_fn(body::deadline))
        .wrap(middleware::from_fn(security_headers))
        .wrap(tracing_actix_web::TracingLogger::<request_log::RequestSpan>::new())
        .configure(|cfg| {
            if let Some(dev) = dev {
                dev::configure(dev)(cfg);
            }
        })
        .configure(contact::configure)
        .configure(health::configure)
        .configure(git::webhook::configure)
        .default_service(web::to(static_files::serve))
}

/// The panel's application, on its own origin: sign-in, every API that needs the
/// administrator, previews, and the panel's page with its files, with the panel origin's
/// headers and the request log.
pub fn admin_app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(state)
        .wrap(middleware::from_fn(target_limit::refuse_long_targets))
        .wrap(middleware::from_fn(body::deadline))
        .wrap(middleware::from_fn(panel::security_headers))
        .wrap(tracing_actix_web::TracingLogger::<request_log::RequestSpan>::new())
        .configure(auth::configure)
        .configure(audit::configure)
        .configure(pages::configure)
        .configure(articles::configure)
        .configure(team::configure)
        .configure(preview::configure)
        .configure(history::configure)
        .configure(data::configure)
        .configure(images::configure)
        .configure(messages::configure)
        .configure(git::panel::configure)
        .configure(panel::configure)
}

/// Writes the generated admin password to a file only the server's user can read.
fn hand_over_password(
    data_dir: &Path,
    email: &str,
    password: &str,
) -> Result<std::path::PathBuf, Error> {
    let path = data_dir.join("admin-password.txt");
    let text = format!("{email}\n{password}\n");
    content::beneath::Root::new(data_dir)
        .write_atomic_with(&path, text.as_bytes(), Some(0o600))
        .map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// Builds the site, then serves it until the process is stopped.
pub async fn run(config: Config) -> Result<(), Error> {
    // Held until the process ends: `sidecar restore` refuses while a server runs here.
    let _lock = backup::lock_data_dir(&config.data_dir)?;
    match connections::raise_fd_limit() {
        Ok(files) => tracing::info!(files, "open files allowed"),
        Err(e) => tracing::warn!(error = %e, "the limit of open files could not be raised"),
    }
    let project = ::site::Project::at(&config.root);
    let content = ::site::load(&project)?;
    let state = web::Data::new(AppState::open(&config, &content.site)?);
    // A first start encodes every photograph and prerenders the islands: it says so, and the
    // images' counter says how far it is.
    tracing::info!("building the site");
    let published = state.site.rebuild()?;
    tracing::info!(
        files = published.report.files,
        ms = published.report.elapsed.as_millis() as u64,
        "site built into {}",
        config.dist.display()
    );
    let waiting = state.site.images.count();
    if waiting > 0 {
        tracing::info!(
            "{waiting} photographs are shown as they are until their variants are encoded, in the background"
        );
    }
    if config.smtp_url.is_none() {
        tracing::warn!(
            "SMTP_URL is not set: contact messages are stored and written as .eml files in {}, and nobody is e-mailed",
            config.data_dir.join("outbox").display()
        );
    }
    Arc::clone(&state.contact.outbox).spawn(Duration::from_secs(config.outbox_poll_seconds.max(1)));
    scheduler::spawn(state.clone());
    variants::spawn(state.clone());
    git::spawn(state.clone());
    auth::spawn_session_sync(state.clone());
    let admin = state.auth.admin_email.clone();
    if let Some(password) =
        auth::password::ensure_admin(&state.auth.store, &admin, config.admin_password.as_deref())?
    {
        let path = hand_over_password(&config.data_dir, &admin, &password)?;
        tracing::warn!(
            "Utworzono konto administratora {admin}; hasło zapisano w pliku {} (tylko dla właściciela). Zmienisz je poleceniem `sidecar set-password {admin}`.",
            path.display()
        );
    }
    let maintained = state.clone();
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            let s = maintained.clone();
            if let Ok(Err(e)) = web::block(move || s.maintain(now())).await {
                tracing::warn!(error = %e, "maintenance");
            }
        }
    });
    // Kept alive while the server runs: dropping it stops watching.
    let _watcher = match &state.dev {
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
    if config.force_https && !config.origins.admin_https() {
        tracing::warn!(
            "FORCE_HTTPS=1, but ADMIN_ORIGIN is {}: set it to the panel's https:// address, or every sign-in is refused as coming from another site",
            config.origins.admin
        );
    }
    if config.force_https {
        warn_example_data(&state.site.live.current());
    }
    let panel_route = state.site.live.current().panel.keys().min().cloned();
    // One count of connections per client for both listeners.
    let cap = connections::Cap::new(
        config.connections_per_client,
        config.trusted_proxies.clone(),
    );
    let public = public_server(state.clone(), &config, &cap)?;
    let admin = admin_server(state, &config, &cap)?;
    println!(
        "Panel administracyjny: {}{}",
        config.origins.admin,
        panel_route.unwrap_or_default()
    );
    futures_util::future::try_join(public, admin)
        .await
        .map(|_| ())
        .map_err(Error::Serve)
}

/// A production start says loudly which facts of `site.yaml` are still example data. It
/// warns rather than refuses: a refusal would take a live site down over a legal entry not
/// yet copied from the register, while the log says it at every start and the panel's 'Dane
/// gabinetu' shows the same list until it is done.
fn warn_example_data(site: &site::Site) {
    let Some(renderer) = &site.renderer else {
        return;
    };
    let facts: Vec<&str> = renderer
        .content()
        .site
        .example_data
        .iter()
        .map(|f| f.key())
        .collect();
    if !facts.is_empty() {
        tracing::warn!(
            facts = %facts.join(", "),
            "EXAMPLE DATA ON A PRODUCTION START: site.yaml marks these facts as example data, not the practice's, and the privacy policy and the terms show them; copy them from the practice's CEIDG record and take them off example_data"
        );
    }
}

/// The public site's listener (`BIND`, `PORT`).
fn public_server(
    state: web::Data<AppState>,
    config: &Config,
    cap: &connections::Cap,
) -> Result<actix_web::dev::Server, Error> {
    // Blocking work is SQLite behind one lock, file writes and builds: a few threads do it
    // as fast as hundreds, without hundreds of stacks and allocator arenas.
    let server =
        actix_server::Server::build().worker_max_blocking_threads(BLOCKING_THREADS_PER_WORKER);
    listen(server, "site", &config.bind, config.port, cap, move || {
        public_app(state.clone())
    })
    .map(|(server, addresses)| {
        for address in addresses {
            println!("Strona działa pod adresem http://{address}");
        }
        server.run()
    })
}

/// The panel's listener (`ADMIN_BIND`, `ADMIN_PORT`): one administrator needs one worker.
fn admin_server(
    state: web::Data<AppState>,
    config: &Config,
    cap: &connections::Cap,
) -> Result<actix_web::dev::Server, Error> {
    let server = actix_server::Server::build()
        .workers(1)
        .worker_max_blocking_threads(BLOCKING_THREADS_PER_WORKER);
    listen(
        server,
        "panel",
        &config.admin_bind,
        config.admin_port,
        cap,
        move || admin_app(state.clone()),
    )
    .map(|(server, addresses)| {
        for address in addresses {
            tracing::info!("the panel listens on http://{address}");
        }
        server.run()
    })
}

/// Binds `host:port` and serves `app` there, each client's connections capped by `cap`.
fn listen<F, I, S, B>(
    mut server: actix_server::ServerBuilder,
    name: &str,
    host: &str,
    port: u16,
    cap: &connections::Cap,
    app: F,
) -> Result<(actix_server::ServerBuilder, Vec<std::net::SocketAddr>), Error>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: actix_service::IntoServiceFactory<S, actix_http::Request>,
    S: actix_service::ServiceFactory<actix_http::Request, Config = actix_web::dev::AppConfig>
        + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: std::fmt::Debug,
    S::Response: Into<actix_http::Response<B>> + 'static,
    <S::Service as actix_service::Service<actix_http::Request>>::Future: 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let address = format!("{host}:{port}");
    let bound = |source| Error::Bind {
        address: address.clone(),
        source,
    };
    let mut addresses = Vec::new();
    for listener in connections::bind(host, port).map_err(bound)? {
        addresses.push(listener.local_addr().map_err(bound)?);
        server = connections::listen(server, name, listener, cap, app.clone()).map_err(bound)?;
    }
    Ok((server, addresses))
}
