//! A passkey as the `passkeys` table keeps it (JSON): its credential's id, public key and
//! signature counter. Passkeys kept by `webauthn-rs`, which the panel used before its own
//! checks, are read too.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cose::PublicKey;
use super::wire::Base64Url;

/// A passkey of the administrator's account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passkey {
    pub credential_id: Base64Url,
    pub key: PublicKey,
    /// The authenticator's signature counter at the last sign-in (0 for most passkeys,
    /// which never count).
    pub counter: u32,
}

impl Passkey {
    /// Reads a kept passkey: this module's JSON, or `webauthn-rs` 0.5 or 0.6's.
    pub fn from_json(text: &str) -> Option<Passkey> {
        serde_json::from_str(text)
            .ok()
            .or_else(|| kept_by_webauthn_rs(text))
    }

    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string(self)
    }
}

/// `webauthn-rs`'s `Passkey`: `{"cred": {"cred_id", "cred": {"type_", "key"}, "counter", …}}`,
/// its bytes in base64url or as arrays of numbers.
fn kept_by_webauthn_rs(text: &str) -> Option<Passkey> {
    let kept: Value = serde_json::from_str(text).ok()?;
    let cred = kept.get("cred")?;
    let key = &cred["cred"]["key"];
    let public = match (cred["cred"]["type_"].as_str()?, key) {
        ("ES256", _) if key["EC_EC2"]["curve"] == "SECP256R1" => {
            let mut point = vec![0x04];
            point.extend(bytes(&key["EC_EC2"]["x"]).filter(|x| x.len() == 32)?);
            point.extend(bytes(&key["EC_EC2"]["y"]).filter(|y| y.len() == 32)?);
            PublicKey::Es256 {
                point: Base64Url(point),
            }
        }
        ("EDDSA", _) if key["EC_OKP"]["curve"] == "ED25519" => PublicKey::Ed25519 {
            x: Base64Url(bytes(&key["EC_OKP"]["x"]).filter(|x| x.len() == 32)?),
        },
        ("RS256", _) => PublicKey::Rs256 {
            n: Base64Url(bytes(&key["RSA"]["n"])?),
            e: Base64Url(bytes(&key["RSA"]["e"])?),
        },
        _ => return None,
    };
    Some(Passkey {
        credential_id: Base64Url(bytes(&cred["cred_id"])?),
        key: public,
        counter: u32::try_from(cred["counter"].as_u64()?).ok()?,
    })
}

fn bytes(value: &Value) -> Option<Vec<u8>> {
    match value {
        Value::String(text) => Base64Url::decode(text).map(|b| b.0),
        Value::Array(items) => items
            .iter()
            .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passkey_is_kept_and_read_back_the_same() {
        let passkey = Passkey {
            credential_id: Base64Url(vec![1, 2, 3]),
            key: PublicKey::Ed25519 {
                x: Base64Url(vec![9; 32]),
            },
            counter: 4,
        };
        let json = passkey.to_json().unwrap();
        assert_eq!(
            json,
            r#"{"credential_id":"AQID","key":{"alg":"Ed25519","x":"CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk"},"counter":4}"#
        );
        assert_eq!(Passkey::from_json(&json), Some(passkey));
    }

    /// A passkey written by webauthn-rs (its own test's credential, with bytes as numbers,
    /// and the same with base64url as 0.6 writes them) signs in after the move.
    #[test]
    fn a_passkey_kept_by_webauthn_rs_is_read() {
        let x: Vec<u8> = (0..32).collect();
        let y: Vec<u8> = (32..64).collect();
        let as_numbers = serde_json::json!({"cred": {
            "cred_id": "uZcVDBVS68E_MtAgeQpElJxldF_6cY9sSvbWqx_qRh8",
            "cred": {"type_": "ES256", "key": {"EC_EC2": {"curve": "SECP256R1", "x": x, "y": y}}},
            "counter": 2, "user_verified": true, "backup_eligible": false, "backup_state": false,
            "registration_policy": "required", "attestation_format": "none"
        }});
        let read = Passkey::from_json(&as_numbers.to_string()).expect("read");
        assert_eq!(read.counter, 2);
        assert_eq!(read.credential_id.0.len(), 32);
        let PublicKey::Es256 { point } = &read.key else {
            panic!("{read:?}")
        };
        assert_eq!(point.0[0], 4);
        assert_eq!(&point.0[1..], (0..64).collect::<Vec<u8>>());
        let as_text = as_numbers
            .to_string()
            .replace(
                &serde_json::to_string(&x).unwrap(),
                "\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8\"",
            )
            .replace(
                &serde_json::to_string(&y).unwrap(),
                "\"ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8\"",
            );
        assert_eq!(Passkey::from_json(&as_text), Some(read));
        assert_eq!(Passkey::from_json(r#"{"cred": {"cred_id": "AA"}}"#), None);
    }
}
