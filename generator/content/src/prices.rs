//! Prices named in prose. A text names a row of the price list by its id,
//! `{{ cena.terapia-indywidualna }}`, and shows that row's price ("190 zł"), so that one change
//! in 'Cennik' reaches every page. A literal amount that is the price of exactly one row is
//! refused (the text would keep the old price); one that several rows share is a warning.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::model::{Content, PriceItem, PriceList};

/// What a price placeholder starts with: `{{ cena.<id> }}`.
pub const PREFIX: &str = "cena.";

/// A row's price as prose names it: "190 zł" (without "od": the sentence says it), or
/// "bezpłatnie" for the free row.
pub fn in_prose(item: &PriceItem) -> String {
    match item.price {
        0 => "bezpłatnie".to_string(),
        p => format!("{p}\u{a0}zł"),
    }
}

/// The placeholder that names `item`'s price.
pub fn placeholder(item: &PriceItem) -> String {
    format!("{{{{ {PREFIX}{} }}}}", item.id)
}

fn amount_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| crate::pattern::constant_regex(r"\b(\d{2,5})(?:[ \u{a0}])zł"))
}

/// A literal amount in złoty written in a text: its byte offset and the amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amount {
    pub offset: usize,
    pub amount: u32,
}

/// Every "190 zł" written in `text`.
pub fn amounts(text: &str) -> Vec<Amount> {
    amount_pattern()
        .captures_iter(text)
        .filter_map(|c| {
            let digits = c.get(1)?;
            Some(Amount {
                offset: digits.start(),
                amount: digits.as_str().parse().ok()?,
            })
        })
        .collect()
}

/// Whose price a literal amount is.
#[derive(Debug, Clone)]
pub enum Owner<'a> {
    /// The price of exactly one row: the text must name it by its placeholder.
    One(&'a PriceItem),
    /// The price of several rows: which one the text means only its author knows.
    Several(Vec<&'a PriceItem>),
}

/// The rows whose price is `amount` (never the free row: "0 zł" is not written).
pub fn owner(amount: u32, prices: &PriceList) -> Option<Owner<'_>> {
    let rows: Vec<&PriceItem> = prices
        .items
        .iter()
        .filter(|i| i.price == amount && amount > 0)
        .collect();
    match rows.as_slice() {
        [] => None,
        [one] => Some(Owner::One(one)),
        _ => Some(Owner::Several(rows)),
    }
}

/// A price placeholder in a text: its byte offset and the id it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub offset: usize,
    pub id: String,
}

/// Every `{{ cena.<id> }}` in `text`.
pub fn references(text: &str) -> Vec<Reference> {
    crate::named::named(text)
        .into_iter()
        .filter_map(|(offset, name)| {
            let id = name.strip_prefix(PREFIX)?;
            Some(Reference {
                offset,
                id: id.to_string(),
            })
        })
        .collect()
}

/// Where each row's price appears: by row id, the ids of the documents whose text names it
/// (each once, in the order of the site's documents).
pub fn uses(content: &Content) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (doc, texts) in content.texts() {
        let doc = doc.to_string();
        for reference in texts.iter().flat_map(|t| references(t)) {
            let docs = out.entry(reference.id).or_default();
            if !docs.contains(&doc) {
                docs.push(doc.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, price: u32) -> PriceItem {
        PriceItem {
            id: id.into(),
            name: id.into(),
            price,
            from: false,
            duration: "50 min".into(),
            link: "/".into(),
            note: None,
        }
    }

    #[test]
    fn amounts_are_found_with_a_space_or_a_non_breaking_one() {
        let found = amounts("Sesja 190 zł, para 250\u{a0}zł, razem 12 minut, 5 zł.");
        let values: Vec<u32> = found.iter().map(|a| a.amount).collect();
        assert_eq!(values, vec![190, 250]);
        assert_eq!(found[0].offset, "Sesja ".len());
    }

    #[test]
    fn an_amount_is_owned_by_one_row_or_shared() {
        let list = PriceList {
            items: vec![
                row("a", 190),
                row("b", 190),
                row("para", 250),
                row("telefon", 0),
            ],
        };
        assert!(matches!(owner(250, &list), Some(Owner::One(item)) if item.id == "para"));
        assert!(matches!(owner(190, &list), Some(Owner::Several(rows)) if rows.len() == 2));
        assert!(owner(690, &list).is_none());
        assert!(owner(0, &list).is_none(), "nobody writes 0 zł");
    }

    #[test]
    fn references_name_the_rows() {
        let found = references("Cena {{ cena.terapia-par }}, tel. {{ telefon }}, {{cena.x}}.");
        let ids: Vec<&str> = found.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["terapia-par", "x"]);
    }

    #[test]
    fn prose_says_the_amount_without_from() {
        let mut item = row("adhd", 500);
        item.from = true;
        assert_eq!(in_prose(&item), "500\u{a0}zł");
        assert_eq!(in_prose(&row("telefon", 0)), "bezpłatnie");
        assert_eq!(placeholder(&item), "{{ cena.adhd }}");
    }
}
