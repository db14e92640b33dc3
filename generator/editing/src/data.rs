//! The practice's data as the panel edits it: the price list (`content/cennik.yaml`) and the
//! facts of `content/site.yaml` that change (phone, e-mail, address, opening hours, booking
//! links, the notice). Writes are targeted edits of the lines that change (comments and the
//! order of keys stay), atomic, and refused on a stale version, like the documents' saves.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ts_rs::TS;

use crate::error::{Error, Result};
use crate::transaction::{transaction, version_of, Expect, Saved};
use crate::Editor;
use content::dates::Moment;
use content::fields::one_line;
use content::kind::Kind;
use content::limits::NOTICE_MAX_CHARS;
use content::model::{
    Address, Closure, ExampleFact, Notice, OpeningHours, PriceItem, PriceList, SiteConfig,
    SocialLink, Words,
};
use content::problem::{EditProblem, Field, Problem};
use content::validate::contact_fact_problems;
use content::wording::Wording;
use content::yaml::{self, Change, Item, Node};

/// One row of the price list as the panel edits it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PriceRow {
    /// What texts name the row by (`{{ cena.<id> }}`); empty for a new row, which gets one
    /// made from its name when saved.
    #[serde(default)]
    pub id: String,
    pub name: String,
    /// Złoty; 0 is free of charge.
    pub price: u32,
    /// The price is a lower bound ("od 500 zł").
    #[serde(default)]
    pub from: bool,
    pub duration: String,
    /// The service page the row links to (`/uslugi/…`).
    pub link: String,
    #[serde(default)]
    pub note: String,
    /// The row's index in the file as it was read, so that an unchanged row keeps its lines
    /// (and its comments) wherever it is moved; `None` for a new row.
    #[serde(default)]
    pub origin: Option<usize>,
}

impl PriceRow {
    fn of(item: &PriceItem, origin: usize) -> Self {
        PriceRow {
            id: item.id.clone(),
            name: item.name.clone(),
            price: item.price,
            from: item.from,
            duration: item.duration.clone(),
            link: item.link.clone(),
            note: item.note.clone().unwrap_or_default(),
            origin: Some(origin),
        }
    }

    fn item(&self) -> PriceItem {
        PriceItem {
            id: self.id.clone(),
            name: self.name.clone(),
            price: self.price,
            from: self.from,
            duration: self.duration.clone(),
            link: self.link.clone(),
            note: (!self.note.is_empty()).then(|| self.note.clone()),
        }
    }

    fn node(&self) -> Node {
        let mut entries = vec![
            ("id", Node::str(&self.id)),
            ("name", Node::str(&self.name)),
            ("price", Node::Int(i64::from(self.price))),
        ];
        if self.from {
            entries.push(("from", Node::Bool(true)));
        }
        entries.push(("duration", Node::str(&self.duration)));
        entries.push(("link", Node::str(&self.link)));
        if !self.note.is_empty() {
            entries.push(("note", Node::str(&self.note)));
        }
        Node::map(entries)
    }
}

/// `rows` with an id for each new row: its name as a slug, made unique with a number.
fn with_ids(rows: &[PriceRow]) -> Vec<PriceRow> {
    let mut taken: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    rows.iter()
        .map(|row| {
            if !row.id.is_empty() {
                return row.clone();
            }
            let base = match content::kind::slugify(&row.name) {
                s if s.is_empty() => "pozycja".to_string(),
                s => s,
            };
            let id = (1..)
                .map(|n| match n {
                    1 => base.clone(),
                    n => format!("{base}-{n}"),
                })
                .find(|id| !taken.contains(id))
                .unwrap_or(base);
            taken.push(id.clone());
            PriceRow { id, ..row.clone() }
        })
        .collect()
}

/// Where a price row for the free phone call leads: the home page's contact section, with
/// the phone number and the form. That row must not lead to a paid service's page.
pub(crate) const CONTACT_LINK: &str = "/#contact";

/// A service a price row may link to (or the contact section, [`CONTACT_LINK`]).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
pub struct ServiceLink {
    pub route: String,
    pub title: String,
}

/// The price list, with the services its rows may link to.
#[derive(Debug, Clone, Serialize, TS)]
pub struct Prices {
    pub items: Vec<PriceRow>,
    pub services: Vec<ServiceLink>,
    pub version: String,
    /// Where each row's price appears: by row id, the documents whose texts name it
    /// (`pages/cennik`), as the live site has them.
    pub uses: BTreeMap<String, Vec<String>>,
}

/// The facts of `site.yaml` the panel edits.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PracticeFacts {
    pub phone: String,
    pub email: String,
    pub street: String,
    pub postal_code: String,
    pub city: String,
    pub opening_hours: Vec<Hours>,
    /// The practice's own days off besides the public holidays (`YYYY-MM-DD`).
    #[serde(default)]
    pub closures: Vec<ClosureFacts>,
    pub booking_url: String,
    /// What the footer says of the practice, on every page.
    pub description: String,
    /// The practice's profiles in social networks, in the footer's order.
    pub social: Vec<SocialLink>,
    /// Each therapist's booking page, by the slug of their profile.
    pub therapist_booking: BTreeMap<String, String>,
    #[serde(default)]
    pub notice: Option<NoticeFacts>,
    /// The legal identity (the privacy policy's controller, the terms' provider).
    pub legal_name: String,
    pub nip: String,
    pub regon: String,
    pub registered_street: String,
    pub registered_postal_code: String,
    pub registered_city: String,
    /// Where people write about their personal data; empty: the e-mail above.
    #[serde(default)]
    pub data_protection_contact: String,
    /// The facts still marked as example data: one leaves the list only when the panel
    /// sends it without (after the owner confirmed the value is the practice's own).
    #[serde(default)]
    pub example_data: Vec<ExampleFact>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(deny_unknown_fields)]
pub struct Hours {
    /// English day names, as schema.org writes them.
    pub days: Vec<String>,
    pub opens: String,
    pub closes: String,
}

/// Days off from `from` to `until`, both included.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(deny_unknown_fields)]
pub struct ClosureFacts {
    pub from: String,
    pub until: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(deny_unknown_fields)]
pub struct NoticeFacts {
    pub text: String,
    pub from: String,
    pub until: String,
}

/// The facts with the version of `site.yaml` they were read from.
#[derive(Debug, Clone, Serialize, TS)]
pub struct FactsEditable {
    pub facts: PracticeFacts,
    /// The therapists, by slug, with their names, for the labels of their booking links.
    pub therapists: BTreeMap<String, String>,
    /// The facts `site.yaml` marks as example data (`example_data`), by their Polish names:
    /// the panel says they are not yet the practice's own, and who changes each.
    #[serde(rename = "exampleData")]
    pub example_data: Vec<ExampleLabel>,
    pub version: String,
}

/// A fact still marked as example data, in the panel's words, and whether 'Dane gabinetu'
/// edits it; the others are set in `site.yaml` by the operator or an editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ExampleLabel {
    pub label: &'static str,
    #[serde(rename = "inPanel")]
    pub in_panel: bool,
}

impl From<ExampleFact> for ExampleLabel {
    fn from(fact: ExampleFact) -> Self {
        ExampleLabel {
            label: fact.label(),
            in_panel: fact.in_panel(),
        }
    }
}

impl PracticeFacts {
    fn of(site: &SiteConfig) -> Self {
        PracticeFacts {
            phone: site.phone.clone(),
            email: site.email.clone(),
            street: site.address.street.clone(),
            postal_code: site.address.postal_code.clone(),
            city: site.address.city.clone(),
            opening_hours: site
                .opening_hours
                .iter()
                .map(|h| Hours {
                    days: h.days.clone(),
                    opens: h.opens.clone(),
                    closes: h.closes.clone(),
                })
                .collect(),
            closures: site
                .closures
                .iter()
                .map(|c| ClosureFacts {
                    from: c.from.clone(),
                    until: c.until.clone(),
                })
                .collect(),
            booking_url: site.booking.practice.clone(),
            description: site.description.clone(),
            social: site.social.clone(),
            therapist_booking: site
                .booking
                .therapists
                .iter()
                .map(|(slug, t)| (slug.clone(), t.url.clone()))
                .collect(),
            notice: site.notice.as_ref().map(|n| NoticeFacts {
                text: n.text.clone(),
                from: n.from.text().to_string(),
                until: n.until.text().to_string(),
            }),
            legal_name: site.legal_name.clone(),
            nip: site.nip.clone(),
            regon: site.regon.clone(),
            registered_street: site.registered_address.street.clone(),
            registered_postal_code: site.registered_address.postal_code.clone(),
            registered_city: site.registered_address.city.clone(),
            data_protection_contact: site.data_protection_contact.clone().unwrap_or_default(),
            example_data: site.example_data.clone(),
        }
    }

    /// `site` with these facts in it.
    fn apply(&self, site: &SiteConfig) -> SiteConfig {
        let mut out = site.clone();
        out.phone = self.phone.clone();
        out.email = self.email.clone();
        out.address = Address {
            street: self.street.clone(),
            postal_code: self.postal_code.clone(),
            city: self.city.clone(),
            region: site.address.region.clone(),
            country: site.address.country.clone(),
        };
        out.opening_hours = self
            .opening_hours
            .iter()
            .map(|h| OpeningHours {
                days: h.days.clone(),
                opens: h.opens.clone(),
                closes: h.closes.clone(),
            })
            .collect();
        out.closures = self
            .closures
            .iter()
            .map(|c| Closure {
                from: c.from.clone(),
                until: c.until.clone(),
            })
            .collect();
        out.booking.practice = self.booking_url.clone();
        out.description = self.description.clone();
        out.social = self.social.clone();
        for (slug, url) in &self.therapist_booking {
            if let Some(t) = out.booking.therapists.get_mut(slug) {
                t.url = url.clone();
            }
        }
        out.notice = self.notice.as_ref().map(|n| Notice {
            text: n.text.clone(),
            from: Moment::new(&n.from),
            until: Moment::new(&n.until),
        });
        out.legal_name = self.legal_name.clone();
        out.nip = self.nip.clone();
        out.regon = self.regon.clone();
        out.registered_address = Address {
            street: self.registered_street.clone(),
            postal_code: self.registered_postal_code.clone(),
            city: self.registered_city.clone(),
            region: site.registered_address.region.clone(),
            country: site.registered_address.country.clone(),
        };
        out.data_protection_contact =
            Some(self.data_protection_contact.clone()).filter(|c| !c.trim().is_empty());
        out.example_data = self.example_data.clone();
        out
    }
}

fn parse<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    yaml::parse(text).map_err(|e| Error::Edit(format!("{}: {}", path.display(), e.message)))
}

fn parse_value(path: &Path, text: &str) -> Result<serde_json::Value> {
    parse(path, text)
}

/// A value parsed once as the type it is, without parsing its text again.
fn typed<T: serde::de::DeserializeOwned>(path: &Path, value: &serde_json::Value) -> Result<T> {
    yaml::typed(value).map_err(|e| Error::Edit(format!("{}: {e}", path.display())))
}

/// A required one-line text of at most `max` characters.
fn required(field: Field, text: &str, max: usize) -> std::result::Result<(), Problem> {
    if text.trim().is_empty() {
        return Err(EditProblem::Empty { field }.into());
    }
    one_line(field, text, max)
}

/// The site's own words as the panel edits them.
#[derive(Debug, Clone, Serialize, TS)]
pub struct WordsEditable {
    /// The texts of `napisy.yaml`, by key.
    pub values: BTreeMap<String, String>,
    /// Which texts there are, in the panel's order (the SPEC's own among them, fixed).
    pub table: Vec<Wording>,
    pub version: String,
}

/// Why `values` cannot be the site's words: the first problem `make check` would find.
pub fn check_words(
    values: &BTreeMap<String, String>,
    site: &SiteConfig,
) -> std::result::Result<(), Problem> {
    let words = Words(values.clone());
    match content::wording::check(&words, site).into_iter().next() {
        Some((_, problem)) => Err(problem),
        None => Ok(()),
    }
}

/// The highest price of a row, in złoty.
pub const PRICE_MAX: u32 = 100_000;

/// Why a price list cannot be written: each row names a service page that exists.
pub fn check_prices(
    rows: &[PriceRow],
    services: &[ServiceLink],
) -> std::result::Result<(), Problem> {
    if rows.is_empty() {
        return Err(EditProblem::NoPrices.into());
    }
    for (i, row) in rows.iter().enumerate() {
        let n = i + 1;
        required(Field::PriceName(n), &row.name, 120)?;
        required(Field::PriceDuration(n), &row.duration, 60)?;
        if !row.note.is_empty() {
            required(Field::PriceNote(n), &row.note, 300)?;
        }
        if row.price > PRICE_MAX {
            return Err(EditProblem::PriceTooHigh {
                row: n,
                max: PRICE_MAX,
            }
            .into());
        }
        if !services.iter().any(|s| s.route == row.link) {
            let link = row.link.clone();
            return Err(EditProblem::PriceLink { row: n, link }.into());
        }
    }
    Ok(())
}

/// Why facts cannot be written: the rules `make check` applies to them.
pub fn check_facts(site: &SiteConfig, facts: &PracticeFacts) -> std::result::Result<(), Problem> {
    for (field, text, max) in [
        (Field::Phone, &facts.phone, 40),
        (Field::Email, &facts.email, 254),
        (Field::Street, &facts.street, 120),
        (Field::PostalCode, &facts.postal_code, 10),
        (Field::City, &facts.city, 80),
        (Field::BookingUrl, &facts.booking_url, 500),
        (Field::LegalName, &facts.legal_name, 300),
        (Field::Nip, &facts.nip, 20),
        (Field::Regon, &facts.regon, 20),
        (Field::RegisteredStreet, &facts.registered_street, 120),
        (
            Field::RegisteredPostalCode,
            &facts.registered_postal_code,
            10,
        ),
        (Field::RegisteredCity, &facts.registered_city, 80),
    ] {
        required(field, text, max)?;
    }
    one_line(
        Field::DataProtectionContact,
        &facts.data_protection_contact,
        254,
    )?;
    let known: Vec<&String> = site.booking.therapists.keys().collect();
    let given: Vec<&String> = facts.therapist_booking.keys().collect();
    if known != given {
        return Err(EditProblem::TherapistsChanged.into());
    }
    if let Some(n) = &facts.notice {
        required(Field::Notice, &n.text, NOTICE_MAX_CHARS)?;
    }
    match contact_fact_problems(&facts.apply(site)).into_iter().next() {
        Some(p) => Err(p),
        None => Ok(()),
    }
}

fn hours_node(hours: &[Hours]) -> Node {
    Node::List(
        hours
            .iter()
            .map(|h| {
                Node::map(vec![
                    ("days", Node::List(h.days.iter().map(Node::str).collect())),
                    ("opens", Node::str(&h.opens)),
                    ("closes", Node::str(&h.closes)),
                ])
            })
            .collect(),
    )
}

fn fact_changes(old: &PracticeFacts, new: &PracticeFacts) -> Vec<Change> {
    let mut out = Vec::new();
    let scalars = [
        (vec!["phone"], &old.phone, &new.phone),
        (vec!["email"], &old.email, &new.email),
        (vec!["address", "street"], &old.street, &new.street),
        (
            vec!["address", "postal_code"],
            &old.postal_code,
            &new.postal_code,
        ),
        (vec!["address", "city"], &old.city, &new.city),
        (vec!["legal_name"], &old.legal_name, &new.legal_name),
        (vec!["nip"], &old.nip, &new.nip),
        (vec!["regon"], &old.regon, &new.regon),
        (
            vec!["registered_address", "street"],
            &old.registered_street,
            &new.registered_street,
        ),
        (
            vec!["registered_address", "postal_code"],
            &old.registered_postal_code,
            &new.registered_postal_code,
        ),
        (
            vec!["registered_address", "city"],
            &old.registered_city,
            &new.registered_city,
        ),
        (
            vec!["booking", "practice"],
            &old.booking_url,
            &new.booking_url,
        ),
        (vec!["description"], &old.description, &new.description),
    ];
    for (path, a, b) in scalars {
        if a != b {
            out.push(Change::set(&path, Node::str(b)));
        }
    }
    if old.social != new.social {
        let profiles = new
            .social
            .iter()
            .map(|s| {
                Node::map(vec![
                    ("name", Node::str(&s.name)),
                    ("url", Node::str(&s.url)),
                ])
            })
            .collect();
        out.push(Change::set(&["social"], Node::List(profiles)));
    }
    if old.opening_hours != new.opening_hours {
        out.push(Change::set(
            &["opening_hours"],
            hours_node(&new.opening_hours),
        ));
    }
    if old.closures != new.closures {
        out.push(match new.closures.is_empty() {
            true => Change::remove(&["closures"]),
            false => Change::set(
                &["closures"],
                Node::List(
                    new.closures
                        .iter()
                        .map(|c| {
                            Node::map(vec![
                                ("from", Node::str(&c.from)),
                                ("until", Node::str(&c.until)),
                            ])
                        })
                        .collect(),
                ),
            ),
        });
    }
    for (slug, url) in &new.therapist_booking {
        if old.therapist_booking.get(slug) != Some(url) {
            out.push(Change::set(
                &["booking", "therapists", slug, "url"],
                Node::str(url),
            ));
        }
    }
    if old.data_protection_contact != new.data_protection_contact {
        let contact = &new.data_protection_contact;
        out.push(match contact.trim() {
            "" => Change::remove(&["data_protection_contact"]),
            _ => Change::set(&["data_protection_contact"], Node::str(contact)),
        });
    }
    if old.example_data != new.example_data {
        let keys = new
            .example_data
            .iter()
            .map(|f| Node::str(f.key()))
            .collect();
        out.push(Change::set(&["example_data"], Node::List(keys)));
    }
    if old.notice != new.notice {
        out.push(match &new.notice {
            Some(n) => Change::set(
                &["notice"],
                Node::map(vec![
                    ("text", Node::str(&n.text)),
                    ("from", Node::str(&n.from)),
                    ("until", Node::str(&n.until)),
                ]),
            ),
            None => Change::remove(&["notice"]),
        });
    }
    out
}

impl Editor {
    pub fn prices_file(&self) -> PathBuf {
        self.content_dir.join("cennik.yaml")
    }

    pub fn site_file(&self) -> PathBuf {
        self.content_dir.join("site.yaml")
    }

    /// The services a price row may link to, by title, then the contact section.
    pub fn service_links(&self) -> Result<Vec<ServiceLink>> {
        #[derive(Deserialize)]
        struct Title {
            title: String,
        }
        let mut out = Vec::new();
        for found in self.files_of(Kind::Service.folder())? {
            let Some(slug) = found.relative.strip_suffix(".md") else {
                continue;
            };
            let text = self.read(&found.path)?;
            let Ok(split) = content::frontmatter::split(&text) else {
                continue;
            };
            if let (Ok(t), Some(route)) =
                (yaml::parse::<Title>(split.yaml), Kind::Service.route(slug))
            {
                out.push(ServiceLink {
                    route,
                    title: t.title,
                });
            }
        }
        out.sort_by(|a, b| a.title.cmp(&b.title));
        out.push(ServiceLink {
            route: CONTACT_LINK.into(),
            title: "Kontakt: telefon i formularz (strona główna)".into(),
        });
        Ok(out)
    }

    pub fn prices(&self) -> Result<Prices> {
        let path = self.prices_file();
        let text = self.read(&path)?;
        let list: PriceList = parse(&path, &text)?;
        Ok(Prices {
            items: list
                .items
                .iter()
                .enumerate()
                .map(|(i, item)| PriceRow::of(item, i))
                .collect(),
            services: self.service_links()?,
            version: version_of(text.as_bytes()),
            uses: BTreeMap::new(),
        })
    }

    /// Writes `rows` as the price list if the file is still at `version`. A row that comes
    /// from the file unchanged keeps its lines as they were written.
    pub fn save_prices(&self, version: &str, rows: &[PriceRow]) -> Result<Saved> {
        let rows = &with_ids(rows);
        let path = self.prices_file();
        transaction(&self.root(), &path, Expect::Version(version), |previous| {
            let before = parse_value(&path, previous)?;
            let old: PriceList = typed(&path, &before)?;
            let items: Vec<Item> = rows
                .iter()
                .map(|row| {
                    let same = row
                        .origin
                        .and_then(|i| old.items.get(i).map(|item| (i, item)))
                        .filter(|(i, item)| PriceRow::of(item, *i) == *row);
                    match same {
                        Some((i, _)) => Item::Keep(i),
                        None => Item::New {
                            value: row.node(),
                            comments_of: row.origin.filter(|i| *i < old.items.len()),
                        },
                    }
                })
                .collect();
            let unchanged = items.len() == old.items.len()
                && items
                    .iter()
                    .enumerate()
                    .all(|(i, item)| *item == Item::Keep(i));
            let (saved, after) = if unchanged {
                (previous.to_string(), before)
            } else {
                yaml::edit_list_parsed(previous, before, "items", &items).map_err(Error::Edit)?
            };
            let check: PriceList = typed(&path, &after)?;
            let expected: Vec<PriceItem> = rows.iter().map(PriceRow::item).collect();
            if serde_json::to_value(&check.items).ok() != serde_json::to_value(&expected).ok() {
                return Err(Error::Edit("the price list did not round-trip".into()));
            }
            Ok(Some(saved))
        })
    }

    pub fn facts(&self) -> Result<FactsEditable> {
        let path = self.site_file();
        let text = self.read(&path)?;
        let site: SiteConfig = parse(&path, &text)?;
        let mut therapists = BTreeMap::new();
        for slug in site.booking.therapists.keys() {
            #[derive(Deserialize)]
            struct Name {
                name: String,
            }
            let file = self
                .content_dir
                .join(Kind::Team.folder())
                .join(format!("{slug}.md"));
            let name = self
                .read(&file)
                .ok()
                .and_then(|t| {
                    let split = content::frontmatter::split(&t).ok()?;
                    yaml::parse::<Name>(split.yaml).ok().map(|n| n.name)
                })
                .unwrap_or_else(|| slug.clone());
            therapists.insert(slug.clone(), name);
        }
        Ok(FactsEditable {
            facts: PracticeFacts::of(&site),
            therapists,
            example_data: site.example_data.iter().map(|&f| f.into()).collect(),
            version: version_of(text.as_bytes()),
        })
    }

    pub fn words_file(&self) -> PathBuf {
        self.content_dir.join(content::wording::FILE)
    }

    /// The site's own words, with the table that says which there are.
    pub fn words(&self) -> Result<WordsEditable> {
        let path = self.words_file();
        let text = self.read(&path)?;
        let words: Words = parse(&path, &text)?;
        Ok(WordsEditable {
            values: words.0,
            table: content::wording::TABLE.to_vec(),
            version: version_of(text.as_bytes()),
        })
    }

    /// Writes `values` into `napisy.yaml` if it is still at `version`, changing only the
    /// lines of the texts that changed (the comments stay).
    pub fn save_words(&self, version: &str, values: &BTreeMap<String, String>) -> Result<Saved> {
        let path = self.words_file();
        transaction(&self.root(), &path, Expect::Version(version), |previous| {
            let before = parse_value(&path, previous)?;
            let old: Words = typed(&path, &before)?;
            let changes: Vec<Change> = values
                .iter()
                .filter(|(key, text)| old.0.get(*key) != Some(*text))
                .map(|(key, text)| Change::set(&[key.as_str()], Node::str(text)))
                .collect();
            let (saved, after) =
                yaml::edit_parsed(previous, before, &changes).map_err(Error::Edit)?;
            let check: Words = typed(&path, &after)?;
            if check.0 != *values {
                return Err(Error::Edit("napisy.yaml did not round-trip".into()));
            }
            Ok(Some(saved))
        })
    }

    /// The `site.yaml` the facts are checked against (the current one).
    pub fn site_config(&self) -> Result<SiteConfig> {
        let path = self.site_file();
        parse(&path, &self.read(&path)?)
    }

    /// Writes `facts` into `site.yaml` if it is still at `version`, changing only the lines
    /// of the facts that changed.
    pub fn save_facts(&self, version: &str, facts: &PracticeFacts) -> Result<Saved> {
        let path = self.site_file();
        transaction(&self.root(), &path, Expect::Version(version), |previous| {
            let before = parse_value(&path, previous)?;
            let site: SiteConfig = typed(&path, &before)?;
            let changes = fact_changes(&PracticeFacts::of(&site), facts);
            let (saved, after) =
                yaml::edit_parsed(previous, before, &changes).map_err(Error::Edit)?;
            let check: SiteConfig = typed(&path, &after)?;
            if PracticeFacts::of(&check) != *facts {
                return Err(Error::Edit("site.yaml did not round-trip".into()));
            }
            Ok(Some(saved))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn real() -> (tempfile::TempDir, Editor) {
        let dir = tempfile::tempdir().unwrap();
        let p = Editor::new(dir.path().join("content"));
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
        fs::create_dir_all(p.content_dir.join("services")).unwrap();
        fs::create_dir_all(p.content_dir.join("team")).unwrap();
        for f in ["site.yaml", "cennik.yaml"] {
            fs::copy(source.join(f), p.content_dir.join(f)).unwrap();
        }
        for f in content::walk::files(&source, &source.join("services")).unwrap() {
            fs::copy(&f.path, p.content_dir.join("services").join(&f.relative)).unwrap();
        }
        for f in content::walk::files(&source, &source.join("team")).unwrap() {
            fs::copy(&f.path, p.content_dir.join("team").join(&f.relative)).unwrap();
        }
        (dir, p)
    }

    #[test]
    fn words_change_line_by_line_and_keep_their_comments() {
        let (_dir, p) = real();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/napisy.yaml");
        fs::copy(source, p.words_file()).unwrap();
        let words = p.words().unwrap();
        assert_eq!(words.values["home_blog_heading"], "Z naszego bloga");
        let mut values = words.values.clone();
        values.insert("home_blog_heading".into(), "Czytaj nas na blogu".into());
        let site = p.site_config().unwrap();
        check_words(&values, &site).unwrap();
        p.save_words(&words.version, &values).unwrap();
        let after = fs::read_to_string(p.words_file()).unwrap();
        assert!(
            after.starts_with("# Napisy stałych części strony"),
            "{after}"
        );
        assert!(
            after.contains("home_blog_heading: \"Czytaj nas na blogu\"\n"),
            "{after}"
        );
        assert_eq!(p.words().unwrap().values, values);
        values.insert("card_more".into(), String::new());
        let refused = check_words(&values, &site).unwrap_err();
        assert_eq!(
            refused.polish(),
            "napis „Zachęta na karcie usługi” nie może być pusty."
        );
    }

    #[test]
    fn prices_round_trip_and_unchanged_rows_keep_their_lines() {
        let (_dir, p) = real();
        let before = fs::read_to_string(p.prices_file()).unwrap();
        let prices = p.prices().unwrap();
        assert!(prices
            .services
            .iter()
            .any(|s| s.route == "/uslugi/terapia-par"));
        let free = &prices.items[0];
        assert_eq!((free.price, free.link.as_str()), (0, CONTACT_LINK));
        check_prices(&prices.items, &prices.services).unwrap();
        p.save_prices(&prices.version, &prices.items).unwrap();
        assert_eq!(fs::read_to_string(p.prices_file()).unwrap(), before);
        let mut rows = prices.items.clone();
        rows.swap(0, 1);
        rows[2].price = 200;
        rows.push(PriceRow {
            id: String::new(),
            name: "Nowa \"usługa\"".into(),
            price: 120,
            from: true,
            duration: "30 min".into(),
            link: "/uslugi/psychoedukacja".into(),
            note: String::new(),
            origin: None,
        });
        rows.remove(3);
        let saved = p.save_prices(&prices.version, &rows).unwrap();
        assert!(matches!(saved, Saved::Written { .. }));
        let after = fs::read_to_string(p.prices_file()).unwrap();
        assert!(after.starts_with("# The practice's price list."), "{after}");
        assert!(
            after.contains("  - id: \"nowa-usluga\"\n    name: \"Nowa \\\"usługa\\\"\"\n    price: 120\n    from: true\n")
        );
        let back = p.prices().unwrap();
        let plain = |r: &[PriceRow]| {
            r.iter()
                .map(|r| PriceRow {
                    origin: None,
                    ..r.clone()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(plain(&back.items), plain(&with_ids(&rows)));
        assert_eq!(
            back.items.last().map(|r| r.id.as_str()),
            Some("nowa-usluga")
        );
        assert!(matches!(
            p.save_prices(&prices.version, &rows).unwrap(),
            Saved::Conflict { .. }
        ));
    }

    #[test]
    fn a_price_row_must_name_a_service_and_a_duration() {
        let (_dir, p) = real();
        let prices = p.prices().unwrap();
        let mut rows = prices.items.clone();
        rows[0].link = "/blog/terapia-cbt".into();
        assert!(check_prices(&rows, &prices.services)
            .unwrap_err()
            .sentence()
            .starts_with("Pozycja 1: wybierz usługę"));
        let mut rows = prices.items.clone();
        rows[1].duration = " ".into();
        assert_eq!(
            check_prices(&rows, &prices.services)
                .unwrap_err()
                .sentence(),
            "Pozycja 2, czas trwania: pole nie może być puste."
        );
        assert!(check_prices(&[], &prices.services).is_err());
    }

    #[test]
    fn facts_change_only_their_lines_and_the_notice_comes_and_goes() {
        let (_dir, p) = real();
        let before = fs::read_to_string(p.site_file()).unwrap();
        let e = p.facts().unwrap();
        assert_eq!(
            e.therapists.get("magdalena-wisniewska").map(String::as_str),
            Some("Magdalena Wiśniewska")
        );
        assert_eq!(
            e.example_data,
            ExampleFact::ALL.map(ExampleLabel::from),
            "every fact of the practice is example data until it is confirmed"
        );
        let elsewhere: Vec<&str> = e
            .example_data
            .iter()
            .filter(|l| !l.in_panel)
            .map(|l| l.label)
            .collect();
        assert_eq!(
            elsewhere,
            [
                "nazwa gabinetu",
                "adres strony (site_url)",
                "identyfikator widżetu telefonicznego (telephony)"
            ],
            "what 'Dane gabinetu' cannot change is told apart"
        );
        p.save_facts(&e.version, &e.facts).unwrap();
        assert_eq!(fs::read_to_string(p.site_file()).unwrap(), before);
        let mut f = e.facts.clone();
        f.phone = "+48 58 000 11 22".into();
        f.postal_code = "80-245".into();
        f.opening_hours.pop();
        f.opening_hours[0].days = vec!["Monday".into(), "Wednesday".into()];
        f.notice = Some(NoticeFacts {
            text: "Gabinet nieczynny 24.12–1.01".into(),
            from: "2025-12-24".into(),
            until: "2026-01-01".into(),
        });
        let site = p.site_config().unwrap();
        check_facts(&site, &f).unwrap();
        p.save_facts(&e.version, &f).unwrap();
        let after = fs::read_to_string(p.site_file()).unwrap();
        let removed: Vec<&str> = before
            .lines()
            .filter(|l| !after.lines().any(|a| a == *l))
            .collect();
        assert_eq!(
            removed,
            vec![
                "phone: \"+48 58 345 21 90\"",
                "  - days: [\"Monday\", \"Tuesday\", \"Wednesday\", \"Thursday\"]",
                "  - days: [\"Friday\"]",
                "    closes: \"16:00\"",
            ],
            "lines that appear twice (the registered address) are not told apart here"
        );
        assert_eq!(
            after.matches("postal_code: \"80-244\"").count(),
            1,
            "only the practice's address"
        );
        assert_eq!(
            after.lines().count(),
            before.lines().count() - 3 + 4,
            "three hour lines gone, a notice added"
        );
        assert!(after.contains("# Where patients come"), "comments stay");
        assert_eq!(p.facts().unwrap().facts, f);
        let e = p.facts().unwrap();
        p.save_facts(
            &e.version,
            &PracticeFacts {
                notice: None,
                ..f.clone()
            },
        )
        .unwrap();
        assert!(!fs::read_to_string(p.site_file())
            .unwrap()
            .contains("notice"));
    }

    #[test]
    fn the_practices_days_off_are_saved_as_a_list_and_removed_when_empty() {
        let (_dir, p) = real();
        let e = p.facts().unwrap();
        assert_eq!(e.facts.closures, []);
        let mut f = e.facts.clone();
        f.closures = vec![
            ClosureFacts {
                from: "2026-08-03".into(),
                until: "2026-08-14".into(),
            },
            ClosureFacts {
                from: "2026-11-02".into(),
                until: "2026-11-02".into(),
            },
        ];
        check_facts(&p.site_config().unwrap(), &f).unwrap();
        p.save_facts(&e.version, &f).unwrap();
        let text = fs::read_to_string(p.site_file()).unwrap();
        assert!(
            text.contains("closures:\n  - from: \"2026-08-03\"\n    until: \"2026-08-14\"\n"),
            "{text}"
        );
        assert_eq!(p.facts().unwrap().facts.closures, f.closures);
        f.closures[1].until = "2026-11-01".into();
        let refused = check_facts(&p.site_config().unwrap(), &f).unwrap_err();
        assert!(
            refused.polish().contains("wiersz 2"),
            "{}",
            refused.polish()
        );
        let e = p.facts().unwrap();
        f.closures.clear();
        p.save_facts(&e.version, &f).unwrap();
        assert!(!fs::read_to_string(p.site_file())
            .unwrap()
            .contains("closures"));
    }

    #[test]
    fn facts_are_checked_by_the_rules_of_make_check_in_polish() {
        let (_dir, p) = real();
        let site = p.site_config().unwrap();
        let good = p.facts().unwrap().facts;
        let cases: Vec<(PracticeFacts, &str)> = vec![
            (
                PracticeFacts {
                    phone: "12 34".into(),
                    ..good.clone()
                },
                "Telefon „12 34”",
            ),
            (
                PracticeFacts {
                    email: "kontakt@".into(),
                    ..good.clone()
                },
                "nie jest adresem e-mail",
            ),
            (
                PracticeFacts {
                    postal_code: "80244".into(),
                    ..good.clone()
                },
                "NN-NNN",
            ),
            (
                PracticeFacts {
                    booking_url: "http://booksy.com".into(),
                    ..good.clone()
                },
                "https://",
            ),
            (
                PracticeFacts {
                    opening_hours: vec![Hours {
                        days: vec!["Monday".into()],
                        opens: "18:00".into(),
                        closes: "09:00".into(),
                    }],
                    ..good.clone()
                },
                "wiersz 1",
            ),
            (
                PracticeFacts {
                    notice: Some(NoticeFacts {
                        text: "X".into(),
                        from: "2025-12-24".into(),
                        until: "2025-12-01".into(),
                    }),
                    ..good.clone()
                },
                "wcześniejsza",
            ),
            (
                PracticeFacts {
                    notice: Some(NoticeFacts {
                        text: "X".into(),
                        from: "2025-02-30".into(),
                        until: "2025-03-01".into(),
                    }),
                    ..good.clone()
                },
                "„2025-02-30” nie istnieje",
            ),
            (
                PracticeFacts {
                    nip: "1234563219".into(),
                    ..good.clone()
                },
                "Ten NIP ma błędną cyfrę kontrolną",
            ),
            (
                PracticeFacts {
                    regon: "1234567".into(),
                    ..good.clone()
                },
                "REGON ma 9 albo 14 cyfr",
            ),
            (
                PracticeFacts {
                    data_protection_contact: "dane@".into(),
                    ..good.clone()
                },
                "Kontakt w sprawie danych osobowych",
            ),
            (
                PracticeFacts {
                    legal_name: " ".into(),
                    ..good.clone()
                },
                "Pełna nazwa przedsiębiorcy: pole nie może być puste",
            ),
            (
                PracticeFacts {
                    description: "Dwa\nwiersze".into(),
                    ..good.clone()
                },
                "Opis gabinetu w stopce musi mieć od 1 do 300 znaków",
            ),
            (
                PracticeFacts {
                    social: vec![SocialLink {
                        name: "Instagram".into(),
                        url: "instagram.com/gabinet".into(),
                    }],
                    ..good.clone()
                },
                "Profil 1 w stopce („Instagram”): potrzebna nazwa (do 40 znaków) i pełny adres strony zaczynający się od „https://”",
            ),
            (
                PracticeFacts {
                    social: vec![good.social[0].clone(); 7],
                    ..good.clone()
                },
                "najwyżej 6 profili",
            ),
        ];
        for (facts, expected) in cases {
            let message = check_facts(&site, &facts).unwrap_err().sentence();
            assert!(message.contains(expected), "{expected}: {message}");
        }
    }

    #[test]
    fn the_footers_description_and_profiles_are_written_and_read_back() {
        let (_dir, p) = real();
        let e = p.facts().unwrap();
        let mut f = e.facts.clone();
        f.description = "Gabinet psychologiczny na Przymorzu: terapia i diagnoza ADHD.".into();
        f.social.remove(0);
        f.social.push(SocialLink {
            name: "LinkedIn".into(),
            url: "https://www.linkedin.com/company/gabinet-harmonia".into(),
        });
        p.save_facts(&e.version, &f).unwrap();
        let text = fs::read_to_string(p.site_file()).unwrap();
        assert!(!text.contains("facebook.com"), "{text}");
        assert!(text.contains("name: \"LinkedIn\""), "{text}");
        assert_eq!(p.facts().unwrap().facts, f);
        assert_eq!(p.site_config().unwrap().description, f.description);
    }

    #[test]
    fn the_legal_identity_is_written_and_leaves_the_example_list_only_when_sent_without() {
        let (_dir, p) = real();
        let e = p.facts().unwrap();
        assert_eq!(e.facts.example_data, ExampleFact::ALL);
        let real_values = PracticeFacts {
            legal_name: "Anna Nowak Psychoterapia".into(),
            nip: "123-456-32-18".into(),
            regon: "12345678512347".into(),
            registered_street: "ul. Długa 1".into(),
            registered_postal_code: "80-831".into(),
            registered_city: "Gdańsk".into(),
            data_protection_contact: "dane@example.pl".into(),
            ..e.facts.clone()
        };
        let site = p.site_config().unwrap();
        check_facts(&site, &real_values).unwrap();
        p.save_facts(&e.version, &real_values).unwrap();
        let kept = p.facts().unwrap();
        assert_eq!(kept.facts.legal_name, "Anna Nowak Psychoterapia");
        assert_eq!(
            kept.facts.example_data,
            ExampleFact::ALL,
            "new values alone confirm nothing"
        );
        let confirmed = PracticeFacts {
            example_data: vec![ExampleFact::RegisteredAddress],
            ..kept.facts.clone()
        };
        p.save_facts(&kept.version, &confirmed).unwrap();
        let text = fs::read_to_string(p.site_file()).unwrap();
        assert!(
            text.contains("example_data: [\"registered_address\"]"),
            "{text}"
        );
        assert!(text.contains("data_protection_contact: \"dane@example.pl\""));
        let last = p.facts().unwrap();
        let none = PracticeFacts {
            example_data: Vec::new(),
            ..last.facts.clone()
        };
        p.save_facts(&last.version, &none).unwrap();
        let site = p.site_config().unwrap();
        assert!(site.example_data.is_empty());
        assert_eq!(site.registered_address.street, "ul. Długa 1");
    }
}
