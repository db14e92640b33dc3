//! The house style of `content/STYLE.md`, where a machine can check it.

use super::texts::{texts, Texts};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StyleProblem {
    /// A heading or a bold opening that asks a question without a '?'.
    Question { text: String },
    /// A number glued to its unit ("190zł").
    GluedUnit { text: String },
    /// A price in 'PLN'.
    Pln,
    /// A helpline for children or a general one without the adults' line 116 123.
    AdultLine,
    /// Violence mentioned without the Blue Line.
    BlueLine,
    /// A crisis line's number written without a link that dials it.
    CrisisNumberNotLinked { number: String },
    /// A crisis line's number inside a `tel:` link that dials another number.
    CrisisNumberDialsOther { number: String, dialed: String },
    /// The street written instead of `{{ adres }}`.
    Street,
    /// Another word for the people the practice helps ("klient").
    Patient { word: String },
    /// 'terapeuta' outside quotation marks: we are psychologists.
    Therapist { word: String },
    /// The footer does not link the minors' protection standards.
    MinorsFooter { route: String },
    /// The footer links the minors' protection standards, but there is no such page.
    MinorsPage { route: String },
    /// A sentence says a therapist conducts therapy without saying they are still in
    /// psychotherapy training, while their profile shows no completed one.
    TraineeQualifier { name: String },
    /// A date of a legal text not written dd.mm.rrrr.
    LegalDate { date: String },
}

/// `[116 123](tel:116123)`: how a number is written so that it dials.
fn dialing(number: &str) -> String {
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    format!("[{number}](tel:{digits})")
}

impl StyleProblem {
    pub(super) fn texts(&self) -> Texts {
        match self {
            StyleProblem::Question { text } => texts(
                format!("the question '{text}' must end with '?' (STYLE.md)"),
                format!("pytanie „{text}” musi kończyć się znakiem zapytania (zasady stylu)."),
            ),
            StyleProblem::GluedUnit { text } => texts(
                format!("'{text}': put a space between a number and its unit (STYLE.md)"),
                format!("„{text}”: między liczbą a jednostką potrzebna jest spacja (zasady stylu)."),
            ),
            StyleProblem::Pln => texts(
                "write prices in 'zł', not 'PLN' (STYLE.md)".into(),
                "ceny piszemy w „zł”, nie „PLN” (zasady stylu).".into(),
            ),
            StyleProblem::AdultLine => texts(
                "where 800 70 2222 or 116 111 is given, give the adults' line 116 123 too (STYLE.md)".into(),
                "gdzie podano 800 70 2222 lub 116 111, trzeba podać też telefon zaufania dla dorosłych 116 123 (zasady stylu).".into(),
            ),
            StyleProblem::BlueLine => texts(
                "where violence is mentioned, give the Blue Line 800 120 002 (STYLE.md)".into(),
                "gdzie mowa o przemocy, trzeba podać Niebieską Linię 800 120 002 (zasady stylu).".into(),
            ),
            StyleProblem::CrisisNumberNotLinked { number } => {
                let link = dialing(number);
                texts(
                    format!("'{number}' is a crisis line: write it as a link that dials it, {link}, so that it can be tapped (STYLE.md)"),
                    format!("„{number}” to numer pomocy: zapisz go jako link, który dzwoni, {link}, aby można go było dotknąć (zasady stylu)."),
                )
            }
            StyleProblem::CrisisNumberDialsOther { number, dialed } => {
                let link = dialing(number);
                texts(
                    format!("the crisis line '{number}' dials {dialed}: write {link} (STYLE.md)"),
                    format!("numer pomocy „{number}” wybiera {dialed}: wpisz {link} (zasady stylu)."),
                )
            }
            StyleProblem::Street => texts(
                "write {{ adres }} instead of the street, so that the address has one source (STYLE.md)".into(),
                "zamiast adresu ulicy wpisz {{ adres }}, aby adres był w jednym miejscu (zasady stylu).".into(),
            ),
            StyleProblem::Patient { word } => texts(
                format!("'{word}': the site says 'pacjent' (STYLE.md)"),
                format!("„{word}”: na stronie piszemy „pacjent” (zasady stylu)."),
            ),
            StyleProblem::Therapist { word } => texts(
                format!("'{word}': we write 'psycholog' of ourselves and 'psychoterapeuta' of the profession; 'terapeuta' only inside quotation marks (STYLE.md)"),
                format!("„{word}”: o sobie piszemy „psycholog”, o zawodzie „psychoterapeuta”; słowo „terapeuta” tylko w cudzysłowie (zasady stylu)."),
            ),
            StyleProblem::MinorsFooter { route } => texts(
                format!("the footer does not link the minors' protection standards ({route}), which every page must make known (STYLE.md)"),
                format!("stopka nie linkuje do standardów ochrony małoletnich ({route}), a każda strona musi je udostępniać (zasady stylu)."),
            ),
            StyleProblem::MinorsPage { route } => texts(
                format!("the footer links {route}, but there is no such page: the minors' protection standards must be published (content/pages/standardy-ochrony-maloletnich.md, STYLE.md)"),
                format!("stopka linkuje do {route}, ale nie ma takiej strony: standardy ochrony małoletnich muszą być opublikowane (content/pages/standardy-ochrony-maloletnich.md, zasady stylu)."),
            ),
            StyleProblem::TraineeQualifier { name } => texts(
                format!("this sentence says {name} conducts therapy without saying that the psychotherapy training is still under way, as the profile's qualifications show: add 'w trakcie szkolenia …' to the sentence (STYLE.md)"),
                format!("zdanie mówi, że {name} prowadzi terapię, ale nie mówi, że jest w trakcie szkolenia psychoterapeutycznego, jak pokazuje profil: dopisz w tym zdaniu „w trakcie szkolenia …” (zasady stylu)."),
            ),
            StyleProblem::LegalDate { date } => texts(
                format!("'{date}' is not a date written dd.mm.rrrr (for example 14.12.2026): the legal texts write every date one way (STYLE.md)"),
                format!("„{date}” to nie data zapisana jako dd.mm.rrrr (na przykład 14.12.2026): w dokumentach prawnych każdą datę piszemy tak samo (zasady stylu)."),
            ),
        }
    }
}
