//! Who books what: the booking model of `site.yaml` (`booking:`) answered for each place a
//! booking button stands, and its checks. The model says in one place which platform serves
//! the practice, each therapist and each service; templates and islands only ask it.

use crate::model::{Booking, Content, SiteConfig, TherapistBooking, PRACTICE};
use crate::problem::BookingProblem;
use crate::providers;

/// Where one booking button leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target<'a> {
    pub url: &'a str,
    /// The doctor whose widget the booking dialog embeds, when the page is on the
    /// doctor-listing platform; otherwise the dialog offers the Booksy button.
    pub doctor_id: Option<&'a str>,
    /// The therapist whose page it is (`None`: the practice's or the facility's).
    pub therapist: Option<&'a str>,
}

/// The host of a full `https://` address, lower-cased.
fn host(url: &str) -> Option<String> {
    let rest = url.strip_prefix("https://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

impl Booking {
    /// The practice's own booking page: the navigation's, the phone menu's and the home
    /// page's 'Umów wizytę'.
    pub fn practice_target(&self) -> Target<'_> {
        Target {
            url: &self.practice,
            doctor_id: None,
            therapist: None,
        }
    }

    fn therapist_target<'a>(&'a self, slug: &'a str, t: &'a TherapistBooking) -> Target<'a> {
        Target {
            url: &t.url,
            doctor_id: t.doctor_id.as_deref(),
            therapist: Some(slug),
        }
    }

    /// A therapist's own page ('Umów się'); the practice's for one the model does not name.
    pub fn therapist<'a>(&'a self, slug: &'a str) -> Target<'a> {
        match self.therapists.get(slug) {
            Some(t) => self.therapist_target(slug, t),
            None => self.practice_target(),
        }
    }

    /// Where the service `slug` is booked: its therapist's page, or the practice's.
    pub fn service<'a>(&'a self, slug: &str) -> Target<'a> {
        match self.services.get(slug) {
            Some(who) if who != PRACTICE => match self.therapists.get_key_value(who.as_str()) {
                Some((slug, t)) => self.therapist_target(slug, t),
                None => self.practice_target(),
            },
            _ => self.practice_target(),
        }
    }

    /// Where a price row linking to `link` books: the service's page for a service's
    /// address (`/uslugi/NAME`, also with `#…`), the practice's for anything else.
    pub fn price_row<'a>(&'a self, link: &str) -> Target<'a> {
        let path = link.split(['#', '?']).next().unwrap_or(link);
        match path.trim_end_matches('/').strip_prefix("/uslugi/") {
            Some(slug) => self.service(slug),
            None => self.practice_target(),
        }
    }

    /// Where an article links (SPEC: articles link out to the doctor-listing platform): its
    /// therapist's profile there when they have one, or else the facility's page there.
    pub fn article<'a>(&'a self, therapist: Option<&'a str>) -> Target<'a> {
        let own = therapist.and_then(|slug| {
            let t = self.therapists.get(slug)?;
            t.doctor_id
                .is_some()
                .then(|| self.therapist_target(slug, t))
        });
        own.unwrap_or(Target {
            url: &self.doctor_listing.facility_url,
            doctor_id: None,
            therapist: None,
        })
    }

    /// The therapist whose certificate badge the home page shows, with their page.
    pub fn badge(&self) -> Target<'_> {
        self.therapist(&self.doctor_listing.badge_therapist)
    }

    /// Every booking page a button may open, each once.
    pub fn pages(&self) -> Vec<&str> {
        let mut pages: Vec<&str> = Vec::new();
        let all = std::iter::once(self.practice.as_str())
            .chain(self.therapists.values().map(|t| t.url.as_str()))
            .chain(std::iter::once(self.doctor_listing.facility_url.as_str()));
        for url in all {
            if !pages.contains(&url) {
                pages.push(url);
            }
        }
        pages
    }

    /// Whether `url` is a page of the doctor-listing platform.
    pub fn on_doctor_listing(&self, url: &str) -> bool {
        host(url).is_some_and(|h| h.eq_ignore_ascii_case(self.doctor_listing.host()))
    }

    /// Whether `url` is a page of Booksy.
    pub fn on_booksy(&self, url: &str) -> bool {
        host(url).is_some_and(|h| h.eq_ignore_ascii_case(&self.booksy_host))
    }
}

/// A problem of the booking model, and the path of the `site.yaml` key it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: Vec<String>,
    pub problem: BookingProblem,
}

fn problem(path: &[&str], problem: BookingProblem) -> Problem {
    Problem {
        path: std::iter::once("booking")
            .chain(path.iter().copied())
            .map(str::to_string)
            .collect(),
        problem,
    }
}

/// Every problem of the booking model against the content: Booksy's host, the facility's page,
/// a therapist or service the model forgets or invents, a badge without a doctor. (Whether
/// each booking page is on its platform is a fact the panel edits too: see
/// [`crate::validate::contact_fact_problems`].)
pub fn problems(content: &Content) -> Vec<Problem> {
    let b = &content.site.booking;
    let listing = &b.doctor_listing;
    let mut out = Vec::new();
    if b.booksy_host.is_empty() || b.booksy_host.contains(['/', ':', ' ']) {
        let value = b.booksy_host.clone();
        let key = "booksy_host";
        out.push(problem(&[key], BookingProblem::NotAHost { key, value }));
    }
    // With a platform the code does not know, where the facility's page should be is
    // unknown: the providers' check says so.
    let known = providers::doctor_listing(&listing.provider).is_some();
    if known && !b.on_doctor_listing(&listing.facility_url) {
        out.push(problem(
            &["doctor_listing", "facility_url"],
            BookingProblem::FacilityOffPlatform {
                url: listing.facility_url.clone(),
                platform: listing.name().to_string(),
                host: listing.host().to_string(),
            },
        ));
    }
    out.extend(therapist_problems(content));
    out.extend(service_problems(content));
    out
}

fn keys<T>(list: &[T], key: impl Fn(&T) -> &'static str) -> String {
    list.iter().map(key).collect::<Vec<_>>().join(", ")
}

fn provider_problem(path: &[&str], problem: BookingProblem) -> Problem {
    Problem {
        path: path.iter().map(|p| p.to_string()).collect(),
        problem,
    }
}

/// Every problem of the providers and ids `site.yaml` names: a provider the code does not
/// know, an id that is not one.
pub fn provider_problems(site: &SiteConfig) -> Vec<Problem> {
    let mut out = Vec::new();
    let listing = &site.booking.doctor_listing;
    if providers::doctor_listing(&listing.provider).is_none() {
        out.push(provider_problem(
            &["booking", "doctor_listing", "provider"],
            BookingProblem::UnknownProvider {
                key: "booking.doctor_listing.provider",
                value: listing.provider.clone(),
                known: keys(&providers::DOCTOR_LISTINGS, |p| p.key),
            },
        ));
    }
    if providers::telephony(&site.telephony.provider).is_none() {
        out.push(provider_problem(
            &["telephony", "provider"],
            BookingProblem::UnknownProvider {
                key: "telephony.provider",
                value: site.telephony.provider.clone(),
                known: keys(&providers::TELEPHONY, |p| p.key),
            },
        ));
    }
    let mut ids: Vec<(Vec<&str>, &'static str, &str)> = vec![
        (
            vec!["booking", "doctor_listing", "facility_id"],
            "booking.doctor_listing.facility_id",
            &listing.facility_id,
        ),
        (vec!["telephony", "id"], "telephony.id", &site.telephony.id),
    ];
    for (slug, t) in &site.booking.therapists {
        if let Some(id) = &t.doctor_id {
            ids.push((
                vec!["booking", "therapists", slug.as_str(), "doctor_id"],
                "doctor_id",
                id,
            ));
        }
    }
    if !site.analytics_id.is_empty() {
        ids.push((vec!["analytics_id"], "analytics_id", &site.analytics_id));
    }
    for (path, key, value) in ids {
        if !providers::is_id(value) {
            let value = value.to_string();
            out.push(provider_problem(
                &path,
                BookingProblem::NotAnId { key, value },
            ));
        }
    }
    out
}

fn therapist_problems(content: &Content) -> Vec<Problem> {
    let b = &content.site.booking;
    let listing = &b.doctor_listing;
    let mut out = Vec::new();
    for slug in b.therapists.keys() {
        if !content.team.iter().any(|d| d.slug() == slug) {
            let slug = slug.clone();
            out.push(problem(
                &["therapists", &slug],
                BookingProblem::UnknownTherapist { slug: slug.clone() },
            ));
        }
    }
    let badge = &listing.badge_therapist;
    if b.therapists
        .get(badge)
        .and_then(|t| t.doctor_id.as_ref())
        .is_none()
    {
        out.push(problem(
            &["doctor_listing", "badge_therapist"],
            BookingProblem::BadgeWithoutDoctor {
                badge: badge.clone(),
                platform: listing.name().to_string(),
            },
        ));
    }
    out
}

fn service_problems(content: &Content) -> Vec<Problem> {
    let b = &content.site.booking;
    let mut out = Vec::new();
    for doc in &content.services {
        if !b.services.contains_key(doc.slug()) {
            let slug = doc.slug().to_string();
            out.push(problem(
                &["services"],
                BookingProblem::ServiceMissing { slug },
            ));
        }
    }
    for (slug, who) in &b.services {
        let path = ["services", slug.as_str()];
        if !content.services.iter().any(|d| d.slug() == slug) {
            let slug = slug.clone();
            out.push(problem(&path, BookingProblem::UnknownService { slug }));
        }
        if who != PRACTICE && !b.therapists.contains_key(who) {
            let (slug, who) = (slug.clone(), who.clone());
            out.push(problem(&path, BookingProblem::UnknownBooker { slug, who }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DoctorListing;
    use std::collections::BTreeMap;

    fn model() -> Booking {
        Booking {
            doctor_listing: DoctorListing {
                provider: "znanylekarz".into(),
                facility_id: "1".into(),
                facility_url: "https://www.znanylekarz.pl/placowki/1-gabinet".into(),
                badge_therapist: "anna".into(),
            },
            booksy_host: "booksy.com".into(),
            practice: "https://booksy.com/gabinet".into(),
            therapists: BTreeMap::from([
                (
                    "anna".to_string(),
                    TherapistBooking {
                        url: "https://www.znanylekarz.pl/anna".into(),
                        doctor_id: Some("anna".into()),
                    },
                ),
                (
                    "jan".to_string(),
                    TherapistBooking {
                        url: "https://booksy.com/jan".into(),
                        doctor_id: None,
                    },
                ),
            ]),
            services: BTreeMap::from([
                ("terapia".to_string(), "anna".to_string()),
                ("coaching".to_string(), "jan".to_string()),
                ("konsultacje".to_string(), PRACTICE.to_string()),
            ]),
        }
    }

    #[test]
    fn a_service_books_with_its_therapist_or_the_practice() {
        let b = model();
        let terapia = b.service("terapia");
        assert_eq!(
            (terapia.url, terapia.doctor_id, terapia.therapist),
            (
                "https://www.znanylekarz.pl/anna",
                Some("anna"),
                Some("anna")
            )
        );
        assert_eq!(b.service("coaching").url, "https://booksy.com/jan");
        assert_eq!(b.service("coaching").doctor_id, None);
        assert_eq!(b.service("konsultacje").url, "https://booksy.com/gabinet");
        assert_eq!(b.service("nieznana").url, "https://booksy.com/gabinet");
    }

    #[test]
    fn price_rows_follow_their_service_and_articles_the_doctor_listing() {
        let b = model();
        assert_eq!(b.price_row("/uslugi/terapia").doctor_id, Some("anna"));
        assert_eq!(
            b.price_row("/uslugi/coaching#cena").url,
            "https://booksy.com/jan"
        );
        assert_eq!(b.price_row("/#contact").url, "https://booksy.com/gabinet");
        assert_eq!(b.article(Some("anna")).therapist, Some("anna"));
        let facility = "https://www.znanylekarz.pl/placowki/1-gabinet";
        assert_eq!(
            b.article(Some("jan")).url,
            facility,
            "jan is on Booksy only"
        );
        assert_eq!(b.article(None).url, facility);
    }

    #[test]
    fn hosts_are_read_from_full_addresses_only() {
        assert_eq!(
            host("https://Booksy.com/pl-pl/1?x=2").as_deref(),
            Some("booksy.com")
        );
        assert_eq!(host("http://booksy.com/"), None);
        assert_eq!(host("https:///x"), None);
        let b = model();
        assert!(b.on_booksy("https://booksy.com/x"));
        assert!(!b.on_booksy("https://booksy.com.evil.example/x"));
    }
}
