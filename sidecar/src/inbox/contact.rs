//! What the contact form keeps at run time: the secret of its tokens, the rate limit of each
//! client, the outbox, and the answer pages of the form without JavaScript (rendered a few at
//! a time, kept by build and outcome).

use bytes::Bytes;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

use crate::inbox::outbox::Outbox;
use crate::inbox::writer::Writer;

/// What the contact form needs at run time.
pub struct ContactState {
    /// Signs the form's tokens; made once and kept in SQLite.
    pub secret: Vec<u8>,
    pub limiter: DefaultKeyedRateLimiter<IpAddr>,
    pub min_seconds: i64,
    pub outbox: Arc<Outbox>,
    /// Stores the messages, several in one transaction when they come at once.
    pub writer: Writer,
    pub answers: Answers,
}

impl ContactState {
    pub fn new(
        secret: Vec<u8>,
        per_minute: u32,
        min_seconds: i64,
        outbox: Arc<Outbox>,
        writer: Writer,
    ) -> Self {
        let rate = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        ContactState {
            secret,
            limiter: RateLimiter::keyed(Quota::per_minute(rate)),
            min_seconds,
            outbox,
            writer,
            answers: Answers::default(),
        }
    }

    /// Forgets clients that have not sent anything for a while.
    pub fn prune(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// Answer pages rendered at once, at most.
pub const RENDERS_AT_ONCE: usize = 2;

pub struct Answers {
    pub slots: Semaphore,
    /// By build number, status and message: pages without anything a visitor typed.
    pub kept: Mutex<HashMap<(u64, u16, &'static str), Bytes>>,
    rendering: AtomicUsize,
    peak: AtomicUsize,
}

impl Default for Answers {
    fn default() -> Self {
        Answers {
            slots: Semaphore::new(RENDERS_AT_ONCE),
            kept: Mutex::new(HashMap::new()),
            rendering: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }
}

impl Answers {
    /// The most answer pages that were ever rendering at the same moment.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }
}

/// Counts a render while it runs.
pub struct Rendering<'a>(&'a Answers);

impl<'a> Rendering<'a> {
    pub fn start(answers: &'a Answers) -> Self {
        let now = answers.rendering.fetch_add(1, Ordering::SeqCst) + 1;
        answers.peak.fetch_max(now, Ordering::SeqCst);
        Rendering(answers)
    }
}

impl Drop for Rendering<'_> {
    fn drop(&mut self) {
        self.0.rendering.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The contact page with the form's props `form`, rendered from `renderer`'s templates on the
/// blocking pool (a render reads no file, but takes a few milliseconds of a core).
pub async fn render_answer(
    renderer: Arc<site::render::Renderer>,
    form: serde_json::Value,
) -> Result<String, String> {
    let rendered = crate::tasks::block(move || {
        renderer.render_extra(&site::render::ExtraPage {
            template: "contact.html",
            route: "/kontakt",
            title: "Kontakt",
            description: "Formularz kontaktowy Gabinetu Harmonia.",
            extra: vec![("form", form)],
        })
    })
    .await;
    match rendered {
        Ok(Ok(page)) => Ok(page),
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}
