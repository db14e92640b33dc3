//! The random tokens of the accounts: sessions', waiting sign-ins' and
//! ceremonies' tokens, and the hex they are written in.

use crate::error::Result;

/// 32 random bytes as hex: a session's, a waiting sign-in's or a ceremony's token.
pub fn random_token() -> Result<String> {
    let mut raw = [0_u8; 32];
    getrandom::fill(&mut raw)?;
    Ok(hex(&raw))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
