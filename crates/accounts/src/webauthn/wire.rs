//! WebAuthn's JSON as the browser reads and writes it (`parseCreationOptionsFromJSON`,
//! `parseRequestOptionsFromJSON`, `PublicKeyCredential.toJSON()`): bytes in base64url.

use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Base64url without padding, as WebAuthn's JSON writes it; padded text is read too.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Bytes carried in JSON as base64url.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Base64Url(pub Vec<u8>);

impl Base64Url {
    pub fn decode(text: &str) -> Option<Base64Url> {
        BASE64URL.decode(text).ok().map(Base64Url)
    }
}

impl Serialize for Base64Url {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&BASE64URL.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Base64Url {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Base64Url::decode(&text).ok_or_else(|| serde::de::Error::custom("not base64url"))
    }
}

const PUBLIC_KEY: &str = "public-key";

/// What `navigator.credentials.create()` needs to make a passkey.
#[derive(Debug, Serialize)]
pub struct CreationOptions {
    #[serde(rename = "publicKey")]
    pub(super) public_key: Creation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Creation {
    pub(super) rp: Party,
    pub(super) user: User,
    pub(super) challenge: Base64Url,
    pub(super) pub_key_cred_params: Vec<Algorithm>,
    pub(super) timeout: u64,
    pub(super) exclude_credentials: Vec<Descriptor>,
    pub(super) authenticator_selection: Selection,
    pub(super) attestation: &'static str,
}

/// The relying party: the panel's host and its name in the authenticator's prompt.
#[derive(Debug, Serialize)]
pub(super) struct Party {
    pub(super) id: String,
    pub(super) name: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct User {
    pub(super) id: Base64Url,
    pub(super) name: String,
    pub(super) display_name: String,
}

#[derive(Debug, Serialize)]
pub(super) struct Algorithm {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) alg: i64,
}

impl Algorithm {
    pub(super) fn new(alg: i64) -> Self {
        Algorithm {
            kind: PUBLIC_KEY,
            alg,
        }
    }
}

/// A credential by its id: one to exclude (already kept) or to allow (the account's).
#[derive(Debug, Serialize)]
pub(super) struct Descriptor {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) id: Base64Url,
}

impl Descriptor {
    pub(super) fn new(id: &[u8]) -> Self {
        Descriptor {
            kind: PUBLIC_KEY,
            id: Base64Url(id.to_vec()),
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Selection {
    pub(super) resident_key: &'static str,
    pub(super) require_resident_key: bool,
    pub(super) user_verification: &'static str,
}

/// What `navigator.credentials.get()` needs to sign in with one of the account's passkeys.
#[derive(Debug, Serialize)]
pub struct RequestOptions {
    #[serde(rename = "publicKey")]
    pub(super) public_key: Request,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Request {
    pub(super) challenge: Base64Url,
    pub(super) timeout: u64,
    pub(super) rp_id: String,
    pub(super) allow_credentials: Vec<Descriptor>,
    pub(super) user_verification: &'static str,
}

/// A new passkey, as `PublicKeyCredential.toJSON()` writes it after `create()`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistrationCredential {
    pub(super) raw_id: Base64Url,
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) response: AttestationResponse,
}

#[derive(Debug, Deserialize)]
pub(super) struct AttestationResponse {
    #[serde(rename = "clientDataJSON")]
    pub(super) client_data_json: Base64Url,
    #[serde(rename = "attestationObject")]
    pub(super) attestation_object: Base64Url,
}

/// A signature by a passkey, as `PublicKeyCredential.toJSON()` writes it after `get()`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssertionCredential {
    pub(super) raw_id: Base64Url,
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) response: AssertionResponse,
}

#[derive(Debug, Deserialize)]
pub(super) struct AssertionResponse {
    #[serde(rename = "clientDataJSON")]
    pub(super) client_data_json: Base64Url,
    #[serde(rename = "authenticatorData")]
    pub(super) authenticator_data: Base64Url,
    pub(super) signature: Base64Url,
    #[serde(rename = "userHandle", default)]
    pub(super) user_handle: Option<Base64Url>,
}

/// Whether a credential's `type` is WebAuthn's only one.
pub(super) fn is_public_key(kind: &str) -> bool {
    kind == PUBLIC_KEY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_written_without_padding_and_read_with_or_without() {
        let bytes = Base64Url(vec![0xfb, 0xff, 0x01]);
        assert_eq!(serde_json::to_string(&bytes).unwrap(), "\"-_8B\"");
        assert_eq!(Base64Url::decode("AQ").unwrap().0, [1]);
        assert_eq!(Base64Url::decode("AQ==").unwrap().0, [1]);
        assert!(
            Base64Url::decode("A+Q").is_none(),
            "standard base64 is not base64url"
        );
    }
}
