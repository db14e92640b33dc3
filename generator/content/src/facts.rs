//! The practice's facts inside Markdown: `{{ adres }}`, `{{ telefon }}` and the others are
//! filled in from `site.yaml` (and the service list) when a section is rendered, so that an
//! address or a phone number is written in one place and every page follows it. Prices are
//! facts too: `{{ cena.terapia-par }}` is that row's price (see [`crate::prices`]).

use crate::model::{Content, CookieCategory};
use std::collections::BTreeMap;

/// Every fact a text may name, with what it becomes in Markdown and in plain text (a page's
/// description).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Facts {
    values: BTreeMap<String, String>,
    plain: BTreeMap<String, String>,
}

/// Names a text may use, for the error that names an unknown one.
pub const NAMES: [&str; 13] = [
    "nazwa",
    "godziny",
    "adres",
    "telefon",
    "email",
    "nazwa_prawna",
    "administrator",
    "kontakt_dane",
    "nip",
    "regon",
    "uslugi_online",
    "tabela_cookies",
    "serwis_kalendarza",
];

/// What each name means, as the panel shows it in a text ('[adres gabinetu]').
const LABELS: [(&str, &str); 13] = [
    ("nazwa", "nazwa gabinetu"),
    ("godziny", "godziny otwarcia"),
    ("adres", "adres gabinetu"),
    ("telefon", "telefon gabinetu"),
    ("email", "e-mail gabinetu"),
    ("nazwa_prawna", "nazwa firmy"),
    ("administrator", "administrator danych"),
    ("kontakt_dane", "kontakt w sprawie danych osobowych"),
    ("nip", "NIP"),
    ("regon", "REGON"),
    ("uslugi_online", "lista usług online"),
    ("tabela_cookies", "tabela plików cookie"),
    ("serwis_kalendarza", "serwis z kalendarzem wolnych terminów"),
];

/// A fact a text may name, as the panel shows it: its name, its Polish meaning and what a
/// visitor sees in its place now (plain text, not the Markdown it becomes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
pub struct Placeholder {
    pub name: String,
    pub label: String,
    pub shown: String,
}

/// A placeholder that names no fact: its byte offset and the name written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    pub offset: usize,
    pub name: String,
}

/// Placeholders in `text` that are not facts. A price's (`cena.…`) is checked against the
/// price list with the other files (`validate`).
pub fn unknown(text: &str) -> Vec<Unknown> {
    crate::named::named(text)
        .into_iter()
        .filter(|(_, name)| {
            !NAMES.contains(&name.as_str()) && !name.starts_with(crate::prices::PREFIX)
        })
        .map(|(offset, name)| Unknown { offset, name })
        .collect()
}

fn markdown_escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn cookie_table(content: &Content) -> String {
    let mut out = String::from(
        "| Nazwa | Dostawca | Cel | Czas przechowywania | Rodzaj |\n|---|---|---|---|---|\n",
    );
    for c in &content.site.cookies {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            markdown_escape(&c.name),
            markdown_escape(&c.provider),
            markdown_escape(&c.purpose),
            markdown_escape(&c.lifetime),
            c.category.label()
        ));
    }
    out
}

/// The online services as a Markdown list: each by its short card title, or by its page
/// title where two share a card title.
fn online_services(content: &Content) -> String {
    let services: Vec<_> = content
        .site
        .online_services
        .iter()
        .filter_map(|slug| content.services.iter().find(|s| s.slug() == slug))
        .collect();
    let short = |s: &crate::model::Document<crate::model::ServiceMeta>| {
        s.meta
            .card_title
            .clone()
            .unwrap_or_else(|| s.meta.title.clone())
    };
    services
        .iter()
        .filter_map(|s| {
            let label = short(s);
            let shared = services.iter().filter(|o| short(o) == label).count() > 1;
            let title = if shared { s.meta.title.clone() } else { label };
            Some(format!("- [{}]({})\n", title, s.route.as_deref()?))
        })
        .collect()
}

const DAYS: [(&str, &str); 7] = [
    ("Monday", "pon."),
    ("Tuesday", "wt."),
    ("Wednesday", "śr."),
    ("Thursday", "czw."),
    ("Friday", "pt."),
    ("Saturday", "sob."),
    ("Sunday", "niedz."),
];

/// The ISO number of a day of `opening_hours` (`Monday` 1 … `Sunday` 7).
pub fn weekday_number(day: &str) -> Option<u8> {
    DAYS.iter()
        .position(|(en, _)| *en == day)
        .and_then(|i| u8::try_from(i + 1).ok())
}

/// "pon.–czw. 9:00–20:00" for each row of `opening_hours`.
pub fn opening_hours(site: &crate::model::SiteConfig) -> Vec<String> {
    let polish = |day: &str| DAYS.iter().find(|(en, _)| *en == day).map(|(_, pl)| *pl);
    let time = |t: &str| t.strip_prefix('0').unwrap_or(t).to_string();
    site.opening_hours
        .iter()
        .filter_map(|h| {
            let first = polish(h.days.first()?)?;
            let last = polish(h.days.last()?)?;
            let days = if h.days.len() == 1 {
                first.to_string()
            } else {
                format!("{first}–{last}")
            };
            Some(format!("{days} {}–{}", time(&h.opens), time(&h.closes)))
        })
        .collect()
}

/// Every fact a text may name, in the order of [`NAMES`], with its current value.
pub fn placeholders(content: &Content) -> Vec<Placeholder> {
    let site = &content.site;
    let facts = Facts::new(content);
    let online: Vec<String> = online_services(content)
        .lines()
        .filter_map(|line| {
            let title = line.strip_prefix("- [")?;
            Some(title.split_once("](")?.0.to_string())
        })
        .collect();
    let facts = NAMES.iter().map(|&name| {
        let shown = match name {
            "telefon" => site.phone.clone(),
            "email" => site.email.clone(),
            "uslugi_online" => online.join(", "),
            "tabela_cookies" => format!(
                "tabela: {}",
                crate::polish::count(site.cookies.len(), crate::polish::COOKIES)
            ),
            _ => facts.values.get(name).cloned().unwrap_or_default(),
        };
        let label = LABELS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(name, |(_, l)| l);
        Placeholder {
            name: name.to_string(),
            label: label.to_string(),
            shown,
        }
    });
    let prices = content.prices.items.iter().map(|item| Placeholder {
        name: format!("{}{}", crate::prices::PREFIX, item.id),
        label: format!("cena: {}", item.name),
        shown: crate::prices::in_prose(item).replace('\u{a0}', " "),
    });
    facts.chain(prices).collect()
}

/// Where people write about their personal data: its own address, or the practice's.
pub fn data_protection_contact(site: &crate::model::SiteConfig) -> &str {
    site.data_protection_contact
        .as_deref()
        .unwrap_or(&site.email)
}

impl Facts {
    pub fn new(content: &Content) -> Self {
        let site = &content.site;
        let digits: String = site
            .phone
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '+')
            .collect();
        let administrator = format!(
            "{}, {}, NIP {}, REGON {}",
            site.legal_name,
            site.registered_address.one_line(),
            site.nip,
            site.regon
        );
        let plain = [
            ("nazwa", site.name.clone()),
            ("godziny", opening_hours(site).join(", ")),
            ("adres", site.address.one_line()),
            ("telefon", site.phone.clone()),
            ("email", site.email.clone()),
            ("nazwa_prawna", site.legal_name.clone()),
            ("administrator", administrator),
            (
                "kontakt_dane",
                format!("[{0}](mailto:{0})", data_protection_contact(site)),
            ),
            ("nip", site.nip.clone()),
            ("regon", site.regon.clone()),
            (
                "serwis_kalendarza",
                site.booking.doctor_listing.name().to_string(),
            ),
        ];
        let prices: Vec<(String, String)> = content
            .prices
            .items
            .iter()
            .map(|i| {
                let name = format!("{}{}", crate::prices::PREFIX, i.id);
                (name, crate::prices::in_prose(i))
            })
            .collect();
        let plain: BTreeMap<String, String> = plain
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .chain(prices)
            .collect();
        let mut values = plain.clone();
        let markdown = [
            ("telefon", format!("[{}](tel:{digits})", site.phone)),
            // Each day's hours on one line of the text, as the footer shows them.
            (
                "godziny",
                opening_hours(site)
                    .join(", ")
                    .replace(' ', "\u{a0}")
                    .replace(",\u{a0}", ", "),
            ),
            ("email", format!("[{0}](mailto:{0})", site.email)),
            ("uslugi_online", online_services(content)),
            ("tabela_cookies", cookie_table(content)),
        ];
        values.extend(markdown.into_iter().map(|(k, v)| (k.to_string(), v)));
        Facts { values, plain }
    }

    /// `text` (a page's description, plain text) with every known placeholder replaced by
    /// its plain value; the lists and tables of the Markdown facts are left as written.
    pub fn fill_plain(&self, text: &str) -> String {
        Self::replace(&self.plain, text)
    }

    /// `text` with every known placeholder replaced; unknown ones are left as written (the
    /// check reports them).
    pub fn fill(&self, text: &str) -> String {
        Self::replace(&self.values, text)
    }

    fn replace(values: &BTreeMap<String, String>, text: &str) -> String {
        if !text.contains("{{") {
            return text.to_string();
        }
        crate::named::pattern()
            .replace_all(text, |c: &regex::Captures<'_>| {
                let name = c.get(1).map_or("", |m| m.as_str());
                match values.get(name) {
                    Some(value) => value.clone(),
                    None => c.get(0).map_or("", |m| m.as_str()).to_string(),
                }
            })
            .into_owned()
    }
}

/// The categories the consent banner asks about: those of the site's cookies that need
/// consent, in a stable order.
pub fn consent_categories(content: &Content) -> Vec<CookieCategory> {
    let mut categories: Vec<CookieCategory> = content
        .site
        .cookies
        .iter()
        .map(|c| c.category)
        .filter(|c| *c != CookieCategory::Technical)
        .collect();
    categories.sort();
    categories.dedup();
    categories
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_found_with_their_offset() {
        let found = unknown("Adres: {{ adres }}, ulica: {{ ulica }}.");
        assert_eq!(
            found,
            vec![Unknown {
                offset: 27,
                name: "ulica".into()
            }]
        );
    }

    #[test]
    fn every_name_has_a_polish_label() {
        for name in NAMES {
            assert!(
                LABELS.iter().any(|(n, l)| *n == name && !l.is_empty()),
                "{name} has no label"
            );
        }
        assert_eq!(LABELS.len(), NAMES.len());
    }

    #[test]
    fn opening_hours_read_in_polish() {
        let yaml = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../content/site.yaml"
        ))
        .expect("site.yaml");
        let site: crate::model::SiteConfig = crate::yaml::parse(&yaml).expect("parses");
        assert_eq!(
            opening_hours(&site),
            vec!["pon.–czw. 9:00–20:00", "pt. 9:00–16:00"]
        );
    }

    #[test]
    fn weekdays_are_numbered_as_iso_does() {
        assert_eq!(weekday_number("Monday"), Some(1));
        assert_eq!(weekday_number("Sunday"), Some(7));
        assert_eq!(weekday_number("Montag"), None);
    }

    #[test]
    fn known_names_are_filled_and_unknown_ones_kept() {
        let facts = Facts {
            values: BTreeMap::from([
                (
                    "adres".to_string(),
                    "al. Grunwaldzka 82/4, 80-244 Gdańsk".to_string(),
                ),
                ("cena.terapia-par".to_string(), "250\u{a0}zł".to_string()),
            ]),
            plain: BTreeMap::new(),
        };
        assert_eq!(
            facts.fill("Zapraszamy: {{adres}}. {{ inne }} Para: {{ cena.terapia-par }}."),
            "Zapraszamy: al. Grunwaldzka 82/4, 80-244 Gdańsk. {{ inne }} Para: 250\u{a0}zł."
        );
    }

    #[test]
    fn a_price_is_not_an_unknown_fact() {
        let found = unknown("Cena: {{ cena.terapia-par }}, {{ cena }}.");
        let names: Vec<&str> = found.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, vec!["cena"], "the price list checks the ids");
    }
}
