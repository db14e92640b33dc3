//! What request handlers and background tasks share, by concern, and what the server does
//! with it now and then ([`AppState::maintain`]).

use actix_web::web;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{Config, Origins};
use crate::db;
use crate::error::Error;
use crate::http::body::Deadline;
use crate::http::client::Clients;
use crate::inbox::contact::ContactState;
use crate::inbox::outbox;
use crate::inbox::writer::Writer;
use crate::serve::dev::Dev;
use crate::serve::site::SiteState;
panel! {
    use crate::http::admin::PanelOrigin;
    use contentsync::GitSync;
}

/// How many of each document's newest revisions outlive `REVISION_RETENTION_DAYS`.
pub const KEPT_REVISIONS: usize = 10;

/// Threads each HTTP worker may use for blocking work (SQLite, files, builds).
pub const BLOCKING_THREADS_PER_WORKER: usize = 16;

/// What request handlers share, by concern. Each piece is shared on its own too
/// ([`AppState::share`]): what serves the site, checks a body's pace or a sign-in takes only
/// the piece it needs, never the whole.
pub struct AppState {
    pub db: Arc<db::Db>,
    pub clients: web::Data<Clients>,
    /// Where the public site and the panel are reached.
    pub origins: web::Data<Origins>,
    /// The panel's origin, as the session checks take it.
    #[cfg(feature = "panel")]
    pub panel: web::Data<PanelOrigin>,
    #[cfg(feature = "panel")]
    pub auth: web::Data<accounts::Accounts>,
    pub contact: web::Data<ContactState>,
    pub site: web::Data<SiteState>,
    /// The change pipeline: what every change of content works with.
    #[cfg(feature = "panel")]
    pub changes: web::Data<crate::changes::Pipeline>,
    /// `make dev`: rebuild on change and reload open tabs.
    pub dev: Option<web::Data<Dev>>,
    /// How slowly a request body may arrive.
    pub body_deadline: web::Data<Deadline>,
    /// `content/`'s repository and its remote branch (`GIT_REMOTE`), when set.
    #[cfg(feature = "panel")]
    pub git: Option<Arc<GitSync>>,
    /// The repository the server hosts for editors (`GIT_HOSTED`), when on.
    #[cfg(feature = "panel")]
    pub hosted: Option<web::Data<crate::changes::hosted::Hosted>>,
    /// The alerts and what 'Stan systemu' shows.
    #[cfg(feature = "panel")]
    pub system: web::Data<crate::alerts::System>,
    /// The site's own statistics (nothing runs with `STATS=off`).
    pub stats: web::Data<crate::stats::Stats>,
    /// The one clock ([`Config::clock`]): every "now" of the server is read from it.
    pub clock: clock::Clock,
}

fn random_secret() -> Result<Vec<u8>, Error> {
    let mut secret = vec![0_u8; 32];
    getrandom::fill(&mut secret).map_err(|e| Error::Config {
        name: "randomness".into(),
        message: format!("no source of randomness for the form's secret: {e}"),
    })?;
    Ok(secret)
}

fn mailbox(text: &str, name: &'static str) -> Result<lettre::message::Mailbox, Error> {
    text.parse().map_err(|e| Error::Config {
        name: name.into(),
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

/// The pieces of the state only the panel's side of the server has.
#[cfg(feature = "panel")]
struct PanelParts {
    origin: web::Data<PanelOrigin>,
    auth: web::Data<accounts::Accounts>,
    changes: web::Data<crate::changes::Pipeline>,
    git: Option<Arc<GitSync>>,
    hosted: Option<web::Data<crate::changes::hosted::Hosted>>,
}

#[cfg(feature = "panel")]
impl PanelParts {
    fn open(
        config: &Config,
        site: &content::SiteConfig,
        db: &Arc<db::Db>,
        site_state: &web::Data<SiteState>,
    ) -> Result<Self, Error> {
        let idle = config.session_idle_seconds.max(1);
        let max = config.session_max_hours.max(1) * 3600;
        let sessions = accounts::sessions::Sessions::load(&db.accounts(), idle, max)?;
        let git = match &config.git {
            Some(remote) => Some(Arc::new(GitSync::open(
                remote.clone(),
                &config.root.join("content"),
                &config.data_dir,
                db.conflicts()?,
                config.clock.clone(),
            )?)),
            None => None,
        };
        let hosted = match (&git, config.git_hosted) {
            (Some(git), true) => Some(web::Data::new(crate::changes::hosted::Hosted::open(
                config, &git.repo,
            )?)),
            _ => None,
        };
        let admin_email = config
            .admin_email
            .clone()
            .unwrap_or_else(|| site.email.clone());
        let auth = web::Data::new(accounts::Accounts {
            audit_retention_days: config.audit_retention_days,
            ..accounts::Accounts::new(db.accounts(), admin_email, sessions, &config.origins.admin)
        });
        let changes = web::Data::new(crate::changes::Pipeline {
            site: site_state.clone(),
            db: db.clone(),
            git: git.clone(),
            accounts: auth.clone(),
            clock: config.clock.clone(),
        });
        Ok(Self {
            origin: web::Data::new(PanelOrigin {
                origin: config.origins.admin.clone(),
                https: config.origins.admin_https(),
            }),
            auth,
            changes,
            git,
            hosted,
        })
    }
}

impl AppState {
    /// Opens the database and the outbox for `config`, with the practice's facts in `site`.
    /// The site is not built yet: call `state.site.rebuild()`.
    pub fn open(config: &Config, site: &content::SiteConfig) -> Result<Self, Error> {
        let db = Arc::new(
            db::Db::open(&config.data_dir.join("site.sqlite3"))?.with_clock(config.clock.clone()),
        );
        let secret = db.setting_or("token_secret", || random_secret().unwrap_or_default())?;
        if secret.len() < 32 {
            return Err(Error::Config {
                name: "randomness".into(),
                message: "no source of randomness for the form's secret".into(),
            });
        }
        let outbox = Arc::new(outbox(config, site, &db)?);
        let site_state = web::Data::new(SiteState::new(config));
        #[cfg(feature = "panel")]
        let panel = PanelParts::open(config, site, &db, &site_state)?;
        Ok(Self {
            clients: web::Data::new(Clients {
                proxies: config.trusted_proxies.clone(),
                force_https: config.force_https,
            }),
            origins: web::Data::new(config.origins.clone()),
            contact: web::Data::new(ContactState::new(
                secret,
                config.contact_rate_per_minute,
                config.contact_min_seconds,
                outbox,
                Writer::start(db.clone()).map_err(Error::Writer)?,
            )),
            site: site_state,
            dev: config.dev.then(|| web::Data::from(Dev::new())),
            #[cfg(feature = "panel")]
            panel: panel.origin,
            #[cfg(feature = "panel")]
            auth: panel.auth,
            #[cfg(feature = "panel")]
            changes: panel.changes,
            #[cfg(feature = "panel")]
            git: panel.git,
            #[cfg(feature = "panel")]
            hosted: panel.hosted,
            #[cfg(feature = "panel")]
            system: web::Data::new(crate::alerts::System::new(config)),
            stats: web::Data::new(
                crate::stats::Stats::start(
                    db.clone(),
                    crate::stats::Settings {
                        retention_months: config.measurement.retention_months,
                        per_second: config.stats_events_per_second,
                    },
                    config.measurement.statistics,
                )
                .map_err(Error::Writer)?,
            ),
            body_deadline: web::Data::new(Deadline {
                grace: Duration::from_secs(config.body_timeout_seconds.max(1)),
            }),
            clock: config.clock.clone(),
            db,
        })
    }

    /// Shares each piece on its own, for what needs only that piece.
    pub fn share(&self, cfg: &mut web::ServiceConfig) {
        cfg.app_data(self.clients.clone())
            .app_data(self.origins.clone())
            .app_data(self.contact.clone())
            .app_data(self.site.clone())
            .app_data(self.stats.clone())
            .app_data(self.body_deadline.clone());
        #[cfg(feature = "panel")]
        cfg.app_data(self.panel.clone())
            .app_data(self.auth.clone())
            .app_data(self.changes.clone());
        if let Some(dev) = &self.dev {
            cfg.app_data(dev.clone());
        }
    }

    /// Where the content's repository stands (`GIT_REMOTE`), without authors.
    pub fn git_status(&self) -> Option<serde_json::Value> {
        #[cfg(feature = "panel")]
        return self.git.as_ref().map(|g| g.status().public());
        #[cfg(not(feature = "panel"))]
        None
    }

    /// Forgets what has expired: sessions, old sign-in failures, idle rate-limit keys,
    /// revisions past `REVISION_RETENTION_DAYS` (but the newest few of each document), audit
    /// entries past `AUDIT_RETENTION_DAYS` and statistics past `STATS_RETENTION_MONTHS`.
    pub fn maintain(&self, now: i64) -> Result<(), Error> {
        #[cfg(feature = "panel")]
        self.maintain_panel(now)?;
        self.contact.prune();
        let kept_from = now - self.site.revision_retention_days * 86_400;
        self.db.prune_revisions(kept_from, KEPT_REVISIONS)?;
        self.stats.maintain(&self.db, now)?;
        Ok(())
    }
}

#[cfg(feature = "panel")]
impl AppState {
    /// The alerts' watcher, with what it looks at.
    pub fn watcher(&self) -> crate::alerts::watch::Watcher {
        crate::alerts::watch::Watcher {
            system: self.system.clone(),
            db: self.db.clone(),
            git: self.git.clone(),
            site: self.site.clone(),
            outbox: Arc::clone(&self.contact.outbox),
            admin: self.auth.admin_email.clone(),
        }
    }

    /// Starts the content's sync (when `GIT_REMOTE` is set) with what it needs of the state.
    pub fn spawn_sync(&self, config: &Config) {
        let around = crate::changes::sync::Around {
            hosted: self.hosted.clone(),
            outbox: Arc::clone(&self.contact.outbox),
            panel: self.origins.admin.clone(),
        };
        crate::changes::sync::spawn(&self.changes, around, config);
    }

    /// The panel's part of [`AppState::maintain`].
    fn maintain_panel(&self, now: i64) -> Result<(), Error> {
        self.auth.sessions.prune(now);
        let (idle_before, made_before) = self.auth.sessions.cutoffs(now);
        let accounts = &self.auth.store;
        accounts.delete_expired_sessions(idle_before, made_before)?;
        accounts.prune_login_failures(now - accounts::throttle::WINDOW_SECONDS)?;
        if let Some(hosted) = &self.hosted {
            hosted.refusals.retain_recent();
        }
        self.system.metrics_refusals.retain_recent();
        accounts.prune_audit(now - self.auth.audit_retention_days * 86_400)?;
        Ok(())
    }
}
