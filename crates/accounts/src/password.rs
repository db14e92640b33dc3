//! Password hashes (argon2id) and the accounts that hold them.

use argon2::password_hash::{Output, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;
use std::sync::OnceLock;

use crate::error::Error;
use crate::store::Store as Db;

/// The longest password accepted, in bytes: argon2 takes any length, a sign-in form need not.
pub const MAX_PASSWORD_BYTES: usize = 1024;
pub const MIN_PASSWORD_CHARS: usize = 12;

pub fn hash_password(password: &str) -> Result<String, Error> {
    let mut raw = [0_u8; 16];
    getrandom::fill(&mut raw)?;
    let salt = SaltString::encode_b64(&raw).map_err(|e| Error::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Hash(e.to_string()))
}

thread_local! {
    /// argon2's work area (19 MiB with the default parameters), kept by each thread that
    /// checks passwords and reused: allocated anew for every check, freed blocks pile up in
    /// the allocator's per-thread arenas under a burst of sign-ins.
    static WORK_AREA: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Whether `password` matches the PHC string `hash` (argon2 of any variant and parameters).
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(phc) = PasswordHash::new(hash) else {
        return false;
    };
    let algorithm = Algorithm::try_from(phc.algorithm);
    let version = phc
        .version
        .map_or(Ok(Version::default()), Version::try_from);
    let (Ok(algorithm), Ok(version), Ok(params)) = (algorithm, version, Params::try_from(&phc))
    else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&phc.salt, &phc.hash) else {
        return false;
    };
    let mut salt_bytes = [0_u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = vec![0_u8; expected.len()];
    let argon2 = Argon2::new(algorithm, version, params.clone());
    let hashed = WORK_AREA.with(|area| {
        let mut blocks = area.borrow_mut();
        blocks.resize(params.block_count(), Block::new());
        argon2
            .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut blocks[..])
            .is_ok()
    });
    // Output compares in constant time.
    hashed && Output::new(&out).is_ok_and(|o| o == *expected)
}

/// An account whose password was just checked, with the hash it was checked against: a
/// session is made for it only while that is still the account's password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub id: i64,
    pub password_hash: String,
}

/// The account behind a correct password; an unknown e-mail costs the same work as a wrong
/// password, so timing tells nothing.
pub fn check_credentials(db: &Db, email: &str, password: &str) -> Result<Option<Verified>, Error> {
    match db.account(email)? {
        Some((id, hash)) => Ok(verify_password(password, &hash).then_some(Verified {
            id,
            password_hash: hash,
        })),
        None => {
            static DUMMY: OnceLock<String> = OnceLock::new();
            let dummy = DUMMY
                .get_or_init(|| hash_password("dummy password for timing").unwrap_or_default());
            let _ = verify_password(password, dummy);
            Ok(None)
        }
    }
}

/// A strong password for a first start without `ADMIN_PASSWORD`: 20 characters from a set
/// without look-alikes.
pub fn generate_password() -> Result<String, Error> {
    const SET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0_u8; 20];
    getrandom::fill(&mut bytes)?;
    Ok(bytes
        .iter()
        .map(|b| char::from(SET[usize::from(*b) % SET.len()]))
        .collect())
}

fn checked_hash(password: &str) -> Result<String, Error> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(Error::Refused(format!(
            "the password must have at least {MIN_PASSWORD_CHARS} characters"
        )));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(Error::Refused(format!(
            "the password must have at most {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    hash_password(password)
}

/// Adds an account; refuses an e-mail that has one.
pub fn add_account(db: &Db, email: &str, password: &str) -> Result<(), Error> {
    let hash = checked_hash(password)?;
    if db.insert_account(email.trim(), &hash, db.now())? {
        Ok(())
    } else {
        Err(Error::Refused(format!(
            "{email} already has an account: use set-password"
        )))
    }
}

/// Gives an existing account a new password and signs out its sessions.
pub fn set_password(db: &Db, email: &str, password: &str) -> Result<(), Error> {
    let hash = checked_hash(password)?;
    if db.update_password(email.trim(), &hash, db.now())? {
        Ok(())
    } else {
        Err(Error::Refused(format!(
            "{email} has no account: use add-account"
        )))
    }
}

pub fn delete_account(db: &Db, email: &str) -> Result<(), Error> {
    if db.delete_account(email.trim())? {
        Ok(())
    } else {
        Err(Error::Refused(format!("{email} has no account")))
    }
}

/// What making sure of the admin account did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ensured {
    /// The account was there with this password (or no password was given): nothing
    /// changed, and its sessions go on.
    Kept,
    /// The account got the password given, which differs from its own: its sessions ended.
    PasswordChanged,
    /// The account was made with the password given.
    Created,
    /// The account was made with this generated password, to be handed over once.
    Generated(String),
}

/// Makes sure the admin account exists: with `ADMIN_PASSWORD` if given (set again only when
/// it is not the account's password already, so that a restart ends no session), else a
/// generated password returned once so that it can be handed over.
pub fn ensure_admin(db: &Db, email: &str, password: Option<&str>) -> Result<Ensured, Error> {
    let account = db.account(email)?;
    match (password, account) {
        (Some(p), Some((_, hash))) if verify_password(p, &hash) => Ok(Ensured::Kept),
        (Some(p), Some(_)) => set_password(db, email, p).map(|_| Ensured::PasswordChanged),
        (Some(p), None) => add_account(db, email, p).map(|_| Ensured::Created),
        (None, Some(_)) => Ok(Ensured::Kept),
        (None, None) => {
            let generated = generate_password()?;
            add_account(db, email, &generated)?;
            Ok(Ensured::Generated(generated))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = crate::store::testing::store(&dir);
        (dir, db)
    }

    #[test]
    fn passwords_are_hashed_with_argon2id_and_verified() {
        let hash = hash_password("długie hasło do panelu").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("długie hasło do panelu", &hash));
        assert!(!verify_password("inne hasło do panelu", &hash));
    }

    /// A hash stored before the move from argon2 0.6 to 0.5 (the generation of RustCrypto the
    /// rest of the tree uses): the PHC string is the same format, so existing accounts sign in unchanged.
    #[test]
    fn a_hash_stored_by_the_earlier_argon2_release_still_verifies() {
        let stored = "$argon2id$v=19$m=19456,t=2,p=1$4lFvyNM/14Ic4uTlpVEZgQ$JBXqyqDH1Cu7ejjelTEG9JpwPXMNMMTOuoefiRfh8X0";
        assert!(verify_password("77fAn2dkugAYGGwvZUat", stored));
        assert!(!verify_password("77fAn2dkugAYGGwvZUaT", stored));
    }

    #[test]
    fn generated_passwords_are_long_and_different() {
        let a = generate_password().expect("generated");
        assert_eq!(a.chars().count(), 20);
        assert_ne!(a, generate_password().expect("generated"));
    }

    #[test]
    fn accounts_are_added_once_changed_if_they_exist_and_deleted() {
        let (_dir, db) = db();
        add_account(&db, "a@b.pl", "bardzo-dlugie-haslo").expect("added");
        assert!(
            add_account(&db, "a@b.pl", "bardzo-dlugie-haslo").is_err(),
            "exists"
        );
        assert!(
            set_password(&db, "x@b.pl", "bardzo-dlugie-haslo").is_err(),
            "unknown"
        );
        set_password(&db, "a@b.pl", "nowe-bardzo-dlugie").expect("changed");
        assert!(check_credentials(&db, "a@b.pl", "nowe-bardzo-dlugie")
            .expect("checked")
            .is_some());
        delete_account(&db, "a@b.pl").expect("deleted");
        assert!(delete_account(&db, "a@b.pl").is_err());
    }

    #[test]
    fn the_same_admin_password_at_a_restart_changes_nothing_and_keeps_the_sessions() {
        let (_dir, db) = db();
        let email = "a@b.pl";
        assert_eq!(
            ensure_admin(&db, email, Some("bardzo-dlugie-haslo")).expect("made"),
            Ensured::Created
        );
        let (_, hash) = db.account(email).expect("read").expect("there");
        assert_eq!(
            ensure_admin(&db, email, Some("bardzo-dlugie-haslo")).expect("kept"),
            Ensured::Kept
        );
        assert_eq!(db.account(email).expect("read").expect("there").1, hash);
        assert_eq!(
            ensure_admin(&db, email, Some("inne-bardzo-dlugie")).expect("set"),
            Ensured::PasswordChanged
        );
        assert_eq!(ensure_admin(&db, email, None).expect("kept"), Ensured::Kept);
    }

    #[test]
    fn short_and_huge_passwords_are_refused() {
        let (_dir, db) = db();
        assert!(add_account(&db, "a@b.pl", "krótkie").is_err());
        assert!(add_account(&db, "a@b.pl", &"x".repeat(MAX_PASSWORD_BYTES + 1)).is_err());
    }
}
