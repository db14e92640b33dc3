//! What a page's beacon says (`POST /api/event`, a few dozen bytes of JSON sent as text by
//! `navigator.sendBeacon`), and what of it is counted: the event, the page's route, the host
//! of the site the visitor came from, the class of their screen and, for some events, a label
//! (a booking button's platform and person, a crisis number). Anything else is refused: an
//! unknown event, a route that is not a page of the site, a label that is not of its event's
//! form. A route asked for that does not exist (a 404) is kept only as far as it reads as an
//! address of this site; anything that could be someone's data becomes a placeholder.

use serde::Deserialize;

use crate::db::{Device, Event};

/// The largest beacon taken: far above any real one (about 80 bytes).
pub const MAX_BYTES: usize = 512;

/// What a 404 address is kept as when it could hold anything but an address of this site.
pub const UNREADABLE: &str = "(adres nieczytelny)";
/// The longest route kept.
const MAX_ROUTE: usize = 120;

/// A beacon as the page script sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Beacon {
    /// The event: `view`, `book`, `call`, `crisis`, `widget`, `404`, `m1`.
    e: String,
    /// The page's path (`location.pathname`).
    p: String,
    /// The referrer's host, empty when it is this site or none.
    #[serde(default)]
    r: String,
    /// The screen's width in CSS pixels.
    #[serde(default)]
    w: u32,
    /// The label of `book`, `crisis` and `widget`.
    #[serde(default)]
    l: String,
}

/// A beacon checked: what is counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub event: Event,
    pub route: String,
    pub source: String,
    pub device: Device,
    pub label: String,
}

/// Why a beacon is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    UnknownEvent,
    UnknownRoute,
    BadLabel,
}

impl Refusal {
    /// The refusal's sentence (a beacon never reads it; a person trying the API does).
    pub fn sentence(self) -> &'static str {
        match self {
            Refusal::UnknownEvent => "Nieznany rodzaj zdarzenia.",
            Refusal::UnknownRoute => "Nie ma takiej strony.",
            Refusal::BadLabel => "Nieprawidłowy opis zdarzenia.",
        }
    }
}

fn event(name: &str) -> Option<Event> {
    Some(match name {
        "view" => Event::View,
        "book" => Event::Book,
        "call" => Event::Call,
        "crisis" => Event::Crisis,
        "widget" => Event::WidgetFailed,
        "404" => Event::NotFound,
        "m1" => Event::Landing,
        _ => return None,
    })
}

/// `/cennik/` and `/cennik` are one route; a query or fragment is never part of it.
pub fn route(path: &str) -> Option<String> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') || path.len() > 2048 {
        return None;
    }
    let trimmed = path.trim_end_matches('/');
    Some(if trimmed.is_empty() { "/" } else { trimmed }.to_string())
}

/// A 404's route as kept: decoded, and only if it reads as an address (letters, digits and
/// `/-_.~`, no run of five digits that could be a phone or a number of some record).
pub fn asked_route(path: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let allowed = |c: char| c.is_alphanumeric() || "/-_.~".contains(c);
    let mut digits = 0;
    let mut long_number = false;
    for c in decoded.chars() {
        digits = if c.is_ascii_digit() { digits + 1 } else { 0 };
        long_number |= digits >= 5;
    }
    if long_number || !decoded.chars().all(allowed) || decoded.chars().count() > MAX_ROUTE {
        return UNREADABLE.to_string();
    }
    decoded.to_lowercase()
}

/// The host a visitor came from, as people name the site: lower case, without `www.`;
/// empty for none, this site itself or anything that is not a host name.
pub fn source(host: &str, own_host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let own = own_host.split(':').next().unwrap_or(own_host);
    let own = own.strip_prefix("www.").unwrap_or(own);
    let valid = host.len() <= 100
        && host.contains('.')
        && !host.starts_with(['.', '-'])
        && host
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-');
    if !valid || host.eq_ignore_ascii_case(own) {
        return String::new();
    }
    host.to_string()
}

/// The label of `event` as kept, or why it is refused: a booking's platform and person, a
/// crisis number's digits, a widget's name; nothing for the other events.
fn label(event: Event, text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    let fits =
        |max: usize, ok: &dyn Fn(char) -> bool| text.chars().count() <= max && text.chars().all(ok);
    match event {
        Event::Book if fits(80, &|c| c.is_alphanumeric() || " ·.-'".contains(c)) => {
            Ok(text.to_string())
        }
        Event::Crisis => {
            let digits: String = text.chars().filter(|c| !" +-".contains(*c)).collect();
            match (3..=12).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) {
                true => Ok(digits),
                false => Err(Refusal::BadLabel),
            }
        }
        Event::WidgetFailed if fits(24, &|c| c.is_ascii_lowercase() || c == '-') => {
            Ok(text.to_string())
        }
        Event::Book | Event::WidgetFailed => Err(Refusal::BadLabel),
        _ => Ok(String::new()),
    }
}

impl Beacon {
    /// What is counted of this beacon, on a site whose pages `is_page` knows, reached at
    /// `own_host`.
    pub fn check(self, is_page: impl Fn(&str) -> bool, own_host: &str) -> Result<Hit, Refusal> {
        let event = event(&self.e).ok_or(Refusal::UnknownEvent)?;
        let path = route(&self.p).ok_or(Refusal::UnknownRoute)?;
        let route = match event {
            Event::NotFound if is_page(&path) => return Err(Refusal::UnknownRoute),
            Event::NotFound => asked_route(&path),
            _ if is_page(&path) => path,
            _ => return Err(Refusal::UnknownRoute),
        };
        Ok(Hit {
            event,
            label: label(event, &self.l)?,
            route,
            // Where a visitor came from is said once, with the page they came in by.
            source: match event {
                Event::View => source(&self.r, own_host),
                _ => String::new(),
            },
            device: Device::of_width(self.w),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beacon(json: &str) -> Beacon {
        serde_json::from_str(json).expect("a beacon")
    }

    fn pages(route: &str) -> bool {
        ["/", "/cennik", "/blog/terapia-cbt"].contains(&route)
    }

    #[test]
    fn a_view_keeps_its_route_source_and_device() {
        let hit = beacon(r#"{"e":"view","p":"/cennik/","r":"WWW.Google.com","w":390}"#)
            .check(pages, "gabinet.pl")
            .expect("counted");
        assert_eq!(
            hit,
            Hit {
                event: Event::View,
                route: "/cennik".into(),
                source: "google.com".into(),
                device: Device::Phone,
                label: String::new(),
            }
        );
        let own = beacon(r#"{"e":"view","p":"/","r":"gabinet.pl","w":1280}"#)
            .check(pages, "gabinet.pl:443")
            .expect("counted");
        assert_eq!((own.source.as_str(), own.device), ("", Device::Desktop));
    }

    #[test]
    fn what_is_not_a_page_or_an_event_is_refused() {
        let refused = |json: &str| beacon(json).check(pages, "gabinet.pl").err();
        assert_eq!(
            refused(r#"{"e":"view","p":"/nie-ma"}"#),
            Some(Refusal::UnknownRoute)
        );
        assert_eq!(
            refused(r#"{"e":"view","p":"cennik"}"#),
            Some(Refusal::UnknownRoute)
        );
        assert_eq!(
            refused(r#"{"e":"click","p":"/"}"#),
            Some(Refusal::UnknownEvent)
        );
        assert_eq!(
            refused(r#"{"e":"404","p":"/cennik"}"#),
            Some(Refusal::UnknownRoute)
        );
        assert_eq!(
            refused(r#"{"e":"crisis","p":"/","l":"<script>"}"#),
            Some(Refusal::BadLabel)
        );
        assert_eq!(
            refused(r#"{"e":"book","p":"/","l":"a=b"}"#),
            Some(Refusal::BadLabel)
        );
        assert!(serde_json::from_str::<Beacon>(r#"{"e":"view","p":"/","ip":"1.2.3.4"}"#).is_err());
    }

    #[test]
    fn labels_keep_their_form() {
        let hit = |json: &str| beacon(json).check(pages, "gabinet.pl").expect("counted");
        assert_eq!(
            hit(r#"{"e":"crisis","p":"/","l":"116 123"}"#).label,
            "116123"
        );
        assert_eq!(
            hit(r#"{"e":"book","p":"/","l":"ZnanyLekarz · Magdalena Wiśniewska"}"#).label,
            "ZnanyLekarz · Magdalena Wiśniewska"
        );
        assert_eq!(hit(r#"{"e":"call","p":"/","l":"anything"}"#).label, "");
        let not_found = hit(r#"{"e":"404","p":"/Stara-Strona/","r":"google.com"}"#);
        assert_eq!(
            (not_found.route.as_str(), not_found.source.as_str()),
            ("/stara-strona", "")
        );
    }

    #[test]
    fn an_address_asked_for_keeps_nothing_that_could_be_data() {
        assert_eq!(asked_route("/us%C5%82ugi"), "/usługi");
        assert_eq!(asked_route("/jan@example.pl"), UNREADABLE);
        assert_eq!(asked_route("/tel/600100200"), UNREADABLE);
        assert_eq!(asked_route("/a%20b"), UNREADABLE);
        assert_eq!(asked_route(&format!("/{}", "a".repeat(200))), UNREADABLE);
        assert_eq!(asked_route("/blog/2024"), "/blog/2024");
    }

    #[test]
    fn a_source_is_a_host_or_nothing() {
        assert_eq!(source("m.facebook.com", "gabinet.pl"), "m.facebook.com");
        assert_eq!(source("www.gabinet.pl", "gabinet.pl"), "");
        assert_eq!(source("localhost", "gabinet.pl"), "");
        assert_eq!(source("ev!l.com", "gabinet.pl"), "");
    }
}
