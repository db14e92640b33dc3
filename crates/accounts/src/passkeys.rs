//! Passkeys (WebAuthn, [`crate::webauthn`]): a key kept by the administrator's phone, laptop or
//! security key, unlocked by their fingerprint, face or PIN. It is a whole sign-in on its
//! own — something they have and something they are or know — and cannot be phished: the
//! browser signs only for the panel's own host. A ceremony's state stays on the server
//! between its two steps, under a one-time token: sign-ins, which anyone may start, are held
//! a few per client and a bounded number in all (the oldest make way), so that strangers
//! starting them from many addresses never keep the administrator from signing in;
//! registrations are counted apart.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::error::Error;
use crate::tokens::random_token;
pub use crate::webauthn::CEREMONY_SECONDS;
use crate::webauthn::{Authentication, Registration, RelyingParty, UserHandle};

/// Sign-in ceremonies one client may have waiting: a new one replaces its oldest.
const SIGN_INS_PER_CLIENT: usize = 2;
/// Sign-in ceremonies kept at all (a bound on memory): a new one replaces the oldest.
const SIGN_INS_AT_ONCE: usize = 4096;
/// Registrations waiting (only the signed-in administrator starts one).
const REGISTRATIONS_AT_ONCE: usize = 4;

/// A WebAuthn ceremony's state, kept on the server between its two steps.
pub enum Ceremony {
    Register(Registration),
    SignIn(Authentication),
}

/// A ceremony in progress: when it started, for which client, and its state.
struct Waiting {
    started: i64,
    client: String,
    ceremony: Ceremony,
}

/// The relying party (the panel's host) and the ceremonies in progress. Sign-ins, which
/// anyone may start, are held per client (a few each) and in all (the oldest make way), so
/// that strangers starting them from many addresses never keep the administrator from
/// signing in; registrations are counted apart.
pub struct Passkeys {
    relying_party: Option<RelyingParty>,
    ceremonies: Mutex<HashMap<String, Waiting>>,
    clock: database::Clock,
}

impl Passkeys {
    /// For the panel at `admin_origin`; without passkeys (and a warning) if that origin
    /// cannot be a WebAuthn relying party (an IP address).
    pub fn new(admin_origin: &str, clock: database::Clock) -> Self {
        let relying_party = match RelyingParty::new(admin_origin, "Gabinet Harmonia – panel") {
            Ok(party) => Some(party),
            Err(e) => {
                tracing::warn!(origin = admin_origin, error = %e, "passkeys are off: ADMIN_ORIGIN needs a host name");
                None
            }
        };
        Passkeys {
            relying_party,
            ceremonies: Mutex::new(HashMap::new()),
            clock,
        }
    }

    /// The relying party, when the panel's origin can be one (it has a host name).
    pub fn relying_party(&self) -> Option<&RelyingParty> {
        self.relying_party.as_ref()
    }

    /// Keeps a ceremony of `client` under a new one-time token, making room for it: the
    /// client's oldest sign-in past its few, the oldest of all past the bound.
    pub fn begin(&self, ceremony: Ceremony, client: &str) -> Result<String, Error> {
        let mut map = self.ceremonies.lock().unwrap_or_else(|p| p.into_inner());
        let at = self.clock.now();
        map.retain(|_, w| at - w.started <= CEREMONY_SECONDS);
        let sign_in = matches!(ceremony, Ceremony::SignIn(_));
        let same_kind = |w: &Waiting| matches!(w.ceremony, Ceremony::SignIn(_)) == sign_in;
        let (per_client, at_once) = match sign_in {
            true => (SIGN_INS_PER_CLIENT, SIGN_INS_AT_ONCE),
            false => (REGISTRATIONS_AT_ONCE, REGISTRATIONS_AT_ONCE),
        };
        make_room(&mut map, |w| same_kind(w) && w.client == client, per_client);
        make_room(&mut map, same_kind, at_once);
        let token = random_token()?;
        let waiting = Waiting {
            started: at,
            client: client.to_string(),
            ceremony,
        };
        map.insert(token.clone(), waiting);
        Ok(token)
    }

    /// Takes the ceremony named `token` out (each is used once), if it has not expired.
    pub fn take(&self, token: &str) -> Option<Ceremony> {
        let mut map = self.ceremonies.lock().unwrap_or_else(|p| p.into_inner());
        let waiting = map.remove(token)?;
        (self.clock.now() - waiting.started <= CEREMONY_SECONDS).then_some(waiting.ceremony)
    }
}

trait Started {
    fn started(&self) -> i64;
}

impl Started for Waiting {
    fn started(&self) -> i64 {
        self.started
    }
}

/// Removes the oldest entries that `counts` until fewer than `keep` of them are left.
fn make_room<T: Started>(map: &mut HashMap<String, T>, counts: impl Fn(&T) -> bool, keep: usize) {
    let mut held: Vec<(i64, String)> = map
        .iter()
        .filter(|(_, w)| counts(w))
        .map(|(token, w)| (w.started(), token.clone()))
        .collect();
    if held.len() < keep {
        return;
    }
    held.sort_unstable();
    for (_, token) in held.iter().take(held.len() + 1 - keep) {
        map.remove(token);
    }
}

/// A stable, private id of the account for authenticators (never the e-mail address).
pub fn user_handle(account_id: i64, email: &str) -> UserHandle {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!(
        "harmonia-account-{account_id}-{}",
        email.to_lowercase()
    ));
    let mut handle = [0_u8; 16];
    handle.copy_from_slice(&digest[..16]);
    handle
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Started for (i64, &'static str) {
        fn started(&self) -> i64 {
            self.0
        }
    }

    #[test]
    fn a_client_keeps_its_few_ceremonies_and_the_oldest_of_all_make_way() {
        let mut map: HashMap<String, (i64, &'static str)> = HashMap::new();
        let mut begin = |token: &str, at: i64, client: &'static str| {
            make_room(&mut map, |w| w.1 == client, SIGN_INS_PER_CLIENT);
            make_room(&mut map, |_| true, 4);
            map.insert(token.to_string(), (at, client));
            let mut left: Vec<String> = map.keys().cloned().collect();
            left.sort();
            left
        };
        assert_eq!(begin("admin", 1, "admin"), ["admin"]);
        begin("a1", 2, "attacker");
        begin("a2", 3, "attacker");
        // A third from the same client replaces its own oldest, never the admin's.
        assert_eq!(begin("a3", 4, "attacker"), ["a2", "a3", "admin"]);
        begin("b1", 5, "other");
        // Past the bound of all, the oldest of all makes way.
        assert_eq!(begin("c1", 6, "third"), ["a2", "a3", "b1", "c1"]);
    }
}
