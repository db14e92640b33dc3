//! Configuration from the environment, with defaults that need nothing set.

pub mod environment;
pub mod forge;
pub mod secrets;

use std::path::PathBuf;

use crate::config::environment::{folder, given, Environment};
use crate::config::secrets::Secrets;
use crate::error::Error;
use crate::http::client::{AddressHeader, Proxies};

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: String,
    pub port: u16,
    /// Where the panel and its API listen: a listener of their own, loopback by default.
    pub admin_bind: String,
    pub admin_port: u16,
    /// The public site's and the panel's origins as browsers see them.
    pub origins: Origins,
    /// The project root holding `content/` and `templates/`.
    pub root: PathBuf,
    /// Where the built site is published.
    pub dist: PathBuf,
    /// SQLite and the e-mail outbox (`var/` by default).
    pub data_dir: PathBuf,
    /// An SMTP server for contact e-mails; without one they are written as `.eml` files.
    pub smtp_url: Option<String>,
    /// Who receives contact messages (default: the practice's e-mail from `site.yaml`).
    pub contact_to: Option<String>,
    /// Messages (delivered, failed or held) and outbox files older than this are deleted.
    pub message_retention_days: i64,
    pub contact_rate_per_minute: u32,
    /// A submit sooner than this after the form was shown is suspected of being a bot.
    pub contact_min_seconds: i64,
    /// The first retry of a failed delivery waits this long; each next one twice as long.
    pub outbox_retry_seconds: i64,
    /// How often the outbox looks for messages due for a retry.
    pub outbox_poll_seconds: u64,
    /// The administrator (default: the practice's e-mail from `site.yaml`).
    pub admin_email: Option<String>,
    /// Hashed into SQLite at start; never stored or logged in clear.
    pub admin_password: Option<String>,
    /// A session ends when the administrator has done nothing for this long (the panel's
    /// own refreshes do not count): `SESSION_IDLE_MINUTES`, or `SESSION_IDLE_SECONDS` where a
    /// shorter time is wanted (a shared computer, the tests).
    pub session_idle_seconds: i64,
    /// A session ends this long after sign-in, however busy.
    pub session_max_hours: i64,
    /// Always treat requests as HTTPS: `Secure` cookies and HSTS whatever a proxy says.
    pub force_https: bool,
    /// Proxies whose forwarding header (`FORWARDED_HEADER`) is believed.
    pub trusted_proxies: Proxies,
    /// Connections one client (an address, an IPv6 /64) may hold open at once; more are
    /// refused when accepted. Trusted proxies are not limited.
    pub connections_per_client: usize,
    /// A request body must start arriving within this many seconds and then keep a minimal
    /// rate, or it is refused with 408.
    pub body_timeout_seconds: u64,
    /// Run after each publish, for example to sync `dist/` to a CDN.
    pub publish_cmd: Option<String>,
    /// Run after a publish (and a successful `PUBLISH_CMD`) with `CHANGED_ROUTES`.
    pub purge_cmd: Option<String>,
    /// The variables `PUBLISH_CMD` and `PURGE_CMD` get beside the base ones and their own
    /// (`RCLONE_CONFIG_*,CF_API_TOKEN`): a name, or a prefix ending in `*`.
    pub publish_env: Vec<String>,
    /// Their values, taken out of the server's own environment at start (see
    /// [`crate::config::secrets`]).
    pub publish_environment: Vec<(String, String)>,
    /// Where the edge's `_redirects` proxies `/api/*`: the sidecar's public origin.
    pub api_origin: Option<String>,
    /// Each save from the panel becomes a git commit in `content/`.
    pub content_git_commit: bool,
    /// The remote branch `content/`'s repository tracks (`GIT_REMOTE`, `GIT_BRANCH`,
    /// `GIT_POLL_SECONDS`, `GIT_WEBHOOK_SECRET`); `None` when `GIT_REMOTE` is unset.
    #[cfg(feature = "panel")]
    pub git: Option<GitRemote>,
    /// The server hosts the content's repository itself (`GIT_HOSTED=1`,
    /// `DATA_DIR/content.git`): editors clone and push it over HTTP on the panel's origin
    /// with tokens made in the panel, and the sync tracks it as its remote.
    pub git_hosted: bool,
    /// Where the hosted repository is copied after each change (`GIT_MIRROR_URL`), if set.
    pub git_mirror_url: Option<String>,
    /// The forge the repository lives on, told the verdict on each checked commit
    /// (`FORGE_KIND`, `FORGE_API_URL`, `FORGE_REPOSITORY`, `FORGE_TOKEN`).
    pub forge: Option<forge::Forge>,
    /// Revisions older than this are deleted, but the newest few of each document.
    pub revision_retention_days: i64,
    /// Entries of the audit log older than this are deleted.
    pub audit_retention_days: i64,
    /// `make dev`: watch the sources, rebuild on change and reload open tabs.
    pub dev: bool,
    /// Scheduled restic backups (`BACKUP_REPOSITORY`, …); `None` when no repository is set.
    pub backup: Option<BackupSettings>,
    /// How often the alerts look at the outbox, backups, git and disk (`ALERT_CHECK_SECONDS`).
    pub alert_check_seconds: u64,
    /// The bearer token of `/metrics` (`METRICS_TOKEN`, `METRICS_TOKEN_FILE`, the credential
    /// `metrics_token`); without one `/metrics` is off.
    pub metrics_token: Option<String>,
    /// The site's own statistics (`STATS`, on unless `off`; `STATS_RETENTION_MONTHS`) and the
    /// analytics tag (`ANALYTICS_ID`, loaded after consent; only then is there a banner).
    pub measurement: content::measurement::Measurement,
    /// Beacons one client may send each second (`STATS_EVENTS_PER_SECOND`).
    pub stats_events_per_second: u32,
    /// The server's one clock, handed down through its state: the system's, unless a test
    /// set one.
    pub clock: clock::Clock,
}

impl Config {
    /// A production start: the public site is served over HTTPS (`PUBLIC_ORIGIN` with
    /// `https://`) or `FORCE_HTTPS=1` says so. Such a start publishes nothing while the
    /// practice's facts are example data ([`crate::serve::launch`]).
    pub fn production(&self) -> bool {
        self.force_https || self.origins.public.starts_with("https://")
    }

    /// The settings and secrets `get` gives (a test's), the process's environment left out.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, Error> {
        let secrets = Secrets::gather(&get)?;
        Self::new(Environment::from_lookup(&get)?, &secrets)
    }

    /// The configuration of `environment` and `secrets`, with what each setting implies
    /// checked against the others.
    pub fn new(environment: Environment, secrets: &Secrets) -> Result<Self, Error> {
        let env = environment;
        let root = folder(&env.site_root, || PathBuf::from("."));
        let admin_port = match env.admin_port {
            Some(port) => port,
            None => env.port.checked_add(1).ok_or_else(|| Error::Config {
                name: "ADMIN_PORT".into(),
                message: "PORT is the last port: set ADMIN_PORT".into(),
            })?,
        };
        let origin = |name: &'static str, value: &Option<String>| {
            given(value)
                .map(|v| site::edge::check_origin(&v))
                .transpose()
                .map_err(|message| Error::Config {
                    name: name.into(),
                    message,
                })
        };
        let origins = Origins::new(
            origin("PUBLIC_ORIGIN", &env.public_origin)?,
            origin("ADMIN_ORIGIN", &env.admin_origin)?,
            &env.bind,
            env.port,
            admin_port,
        )?;
        let data_dir = folder(&env.data_dir, || root.join("var"));
        let secret = |name: &str| secrets.get(name).map(str::to_string);
        Ok(Self {
            admin_bind: env.admin_bind.clone(),
            admin_port,
            origins,
            bind: env.bind.clone(),
            port: env.port,
            dist: folder(&env.dist_dir, || root.join("dist")),
            #[cfg(feature = "panel")]
            git: git_remote(&env, &data_dir, secret("GIT_WEBHOOK_SECRET"))?,
            data_dir,
            smtp_url: secret("SMTP_URL"),
            contact_to: given(&env.contact_to),
            message_retention_days: env.message_retention_days,
            contact_rate_per_minute: env.contact_rate_per_minute,
            contact_min_seconds: env.contact_min_seconds,
            outbox_retry_seconds: env.outbox_retry_seconds,
            outbox_poll_seconds: env.outbox_poll_seconds,
            admin_email: given(&env.admin_email),
            admin_password: secret("ADMIN_PASSWORD"),
            session_idle_seconds: env
                .session_idle_seconds
                .unwrap_or(env.session_idle_minutes.saturating_mul(60)),
            session_max_hours: env.session_max_hours,
            force_https: env.force_https,
            trusted_proxies: proxies(&env)?,
            connections_per_client: env.connections_per_client,
            body_timeout_seconds: env.body_timeout_seconds,
            publish_cmd: given(&env.publish_cmd),
            purge_cmd: given(&env.purge_cmd),
            publish_env: secrets::publish_env_names(env.publish_env.as_deref()),
            publish_environment: secrets.publish_environment(),
            api_origin: origin("API_ORIGIN", &env.api_origin)?,
            content_git_commit: env.content_git_commit,
            git_hosted: env.git_hosted,
            git_mirror_url: given(&env.git_mirror_url),
            forge: forge::Forge::from_settings(&env.forge, secrets.get("FORGE_TOKEN"))?,
            revision_retention_days: env.revision_retention_days,
            audit_retention_days: env.audit_retention_days,
            dev: env.dev,
            backup: backup_settings(&env, secret("BACKUP_PASSWORD"))?,
            alert_check_seconds: env.alert_check_seconds,
            metrics_token: secret("METRICS_TOKEN"),
            measurement: content::measurement::Measurement::read(
                env.stats.as_deref(),
                env.stats_retention_months.as_deref(),
                env.analytics_id.as_deref(),
            )
            .map_err(|(name, message)| Error::Config {
                name: name.into(),
                message,
            })?,
            stats_events_per_second: env.stats_events_per_second.try_into().unwrap_or(u32::MAX),
            clock: clock::Clock::system(),
            root,
        })
    }
}

/// `TRUSTED_PROXIES` and the header they write the visitor's address in.
fn proxies(env: &Environment) -> Result<Proxies, Error> {
    let header = given(&env.forwarded_header).unwrap_or_else(|| "X-Forwarded-For".into());
    let header = AddressHeader::parse(&header).map_err(|message| Error::Config {
        name: "FORWARDED_HEADER".into(),
        message,
    })?;
    let proxies = given(&env.trusted_proxies).unwrap_or_default();
    Proxies::parse(&proxies)
        .map(|p| p.with_header(header))
        .map_err(|message| Error::Config {
            name: "TRUSTED_PROXIES".into(),
            message,
        })
}

/// Where and how often the scheduled backups go (see [`crate::backup::schedule`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSettings {
    /// Any restic repository: a path, `sftp:…`, `s3:…`, `rclone:…`.
    pub repository: String,
    /// The repository's key (`BACKUP_PASSWORD`, `BACKUP_PASSWORD_FILE` or the credential
    /// `backup_password`).
    pub password: String,
    /// Seconds between two backups; 0: none scheduled (`sidecar backup` still runs one).
    pub interval_seconds: u64,
    /// Fetched after each successful backup (a healthchecks-style ping), if set.
    pub ping_url: Option<String>,
    /// The longest one restic call may take before it is stopped with its children
    /// (`BACKUP_TIMEOUT`; by default [`default_backup_timeout`] of the repository's kind).
    pub timeout_seconds: u64,
}

/// How long one restic call may take on `repository` unless `BACKUP_TIMEOUT` says: ten
/// minutes on a folder of this machine, half an hour over sftp or restic's REST server, an
/// hour in a cloud's storage (S3, B2, Azure, Google, Swift, rclone), where a first upload of
/// the pictures is slowest. A repository that stops answering is stopped after that.
pub fn default_backup_timeout(repository: &str) -> u64 {
    let scheme = repository.split_once(':').map(|(s, _)| s);
    match scheme {
        Some("sftp" | "rest") => 30 * 60,
        Some("s3" | "b2" | "azure" | "gs" | "swift" | "rclone") => 60 * 60,
        _ => 10 * 60,
    }
}

/// `BACKUP_REPOSITORY`, its password, `BACKUP_INTERVAL` (default 1h) and `BACKUP_PING_URL`.
fn backup_settings(
    env: &Environment,
    password: Option<String>,
) -> Result<Option<BackupSettings>, Error> {
    let Some(repository) = given(&env.backup_repository) else {
        return Ok(None);
    };
    let password = password.ok_or_else(|| Error::Config {
        name: "BACKUP_PASSWORD".into(),
        message: "BACKUP_REPOSITORY is set without the repository's password: give it in the file BACKUP_PASSWORD_FILE names (or the credential backup_password)".into(),
    })?;
    let interval_seconds = match given(&env.backup_interval) {
        Some(text) => interval(&text).ok_or_else(|| Error::Config {
            name: "BACKUP_INTERVAL".into(),
            message: format!("'{text}' is not a duration such as 1h, 30m, 90s or off"),
        })?,
        None => 3600,
    };
    let repository = repository.trim().to_string();
    let timeout_seconds = match given(&env.backup_timeout) {
        Some(text) => interval(&text)
            .filter(|t| *t > 0)
            .ok_or_else(|| Error::Config {
                name: "BACKUP_TIMEOUT".into(),
                message: format!("'{text}' is not a duration such as 30m, 1h or 600s"),
            })?,
        None => default_backup_timeout(&repository),
    };
    Ok(Some(BackupSettings {
        repository,
        password,
        interval_seconds,
        ping_url: given(&env.backup_ping_url),
        timeout_seconds,
    }))
}

/// The hosted repository's folder in `DATA_DIR` (`GIT_HOSTED`).
pub const HOSTED_REPOSITORY: &str = "content.git";

/// The hosted repository of `data_dir`, absolute.
pub fn bare_repo(data_dir: &std::path::Path) -> PathBuf {
    std::path::absolute(data_dir)
        .unwrap_or_else(|_| data_dir.to_path_buf())
        .join(HOSTED_REPOSITORY)
}

#[cfg(feature = "panel")]
/// The branch the sync tracks: `GIT_REMOTE`'s, or with `GIT_HOSTED=1` the repository the
/// server hosts (the two exclude each other: a hosted repository is copied to a forge with
/// `GIT_MIRROR_URL`).
fn git_remote(
    env: &Environment,
    data_dir: &std::path::Path,
    webhook_secret: Option<String>,
) -> Result<Option<GitRemote>, Error> {
    let url = match (given(&env.git_remote), env.git_hosted) {
        (Some(_), true) => {
            return Err(Error::Config {
                name: "GIT_HOSTED".into(),
                message: "GIT_HOSTED=1 hosts the repository here: unset GIT_REMOTE (a copy on a forge is GIT_MIRROR_URL)".into(),
            })
        }
        (Some(url), false) => url,
        (None, true) => bare_repo(data_dir)
            .to_string_lossy()
            .into_owned(),
        (None, false) => return Ok(None),
    };
    Ok(Some(GitRemote {
        url,
        branch: given(&env.git_branch).unwrap_or_else(|| "main".into()),
        poll_seconds: env.git_poll_seconds,
        webhook_secret,
    }))
}

/// Seconds of `30s`, `15m`, `1h`, `1d` or a bare number of seconds; `off` and `0` are 0.
fn interval(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("off") {
        return Some(0);
    }
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let unit = match unit.trim() {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return None,
    };
    number.parse::<u64>().ok()?.checked_mul(unit)
}

/// The remote branch the content's repository tracks, both ways (see [`crate::changes::sync`]).
#[cfg(feature = "panel")]
pub use contentsync::Remote as GitRemote;

/// Where visitors and the administrator reach the two listeners: `scheme://host[:port]`,
/// as a browser writes it in `Origin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origins {
    /// The public site (`PUBLIC_ORIGIN`); the panel's links to the site go there.
    pub public: String,
    /// The panel (`ADMIN_ORIGIN`): its requests that change something must come from there.
    pub admin: String,
}

/// `host[:port]` of an origin, without the scheme.
fn authority(origin: &str) -> &str {
    origin.split_once("://").map_or(origin, |(_, rest)| rest)
}

/// The host of an origin, without the port.
fn host(origin: &str) -> &str {
    let authority = authority(origin);
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.split(':').next().unwrap_or(authority),
    }
}

impl Origins {
    /// The given origins, or the loopback defaults of `make run`: the public site at
    /// `http://BIND:PORT` (`127.0.0.1` for an unspecified `BIND`) and the panel on
    /// another host, `http://localhost:ADMIN_PORT` (or `127.0.0.1` beside a public
    /// `localhost`). Browsers share cookies between the ports of one host and count them as
    /// one site, so the panel must have a host of its own.
    pub fn new(
        public: Option<String>,
        admin: Option<String>,
        bind: &str,
        port: u16,
        admin_port: u16,
    ) -> Result<Self, Error> {
        let public = public.unwrap_or_else(|| {
            let host = match bind {
                "0.0.0.0" | "" => "127.0.0.1",
                "::" | "[::]" => "[::1]",
                h if h.contains(':') && !h.starts_with('[') => {
                    return format!("http://[{h}]:{port}")
                }
                h => h,
            };
            format!("http://{host}:{port}")
        });
        let admin = admin.unwrap_or_else(|| match host(&public) {
            "localhost" => format!("http://127.0.0.1:{admin_port}"),
            _ => format!("http://localhost:{admin_port}"),
        });
        if host(&public) == host(&admin) {
            return Err(Error::Config {
                name: "ADMIN_ORIGIN".into(),
                message: format!(
                    "{admin} has the host of the public site ({public}): browsers share cookies between the ports of one host, so the panel needs a host of its own (panel.example.pl, or localhost beside 127.0.0.1)"
                ),
            });
        }
        Ok(Origins { public, admin })
    }

    /// Whether the panel is reached over HTTPS (its cookie is then `__Host-` and `Secure`).
    pub fn admin_https(&self) -> bool {
        self.admin.starts_with("https://")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_need_nothing_set() {
        let c = Config::from_lookup(|_| None).expect("test setup");
        assert_eq!((c.bind.as_str(), c.port), ("127.0.0.1", 8080));
        assert_eq!(c.dist, PathBuf::from("./dist"));
        assert_eq!(c.data_dir, PathBuf::from("./var"));
        assert_eq!(
            (
                c.smtp_url,
                c.message_retention_days,
                c.contact_rate_per_minute
            ),
            (None, 30, 5)
        );
        assert_eq!((c.session_max_hours, c.force_https), (12, false));
        assert_eq!(c.revision_retention_days, 365);
        assert!(c.publish_env.is_empty());
    }

    #[test]
    fn backups_run_hourly_once_a_repository_is_set_and_need_its_password() {
        assert_eq!(
            Config::from_lookup(|_| None).expect("defaults").backup,
            None
        );
        let settings = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Config::from_lookup(move |k| {
                pairs
                    .iter()
                    .find(|(name, _)| name == k)
                    .map(|(_, v)| v.clone())
            })
            .map(|c| c.backup)
        };
        let hourly = settings(&[
            ("BACKUP_REPOSITORY", "/srv/kopie"),
            ("BACKUP_PASSWORD", "k"),
        ])
        .expect("valid")
        .expect("on");
        assert_eq!((hourly.interval_seconds, hourly.ping_url), (3600, None));
        for (text, seconds) in [
            ("30m", 1800),
            ("2h", 7200),
            ("45", 45),
            ("off", 0),
            ("1d", 86_400),
        ] {
            let s = settings(&[
                ("BACKUP_REPOSITORY", "sftp:kopie@host:/kopie"),
                ("BACKUP_PASSWORD", "k"),
                ("BACKUP_INTERVAL", text),
            ])
            .expect("valid")
            .expect("on");
            assert_eq!(s.interval_seconds, seconds, "{text}");
        }
        let err = settings(&[("BACKUP_REPOSITORY", "/srv/kopie")]).unwrap_err();
        assert!(err.to_string().contains("BACKUP_PASSWORD"), "{err}");
        let err = settings(&[
            ("BACKUP_REPOSITORY", "/srv/kopie"),
            ("BACKUP_PASSWORD", "k"),
            ("BACKUP_INTERVAL", "co godzinę"),
        ])
        .unwrap_err();
        assert!(err.to_string().contains("BACKUP_INTERVAL"), "{err}");
    }

    #[test]
    fn publish_env_lists_names_and_prefixes() {
        let c = Config::from_lookup(|k| {
            (k == "PUBLISH_ENV").then(|| "RCLONE_CONFIG_*, CF_API_TOKEN,CF_ZONE".into())
        })
        .expect("valid");
        assert_eq!(
            c.publish_env,
            ["RCLONE_CONFIG_*", "CF_API_TOKEN", "CF_ZONE"]
        );
        let err = Config::from_lookup(|k| (k == "REVISION_RETENTION_DAYS").then(|| "0".into()))
            .unwrap_err();
        assert!(err.to_string().contains("REVISION_RETENTION_DAYS"), "{err}");
    }

    #[test]
    fn the_panel_gets_another_host_and_the_next_port_by_default() {
        let c = Config::from_lookup(|_| None).expect("defaults");
        assert_eq!((c.admin_bind.as_str(), c.admin_port), ("127.0.0.1", 8081));
        assert_eq!(c.origins.public, "http://127.0.0.1:8080");
        assert_eq!(c.origins.admin, "http://localhost:8081");
        assert!(!c.origins.admin_https());
        let c = Config::from_lookup(|k| (k == "PORT").then(|| "8280".into())).expect("port");
        assert_eq!((c.port, c.admin_port), (8280, 8281));
        let c = Config::from_lookup(|k| (k == "BIND").then(|| "localhost".into())).expect("bind");
        assert_eq!(c.origins.admin, "http://127.0.0.1:8081");
        let c = Config::from_lookup(|k| match k {
            "ADMIN_ORIGIN" => Some("https://Panel.Gabinet.pl/".into()),
            "PUBLIC_ORIGIN" => Some("https://gabinet.pl".into()),
            _ => None,
        })
        .expect("production");
        assert_eq!(c.origins.admin, "https://panel.gabinet.pl");
        assert!(c.origins.admin_https());
    }

    #[test]
    fn a_panel_on_the_host_of_the_site_is_refused() {
        let err =
            Config::from_lookup(|k| (k == "ADMIN_ORIGIN").then(|| "http://127.0.0.1:9000".into()))
                .unwrap_err();
        assert!(err.to_string().contains("ADMIN_ORIGIN"), "{err}");
        assert!(err.to_string().contains("share cookies"), "{err}");
        let err = Config::from_lookup(|k| (k == "ADMIN_ORIGIN").then(|| "panel.gabinet.pl".into()))
            .unwrap_err();
        assert!(err.to_string().contains("ADMIN_ORIGIN"), "{err}");
    }

    #[test]
    fn a_bad_port_or_proxy_is_named() {
        let err = Config::from_lookup(|k| (k == "PORT").then(|| "80a".into())).unwrap_err();
        assert!(err.to_string().contains("PORT"), "{err}");
        let err = Config::from_lookup(|k| (k == "TRUSTED_PROXIES").then(|| "10.0.0.0/99".into()))
            .unwrap_err();
        assert!(err.to_string().contains("TRUSTED_PROXIES"), "{err}");
        let err = Config::from_lookup(|k| (k == "FORWARDED_HEADER").then(|| "X Real".into()))
            .unwrap_err();
        assert!(err.to_string().contains("FORWARDED_HEADER"), "{err}");
    }
}
