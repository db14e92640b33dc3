//! When something needs a person: what the server observed, and the alerts it makes of it
//! ([`evaluate`], no input or output of its own, so that every threshold is tested). Each
//! alert says, in the owner's words, what happened, what it means for the practice and what
//! to do (or whom to ask); the words of the program that failed — restic's, git's, paths —
//! are kept apart as `details`, for whoever looks after the server, and shown only under
//! 'Szczegóły dla informatyka'.

use serde::Serialize;
use ts_rs::TS;

use crate::backup::status::BackupStatus;
use content::polish::{count, Forms, DAYS, HOURS, MINUTES, PHOTOGRAPHS};

/// A message waiting this long for delivery pages the administrator.
pub const UNDELIVERED_AFTER_SECONDS: i64 = 15 * 60;
/// Git pushes or fetches (or the mirror's copies) failing this long page the administrator.
pub const GIT_FAILING_AFTER_SECONDS: i64 = 30 * 60;
/// A scheduled build this late means the scheduler has stopped (a failed one is retried a
/// minute later, so lateness is not a failure).
pub const SCHEDULE_LATE_SECONDS: i64 = 5 * 60;
/// Photographs waiting this long without one being encoded mean the image worker stopped.
pub const IMAGES_STUCK_SECONDS: i64 = 30 * 60;
/// Less free space than this share of `DATA_DIR`'s filesystem pages the administrator.
pub const DISK_FREE_MIN_PERCENT: u64 = 10;
/// How late a backup may be past its interval before its absence is an alert: the scheduler
/// looks every minute, and a backup takes a moment.
pub const BACKUP_GRACE_SECONDS: i64 = 5 * 60;

/// Who the owner asks when the server needs a hand.
const ASK: &str = "Przekaż tę wiadomość osobie, która opiekuje się serwerem strony (informatykowi): szczegóły na dole są dla niej.";

/// How much an alert asks of the owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AlertLevel")]
pub enum Level {
    /// Something stopped working: e-mailed, and on a red banner above every view.
    Alert,
    /// Something is not set up that should be: shown in 'Stan systemu', never e-mailed.
    Warning,
}

/// Something wrong that a person should see to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemAlert")]
pub struct Alert {
    /// Which condition: `undelivered`, `backup`, `backups-off`, `git`, `mirror`, `disk`,
    /// `scheduler` or `images`.
    pub key: String,
    pub level: Level,
    /// What happened, in a few words (an e-mail's subject).
    pub title: String,
    /// What it means for the practice.
    pub meaning: String,
    /// What to do about it, or whom to ask.
    pub action: String,
    /// The program's own words and the figures, for whoever looks after the server.
    pub details: Option<String>,
    /// Since when (Unix seconds).
    #[ts(type = "number")]
    pub since: i64,
}

/// Free and total bytes of a filesystem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disk {
    pub free: u64,
    pub total: u64,
}

impl Disk {
    pub fn free_percent(&self) -> u64 {
        (self.free.saturating_mul(100))
            .checked_div(self.total)
            .unwrap_or(100)
    }
}

/// The scheduled backups as the server sees them.
#[derive(Debug, Clone, Default)]
pub struct Backups {
    pub status: BackupStatus,
    /// Seconds between two backups.
    pub interval: u64,
    /// The longest a backup may take before restic is stopped.
    pub timeout: u64,
    /// When the backup running now started.
    pub running_since: Option<i64>,
}

/// What the server sees at one moment.
#[derive(Debug, Clone, Default)]
pub struct Observation {
    pub now: i64,
    /// When the oldest message waiting for delivery arrived.
    pub oldest_pending: Option<i64>,
    /// The backups, when they are scheduled; `None`: they are not.
    pub backup: Option<Backups>,
    /// When the server started: a backup is missed only an interval after it could be made.
    pub started_at: i64,
    /// Since when git pushes or fetches fail, and the last error.
    pub git_failing: Option<(i64, String)>,
    /// Since when copying the hosted repository to its mirror fails, and the last error.
    pub mirror_failing: Option<(i64, String)>,
    pub disk: Option<Disk>,
    /// When the scheduler is to build next.
    pub schedule_next: Option<i64>,
    /// Photographs waiting for their variants, since when none was encoded.
    pub images_waiting: Option<(usize, i64)>,
}

/// An alert's words, before it is made.
struct Words {
    title: &'static str,
    meaning: String,
    action: String,
    details: Option<String>,
}

fn alert(key: &str, words: Words, since: i64) -> Alert {
    Alert {
        key: key.into(),
        level: Level::Alert,
        title: words.title.into(),
        meaning: words.meaning,
        action: words.action,
        details: words.details,
        since,
    }
}

fn counted(n: i64, forms: Forms) -> String {
    count(n, forms)
}

/// A duration as people say it: "15 minut", "3 godziny", "2 dni".
pub fn spoken(seconds: i64) -> String {
    match seconds.max(0) {
        s if s < 3600 => counted(s / 60, MINUTES),
        s if s < 2 * 86_400 => counted(s / 3600, HOURS),
        s => counted(s / 86_400, DAYS),
    }
}

/// A moment as people say it, in Warsaw time: "12 marca 2025, 14:02".
pub fn at(utc: i64) -> String {
    let (date, seconds) = content::dates::warsaw(utc);
    format!(
        "{}, {}:{:02}",
        date.polish(),
        seconds / 3600,
        seconds % 3600 / 60
    )
}

/// The clock time of a moment, in Warsaw time: "14:02".
pub fn clock(utc: i64) -> String {
    let (_, seconds) = content::dates::warsaw(utc);
    format!("{}:{:02}", seconds / 3600, seconds % 3600 / 60)
}

fn undelivered(o: &Observation) -> Option<Alert> {
    let oldest = o.oldest_pending?;
    (o.now - oldest > UNDELIVERED_AFTER_SECONDS).then(|| {
        alert(
            "undelivered",
            Words {
                title: "Wiadomość z formularza nie została wysłana e-mailem",
                meaning: format!(
                    "Najstarsza niewysłana wiadomość czeka od {}. Nic nie zginęło: każda wiadomość jest zapisana na serwerze i widać ją w panelu, w zakładce „Wiadomości”. Ktoś może jednak czekać na Twoją odpowiedź.",
                    at(oldest)
                ),
                action: format!("Przeczytaj wiadomości w panelu i odpowiedz na nie stamtąd. {ASK}"),
                details: Some(format!(
                    "Najstarsza wiadomość w kolejce poczty od {} (Unix {oldest}); sprawdź SMTP_URL, serwer pocztowy i dziennik serwera (outbox).",
                    at(oldest)
                )),
            },
            oldest,
        )
    })
}

/// What a backup failing means, the same in every backup's alert.
const BACKUP_RISK: &str = "Strona i panel działają normalnie. Gdyby jednak dysk serwera uległ awarii, wiadomości z formularza i zmiany wprowadzone od ostatniej udanej kopii mogłyby przepaść.";

fn last_good(status: &BackupStatus) -> String {
    match status.last_success_at {
        Some(t) => format!("Ostatnia udana kopia powstała {}.", at(t)),
        None => "Nie powstała jeszcze żadna udana kopia.".to_string(),
    }
}

fn running(b: &Backups) -> String {
    match b.running_since {
        Some(t) => format!(" Trwa kolejna próba (od {}).", clock(t)),
        None => String::new(),
    }
}

fn backup(o: &Observation) -> Option<Alert> {
    let b = o.backup.as_ref()?;
    let status = &b.status;
    let interval = (b.interval).max(1) as i64;
    if status.failing() {
        let failed_at = status.last_failure_at.unwrap_or(o.now);
        return Some(alert(
            "backup",
            Words {
                title: "Kopia zapasowa nie powiodła się",
                meaning: format!(
                    "Próba zrobienia kopii zapasowej {} się nie udała. {} {BACKUP_RISK}{}",
                    at(failed_at),
                    last_good(status),
                    running(b)
                ),
                action: format!(
                    "Nic nie musisz robić w panelu: serwer sam ponowi próbę przy następnej kopii (odstęp między kopiami: {}). {ASK}",
                    spoken(interval)
                ),
                details: status.last_error.clone(),
            },
            failed_at,
        ));
    }
    let last_good_at = status.last_success_at.unwrap_or(o.started_at);
    let due = last_good_at + interval + BACKUP_GRACE_SECONDS;
    // A backup still within its time is not missing yet: it may still end well.
    let still_going = b
        .running_since
        .is_some_and(|since| o.now - since <= b.timeout as i64);
    (o.now > due && !still_going).then(|| {
        alert(
            "backup",
            Words {
                title: "Brak świeżej kopii zapasowej",
                meaning: format!(
                    "Kopie mają powstawać regularnie (odstęp między kopiami: {}), a od {} nie powstała żadna udana. {BACKUP_RISK}",
                    spoken(interval),
                    at(last_good_at)
                ),
                action: format!(
                    "{ASK} Warto sprawdzić, czy serwer w ogóle próbuje robić kopie."
                ),
                details: Some(format!(
                    "last_success_at: {:?}, interval: {interval} s, running_since: {:?}, timeout: {} s",
                    status.last_success_at, b.running_since, b.timeout
                )),
            },
            due,
        )
    })
}

fn git(o: &Observation) -> Option<Alert> {
    let (since, error) = o.git_failing.as_ref()?;
    (o.now - since > GIT_FAILING_AFTER_SECONDS).then(|| {
        alert(
            "git",
            Words {
                title: "Synchronizacja treści z repozytorium git nie działa",
                meaning: format!(
                    "Od {} serwer nie może wymieniać zmian z repozytorium treści. Strona działa i pokazuje zmiany zapisane w panelu, ale redaktorzy mogą nie widzieć Twoich zmian, a ich zmiany mogą nie trafiać na stronę.",
                    at(*since)
                ),
                action: "Przekaż tę wiadomość osobie, która prowadzi repozytorium strony albo opiekuje się serwerem: szczegóły na dole są dla niej.".into(),
                details: Some(error.clone()),
            },
            *since,
        )
    })
}

fn mirror(o: &Observation) -> Option<Alert> {
    let (since, error) = o.mirror_failing.as_ref()?;
    (o.now - since > GIT_FAILING_AFTER_SECONDS).then(|| {
        alert(
            "mirror",
            Words {
                title: "Kopia repozytorium poza serwerem się nie aktualizuje",
                meaning: format!(
                    "Od {} zmiany treści nie trafiają do kopii repozytorium poza tym serwerem. Strona i panel działają normalnie, ale gdyby serwer uległ awarii, zmiany z tego czasu byłyby tylko w kopiach zapasowych.",
                    at(*since)
                ),
                action: ASK.into(),
                details: Some(error.clone()),
            },
            *since,
        )
    })
}

fn disk(o: &Observation) -> Option<Alert> {
    let disk = o.disk?;
    let percent = disk.free_percent();
    (percent < DISK_FREE_MIN_PERCENT).then(|| {
        alert(
            "disk",
            Words {
                title: "Na dysku serwera kończy się miejsce",
                meaning: format!(
                    "Wolne jest tylko {percent}% miejsca ({} MB z {} MB). Gdy go zabraknie, nowe wiadomości z formularza i zmiany w panelu nie zostaną zapisane.",
                    disk.free >> 20,
                    disk.total >> 20
                ),
                action: format!("{ASK} Trzeba zwolnić miejsce albo powiększyć dysk."),
                details: Some(format!(
                    "DATA_DIR filesystem: {} of {} bytes free",
                    disk.free, disk.total
                )),
            },
            o.now,
        )
    })
}

fn scheduler(o: &Observation) -> Option<Alert> {
    let due = o.schedule_next?;
    (o.now - due > SCHEDULE_LATE_SECONDS).then(|| {
        alert(
            "scheduler",
            Words {
                title: "Zaplanowane zmiany nie są publikowane",
                meaning: format!(
                    "Publikacja zaplanowana na {} nie nastąpiła. Zaplanowane artykuły i komunikaty nie pojawią się na stronie same, dopóki serwer nie zostanie uruchomiony ponownie.",
                    at(due)
                ),
                action: format!("{ASK} Zwykle wystarczy ponowne uruchomienie serwera."),
                details: Some(format!("scheduler: next build was due at Unix {due}, now {}", o.now)),
            },
            due,
        )
    })
}

fn images(o: &Observation) -> Option<Alert> {
    let (waiting, since) = o.images_waiting?;
    (o.now - since > IMAGES_STUCK_SECONDS).then(|| {
        alert(
            "images",
            Words {
                title: "Zdjęcia nie są przetwarzane",
                meaning: format!(
                    "Zdjęcia czekające od {} na przygotowanie lżejszych wersji: {}. Strona pokazuje je w pełnym rozmiarze, więc wczytuje się wolniej, zwłaszcza na telefonach.",
                    at(since),
                    count(waiting, PHOTOGRAPHS)
                ),
                action: format!("{ASK} Zwykle wystarczy ponowne uruchomienie serwera."),
                details: Some(format!("image worker: {waiting} waiting since Unix {since}")),
            },
            since,
        )
    })
}

/// The alerts that hold in `o`.
pub fn evaluate(o: &Observation) -> Vec<Alert> {
    [
        undelivered(o),
        backup(o),
        git(o),
        mirror(o),
        disk(o),
        scheduler(o),
        images(o),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// What the owner is warned of in 'Stan systemu' without an e-mail: backups that are not set
/// up (`configured`: a repository is set; `scheduled`: with an interval).
pub fn backups_off(configured: bool, scheduled: bool, now: i64) -> Option<Alert> {
    let (meaning, details) = match (configured, scheduled) {
        (_, true) => return None,
        (true, false) => (
            "Serwer nie robi kopii zapasowych sam: kopię robi tylko polecenie wydane ręcznie na serwerze.",
            "BACKUP_INTERVAL=off: scheduled backups are off; `sidecar backup` still runs one",
        ),
        (false, false) => (
            "Serwer nie robi żadnych kopii zapasowych.",
            "BACKUP_REPOSITORY is not set (docs: operators/backups.md)",
        ),
    };
    Some(Alert {
        key: "backups-off".into(),
        level: Level::Warning,
        title: "Kopie zapasowe nie są włączone".into(),
        meaning: format!("{meaning} Gdyby dysk serwera uległ awarii, wiadomości z formularza, historia zmian i obrazy przesłane w panelu przepadłyby."),
        action: "Poproś osobę, która opiekuje się serwerem strony, o włączenie automatycznych kopii zapasowych.".into(),
        details: Some(details.into()),
        since: now,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000;

    fn keys(o: &Observation) -> Vec<String> {
        evaluate(o).into_iter().map(|a| a.key).collect()
    }

    fn backups(status: BackupStatus, running_since: Option<i64>) -> Option<Backups> {
        Some(Backups {
            status,
            interval: 3600,
            timeout: 600,
            running_since,
        })
    }

    #[test]
    fn nothing_wrong_makes_no_alert() {
        let o = Observation {
            now: NOW,
            started_at: NOW - 100,
            oldest_pending: Some(NOW - 60),
            backup: backups(
                BackupStatus {
                    last_success_at: Some(NOW - 3000),
                    ..Default::default()
                },
                None,
            ),
            git_failing: Some((NOW - 600, "timeout".into())),
            mirror_failing: Some((NOW - 600, "timeout".into())),
            disk: Some(Disk {
                free: 11,
                total: 100,
            }),
            schedule_next: Some(NOW - SCHEDULE_LATE_SECONDS),
            images_waiting: Some((3, NOW - IMAGES_STUCK_SECONDS)),
        };
        assert!(keys(&o).is_empty(), "{:?}", evaluate(&o));
    }

    #[test]
    fn each_threshold_raises_its_alert_once_passed() {
        let o = Observation {
            now: NOW,
            started_at: NOW - 100,
            oldest_pending: Some(NOW - UNDELIVERED_AFTER_SECONDS - 1),
            backup: backups(
                BackupStatus {
                    last_success_at: Some(NOW - 3600 - BACKUP_GRACE_SECONDS - 1),
                    ..Default::default()
                },
                None,
            ),
            git_failing: Some((NOW - GIT_FAILING_AFTER_SECONDS - 1, "auth failed".into())),
            mirror_failing: Some((NOW - GIT_FAILING_AFTER_SECONDS - 1, "403".into())),
            disk: Some(Disk {
                free: 9,
                total: 100,
            }),
            schedule_next: Some(NOW - SCHEDULE_LATE_SECONDS - 1),
            images_waiting: Some((3, NOW - IMAGES_STUCK_SECONDS - 1)),
        };
        assert_eq!(
            keys(&o),
            [
                "undelivered",
                "backup",
                "git",
                "mirror",
                "disk",
                "scheduler",
                "images"
            ]
        );
        let alerts = evaluate(&o);
        assert!(alerts[0]
            .meaning
            .contains(&at(NOW - UNDELIVERED_AFTER_SECONDS - 1)));
        assert!(
            alerts[1]
                .meaning
                .contains("odstęp między kopiami: 1 godzina"),
            "{}",
            alerts[1].meaning
        );
        assert_eq!(alerts[2].details.as_deref(), Some("auth failed"));
        assert_eq!(alerts[3].details.as_deref(), Some("403"));
        assert!(alerts[4].meaning.contains("9%"), "{}", alerts[4].meaning);
        assert!(
            alerts[6].meaning.contains("wersji: 3 zdjęcia."),
            "{}",
            alerts[6].meaning
        );
        for a in &alerts {
            assert!(!a.action.is_empty() && !a.meaning.is_empty(), "{a:?}");
            if let Some(details) = &a.details {
                let said = format!("{} {} {}", a.title, a.meaning, a.action);
                assert!(!said.contains(details.as_str()), "{a:?}");
            }
        }
    }

    #[test]
    fn a_failed_backup_alerts_at_once_with_restics_words_apart() {
        let failed = BackupStatus {
            last_success_at: Some(NOW - 10),
            last_failure_at: Some(NOW - 5),
            last_error: Some("restic backup failed: /srv/repo: not a directory".into()),
            ..Default::default()
        };
        let o = Observation {
            now: NOW,
            started_at: NOW,
            backup: backups(failed, Some(NOW - 1)),
            ..Default::default()
        };
        let alerts = evaluate(&o);
        assert_eq!(alerts[0].title, "Kopia zapasowa nie powiodła się");
        assert!(
            alerts[0].meaning.contains("Trwa kolejna próba"),
            "{}",
            alerts[0].meaning
        );
        for words in [&alerts[0].title, &alerts[0].meaning, &alerts[0].action] {
            assert!(
                !words.contains("restic") && !words.contains("/srv"),
                "{words}"
            );
        }
        assert_eq!(
            alerts[0].details.as_deref(),
            Some("restic backup failed: /srv/repo: not a directory")
        );
    }

    #[test]
    fn a_missing_backup_alerts_one_interval_late_unless_one_is_still_within_its_time() {
        let never = |started: i64, running: Option<i64>| Observation {
            now: NOW,
            started_at: started,
            backup: backups(BackupStatus::default(), running),
            ..Default::default()
        };
        let late = NOW - 3600 - BACKUP_GRACE_SECONDS;
        assert!(keys(&never(late, None)).is_empty());
        assert_eq!(keys(&never(late - 1, None)), ["backup"]);
        assert!(
            keys(&never(late - 1, Some(NOW - 600))).is_empty(),
            "still going"
        );
        assert_eq!(keys(&never(late - 1, Some(NOW - 601))), ["backup"], "hung");
        assert_eq!(Disk { free: 1, total: 0 }.free_percent(), 100);
    }

    #[test]
    fn backups_not_set_up_are_a_warning_never_an_alert() {
        let off = backups_off(false, false, NOW).expect("warned");
        assert_eq!(off.level, Level::Warning);
        assert!(off.meaning.contains("nie robi żadnych kopii"));
        assert!(backups_off(true, false, NOW).is_some());
        assert_eq!(backups_off(true, true, NOW), None);
    }

    #[test]
    fn moments_are_said_in_warsaw_time() {
        // 2025-03-12 13:02 UTC is 14:02 in Warsaw (CET).
        assert_eq!(at(1_741_784_520), "12 marca 2025, 14:02");
        assert_eq!(clock(1_741_784_520), "14:02");
        assert_eq!(spoken(90), "1 minuta");
        assert_eq!(spoken(7200), "2 godziny");
        assert_eq!(spoken(5 * 86_400), "5 dni");
    }
}
