//! The site's own words outside any one document — the home page's section headings, the
//! calendar's paragraphs, the contact section's texts, the cards' link, the line under a
//! service's booking button, the footer's headings and crisis line — as one table: which
//! texts there are, in which group the panel shows them, how long each may be, and which the
//! SPEC fixes word for word (those are not in the file and the panel shows them as fixed).
//! The values are `content/napisy.yaml`; the build checks it against the table, the panel's
//! save checks what it would write the same way, and the templates read `wording.<key>`.

use serde::Serialize;

use crate::model::{SiteConfig, Words};
use crate::problem::{Problem, WordingProblem};

/// One text of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Wording {
    #[ts(type = "string")]
    pub key: &'static str,
    /// The heading of its group in the panel.
    #[ts(type = "string")]
    pub group: &'static str,
    #[ts(type = "string")]
    pub label: &'static str,
    /// Where visitors read it, under the field in the panel.
    #[ts(type = "string")]
    pub hint: &'static str,
    pub max: usize,
    /// Markdown of one paragraph (links, `{{ telefon }}`), not plain text.
    pub markdown: bool,
    /// The SPEC's own words: shown in the panel, never edited, not in the file.
    #[ts(type = "string | null")]
    pub fixed: Option<&'static str>,
}

const fn plain(
    key: &'static str,
    group: &'static str,
    label: &'static str,
    hint: &'static str,
    max: usize,
) -> Wording {
    Wording {
        key,
        group,
        label,
        hint,
        max,
        markdown: false,
        fixed: None,
    }
}

const fn paragraph(
    key: &'static str,
    group: &'static str,
    label: &'static str,
    hint: &'static str,
) -> Wording {
    Wording {
        markdown: true,
        ..plain(key, group, label, hint, 600)
    }
}

const fn fixed(
    key: &'static str,
    group: &'static str,
    label: &'static str,
    text: &'static str,
) -> Wording {
    Wording {
        fixed: Some(text),
        ..plain(
            key,
            group,
            label,
            "Ten napis jest stały: zawsze brzmi tak samo.",
            0,
        )
    }
}

const HOME: &str = "Strona główna";
const CONTACT: &str = "Kontakt (na dole strony głównej)";
const CARDS: &str = "Karty i przyciski";
const SERVICES: &str = "Strony usług";
const FOOTER: &str = "Stopka (na każdej stronie)";

/// Every text, in the panel's order.
pub const TABLE: &[Wording] = &[
    plain("home_write_button", HOME, "Drugi przycisk pod nagłówkiem", "Prowadzi do formularza kontaktowego.", 30),
    plain("calendar_heading", HOME, "Nagłówek kalendarza", "Nad kalendarzem wolnych terminów.", 60),
    paragraph("calendar_intro", HOME, "Opis kalendarza", "Akapit pod nagłówkiem kalendarza. {{ serwis_kalendarza }} to nazwa serwisu, z którego jest kalendarz."),
    paragraph("calendar_privacy", HOME, "Uwaga o wczytywaniu kalendarza", "Szarym drukiem pod opisem. Musi zostać prawdą: kalendarz wczytuje się dopiero po kliknięciu."),
    paragraph("calendar_fallback", HOME, "Gdy kalendarz się nie wczyta", "Widać go tylko wtedy, gdy serwis z kalendarzem nie odpowiada. {{ godziny }} to godziny otwarcia."),
    plain("home_services_heading", HOME, "Nagłówek usług", "Nad trzema kartami usług.", 60),
    plain("home_services_link", HOME, "Link do wszystkich usług", "Obok nagłówka usług.", 40),
    plain("home_blog_heading", HOME, "Nagłówek bloga", "Nad trzema kartami artykułów.", 60),
    plain("home_blog_link", HOME, "Link do wszystkich artykułów", "Obok nagłówka bloga.", 40),
    plain("contact_heading", CONTACT, "Nagłówek", "Nad formularzem kontaktowym.", 60),
    paragraph("contact_intro", CONTACT, "Wstęp", "Akapit obok formularza. {{ telefon }} to numer gabinetu."),
    paragraph("contact_note", CONTACT, "Uwaga o sytuacjach nagłych", "Akapit pod wstępem, szarym drukiem."),
    plain("card_more", CARDS, "Zachęta na karcie usługi", "Na dole każdej karty usługi.", 30),
    paragraph("service_prices", SERVICES, "Zdanie pod przyciskiem rezerwacji", "Na dole strony każdej usługi, pod przyciskiem „Umów wizytę”."),
    fixed("card_read_more", CARDS, "Zachęta na karcie artykułu", "Czytaj więcej"),
    fixed("book", CARDS, "Przycisk rezerwacji", "Umów wizytę"),
    fixed("book_therapist", CARDS, "Przycisk rezerwacji u terapeuty (strona „O nas”)", "Umów się"),
    fixed("nav", FOOTER, "Menu", "O nas, Usługi, Cennik, Blog"),
    plain("footer_menu_heading", FOOTER, "Nagłówek kolumny z menu", "Nad linkami do stron.", 30),
    plain("footer_contact_heading", FOOTER, "Nagłówek kolumny z kontaktem", "Nad adresem, telefonem i e-mailem.", 30),
    plain("footer_hours_label", FOOTER, "Godziny pracy", "Przed godzinami z „Danych gabinetu”, pod kontaktem.", 30),
    plain("footer_documents_heading", FOOTER, "Nagłówek kolumny z dokumentami", "Nad regulaminem i polityką prywatności.", 30),
    paragraph("footer_crisis", FOOTER, "Numery pomocy w kryzysie", "Pod stopką na każdej stronie. Numer w linku [116 123](tel:116123) musi być tym, który link wybiera."),
    plain("footer_rights", FOOTER, "Zastrzeżenie praw", "Po „© rok nazwa gabinetu”; rok bierze się z daty zbudowania strony.", 80),
];

/// The file of the words, in `content/`.
pub const FILE: &str = "napisy.yaml";

/// The text of `key`: the file's, or the SPEC's for a fixed one.
pub fn text<'a>(words: &'a Words, key: &str) -> &'a str {
    match TABLE.iter().find(|w| w.key == key).and_then(|w| w.fixed) {
        Some(text) => text,
        None => words.0.get(key).map_or("", String::as_str),
    }
}

/// The problems of `words`, each with its key (for the line of the file or the panel's field).
pub fn check(words: &Words, site: &SiteConfig) -> Vec<(String, Problem)> {
    let mut out: Vec<(String, Problem)> = Vec::new();
    for key in words.0.keys() {
        if !TABLE.iter().any(|w| w.key == key && w.fixed.is_none()) {
            out.push((
                key.clone(),
                WordingProblem::Unknown { key: key.clone() }.into(),
            ));
        }
    }
    for w in TABLE.iter().filter(|w| w.fixed.is_none()) {
        let problem = match words.0.get(w.key) {
            None => Some(
                WordingProblem::Missing {
                    key: w.key,
                    label: w.label,
                }
                .into(),
            ),
            Some(text) => text_problem(w, text, site),
        };
        out.extend(problem.map(|p| (w.key.to_string(), p)));
    }
    out
}

fn text_problem(w: &Wording, text: &str, site: &SiteConfig) -> Option<Problem> {
    let label = w.label;
    if text.trim().is_empty() {
        return Some(WordingProblem::Empty { label }.into());
    }
    if text.contains(['\n', '\r']) {
        return Some(WordingProblem::NotOneLine { label }.into());
    }
    if text.chars().count() > w.max {
        return Some(WordingProblem::TooLong { label, max: w.max }.into());
    }
    if !w.markdown {
        return None;
    }
    if let Some(problem) = phones(label, text) {
        return Some(problem);
    }
    crate::style::check(text, site)
        .into_iter()
        .next()
        .map(|found| found.problem.into())
}

/// A `[shown](tel:dialed)` link whose shown digits are not the ones it dials.
fn phones(label: &'static str, text: &str) -> Option<Problem> {
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    crate::markdown::links(text)
        .into_iter()
        .find_map(|(shown, url)| {
            let dialed = url.strip_prefix("tel:")?;
            let ok = dialed.chars().all(|c| c.is_ascii_digit() || c == '+')
                && (3..=15).contains(&digits(dialed).len())
                && digits(&shown) == digits(dialed);
            (!ok).then(|| {
                let problem = WordingProblem::PhoneMismatch {
                    label,
                    shown,
                    dialed: dialed.to_string(),
                };
                problem.into()
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> SiteConfig {
        let yaml = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../content/site.yaml"
        ))
        .expect("site.yaml");
        crate::yaml::parse(&yaml).expect("parses")
    }

    fn shipped() -> Words {
        let yaml = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../content/napisy.yaml"
        ))
        .expect("napisy.yaml");
        crate::yaml::parse(&yaml).expect("parses")
    }

    #[test]
    fn the_shipped_words_are_every_text_of_the_table() {
        assert_eq!(check(&shipped(), &site()), vec![]);
    }

    #[test]
    fn a_crisis_number_must_dial_what_it_shows() {
        let mut words = shipped();
        let crisis = "Zadzwoń: [116 123](tel:116132), a w zagrożeniu życia [112](tel:112).";
        words.0.insert("footer_crisis".into(), crisis.into());
        let found = check(&words, &site());
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .1
                .polish()
                .contains("numer „116 123” nie zgadza się"),
            "{}",
            found[0].1.polish()
        );
    }

    #[test]
    fn fixed_texts_are_the_specs_and_not_in_the_file() {
        let mut words = shipped();
        assert_eq!(text(&words, "book"), "Umów wizytę");
        words.0.insert("book".into(), "Zarezerwuj".into());
        assert_eq!(text(&words, "book"), "Umów wizytę");
        let found = check(&words, &site());
        assert!(
            matches!(&found[..], [(key, Problem::Wording(WordingProblem::Unknown { .. }))] if key == "book")
        );
    }

    #[test]
    fn a_missing_too_long_or_broken_text_is_named() {
        let mut words = shipped();
        words.0.remove("home_blog_heading");
        words.0.insert("card_more".into(), "x".repeat(31));
        words
            .0
            .insert("contact_heading".into(), "Dwa\nwiersze".into());
        let polish: Vec<String> = check(&words, &site())
            .iter()
            .map(|(_, p)| p.polish())
            .collect();
        assert_eq!(
            polish,
            [
                "brakuje napisu „Nagłówek bloga”.",
                "napis „Nagłówek” musi być jednym wierszem.",
                "napis „Zachęta na karcie usługi” może mieć najwyżej 30 znaków.",
            ]
        );
    }
}
