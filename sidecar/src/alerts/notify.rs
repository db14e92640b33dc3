//! Which e-mails the alerts send: one when an alert is raised, a reminder a day later if it
//! still holds, one when it is resolved; never more than [`MAX_PER_HOUR`] an hour (a
//! flapping condition must not bury the administrator's inbox). Kept in
//! `DATA_DIR/alerts-state.json`, so a restart neither repeats a mail nor forgets one owed.
//! A mail that could not be sent (the relay is the problem, often) is tried again at the
//! next check.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

use crate::alerts::conditions::Alert;
use crate::error::Error;

pub const STATE_FILE: &str = "alerts-state.json";
pub const MAX_PER_HOUR: usize = 5;
pub const REMIND_AFTER_SECONDS: i64 = 24 * 3600;

/// An alert that was raised, and when it was last mailed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Raised {
    pub title: String,
    pub since: i64,
    pub mailed_at: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub raised: BTreeMap<String, Raised>,
    /// When each of the last hour's mails was sent.
    pub sent: Vec<i64>,
    /// Since when git has been failing, as first seen (the sync status keeps only the last
    /// failure).
    pub git_failing_since: Option<i64>,
    /// Since when copying the hosted repository to its mirror has been failing.
    #[serde(default)]
    pub mirror_failing_since: Option<i64>,
    /// Photographs waiting for their variants at the last check, and since when their number
    /// has not gone down.
    #[serde(default)]
    pub images_waiting: Option<(usize, i64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Raised,
    Reminder,
    Resolved,
}

/// One e-mail to the administrator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub key: String,
    pub kind: Kind,
    pub subject: String,
    pub body: String,
}

const FOOTER: &str = "\n\nTa wiadomość została wysłana automatycznie przez serwer strony. Stan systemu widać w panelu, w zakładce „Stan systemu”; co oznacza każdy stan, opisuje przewodnik po panelu (rozdział „Stan systemu i alerty”).";

/// Where an e-mail's words for the owner end and those for whoever looks after the server
/// begin (the panel shows them under the same heading).
pub const DETAILS: &str = "Szczegóły dla informatyka";

/// The text of an alert's e-mail: what happened and what it means, what to do, and the
/// program's own words last, under [`DETAILS`].
pub fn body(alert: &Alert) -> String {
    let mut body = format!(
        "{}.\n\n{}\n\nCo zrobić: {}{FOOTER}",
        alert.title, alert.meaning, alert.action
    );
    if let Some(details) = &alert.details {
        body.push_str(&format!("\n\n--- {DETAILS} ---\n{details}\n"));
    }
    body
}

fn raised_mail(alert: &Alert, kind: Kind) -> Mail {
    let prefix = match kind {
        Kind::Reminder => "Nadal: ",
        _ => "",
    };
    Mail {
        key: alert.key.clone(),
        kind,
        subject: format!("{prefix}{}", alert.title),
        body: body(alert),
    }
}

/// Brings `state` up to date with `alerts` and returns the mails due now, within the hourly
/// limit; [`State::sent_mail`] records each one sent.
pub fn plan(state: &mut State, alerts: &[Alert], now: i64) -> Vec<Mail> {
    state.sent.retain(|at| now - at < 3600);
    let mut mails = Vec::new();
    for alert in alerts {
        let raised = state
            .raised
            .entry(alert.key.clone())
            .or_insert_with(|| Raised {
                title: alert.title.clone(),
                since: alert.since,
                mailed_at: None,
            });
        raised.title = alert.title.clone();
        match raised.mailed_at {
            None => mails.push(raised_mail(alert, Kind::Raised)),
            Some(at) if now - at >= REMIND_AFTER_SECONDS => {
                mails.push(raised_mail(alert, Kind::Reminder))
            }
            Some(_) => {}
        }
    }
    let resolved: Vec<String> = state
        .raised
        .keys()
        .filter(|key| !alerts.iter().any(|a| &a.key == *key))
        .cloned()
        .collect();
    for key in resolved {
        let Some(raised) = state.raised.get(&key) else {
            continue;
        };
        if raised.mailed_at.is_none() {
            // Never told: nothing to take back.
            state.raised.remove(&key);
            continue;
        }
        mails.push(Mail {
            key,
            kind: Kind::Resolved,
            subject: format!("Rozwiązane: {}", raised.title),
            body: format!(
                "Problem zgłoszony wcześniej ('{}') już nie występuje.{FOOTER}",
                raised.title
            ),
        });
    }
    mails.truncate(MAX_PER_HOUR.saturating_sub(state.sent.len()));
    mails
}

impl State {
    /// Records that `mail` was sent at `now`.
    pub fn sent_mail(&mut self, mail: &Mail, now: i64) {
        self.sent.push(now);
        match mail.kind {
            Kind::Resolved => {
                self.raised.remove(&mail.key);
            }
            Kind::Raised | Kind::Reminder => {
                if let Some(raised) = self.raised.get_mut(&mail.key) {
                    raised.mailed_at = Some(now);
                }
            }
        }
    }
}

/// The state kept in `data_dir`; none when there is none (or it is unreadable, which is
/// logged).
pub fn read(data_dir: &Path) -> State {
    let path = data_dir.join(STATE_FILE);
    match content::beneath::Root::new(data_dir).read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(error = %e, path = %path.display(), "unreadable alerts' state");
            State::default()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::default(),
        Err(e) => {
            tracing::warn!(error = %e, path = %path.display(), "unreadable alerts' state");
            State::default()
        }
    }
}

pub fn write(data_dir: &Path, state: &State) -> Result<(), Error> {
    let path = data_dir.join(STATE_FILE);
    let json = serde_json::to_vec_pretty(state).map_err(|e| Error::Write {
        path: path.clone(),
        source: std::io::Error::other(e),
    })?;
    content::beneath::Root::new(data_dir)
        .write_atomic_with(&path, &json, Some(0o600))
        .map_err(|source| Error::Write { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(key: &str) -> Alert {
        Alert {
            key: key.into(),
            level: crate::alerts::conditions::Level::Alert,
            title: format!("Problem {key}"),
            meaning: "Co to znaczy.".into(),
            action: "Co zrobić.".into(),
            details: Some("restic: not a directory".into()),
            since: 0,
        }
    }

    #[test]
    fn an_alerts_mail_says_the_programs_words_only_under_the_details() {
        let mail = body(&alert("backup"));
        let (owners, details) = mail.split_once(DETAILS).expect("details last");
        assert!(owners.contains("Co to znaczy.") && owners.contains("Co zrobić: Co zrobić."));
        assert!(!owners.contains("restic"), "{owners}");
        assert!(details.contains("restic: not a directory"));
    }

    fn send_all(state: &mut State, alerts: &[Alert], now: i64) -> Vec<(String, Kind)> {
        let mails = plan(state, alerts, now);
        for mail in &mails {
            state.sent_mail(mail, now);
        }
        mails.into_iter().map(|m| (m.key, m.kind)).collect()
    }

    #[test]
    fn an_alert_is_mailed_once_reminded_after_a_day_and_its_end_is_mailed() {
        let mut state = State::default();
        let disk = [alert("disk")];
        assert_eq!(
            send_all(&mut state, &disk, 100),
            [("disk".into(), Kind::Raised)]
        );
        assert!(send_all(&mut state, &disk, 160).is_empty(), "no repeat");
        assert_eq!(
            send_all(&mut state, &disk, 100 + REMIND_AFTER_SECONDS),
            [("disk".into(), Kind::Reminder)]
        );
        let mails = plan(&mut state, &[], 100 + REMIND_AFTER_SECONDS + 60);
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].subject, "Rozwiązane: Problem disk");
        state.sent_mail(&mails[0], 100 + REMIND_AFTER_SECONDS + 60);
        assert!(state.raised.is_empty());
    }

    #[test]
    fn an_unsent_mail_is_due_again_and_an_unmailed_alert_ends_quietly() {
        let mut state = State::default();
        assert_eq!(plan(&mut state, &[alert("git")], 0).len(), 1);
        // Not sent (the relay refused): due again at the next check.
        assert_eq!(plan(&mut state, &[alert("git")], 60).len(), 1);
        assert!(plan(&mut state, &[], 120).is_empty());
        assert!(state.raised.is_empty());
    }

    #[test]
    fn no_more_than_five_mails_an_hour() {
        let mut state = State::default();
        let mut sent = 0;
        for minute in 0..60 {
            let alerts: Vec<Alert> = match minute % 2 {
                0 => vec![alert("disk"), alert("git")],
                _ => vec![],
            };
            sent += send_all(&mut state, &alerts, minute * 60).len();
        }
        assert_eq!(sent, MAX_PER_HOUR);
        // An hour after the first: the recovery owed since is sent.
        assert_eq!(
            send_all(&mut state, &[], 3700),
            [("disk".into(), Kind::Resolved)]
        );
    }
}
