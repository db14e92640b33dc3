//! When something needs a person: what the server observed, and the alerts it makes of it
//! ([`evaluate`], no input or output of its own, so that every threshold is tested).

use serde::Serialize;
use ts_rs::TS;

use crate::backup::status::BackupStatus;

/// A message waiting this long for delivery pages the administrator.
pub const UNDELIVERED_AFTER_SECONDS: i64 = 15 * 60;
/// Git pushes or fetches failing this long page the administrator.
pub const GIT_FAILING_AFTER_SECONDS: i64 = 30 * 60;
/// A scheduled build this late means the scheduler has stopped (a failed one is retried a
/// minute later, so lateness is not a failure).
pub const SCHEDULE_LATE_SECONDS: i64 = 5 * 60;
/// Photographs waiting this long without one being encoded mean the image worker stopped.
pub const IMAGES_STUCK_SECONDS: i64 = 30 * 60;
/// Less free space than this share of `DATA_DIR`'s filesystem pages the administrator.
pub const DISK_FREE_MIN_PERCENT: u64 = 10;

/// Something wrong that a person should see to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SystemAlert")]
pub struct Alert {
    /// Which condition: `undelivered`, `backup`, `git` or `disk`.
    pub key: String,
    pub title: String,
    pub detail: String,
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

/// What the server sees at one moment.
#[derive(Debug, Clone, Default)]
pub struct Observation {
    pub now: i64,
    /// When the oldest message waiting for delivery arrived.
    pub oldest_pending: Option<i64>,
    /// The backups' status and interval, when backups are scheduled.
    pub backup: Option<(BackupStatus, u64)>,
    /// When the server started: a backup is missed only an interval after it could be made.
    pub started_at: i64,
    /// Since when git pushes or fetches fail, and the last error.
    pub git_failing: Option<(i64, String)>,
    pub disk: Option<Disk>,
    /// When the scheduler is to build next.
    pub schedule_next: Option<i64>,
    /// Photographs waiting for their variants, since when none was encoded.
    pub images_waiting: Option<(usize, i64)>,
}

fn alert(key: &str, title: &str, detail: String, since: i64) -> Alert {
    Alert {
        key: key.into(),
        title: title.into(),
        detail,
        since,
    }
}

/// A duration as people say it: minutes, hours or days.
pub fn spoken(seconds: i64) -> String {
    match seconds.max(0) {
        s if s < 3600 => format!("{} min", s / 60),
        s if s < 2 * 86_400 => format!("{} godz.", s / 3600),
        s => format!("{} dni", s / 86_400),
    }
}

fn undelivered(o: &Observation) -> Option<Alert> {
    let oldest = o.oldest_pending?;
    (o.now - oldest > UNDELIVERED_AFTER_SECONDS).then(|| {
        alert(
            "undelivered",
            "Wiadomość z formularza nie została wysłana e-mailem",
            format!(
                "Najstarsza niewysłana wiadomość czeka od {}. Jest bezpiecznie zapisana i widać ją w skrzynce panelu; sprawdź ustawienia poczty (SMTP_URL) i serwer pocztowy.",
                spoken(o.now - oldest)
            ),
            oldest,
        )
    })
}

fn backup(o: &Observation) -> Option<Alert> {
    let (status, interval) = o.backup.as_ref()?;
    if status.failing() {
        let error = status.last_error.clone().unwrap_or_default();
        return Some(alert(
            "backup",
            "Kopia zapasowa nie powiodła się",
            format!("Ostatnia próba zakończyła się błędem: {error}"),
            status.last_failure_at.unwrap_or(o.now),
        ));
    }
    let interval = (*interval).max(1) as i64;
    let last_good = status.last_success_at.unwrap_or(o.started_at);
    (o.now - last_good > 2 * interval).then(|| {
        alert(
            "backup",
            "Brak świeżej kopii zapasowej",
            match status.last_success_at {
                Some(at) => format!(
                    "Ostatnia udana kopia powstała {} temu, a kopie mają powstawać co {}.",
                    spoken(o.now - at),
                    spoken(interval)
                ),
                None => format!(
                    "Od uruchomienia serwera ({} temu) nie powstała żadna kopia, a mają powstawać co {}.",
                    spoken(o.now - o.started_at),
                    spoken(interval)
                ),
            },
            last_good + 2 * interval,
        )
    })
}

fn git(o: &Observation) -> Option<Alert> {
    let (since, error) = o.git_failing.as_ref()?;
    (o.now - since > GIT_FAILING_AFTER_SECONDS).then(|| {
        alert(
            "git",
            "Synchronizacja treści z repozytorium git nie działa",
            format!(
                "Wysyłanie lub pobieranie zmian zawodzi od {}. Ostatni błąd: {error}",
                spoken(o.now - since)
            ),
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
            "Na dysku kończy się miejsce",
            format!(
                "Wolne jest {percent}% ({} MB z {} MB) na dysku z bazą danych. Gdy miejsca zabraknie, nowe wiadomości i zmiany nie zostaną zapisane.",
                disk.free >> 20,
                disk.total >> 20
            ),
            o.now,
        )
    })
}

fn scheduler(o: &Observation) -> Option<Alert> {
    let due = o.schedule_next?;
    (o.now - due > SCHEDULE_LATE_SECONDS).then(|| {
        alert(
            "scheduler",
            "Zaplanowane zmiany nie są publikowane",
            format!(
                "Publikacja zaplanowana na {} temu nie nastąpiła: harmonogram serwera przestał działać. Uruchom serwer ponownie.",
                spoken(o.now - due)
            ),
            due,
        )
    })
}

fn images(o: &Observation) -> Option<Alert> {
    let (count, since) = o.images_waiting?;
    (o.now - since > IMAGES_STUCK_SECONDS).then(|| {
        alert(
            "images",
            "Zdjęcia nie są przetwarzane",
            format!(
                "{count} zdjęć czeka na przygotowanie wersji dla stron od {}: proces przetwarzania zdjęć przestał działać. Uruchom serwer ponownie.",
                spoken(o.now - since)
            ),
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
        disk(o),
        scheduler(o),
        images(o),
    ]
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000;

    fn keys(o: &Observation) -> Vec<String> {
        evaluate(o).into_iter().map(|a| a.key).collect()
    }

    #[test]
    fn nothing_wrong_makes_no_alert() {
        let o = Observation {
            now: NOW,
            started_at: NOW - 100,
            oldest_pending: Some(NOW - 60),
            backup: Some((
                BackupStatus {
                    last_success_at: Some(NOW - 3000),
                    ..Default::default()
                },
                3600,
            )),
            git_failing: Some((NOW - 600, "timeout".into())),
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
            backup: Some((
                BackupStatus {
                    last_success_at: Some(NOW - 7201),
                    ..Default::default()
                },
                3600,
            )),
            git_failing: Some((NOW - GIT_FAILING_AFTER_SECONDS - 1, "auth failed".into())),
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
                "disk",
                "scheduler",
                "images"
            ]
        );
        let alerts = evaluate(&o);
        assert!(alerts[0].detail.contains("15 min"), "{}", alerts[0].detail);
        assert!(alerts[1].detail.contains("2 godz."), "{}", alerts[1].detail);
        assert!(alerts[2].detail.contains("auth failed"));
        assert!(alerts[3].detail.contains("9%"), "{}", alerts[3].detail);
        assert!(alerts[4].detail.contains("5 min"), "{}", alerts[4].detail);
        assert!(
            alerts[5].detail.starts_with("3 zdjęć"),
            "{}",
            alerts[5].detail
        );
    }

    #[test]
    fn a_failed_backup_alerts_at_once_and_none_made_since_start_after_two_intervals() {
        let failed = BackupStatus {
            last_success_at: Some(NOW - 10),
            last_failure_at: Some(NOW - 5),
            last_error: Some("restic backup failed".into()),
            ..Default::default()
        };
        let o = Observation {
            now: NOW,
            started_at: NOW,
            backup: Some((failed, 3600)),
            ..Default::default()
        };
        let alerts = evaluate(&o);
        assert_eq!(alerts[0].title, "Kopia zapasowa nie powiodła się");
        assert!(alerts[0].detail.contains("restic backup failed"));
        let never = |started: i64| Observation {
            now: NOW,
            started_at: started,
            backup: Some((BackupStatus::default(), 3600)),
            ..Default::default()
        };
        assert!(keys(&never(NOW - 7200)).is_empty());
        assert_eq!(keys(&never(NOW - 7201)), ["backup"]);
        assert_eq!(Disk { free: 1, total: 0 }.free_percent(), 100);
    }
}
