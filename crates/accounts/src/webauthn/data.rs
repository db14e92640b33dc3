//! What an authenticator answers, read and checked (WebAuthn Level 2, §7.1 and §7.2): the
//! client data the browser wrote, the authenticator's data, and at registration the
//! attestation object around it.

use super::cbor::{self, Value};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::cose::{self, PublicKey};
use super::wire::Base64Url;
use crate::error::Error;

/// The user was present (touched the key, looked at the phone).
const USER_PRESENT: u8 = 0x01;
/// The user was verified (fingerprint, face, PIN): the panel asks for it.
const USER_VERIFIED: u8 = 0x04;
/// The data holds a new credential (registration).
const ATTESTED: u8 = 0x40;
/// Credential ids are at most this long (§5.8.3).
const LONGEST_ID: usize = 1023;

/// What the browser says it had signed: the ceremony, its challenge and the page's origin.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClientData {
    #[serde(rename = "type")]
    kind: String,
    challenge: Base64Url,
    origin: String,
    #[serde(default)]
    cross_origin: Option<bool>,
}

/// Checks the client data of a `kind` ceremony ("webauthn.create" or "webauthn.get"): its
/// challenge is the one sent and it comes from the panel's own page, not a frame of another.
pub(super) fn check_client_data(
    raw: &[u8],
    kind: &str,
    challenge: &[u8],
    origin: &str,
) -> Result<(), Error> {
    let data: ClientData =
        serde_json::from_slice(raw).map_err(|e| Error::refused(format!("client data: {e}")))?;
    if data.kind != kind {
        return Err(Error::refused(format!(
            "client data of {:?}, not {kind}",
            data.kind
        )));
    }
    if data.challenge.0 != challenge {
        return Err(Error::refused("the challenge of another ceremony"));
    }
    if data.origin != origin {
        return Err(Error::refused(format!(
            "signed on {:?}, not {origin}",
            data.origin
        )));
    }
    if data.cross_origin == Some(true) {
        return Err(Error::refused("signed in a frame inside another site"));
    }
    Ok(())
}

/// The authenticator's data: its flags, its signature counter, and what follows them.
pub(super) struct AuthenticatorData<'a> {
    pub(super) flags: u8,
    pub(super) counter: u32,
    rest: &'a [u8],
}

/// Reads the authenticator's data and checks it was made for `rp_id` with the user present
/// and verified.
pub(super) fn authenticator_data<'a>(
    raw: &'a [u8],
    rp_id: &str,
) -> Result<AuthenticatorData<'a>, Error> {
    let (Some(rp_id_hash), Some(&flags), Some(counter), Some(rest)) =
        (raw.get(..32), raw.get(32), raw.get(33..37), raw.get(37..))
    else {
        return Err(Error::refused("authenticator data too short"));
    };
    if rp_id_hash != Sha256::digest(rp_id.as_bytes()).as_slice() {
        return Err(Error::refused(
            "signed for another site than the panel's host",
        ));
    }
    if flags & USER_PRESENT == 0 || flags & USER_VERIFIED == 0 {
        return Err(Error::refused(
            "the user was not verified by the authenticator",
        ));
    }
    let counter = u32::from_be_bytes([counter[0], counter[1], counter[2], counter[3]]);
    Ok(AuthenticatorData {
        flags,
        counter,
        rest,
    })
}

impl AuthenticatorData<'_> {
    /// The credential a registration made: its id and public key.
    pub(super) fn attested_credential(&self) -> Result<(Vec<u8>, PublicKey), Error> {
        if self.flags & ATTESTED == 0 {
            return Err(Error::refused(
                "no new credential in the authenticator's data",
            ));
        }
        // The authenticator's model (16 bytes), then the id's length in two bytes.
        let (Some(length), Some(rest)) = (self.rest.get(16..18), self.rest.get(18..)) else {
            return Err(Error::refused("the new credential's data is cut short"));
        };
        let length = usize::from(u16::from_be_bytes([length[0], length[1]]));
        if length == 0 || length > LONGEST_ID || rest.len() < length {
            return Err(Error::refused("the new credential's id is malformed"));
        }
        let (id, key) = rest.split_at(length);
        Ok((id.to_vec(), cose::public_key(key)?))
    }
}

/// The authenticator's data inside a registration's attestation object. Its statement is not
/// read: the panel asks for none, and trusts the key because the signed-in, reconfirmed
/// administrator made it.
pub(super) fn attested_data(attestation_object: &[u8]) -> Result<Vec<u8>, Error> {
    let value = cbor::first_value(attestation_object)
        .map_err(|e| Error::refused(format!("the attestation's CBOR: {e}")))?;
    let Value::Map(entries) = value else {
        return Err(Error::refused("the attestation is not a map"));
    };
    entries
        .into_iter()
        .find_map(|(k, v)| match (k, v) {
            (Value::Text(k), Value::Bytes(data)) if k == "authData" => Some(data),
            _ => None,
        })
        .ok_or_else(|| Error::refused("the attestation holds no authenticator data"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client_data(kind: &str, challenge: &[u8], origin: &str) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "type": kind, "challenge": Base64Url(challenge.to_vec()), "origin": origin,
            "crossOrigin": false, "other_keys_can_be_added_here": "…"
        }))
        .unwrap()
    }

    #[test]
    fn client_data_must_name_the_ceremony_its_challenge_and_the_panels_origin() {
        let origin = "https://panel.gabinet.pl";
        let good = client_data("webauthn.get", b"wyzwanie", origin);
        assert!(check_client_data(&good, "webauthn.get", b"wyzwanie", origin).is_ok());
        let refusal = |raw: &[u8]| {
            check_client_data(raw, "webauthn.get", b"wyzwanie", origin)
                .unwrap_err()
                .to_string()
        };
        assert!(
            refusal(&client_data("webauthn.create", b"wyzwanie", origin))
                .contains("webauthn.create")
        );
        assert!(refusal(&client_data("webauthn.get", b"inne", origin)).contains("challenge"));
        assert!(refusal(&client_data(
            "webauthn.get",
            b"wyzwanie",
            "https://gabinet-harrnonia.pl"
        ))
        .contains("signed on"));
        let framed = br#"{"type":"webauthn.get","challenge":"d3l6d2FuaWU","origin":"https://panel.gabinet.pl","crossOrigin":true}"#;
        assert!(refusal(framed).contains("frame"));
        assert!(refusal(b"{").contains("client data"));
    }

    fn data(rp_id: &str, flags: u8, counter: u32) -> Vec<u8> {
        let mut raw = Sha256::digest(rp_id.as_bytes()).to_vec();
        raw.push(flags);
        raw.extend(counter.to_be_bytes());
        raw
    }

    #[test]
    fn authenticator_data_must_be_for_the_panels_host_with_the_user_verified() {
        let raw = data("localhost", 0x05, 7);
        let read = authenticator_data(&raw, "localhost").unwrap();
        assert_eq!((read.flags, read.counter), (0x05, 7));
        let refusal = |raw: &[u8]| {
            authenticator_data(raw, "localhost")
                .err()
                .unwrap()
                .to_string()
        };
        assert!(refusal(&data("gabinet.pl", 0x05, 7)).contains("another site"));
        assert!(refusal(&data("localhost", 0x01, 7)).contains("not verified"));
        assert!(refusal(&data("localhost", 0x04, 7)).contains("not verified"));
        assert!(refusal(&data("localhost", 0x05, 7)[..36]).contains("too short"));
    }

    #[test]
    fn a_new_credentials_id_must_fit_its_data() {
        let mut raw = data("localhost", 0x45, 0);
        raw.extend([0; 16]);
        raw.extend(2000_u16.to_be_bytes());
        raw.extend([1; 40]);
        let read = authenticator_data(&raw, "localhost").unwrap();
        assert!(read
            .attested_credential()
            .unwrap_err()
            .to_string()
            .contains("id"));
        let plain = data("localhost", 0x05, 0);
        let read = authenticator_data(&plain, "localhost").unwrap();
        assert!(read
            .attested_credential()
            .unwrap_err()
            .to_string()
            .contains("no new credential"));
    }
}
