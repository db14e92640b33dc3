//! Refused credentials of one kind (an editor's git token, the metrics' bearer token), by
//! client, in minutes: a client that has had its number of refusals in a minute is answered
//! 429 without a look at what it sends, and its refusals of one minute make one line of the
//! audit log with their count — written at the first (after the answer leaves), its count set
//! once when the minute ends. A burst of guesses costs a lookup in memory each, never a write.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::audit::Event;
use actix_web::web;

use crate::db::Repository;

/// One client's refusals in its current minute: all of them, and those worth a line.
struct Minute {
    started: Instant,
    count: u32,
    audited: u64,
}

pub struct Refusals {
    event: Event,
    per_minute: u32,
    window: Duration,
    minutes: Mutex<HashMap<IpAddr, Minute>>,
}

/// The detail of a client's line: what was refused, and how many times in its minute.
fn detail(what: &str, count: u64) -> String {
    match count {
        1 => what.to_string(),
        n => format!("{what} ({n} razy w ciągu minuty)"),
    }
}

/// Clients kept before the expired ones are looked for.
const PRUNE_PAST: usize = 256;

impl Refusals {
    /// Refusals audited as `event`; a client gets `per_minute` of them.
    pub fn new(event: Event, per_minute: u32) -> Self {
        Self::with_window(event, per_minute, Duration::from_secs(60))
    }

    fn with_window(event: Event, per_minute: u32, window: Duration) -> Self {
        Refusals {
            event,
            per_minute,
            window,
            minutes: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Minute>> {
        self.minutes.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `client` may be answered on its merits; `false`: 429, it has had its refusals
    /// this minute.
    pub fn allows(&self, client: IpAddr) -> bool {
        self.allows_at(client, Instant::now())
    }

    fn allows_at(&self, client: IpAddr, now: Instant) -> bool {
        self.lock().get(&client).is_none_or(|m| {
            now.duration_since(m.started) >= self.window || m.count < self.per_minute
        })
    }

    /// Counts one refusal of `client` (`audit`: what to write into the audit log of `store`,
    /// when it is worth a line; git's
    /// first request of a clone comes without a token and is not). The first audited refusal
    /// of a minute is written to the audit log in the background, the rest add to that
    /// line's count, which is set when the minute ends.
    pub fn refused(
        this: &web::Data<Self>,
        store: &accounts::Store,
        client: IpAddr,
        audit: Option<&'static str>,
    ) {
        let first = this.note(client, audit.is_some(), Instant::now());
        let Some(what) = audit.filter(|_| first) else {
            return;
        };
        let (refusals, store) = (this.clone(), store.clone());
        crate::tasks::spawn(async move {
            let (at, event) = (store.now(), refusals.event);
            let written = store
                .blocking(move |s| s.record_entry(at, event.name(), "", &client.to_string(), what))
                .await;
            let id = match written {
                Ok(Ok(id)) => id,
                Ok(Err(e)) => return tracing::error!(error = %e, "audit log"),
                Err(e) => return tracing::error!(error = %e, "audit log"),
            };
            clock::pause(refusals.window).await;
            let count = refusals.audited(client);
            if count > 1 {
                let text = detail(what, count);
                let set = store.blocking(move |s| s.set_audit_detail(id, &text)).await;
                if let Ok(Err(e)) = set {
                    tracing::error!(error = %e, "audit log");
                }
            }
        });
    }

    /// Counts a refusal of `client` at `now` (`audited`: one worth a line); whether it is the
    /// first audited one of the client's minute.
    fn note(&self, client: IpAddr, audited: bool, now: Instant) -> bool {
        let mut minutes = self.lock();
        if minutes.len() > PRUNE_PAST {
            minutes.retain(|_, m| now.duration_since(m.started) < self.window);
        }
        let fresh = Minute {
            started: now,
            count: 0,
            audited: 0,
        };
        let minute = minutes.entry(client).or_insert(fresh);
        if now.duration_since(minute.started) >= self.window {
            *minute = Minute {
                started: now,
                count: 0,
                audited: 0,
            };
        }
        minute.count = minute.count.saturating_add(1);
        minute.audited += u64::from(audited);
        audited && minute.audited == 1
    }

    /// The audited refusals of `client`'s minute, forgotten once it has ended.
    fn audited(&self, client: IpAddr) -> u64 {
        self.audited_at(client, Instant::now())
    }

    fn audited_at(&self, client: IpAddr, now: Instant) -> u64 {
        let mut minutes = self.lock();
        match minutes.get(&client) {
            Some(m) if now.duration_since(m.started) >= self.window => {
                minutes.remove(&client).map_or(0, |m| m.audited)
            }
            Some(m) => m.audited,
            None => 0,
        }
    }

    /// Forgets the clients whose minute has ended.
    pub fn retain_recent(&self) {
        let now = Instant::now();
        self.lock()
            .retain(|_, m| now.duration_since(m.started) < self.window);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clients_refusals_of_a_minute_make_one_line_and_then_wait() {
        let r = Refusals::with_window(
            crate::audit::Git::GitTokenRefused.into(),
            3,
            Duration::from_secs(60),
        );
        let (a, b): (IpAddr, IpAddr) = (
            "127.0.0.2".parse().expect("ip"),
            "127.0.0.3".parse().expect("ip"),
        );
        let t0 = Instant::now();
        // git's first request of a clone has no token: counted, not a line.
        assert!(!r.note(a, false, t0));
        assert!(
            r.note(a, true, t0),
            "the first audited refusal writes the line"
        );
        assert!(!r.note(a, true, t0 + Duration::from_secs(1)));
        assert!(
            !r.allows_at(a, t0 + Duration::from_secs(2)),
            "three refusals: 429"
        );
        assert!(r.allows_at(b, t0), "another client has its own");
        assert!(r.note(b, true, t0));
        assert_eq!(
            r.audited_at(a, t0 + Duration::from_secs(30)),
            2,
            "still its minute"
        );
        let later = t0 + Duration::from_secs(61);
        assert!(r.allows_at(a, later), "a new minute");
        assert_eq!(
            r.audited_at(a, later),
            2,
            "the ended minute's count, then forgotten"
        );
        assert_eq!(r.audited_at(a, later), 0);
        assert!(r.note(a, true, later), "a new minute, a new line");
    }

    #[test]
    fn a_line_says_how_many_times() {
        assert_eq!(detail("zły token", 1), "zły token");
        assert_eq!(
            detail("zły token", 42),
            "zły token (42 razy w ciągu minuty)"
        );
    }
}
