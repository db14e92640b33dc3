//! Problems of the practice's facts in `site.yaml`: the ones `make check` finds and the panel
//! refuses by the very same rules (phone, e-mail, address, opening hours, booking links, the
//! notice), and the ones only the files can have (tax numbers, cookies, images, contacts).

use super::texts::{texts, Texts};
use crate::limits::NOTICE_MAX_CHARS;

/// Which booking link a problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookingKey {
    /// `booking.practice`: the practice's booking page.
    Practice,
    /// One of `booking.therapists`.
    Therapist,
}

/// A booking page, and the platform it should be on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffPlatform {
    pub key: BookingKey,
    /// The therapist's, for a therapist's page.
    pub slug: Option<String>,
    pub url: String,
    pub platform: String,
    pub host: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteProblem {
    Nip {
        value: String,
        reason: &'static str,
    },
    Regon {
        value: String,
        reason: &'static str,
    },
    /// An `online_services` entry that is no file of `content/services/`.
    OnlineService {
        slug: String,
    },
    /// A `default_author` that is no file of `content/team/`.
    DefaultAuthor {
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
    /// `data_protection_contact` that is no e-mail address.
    DataProtectionContact {
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
    /// `geo` outside the degrees a place on Earth has.
    Geo {
        latitude: String,
        longitude: String,
    },
    /// A row (from 1) of `closures` whose dates are not dates, or end before they begin.
    Closure {
        row: usize,
        from: String,
        until: String,
    },
    /// A booking page that is not a full `https://` address (`slug`: the therapist's).
    BookingLink {
        key: BookingKey,
        slug: Option<String>,
        url: String,
    },
    /// A booking page on another platform than the one it must be on: the practice's on
    /// Booksy, a therapist's on the doctor-listing platform when the model gives a doctor id.
    BookingPlatform(Box<OffPlatform>),
    /// A fact still marked as example data (`example_data`), by its key.
    ExampleData {
        key: &'static str,
        label: &'static str,
    },
    /// The footer's description of the practice: empty, longer than the limit or not one line.
    Description {
        max: usize,
    },
    /// More profiles than the footer has room for.
    TooManySocial {
        max: usize,
    },
    /// A row (from 1) of `social` without a name, or whose address is no `https://` page.
    SocialLink {
        row: usize,
        name: String,
        url: String,
    },
    NoticeText,
    NoticeOrder {
        from: String,
        until: String,
    },
}

fn booking_key(key: BookingKey) -> &'static str {
    match key {
        BookingKey::Practice => "practice",
        BookingKey::Therapist => "therapists",
    }
}

/// How a booking page is named in both languages: the practice's, or a therapist's.
fn booking_names(key: BookingKey, slug: Option<&str>) -> (String, String) {
    match (key, slug) {
        (BookingKey::Practice, _) => ("practice".into(), "link do rezerwacji".into()),
        (BookingKey::Therapist, Some(slug)) => (
            format!("therapists: '{slug}'"),
            format!("link do rezerwacji terapeuty ({slug})"),
        ),
        (BookingKey::Therapist, None) => {
            ("therapists".into(), "link do rezerwacji terapeuty".into())
        }
    }
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
            P::Nip { value, reason } => texts(
                format!("nip '{value}' is not a valid NIP (10 digits, the last a check digit)"),
                format!("NIP „{value}”: {reason}"),
            ),
            P::Regon { value, reason } => texts(
                format!("regon '{value}' is not a valid REGON (9 or 14 digits, the last a check digit)"),
                format!("REGON „{value}”: {reason}"),
            ),
            P::OnlineService { slug } => texts(
                format!("online_services: '{slug}' is not a file under content/services/"),
                format!("usługi „{slug}” z listy usług online (online_services) nie ma wśród usług."),
            ),
            P::DefaultAuthor { slug } => texts(
                format!("default_author: '{slug}' is not a file under content/team/"),
                format!("domyślnego autora „{slug}” (default_author) nie ma w zespole (content/team/)."),
            ),
            P::NoCookies => texts(
                "cookies: list every cookie the site sets (the privacy policy shows them)".into(),
                "lista cookies (cookies) jest pusta: wpisz każde cookie, które ustawia strona (pokazuje je polityka prywatności).".into(),
            ),
            P::FallbackImages => texts(
                "fallback_images must list exactly four images of content/images/: the site serves them itself, so a broken picture never loads one from another server".into(),
                "obrazy zastępcze (fallback_images) to dokładnie cztery obrazy z content/images/: strona podaje je sama, więc zepsuty obraz nigdy nie pobiera zastępczego z cudzego serwera.".into(),
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
            P::DataProtectionContact { value } => texts(
                format!("data_protection_contact '{value}' is not an e-mail address"),
                format!("Kontakt w sprawie danych osobowych „{value}” nie jest adresem e-mail."),
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
            P::Geo { latitude, longitude } => texts(
                format!("geo: latitude {latitude} and longitude {longitude} must be degrees (−90…90, −180…180)"),
                format!("położenie na mapie: szerokość {latitude} i długość {longitude} muszą być stopniami (−90…90, −180…180)."),
            ),
            P::Closure { row, from, until } => texts(
                format!("closures, row {row}: '{from}'–'{until}' are not two dates (YYYY-MM-DD), the first not after the second"),
                format!("dni bez przyjęć, wiersz {row}: „{from}”–„{until}” to nie dwie daty (pierwsza nie później niż druga)."),
            ),
            P::BookingLink { key, slug, url } => {
                let (english, polish) = booking_names(*key, slug.as_deref());
                texts(
                    format!("{english}: '{url}' is not a full https:// address"),
                    format!("{polish}: „{url}” nie jest pełnym adresem zaczynającym się od https://."),
                )
            }
            P::BookingPlatform(page) => {
                let OffPlatform {
                    key,
                    slug,
                    url,
                    platform,
                    host,
                } = page.as_ref();
                let (english, polish) = booking_names(*key, slug.as_deref());
                let (why, dlaczego) = match key {
                    BookingKey::Practice => (
                        "the dialog of a service booked with the practice offers the Booksy button",
                        "a usługi umawiane z gabinetem prowadzą do Booksy",
                    ),
                    BookingKey::Therapist => (
                        "where this therapist books",
                        "w którym ten terapeuta przyjmuje rezerwacje",
                    ),
                };
                texts(
                    format!("{english}: '{url}' is not a page of {platform} ({host}), {why}"),
                    format!("{polish}: „{url}” nie jest stroną w serwisie {platform} ({host}), {dlaczego}."),
                )
            }
            P::ExampleData { key, label } => texts(
                format!("{key} is example data, not the practice's: write the practice's own value (the legal identity from its CEIDG record) and take it off example_data; a production start publishes nothing while any fact is listed there (the panel: 'Dane gabinetu')"),
                format!("{label}: to wciąż przykładowe dane, nie dane gabinetu. Wpisz dane gabinetu (dane prawne z wpisu w CEIDG) w panelu („Dane gabinetu”) i potwierdź je; dopóki choć jedna dana jest przykładowa, serwer produkcyjny nie opublikuje strony."),
            ),
            P::Description { max } => texts(
                format!("description: one line of 1 to {max} characters (the footer shows it)"),
                format!("opis gabinetu w stopce musi mieć od 1 do {max} znaków w jednym wierszu."),
            ),
            P::TooManySocial { max } => texts(
                format!("social: at most {max} profiles (the footer has room for them)"),
                format!("w stopce mieści się najwyżej {max} profili w serwisach społecznościowych."),
            ),
            P::SocialLink { row, name, url } => texts(
                format!("social, row {row}: '{name}' needs a name of 1 to 40 characters and a full 'https://' address, not '{url}'"),
                format!("profil {row} w stopce („{name}”): potrzebna nazwa (do 40 znaków) i pełny adres strony zaczynający się od „https://”, a jest „{url}”."),
            ),
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
            P::DefaultAuthor { .. } => "default_author",
            P::NoCookies => "cookies",
            P::FallbackImages => "fallback_images",
            P::UnknownClauseFact { .. } => "contact_clause",
            P::SecurityContactSpaces { .. } | P::SecurityContactForm { .. } => "security_contact",
            P::Phone { .. } => "phone",
            P::Email { .. } => "email",
            P::DataProtectionContact { .. } => "data_protection_contact",
            P::PostalCode { .. } => "postal_code",
            P::AddressEmpty => "street",
            P::NoOpeningHours | P::OpeningDays { .. } | P::OpeningTimes { .. } => "opening_hours",
            P::Closure { .. } => "closures",
            P::Geo { .. } => "geo",
            P::BookingLink { key, .. } => booking_key(*key),
            P::BookingPlatform(page) => booking_key(page.key),
            P::ExampleData { key, .. } => key,
            P::NoticeText | P::NoticeOrder { .. } => "notice",
            P::Description { .. } => "description",
            P::TooManySocial { .. } | P::SocialLink { .. } => "social",
        }
    }
}
