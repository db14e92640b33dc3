//! A credential's public key, read from its COSE form (RFC 9053) in the authenticator's data,
//! and the check of a signature by it (`ring`, the TLS stack's own verifier).

use super::cbor::{self, Value};
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};
use serde::{Deserialize, Serialize};

use super::wire::Base64Url;
use crate::error::Error;

/// ECDSA on P-256 with SHA-256: what phones, laptops and most security keys make.
pub(super) const ES256: i64 = -7;
/// EdDSA (Ed25519): some security keys.
pub(super) const EDDSA: i64 = -8;
/// RSASSA-PKCS1-v1_5 with SHA-256: Windows Hello.
pub(super) const RS256: i64 = -257;
/// The algorithms the panel accepts, in its order of preference.
pub(super) const ALGORITHMS: [i64; 3] = [ES256, EDDSA, RS256];

/// A passkey's public key, of one of [`ALGORITHMS`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "alg")]
pub enum PublicKey {
    /// The point uncompressed: 0x04, x, y.
    Es256 {
        point: Base64Url,
    },
    Ed25519 {
        x: Base64Url,
    },
    Rs256 {
        n: Base64Url,
        e: Base64Url,
    },
}

// COSE's labels (RFC 9052 §7.1, RFC 9053 §7).
const KTY: i64 = 1;
const ALG: i64 = 3;
const CRV: i64 = -1;
const X_OR_N: i64 = -2;
const Y_OR_E: i64 = -3;
const KTY_OKP: i64 = 1;
const KTY_EC2: i64 = 2;
const KTY_RSA: i64 = 3;
const P256: i64 = 1;
const ED25519: i64 = 6;

/// Reads the COSE key at the start of `cbor` (what follows it, the extensions, is left).
pub(super) fn public_key(cbor: &[u8]) -> Result<PublicKey, Error> {
    let value =
        cbor::first_value(cbor).map_err(|e| Error::refused(format!("the key's CBOR: {e}")))?;
    let Value::Map(entries) = value else {
        return Err(Error::refused("the key is not a COSE map"));
    };
    let number = |label| match cbor::field(&entries, label) {
        Some(Value::Integer(i)) => i64::try_from(*i).ok(),
        _ => None,
    };
    let bytes = |label, len: Option<usize>| {
        match cbor::field(&entries, label) {
            Some(Value::Bytes(b)) => Some(b),
            _ => None,
        }
        .filter(|b| len.is_none_or(|len| b.len() == len) && !b.is_empty())
        .map(|b| Base64Url(b.clone()))
        .ok_or_else(|| {
            Error::refused(format!(
                "the key's parameter {label} is missing or malformed"
            ))
        })
    };
    match (number(KTY), number(ALG)) {
        (Some(KTY_EC2), Some(ES256)) if number(CRV) == Some(P256) => {
            let mut point = vec![0x04];
            point.extend(bytes(X_OR_N, Some(32))?.0);
            point.extend(bytes(Y_OR_E, Some(32))?.0);
            Ok(PublicKey::Es256 {
                point: Base64Url(point),
            })
        }
        (Some(KTY_OKP), Some(EDDSA)) if number(CRV) == Some(ED25519) => Ok(PublicKey::Ed25519 {
            x: bytes(X_OR_N, Some(32))?,
        }),
        (Some(KTY_RSA), Some(RS256)) => Ok(PublicKey::Rs256 {
            n: bytes(CRV, None)?,
            e: bytes(X_OR_N, None)?,
        }),
        (kty, alg) => Err(Error::refused(format!(
            "a key of type {kty:?} and algorithm {alg:?}, not one the panel asked for"
        ))),
    }
}

impl PublicKey {
    /// Whether `signature` is this key's over `message`.
    pub(super) fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        match self {
            PublicKey::Es256 { point } => {
                UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_ASN1, &point.0)
                    .verify(message, signature)
                    .is_ok()
            }
            PublicKey::Ed25519 { x } => UnparsedPublicKey::new(&signature::ED25519, &x.0)
                .verify(message, signature)
                .is_ok(),
            PublicKey::Rs256 { n, e } => RsaPublicKeyComponents { n: &n.0, e: &e.0 }
                .verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, signature)
                .is_ok(),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use base64::Engine;
    use ring::rand::SystemRandom;
    use ring::signature::{
        EcdsaKeyPair, Ed25519KeyPair, KeyPair, RsaKeyPair, ECDSA_P256_SHA256_ASN1_SIGNING,
        RSA_PKCS1_SHA256,
    };

    /// A throwaway RSA key made for these tests (`openssl genpkey`, 2048 bits, PKCS #1 DER):
    /// ring checks RSA signatures but does not make keys.
    const RSA_2048: [&str; 19] = [
        "MIIEowIBAAKCAQEAsePH6ZvzD62BemGw6Iko4cwzOBOx4ZST56W3q7EWldJRgovyfNqO/L1ikqoEalIQ2M58H3hZ",
        "ecSajCaCk4R0XX7IdNe0vXigdrQ97oIIPvj+gp62Nj9hiEqsodTrRlkev4B34ud7IC05Adw2FqCWTQSrWfgDZMjx",
        "PVfDfnFC5AHPp5fcn7j9ypLwHF/UgKxxt2/uqSCjjKRxXT7GA8DyWJ96TGknFgjf/ATbilgL1Sife3gUlynUF4o2",
        "Ax2wh6sWH5V/sLIQVxG0Bc4L6XmGgerQV2Uz1ditGcEuZkNg77oKrZtkzpiFUazZjBw7urwDeYMsEskNUGC+PekA",
        "785UbwIDAQABAoIBABZmipFeSU3wxAc3L2HOM88LOb/sAFBZt1j07fC5jLsyZX/nmOd5VjF5X7pRnTC47iopsPOo",
        "N2GKt7Ns/gW5fjXFIKpQp2Ux6shH4NdHRJE5eu3T3ToY4nKZL1f0SemX5glTZ3AJROCZET6suPBB1JYU6nGai5gw",
        "vZVt7HjgUP4JDpmZA6KHzZI/yxvbaJXWw3cGqvc6K7z0LD4g4NXGT6QbaDvCUWyzQfiyIlzWG4Vi7jtYVDUxE8bx",
        "jyYwhbI6apP7IXbax4wsZqgSme8TMYBPHk84fTr/2lTlCgiabaelHaWQn3u4UhJAziv7UjuoQVWRwq50nbipITRs",
        "8s9FRyECgYEA2HX78rExQskN+pFxYMznG6/sqpTVcoOCH8062omNZbA634QM++0eoFE3/dGo8YMSofKa7AlhCrsl",
        "xYCqNT5SgIVpcXOY6IpyDn3nMS7J+4hbIvoAZfy0IrG1NrBtswh3jnPnw01z+wk74Mf7lWTKgtengQitS52eiHeL",
        "CE0+4dkCgYEA0mIoS0RO8IZOTPf7kfXCxcqlmGVIjk9N/9iG0PHyCDV7Z4BAdjfN5WEClMCXBR5Uf2sWdNZU99ls",
        "tWx6bwVDbJoOmoNHfL6f7loOX8EVEJBHpk1nZVNkHJJLkl4oNLcXox/X1H28kRGnKUx82ySrA6rXNs9mA4Ee1z0m",
        "OHJ/M4cCgYBCJ0S5theE/qcsBdktqVGUL57XvybAmZpiF7m94j35bvN/Lf892wj6G/hNtQ65yMIgBmH8cx1aRznS",
        "83CRVxultaA1EQwRPYaAEVBfwpnuKo0X0mnewW1YERF9xkuwZI0NVzTkhj5E4VyQZO3piWUuubOyhrFXo7M4p7gw",
        "8FKgeQKBgBASvb9aXamUqUDKJWc2XoYcAGDPRCbTOkNUuKAYDATCiUYUD1i41Ls0mSziNeeHNK9zcAjHI0C4VMzb",
        "l9MJlOgkMP9vDjQioDdmm/iG2OQmEcNL4J1mLJzeNHXfSbUVU/H7idLLNG/k6F+IX3WirIogMEcYu1ODNub83gGs",
        "BbnbAoGBAIcgXCMF6qeeW3hHJb8zBybCDl2CXyQze8p6F8nCh14NfSufj9x+yiLGKcusoY8qXXLxyw4ZN4L0K6dv",
        "Z2g9cBzLGEGyvZd4V+pot/XC35guuJd8BggNIZphiTN3DzYfljc32rsmygnGZOlbnV28VCmi1AT8rtiIGzwgib/m",
        "fcQt",
    ];

    /// A key pair of an authenticator in the tests: its COSE public key and a signer.
    pub(crate) enum TestKey {
        Ec(EcdsaKeyPair),
        Ed(Ed25519KeyPair),
        Rsa(RsaKeyPair),
    }

    impl TestKey {
        pub(crate) fn p256() -> TestKey {
            let rng = SystemRandom::new();
            let pkcs8 =
                EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng).unwrap();
            TestKey::Ec(
                EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8.as_ref(), &rng)
                    .unwrap(),
            )
        }

        pub(crate) fn ed25519() -> TestKey {
            let pkcs8 = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).unwrap();
            TestKey::Ed(Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap())
        }

        pub(crate) fn rsa() -> TestKey {
            let der = base64::engine::general_purpose::STANDARD
                .decode(RSA_2048.concat())
                .unwrap();
            TestKey::Rsa(RsaKeyPair::from_der(&der).unwrap())
        }

        pub(crate) fn cose(&self) -> Vec<u8> {
            let int = |i: i64| Value::Integer(i.into());
            let entries = match self {
                TestKey::Ec(pair) => {
                    let point = pair.public_key().as_ref();
                    vec![
                        (int(KTY), int(KTY_EC2)),
                        (int(ALG), int(ES256)),
                        (int(CRV), int(P256)),
                        (int(X_OR_N), Value::Bytes(point[1..33].to_vec())),
                        (int(Y_OR_E), Value::Bytes(point[33..].to_vec())),
                    ]
                }
                TestKey::Ed(pair) => vec![
                    (int(KTY), int(KTY_OKP)),
                    (int(ALG), int(EDDSA)),
                    (int(CRV), int(ED25519)),
                    (
                        int(X_OR_N),
                        Value::Bytes(pair.public_key().as_ref().to_vec()),
                    ),
                ],
                TestKey::Rsa(pair) => {
                    let parts: ring::rsa::PublicKeyComponents<Vec<u8>> = pair.public().into();
                    vec![
                        (int(KTY), int(KTY_RSA)),
                        (int(ALG), int(RS256)),
                        (int(CRV), Value::Bytes(parts.n)),
                        (int(X_OR_N), Value::Bytes(parts.e)),
                    ]
                }
            };
            cbor::encoded(&Value::Map(entries))
        }

        pub(crate) fn sign(&self, message: &[u8]) -> Vec<u8> {
            match self {
                TestKey::Ec(pair) => pair
                    .sign(&SystemRandom::new(), message)
                    .unwrap()
                    .as_ref()
                    .to_vec(),
                TestKey::Ed(pair) => pair.sign(message).as_ref().to_vec(),
                TestKey::Rsa(pair) => {
                    let mut signature = vec![0; pair.public().modulus_len()];
                    pair.sign(
                        &RSA_PKCS1_SHA256,
                        &SystemRandom::new(),
                        message,
                        &mut signature,
                    )
                    .unwrap();
                    signature
                }
            }
        }
    }

    #[test]
    fn p256_ed25519_and_rsa_keys_are_read_and_check_their_own_signatures_only() {
        for key in [TestKey::p256(), TestKey::ed25519(), TestKey::rsa()] {
            let mut cbor = key.cose();
            cbor.extend([0xa0]); // an empty map of extensions after the key
            let public = public_key(&cbor).unwrap();
            let signature = key.sign(b"dane do podpisu");
            assert!(public.verifies(b"dane do podpisu", &signature));
            assert!(!public.verifies(b"dane do podpisU", &signature));
            let other = public_key(&TestKey::p256().cose()).unwrap();
            assert!(!other.verifies(b"dane do podpisu", &signature));
        }
    }

    #[test]
    fn a_key_of_another_curve_or_algorithm_or_size_is_refused() {
        let int = |i: i64| Value::Integer(i.into());
        let encode = |entries: Vec<(Value, Value)>| cbor::encoded(&Value::Map(entries));
        // ES384 (-35) on P-384: not asked for.
        let p384 = encode(vec![
            (int(KTY), int(KTY_EC2)),
            (int(ALG), int(-35)),
            (int(CRV), int(2)),
            (int(X_OR_N), Value::Bytes(vec![1; 48])),
            (int(Y_OR_E), Value::Bytes(vec![1; 48])),
        ]);
        assert!(public_key(&p384)
            .unwrap_err()
            .to_string()
            .contains("algorithm"));
        let short = encode(vec![
            (int(KTY), int(KTY_EC2)),
            (int(ALG), int(ES256)),
            (int(CRV), int(P256)),
            (int(X_OR_N), Value::Bytes(vec![1; 31])),
            (int(Y_OR_E), Value::Bytes(vec![1; 32])),
        ]);
        assert!(public_key(&short).unwrap_err().to_string().contains("-2"));
        assert!(public_key(&[0xff, 0x00]).is_err(), "not CBOR");
        assert!(public_key(&[0x01]).is_err(), "not a map");
    }
}
