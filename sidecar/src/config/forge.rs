//! Where the content's repository lives when it is on a forge (`FORGE_KIND`,
//! `FORGE_API_URL`, `FORGE_REPOSITORY`, the `FORGE_TOKEN` secret): each editor's commit the
//! sync checks gets a commit status there (see [`crate::changes::forge`]).

use crate::config::environment::{given, ForgeSettings};
use crate::error::Error;

/// Which forge's API the commit statuses go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForgeKind {
    GitHub,
    /// Gitea and Forgejo, which share GitHub's status call under `/api/v1`.
    Gitea,
    GitLab,
}

impl ForgeKind {
    fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "github" => Some(Self::GitHub),
            "gitea" | "forgejo" => Some(Self::Gitea),
            "gitlab" => Some(Self::GitLab),
            _ => None,
        }
    }

    /// The API root of the public service, when there is one.
    fn default_api(self) -> Option<&'static str> {
        match self {
            Self::GitHub => Some("https://api.github.com"),
            Self::GitLab => Some("https://gitlab.com/api/v4"),
            Self::Gitea => None,
        }
    }
}

/// A forge that gets a commit status for each checked commit.
#[derive(Clone, PartialEq, Eq)]
pub struct Forge {
    pub kind: ForgeKind,
    /// The API's root, without a final `/` (`https://api.github.com`,
    /// `https://gitea.example.pl/api/v1`, `https://gitlab.com/api/v4`).
    pub api_url: String,
    /// `owner/name` (GitHub, Gitea), or GitLab's project id or `group/name`.
    pub repository: String,
    pub token: String,
    /// The status's name on the forge (`FORGE_STATUS_CONTEXT`).
    pub context: String,
    /// How long one status call may take (`FORGE_TIMEOUT_SECONDS`, 10 by default).
    pub timeout: std::time::Duration,
}

/// The token stays out of logs and panics.
impl std::fmt::Debug for Forge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forge")
            .field("kind", &self.kind)
            .field("api_url", &self.api_url)
            .field("repository", &self.repository)
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
}

fn invalid(name: &'static str, message: String) -> Error {
    Error::Config {
        name: name.into(),
        message,
    }
}

impl Forge {
    /// The forge of `settings` and its `token`, `None` when `FORGE_KIND` is unset; a kind
    /// without its repository or token is refused at start, not found out at the first push.
    pub fn from_settings(
        settings: &ForgeSettings,
        token: Option<&str>,
    ) -> Result<Option<Self>, Error> {
        let Some(kind_text) = given(&settings.forge_kind) else {
            return Ok(None);
        };
        let kind = ForgeKind::parse(&kind_text).ok_or_else(|| {
            invalid(
                "FORGE_KIND",
                format!("'{kind_text}' is not github, gitea, forgejo or gitlab"),
            )
        })?;
        let api_url = match given(&settings.forge_api_url) {
            Some(url) => url.trim().trim_end_matches('/').to_string(),
            None => kind.default_api().map(str::to_string).ok_or_else(|| {
                invalid(
                    "FORGE_API_URL",
                    "Gitea and Forgejo need their API's address (https://gitea.example.pl/api/v1)"
                        .into(),
                )
            })?,
        };
        if !(api_url.starts_with("https://") || api_url.starts_with("http://")) {
            return Err(invalid(
                "FORGE_API_URL",
                format!("'{api_url}' is not an http(s) address"),
            ));
        }
        let repository = repository(given(&settings.forge_repository), kind)?;
        let token = token.filter(|t| !t.trim().is_empty()).ok_or_else(|| {
            invalid(
                "FORGE_TOKEN",
                "FORGE_KIND is set: give the token in FORGE_TOKEN_FILE or the credential forge_token"
                    .into(),
            )
        })?;
        Ok(Some(Forge {
            kind,
            api_url,
            repository,
            token: token.trim().to_string(),
            context: given(&settings.forge_status_context).unwrap_or_else(|| "strona/treść".into()),
            timeout: std::time::Duration::from_secs(timeout_seconds(given(
                &settings.forge_timeout_seconds,
            ))?),
        }))
    }
}

/// `FORGE_REPOSITORY`, required once a kind is set, in the form its forge names repositories.
fn repository(given: Option<String>, kind: ForgeKind) -> Result<String, Error> {
    let repository = given
        .map(|r| r.trim().trim_matches('/').to_string())
        .ok_or_else(|| {
            invalid(
                "FORGE_REPOSITORY",
                "FORGE_KIND is set: name the repository (owner/name, or GitLab's project id)"
                    .into(),
            )
        })?;
    let valid = match kind {
        ForgeKind::GitLab => !repository.contains(".."),
        _ => {
            repository.split('/').count() == 2
                && repository.split('/').all(|p| !p.is_empty() && p != "..")
        }
    };
    if !valid || repository.contains(['?', '#', ' ']) {
        return Err(invalid(
            "FORGE_REPOSITORY",
            format!("'{repository}' is not owner/name (or GitLab's project id)"),
        ));
    }
    Ok(repository)
}

/// `FORGE_TIMEOUT_SECONDS`: a whole number of seconds from 1 to 600; 10 when unset.
fn timeout_seconds(given: Option<String>) -> Result<u64, Error> {
    match given {
        None => Ok(10),
        Some(text) => text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|s| (1..=600).contains(s))
            .ok_or_else(|| {
                invalid(
                    "FORGE_TIMEOUT_SECONDS",
                    format!("'{text}' is not a number of seconds from 1 to 600"),
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forge(vars: &[(&str, &str)]) -> Result<Option<Forge>, Error> {
        let get = |k: &str| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        };
        let settings = crate::config::environment::Environment::from_lookup(get)?.forge;
        Forge::from_settings(&settings, get("FORGE_TOKEN").as_deref())
    }

    #[test]
    fn unset_means_no_forge_and_public_services_need_no_address() {
        assert_eq!(forge(&[]).expect("valid"), None);
        let github = forge(&[
            ("FORGE_KIND", "GitHub"),
            ("FORGE_REPOSITORY", "gabinet/tresc"),
            ("FORGE_TOKEN", "ghp_tajny\n"),
        ])
        .expect("valid")
        .expect("set");
        assert_eq!(github.api_url, "https://api.github.com");
        assert_eq!(github.token, "ghp_tajny");
        assert!(!format!("{github:?}").contains("tajny"));
        let gitlab = forge(&[
            ("FORGE_KIND", "gitlab"),
            ("FORGE_API_URL", "https://git.example.pl/api/v4/"),
            ("FORGE_REPOSITORY", "42"),
            ("FORGE_TOKEN", "glpat"),
        ])
        .expect("valid")
        .expect("set");
        assert_eq!(
            (gitlab.kind, gitlab.api_url.as_str()),
            (ForgeKind::GitLab, "https://git.example.pl/api/v4")
        );
    }

    #[test]
    fn a_forge_missing_a_setting_is_refused_by_name() {
        let cases: [(&[(&str, &str)], &str); 5] = [
            (&[("FORGE_KIND", "bitbucket")], "FORGE_KIND"),
            (
                &[("FORGE_KIND", "gitea"), ("FORGE_REPOSITORY", "a/b")],
                "FORGE_API_URL",
            ),
            (&[("FORGE_KIND", "github")], "FORGE_REPOSITORY"),
            (
                &[("FORGE_KIND", "github"), ("FORGE_REPOSITORY", "a/b/c")],
                "FORGE_REPOSITORY",
            ),
            (
                &[("FORGE_KIND", "github"), ("FORGE_REPOSITORY", "a/b")],
                "FORGE_TOKEN",
            ),
        ];
        for (vars, name) in cases {
            let err = forge(vars).expect_err(name);
            assert!(err.to_string().contains(name), "{name}: {err}");
        }
    }

    #[test]
    fn a_status_call_times_out_after_ten_seconds_or_as_set() {
        let set = |timeout: &str| {
            forge(&[
                ("FORGE_KIND", "github"),
                ("FORGE_REPOSITORY", "a/b"),
                ("FORGE_TOKEN", "t"),
                ("FORGE_TIMEOUT_SECONDS", timeout),
            ])
        };
        let seconds = |f: Option<Forge>| f.expect("set").timeout.as_secs();
        assert_eq!(seconds(set("").expect("valid")), 10, "unset: 10 s");
        assert_eq!(seconds(set("120").expect("valid")), 120);
        for wrong in ["0", "601", "dziesięć"] {
            let err = set(wrong).expect_err(wrong);
            assert!(err.to_string().contains("FORGE_TIMEOUT_SECONDS"), "{err}");
        }
    }
}
