//! The contact of `/.well-known/security.txt` (RFC 9116): `security_contact` of `site.yaml`
//! (a `mailto:` or `https://` address, or an e-mail), or else the practice's `email`. The
//! `site` crate writes the file; `make check` names a contact that cannot be used.

use crate::model::SiteConfig;
use crate::problem::SiteProblem;

/// The `Contact:` value: a `mailto:` or `https://` address, or the problem with it.
pub fn contact(site: &SiteConfig) -> Result<String, SiteProblem> {
    let given = site
        .security_contact
        .as_deref()
        .unwrap_or(&site.email)
        .trim();
    let plain = |t: &str| !t.is_empty() && !t.chars().any(|c| c.is_whitespace() || c.is_control());
    if !plain(given) {
        return Err(SiteProblem::SecurityContactSpaces {
            value: given.to_string(),
        });
    }
    if given.starts_with("https://") && given.len() > "https://".len() {
        return Ok(given.to_string());
    }
    match given.strip_prefix("mailto:").unwrap_or(given) {
        address if crate::contact::is_email(address) => Ok(format!("mailto:{address}")),
        _ => Err(SiteProblem::SecurityContactForm {
            value: given.to_string(),
        }),
    }
}
