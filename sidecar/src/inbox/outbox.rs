//! Delivers stored contact messages by e-mail. A message stays in SQLite until a delivery
//! succeeds; failures are retried with growing delays across restarts, and a message that
//! still fails after a day is marked failed and logged, never dropped. A message suspected
//! of being spam is e-mailed with a marker and the reason; a held one waits for the panel.
//! Without SMTP, messages are written as private `.eml` files.

use lettre::message::{header::ContentType, Mailbox};
use lettre::Message;
#[cfg(feature = "panel")]
use lettre::{SmtpTransport, Transport};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

use crate::db::{Db, Spam, StoredMessage};
use crate::error::Error;

/// What the subject of a suspected message starts with.
pub const SPAM_MARKER: &str = "[podejrzenie spamu]";

pub const GIVE_UP_AFTER_SECONDS: i64 = 24 * 60 * 60;
const MAX_DELAY_SECONDS: i64 = 60 * 60;

/// Where e-mail goes: an SMTP server, or `.eml` files in a private folder when none is
/// configured.
pub enum Mailer {
    #[cfg(feature = "panel")]
    Smtp(Box<SmtpTransport>),
    Files(PathBuf),
    /// An SMTP server is configured, but only the public site's server runs (a fresh clone's
    /// first `make run`, built without SMTP): messages stay pending for the whole server.
    #[cfg(not(feature = "panel"))]
    Held,
}

impl Mailer {
    pub fn from_config(smtp_url: Option<&str>, outbox_dir: &Path) -> Result<Self, Error> {
        match smtp_url {
            #[cfg(not(feature = "panel"))]
            Some(_) => Ok(Mailer::Held),
            #[cfg(feature = "panel")]
            Some(url) => {
                let transport = SmtpTransport::from_url(url)
                    .map_err(|e| Error::Config {
                        name: "SMTP_URL".into(),
                        message: e.to_string(),
                    })?
                    .timeout(Some(Duration::from_secs(20)))
                    .build();
                Ok(Mailer::Smtp(Box::new(transport)))
            }
            None => {
                crate::db::private_dir(outbox_dir).map_err(|e| Error::Config {
                    name: "DATA_DIR".into(),
                    message: format!("cannot create {}: {e}", outbox_dir.display()),
                })?;
                Ok(Mailer::Files(outbox_dir.to_path_buf()))
            }
        }
    }

    fn send(&self, email: &Message) -> Result<(), String> {
        match self {
            #[cfg(feature = "panel")]
            Mailer::Smtp(t) => t.send(email).map(|_| ()).map_err(|e| e.to_string()),
            #[cfg(not(feature = "panel"))]
            Mailer::Held => Err("held for the whole server".into()),
            // The write's error names the file.
            Mailer::Files(dir) => write_eml(dir, &email.formatted()).map_err(|e| e.to_string()),
        }
    }

    /// Deletes the message files older than `before`; they hold what patients wrote.
    fn delete_files_before(&self, before: SystemTime) -> usize {
        let Mailer::Files(dir) = self else {
            return 0;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .flatten()
            .filter(|e| is_mail_file(&e.path()))
            .filter(|e| {
                e.metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t < before)
            })
            .filter(|e| std::fs::remove_file(e.path()).is_ok())
            .count()
    }

    /// Deletes the `.eml` files of the messages `ids` and any other that replies to `email`
    /// (the right to erasure): queued or sent, every copy this server wrote. A file that
    /// cannot be deleted is an error, never a silent leftover; a link is not followed.
    fn delete_files_of(&self, ids: &[i64], email: &str) -> Result<usize, Error> {
        let Mailer::Files(dir) = self else {
            return Ok(0);
        };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(source) => {
                return Err(Error::Write {
                    path: dir.clone(),
                    source,
                })
            }
        };
        let mut deleted = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            if !regular || !is_mail_file(&path) {
                continue;
            }
            if eml_belongs_to(&path, ids, email) {
                std::fs::remove_file(&path).map_err(|source| Error::Write { path, source })?;
                deleted += 1;
            }
        }
        Ok(deleted)
    }
}

/// A message's file in the outbox folder: an `.eml`, or the hidden `.tmp` a crash left
/// half-written (it holds what a patient wrote all the same).
fn is_mail_file(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "eml" || x == "tmp")
}

/// Writes one message into `dir` as `<random>.eml`, readable by this user only from its
/// first byte and whole once it has that name (the project's atomic write: a new hidden
/// file, renamed, never through a link), so a reader of the folder (a developer, a test,
/// the erasure) never meets half a message.
fn write_eml(dir: &Path, message: &[u8]) -> std::io::Result<()> {
    let mut id = [0_u8; 16];
    getrandom::fill(&mut id)
        .map_err(|e| std::io::Error::other(format!("{}: no random name: {e}", dir.display())))?;
    let name: String = id.iter().map(|b| format!("{b:02x}")).collect();
    content::beneath::Root::new(dir).write_atomic_with(
        &dir.join(format!("{name}.eml")),
        message,
        Some(0o600),
    )
}

/// Whether the headers of the `.eml` file at `path` name one of the messages `ids` (its
/// Message-ID, as `compose` writes it) or reply to `email`.
fn eml_belongs_to(path: &Path, ids: &[i64], email: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    // Headers end at the first empty line; a long one goes on in lines that start blank.
    let headers = text
        .split("\r\n\r\n")
        .next()
        .unwrap_or_default()
        .replace("\r\n ", " ")
        .replace("\r\n\t", " ");
    let reply_to = format!("<{}>", email.to_lowercase());
    headers.lines().any(|line| {
        let lower = line.to_lowercase();
        (lower.starts_with("reply-to:") && lower.contains(&reply_to))
            || (lower.starts_with("message-id:")
                && ids
                    .iter()
                    .any(|id| lower.contains(&format!("<contact-{id}-"))))
    })
}

/// What an erasure removed: stored messages and `.eml` files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Erasure {
    pub messages: usize,
    pub files: usize,
}

/// Who e-mails come from and go to.
#[derive(Debug, Clone)]
pub struct Addresses {
    pub from: Mailbox,
    pub to: Mailbox,
    pub site_name: String,
    pub domain: String,
}

/// The first lines of a suspected message's body, saying why it is suspected.
fn spam_note(spam: Option<Spam>) -> String {
    match spam {
        None => String::new(),
        Some(Spam::Honeypot) => format!(
            "Ta wiadomość trafiła do kwarantanny ({}) i została z niej zwolniona w panelu administracyjnym.\n\n",
            Spam::Honeypot.label()
        ),
        Some(reason) => format!(
            "UWAGA: wiadomość może być spamem. Powód: {}. Sprawdź ją, zanim odpowiesz; jeśli pisze człowiek, odpowiedz jak zwykle.\n\n",
            reason.label()
        ),
    }
}

pub fn compose(m: &StoredMessage, a: &Addresses) -> Result<Message, String> {
    let address: lettre::Address = m
        .email
        .parse()
        .map_err(|e| format!("the visitor's address cannot be used: {e}"))?;
    let visitor = Mailbox::new(Some(m.name.clone()), address);
    let phone = if m.full_phone.is_empty() {
        "nie podano".to_string()
    } else {
        m.full_phone.clone()
    };
    let body = format!(
        "{note}Nowa wiadomość z formularza kontaktowego na stronie {site}.\n\n\
         Imię: {name}\nE-mail: {email}\nTelefon: {phone}\n\
         Numer kierunkowy: {code}\nNumer: {number}\n\nWiadomość:\n{message}\n",
        note = spam_note(m.spam),
        site = a.site_name,
        name = m.name,
        email = m.email,
        code = m.country_code,
        number = if m.phone.is_empty() {
            "nie podano"
        } else {
            &m.phone
        },
        message = m.message,
    );
    Message::builder()
        .message_id(Some(format!(
            "<contact-{}-{}@{}>",
            m.id, m.received_at, a.domain
        )))
        .from(a.from.clone())
        .reply_to(visitor)
        .to(a.to.clone())
        .subject(match m.spam {
            Some(Spam::TooFast | Spam::BadToken) => {
                format!("{SPAM_MARKER} Wiadomość ze strony od: {}", m.name)
            }
            _ => format!("Wiadomość ze strony od: {}", m.name),
        })
        .header(ContentType::TEXT_PLAIN)
        .body(body)
        .map_err(|e| e.to_string())
}

/// Seconds to wait after the `attempts`-th failure: `base`, twice that, four times… up to
/// an hour.
pub fn retry_delay(base: i64, attempts: i64) -> i64 {
    let exponent = u32::try_from((attempts - 1).clamp(0, 16)).unwrap_or(16);
    (base.max(1) << exponent).min(MAX_DELAY_SECONDS)
}

pub struct Outbox {
    db: Arc<Db>,
    mailer: Mailer,
    addresses: Addresses,
    retention_seconds: i64,
    retry_base_seconds: i64,
    wake: (Mutex<bool>, Condvar),
}

impl Outbox {
    pub fn new(
        db: Arc<Db>,
        mailer: Mailer,
        addresses: Addresses,
        retention_days: i64,
        retry_base_seconds: i64,
    ) -> Self {
        Self {
            db,
            mailer,
            addresses,
            retention_seconds: retention_days * 24 * 60 * 60,
            retry_base_seconds,
            wake: (Mutex::new(false), Condvar::new()),
        }
    }

    /// [`Outbox::send_notice`] on the blocking pool, for a request that must not hold its
    /// worker while the mail goes out.
    pub async fn notice(
        self: &Arc<Self>,
        to: &str,
        subject: &str,
        body: String,
    ) -> Result<(), String> {
        let (outbox, to, subject) = (Arc::clone(self), to.to_string(), subject.to_string());
        crate::tasks::block(move || outbox.send_notice(&to, &subject, &body))
            .await
            .map_err(|e| e.to_string())?
    }

    /// [`Outbox::erase_sender`] on the blocking pool.
    pub async fn erase(self: &Arc<Self>, email: String) -> Result<Erasure, crate::error::ApiError> {
        let outbox = Arc::clone(self);
        Ok(crate::tasks::block(move || outbox.erase_sender(&email)).await??)
    }

    /// Sends a notice of the panel (a password reset code) to `to` at once, not through the
    /// queue: it is worth nothing later.
    pub fn send_notice(&self, to: &str, subject: &str, body: &str) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("{to}: {e}"))?;
        let message = Message::builder()
            .from(self.addresses.from.clone())
            .to(to)
            .subject(format!("{}: {subject}", self.addresses.site_name))
            .header(ContentType::TEXT_PLAIN)
            .body(body.to_string())
            .map_err(|e| e.to_string())?;
        self.mailer.send(&message)
    }

    /// The practice's name, as its e-mails give it.
    pub fn site_name(&self) -> &str {
        &self.addresses.site_name
    }

    /// Tells the worker a new message is waiting.
    pub fn wake(&self) {
        let (flag, condvar) = &self.wake;
        if let Ok(mut woken) = flag.lock() {
            *woken = true;
            condvar.notify_one();
        }
    }

    /// Tries every message that is due; returns how many were delivered.
    pub fn deliver_due(&self, now: i64) -> Result<usize, Error> {
        #[cfg(not(feature = "panel"))]
        if matches!(self.mailer, Mailer::Held) {
            return Ok(0);
        }
        let mut delivered = 0;
        for message in self.db.due_messages(now, 50)? {
            let result =
                compose(&message, &self.addresses).and_then(|email| self.mailer.send(&email));
            match result {
                Ok(()) => {
                    self.db.mark_delivered(message.id, now)?;
                    delivered += 1;
                    tracing::info!(id = message.id, "contact message delivered");
                }
                Err(error) if now - message.received_at >= GIVE_UP_AFTER_SECONDS => {
                    self.db.mark_attempt_failed(message.id, &error, None)?;
                    tracing::error!(id = message.id, %error, "contact message could not be delivered for a day: marked failed, kept in the database");
                }
                Err(error) => {
                    let next = now + retry_delay(self.retry_base_seconds, message.attempts + 1);
                    self.db
                        .mark_attempt_failed(message.id, &error, Some(next))?;
                    tracing::warn!(id = message.id, %error, retry_at = next, "contact message delivery failed; will retry");
                }
            }
        }
        Ok(delivered)
    }

    /// How many days a message is kept before it is deleted.
    pub fn retention_days(&self) -> i64 {
        self.retention_seconds / (24 * 60 * 60)
    }

    /// Deletes messages in every state, and `.eml` files, past the retention period.
    pub fn purge_old(&self, now: i64) -> Result<usize, Error> {
        let before = now - self.retention_seconds;
        let files_before =
            SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(before).unwrap_or(0));
        let files = self.mailer.delete_files_before(files_before);
        Ok(self.db.delete_messages_before(before)? + files)
    }

    /// Erases every message of `email` and every `.eml` file of them (RODO art. 17). The
    /// rows go first, so the worker sends none of them while their files are sought.
    pub fn erase_sender(&self, email: &str) -> Result<Erasure, Error> {
        let ids: Vec<i64> = self
            .db
            .messages(Some(email), usize::MAX >> 1)?
            .iter()
            .map(|m| m.id)
            .collect();
        let messages = self.db.delete_messages_of(email)?;
        let files = self.mailer.delete_files_of(&ids, email)?;
        Ok(Erasure { messages, files })
    }

    /// Runs the delivery loop on its own thread until the process ends.
    pub fn spawn(self: Arc<Self>, poll: Duration) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || loop {
            let now = self.db.now();
            if let Err(e) = self.deliver_due(now).and_then(|_| self.purge_old(now)) {
                tracing::error!(error = %e, "outbox");
            }
            let (flag, condvar) = &self.wake;
            let Ok(guard) = flag.lock() else { return };
            let (mut woken, _) = condvar
                .wait_timeout_while(guard, poll, |woken| !*woken)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            *woken = false;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::NewMessage;
    use std::os::unix::fs::PermissionsExt;

    fn addresses() -> Addresses {
        Addresses {
            from: "Gabinet Harmonia <kontakt@gabinet-harmonia.pl>"
                .parse()
                .expect("test setup"),
            to: "kontakt@gabinet-harmonia.pl".parse().expect("test setup"),
            site_name: "Gabinet Harmonia".into(),
            domain: "gabinet-harmonia.pl".into(),
        }
    }

    fn stored() -> StoredMessage {
        StoredMessage {
            id: 7,
            received_at: 1_700_000_000,
            name: "Anna Kowalska".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            full_phone: "+48501234567".into(),
            message: "Dzień dobry, proszę o kontakt.".into(),
            status: "pending".into(),
            attempts: 0,
            last_error: None,
            delivered_at: None,
            spam: None,
            held: false,
        }
    }

    fn new_message() -> NewMessage {
        NewMessage {
            name: "Anna".into(),
            email: "anna@example.pl".into(),
            phone: String::new(),
            country_code: "+48".into(),
            full_phone: String::new(),
            message: "Proszę o kontakt".into(),
            spam: None,
        }
    }

    #[test]
    fn the_email_carries_every_field_and_replies_to_the_visitor() {
        let email = String::from_utf8(
            compose(&stored(), &addresses())
                .expect("test setup")
                .formatted(),
        )
        .expect("test setup");
        assert!(
            email.contains("Reply-To: \"Anna Kowalska\" <anna@example.pl>"),
            "{email}"
        );
        assert!(
            email.contains("Subject: =?utf-8?"),
            "a Polish subject is encoded: {email}"
        );
        assert!(
            email.contains("Message-ID: <contact-7-1700000000@gabinet-harmonia.pl>"),
            "{email}"
        );
        for part in [
            "Anna Kowalska",
            "anna@example.pl",
            "+48501234567",
            "501234567",
        ] {
            assert!(email.contains(part), "{part} missing: {email}");
        }
    }

    #[test]
    fn a_suspected_message_is_marked_in_its_subject_and_says_why() {
        let suspect = StoredMessage {
            spam: Some(Spam::TooFast),
            ..stored()
        };
        let email = String::from_utf8(
            compose(&suspect, &addresses())
                .expect("composed")
                .formatted(),
        )
        .expect("utf-8");
        let subject = email
            .lines()
            .find(|l| l.starts_with("Subject:"))
            .expect("a subject");
        // Encoded words may be split anywhere; compare without the spaces between them.
        let decoded = decode_subject(subject).replace(' ', "");
        assert!(
            decoded.starts_with(&SPAM_MARKER.replace(' ', "")),
            "{decoded}"
        );
        assert!(spam_note(Some(Spam::TooFast)).contains(Spam::TooFast.label()));
        assert!(spam_note(None).is_empty());
        let clean = String::from_utf8(
            compose(&stored(), &addresses())
                .expect("composed")
                .formatted(),
        )
        .expect("utf-8");
        let clean_subject = clean
            .lines()
            .find(|l| l.starts_with("Subject:"))
            .expect("subject");
        assert!(!decode_subject(clean_subject).contains("podejrzenie"));
    }

    /// The text of an RFC 2047 subject line as lettre writes it (base64 words).
    fn decode_subject(line: &str) -> String {
        line.trim_start_matches("Subject:")
            .split_whitespace()
            .map(|word| {
                word.strip_prefix("=?utf-8?b?")
                    .and_then(|w| w.strip_suffix("?="))
                    .map_or_else(|| word.to_string(), base64_decode)
            })
            .collect::<Vec<_>>()
            .join("")
    }

    fn base64_decode(text: &str) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut bits = 0_u32;
        let mut count = 0;
        let mut out = Vec::new();
        for c in text.bytes().filter(|c| *c != b'=') {
            let Some(v) = ALPHABET.iter().position(|a| *a == c) else {
                continue;
            };
            bits = (bits << 6) | v as u32;
            count += 6;
            if count >= 8 {
                count -= 8;
                out.push((bits >> count) as u8);
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn eml_files_are_private_and_deleted_after_the_retention_period() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Arc::new(Db::open(&dir.path().join("db")).expect("db"));
        db.insert_message(&new_message(), 100).expect("stored");
        let outbox_dir = dir.path().join("outbox");
        let mailer = Mailer::from_config(None, &outbox_dir).expect("mailer");
        let outbox = Outbox::new(Arc::clone(&db), mailer, addresses(), 30, 30);
        outbox.deliver_due(100).expect("delivered");
        let file = std::fs::read_dir(&outbox_dir)
            .expect("outbox")
            .next()
            .expect("a file")
            .expect("entry")
            .path();
        assert_eq!(
            std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(
            std::fs::metadata(&outbox_dir)
                .expect("meta")
                .permissions()
                .mode()
                & 0o777,
            0o700
        );
        let later = db.now() + 31 * 86_400;
        assert_eq!(
            outbox.purge_old(later).expect("purged"),
            2,
            "the row and its .eml file"
        );
        assert!(!file.exists());
    }

    #[test]
    fn erasing_a_sender_deletes_her_rows_and_eml_files_and_no_one_elses() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Arc::new(Db::open(&dir.path().join("db")).expect("db"));
        let other = NewMessage {
            email: "jan@example.pl".into(),
            ..new_message()
        };
        db.insert_message(&new_message(), 100).expect("stored");
        db.insert_message(&other, 100).expect("stored");
        let outbox_dir = dir.path().join("outbox");
        let mailer = Mailer::from_config(None, &outbox_dir).expect("mailer");
        let outbox = Outbox::new(Arc::clone(&db), mailer, addresses(), 30, 30);
        outbox.deliver_due(100).expect("delivered");
        db.insert_message(&new_message(), 200)
            .expect("a second, not sent");
        let files = || std::fs::read_dir(&outbox_dir).expect("outbox").count();
        assert_eq!(
            files(),
            2,
            "whole .eml files, no temporary file left behind"
        );
        // What a crash in the middle of writing her next message would have left.
        std::fs::write(
            outbox_dir.join(".przerwany.eml.00c0ffee00c0ffee.tmp"),
            "Reply-To: Anna <anna@example.pl>\r\nSubject: Wiadomo",
        )
        .expect("a half-written file");
        let erased = outbox.erase_sender("ANNA@example.pl").expect("erased");
        assert_eq!(
            erased,
            Erasure {
                messages: 2,
                files: 2
            }
        );
        assert_eq!(files(), 1, "his file stays");
        let left: Vec<String> = db
            .messages(None, 10)
            .expect("messages")
            .into_iter()
            .map(|m| m.email)
            .collect();
        assert_eq!(left, ["jan@example.pl"]);
    }

    #[test]
    fn delays_grow_and_stop_at_an_hour() {
        assert_eq!(retry_delay(30, 1), 30);
        assert_eq!(retry_delay(30, 2), 60);
        assert_eq!(retry_delay(30, 40), 3600);
    }

    #[test]
    fn without_smtp_messages_become_eml_files_and_are_delivered_once() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Arc::new(Db::open(&dir.path().join("db")).expect("test setup"));
        let message = new_message();
        db.insert_message(&message, 100).expect("test setup");
        let outbox_dir = dir.path().join("outbox");
        let mailer = Mailer::from_config(None, &outbox_dir).expect("test setup");
        let outbox = Outbox::new(Arc::clone(&db), mailer, addresses(), 30, 30);
        assert_eq!(outbox.deliver_due(100).expect("test setup"), 1);
        assert_eq!(outbox.deliver_due(101).expect("test setup"), 0);
        let files: Vec<_> = std::fs::read_dir(&outbox_dir)
            .expect("test setup")
            .collect();
        assert_eq!(files.len(), 1);
        assert_eq!(outbox.purge_old(100 + 31 * 86_400).expect("test setup"), 1);
    }

    #[test]
    fn an_unreachable_server_is_retried_then_given_up_after_a_day() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Arc::new(Db::open(&dir.path().join("db")).expect("test setup"));
        let message = new_message();
        db.insert_message(&message, 100).expect("test setup");
        // Port 9 on loopback: nothing listens, the connection is refused at once.
        let mailer =
            Mailer::from_config(Some("smtp://127.0.0.1:9"), dir.path()).expect("test setup");
        let outbox = Outbox::new(Arc::clone(&db), mailer, addresses(), 30, 30);
        assert_eq!(outbox.deliver_due(100).expect("test setup"), 0);
        assert_eq!(db.count("pending").expect("test setup"), 1);
        assert!(
            db.due_messages(100, 10).expect("test setup").is_empty(),
            "the retry waits"
        );
        assert_eq!(
            outbox
                .deliver_due(100 + GIVE_UP_AFTER_SECONDS)
                .expect("test setup"),
            0
        );
        assert_eq!(
            db.count("failed").expect("test setup"),
            1,
            "given up, but kept"
        );
    }
}
