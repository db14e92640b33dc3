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

/// A document both the panel and an editor changed at once: the repository keeps the
/// editor's text; the panel's is kept as a revision and a draft.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    pub doc_id: String,
    pub file: String,
    pub commit: String,
    pub author: String,
    pub editor_text: String,
    pub panel_text: String,
}

/// What the sync thread does with the remote, each failing and recovering on its own.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum Step {
    /// `git fetch` of the branch.
    Fetch,
    /// Putting a fetched commit into `content/` (the check tree, the panel's commits on top).
    Apply,
    /// `git push` of the panel's commits.
    Push,
    /// Telling the forge (a commit status) and the author (an e-mail) what the check of an
    /// editor's commit found.
    Notify,
    /// Copying the hosted repository to its mirror (`GIT_MIRROR_URL`).
    Mirror,
}

/// A step that failed the last time it ran, and what git said.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct StepError {
    pub step: Step,
    /// In Polish, with git's own words (credentials taken out).
    pub message: String,
    #[ts(type = "number")]
    pub at: i64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "GitStatus")]
pub struct Status {
    pub branch: String,
    /// Panel commits the remote does not have yet.
    pub unpushed: usize,
    /// Every step that failed the last time it ran, whatever waits to be pushed; a step's
    /// next success takes its error away.
    pub errors: Vec<StepError>,
    /// The newest of `errors` (credentials taken out of it).
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
    /// A push to the hosted repository is being checked and published: the branch and the
    /// panel's saves wait for it.
    pub receiving: bool,
}

impl Status {
    /// `step` failed, saying `message`: it replaces the step's earlier error.
    pub fn fail(&mut self, step: Step, message: String, at: i64) {
        self.errors.retain(|e| e.step != step);
        self.errors.push(StepError { step, message, at });
        self.newest_error();
    }

    /// `step` succeeded: its error, if any, is gone.
    pub fn succeed(&mut self, step: Step) {
        self.errors.retain(|e| e.step != step);
        self.newest_error();
    }

    fn newest_error(&mut self) {
        let newest = self.errors.iter().max_by_key(|e| e.at);
        self.last_error = newest.map(|e| e.message.clone());
        self.last_error_at = newest.map(|e| e.at);
    }

    /// What the public `/api/health` shows: flags, counts and times only. Which commit, who
    /// made it, what its problems are and what git said (errors name server paths, and a
    /// refused file's content can appear in a problem) are for the panel (`GET /api/git`).
    pub fn public(&self) -> serde_json::Value {
        serde_json::json!({
            "unpushed": self.unpushed,
            "failing": !self.errors.is_empty(),
            "failingSteps": self.errors.iter().map(|e| e.step).collect::<Vec<_>>(),
            "lastErrorAt": self.last_error_at,
            "pushedAt": self.pushed_at,
            "broken": self.broken.is_some(),
            "needsDeploy": self.needs_deploy.is_some(),
            "forcePush": self.force_push.is_some(),
            "conflicts": self.conflicts.len(),
            "fetches": self.fetches,
            "receiving": self.receiving,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_fails_and_recovers_on_its_own() {
        let mut status = Status::default();
        status.fail(Step::Fetch, "Nie udało się pobrać zmian".into(), 10);
        status.fail(Step::Push, "Nie udało się wysłać zmian".into(), 20);
        assert_eq!(
            status.last_error.as_deref(),
            Some("Nie udało się wysłać zmian")
        );
        status.succeed(Step::Push);
        assert_eq!(
            status.last_error.as_deref(),
            Some("Nie udało się pobrać zmian")
        );
        assert_eq!(status.last_error_at, Some(10));
        assert_eq!(
            status.public()["failingSteps"],
            serde_json::json!(["fetch"])
        );
        status.fail(Step::Fetch, "Nadal nie".into(), 30);
        assert_eq!(status.errors.len(), 1);
        status.succeed(Step::Fetch);
        assert_eq!((status.last_error, status.last_error_at), (None, None));
        assert!(status.errors.is_empty());
    }

    #[test]
    fn health_shows_flags_and_counts_only() {
        let mut status = Status {
            broken: Some(Refused {
                commit: "abc1234".into(),
                author: "Jan Kowalski <jan@example.pl>".into(),
                problems: vec![
                    "cennik.yaml:1: plik nie daje się odczytać (smtp_url: smtp://jan:tajne@poczta).".into(),
                ],
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
        status.fail(
            Step::Fetch,
            "Nie udało się pobrać zmian: git fetch in /srv/strona: smtp://jan:tajne@poczta".into(),
            5,
        );
        let public = status.public().to_string();
        for secret in [
            "Kowalski", "jan@", "tekst", "tajne", "/srv", "cennik", "abc1234", "articles",
        ] {
            assert!(!public.contains(secret), "{secret}: {public}");
        }
        assert_eq!(status.public()["broken"], true);
        assert_eq!(status.public()["failing"], true);
        assert_eq!(status.public()["conflicts"], 1);
    }
}
