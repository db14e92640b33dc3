//! Publishing without cron: every build names the next moment the public site changes by
//! itself (a scheduled article's time, a notice's start or end); this task sleeps until
//! then, builds again, and waits for the moment that build names. A save in between wakes it
//! to wait for the new moment instead.

use actix_web::web;
use std::time::Duration;

use crate::serve::site::SiteState;

/// How long to wait before trying again when a scheduled build fails.
const RETRY: Duration = Duration::from_secs(60);

/// Starts the task on the current actix runtime.
pub fn spawn(site: web::Data<SiteState>) {
    crate::tasks::spawn(async move {
        loop {
            let Some(at) = site.schedule.next() else {
                site.schedule.wake.notified().await;
                continue;
            };
            // The first whole second at or after `at`, with a little room for clocks.
            let wait = (at * 1000 - site.clock.now_ms() + 50).max(0) as u64;
            let woken =
                tokio::time::timeout(Duration::from_millis(wait), site.schedule.wake.notified())
                    .await;
            if woken.is_ok() {
                // A build in between named a new moment: wait for that one.
                continue;
            }
            let s = site.clone();
            match crate::tasks::block(move || s.rebuild()).await {
                Ok(Ok(published)) => tracing::info!(
                    at,
                    rendered = published.report.rendered,
                    next = published.next_change,
                    "scheduled build published"
                ),
                Ok(Err(e)) => {
                    tracing::error!(error = %e, at, "the scheduled build failed; trying again in a minute");
                    site.schedule
                        .set(Some(site.clock.now() + RETRY.as_secs() as i64));
                }
                Err(e) => tracing::error!(error = %e, "the scheduled build did not run"),
            }
        }
    });
}
