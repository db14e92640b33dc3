//! The third parties whose scripts the public site may load, fixed in code. Which hosts may
//! run a script on the patients' pages is decided by whoever deploys the code (the operator),
//! never by content: `site.yaml` names a provider by its key and gives the practice's ids
//! there, and the addresses of the scripts, and so the site's Content-Security-Policy, come
//! from this table. Adding a provider is a change of this file, reviewed and deployed like
//! any other code.

/// A doctor-listing platform: its profile pages, the scripts of its facility calendar and
/// certificate badge, and the host its booking widget is loaded from.
#[derive(Debug, PartialEq, Eq)]
pub struct DoctorListingProvider {
    /// How `site.yaml` names it (`booking.doctor_listing.provider`).
    pub key: &'static str,
    /// Its name, as pages show it.
    pub name: &'static str,
    /// The host of its profile pages.
    pub host: &'static str,
    /// The origin its widget scripts are loaded from.
    pub widget_host: &'static str,
    /// The two scripts of the facility's calendar.
    pub calendar_scripts: &'static [&'static str],
    /// The script of the certificate badge.
    pub badge_script: &'static str,
}

/// A telephony provider's callback widget.
#[derive(Debug, PartialEq, Eq)]
pub struct TelephonyProvider {
    /// How `site.yaml` names it (`telephony.provider`).
    pub key: &'static str,
    pub name: &'static str,
    /// The widget's script.
    pub script: &'static str,
}

/// The doctor-listing platforms the practice uses.
pub const DOCTOR_LISTINGS: [DoctorListingProvider; 1] = [DoctorListingProvider {
    key: "znanylekarz",
    name: "ZnanyLekarz",
    host: "www.znanylekarz.pl",
    widget_host: "https://platform.docplanner.com",
    calendar_scripts: &[
        "https://platform.docplanner.com/js/widget.js",
        "https://platform.docplanner.com/js/facility-widget.js",
    ],
    badge_script: "https://platform.docplanner.com/js/certificate.js",
}];

/// The telephony providers the practice uses.
pub const TELEPHONY: [TelephonyProvider; 1] = [TelephonyProvider {
    key: "callpage",
    name: "CallPage",
    script: "https://cdn-widget.callpage.io/js/callpage.js",
}];

/// Where the analytics script comes from (`gtag.js`) and where it reports: fixed here, never
/// named by content; content gives only the measurement id.
pub const ANALYTICS_ORIGINS: [&str; 2] = [
    "https://www.googletagmanager.com",
    "https://*.google-analytics.com",
];

/// Keys that once gave the address of a script in `site.yaml`: a commit that writes one is
/// refused with the reason (the addresses are this table's, not content's).
pub const SCRIPT_ADDRESS_KEYS: [&str; 6] = [
    "telephony_widget_src",
    "widget_host",
    "calendar_scripts",
    "badge_script",
    "script",
    "src",
];

/// The doctor-listing platform called `key`, if the practice uses it.
pub fn doctor_listing(key: &str) -> Option<&'static DoctorListingProvider> {
    DOCTOR_LISTINGS.iter().find(|p| p.key == key)
}

/// The telephony provider called `key`, if the practice uses it.
pub fn telephony(key: &str) -> Option<&'static TelephonyProvider> {
    TELEPHONY.iter().find(|p| p.key == key)
}

/// Whether `text` may be an id at a provider (a doctor, a facility, a widget, an analytics
/// property): letters, digits, '-' and '_', at most 64 of them. It is put into a page's data
/// and into the provider's script configuration, never into an address's host.
pub fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_letters_digits_dashes_and_underscores() {
        assert!(is_id("G-7QH2KX4M1B") && is_id("magdalena-wisniewska") && is_id("1184377"));
        for bad in [
            "",
            "a b",
            "x\"><script>",
            "http://evil.example/x.js",
            "a/b",
            &"x".repeat(65),
        ] {
            assert!(!is_id(bad), "{bad}");
        }
    }

    #[test]
    fn every_script_of_a_provider_is_https_on_its_widget_host() {
        for p in &DOCTOR_LISTINGS {
            for script in p.calendar_scripts.iter().chain([&p.badge_script]) {
                assert!(
                    script.starts_with(&format!("{}/", p.widget_host)),
                    "{script}"
                );
            }
        }
        assert!(TELEPHONY.iter().all(|p| p.script.starts_with("https://")));
        assert_eq!(
            doctor_listing("znanylekarz").map(|p| p.name),
            Some("ZnanyLekarz")
        );
        assert_eq!(doctor_listing("http://127.0.0.1:8099"), None);
        assert_eq!(telephony("callpage").map(|p| p.name), Some("CallPage"));
    }
}
