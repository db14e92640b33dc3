//! The sidecar: serves the built site from memory and answers what cannot be static — the
//! contact form, the admin panel's sign-in, pages and inbox — rebuilding the site after each
//! change. Two applications on two listeners: [`public_app`] (the site, the contact form,
//! health) and [`admin_app`] (the panel and its API, on the panel's own origin). [`run`] and
//! the tests use the very same two, middleware and all.
//!
//! It uses the `content` crate (the model), `site` (builds and serves the site) and `editing`
//! (the panel's changes to files); none of them uses it. All SQL is in [`db`].
//!
//! The `panel` feature (on by default) holds the panel's side; without it the same
//! [`public_app`] is served alone, and the panel's address answers [`serve::compiling`] (a
//! fresh clone's first `make run`, until the whole server is compiled).

/// Items only the server with its panel has (the `panel` feature, on by default). Without it,
/// a fresh clone's first `make run` compiles the public site's server alone and serves the site
/// while the whole server compiles (tokio's `cfg_*!` idiom).
macro_rules! panel {
    ($($item:item)*) => { $( #[cfg(feature = "panel")] $item )* };
}

panel! {
    pub mod alerts;
    pub mod audit;
    pub mod backup;
    pub mod changes;
}
pub mod api;
pub mod config;
pub mod data_lock;
pub mod db;
pub mod error;
pub mod http;
pub mod inbox;
pub mod metrics;
pub mod serve;
pub mod stats;
pub mod tasks;

pub mod state;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{middleware, web, App};
use std::sync::Arc;
use std::time::Duration;

use state::BLOCKING_THREADS_PER_WORKER;

use api::{contact, health, stats as statistics};
use http::{body, connections, request_log, target_limit};
use serve::{dev, headers, scheduler, static_files, variants};
panel! {
    use actix_web::http::header;
    use api::{articles, auth, data, git, history, images, messages};
    use api::{launch, pages, preview, system, team};
    use serve::panel;
}

pub use config::{Config, Origins};
pub use error::{ApiError, Error};
pub use state::AppState;

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
    let shared = state.clone();
    App::new()
        .app_data(state)
        .configure(|cfg| shared.share(cfg))
        .wrap(middleware::from_fn(target_limit::refuse_long_targets))
        .wrap(middleware::from_fn(body::deadline))
        .wrap(middleware::from_fn(headers::security_headers))
        .wrap(tracing_actix_web::TracingLogger::<request_log::RequestSpan>::new())
        .wrap(middleware::from_fn(metrics::count_requests))
        .configure(|cfg| {
            if let Some(dev) = dev {
                dev::configure(dev.into_inner())(cfg);
            }
        })
        .configure(contact::configure)
        .configure(|cfg| {
            if shared.stats.enabled() {
                statistics::configure_public(cfg);
            }
        })
        .configure(health::configure)
        .configure(webhook)
        .default_service(web::to(static_files::serve))
}

/// The panel's application, on its own origin: sign-in, every API that needs the
/// administrator, previews, and the panel's page with its files, with the panel origin's
/// headers and the request log.
#[cfg(feature = "panel")]
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
    let shared = state.clone();
    App::new()
        .app_data(state)
        .configure(|cfg| shared.share(cfg))
        .wrap(middleware::from_fn(target_limit::refuse_long_targets))
        .wrap(middleware::from_fn(body::deadline))
        .wrap(middleware::from_fn(panel::security_headers))
        // Nothing the panel answers is kept by a cache, unless it says otherwise (its files).
        .wrap(middleware::DefaultHeaders::new().add((header::CACHE_CONTROL, "no-store")))
        .wrap(tracing_actix_web::TracingLogger::<request_log::RequestSpan>::new())
        .wrap(middleware::from_fn(metrics::count_requests))
        .configure(auth::configure)
        .configure(api::audit::configure)
        .configure(pages::configure)
        .configure(articles::configure)
        .configure(team::configure)
        .configure(preview::configure)
        .configure(history::configure)
        .configure(data::configure)
        .configure(images::configure)
        .configure(messages::configure)
        .configure(git::panel::configure)
        .configure(git::tokens::configure)
        .configure(git::http::configure)
        .configure(system::configure)
        .configure(statistics::configure)
        .configure(launch::configure)
        .configure(panel::configure)
}

/// The git webhook (`GIT_REMOTE`), on the public listener: the whole server's.
fn webhook(_cfg: &mut web::ServiceConfig) {
    #[cfg(feature = "panel")]
    git::webhook::configure(_cfg);
}

/// The panel's address while only the public site's server runs ([`serve::compiling`]).
#[cfg(not(feature = "panel"))]
pub fn admin_app(
    _state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new().default_service(web::to(|| async { serve::compiling::answer() }))
}

/// Writes the generated admin password to a file only the server's user can read.
#[cfg(feature = "panel")]
fn hand_over_password(
    data_dir: &std::path::Path,
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
    let _lock = data_lock::lock_data_dir(&config.data_dir)?;
    metrics::install();
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
    match published.held.is_empty() {
        true => tracing::info!(
            files = published.report.files,
            ms = published.report.elapsed.as_millis() as u64,
            "site built into {}",
            config.dist.display()
        ),
        false => tracing::info!(
            files = published.report.files,
            ms = published.report.elapsed.as_millis() as u64,
            "site built for the panel only: not published while its facts are example data"
        ),
    }
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
    scheduler::spawn(state.site.clone());
    variants::spawn(state.site.clone());
    #[cfg(feature = "panel")]
    start_panel(&state, &config)?;
    let maintained = state.clone();
    crate::tasks::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            let s = maintained.clone();
            if let Ok(Err(e)) = crate::tasks::block(move || s.maintain(s.clock.now())).await {
                tracing::warn!(error = %e, "maintenance");
            }
        }
    });
    // Kept alive while the server runs: dropping it stops watching.
    #[cfg(feature = "panel")]
    let _watcher = match &state.dev {
        Some(d) => Some(
            dev::watch::watch(
                state.site.clone(),
                d.clone().into_inner(),
                config.root.clone(),
            )
            .map_err(|message| Error::Config {
                name: "DEV".into(),
                message,
            })?,
        ),
        None => None,
    };
    #[cfg(not(feature = "panel"))]
    if state.dev.is_some() {
        return Err(Error::Config {
            name: "DEV".into(),
            message: "`make dev` watches the sources with the whole server (the sidecar's `panel` feature)".into(),
        });
    }
    let panel_route = state.site.live.current().panel.keys().min().cloned();
    // One count of connections per client for both listeners.
    let cap = connections::Cap::new(
        config.connections_per_client,
        config.trusted_proxies.clone(),
    );
    // Counted but not yet written when the servers stop is written before the process ends.
    let stats = state.stats.clone();
    let public = public_server(state.clone(), &config, &cap)?;
    let admin = admin_server(state, &config, &cap)?;
    #[cfg(feature = "panel")]
    println!(
        "Panel administracyjny: {}{}",
        config.origins.admin,
        panel_route.unwrap_or_default()
    );
    #[cfg(not(feature = "panel"))]
    println!(
        "Panel administracyjny jeszcze się kompiluje; będzie pod adresem {}{}",
        config.origins.admin,
        panel_route.unwrap_or_default()
    );
    let served = futures_util::future::try_join(public, admin).await;
    stats.write_now().await;
    served.map(|_| ()).map_err(Error::Serve)
}

/// Starts what only the panel's side does: the scheduled backups, the alerts' watcher, the
/// content's sync, the administrator's account and the sessions' sync.
#[cfg(feature = "panel")]
fn start_panel(state: &web::Data<AppState>, config: &Config) -> Result<(), Error> {
    backup::schedule::spawn(config);
    state
        .watcher()
        .spawn(Duration::from_secs(config.alert_check_seconds.max(1)));
    state.spawn_sync(config);
    let admin = state.auth.admin_email.clone();
    // Before the sessions are synchronised with the database: a password set anew here ends
    // its sessions, and they are told why (a restart with the same password ends none).
    match auth::password::ensure_admin(&state.auth.store, &admin, config.admin_password.as_deref())?
    {
        auth::password::Ensured::Generated(password) => {
            let path = hand_over_password(&config.data_dir, &admin, &password)?;
            tracing::warn!(
                "Utworzono konto administratora {admin}; hasło zapisano w pliku {} (tylko dla właściciela). Zmienisz je poleceniem `sidecar set-password {admin}`.",
                path.display()
            );
        }
        auth::password::Ensured::PasswordChanged => {
            let ended = state
                .auth
                .sessions
                .password_changed(&admin, state.clock.now());
            tracing::warn!(ended, "ADMIN_PASSWORD differs from the account's password: it was set, and the sessions ended");
        }
        auth::password::Ensured::Kept | auth::password::Ensured::Created => {}
    }
    auth::login::spawn_session_sync(state.clone());
    if config.force_https && !config.origins.admin_https() {
        tracing::warn!(
            "FORCE_HTTPS=1, but ADMIN_ORIGIN is {}: set it to the panel's https:// address, or every sign-in is refused as coming from another site",
            config.origins.admin
        );
    }
    Ok(())
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
