//! A commit status on the forge the repository lives on (GitHub, Gitea/Forgejo, GitLab):
//! success, or failure with the first problems and a link to the panel, so the editor sees
//! the verdict beside his commit. Sent by [`crate::changes::notify`]'s thread, never the
//! sync's, with a timeout.

use crate::config::forge::{Forge, ForgeKind};

/// The longest description each forge keeps (GitHub refuses a longer one).
fn description_limit(kind: ForgeKind) -> usize {
    match kind {
        ForgeKind::GitHub | ForgeKind::Gitea => 140,
        ForgeKind::GitLab => 255,
    }
}

/// What one status call sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCall {
    pub url: String,
    /// The header carrying the token, and its value.
    pub auth: (&'static str, String),
    pub body: serde_json::Value,
}

/// What the status says of a commit: success, or its first problems, as much as the
/// forge's limit holds.
pub fn description(kind: ForgeKind, problems: &[String]) -> String {
    let text = match problems {
        [] => "Treść sprawdzona i opublikowana na stronie.".to_string(),
        [one] => format!("Nie opublikowano: {one}"),
        [first, rest @ ..] => format!(
            "Nie opublikowano ({} problemów): {first}; {}",
            problems.len(),
            rest.join("; ")
        ),
    };
    trim(&text.replace(['\r', '\n'], " "), description_limit(kind))
}

/// `text` cut to at most `limit` characters, an ellipsis showing where.
fn trim(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Characters that may not stand raw in a path segment (GitLab's `group/name` id).
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.');

/// The call that sets the status of `commit` on `forge`: `problems` empty for success.
pub fn status_call(forge: &Forge, commit: &str, problems: &[String], panel: &str) -> StatusCall {
    let description = description(forge.kind, problems);
    match forge.kind {
        ForgeKind::GitHub | ForgeKind::Gitea => StatusCall {
            url: format!(
                "{}/repos/{}/statuses/{commit}",
                forge.api_url, forge.repository
            ),
            auth: (
                "Authorization",
                match forge.kind {
                    ForgeKind::GitHub => format!("Bearer {}", forge.token),
                    _ => format!("token {}", forge.token),
                },
            ),
            body: serde_json::json!({
                "state": if problems.is_empty() { "success" } else { "failure" },
                "description": description,
                "context": forge.context,
                "target_url": panel,
            }),
        },
        ForgeKind::GitLab => StatusCall {
            url: format!(
                "{}/projects/{}/statuses/{commit}",
                forge.api_url,
                percent_encoding::utf8_percent_encode(&forge.repository, SEGMENT)
            ),
            auth: ("PRIVATE-TOKEN", forge.token.clone()),
            body: serde_json::json!({
                "state": if problems.is_empty() { "success" } else { "failed" },
                "name": forge.context,
                "description": description,
                "target_url": panel,
            }),
        },
    }
}

/// Sets the status of `commit`; what went wrong in Polish, the token never in it.
pub fn send(forge: &Forge, commit: &str, problems: &[String], panel: &str) -> Result<(), String> {
    let call = status_call(forge, commit, problems, panel);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(forge.timeout))
        .http_status_as_error(false)
        .build()
        .into();
    let secret = |text: String| text.replace(&forge.token, "***");
    let answer = agent
        .post(&call.url)
        .header(call.auth.0, &call.auth.1)
        .header("Accept", "application/json")
        .header("User-Agent", "harmonia-sidecar")
        .content_type("application/json")
        .send(call.body.to_string());
    let mut response = answer.map_err(|e| {
        secret(format!(
            "status commitu {} na {}: brak odpowiedzi ({e})",
            short(commit),
            forge.api_url
        ))
    })?;
    let code = response.status().as_u16();
    if (200..300).contains(&code) {
        return Ok(());
    }
    let said: String = response
        .body_mut()
        .read_to_string()
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect();
    Err(secret(format!(
        "status commitu {} na {}: odpowiedź HTTP {code} {}",
        short(commit),
        forge.api_url,
        said.trim()
    )))
}

fn short(commit: &str) -> String {
    commit.chars().take(10).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forge(kind: ForgeKind, repository: &str) -> Forge {
        Forge {
            kind,
            api_url: "https://forge.example/api".into(),
            repository: repository.into(),
            token: "tajny-token".into(),
            context: "strona/treść".into(),
            timeout: std::time::Duration::from_secs(10),
        }
    }

    #[test]
    fn github_and_gitlab_get_their_own_shapes() {
        let problems = vec!["content/blog/x.md:3: zły nagłówek".to_string()];
        let call = status_call(
            &forge(ForgeKind::GitHub, "gabinet/tresc"),
            "abc",
            &problems,
            "https://panel.example/",
        );
        assert_eq!(
            call.url,
            "https://forge.example/api/repos/gabinet/tresc/statuses/abc"
        );
        assert_eq!(call.auth, ("Authorization", "Bearer tajny-token".into()));
        assert_eq!(call.body["state"], "failure");
        assert_eq!(
            call.body["description"],
            "Nie opublikowano: content/blog/x.md:3: zły nagłówek"
        );
        let gitea = status_call(&forge(ForgeKind::Gitea, "a/b"), "abc", &[], "p");
        assert_eq!(gitea.auth.1, "token tajny-token");
        assert_eq!(gitea.body["state"], "success");
        let call = status_call(
            &forge(ForgeKind::GitLab, "gabinet/treść"),
            "abc",
            &problems,
            "p",
        );
        assert_eq!(
            call.url,
            "https://forge.example/api/projects/gabinet%2Ftre%C5%9B%C4%87/statuses/abc"
        );
        assert_eq!(call.auth, ("PRIVATE-TOKEN", "tajny-token".into()));
        assert_eq!(
            (&call.body["state"], &call.body["name"]),
            (&"failed".into(), &"strona/treść".into())
        );
    }

    #[test]
    fn a_long_description_is_cut_to_the_forges_limit() {
        let problems: Vec<String> = (1..=20)
            .map(|i| format!("content/blog/artykuł-{i}.md:{i}: nagłówek bez znaku zapytania"))
            .collect();
        let github = description(ForgeKind::GitHub, &problems);
        assert_eq!(github.chars().count(), 140);
        assert!(github.starts_with("Nie opublikowano (20 problemów): content/blog/artykuł-1.md:1"));
        assert!(github.ends_with('…'));
        assert_eq!(
            description(ForgeKind::GitLab, &problems).chars().count(),
            255
        );
    }
}
