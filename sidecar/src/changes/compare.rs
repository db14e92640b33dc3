//! A version beside the file's text now, field by field as the panel names them ('Podtytuł',
//! 'Terapia par', 'Nagłówek bloga'), never by the keys of the file: only the fields that
//! differ, each with both texts for the panel's word-by-word comparison.

use serde::Serialize;
use serde_json::{Map, Value};

use super::message::{body_of, front_matter, label, mapping, Subject};

/// One field that differs between a version and the text now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Compared {
    pub label: String,
    pub version: String,
    pub current: String,
}

/// The fields of `subject` that differ between `version` and `current`, in the file's order.
pub(super) fn compare(subject: Subject<'_>, version: &str, current: &str) -> Vec<Compared> {
    let fields = match subject {
        Subject::Document(_) => document(version, current),
        Subject::Prices => prices(version, current),
        Subject::Facts | Subject::Words => keys(subject, &mapping(version), &mapping(current)),
    };
    fields
        .into_iter()
        .filter(|c| c.version != c.current)
        .collect()
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A value as the panel shows it: text as it is, a list one item to a line, a mapping as
/// 'label: value' lines.
fn shown(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(true)) => "tak".into(),
        Some(Value::Bool(false)) => "nie".into(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| shown(Some(i)))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| format!("{}: {}", label(k), shown(Some(v))))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Each top-level key of a YAML file, by its label (the site's words by their table's).
fn keys(
    subject: Subject<'_>,
    version: &Map<String, Value>,
    current: &Map<String, Value>,
) -> Vec<Compared> {
    let mut seen: Vec<&String> = Vec::new();
    for key in version.keys().chain(current.keys()) {
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.into_iter()
        .map(|key| {
            let name = match subject {
                Subject::Words => content::wording::TABLE
                    .iter()
                    .find(|w| w.key == key)
                    .map_or(key.as_str(), |w| w.label)
                    .to_string(),
                _ => capitalised(label(key)),
            };
            Compared {
                label: name,
                version: shown(version.get(key)),
                current: shown(current.get(key)),
            }
        })
        .collect()
}

/// A document's front-matter fields by their labels, then its text.
fn document(version: &str, current: &str) -> Vec<Compared> {
    let (before, after) = (
        front_matter(version).unwrap_or_default(),
        front_matter(current).unwrap_or_default(),
    );
    let mut out = keys(Subject::Facts, &before, &after);
    out.push(Compared {
        label: "Treść".into(),
        version: body_of(version).trim().to_string(),
        current: body_of(current).trim().to_string(),
    });
    out
}

/// Each row of the price list by its name: its price, time, service and note on lines.
fn prices(version: &str, current: &str) -> Vec<Compared> {
    let rows = |text: &str| -> Vec<(String, String)> {
        match mapping(text).remove("items") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|row| {
                    let name = row.get("name").and_then(Value::as_str).unwrap_or_default();
                    // In the order of the panel's row, not of the file's keys.
                    let lines: Vec<String> = ["price", "from", "duration", "link", "note"]
                        .iter()
                        .filter_map(|k| {
                            row.get(*k)
                                .map(|v| format!("{}: {}", label(k), shown(Some(v))))
                        })
                        .collect();
                    (name.to_string(), lines.join("\n"))
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let (before, after) = (rows(version), rows(current));
    let mut names: Vec<&String> = Vec::new();
    for (name, _) in before.iter().chain(after.iter()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let text_of = |list: &[(String, String)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    };
    names
        .into_iter()
        .map(|name| Compared {
            label: name.clone(),
            version: text_of(&before, name),
            current: text_of(&after, name),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_compared_by_the_panels_labels() {
        let id = content::DocId::parse("pages/home").expect("id");
        let version = "---\ntitle: \"Start\"\nprompt: \"Zadzwoń\"\n---\nTekst.\n";
        let current = "---\ntitle: \"Start\"\nprompt: \"Napisz\"\n---\nTekst.\n";
        let found = compare(Subject::Document(&id), version, current);
        assert_eq!(
            found,
            vec![Compared {
                label: "Zachęta do bezpłatnej konsultacji".into(),
                version: "Zadzwoń".into(),
                current: "Napisz".into(),
            }],
            "no YAML key, no unchanged field"
        );
    }

    #[test]
    fn a_price_row_is_compared_by_its_name() {
        let version = "items:\n  - id: \"par\"\n    name: \"Terapia par\"\n    price: 250\n    duration: \"90 min\"\n";
        let current = version.replace("250", "280");
        let found = compare(Subject::Prices, version, &current);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].label, "Terapia par");
        assert_eq!(found[0].version, "cena: 250\nczas: 90 min");
        assert_eq!(found[0].current, "cena: 280\nczas: 90 min");
    }
}
