//! A signed token of when the form was shown, with a random nonce: it works on a cached
//! static page, a submit sooner than a person could type is suspected of being a bot, and a
//! token is good for one message only (the nonce is recorded when it is used).

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Tokens older than this are no longer trusted: the form was left open too long.
pub const MAX_AGE_SECONDS: i64 = 24 * 60 * 60;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Old enough and genuine; its nonce, to record its use.
    Fine(String),
    /// Genuine, but sent sooner than a person could fill the form; its nonce.
    TooFast(String),
    /// Genuine but issued more than a day ago.
    Expired,
    /// Forged or malformed.
    Invalid,
}

fn mac(secret: &[u8], issued: i64, nonce: &str) -> HmacSha256 {
    // HMAC takes a key of any length, so this cannot fail; an empty MAC would only refuse.
    let mut mac = HmacSha256::new_from_slice(secret).unwrap_or_else(|_| {
        HmacSha256::new_from_slice(b"-").unwrap_or_else(|_| unreachable!("HMAC takes any key"))
    });
    mac.update(format!("{issued}.{nonce}").as_bytes());
    mac
}

fn random_nonce() -> String {
    let mut bytes = [0_u8; 12];
    // Without randomness the nonce is still unique enough per second for single use.
    let _ = getrandom::fill(&mut bytes);
    content::encoding::hex(&bytes)
}

pub fn issue(secret: &[u8], now: i64) -> String {
    let nonce = random_nonce();
    let signature = content::encoding::hex(&mac(secret, now, &nonce).finalize().into_bytes());
    format!("{now}.{nonce}.{signature}")
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect()
}

pub fn check(secret: &[u8], token: &str, now: i64, min_seconds: i64) -> Verdict {
    let mut parts = token.splitn(3, '.');
    let (Some(issued), Some(nonce), Some(signature)) = (parts.next(), parts.next(), parts.next())
    else {
        return Verdict::Invalid;
    };
    let (Ok(issued), Some(signature)) = (issued.parse::<i64>(), unhex(signature)) else {
        return Verdict::Invalid;
    };
    let genuine = nonce.len() <= 64 && mac(secret, issued, nonce).verify_slice(&signature).is_ok();
    if !genuine || issued > now + 60 {
        return Verdict::Invalid;
    }
    if now - issued > MAX_AGE_SECONDS {
        Verdict::Expired
    } else if now - issued < min_seconds {
        Verdict::TooFast(nonce.to_string())
    } else {
        Verdict::Fine(nonce.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test key";

    #[test]
    fn a_token_is_fine_after_the_minimum_time() {
        let t = issue(KEY, 1000);
        assert!(matches!(check(KEY, &t, 1001, 3), Verdict::TooFast(_)));
        assert!(matches!(check(KEY, &t, 1003, 3), Verdict::Fine(_)));
    }

    #[test]
    fn two_tokens_of_the_same_second_differ() {
        assert_ne!(issue(KEY, 1000), issue(KEY, 1000));
    }

    #[test]
    fn forged_and_malformed_tokens_are_invalid_and_old_ones_expired() {
        let t = issue(KEY, 1000);
        assert_eq!(check(b"other key", &t, 1010, 3), Verdict::Invalid);
        assert_eq!(
            check(KEY, &t.replacen("1000.", "999.", 1), 1010, 3),
            Verdict::Invalid
        );
        assert_eq!(
            check(KEY, &t, 1000 + MAX_AGE_SECONDS + 1, 3),
            Verdict::Expired
        );
        for bad in ["", "abc", "1000.zz", "x.00.00", "1000.a.zz"] {
            assert_eq!(check(KEY, bad, 1010, 3), Verdict::Invalid, "{bad}");
        }
    }
}
