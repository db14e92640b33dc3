//! Tells the editor the verdict on each commit the sync checked, where he works: a commit
//! status on the forge ([`crate::changes::forge`]) and, for a commit that was not published,
//! an e-mail to its author through the outbox. One thread of its own behind a bounded queue:
//! the sync thread only hands the verdict over, so a slow forge or mail server never holds
//! a build back. Failures are logged and shown in the panel's git status.

use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use contentsync::{Checked, GitSync};

use crate::config::forge::Forge;
use crate::inbox::outbox::Outbox;

/// Verdicts waiting to be told; more are dropped (and logged) rather than block the sync.
const QUEUE: usize = 64;
/// At most this many e-mails to one address per [`MAIL_WINDOW`].
pub const MAILS_PER_ADDRESS: usize = 5;
const MAIL_WINDOW: Duration = Duration::from_secs(3600);
/// Commits already e-mailed about, remembered so that none is e-mailed twice.
const REMEMBERED_COMMITS: usize = 1024;

/// Who is told, and how.
pub struct Tellers {
    pub forge: Option<Forge>,
    pub outbox: Arc<Outbox>,
    /// The panel's address: the status's link, and the e-mail's.
    pub panel: String,
    pub git: Arc<GitSync>,
}

/// The sync's end of the queue.
pub struct Notifier {
    queue: SyncSender<Checked>,
}

impl Notifier {
    /// Starts the thread that tells `tellers` each verdict handed to [`Notifier::checked`].
    pub fn spawn(tellers: Tellers) -> Option<Self> {
        let (queue, verdicts) = sync_channel(QUEUE);
        let started = std::thread::Builder::new()
            .name("git-notify".into())
            .spawn(move || run(&tellers, &verdicts));
        match started {
            Ok(_) => Some(Notifier { queue }),
            Err(e) => {
                tracing::error!(error = %e, "the thread telling editors about their commits did not start");
                None
            }
        }
    }

    /// Hands a verdict over, without waiting.
    pub fn checked(&self, verdict: &Checked) {
        match self.queue.try_send(verdict.clone()) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                tracing::warn!(commit = %verdict.commit, "too many verdicts wait to be told: this one is not")
            }
            Err(TrySendError::Disconnected(_)) => {
                tracing::warn!(commit = %verdict.commit, "the thread telling editors about their commits has stopped")
            }
        }
    }
}

fn run(tellers: &Tellers, verdicts: &Receiver<Checked>) {
    let mut limits = MailLimits::default();
    while let Ok(verdict) = verdicts.recv() {
        let mut failures = Vec::new();
        if let Some(forge) = &tellers.forge {
            match crate::changes::forge::send(
                forge,
                &verdict.commit,
                &verdict.problems,
                &tellers.panel,
            ) {
                Ok(()) => {
                    tracing::info!(commit = %verdict.commit, "commit status sent to the forge")
                }
                Err(e) => failures.push(e),
            }
        }
        if !verdict.problems.is_empty() {
            if let Err(e) = mail(tellers, &mut limits, &verdict, Instant::now()) {
                failures.push(e);
            }
        }
        if failures.is_empty() {
            tellers.git.notify_succeeded();
        } else {
            for failure in &failures {
                tracing::warn!(commit = %verdict.commit, error = %failure, "the verdict on a commit was not told");
            }
            tellers.git.notify_failed(format!(
                "Nie udało się powiadomić o wyniku sprawdzenia commitu: {}",
                failures.join("; ")
            ));
        }
    }
}

/// Which commits were e-mailed about and when each address last got one.
#[derive(Default)]
pub struct MailLimits {
    commits: VecDeque<String>,
    sent: HashMap<String, VecDeque<Instant>>,
}

impl MailLimits {
    /// Whether `commit` may be e-mailed to `address` at `now` (and counts it if so): once
    /// per commit, [`MAILS_PER_ADDRESS`] an hour per address.
    pub fn allow(&mut self, commit: &str, address: &str, now: Instant) -> bool {
        if self.commits.iter().any(|c| c == commit) {
            return false;
        }
        let address = address.to_lowercase();
        let sent = self.sent.entry(address).or_default();
        while sent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= MAIL_WINDOW)
        {
            sent.pop_front();
        }
        if sent.len() >= MAILS_PER_ADDRESS {
            return false;
        }
        sent.push_back(now);
        if self.commits.len() == REMEMBERED_COMMITS {
            self.commits.pop_front();
        }
        self.commits.push_back(commit.to_string());
        self.sent.retain(|_, times| !times.is_empty());
        true
    }
}

/// E-mails the author of a commit that was not published, if the limits allow.
fn mail(
    tellers: &Tellers,
    limits: &mut MailLimits,
    verdict: &Checked,
    now: Instant,
) -> Result<(), String> {
    let address = verdict.email.trim();
    if !content::contact::is_email(address) {
        tracing::info!(commit = %verdict.commit, "the commit's author has no e-mail address: not e-mailed");
        return Ok(());
    }
    if !limits.allow(&verdict.commit, address, now) {
        tracing::info!(commit = %verdict.commit, "the author was e-mailed enough for now: not e-mailed again");
        return Ok(());
    }
    let (subject, body) = message(verdict, &tellers.panel);
    tellers
        .outbox
        .send_notice(address, &subject, &body)
        .map_err(|e| format!("e-mail do autora commitu ({address}): {e}"))?;
    tracing::info!(commit = %verdict.commit, "the commit's author was e-mailed its problems");
    Ok(())
}

/// The e-mail to the author of a commit that was not published: the commit and every
/// problem, in Polish.
pub fn message(verdict: &Checked, panel: &str) -> (String, String) {
    let short: String = verdict.commit.chars().take(10).collect();
    let problems: String = verdict
        .problems
        .iter()
        .map(|p| format!("- {p}\n"))
        .collect();
    let subject = format!("commit {short} nie trafił na stronę");
    let body = format!(
        "Dzień dobry,\n\n\
         commit {short} ({author}) wysłany do repozytorium treści strony nie został \
         opublikowany. Strona nadal pokazuje ostatnią dobrą wersję.\n\n\
         Problemy (plik:wiersz w repozytorium):\n{problems}\n\
         Popraw je w swojej kopii repozytorium, zatwierdź (git commit) i wyślij ponownie \
         (git push). Przed wysłaniem sprawdzisz zmiany poleceniem make check.\n\n\
         Stan synchronizacji pokazuje też panel: {panel}\n\n\
         Tę wiadomość wysłał automatycznie serwer strony; nie odpowiadaj na nią.\n",
        author = verdict.author,
    );
    (subject, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_mail_per_commit_and_five_an_hour_per_address() {
        let mut limits = MailLimits::default();
        let start = Instant::now();
        assert!(limits.allow("c1", "ewa@example.pl", start));
        assert!(!limits.allow("c1", "ewa@example.pl", start));
        for i in 2..=5 {
            assert!(limits.allow(&format!("c{i}"), "Ewa@Example.pl", start));
        }
        assert!(!limits.allow("c6", "ewa@example.pl", start));
        assert!(limits.allow("c6", "jan@example.pl", start));
        assert!(limits.allow("c7", "ewa@example.pl", start + MAIL_WINDOW));
    }

    #[test]
    fn the_mail_names_the_commit_and_every_problem() {
        let verdict = Checked {
            commit: "0123456789abcdef".into(),
            author: "Ewa Redaktorka <ewa@example.pl>".into(),
            email: "ewa@example.pl".into(),
            problems: vec![
                "content/blog/a.md:3: pierwszy".into(),
                "content/blog/b.md:7: drugi".into(),
            ],
        };
        let (subject, body) = message(&verdict, "https://panel.example/");
        assert_eq!(subject, "commit 0123456789 nie trafił na stronę");
        assert!(body.contains("- content/blog/a.md:3: pierwszy\n- content/blog/b.md:7: drugi"));
        assert!(body.contains("Ewa Redaktorka"));
        assert!(body.contains("https://panel.example/"));
    }
}
