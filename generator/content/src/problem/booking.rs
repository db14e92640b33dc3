//! Problems of the booking model (`booking:` of `site.yaml`) that only the file can have: the
//! providers it names and their ids, and a therapist or service the model forgets or invents.
//! (The booking pages the panel edits are [`super::SiteProblem`]s.)

use super::texts::{texts, Texts};
use crate::model::PRACTICE;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookingProblem {
    /// `booksy_host` is not a host name alone.
    NotAHost { key: &'static str, value: String },
    /// A provider of scripts (`booking.doctor_listing.provider`, `telephony.provider`) that
    /// the code does not list: content names providers, it cannot add one.
    UnknownProvider {
        key: &'static str,
        value: String,
        known: String,
    },
    /// An id at a provider that is not letters, digits, '-' and '_'.
    NotAnId { key: &'static str, value: String },
    /// The facility's page is not on the doctor-listing platform.
    FacilityOffPlatform {
        url: String,
        platform: String,
        host: String,
    },
    /// A therapist of the model who has no profile under `content/team/`.
    UnknownTherapist { slug: String },
    /// The certificate badge names a therapist without a doctor id on the platform.
    BadgeWithoutDoctor { badge: String, platform: String },
    /// A service page the model does not say who books.
    ServiceMissing { slug: String },
    /// A service of the model that has no page under `content/services/`.
    UnknownService { slug: String },
    /// A service booked with someone who is neither a therapist nor the practice.
    UnknownBooker { slug: String, who: String },
}

impl BookingProblem {
    pub(super) fn texts(&self) -> Texts {
        use BookingProblem as P;
        match self {
            P::NotAHost { key, value } => texts(
                format!("{key}: '{value}' must be a host name alone (`www.znanylekarz.pl`)"),
                format!("{key}: „{value}” musi być samą nazwą hosta (np. www.znanylekarz.pl)."),
            ),
            P::UnknownProvider { key, value, known } => texts(
                format!("{key}: '{value}' is not a provider the site loads scripts from ({known}); which hosts may run scripts on the site is set in the code by its operator, not in content"),
                format!("{key}: „{value}” nie jest dostawcą, od którego strona ładuje skrypty (dostępni: {known}). Z jakich serwerów strona może uruchamiać skrypty, ustala operator serwera w kodzie, nie treść strony."),
            ),
            P::NotAnId { key, value } => texts(
                format!("{key}: '{value}' is not an id (letters, digits, '-' and '_', at most 64)"),
                format!("{key}: „{value}” nie jest identyfikatorem: dozwolone są litery, cyfry, „-” i „_” (najwyżej 64 znaki)."),
            ),
            P::FacilityOffPlatform { url, platform, host } => texts(
                format!("facility_url: '{url}' is not a page of {platform} ({host})"),
                format!("strona placówki „{url}” nie jest stroną w serwisie {platform} ({host})."),
            ),
            P::UnknownTherapist { slug } => texts(
                format!("therapists: '{slug}' is not a file under content/team/"),
                format!("terapeuty „{slug}” nie ma wśród profili zespołu (content/team/)."),
            ),
            P::BadgeWithoutDoctor { badge, platform } => texts(
                format!("badge_therapist: '{badge}' is not a therapist of booking.therapists with a doctor_id on {platform}"),
                format!("odznaka certyfikatu wskazuje „{badge}”, a ta osoba nie ma w booking.therapists identyfikatora lekarza (doctor_id) w serwisie {platform}."),
            ),
            P::ServiceMissing { slug } => texts(
                format!("services: '{slug}' (content/services/) is missing: name its therapist or `{PRACTICE}`"),
                format!("usługa „{slug}” nie ma w booking.services osoby, która ją prowadzi: wpisz terapeutę albo „{PRACTICE}”."),
            ),
            P::UnknownService { slug } => texts(
                format!("services: '{slug}' is not a file under content/services/"),
                format!("usługi „{slug}” nie ma wśród stron usług (content/services/)."),
            ),
            P::UnknownBooker { slug, who } => texts(
                format!("services: '{slug}' is booked with '{who}', which is neither a therapist of booking.therapists nor `{PRACTICE}`"),
                format!("usługa „{slug}” jest umawiana z „{who}”, a to ani terapeuta z booking.therapists, ani „{PRACTICE}”."),
            ),
        }
    }
}
