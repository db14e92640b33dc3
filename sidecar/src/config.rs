//! Configuration from the environment, with defaults that need nothing set.

use std::path::PathBuf;

use crate::client::Proxies;
use crate::secrets::Secrets;

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: String,
    pub port: u16,
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
    pub session_idle_minutes: i64,
    /// A session ends this long after sign-in, however busy.
    pub session_max_hours: i64,
    /// Always treat requests as HTTPS: `Secure` cookies and HSTS whatever a proxy says.
    pub force_https: bool,
    /// Proxies whose `X-Forwarded-For`/`Forwarded` and `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Proxies,
    /// Run after each publish, for example to sync `dist/` to a CDN.
    pub publish_cmd: Option<String>,
    /// Run after a publish (and a successful `PUBLISH_CMD`) with `CHANGED_ROUTES`.
    pub purge_cmd: Option<String>,
    /// The variables `PUBLISH_CMD` and `PURGE_CMD` get beside the base ones and their own
    /// (`RCLONE_CONFIG_*,CF_API_TOKEN`): a name, or a prefix ending in `*`.
    pub publish_env: Vec<String>,
    /// Their values, taken out of the server's own environment at start (see
    /// [`crate::secrets`]).
    pub publish_environment: Vec<(String, String)>,
    /// Where the edge's `_redirects` proxies `/api/*`: the sidecar's public origin.
    pub api_origin: Option<String>,
    /// Each save from the panel becomes a git commit in `content/`.
    pub content_git_commit: bool,
    /// Revisions older than this are deleted, but the newest few of each document.
    pub revision_retention_days: i64,
    /// `make dev`: watch the sources, rebuild on change and reload open tabs.
    pub dev: bool,
}

impl Config {
    /// Reads every variable of the README's table, the secrets from the environment or
    /// their files (see [`crate::secrets`]): for the commands that start no child.
    pub fn from_env() -> Result<Self, crate::Error> {
        let secrets = Secrets::gather(|key| std::env::var(key).ok())?;
        Self::with_secrets(&secrets)
    }

    /// Reads every variable of the README's table, with the secrets given.
    pub fn with_secrets(secrets: &Secrets) -> Result<Self, crate::Error> {
        let mut config = Self::from_lookup(|key| match secrets.get(key) {
            Some(value) => Some(value.to_string()),
            None => std::env::var(key).ok(),
        })?;
        config.publish_environment = secrets.publish_environment();
        Ok(config)
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, crate::Error> {
        let root = PathBuf::from(get("SITE_ROOT").unwrap_or_else(|| ".".into()));
        let non_empty = |key: &str| get(key).filter(|v| !v.trim().is_empty());
        let flag = |key: &str| get(key).is_some_and(|v| v.trim() == "1");
        let proxies = non_empty("TRUSTED_PROXIES").unwrap_or_default();
        Ok(Self {
            bind: get("BIND").unwrap_or_else(|| "127.0.0.1".into()),
            port: number(&get, "PORT", 8080)?,
            dist: get("DIST_DIR").map_or_else(|| root.join("dist"), PathBuf::from),
            data_dir: get("DATA_DIR").map_or_else(|| root.join("var"), PathBuf::from),
            smtp_url: non_empty("SMTP_URL"),
            contact_to: non_empty("CONTACT_TO"),
            message_retention_days: number(&get, "MESSAGE_RETENTION_DAYS", 30)?,
            contact_rate_per_minute: number(&get, "CONTACT_RATE_PER_MINUTE", 5)?,
            contact_min_seconds: number(&get, "CONTACT_MIN_SECONDS", 3)?,
            outbox_retry_seconds: number(&get, "OUTBOX_RETRY_SECONDS", 30)?,
            outbox_poll_seconds: number(&get, "OUTBOX_POLL_SECONDS", 5)?,
            admin_email: non_empty("ADMIN_EMAIL"),
            admin_password: non_empty("ADMIN_PASSWORD"),
            session_idle_minutes: number(&get, "SESSION_IDLE_MINUTES", 120)?,
            session_max_hours: number(&get, "SESSION_MAX_HOURS", 12)?,
            force_https: flag("FORCE_HTTPS"),
            trusted_proxies: Proxies::parse(&proxies).map_err(|message| crate::Error::Config {
                name: "TRUSTED_PROXIES",
                message,
            })?,
            publish_cmd: non_empty("PUBLISH_CMD"),
            purge_cmd: non_empty("PURGE_CMD"),
            publish_env: publish_env_names(get("PUBLISH_ENV").as_deref()),
            publish_environment: Vec::new(),
            api_origin: non_empty("API_ORIGIN")
                .map(|v| generator::check_api_origin(&v))
                .transpose()
                .map_err(|message| crate::Error::Config {
                    name: "API_ORIGIN",
                    message,
                })?,
            content_git_commit: flag("CONTENT_GIT_COMMIT"),
            revision_retention_days: positive(&get, "REVISION_RETENTION_DAYS", 365)?,
            dev: flag("DEV"),
            root,
        })
    }
}

fn number<T: std::str::FromStr>(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: T,
) -> Result<T, crate::Error> {
    match get(name) {
        Some(v) => v.trim().parse().map_err(|_| crate::Error::Config {
            name,
            message: format!("'{v}' is not a valid number"),
        }),
        None => Ok(default),
    }
}

/// The names and prefixes (`RCLONE_CONFIG_*`) of `PUBLISH_ENV`, split at commas or spaces.
pub fn publish_env_names(value: Option<&str>) -> Vec<String> {
    value
        .unwrap_or_default()
        .split([',', ' '])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

/// A whole number of at least 1.
fn positive(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: i64,
) -> Result<i64, crate::Error> {
    let value = number(get, name, default)?;
    if value < 1 {
        return Err(crate::Error::Config {
            name,
            message: format!("'{value}' must be at least 1"),
        });
    }
    Ok(value)
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
    fn a_bad_port_or_proxy_is_named() {
        let err = Config::from_lookup(|k| (k == "PORT").then(|| "80a".into())).unwrap_err();
        assert!(err.to_string().contains("PORT"), "{err}");
        let err = Config::from_lookup(|k| (k == "TRUSTED_PROXIES").then(|| "10.0.0.0/99".into()))
            .unwrap_err();
        assert!(err.to_string().contains("TRUSTED_PROXIES"), "{err}");
    }
}
