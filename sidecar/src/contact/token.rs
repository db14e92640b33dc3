//! A signed timestamp of when the form was shown: it works on a cached static page, and a
//! submit sooner than a person could type is taken for a bot.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Tokens older than this are refused: the form was left open too long.
pub const MAX_AGE_SECONDS: i64 = 24 * 60 * 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Old enough and genuine.
    Fine,
    /// Sent sooner than a person could fill the form.
    TooFast,
    /// Genuine but issued more than a day ago: the form was left open.
    Expired,
    /// Forged or malformed.
    Invalid,
}

fn signature(secret: &[u8], issued: i64) -> String {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(issued.to_string().as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn issue(secret: &[u8], now: i64) -> String {
    format!("{now}.{}", signature(secret, now))
}

pub fn check(secret: &[u8], token: &str, now: i64, min_seconds: i64) -> Verdict {
    let Some((issued, sig)) = token.split_once('.') else {
        return Verdict::Invalid;
    };
    let Ok(issued) = issued.parse::<i64>() else {
        return Verdict::Invalid;
    };
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(issued.to_string().as_bytes());
    let Ok(bytes) = (0..sig.len())
        .step_by(2)
        .map(|i| {
            sig.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(())
        })
        .collect::<Result<Vec<u8>, ()>>()
    else {
        return Verdict::Invalid;
    };
    if mac.verify_slice(&bytes).is_err() || issued > now + 60 {
        return Verdict::Invalid;
    }
    if now - issued > MAX_AGE_SECONDS {
        return Verdict::Expired;
    }
    if now - issued < min_seconds {
        Verdict::TooFast
    } else {
        Verdict::Fine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test key";

    #[test]
    fn a_token_is_fine_after_the_minimum_time() {
        let t = issue(KEY, 1000);
        assert_eq!(check(KEY, &t, 1001, 3), Verdict::TooFast);
        assert_eq!(check(KEY, &t, 1003, 3), Verdict::Fine);
    }

    #[test]
    fn forged_and_malformed_tokens_are_invalid_and_old_ones_expired() {
        let t = issue(KEY, 1000);
        assert_eq!(check(b"other key", &t, 1010, 3), Verdict::Invalid);
        assert_eq!(
            check(KEY, &t.replace("1000.", "999."), 1010, 3),
            Verdict::Invalid
        );
        assert_eq!(
            check(KEY, &t, 1000 + MAX_AGE_SECONDS + 1, 3),
            Verdict::Expired
        );
        for bad in ["", "abc", "1000.zz", "x.00"] {
            assert_eq!(check(KEY, bad, 1010, 3), Verdict::Invalid, "{bad}");
        }
    }
}
