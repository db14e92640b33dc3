//! Both ceremonies end to end against an authenticator made in the test (keys by `ring`),
//! and the forgeries each check stops.

use super::cbor::{self, Value};
use super::cose::tests::TestKey;
use super::*;
use serde_json::{json, Value as Json};

const ORIGIN: &str = "https://panel.gabinet.pl";
const USER: UserHandle = [7; 16];

fn party() -> RelyingParty {
    RelyingParty::new("https://Panel.Gabinet.pl:443/", "Panel").unwrap()
}

/// An authenticator with one key, answering as a browser on `origin` would.
struct Authenticator {
    key: TestKey,
    id: Vec<u8>,
    origin: String,
    rp_id: String,
    flags: u8,
    counter: u32,
}

impl Authenticator {
    fn new(key: TestKey) -> Self {
        Authenticator {
            key,
            id: b"klucz-laptopa".to_vec(),
            origin: ORIGIN.to_string(),
            rp_id: "panel.gabinet.pl".to_string(),
            flags: 0x05,
            counter: 0,
        }
    }

    fn client_data(&self, kind: &str, challenge: &Json) -> Vec<u8> {
        serde_json::to_vec(&json!({"type": kind, "challenge": challenge, "origin": self.origin}))
            .unwrap()
    }

    fn data(&self, flags: u8) -> Vec<u8> {
        let mut data = Sha256::digest(self.rp_id.as_bytes()).to_vec();
        data.push(flags);
        data.extend(self.counter.to_be_bytes());
        data
    }

    fn create(&self, options: &CreationOptions) -> RegistrationCredential {
        let options = serde_json::to_value(options).unwrap();
        let mut data = self.data(self.flags | 0x40);
        data.extend([0; 16]);
        data.extend(u16::try_from(self.id.len()).unwrap().to_be_bytes());
        data.extend(&self.id);
        data.extend(self.key.cose());
        let object = Value::Map(vec![
            (Value::Text("fmt".into()), Value::Text("none".into())),
            (Value::Text("attStmt".into()), Value::Map(vec![])),
            (Value::Text("authData".into()), Value::Bytes(data)),
        ]);
        let attestation = cbor::encoded(&object);
        let client_data = self.client_data("webauthn.create", &options["publicKey"]["challenge"]);
        serde_json::from_value(json!({
            "id": Base64Url(self.id.clone()), "rawId": Base64Url(self.id.clone()), "type": "public-key",
            "response": {
                "clientDataJSON": Base64Url(client_data),
                "attestationObject": Base64Url(attestation),
                "transports": ["internal"]
            },
            "authenticatorAttachment": "platform", "clientExtensionResults": {}
        }))
        .unwrap()
    }

    fn get(&self, options: &RequestOptions) -> AssertionCredential {
        let options = serde_json::to_value(options).unwrap();
        let data = self.data(self.flags);
        let client_data = self.client_data("webauthn.get", &options["publicKey"]["challenge"]);
        let mut message = data.clone();
        message.extend(Sha256::digest(&client_data));
        serde_json::from_value(json!({
            "id": Base64Url(self.id.clone()), "rawId": Base64Url(self.id.clone()), "type": "public-key",
            "response": {
                "clientDataJSON": Base64Url(client_data),
                "authenticatorData": Base64Url(data),
                "signature": Base64Url(self.key.sign(&message)),
                "userHandle": Base64Url(USER.to_vec())
            },
            "clientExtensionResults": {}
        }))
        .unwrap()
    }
}

fn register(rp: &RelyingParty, authenticator: &Authenticator) -> Result<Passkey, Error> {
    let (options, state) = rp.start_registration(USER, "kontakt@gabinet.pl", &[])?;
    rp.finish_registration(&authenticator.create(&options), &state)
}

fn sign_in(
    rp: &RelyingParty,
    authenticator: &Authenticator,
    keys: &[Passkey],
) -> Result<Passkey, Error> {
    let (options, state) = rp.start_authentication(USER, keys.to_vec())?;
    rp.finish_authentication(&authenticator.get(&options), &state)
}

#[test]
fn a_key_made_on_the_panels_page_signs_in_again_and_again() {
    let rp = party();
    for key in [TestKey::p256(), TestKey::ed25519(), TestKey::rsa()] {
        let authenticator = Authenticator::new(key);
        let passkey = register(&rp, &authenticator).unwrap();
        assert_eq!(passkey.credential_id.0, b"klucz-laptopa");
        // A passkey that never counts (0) signs in every time.
        assert_eq!(
            sign_in(&rp, &authenticator, std::slice::from_ref(&passkey)).unwrap(),
            passkey
        );
        assert_eq!(
            sign_in(&rp, &authenticator, std::slice::from_ref(&passkey)).unwrap(),
            passkey
        );
    }
}

#[test]
fn the_options_ask_for_the_panels_host_a_verified_user_and_no_key_twice() {
    let rp = party();
    let kept = register(&rp, &Authenticator::new(TestKey::p256())).unwrap();
    let (options, _) = rp
        .start_registration(USER, "kontakt@gabinet.pl", std::slice::from_ref(&kept))
        .unwrap();
    let options = serde_json::to_value(&options).unwrap()["publicKey"].clone();
    assert_eq!(options["rp"]["id"], "panel.gabinet.pl");
    assert_eq!(options["user"]["id"], "BwcHBwcHBwcHBwcHBwcHBw");
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert_eq!(options["excludeCredentials"][0]["id"], "a2x1Y3otbGFwdG9wYQ");
    assert_eq!(
        options["pubKeyCredParams"],
        json!([
            {"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -8},
            {"type": "public-key", "alg": -257}
        ])
    );
    let (options, _) = rp.start_authentication(USER, vec![kept]).unwrap();
    let options = serde_json::to_value(&options).unwrap()["publicKey"].clone();
    assert_eq!(options["rpId"], "panel.gabinet.pl");
    assert_eq!(
        options["timeout"], 300_000,
        "as long as the server keeps the ceremony"
    );
    assert_eq!(options["allowCredentials"][0]["id"], "a2x1Y3otbGFwdG9wYQ");
    assert_eq!(options["userVerification"], "required");
    assert!(
        RelyingParty::new("http://127.0.0.1:8081", "Panel").is_err(),
        "an address has no host name"
    );
}

#[test]
fn a_key_made_elsewhere_or_without_the_user_verified_is_not_kept() {
    let rp = party();
    let refusal = |change: &dyn Fn(&mut Authenticator)| {
        let mut authenticator = Authenticator::new(TestKey::p256());
        change(&mut authenticator);
        register(&rp, &authenticator).unwrap_err().to_string()
    };
    assert!(refusal(&|a| a.origin = "https://panel-gabinet.pl".into()).contains("signed on"));
    assert!(refusal(&|a| a.rp_id = "gabinet.pl".into()).contains("another site"));
    assert!(refusal(&|a| a.flags = 0x01).contains("not verified"));
    // The id the browser reports must be the one in the authenticator's data.
    let authenticator = Authenticator::new(TestKey::p256());
    let (options, state) = rp
        .start_registration(USER, "kontakt@gabinet.pl", &[])
        .unwrap();
    let mut credential = authenticator.create(&options);
    credential.raw_id = Base64Url(b"inny".to_vec());
    assert!(rp.finish_registration(&credential, &state).is_err());
    // Another registration's challenge.
    let (_, other) = rp
        .start_registration(USER, "kontakt@gabinet.pl", &[])
        .unwrap();
    let credential = authenticator.create(&options);
    assert!(rp
        .finish_registration(&credential, &other)
        .unwrap_err()
        .to_string()
        .contains("challenge"));
}

#[test]
fn forged_replayed_phished_or_copied_signatures_do_not_sign_in() {
    let rp = party();
    let mut authenticator = Authenticator::new(TestKey::p256());
    authenticator.counter = 5;
    let passkey = register(&rp, &authenticator).unwrap();
    assert_eq!(passkey.counter, 5);
    let keys = [passkey.clone()];
    let refusal = |a: &Authenticator| sign_in(&rp, a, &keys).unwrap_err().to_string();
    // The same counter again: a copy of the key, or a replay.
    assert!(refusal(&authenticator).contains("counter went from 5 to 5"));
    authenticator.counter = 6;
    assert_eq!(sign_in(&rp, &authenticator, &keys).unwrap().counter, 6);
    // Another key under the registered key's id.
    let mut forger = Authenticator::new(TestKey::p256());
    forger.counter = 9;
    assert!(refusal(&forger).contains("signature"));
    // A page that looks like the panel.
    authenticator.origin = "https://panel.gabinet.pl.example".into();
    assert!(refusal(&authenticator).contains("signed on"));
    authenticator.origin = ORIGIN.into();
    authenticator.flags = 0x01;
    assert!(refusal(&authenticator).contains("not verified"));
    authenticator.flags = 0x05;
    authenticator.id = b"nieznany".to_vec();
    assert!(refusal(&authenticator).contains("not the account's"));
    authenticator.id = b"klucz-laptopa".to_vec();

    let (options, state) = rp.start_authentication(USER, keys.to_vec()).unwrap();
    // Flags changed after signing.
    let mut credential = authenticator.get(&options);
    credential.response.authenticator_data.0[32] |= 0x10;
    assert!(rp
        .finish_authentication(&credential, &state)
        .unwrap_err()
        .to_string()
        .contains("signature"));
    // The signature of another sign-in's challenge.
    let (_, replayed) = rp.start_authentication(USER, keys.to_vec()).unwrap();
    let credential = authenticator.get(&options);
    assert!(rp
        .finish_authentication(&credential, &replayed)
        .unwrap_err()
        .to_string()
        .contains("challenge"));
    let mut credential = authenticator.get(&options);
    credential.response.user_handle = Some(Base64Url(vec![8; 16]));
    assert!(rp
        .finish_authentication(&credential, &state)
        .unwrap_err()
        .to_string()
        .contains("another account"));
    credential.response.user_handle = None;
    credential.kind = "password".into();
    assert!(rp.finish_authentication(&credential, &state).is_err());
}
