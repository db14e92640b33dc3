//! Codes of an authenticator app (TOTP, RFC 6238: SHA-1, six digits, 30-second steps, one
//! step of clock drift either way), each accepted once; the `otpauth://` address the app
//! reads from a QR code; and recovery codes for a lost phone.

use sha2::{Digest, Sha256};
use totp_rs::{Builder, Secret, Totp};

use crate::error::Error;

/// Who the app shows the code for.
const ISSUER: &str = "Gabinet Harmonia";
/// How many recovery codes an account gets; each works once.
pub const RECOVERY_CODES: usize = 10;

fn totp(secret: &[u8], account: &str) -> Result<Totp, Error> {
    Builder::new()
        .with_secret(secret.to_vec())
        .with_account_name(account.replace(':', ""))
        .with_issuer(Some(ISSUER))
        .build()
        .map_err(|e| Error::Totp(e.to_string()))
}

/// 20 random bytes (160 bits, RFC 4226's recommendation).
pub fn new_secret() -> Result<Vec<u8>, Error> {
    let mut secret = vec![0_u8; 20];
    getrandom::fill(&mut secret)?;
    Ok(secret)
}

/// What the panel shows to set the app up: the address (as a QR code, an SVG) and the
/// secret to type by hand.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Enrolment {
    pub secret: String,
    pub uri: String,
    pub qr_svg: String,
}

pub fn enrolment(secret: &[u8], account: &str) -> Result<Enrolment, Error> {
    let uri = totp(secret, account)?
        .to_url()
        .map_err(|e| Error::Totp(e.to_string()))?;
    let qr =
        qrcode::QrCode::new(uri.as_bytes()).map_err(|e| Error::Totp(format!("QR code: {e}")))?;
    let qr_svg = qr
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Ok(Enrolment {
        secret: Secret::from(secret.to_vec()).to_base32(),
        uri,
        qr_svg,
    })
}

/// The time step `code` belongs to, if it is right for `secret` at `now` (a step either
/// side is allowed for a clock that drifts). The caller accepts each step once.
pub fn check(secret: &[u8], code: &str, now: i64) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now = u64::try_from(now).ok()?;
    let step = totp(secret, "x").ok()?.check(&code, now)?;
    i64::try_from(step).ok()
}

/// The code for `secret` at `now`: what the app would show (tests make codes with it).
pub fn code_at(secret: &[u8], now: i64) -> Result<String, Error> {
    Ok(totp(secret, "x")?
        .generate(u64::try_from(now).unwrap_or(0))
        .to_string())
}

/// Like [`code_at`], for the secret as the panel shows it (base32).
pub fn code_for(secret_base32: &str, now: i64) -> Result<String, Error> {
    let secret =
        Secret::try_from_base32(secret_base32).map_err(|e| Error::Totp(format!("secret: {e}")))?;
    code_at(secret.as_ref(), now)
}

/// Ten recovery codes as the administrator writes them down (`abcd-efgh-ijkl`), and the
/// hashes kept of them.
pub fn recovery_codes() -> Result<(Vec<String>, Vec<String>), Error> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut codes = Vec::with_capacity(RECOVERY_CODES);
    for _ in 0..RECOVERY_CODES {
        let mut raw = [0_u8; 12];
        getrandom::fill(&mut raw)?;
        let letters: String = raw
            .iter()
            .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
            .collect();
        codes.push(format!(
            "{}-{}-{}",
            &letters[..4],
            &letters[4..8],
            &letters[8..]
        ));
    }
    let hashes = codes.iter().map(|c| recovery_hash(c)).collect();
    Ok((codes, hashes))
}

/// The hash a recovery code is kept as: letters only, any case, dashes and spaces ignored.
pub fn recovery_hash(code: &str) -> String {
    let normal: String = code
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    crate::tokens::hex(&Sha256::digest(normal.as_bytes()))
}

/// Whether what the administrator typed looks like a recovery code rather than an app's
/// six digits.
pub fn is_recovery_code(code: &str) -> bool {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).count() == 12
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rfc_6238_vector_and_one_step_of_drift_either_way() {
        // RFC 6238, appendix B: SHA-1, the ASCII secret "12345678901234567890", T = 59 s
        // gives 94287082; its last six digits are what a six-digit app shows.
        let secret = b"12345678901234567890";
        assert_eq!(code_at(secret, 59).expect("code"), "287082");
        assert_eq!(check(secret, "287082", 59), Some(1));
        assert_eq!(check(secret, "287 082", 89), Some(1), "30 s late");
        assert_eq!(check(secret, "287082", 200), None, "too late");
        assert_eq!(check(secret, "28708", 59), None);
        assert_eq!(check(secret, "abcdef", 59), None);
    }

    #[test]
    fn recovery_codes_are_ten_different_and_match_however_typed() {
        let (codes, hashes) = recovery_codes().expect("codes");
        assert_eq!(codes.len(), RECOVERY_CODES);
        let unique: std::collections::HashSet<_> = hashes.iter().collect();
        assert_eq!(unique.len(), RECOVERY_CODES);
        let typed = codes[0].to_uppercase().replace('-', " ");
        assert_eq!(recovery_hash(&typed), hashes[0]);
        assert!(is_recovery_code(&typed) && !is_recovery_code("123456"));
    }

    #[test]
    fn the_app_reads_an_otpauth_address_with_the_practice_as_issuer() {
        let e = enrolment(&new_secret().expect("secret"), "magda@example.pl").expect("enrolment");
        assert!(
            e.uri
                .starts_with("otpauth://totp/Gabinet%20Harmonia:magda%40example.pl?"),
            "{}",
            e.uri
        );
        assert!(e.uri.contains(&format!("secret={}", e.secret)), "{}", e.uri);
        assert!(e.qr_svg.contains("<svg"));
    }
}
