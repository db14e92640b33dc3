//! `/.well-known/security.txt` (RFC 9116): whom to tell about a security problem of the
//! site, in which languages, and until when the file may be believed. The contact is
//! `security_contact` of `site.yaml` (a `mailto:` or `https://` address, or an e-mail), or
//! else the practice's `email`. `Expires` is a year after the start of the build's month
//! (UTC): it moves once a month, and a server that builds again then
//! ([`crate::Build::renew_at`]) never serves a stale file.

use content::dates::Date;
use content::security_txt::contact;
use content::SiteConfig;

/// Where the file is published.
pub(crate) const PATH: &str = ".well-known/security.txt";

/// The first moment (UTC) of the month after the one of `now`: when `Expires` moves on.
pub(crate) fn renew_at(now: i64) -> i64 {
    Date::from_unix(now).month_start(1).days() * 86_400
}

/// The file's text for a build made at `now`, if the contact is valid (`make check` names
/// the problem otherwise).
pub(crate) fn file(site: &SiteConfig, now: i64) -> Option<String> {
    let contact = contact(site).ok()?;
    let today = Date::from_unix(now);
    let canonical = format!("{}/{PATH}", site.site_url.trim_end_matches('/'));
    Some(format!(
        "Contact: {contact}\nExpires: {:04}-{:02}-01T00:00:00Z\nPreferred-Languages: pl, en\nCanonical: {canonical}\n",
        today.year + 1,
        today.month
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(contact: Option<&str>) -> SiteConfig {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/site.yaml"),
        )
        .expect("site.yaml");
        let mut site: SiteConfig = content::yaml::parse(&text).expect("parses");
        site.security_contact = contact.map(str::to_string);
        site
    }

    #[test]
    fn the_file_names_contact_expiry_languages_and_its_address() {
        // 2026-11-24 05:00 UTC.
        let text = file(&site(None), 1_795_496_400).expect("valid");
        assert_eq!(
            text,
            "Contact: mailto:kontakt@gabinet-harmonia.pl\nExpires: 2027-11-01T00:00:00Z\nPreferred-Languages: pl, en\nCanonical: https://gabinet-harmonia.pl/.well-known/security.txt\n"
        );
        assert_eq!(renew_at(1_795_496_400), 1_796_083_200, "2026-12-01T00:00Z");
        assert_eq!(
            Date::from_unix(renew_at(1_798_000_000)).iso(),
            "2027-01-01",
            "December rolls into January"
        );
    }

    #[test]
    fn a_contact_is_an_email_a_mailto_or_an_https_address() {
        let contact_of = |c: &str| contact(&site(Some(c)));
        assert_eq!(
            contact_of("bezpieczenstwo@gabinet-harmonia.pl").as_deref(),
            Ok("mailto:bezpieczenstwo@gabinet-harmonia.pl")
        );
        assert_eq!(contact_of("mailto:a@b.pl").as_deref(), Ok("mailto:a@b.pl"));
        assert_eq!(
            contact_of("https://gabinet-harmonia.pl/kontakt").as_deref(),
            Ok("https://gabinet-harmonia.pl/kontakt")
        );
        for bad in ["http://x.pl", "nie adres", "mailto:", "https://", "a@b"] {
            assert!(contact_of(bad).is_err(), "{bad}");
        }
    }
}
