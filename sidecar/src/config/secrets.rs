//! The server's secrets: the administrator's password set at start, the SMTP URL with its
//! credentials and the git webhook's secret (`GIT_WEBHOOK_SECRET`), the forge's token (`FORGE_TOKEN`), read from the environment (`ADMIN_PASSWORD`, `SMTP_URL`: what `make run` and
//! the tests give), from a file a variable names (`ADMIN_PASSWORD_FILE`, `SMTP_URL_FILE`), or
//! from systemd's credentials (`LoadCredential=`: `$CREDENTIALS_DIRECTORY/admin_password`,
//! `smtp_url`), in that order; and the variables `PUBLISH_ENV` names for `PUBLISH_CMD` and
//! `PURGE_CMD` (cloud tokens), which only those commands get.
//!
//! A process's first environment stays readable in `/proc/PID/environ` by every process of
//! its user for as long as it lives, whatever `remove_var` does: it is the memory the kernel
//! handed over at `exec`, and a child (node, git) runs as the same user. So a server started
//! with any of these in its environment first executes itself again, in the same process,
//! with that environment minus them, and hands them over on its standard input (a pipe
//! nothing else holds); the new image reads them and puts `/dev/null` back as its standard
//! input. Every child starts from an allow-listed environment ([`subprocess`]).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use crate::error::Error;

/// Whether two secrets (tokens, codes, their hashes) are the same, in time that depends on
/// neither where they differ nor how long either is: both are hashed to 32 bytes first, then
/// compared whole.
pub fn same_secret(a: &[u8], b: &[u8]) -> bool {
    use sha2::{Digest, Sha256};
    use subtle::ConstantTimeEq;
    Sha256::digest(a).ct_eq(&Sha256::digest(b)).into()
}

/// A secret: its variable and its credential's name.
pub struct Secret {
    pub variable: &'static str,
    pub credential: &'static str,
}

pub const SECRETS: [Secret; 6] = [
    Secret {
        variable: "ADMIN_PASSWORD",
        credential: "admin_password",
    },
    Secret {
        variable: "SMTP_URL",
        credential: "smtp_url",
    },
    Secret {
        variable: "GIT_WEBHOOK_SECRET",
        credential: "git_webhook_secret",
    },
    // The key of the backups' restic repository: restic reads it on its standard input.
    Secret {
        variable: "BACKUP_PASSWORD",
        credential: "backup_password",
    },
    // What a Prometheus scraper sends as `Authorization: Bearer …` for `/metrics`.
    Secret {
        variable: "METRICS_TOKEN",
        credential: "metrics_token",
    },
    Secret {
        variable: "FORGE_TOKEN",
        credential: "forge_token",
    },
];

/// Set in the environment of the image that reads its secrets on standard input.
const HANDED_OVER: &str = "HARMONIA_SECRETS_ON_STDIN";
/// Far above any password (1 KiB at most) and SMTP URL: a pipe holds it without blocking.
const MAX_BYTES: usize = 16 * 1024;

fn config_error(name: &'static str, message: String) -> Error {
    Error::Config {
        name: name.into(),
        message,
    }
}

/// The secrets found, by variable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets(BTreeMap<String, String>);

/// A credential file's text without its final line ending; empty means not set.
fn read_secret_file(path: &std::path::Path, name: &'static str) -> Result<Option<String>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| config_error(name, format!("cannot read {}: {e}", path.display())))?;
    let value = text.strip_suffix('\n').unwrap_or(&text);
    let value = value.strip_suffix('\r').unwrap_or(value);
    Ok((!value.trim().is_empty()).then(|| value.to_string()))
}

impl Secrets {
    pub fn get(&self, variable: &str) -> Option<&str> {
        self.0.get(variable).map(String::as_str)
    }

    /// What `PUBLISH_CMD` and `PURGE_CMD` get: the variables `PUBLISH_ENV` named.
    pub fn publish_environment(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(name, _)| !SECRETS.iter().any(|s| s.variable == name.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The secrets of `get` ([`Secrets::gather`]) and the variables of `environment` that
    /// `PUBLISH_ENV` names (but the base ones every child gets anyway, like `PATH`).
    pub fn gather_with_publish(
        get: impl Fn(&str) -> Option<String>,
        environment: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, Error> {
        let names = publish_env_names(get("PUBLISH_ENV").as_deref());
        let mut secrets = Self::gather(get)?;
        for (name, value) in environment {
            let base = subprocess::BASE_ENVIRONMENT.contains(&name.as_str());
            let secret = SECRETS.iter().any(|s| s.variable == name);
            if !base && !secret && subprocess::allowed(&name, &names) {
                secrets.0.insert(name, value);
            }
        }
        Ok(secrets)
    }

    /// Each secret from the variable of `get`, or else the file `NAME_FILE` names, or else
    /// the credential of `$CREDENTIALS_DIRECTORY`.
    pub fn gather(get: impl Fn(&str) -> Option<String>) -> Result<Self, Error> {
        let mut found = BTreeMap::new();
        let credentials = get("CREDENTIALS_DIRECTORY").filter(|d| !d.is_empty());
        for secret in &SECRETS {
            let value = match get(secret.variable).filter(|v| !v.trim().is_empty()) {
                Some(value) => Some(value),
                None => match get(&format!("{}_FILE", secret.variable)) {
                    Some(path) if !path.is_empty() => {
                        read_secret_file(path.as_ref(), secret.variable)?
                    }
                    _ => match &credentials {
                        Some(dir) => {
                            let path = std::path::Path::new(dir).join(secret.credential);
                            match path.exists() {
                                true => read_secret_file(&path, secret.variable)?,
                                false => None,
                            }
                        }
                        None => None,
                    },
                },
            };
            if let Some(value) = value {
                found.insert(secret.variable.to_string(), value);
            }
        }
        Ok(Secrets(found))
    }
}

/// The secrets of a server about to start. If any of them, or of the variables `PUBLISH_ENV`
/// names, is in the environment, this process executes itself again without them (this call
/// then does not return, but in the new image); fails only if that cannot be done.
pub fn take() -> Result<Secrets, Error> {
    if std::env::var_os(HANDED_OVER).is_some() {
        return receive();
    }
    let environment: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let secrets = Secrets::gather_with_publish(|k| std::env::var(k).ok(), environment)?;
    let in_environment = |name: &str| std::env::var_os(name).is_some();
    let scrubbed: Vec<String> = SECRETS
        .iter()
        .map(|s| s.variable.to_string())
        .chain(secrets.0.keys().cloned())
        .filter(|name| in_environment(name))
        .collect();
    if scrubbed.is_empty() {
        return Ok(secrets);
    }
    Err(restart_without(&secrets, &scrubbed))
}

/// Executes this program again with the same arguments and environment, minus `scrubbed`;
/// `secrets` go through a pipe on its standard input. Returns only on failure.
fn restart_without(secrets: &Secrets, scrubbed: &[String]) -> Error {
    let failed = |e: &dyn std::fmt::Display| {
        config_error(
            "ADMIN_PASSWORD/SMTP_URL",
            format!("cannot restart without the secrets in the environment: {e}"),
        )
    };
    let json = match serde_json::to_vec(&secrets.0) {
        Ok(json) if json.len() <= MAX_BYTES => json,
        Ok(_) => return failed(&format!("the secrets are longer than {MAX_BYTES} bytes")),
        Err(e) => return failed(&e),
    };
    let (reader, mut writer) = match std::io::pipe() {
        Ok(pipe) => pipe,
        Err(e) => return failed(&e),
    };
    if let Err(e) = writer.write_all(&json) {
        return failed(&e);
    }
    drop(writer);
    let program = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => return failed(&e),
    };
    let mut args = std::env::args_os();
    let mut command = Command::new(program);
    if let Some(name) = args.next() {
        command.arg0(name);
    }
    let environment = std::env::vars_os()
        .filter(|(name, _)| !scrubbed.iter().any(|s| name == s.as_str()) && name != HANDED_OVER);
    let err = command
        .args(args)
        .env_clear()
        .envs(environment)
        .env(HANDED_OVER, "1")
        .stdin(Stdio::from(reader))
        .exec();
    failed(&err)
}

/// In the image started by [`restart_without`]: the secrets from standard input, then
/// `/dev/null` as standard input.
fn receive() -> Result<Secrets, Error> {
    let failed = |e: &dyn std::fmt::Display| {
        config_error(
            "ADMIN_PASSWORD/SMTP_URL",
            format!("cannot receive the secrets: {e}"),
        )
    };
    let mut json = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut json)
        .map_err(|e| failed(&e))?;
    let null = std::fs::File::open("/dev/null").map_err(|e| failed(&e))?;
    rustix::stdio::dup2_stdin(&null).map_err(|e| failed(&e))?;
    // Not a secret, but nothing for a child either.
    std::env::remove_var(HANDED_OVER);
    let map: BTreeMap<String, String> = serde_json::from_slice(&json).map_err(|e| failed(&e))?;
    Ok(Secrets(map))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_wins_then_a_named_file_then_a_credential() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("admin_password"), "z poświadczeń\n").expect("write");
        std::fs::write(dir.path().join("smtp_url"), "smtp://a:b@host\r\n").expect("write");
        let named = dir.path().join("named");
        std::fs::write(&named, "z pliku\n").expect("write");
        let credentials = dir.path().to_string_lossy().into_owned();
        let secrets = |vars: &[(&str, String)]| {
            let vars = vars.to_vec();
            Secrets::gather(move |k| {
                vars.iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| v.clone())
            })
            .expect("gathered")
        };
        let from_credentials = secrets(&[("CREDENTIALS_DIRECTORY", credentials.clone())]);
        assert_eq!(
            from_credentials.get("ADMIN_PASSWORD"),
            Some("z poświadczeń")
        );
        assert_eq!(from_credentials.get("SMTP_URL"), Some("smtp://a:b@host"));
        let from_file = secrets(&[
            ("CREDENTIALS_DIRECTORY", credentials.clone()),
            ("ADMIN_PASSWORD_FILE", named.to_string_lossy().into_owned()),
        ]);
        assert_eq!(from_file.get("ADMIN_PASSWORD"), Some("z pliku"));
        let from_variable = secrets(&[
            ("CREDENTIALS_DIRECTORY", credentials),
            ("ADMIN_PASSWORD", "ze zmiennej".into()),
        ]);
        assert_eq!(from_variable.get("ADMIN_PASSWORD"), Some("ze zmiennej"));
        assert_eq!(secrets(&[]), Secrets::default());
    }

    #[test]
    fn publish_env_takes_its_variables_but_never_the_secrets_or_the_base_ones() {
        let env = [
            (
                "PUBLISH_ENV",
                "RCLONE_CONFIG_*,CF_API_TOKEN,ADMIN_PASSWORD,PATH",
            ),
            ("ADMIN_PASSWORD", "tajne"),
            ("PATH", "/usr/bin"),
            ("CF_API_TOKEN", "token"),
            ("CF_ZONE", "strefa"),
            ("RCLONE_CONFIG_B_TYPE", "s3"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let lookup = env.clone();
        let secrets = Secrets::gather_with_publish(
            move |k| lookup.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
            env,
        )
        .expect("gathered");
        assert_eq!(secrets.get("ADMIN_PASSWORD"), Some("tajne"));
        assert_eq!(
            secrets.publish_environment(),
            [
                ("CF_API_TOKEN".to_string(), "token".to_string()),
                ("RCLONE_CONFIG_B_TYPE".to_string(), "s3".to_string()),
            ]
        );
    }

    #[test]
    fn an_unreadable_named_file_is_an_error_that_names_the_secret() {
        let err = Secrets::gather(|k| {
            (k == "SMTP_URL_FILE").then(|| "/nonexistent/smtp_url".to_string())
        })
        .expect_err("missing file");
        assert!(err.to_string().contains("SMTP_URL"), "{err}");
    }
}
