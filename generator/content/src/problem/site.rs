//! Problems of the practice's facts in `site.yaml`: the ones `make check` finds and the panel
//! refuses by the very same rules (phone, e-mail, address, opening hours, booking links, the
//! notice), and the ones only the files can have (tax numbers, cookies, images, contacts).

use super::{texts, Texts};
use crate::validate::NOTICE_MAX_CHARS;

/// Which booking link a problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookingKey {
    /// `booking_url`: the practice's booking page.
    Practice,
    /// One of `therapist_booking`.
    Therapist,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteProblem {
    Nip {
        value: String,
    },
    Regon {
        value: String,
    },
    /// An `online_services` entry that is no file of `content/services/`.
    OnlineService {
        slug: String,
    },
    NoCookies,
    FallbackImages,
    /// A `{{ name }}` of `contact_clause` that is no fact.
    UnknownClauseFact {
        name: String,
    },
    SecurityContactSpaces {
        value: String,
    },
    SecurityContactForm {
        value: String,
    },
    Phone {
        value: String,
    },
    Email {
        value: String,
    },
    PostalCode {
        value: String,
    },
    AddressEmpty,
    NoOpeningHours,
    /// A row (from 1) of `opening_hours` whose days are not English day names.
    OpeningDays {
        row: usize,
        days: Vec<String>,
    },
    /// A row (from 1) whose opening time is not before its closing time.
    OpeningTimes {
        row: usize,
        opens: String,
        closes: String,
    },
    BookingLink {
        key: BookingKey,
        url: String,
    },
    NoticeText,
    NoticeOrder {
        from: String,
        until: String,
    },
}

/// The day names `opening_hours` may use (schema.org's).
pub(crate) const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

impl SiteProblem {
    pub(super) fn texts(&self) -> Texts {
        use SiteProblem as P;
        match self {
            P::Nip { value } => texts(
                format!("nip '{value}' is not a valid NIP (10 digits with a check digit)"),
                format!("NIP „{value}” jest nieprawidłowy (10 cyfr, ostatnia jest cyfrą kontrolną)."),
            ),
            P::Regon { value } => texts(
                format!("regon '{value}' is not a valid REGON (9 digits with a check digit)"),
                format!("REGON „{value}” jest nieprawidłowy (9 cyfr, ostatnia jest cyfrą kontrolną)."),
            ),
            P::OnlineService { slug } => texts(
                format!("online_services: '{slug}' is not a file under content/services/"),
                format!("usługi „{slug}” z listy usług online (online_services) nie ma wśród usług."),
            ),
            P::NoCookies => texts(
                "cookies: list every cookie the site sets (the privacy policy shows them)".into(),
                "lista cookies (cookies) jest pusta: wpisz każde cookie, które ustawia strona (pokazuje je polityka prywatności).".into(),
            ),
            P::FallbackImages => texts(
                "fallback_images must list exactly four 'photo-…' ids or full addresses".into(),
                "obrazy zastępcze (fallback_images) to dokładnie cztery identyfikatory „photo-…” albo pełne adresy.".into(),
            ),
            P::UnknownClauseFact { name } => texts(
                format!("contact_clause: '{{{{ {name} }}}}' is not a fact"),
                format!("klauzula informacyjna (contact_clause): „{{{{ {name} }}}}” nie jest znaną daną gabinetu."),
            ),
            P::SecurityContactSpaces { value } => texts(
                format!("security_contact '{value}' must be one address without spaces"),
                format!("kontakt w sprawach bezpieczeństwa „{value}” musi być jednym adresem, bez spacji."),
            ),
            P::SecurityContactForm { value } => texts(
                format!("security_contact '{value}' is neither an e-mail address, a 'mailto:' nor an 'https://' address"),
                format!("kontakt w sprawach bezpieczeństwa „{value}” nie jest adresem e-mail, adresem „mailto:” ani adresem „https://”."),
            ),
            P::Phone { value } => texts(
                format!("phone '{value}' is not a phone number (9 to 15 digits, spaces, '+', '-', brackets)"),
                format!("telefon „{value}” nie jest numerem telefonu: wpisz od 9 do 15 cyfr (mogą być spacje, „+”, „-” i nawiasy)."),
            ),
            P::Email { value } => texts(
                format!("email '{value}' is not an e-mail address"),
                format!("e-mail „{value}” nie jest adresem e-mail."),
            ),
            P::PostalCode { value } => texts(
                format!("postal_code '{value}' is not a Polish postal code (NN-NNN)"),
                format!("kod pocztowy „{value}” nie ma postaci NN-NNN."),
            ),
            P::AddressEmpty => texts(
                "address: street and city must not be empty".into(),
                "adres: ulica i miejscowość nie mogą być puste.".into(),
            ),
            P::NoOpeningHours => texts(
                "opening_hours: give at least one row".into(),
                "godziny pracy: podaj co najmniej jeden wiersz.".into(),
            ),
            P::OpeningDays { row, days } => texts(
                format!(
                    "opening_hours: days must be English day names ({}), got {days:?}",
                    WEEKDAYS.join(", ")
                ),
                format!("godziny pracy, wiersz {row}: wybierz co najmniej jeden dzień tygodnia."),
            ),
            P::OpeningTimes { row, opens, closes } => texts(
                format!("opening_hours: '{opens}'–'{closes}' is not an opening time before a closing time (HH:MM)"),
                format!("godziny pracy, wiersz {row}: „{opens}”–„{closes}” to nie godzina otwarcia przed godziną zamknięcia (GG:MM)."),
            ),
            P::BookingLink { key, url } => {
                let (english, polish) = match key {
                    BookingKey::Practice => ("booking_url", "link do rezerwacji"),
                    BookingKey::Therapist => ("therapist_booking", "link do rezerwacji terapeuty"),
                };
                texts(
                    format!("{english}: '{url}' is not a full https:// address"),
                    format!("{polish}: „{url}” nie jest pełnym adresem zaczynającym się od https://."),
                )
            }
            P::NoticeText => texts(
                format!("notice: the text must be one line of 1 to {NOTICE_MAX_CHARS} characters"),
                format!("komunikat: tekst musi mieć od 1 do {NOTICE_MAX_CHARS} znaków w jednym wierszu."),
            ),
            P::NoticeOrder { from, until } => texts(
                format!("notice: until '{until}' is before from '{from}'"),
                format!("komunikat: data końca „{until}” jest wcześniejsza niż data początku „{from}”."),
            ),
        }
    }

    /// The `site.yaml` key whose line a problem is reported at.
    pub fn key(&self) -> &'static str {
        use SiteProblem as P;
        match self {
            P::Nip { .. } => "nip",
            P::Regon { .. } => "regon",
            P::OnlineService { .. } => "online_services",
            P::NoCookies => "cookies",
            P::FallbackImages => "fallback_images",
            P::UnknownClauseFact { .. } => "contact_clause",
            P::SecurityContactSpaces { .. } | P::SecurityContactForm { .. } => "security_contact",
            P::Phone { .. } => "phone",
            P::Email { .. } => "email",
            P::PostalCode { .. } => "postal_code",
            P::AddressEmpty => "street",
            P::NoOpeningHours | P::OpeningDays { .. } | P::OpeningTimes { .. } => "opening_hours",
            P::BookingLink {
                key: BookingKey::Practice,
                ..
            } => "booking_url",
            P::BookingLink {
                key: BookingKey::Therapist,
                ..
            } => "therapist_booking",
            P::NoticeText | P::NoticeOrder { .. } => "notice",
        }
    }
}
