//! Telling visitors apart for one day without knowing who they are, as Plausible does: a
//! visitor is a hash of the day's random salt, the address and the user agent. The salt is
//! made at random when a day starts, kept only in memory and replaced the next day (and at
//! every start), so yesterday's hashes cannot be made again by anyone, the server included;
//! neither the hash nor what went into it is ever written. Who asks not to be tracked
//! (`DNT: 1`, `Sec-GPC: 1`) and what announces itself as a program is not counted at all.

use actix_web::HttpRequest;
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use std::sync::Mutex;

use crate::db::Device;

/// The day's salt.
struct Salt {
    day: i64,
    key: [u8; 32],
}

/// Makes the day's visitor hashes.
#[derive(Default)]
pub struct Visitors {
    salt: Mutex<Option<Salt>>,
}

impl Visitors {
    /// The visitor of `day` at `address` with `agent`; `None` without a source of randomness
    /// (their pages are counted, but not as a visitor).
    pub fn of(&self, day: i64, address: IpAddr, agent: &[u8]) -> Option<u64> {
        let mut salt = self.salt.lock().unwrap_or_else(|p| p.into_inner());
        if salt.as_ref().is_none_or(|s| s.day != day) {
            let mut key = [0_u8; 32];
            getrandom::fill(&mut key).ok()?;
            *salt = Some(Salt { day, key });
        }
        let key = salt.as_ref()?.key;
        drop(salt);
        let mut hash = Sha256::new();
        hash.update(key);
        match address {
            IpAddr::V4(v4) => hash.update(v4.octets()),
            IpAddr::V6(v6) => hash.update(v6.octets()),
        }
        hash.update([0xff]);
        hash.update(agent);
        let digest = hash.finalize();
        let mut first = [0_u8; 8];
        first.copy_from_slice(&digest[..8]);
        Some(u64::from_le_bytes(first))
    }
}

/// Whether the visitor asked not to be tracked: `DNT: 1` or Global Privacy Control.
pub fn opted_out(req: &HttpRequest) -> bool {
    ["dnt", "sec-gpc"].iter().any(|name| {
        req.headers()
            .get(*name)
            .is_some_and(|v| v.as_bytes().trim_ascii() == b"1")
    })
}

/// Words of a user agent that a program announces itself with (crawlers, link previews,
/// monitors, headless browsers and HTTP libraries).
const PROGRAMS: &[&str] = &[
    "bot",
    "crawl",
    "spider",
    "slurp",
    "headless",
    "lighthouse",
    "pagespeed",
    "preview",
    "curl",
    "wget",
    "python",
    "java/",
    "go-http",
    "httpclient",
    "okhttp",
    "facebookexternalhit",
    "scrapy",
    "phantomjs",
    "selenium",
    "puppeteer",
    "playwright",
    "monitor",
    "uptime",
    "pingdom",
    "axios",
    "node-fetch",
    "semrush",
    "ahrefs",
    "feedfetcher",
    "validator",
];

/// Whether `agent` is a program's rather than a person's browser (none at all is a program).
pub fn is_program(agent: &[u8]) -> bool {
    let agent = String::from_utf8_lossy(agent).to_ascii_lowercase();
    !agent.contains("mozilla/") || PROGRAMS.iter().any(|word| agent.contains(word))
}

/// The class of device a user agent says it is (for what has no screen width to tell: a
/// message sent without JavaScript).
pub fn device_of(agent: &[u8]) -> Device {
    let agent = String::from_utf8_lossy(agent).to_ascii_lowercase();
    if agent.contains("ipad") || agent.contains("tablet") {
        Device::Tablet
    } else if agent.contains("mobi") {
        Device::Phone
    } else if agent.contains("android") {
        Device::Tablet
    } else if agent.is_empty() {
        Device::Unknown
    } else {
        Device::Desktop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    const FIREFOX: &[u8] =
        b"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

    #[test]
    fn a_visitor_is_the_same_within_a_day_and_another_the_next() {
        let visitors = Visitors::default();
        let ip: IpAddr = "198.51.100.7".parse().expect("ip");
        let first = visitors.of(100, ip, FIREFOX).expect("hashed");
        assert_eq!(visitors.of(100, ip, FIREFOX), Some(first));
        assert_ne!(visitors.of(100, ip, b"Mozilla/5.0 other"), Some(first));
        assert_ne!(
            visitors.of(100, "198.51.100.8".parse().expect("ip"), FIREFOX),
            Some(first)
        );
        assert_ne!(
            visitors.of(101, ip, FIREFOX),
            Some(first),
            "a new day, a new salt"
        );
        assert_ne!(
            Visitors::default().of(100, ip, FIREFOX),
            Some(first),
            "a new start, a new salt"
        );
    }

    #[test]
    fn opting_out_and_programs_are_recognised() {
        assert!(opted_out(
            &TestRequest::default()
                .insert_header(("DNT", "1"))
                .to_http_request()
        ));
        assert!(opted_out(
            &TestRequest::default()
                .insert_header(("Sec-GPC", "1"))
                .to_http_request()
        ));
        assert!(!opted_out(
            &TestRequest::default()
                .insert_header(("DNT", "0"))
                .to_http_request()
        ));
        assert!(!is_program(FIREFOX));
        assert!(is_program(b"Mozilla/5.0 (compatible; Googlebot/2.1)"));
        assert!(is_program(
            b"Mozilla/5.0 (X11) HeadlessChrome/126.0 Safari/537.36"
        ));
        assert!(is_program(b"curl/8.5.0"));
        assert!(is_program(b""));
        assert_eq!(
            device_of(b"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5) Mobile/15E148"),
            Device::Phone
        );
        assert_eq!(
            device_of(b"Mozilla/5.0 (Linux; Android 14; SM-X710)"),
            Device::Tablet
        );
        assert_eq!(device_of(FIREFOX), Device::Desktop);
    }
}
