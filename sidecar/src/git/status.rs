//! Where the content's repository stands, as the panel and `/api/health` show it.

use serde::Serialize;

/// An editor's commit that was not applied, and why.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Refused {
    pub commit: String,
    /// `Name <e-mail>`: shown in the panel only, never in health.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[ts(as = "Option<String>", optional)]
    pub author: String,
    /// Every problem, in Polish, each with its file and line.
    pub problems: Vec<String>,
}

pub use crate::db::Conflict;

#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "GitStatus")]
pub struct Status {
    pub branch: String,
    /// Panel commits the remote does not have yet.
    pub unpushed: usize,
    /// Why the last push or fetch failed (credentials taken out of it).
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    pub pushed_at: Option<i64>,
    /// The newest remote commit applied.
    pub applied: Option<String>,
    /// An editor's commit that does not build: the last good build is served.
    pub broken: Option<Refused>,
    /// An editor's commit that changes more than content: it waits for a deploy.
    pub needs_deploy: Option<Refused>,
    /// The remote branch lost commits it had (a force-push): nothing is fetched until fixed.
    pub force_push: Option<Refused>,
    /// Documents changed on both sides at once, with both texts.
    pub conflicts: Vec<Conflict>,
    /// Fetches made since the start (webhooks and polls coalesce into these).
    pub fetches: u64,
}

impl Status {
    /// What `/api/health` shows: counts, commits and problems; no author, no texts.
    pub fn public(&self) -> serde_json::Value {
        let strip = |r: &Option<Refused>| {
            r.as_ref().map(|r| Refused {
                author: String::new(),
                ..r.clone()
            })
        };
        serde_json::json!({
            "branch": self.branch,
            "unpushed": self.unpushed,
            "notPushed": (self.unpushed > 0).then(|| format!("not yet pushed: {} commits", self.unpushed)),
            "lastError": self.last_error,
            "lastErrorAt": self.last_error_at,
            "pushedAt": self.pushed_at,
            "applied": self.applied,
            "broken": strip(&self.broken),
            "needsDeploy": strip(&self.needs_deploy),
            "forcePush": strip(&self.force_push),
            "conflicts": self.conflicts.iter().map(|c| &c.doc_id).collect::<Vec<_>>(),
            "fetches": self.fetches,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_shows_no_author_and_no_text() {
        let status = Status {
            broken: Some(Refused {
                commit: "abc1234".into(),
                author: "Jan Kowalski <jan@example.pl>".into(),
                problems: vec!["articles/x.md:3: brak tytułu".into()],
            }),
            conflicts: vec![Conflict {
                doc_id: "articles/x".into(),
                file: "articles/x.md".into(),
                commit: "abc1234".into(),
                author: "Jan Kowalski <jan@example.pl>".into(),
                editor_text: "tekst redaktora".into(),
                panel_text: "tekst z panelu".into(),
            }],
            ..Status::default()
        };
        let public = status.public().to_string();
        assert!(
            !public.contains("Kowalski") && !public.contains("jan@"),
            "{public}"
        );
        assert!(!public.contains("tekst"), "{public}");
        assert!(public.contains("articles/x.md:3"), "{public}");
    }
}
