//! The second factor of sign-in: an account's TOTP secret (with the last time step used, so
//! a code works once), its recovery codes (hashed, each single-use), its passkeys (WebAuthn
//! credentials, as [`crate::webauthn::Passkey`] writes them), sign-ins waiting for their second factor
//! (with their wrong codes), the codes that reset a forgotten password, and the wrong codes
//! of an account from anywhere.

use rusqlite::{params, OptionalExtension};

use super::handle::Store;
use crate::error::Error;
use crate::throttle;

/// The kind of a code attempt reserved and not yet checked.
const RESERVED: &str = "reserved";

/// An account's TOTP secret; `confirmed` once a code from the app was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TotpRow {
    pub secret: Vec<u8>,
    pub confirmed: bool,
    pub last_step: i64,
}

/// A sign-in whose password was right, waiting for its second factor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingLogin {
    pub account_id: i64,
    pub email: String,
    pub password_hash: String,
    pub created_at: i64,
}

/// A passkey of an account, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyRow {
    pub id: i64,
    pub name: String,
    /// The credential, as [`crate::webauthn::Passkey`] writes it (JSON).
    pub passkey: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

impl Store {
    pub fn insert_passkey(
        &self,
        account_id: i64,
        name: &str,
        credential_id: &str,
        passkey: &str,
        now: i64,
    ) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "INSERT OR IGNORE INTO passkeys (account_id, name, credential_id, passkey, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![account_id, name, credential_id, passkey, now],
            )
            .map(|n| n > 0)
        })
    }

    pub fn passkeys(&self, account_id: i64) -> Result<Vec<PasskeyRow>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT id, name, passkey, created_at, last_used_at FROM passkeys
                 WHERE account_id = ?1 ORDER BY id",
            )?;
            let rows = stmt.query_map([account_id], |r| {
                Ok(PasskeyRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    passkey: r.get(2)?,
                    created_at: r.get(3)?,
                    last_used_at: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Keeps a passkey's new state (its signature counter) after a sign-in with it.
    pub fn used_passkey(&self, id: i64, passkey: &str, now: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "UPDATE passkeys SET passkey = ?2, last_used_at = ?3 WHERE id = ?1",
                params![id, passkey, now],
            )
            .map(|_| ())
        })
    }

    pub fn delete_passkey(&self, account_id: i64, id: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM passkeys WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
            )
            .map(|n| n > 0)
        })
    }

    pub fn totp(&self, account_id: i64) -> Result<Option<TotpRow>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT secret, confirmed_at IS NOT NULL, last_step FROM totp WHERE account_id = ?1",
                [account_id],
                |r| {
                    Ok(TotpRow {
                        secret: r.get(0)?,
                        confirmed: r.get(1)?,
                        last_step: r.get(2)?,
                    })
                },
            )
            .optional()
        })
    }

    /// A new, unconfirmed secret (replacing an unconfirmed one; a confirmed one stays until
    /// it is turned off).
    pub fn propose_totp(&self, account_id: i64, secret: &[u8]) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO totp (account_id, secret) VALUES (?1, ?2)
                 ON CONFLICT (account_id) DO UPDATE SET secret = ?2, last_step = 0
                 WHERE confirmed_at IS NULL",
                params![account_id, secret],
            )
            .map(|n| n > 0)
        })
    }

    /// Confirms the secret and replaces the recovery codes, in one transaction.
    pub fn confirm_totp(
        &self,
        account_id: i64,
        step: i64,
        code_hashes: &[String],
        now: i64,
    ) -> Result<(), Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            tx.execute(
                "UPDATE totp SET confirmed_at = ?2, last_step = ?3 WHERE account_id = ?1",
                params![account_id, now, step],
            )?;
            replace_codes(&tx, account_id, code_hashes)?;
            tx.commit()
        })
    }

    /// Uses time step `step` of the account's secret, unless it (or a later one) was used:
    /// whether it may be accepted.
    pub fn use_totp_step(&self, account_id: i64, step: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "UPDATE totp SET last_step = ?2 WHERE account_id = ?1 AND last_step < ?2",
                params![account_id, step],
            )
            .map(|n| n > 0)
        })
    }

    /// Turns the second factor off: the secret and every recovery code go.
    pub fn remove_totp(&self, account_id: i64) -> Result<(), Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM totp WHERE account_id = ?1", [account_id])?;
            tx.execute(
                "DELETE FROM recovery_codes WHERE account_id = ?1",
                [account_id],
            )?;
            tx.commit()
        })
    }

    pub fn replace_recovery_codes(&self, account_id: i64, hashes: &[String]) -> Result<(), Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            replace_codes(&tx, account_id, hashes)?;
            tx.commit()
        })
    }

    /// Marks the unused code with `hash` used: whether there was one.
    pub fn use_recovery_code(&self, account_id: i64, hash: &str, now: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "UPDATE recovery_codes SET used_at = ?3
                 WHERE account_id = ?1 AND code_hash = ?2 AND used_at IS NULL",
                params![account_id, hash, now],
            )
            .map(|n| n > 0)
        })
    }

    pub fn recovery_codes_left(&self, account_id: i64) -> Result<i64, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM recovery_codes WHERE account_id = ?1 AND used_at IS NULL",
                [account_id],
                |r| r.get(0),
            )
        })
    }

    pub fn insert_pending_login(
        &self,
        token_hash: &str,
        account_id: i64,
        password_hash: &str,
        now: i64,
    ) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO pending_logins (token_hash, account_id, password_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, account_id, password_hash, now],
            )
            .map(|_| ())
        })
    }

    /// The waiting sign-in with `token_hash`, made after `since`.
    pub fn pending_login(
        &self,
        token_hash: &str,
        since: i64,
    ) -> Result<Option<PendingLogin>, Error> {
        self.run(|c| {
            c.execute("DELETE FROM pending_logins WHERE created_at <= ?1", [since])?;
            c.query_row(
                "SELECT p.account_id, a.email, p.password_hash, p.created_at
                 FROM pending_logins p JOIN accounts a ON a.id = p.account_id
                 WHERE p.token_hash = ?1",
                [token_hash],
                |r| {
                    Ok(PendingLogin {
                        account_id: r.get(0)?,
                        email: r.get(1)?,
                        password_hash: r.get(2)?,
                        created_at: r.get(3)?,
                    })
                },
            )
            .optional()
        })
    }

    /// Takes one of the `max` codes the waiting sign-in `token_hash` may try, before the code
    /// is checked (so that codes sent at once are counted at once): its number, or `None`
    /// when none is left — the sign-in is then dropped, and the password asked again.
    pub fn attempt_pending_login(&self, token_hash: &str, max: i64) -> Result<Option<i64>, Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            let taken = tx.execute(
                "UPDATE pending_logins SET attempts = attempts + 1
                 WHERE token_hash = ?1 AND attempts < ?2",
                params![token_hash, max],
            )?;
            let attempt = match taken {
                0 => {
                    tx.execute(
                        "DELETE FROM pending_logins WHERE token_hash = ?1",
                        [token_hash],
                    )?;
                    None
                }
                _ => tx
                    .query_row(
                        "SELECT attempts FROM pending_logins WHERE token_hash = ?1",
                        [token_hash],
                        |r| r.get(0),
                    )
                    .optional()?,
            };
            tx.commit()?;
            Ok(attempt)
        })
    }

    /// Reserves one code attempt of the account at `now`, in the same transaction that checks
    /// the account's limit ([`throttle::decide_codes`]), forgetting wrong codes made before
    /// `since`. The reservation counts as a wrong code from this moment, so codes sent all at
    /// once, from however many addresses, are checked no more than the limit lets through:
    /// `Ok(id)` of the reservation, to be settled with [`Store::settle_code`] once the code is
    /// checked; `Err(seconds)` to wait, nothing reserved.
    pub fn reserve_code(
        &self,
        account_id: i64,
        now: i64,
        since: i64,
    ) -> Result<Result<i64, i64>, Error> {
        self.run(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute("DELETE FROM code_failures WHERE at <= ?1", [since])?;
            let (failures, last) = count_code_failures(&tx, account_id, since)?;
            if let Some(wait) = throttle::decide_codes(failures, last, now) {
                tx.commit()?;
                return Ok(Err(wait));
            }
            tx.execute(
                "INSERT INTO code_failures (account_id, at, kind) VALUES (?1, ?2, ?3)",
                params![account_id, now, RESERVED],
            )?;
            let id = tx.last_insert_rowid();
            tx.commit()?;
            Ok(Ok(id))
        })
    }

    /// Settles a reserved code attempt: a right code gives it back (it never counted), a wrong
    /// one (`Some(kind)`: the app's, a recovery or a reset code) stays counted as that kind.
    /// The account's wrong codes made after `since`, and when the last was.
    pub fn settle_code(
        &self,
        (account_id, reservation): (i64, i64),
        wrong: Option<&str>,
        since: i64,
    ) -> Result<(i64, i64), Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            match wrong {
                Some(kind) => tx.execute(
                    "UPDATE code_failures SET kind = ?2 WHERE id = ?1",
                    params![reservation, kind],
                )?,
                None => tx.execute("DELETE FROM code_failures WHERE id = ?1", [reservation])?,
            };
            let counted = count_code_failures(&tx, account_id, since)?;
            tx.commit()?;
            Ok(counted)
        })
    }

    /// The account's wrong codes made after `since` (reserved ones included), from anywhere,
    /// and when the last was.
    pub fn code_failures(&self, account_id: i64, since: i64) -> Result<(i64, i64), Error> {
        self.run(|c| count_code_failures(c, account_id, since))
    }

    pub fn delete_pending_login(&self, token_hash: &str) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM pending_logins WHERE token_hash = ?1",
                [token_hash],
            )
            .map(|_| ())
        })
    }

    /// Keeps a new reset code for the account, unless a live one is there (made after `since`
    /// and not yet tried `max_attempts` times): a request never replaces a code that still
    /// works, so a stranger's requests cannot keep invalidating the administrator's. Whether
    /// the new code was kept (and is to be sent).
    pub fn put_reset_code(
        &self,
        account_id: i64,
        hash: &str,
        now: i64,
        (since, max_attempts): (i64, i64),
    ) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO reset_codes (account_id, code_hash, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (account_id) DO UPDATE SET code_hash = ?2, created_at = ?3, attempts = 0
                 WHERE reset_codes.created_at <= ?4 OR reset_codes.attempts >= ?5",
                params![account_id, hash, now, since, max_attempts],
            )
            .map(|changed| changed > 0)
        })
    }

    /// Counts one attempt at the account's reset code, made after `since`; returns its hash
    /// and how many attempts it has had, this one included.
    pub fn attempt_reset_code(
        &self,
        account_id: i64,
        since: i64,
    ) -> Result<Option<(String, i64)>, Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            tx.execute(
                "DELETE FROM reset_codes WHERE account_id = ?1 AND created_at <= ?2",
                params![account_id, since],
            )?;
            tx.execute(
                "UPDATE reset_codes SET attempts = attempts + 1 WHERE account_id = ?1",
                [account_id],
            )?;
            let found = tx
                .query_row(
                    "SELECT code_hash, attempts FROM reset_codes WHERE account_id = ?1",
                    [account_id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            tx.commit()?;
            Ok(found)
        })
    }

    pub fn delete_reset_code(&self, account_id: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM reset_codes WHERE account_id = ?1",
                [account_id],
            )
            .map(|_| ())
        })
    }
}

fn count_code_failures(
    c: &rusqlite::Connection,
    account_id: i64,
    since: i64,
) -> rusqlite::Result<(i64, i64)> {
    c.query_row(
        "SELECT COUNT(*), COALESCE(MAX(at), 0) FROM code_failures WHERE account_id = ?1 AND at > ?2",
        params![account_id, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

fn replace_codes(
    tx: &rusqlite::Transaction<'_>,
    account_id: i64,
    hashes: &[String],
) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM recovery_codes WHERE account_id = ?1",
        [account_id],
    )?;
    for hash in hashes {
        tx.execute(
            "INSERT INTO recovery_codes (account_id, code_hash) VALUES (?1, ?2)",
            params![account_id, hash],
        )?;
    }
    Ok(())
}
