//! What the public sees at a given moment: an unpublished article is never built, an article
//! dated in the future is built from its moment on, and the notice of `site.yaml` shows only
//! inside its dates. The moment is an input of a build ([`Clock`]); the content is filtered
//! before anything is rendered, so the renderer and its fingerprints never read a clock: a
//! page whose visibility changes is a page that appears, disappears or changes its inputs.

use serde::Serialize;
use std::collections::BTreeSet;

use crate::dates::{warsaw, Moment};
use crate::error::{Error, Result};
use crate::model::{ArticleMeta, Content, Notice};
use crate::validate;

/// Where a builder takes "now" from, read once at the start of each build: the server's one
/// clock (the system's, or a moment a test or a what-if build sets).
pub use clock::Clock;

/// Whether an article is on the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Published,
    /// Published, with a date still to come.
    Scheduled,
    /// Kept out of the site (`published: false`).
    Unpublished,
}

/// Whether an article that is `published` (its flag) and dated `date` is on the site at `now`.
pub fn status(published: bool, date: Option<&Moment>, now: i64) -> Status {
    if !published {
        Status::Unpublished
    } else if date.is_some_and(|d| d.is_after(now)) {
        Status::Scheduled
    } else {
        Status::Published
    }
}

pub fn article_status(meta: &ArticleMeta, now: i64) -> Status {
    status(meta.published, Some(&meta.date), now)
}

/// The moments a notice starts and stops showing: `[from, until)`.
pub fn notice_window(notice: &Notice) -> Option<(i64, i64)> {
    let from = notice.from.unix()?;
    let until = notice.until.time()?.end_unix();
    Some((from, until))
}

/// `content` as the public sees it at `now`, and the next moment after `now` at which that
/// changes (an article's time comes, a notice starts or ends). Fails when a public page
/// links to an article that is not public.
pub fn public_at(mut content: Content, now: i64) -> Result<(Content, Option<i64>)> {
    let mut next: Option<i64> = None;
    let mut later = |t: i64| {
        if t > now {
            next = Some(next.map_or(t, |n| n.min(t)));
        }
    };
    let mut hidden = BTreeSet::new();
    content.articles.retain(|a| {
        let status = article_status(&a.meta, now);
        if status == Status::Scheduled {
            later(a.meta.date.unix().unwrap_or(now));
        }
        if status != Status::Published {
            hidden.extend(a.route.clone());
        }
        status == Status::Published
    });
    if let Some(notice) = content.site.notice.take() {
        if let Some((from, until)) = notice_window(&notice) {
            later(from);
            later(until);
            if (from..until).contains(&now) {
                content.site.notice = Some(notice);
            }
        }
    }
    let problems = validate::links_to_hidden(&content, &hidden);
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    Ok((content, next))
}

/// Today in Warsaw, `YYYY-MM-DD`: the date a new article gets.
pub fn today(now: i64) -> String {
    warsaw(now).0.iso()
}

/// The Warsaw date and time of a Unix time, `YYYY-MM-DD HH:MM:SS`: how a moment is written
/// in the content.
pub fn warsaw_time(now: i64) -> String {
    let (date, seconds) = warsaw(now);
    format!(
        "{} {:02}:{:02}:{:02}",
        date.iso(),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}
