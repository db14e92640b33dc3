//! Problems of what the panel sends, refused before anything is written: a setting that is
//! empty, too long or not one line, a section of an unknown shape, a price row, the article's
//! title and address.

use super::texts::{texts, Texts};

/// A field the panel edits, named as the panel names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Description,
    Image,
    ImageAlt,
    Excerpt,
    Author,
    Phone,
    Email,
    Street,
    PostalCode,
    City,
    BookingUrl,
    LegalName,
    Nip,
    Regon,
    RegisteredStreet,
    RegisteredPostalCode,
    RegisteredCity,
    DataProtectionContact,
    Notice,
    Heading,
    Subtitle,
    Prompt,
    Intro,
    CardTitle,
    CardDescription,
    ButtonLabel,
    Name,
    Role,
    Photo,
    PhotoAlt,
    /// A qualification (from 1) of a therapist.
    Qualification(usize),
    /// A row (from 1) of the price list.
    PriceName(usize),
    PriceDuration(usize),
    PriceNote(usize),
}

impl Field {
    /// The field's name in the panel (its settings' or form's key) and, for a row of the
    /// price list, the row (from 1).
    pub fn name(self) -> (&'static str, Option<usize>) {
        match self {
            Field::Title => ("title", None),
            Field::Description => ("description", None),
            Field::Image => ("image", None),
            Field::ImageAlt => ("imageAlt", None),
            Field::Excerpt => ("excerpt", None),
            Field::Author => ("author", None),
            Field::Phone => ("phone", None),
            Field::Email => ("email", None),
            Field::Street => ("street", None),
            Field::PostalCode => ("postalCode", None),
            Field::City => ("city", None),
            Field::BookingUrl => ("bookingUrl", None),
            Field::LegalName => ("legalName", None),
            Field::Nip => ("nip", None),
            Field::Regon => ("regon", None),
            Field::RegisteredStreet => ("registeredStreet", None),
            Field::RegisteredPostalCode => ("registeredPostalCode", None),
            Field::RegisteredCity => ("registeredCity", None),
            Field::DataProtectionContact => ("dataProtectionContact", None),
            Field::Notice => ("notice", None),
            Field::Heading => ("heading", None),
            Field::Subtitle => ("subtitle", None),
            Field::Prompt => ("prompt", None),
            Field::Intro => ("intro", None),
            Field::CardTitle => ("cardTitle", None),
            Field::CardDescription => ("cardDescription", None),
            Field::ButtonLabel => ("buttonLabel", None),
            Field::Name => ("name", None),
            Field::Role => ("role", None),
            Field::Photo => ("photo", None),
            Field::PhotoAlt => ("photoAlt", None),
            Field::Qualification(_) => ("qualifications", None),
            Field::PriceName(n) => ("name", Some(n)),
            Field::PriceDuration(n) => ("duration", Some(n)),
            Field::PriceNote(n) => ("note", Some(n)),
        }
    }

    fn english(self) -> String {
        match self {
            Field::Title => "title".into(),
            Field::Description => "description".into(),
            Field::Image => "image".into(),
            Field::ImageAlt => "image alt text".into(),
            Field::Excerpt => "excerpt".into(),
            Field::Author => "author".into(),
            Field::Phone => "phone".into(),
            Field::Email => "e-mail".into(),
            Field::Street => "street".into(),
            Field::PostalCode => "postal code".into(),
            Field::City => "city".into(),
            Field::BookingUrl => "booking link".into(),
            Field::LegalName => "legal name".into(),
            Field::Nip => "NIP".into(),
            Field::Regon => "REGON".into(),
            Field::RegisteredStreet => "registered address, street".into(),
            Field::RegisteredPostalCode => "registered address, postal code".into(),
            Field::RegisteredCity => "registered address, city".into(),
            Field::DataProtectionContact => "contact for data protection".into(),
            Field::Notice => "notice".into(),
            Field::Heading => "heading".into(),
            Field::Subtitle => "subtitle".into(),
            Field::Prompt => "free consultation prompt".into(),
            Field::Intro => "intro".into(),
            Field::CardTitle => "card title".into(),
            Field::CardDescription => "card description".into(),
            Field::ButtonLabel => "button label".into(),
            Field::Name => "name".into(),
            Field::Role => "role".into(),
            Field::Photo => "photo".into(),
            Field::PhotoAlt => "photo alt text".into(),
            Field::Qualification(n) => format!("qualification {n}"),
            Field::PriceName(n) => format!("row {n}, name"),
            Field::PriceDuration(n) => format!("row {n}, duration"),
            Field::PriceNote(n) => format!("row {n}, note"),
        }
    }

    fn polish(self) -> String {
        match self {
            Field::Title => "tytuł".into(),
            Field::Description => "opis".into(),
            Field::Image => "obraz".into(),
            Field::ImageAlt => "tekst alternatywny obrazu".into(),
            Field::Excerpt => "zajawka".into(),
            Field::Author => "autor".into(),
            Field::Phone => "telefon".into(),
            Field::Email => "e-mail".into(),
            Field::Street => "ulica".into(),
            Field::PostalCode => "kod pocztowy".into(),
            Field::City => "miejscowość".into(),
            Field::BookingUrl => "link do rezerwacji".into(),
            Field::LegalName => "pełna nazwa przedsiębiorcy".into(),
            Field::Nip => "NIP".into(),
            Field::Regon => "REGON".into(),
            Field::RegisteredStreet => "adres siedziby, ulica".into(),
            Field::RegisteredPostalCode => "adres siedziby, kod pocztowy".into(),
            Field::RegisteredCity => "adres siedziby, miejscowość".into(),
            Field::DataProtectionContact => "kontakt w sprawie danych osobowych".into(),
            Field::Notice => "komunikat".into(),
            Field::Heading => "nagłówek".into(),
            Field::Subtitle => "podtytuł".into(),
            Field::Prompt => "zachęta do bezpłatnej konsultacji".into(),
            Field::Intro => "wstęp".into(),
            Field::CardTitle => "tytuł na karcie usługi".into(),
            Field::CardDescription => "opis na karcie usługi".into(),
            Field::ButtonLabel => "napis na przycisku rezerwacji".into(),
            Field::Name => "imię i nazwisko".into(),
            Field::Role => "rola".into(),
            Field::Photo => "zdjęcie".into(),
            Field::PhotoAlt => "tekst alternatywny zdjęcia".into(),
            Field::Qualification(n) => format!("kwalifikacja {n}"),
            Field::PriceName(n) => format!("pozycja {n}, nazwa"),
            Field::PriceDuration(n) => format!("pozycja {n}, czas trwania"),
            Field::PriceNote(n) => format!("pozycja {n}, uwaga"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditProblem {
    Empty {
        field: Field,
    },
    NotOneLine {
        field: Field,
    },
    TooLong {
        field: Field,
        max: usize,
    },
    /// A document's title that is empty.
    NoTitle,
    /// An article without its author.
    NoAuthor,
    /// Dates, excerpts and publishing for a page or a service.
    OnlyForArticles,
    /// A section type that is not a slug.
    SectionType,
    /// A section marker inside a section's text.
    SectionMarker,
    NoPrices,
    /// A price row (from 1) above the highest price.
    PriceTooHigh {
        row: usize,
        max: u32,
    },
    /// A price row (from 1) whose link is no service page.
    PriceLink {
        row: usize,
        link: String,
    },
    /// The therapists of the facts are not those of `site.yaml` (the panel is stale).
    TherapistsChanged,
    NoArticleTitle,
    /// A focal point that is not two percentages.
    FocusForm {
        value: String,
    },
    ArticleTitleForm {
        max: usize,
    },
    NoSlug,
    SlugForm {
        max: usize,
    },
    /// Deleting a page or a service.
    NotAnArticle,
    /// Restoring a revision that was a deletion.
    RevisionIsDeletion,
}

/// `100000` as "100 000".
fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

impl EditProblem {
    /// The field of the panel's form the problem is in (by the panel's name) and, for the price
    /// list, the row (from 1).
    pub fn field(&self) -> Option<(&'static str, Option<usize>)> {
        use EditProblem as P;
        match self {
            P::Empty { field } | P::NotOneLine { field } | P::TooLong { field, .. } => {
                Some(field.name())
            }
            P::NoTitle | P::NoArticleTitle | P::ArticleTitleForm { .. } => Some(("title", None)),
            P::NoAuthor => Some(("author", None)),
            P::NoSlug | P::SlugForm { .. } => Some(("slug", None)),
            P::FocusForm { .. } => Some(("imageFocus", None)),
            P::SectionType => Some(("type", None)),
            P::SectionMarker => Some(("content", None)),
            P::PriceTooHigh { row, .. } => Some(("price", Some(*row))),
            P::PriceLink { row, .. } => Some(("link", Some(*row))),
            P::OnlyForArticles
            | P::NoPrices
            | P::TherapistsChanged
            | P::NotAnArticle
            | P::RevisionIsDeletion => None,
        }
    }

    pub(super) fn texts(&self) -> Texts {
        use EditProblem as P;
        match self {
            P::Empty { field } => texts(
                format!("{}: the field must not be empty", field.english()),
                format!("{}: pole nie może być puste.", field.polish()),
            ),
            P::NotOneLine { field } => texts(
                format!("{}: the text must fit on one line", field.english()),
                format!("{}: tekst musi mieścić się w jednym wierszu.", field.polish()),
            ),
            P::TooLong { field, max } => texts(
                format!("{}: the text may have at most {max} characters", field.english()),
                format!("{}: tekst może mieć najwyżej {max} znaków.", field.polish()),
            ),
            P::NoTitle => texts(
                "the title must not be empty".into(),
                "tytuł nie może być pusty.".into(),
            ),
            P::NoAuthor => texts(
                "an article needs its author".into(),
                "wybierz autora artykułu.".into(),
            ),
            P::OnlyForArticles => texts(
                "only articles have a date, an excerpt and publishing settings".into(),
                "datę, zajawkę i publikację ustawia się tylko w artykułach.".into(),
            ),
            P::SectionType => texts(
                "the type may hold only lowercase letters, digits and hyphens".into(),
                "typ może zawierać tylko małe litery, cyfry i myślniki.".into(),
            ),
            P::SectionMarker => texts(
                "the text must not hold a section marker '<!-- section: … -->'".into(),
                "treść nie może zawierać znacznika sekcji „<!-- section: … -->”.".into(),
            ),
            P::NoPrices => texts(
                "the price list needs at least one row".into(),
                "cennik musi mieć co najmniej jedną pozycję.".into(),
            ),
            P::PriceTooHigh { row, max } => texts(
                format!("row {row}: the price may be at most {max} zł"),
                format!("pozycja {row}: cena może wynosić najwyżej {} zł.", grouped(*max)),
            ),
            P::PriceLink { row, link } => texts(
                format!("row {row}: '{link}' is not the page of a service"),
                format!("pozycja {row}: wybierz usługę, do której prowadzi ta pozycja („{link}” nie jest stroną usługi)."),
            ),
            P::TherapistsChanged => texts(
                "therapists' booking links: the therapists are not those of site.yaml".into(),
                "linki do rezerwacji terapeutów: lista terapeutów się nie zgadza. Odśwież panel.".into(),
            ),
            P::FocusForm { value } => texts(
                format!("focal point '{value}': give two numbers from 0 to 100 with %, like '50% 30%' (across, then down)"),
                format!("punkt ostrości „{value}”: podaj dwie liczby od 0 do 100 ze znakiem %, na przykład „50% 30%” (poziomo, potem pionowo)."),
            ),
            P::NoArticleTitle => texts(
                "give the article a title".into(),
                "podaj tytuł artykułu.".into(),
            ),
            P::ArticleTitleForm { max } => texts(
                format!("the title must be one line of at most {max} characters"),
                format!("tytuł musi mieścić się w jednym wierszu i mieć najwyżej {max} znaków."),
            ),
            P::NoSlug => texts(
                "this title gives no address: use letters or digits".into(),
                "z tego tytułu nie da się utworzyć adresu: użyj liter lub cyfr.".into(),
            ),
            P::SlugForm { max } => texts(
                format!("the address may hold only lowercase letters, digits and hyphens (at most {max} characters)"),
                format!("adres może zawierać tylko małe litery bez polskich znaków, cyfry i myślniki (najwyżej {max} znaków)."),
            ),
            P::NotAnArticle => texts(
                "only an article can be deleted; pages and services are part of the site's layout".into(),
                "usunąć można tylko artykuł; strony i usługi są częścią układu serwisu.".into(),
            ),
            P::RevisionIsDeletion => texts(
                "this revision is the deletion of the page; restore it from the deleted articles".into(),
                "ta wersja to usunięcie strony; przywróć ją z listy usuniętych artykułów.".into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    #[test]
    fn a_refusal_reads_as_a_sentence() {
        let p = Problem::from(EditProblem::Empty {
            field: Field::PriceDuration(2),
        });
        assert_eq!(
            p.sentence(),
            "Pozycja 2, czas trwania: pole nie może być puste."
        );
        assert_eq!(p.english(), "row 2, duration: the field must not be empty");
        let high = Problem::from(EditProblem::PriceTooHigh {
            row: 1,
            max: 100_000,
        });
        assert_eq!(
            high.sentence(),
            "Pozycja 1: cena może wynosić najwyżej 100 000 zł."
        );
        assert_eq!(
            Problem::from(EditProblem::NoTitle).sentence(),
            "Tytuł nie może być pusty."
        );
    }
}
