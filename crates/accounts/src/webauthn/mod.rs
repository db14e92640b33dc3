//! WebAuthn for the panel's passkeys (Web Authentication Level 2): the options the browser's
//! `parseCreationOptionsFromJSON` and `parseRequestOptionsFromJSON` read, and the relying
//! party's checks of what comes back (§7.1 registering a key, §7.2 signing in with it).
//!
//! The cryptography is `ring`'s (the TLS stack's, already built), the authenticator's CBOR
//! `cbor4ii`'s. The checks are the standard's, for what the panel asks: user verification
//! required, no attestation, keys of ES256, EdDSA or RS256. They replaced `webauthn-rs`, whose
//! second generation of RustCrypto, X.509 parser and their dependencies made about a hundred
//! of the workspace's 518 crates, and 14 of its 18 crates compiled in two versions.

mod cbor;
mod cose;
mod data;
mod stored;
mod wire;

use sha2::{Digest, Sha256};

pub use cose::PublicKey;
pub use stored::Passkey;
pub use wire::{
    AssertionCredential, Base64Url, CreationOptions, RegistrationCredential, RequestOptions,
};

use crate::error::Error;
use wire::{Algorithm, Creation, Descriptor, Party, Request, Selection, User};

/// A stable, private id of the account for its authenticators (never its e-mail address).
pub type UserHandle = [u8; 16];

/// How long a ceremony may take, from its options to the authenticator's answer: the
/// browser's timeout, and how long the server keeps its state.
pub const CEREMONY_SECONDS: i64 = 300;
const TIMEOUT_MS: u64 = CEREMONY_SECONDS.unsigned_abs() * 1000;

/// A registration's state between its two steps.
pub struct Registration {
    challenge: [u8; 32],
}

/// A sign-in's state between its two steps: its challenge, and the keys it may use.
pub struct Authentication {
    challenge: [u8; 32],
    user: UserHandle,
    keys: Vec<Passkey>,
}

/// The panel as a WebAuthn relying party: its host name (the id every key is bound to) and
/// its origin (where the browser must have been).
pub struct RelyingParty {
    id: String,
    origin: String,
    name: &'static str,
}

fn challenge() -> Result<[u8; 32], Error> {
    let mut challenge = [0_u8; 32];
    getrandom::fill(&mut challenge)?;
    Ok(challenge)
}

impl RelyingParty {
    /// The panel at `origin` (scheme, host, port), named `name` in the authenticator's
    /// prompts; none where the origin has no host name (an IP address cannot be one).
    pub fn new(origin: &str, name: &'static str) -> Result<Self, String> {
        let url = url::Url::parse(origin).map_err(|e| e.to_string())?;
        let id = url.domain().ok_or("no host name")?.to_string();
        Ok(RelyingParty {
            id,
            origin: url.origin().ascii_serialization(),
            name,
        })
    }

    /// The options of a new key for the account `user` (`email`), which may not be one of
    /// `kept`, and the state to finish it with.
    pub fn start_registration(
        &self,
        user: UserHandle,
        email: &str,
        kept: &[Passkey],
    ) -> Result<(CreationOptions, Registration), Error> {
        let state = Registration {
            challenge: challenge()?,
        };
        let options = Creation {
            rp: Party {
                id: self.id.clone(),
                name: self.name,
            },
            user: User {
                id: Base64Url(user.to_vec()),
                name: email.to_string(),
                display_name: email.to_string(),
            },
            challenge: Base64Url(state.challenge.to_vec()),
            pub_key_cred_params: cose::ALGORITHMS.into_iter().map(Algorithm::new).collect(),
            timeout: TIMEOUT_MS,
            exclude_credentials: descriptors(kept),
            authenticator_selection: Selection {
                resident_key: "preferred",
                require_resident_key: false,
                user_verification: "required",
            },
            attestation: "none",
        };
        Ok((
            CreationOptions {
                public_key: options,
            },
            state,
        ))
    }

    /// The new key, if `credential` answers `state`'s challenge on the panel's page for its
    /// host, with the user verified.
    pub fn finish_registration(
        &self,
        credential: &RegistrationCredential,
        state: &Registration,
    ) -> Result<Passkey, Error> {
        let response = &credential.response;
        let client_data = &response.client_data_json.0;
        self.check_client(
            &credential.kind,
            "webauthn.create",
            client_data,
            &state.challenge,
        )?;
        let raw = data::attested_data(&response.attestation_object.0)?;
        let authenticator = data::authenticator_data(&raw, &self.id)?;
        let (id, key) = authenticator.attested_credential()?;
        if id != credential.raw_id.0 {
            return Err(Error::refused(
                "the credential's id differs from the one in its data",
            ));
        }
        Ok(Passkey {
            credential_id: Base64Url(id),
            key,
            counter: authenticator.counter,
        })
    }

    /// The options of a sign-in with one of `keys` (the account `user`'s), and its state.
    pub fn start_authentication(
        &self,
        user: UserHandle,
        keys: Vec<Passkey>,
    ) -> Result<(RequestOptions, Authentication), Error> {
        let state = Authentication {
            challenge: challenge()?,
            user,
            keys,
        };
        let options = Request {
            challenge: Base64Url(state.challenge.to_vec()),
            timeout: TIMEOUT_MS,
            rp_id: self.id.clone(),
            allow_credentials: descriptors(&state.keys),
            user_verification: "required",
        };
        Ok((
            RequestOptions {
                public_key: options,
            },
            state,
        ))
    }

    /// The key that signed, with its new counter, if `credential` is one of `state`'s keys
    /// signing its challenge on the panel's page, the user verified, and its counter (where
    /// it counts) went forward: a counter that did not suggests a copied key.
    pub fn finish_authentication(
        &self,
        credential: &AssertionCredential,
        state: &Authentication,
    ) -> Result<Passkey, Error> {
        let response = &credential.response;
        let client_data = &response.client_data_json.0;
        self.check_client(
            &credential.kind,
            "webauthn.get",
            client_data,
            &state.challenge,
        )?;
        let Some(key) = state
            .keys
            .iter()
            .find(|k| k.credential_id == credential.raw_id)
        else {
            return Err(Error::refused("a key that is not the account's"));
        };
        if response
            .user_handle
            .as_ref()
            .is_some_and(|h| h.0 != state.user)
        {
            return Err(Error::refused("a key of another account"));
        }
        let signed_data = &response.authenticator_data.0;
        let authenticator = data::authenticator_data(signed_data, &self.id)?;
        let mut message = signed_data.clone();
        message.extend_from_slice(&Sha256::digest(client_data));
        if !key.key.verifies(&message, &response.signature.0) {
            return Err(Error::refused("the signature is not the key's"));
        }
        let counts = authenticator.counter != 0 || key.counter != 0;
        if counts && authenticator.counter <= key.counter {
            return Err(Error::refused(format!(
                "the key's counter went from {} to {}: it may have been copied",
                key.counter, authenticator.counter
            )));
        }
        Ok(Passkey {
            counter: authenticator.counter,
            ..key.clone()
        })
    }

    /// What both ceremonies check first: a public-key credential whose client data is of
    /// `ceremony` ("webauthn.create" or "webauthn.get") and answers `challenge` on the panel's
    /// own page.
    fn check_client(
        &self,
        kind: &str,
        ceremony: &str,
        client_data: &[u8],
        challenge: &[u8],
    ) -> Result<(), Error> {
        if !wire::is_public_key(kind) {
            return Err(Error::refused("not a public-key credential"));
        }
        data::check_client_data(client_data, ceremony, challenge, &self.origin)
    }
}

fn descriptors(keys: &[Passkey]) -> Vec<Descriptor> {
    keys.iter()
        .map(|k| Descriptor::new(&k.credential_id.0))
        .collect()
}

#[cfg(test)]
mod tests;
