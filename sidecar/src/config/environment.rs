//! Every setting of the operators' table (docs/src/operators/environment.md) but the secrets,
//! declared once: its variable, its type, its default and its meaning. clap reads them from the
//! environment (`env`) when `sidecar` starts (`main.rs` flattens them into its command line);
//! each is also a flag of `sidecar` (`--port 9000`), which wins, and
//! `sidecar --help` lists them all. The secrets (`ADMIN_PASSWORD`, …) are never flags: they
//! come from [`super::secrets`], so that no command line or help text shows them.

use std::path::PathBuf;

use clap::{Args, FromArgMatches};

use crate::error::Error;

/// What the environment (or the flags) set; [`super::Config::new`] checks how they go together.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Settings (each also an environment variable)")]
pub struct Environment {
    /// Address the public site's listener listens on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1")]
    pub bind: String,
    /// Port of the public site's listener.
    #[arg(long, env = "PORT", default_value = "8080", value_parser = number::<u16>)]
    pub port: u16,
    /// Address the panel's listener listens on (the panel and every admin API).
    #[arg(long, env = "ADMIN_BIND", default_value = "127.0.0.1")]
    pub admin_bind: String,
    /// Port of the panel's listener [default: PORT + 1].
    #[arg(long, env = "ADMIN_PORT", value_parser = number::<u16>)]
    pub admin_port: Option<u16>,
    /// The public site's address as visitors reach it [default: http://BIND:PORT].
    #[arg(long, env = "PUBLIC_ORIGIN")]
    pub public_origin: Option<String>,
    /// The panel's address, on another host than the site's [default: http://localhost:ADMIN_PORT].
    #[arg(long, env = "ADMIN_ORIGIN")]
    pub admin_origin: Option<String>,
    /// Folder that holds content/ and templates/ [default: .].
    #[arg(long, env = "SITE_ROOT")]
    pub site_root: Option<String>,
    /// Where the built site is published [default: SITE_ROOT/dist].
    #[arg(long, env = "DIST_DIR")]
    pub dist_dir: Option<String>,
    /// The SQLite database and the e-mail outbox [default: SITE_ROOT/var].
    #[arg(long, env = "DATA_DIR")]
    pub data_dir: Option<String>,
    /// Who receives contact messages [default: the e-mail of site.yaml].
    #[arg(long, env = "CONTACT_TO")]
    pub contact_to: Option<String>,
    /// Messages and .eml files are deleted after this many days.
    #[arg(long, env = "MESSAGE_RETENTION_DAYS", default_value = "30", value_parser = number::<i64>)]
    pub message_retention_days: i64,
    /// Contact messages one client may send per minute.
    #[arg(long, env = "CONTACT_RATE_PER_MINUTE", default_value = "5", value_parser = number::<u32>)]
    pub contact_rate_per_minute: u32,
    /// A message sent sooner after the form was shown is marked as suspected spam.
    #[arg(long, env = "CONTACT_MIN_SECONDS", default_value = "3", value_parser = number::<i64>)]
    pub contact_min_seconds: i64,
    /// First retry of a failed delivery after this many seconds (then twice as long each time).
    #[arg(long, env = "OUTBOX_RETRY_SECONDS", default_value = "30", value_parser = number::<i64>)]
    pub outbox_retry_seconds: i64,
    /// How often the outbox looks for retries that are due.
    #[arg(long, env = "OUTBOX_POLL_SECONDS", default_value = "5", value_parser = number::<u64>)]
    pub outbox_poll_seconds: u64,
    /// The administrator's e-mail [default: the e-mail of site.yaml].
    #[arg(long, env = "ADMIN_EMAIL")]
    pub admin_email: Option<String>,
    /// A session ends after this many minutes without an action of the administrator's own.
    #[arg(long, env = "SESSION_IDLE_MINUTES", default_value = "120", value_parser = number::<i64>)]
    pub session_idle_minutes: i64,
    /// The same in seconds, for a shorter time; overrides SESSION_IDLE_MINUTES.
    #[arg(long, env = "SESSION_IDLE_SECONDS", value_parser = number::<i64>)]
    pub session_idle_seconds: Option<i64>,
    /// A session ends this long after sign-in, however busy.
    #[arg(long, env = "SESSION_MAX_HOURS", default_value = "12", value_parser = number::<i64>)]
    pub session_max_hours: i64,
    /// 1: the site and the panel are reached over HTTPS whatever the edge says.
    #[arg(long, env = "FORCE_HTTPS", default_value = "0", value_parser = switch, action = clap::ArgAction::Set)]
    pub force_https: bool,
    /// Addresses or CIDRs of the edge whose forwarding header is believed.
    #[arg(long, env = "TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,
    /// The header the edge writes the visitor's address in [default: X-Forwarded-For].
    #[arg(long, env = "FORWARDED_HEADER")]
    pub forwarded_header: Option<String>,
    /// Connections one client may hold open at once.
    #[arg(long, env = "CONNECTIONS_PER_CLIENT", default_value = "64", value_parser = number::<usize>)]
    pub connections_per_client: usize,
    /// A request body must start arriving within this many seconds.
    #[arg(long, env = "BODY_TIMEOUT_SECONDS", default_value = "10", value_parser = number::<u64>)]
    pub body_timeout_seconds: u64,
    /// Shell command run after each publish that changed something.
    #[arg(long, env = "PUBLISH_CMD")]
    pub publish_cmd: Option<String>,
    /// Shell command run after a publish, with CHANGED_ROUTES.
    #[arg(long, env = "PURGE_CMD")]
    pub purge_cmd: Option<String>,
    /// Variables PUBLISH_CMD and PURGE_CMD get: names, or prefixes ending in *.
    #[arg(long, env = "PUBLISH_ENV")]
    pub publish_env: Option<String>,
    /// Where the generated _redirects proxies /api/*.
    #[arg(long, env = "API_ORIGIN")]
    pub api_origin: Option<String>,
    /// 1: each save from the panel is a git commit in content/.
    #[arg(long, env = "CONTENT_GIT_COMMIT", default_value = "0", value_parser = switch, action = clap::ArgAction::Set)]
    pub content_git_commit: bool,
    /// The site's repository content/ tracks both ways.
    #[arg(long, env = "GIT_REMOTE")]
    pub git_remote: Option<String>,
    /// The branch GIT_REMOTE is tracked on [default: main].
    #[arg(long, env = "GIT_BRANCH")]
    pub git_branch: Option<String>,
    /// How often the remote is fetched besides the webhook; 0: only on a webhook.
    #[arg(long, env = "GIT_POLL_SECONDS", default_value = "60", value_parser = number::<u64>)]
    pub git_poll_seconds: u64,
    /// 1: the server hosts the content's repository itself (excludes GIT_REMOTE).
    #[arg(long, env = "GIT_HOSTED", default_value = "0", value_parser = switch, action = clap::ArgAction::Set)]
    pub git_hosted: bool,
    /// With GIT_HOSTED=1: a repository the branch is copied to after each change.
    #[arg(long, env = "GIT_MIRROR_URL")]
    pub git_mirror_url: Option<String>,
    #[command(flatten)]
    pub forge: ForgeSettings,
    /// Page revisions older than this many days are deleted (but the 10 newest of each).
    #[arg(long, env = "REVISION_RETENTION_DAYS", default_value = "365", value_parser = positive)]
    pub revision_retention_days: i64,
    /// Entries of the audit log older than this many days are deleted.
    #[arg(long, env = "AUDIT_RETENTION_DAYS", default_value = "365", value_parser = positive)]
    pub audit_retention_days: i64,
    /// 1: watch the sources, rebuild on change, reload open tabs (make dev).
    #[arg(long, env = "DEV", default_value = "0", value_parser = switch, action = clap::ArgAction::Set)]
    pub dev: bool,
    /// A restic repository for scheduled encrypted backups (needs BACKUP_PASSWORD).
    #[arg(long, env = "BACKUP_REPOSITORY")]
    pub backup_repository: Option<String>,
    /// Time between backups: 90s, 30m, 6h, 1d or off [default: 1h].
    #[arg(long, env = "BACKUP_INTERVAL")]
    pub backup_interval: Option<String>,
    /// Fetched after each good backup (a healthchecks-style monitor).
    #[arg(long, env = "BACKUP_PING_URL")]
    pub backup_ping_url: Option<String>,
    /// The longest one restic call may take [default: by the repository's kind].
    #[arg(long, env = "BACKUP_TIMEOUT")]
    pub backup_timeout: Option<String>,
    /// How often the alerts look at the outbox, backups, git and disk.
    #[arg(long, env = "ALERT_CHECK_SECONDS", default_value = "60", value_parser = number::<u64>)]
    pub alert_check_seconds: u64,
    /// The site's own statistics: on unless off.
    #[arg(long, env = "STATS")]
    pub stats: Option<String>,
    /// Whole months the statistics' counts are kept [default: 25].
    #[arg(long, env = "STATS_RETENTION_MONTHS")]
    pub stats_retention_months: Option<String>,
    /// Beacons one client may send each second.
    #[arg(long, env = "STATS_EVENTS_PER_SECOND", default_value = "5", value_parser = positive)]
    pub stats_events_per_second: i64,
    /// A Google tag's id (G-…, AW-…), loaded only after the visitor's consent.
    #[arg(long, env = "ANALYTICS_ID")]
    pub analytics_id: Option<String>,
}

/// The forge's variables (its token is a secret, read with the others).
#[derive(Debug, Clone, clap::Args)]
pub struct ForgeSettings {
    /// github, gitea (also forgejo) or gitlab: each checked commit gets a status there.
    #[arg(long, env = "FORGE_KIND")]
    pub forge_kind: Option<String>,
    /// The forge's API root [default: https://api.github.com, https://gitlab.com/api/v4].
    #[arg(long, env = "FORGE_API_URL")]
    pub forge_api_url: Option<String>,
    /// owner/name on GitHub and Gitea; GitLab's project id or group/name.
    #[arg(long, env = "FORGE_REPOSITORY")]
    pub forge_repository: Option<String>,
    /// The status's name on the forge [default: strona/treść].
    #[arg(long, env = "FORGE_STATUS_CONTEXT")]
    pub forge_status_context: Option<String>,
    /// How long one commit-status call may take, 1 to 600 seconds [default: 10].
    #[arg(long, env = "FORGE_TIMEOUT_SECONDS")]
    pub forge_timeout_seconds: Option<String>,
}

/// A value set and not blank; blank is unset, as in the table.
pub fn given(value: &Option<String>) -> Option<String> {
    value.clone().filter(|v| !v.trim().is_empty())
}

impl Environment {
    /// The settings `get` gives (a test's), the environment left out: each variable `get`
    /// knows goes in as its flag.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, Error> {
        let command = Self::command();
        let flags: Vec<String> = command
            .get_arguments()
            .filter_map(|arg| {
                let long = arg.get_long()?;
                let value = get(arg.get_env()?.to_str()?)?;
                Some(format!("--{long}={value}"))
            })
            .collect();
        let matches = command
            .clone()
            .mut_args(|arg| arg.env(None))
            .try_get_matches_from(flags)
            .map_err(|e| refusal(&command, &e))?;
        Self::from_arg_matches(&matches).map_err(|e| refusal(&command, &e))
    }

    /// The flattened arguments alone, as a command of their own.
    fn command() -> clap::Command {
        Self::augment_args(clap::Command::new("sidecar").no_binary_name(true))
    }
}

/// clap's refusal of a value, as the other configuration errors say it: the variable and why.
pub fn refusal(command: &clap::Command, error: &clap::Error) -> Error {
    use clap::error::{ContextKind, ContextValue};
    let long = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(flag)) => flag.trim_start_matches('-').split([' ', '=']).next(),
        _ => None,
    };
    let variable = command
        .get_arguments()
        .find(|arg| arg.get_long().is_some() && arg.get_long() == long)
        .and_then(|arg| arg.get_env()?.to_str().map(str::to_string));
    let message = match std::error::Error::source(error) {
        Some(reason) => reason.to_string(),
        None => error.kind().to_string(),
    };
    Error::Config {
        name: variable.unwrap_or_else(|| "the command line".into()).into(),
        message,
    }
}

/// A whole number of the field's type.
fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a valid number"))
}

/// A whole number of at least 1.
fn positive(text: &str) -> Result<i64, String> {
    match number::<i64>(text)? {
        value if value < 1 => Err(format!("'{value}' must be at least 1")),
        value => Ok(value),
    }
}

/// `1` is on; `0` or blank is off; anything else is refused rather than read as off.
fn switch(text: &str) -> Result<bool, String> {
    match text.trim() {
        "1" => Ok(true),
        "0" | "" => Ok(false),
        _ => Err(format!("'{text}' is neither 1 (on) nor 0 (off)")),
    }
}

/// A folder of the table: the one set, or `default`.
pub fn folder(value: &Option<String>, default: impl FnOnce() -> PathBuf) -> PathBuf {
    given(value).map_or_else(default, PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn read(pairs: &[(&str, &str)]) -> Result<Environment, Error> {
        Environment::from_lookup(|key| {
            pairs
                .iter()
                .find(|(name, _)| *name == key)
                .map(|(_, value)| value.to_string())
        })
    }

    #[test]
    fn a_switch_is_1_or_0_and_anything_else_is_refused_by_name() {
        assert!(read(&[("FORCE_HTTPS", " 1 ")]).expect("on").force_https);
        for off in ["0", "", " "] {
            assert!(!read(&[("DEV", off)]).expect("off").dev, "{off:?}");
        }
        for wrong in ["true", "yes", "on"] {
            let err = read(&[("GIT_HOSTED", wrong)]).expect_err(wrong).to_string();
            assert!(err.contains("GIT_HOSTED") && err.contains(wrong), "{err}");
        }
    }

    #[test]
    fn a_number_is_refused_with_its_variable_and_its_value() {
        let err = read(&[("CONNECTIONS_PER_CLIENT", "dużo")]).expect_err("not a number");
        assert_eq!(
            err.to_string(),
            "configuration CONNECTIONS_PER_CLIENT: 'dużo' is not a valid number"
        );
        let err = read(&[("STATS_EVENTS_PER_SECOND", "0")]).expect_err("below 1");
        assert_eq!(
            err.to_string(),
            "configuration STATS_EVENTS_PER_SECOND: '0' must be at least 1"
        );
        assert_eq!(
            read(&[("GIT_POLL_SECONDS", " 0 ")])
                .expect("0")
                .git_poll_seconds,
            0
        );
    }

    /// The operators' table and these declarations name the same variables: a setting added
    /// here without its row (or a row whose setting went) fails.
    #[test]
    fn every_setting_has_its_row_in_the_operators_table_and_every_row_is_read() {
        let table = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../docs/src/operators/environment.md"),
        )
        .expect("the operators' table");
        let documented: BTreeSet<String> = table
            .lines()
            .filter_map(|row| row.strip_prefix("| `")?.split('`').next())
            .map(str::to_string)
            .collect();
        let command = Environment::command();
        let settings = command
            .get_arguments()
            .filter_map(|arg| arg.get_env()?.to_str().map(str::to_string));
        let secrets = super::super::secrets::SECRETS
            .iter()
            .map(|s| s.variable.to_string());
        let read: BTreeSet<String> = settings.chain(secrets).collect();
        let unread: Vec<&String> = read.difference(&documented).collect();
        assert!(unread.is_empty(), "read but not in the table: {unread:?}");
        // Rows the generator, the log and the Makefile read, not the server's settings.
        let elsewhere = [
            "AUDIT_CHROMIUM",
            "CHROMIUM",
            "IMAGE_CACHE_DIR",
            "NODE",
            "RUST_LOG",
        ];
        let others: Vec<&String> = documented.difference(&read).collect();
        assert_eq!(others, elsewhere.iter().collect::<Vec<_>>());
    }
}
