//! What a panel commit says it changed, in the words an editor reads in `git log`: the
//! page's name and what of it changed ('Blog: podtytuł, treść (akapit 2)'), a price with its
//! old and new amount ('Cennik: Terapia indywidualna 190 → 200 zł'), the facts' settings,
//! the site's words by their labels. The files are read with the content's one YAML reader.

use serde_json::{Map, Value};

use content::DocId;

use crate::db::Action;

/// The file a change is of, as its message names it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Subject<'a> {
    Prices,
    Facts,
    Words,
    Document(&'a DocId),
}

/// The commit message of `action` on `subject`, from `previous` to `saved`: the file's name,
/// then [`summary`] (or `summary_given`, a restore's own words).
pub(super) fn describe(
    subject: Subject<'_>,
    action: Action,
    (previous, saved): (&str, &str),
    summary_given: Option<&str>,
) -> String {
    let name = name(subject, if saved.is_empty() { previous } else { saved });
    match (action, summary_given) {
        (_, Some(what)) => format!("{name}: {what}"),
        (Action::Create, None) => format!("Nowy dokument: {name}"),
        (Action::Delete, None) => format!("Usunięcie: {name}"),
        (_, None) => format!("{name}: {}", summary(subject, action, previous, saved)),
    }
}

/// What `action` changed, in the history's words (without the file's name): 'Terapia
/// indywidualna 190 → 200 zł', 'podtytuł, treść (akapit 2)'.
pub(super) fn summary(subject: Subject<'_>, action: Action, previous: &str, saved: &str) -> String {
    match action {
        Action::Create => "utworzenie".into(),
        Action::Delete => "usunięcie".into(),
        Action::Restore => "przywrócenie wcześniejszej wersji".into(),
        Action::Save => {
            let what = match subject {
                Subject::Prices => prices(previous, saved),
                Subject::Facts => facts(previous, saved),
                Subject::Words => words(previous, saved),
                Subject::Document(_) => document(previous, saved),
            };
            match what.is_empty() {
                true => "zapis bez zmian w treści".into(),
                false => what.join(", "),
            }
        }
    }
}

/// How the panel names the file: the price list, the facts, a document by its title.
fn name(subject: Subject<'_>, text: &str) -> String {
    match subject {
        Subject::Prices => "Cennik".into(),
        Subject::Facts => "Dane gabinetu".into(),
        Subject::Words => "Napisy".into(),
        Subject::Document(id) => front_matter(text)
            .and_then(|fm| fm.get("title").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| id.to_string()),
    }
}

/// A YAML mapping's keys and values (empty when it is none).
pub(super) fn mapping(yaml: &str) -> Map<String, Value> {
    match content::yaml::parse::<Value>(yaml) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

pub(super) fn front_matter(text: &str) -> Option<Map<String, Value>> {
    let split = content::frontmatter::split(text).ok()?;
    Some(mapping(split.yaml))
}

/// The label the panel gives a front-matter field, or its own name.
pub(super) fn label(key: &str) -> &str {
    match key {
        "title" => "tytuł",
        "seo_title" => "tytuł w wyszukiwarce",
        "description" => "opis",
        "excerpt" => "zajawka",
        "heading" => "nagłówek",
        "subtitle" => "podtytuł",
        "prompt" => "zachęta do bezpłatnej konsultacji",
        "intro" => "wstęp",
        "card_title" => "tytuł na karcie usługi",
        "card_description" => "opis na karcie usługi",
        "button_label" => "napis na przycisku rezerwacji",
        "date" => "data",
        "image" => "obraz",
        "image_alt" => "opis obrazu",
        "image_focus" => "kadr obrazu",
        "author" => "autor",
        "published" => "opublikowany",
        "featured" => "na stronie głównej",
        "listed" => "na liście",
        "aliases" => "dawne adresy",
        "name" => "nazwa",
        "role" => "rola",
        "photo" => "zdjęcie",
        "photo_alt" => "opis zdjęcia",
        "price" => "cena",
        "from" => "cena od",
        "duration" => "czas",
        "link" => "usługa",
        "note" => "uwaga",
        "phone" => "telefon",
        "email" => "e-mail",
        "address" => "adres",
        "registered_address" => "adres siedziby",
        "opening_hours" => "godziny otwarcia",
        "booking" => "rezerwacje",
        "notice" => "komunikat",
        "social" => "profile w mediach społecznościowych",
        "url" => "adres",
        "legal_name" => "nazwa firmy",
        "nip" => "NIP",
        "regon" => "REGON",
        "draft" => "szkic",
        other => other,
    }
}

/// The front-matter fields that differ, then where the body does.
fn document(previous: &str, saved: &str) -> Vec<String> {
    let (before, after) = (
        front_matter(previous).unwrap_or_default(),
        front_matter(saved).unwrap_or_default(),
    );
    let mut keys: Vec<&String> = after.keys().chain(before.keys()).collect();
    keys.dedup();
    let mut what: Vec<String> = Vec::new();
    for key in keys {
        let label = label(key).to_string();
        if before.get(key) != after.get(key) && !what.contains(&label) {
            what.push(label);
        }
    }
    what.extend(body(previous, saved));
    what
}

pub(super) fn body_of(text: &str) -> &str {
    content::frontmatter::split(text).map_or(text, |s| s.body)
}

/// Where the body changed: the section (its heading) or the paragraph.
fn body(previous: &str, saved: &str) -> Option<String> {
    let paragraphs = |text: &str| -> Vec<String> {
        body_of(text)
            .split("\n\n")
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (before, after) = (paragraphs(previous), paragraphs(saved));
    if before == after {
        return None;
    }
    let changed: Vec<usize> = (0..before.len().max(after.len()))
        .filter(|&i| before.get(i) != after.get(i))
        .collect();
    let first = *changed.first()?;
    let heading = after[..first.min(after.len())].iter().rev().find_map(|p| {
        p.strip_prefix('#')
            .map(|h| h.trim_start_matches('#').trim().to_string())
    });
    Some(match (heading, changed.len()) {
        (Some(h), _) => format!("treść (sekcja „{h}”)"),
        (None, 1) => format!("treść (akapit {})", first + 1),
        (None, _) => "treść".to_string(),
    })
}

/// Each row of the price list that changed: a new amount, a row added or removed, another
/// field of a row.
fn prices(previous: &str, saved: &str) -> Vec<String> {
    let items = |text: &str| -> Vec<Map<String, Value>> {
        match mapping(text).remove("items") {
            Some(Value::Array(rows)) => rows
                .into_iter()
                .filter_map(|row| match row {
                    Value::Object(row) => Some(row),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let row_name = |row: &Map<String, Value>| {
        row.get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let amount = |row: &Map<String, Value>| match row.get("price") {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => "?".into(),
    };
    let (before, after) = (items(previous), items(saved));
    let mut what = Vec::new();
    for row in &after {
        let name = row_name(row);
        match before.iter().find(|b| row_name(b) == name) {
            None => what.push(format!("nowa pozycja {name} ({} zł)", amount(row))),
            Some(old) if old.get("price") != row.get("price") => {
                what.push(format!("{name} {} → {} zł", amount(old), amount(row)));
            }
            Some(old) if old != row => {
                let mut fields: Vec<&str> = Vec::new();
                let keys = row.keys().chain(old.keys()).map(String::as_str);
                for key in keys.filter(|k| old.get(*k) != row.get(*k)) {
                    if !fields.contains(&label(key)) {
                        fields.push(label(key));
                    }
                }
                what.push(format!("{name} ({})", fields.join(", ")));
            }
            Some(_) => {}
        }
    }
    for row in before
        .iter()
        .filter(|b| !after.iter().any(|a| row_name(a) == row_name(b)))
    {
        what.push(format!("usunięta pozycja {}", row_name(row)));
    }
    if what.is_empty() && previous != saved {
        what.push("kolejność lub opis pozycji".into());
    }
    what
}

/// The facts as 'Dane gabinetu' names them, by their path in `site.yaml` (a path names what
/// is under it too; the longest that fits a change wins).
const FACT_LABELS: [(&str, &str); 19] = [
    ("phone", "telefon"),
    ("email", "e-mail"),
    ("address", "adres gabinetu"),
    ("address.street", "ulica i numer"),
    ("address.postal_code", "kod pocztowy"),
    ("address.city", "miejscowość"),
    ("opening_hours", "godziny pracy"),
    ("booking", "rezerwacje"),
    ("booking.practice", "strona rezerwacji gabinetu"),
    ("booking.therapists", "strony rezerwacji terapeutów"),
    ("notice", "komunikat na każdej stronie"),
    ("description", "opis gabinetu"),
    ("social", "profile w mediach społecznościowych"),
    ("legal_name", "pełna nazwa przedsiębiorcy"),
    ("nip", "NIP"),
    ("regon", "REGON"),
    ("registered_address", "siedziba (z CEIDG)"),
    ("data_protection_contact", "adres do spraw danych osobowych"),
    ("example_data", "oznaczenie danych przykładowych"),
];

/// The label of the changed field at `path` ("address.city"): the form's, or else the
/// panel's word for its last key.
fn fact_label(path: &str) -> String {
    let fits = |prefix: &str| path == prefix || path.starts_with(&format!("{prefix}."));
    FACT_LABELS
        .iter()
        .filter(|(prefix, _)| fits(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map_or_else(
            || label(path.rsplit('.').next().unwrap_or(path)).to_string(),
            |(_, label)| label.to_string(),
        )
}

/// The paths of the values that differ between two mappings, down to the first level where
/// one of them is not a mapping.
fn changed_paths(
    before: &Map<String, Value>,
    after: &Map<String, Value>,
    at: &str,
    out: &mut Vec<String>,
) {
    let mut keys: Vec<&String> = after.keys().chain(before.keys()).collect();
    keys.dedup();
    for key in keys {
        let path = match at {
            "" => key.clone(),
            _ => format!("{at}.{key}"),
        };
        match (before.get(key), after.get(key)) {
            (Some(Value::Object(b)), Some(Value::Object(a))) => changed_paths(b, a, &path, out),
            (b, a) if b != a => out.push(path),
            _ => {}
        }
    }
}

/// The facts' settings that changed, by the labels of 'Dane gabinetu'.
fn facts(previous: &str, saved: &str) -> Vec<String> {
    let mut paths = Vec::new();
    changed_paths(&mapping(previous), &mapping(saved), "", &mut paths);
    let mut what: Vec<String> = Vec::new();
    for label in paths.iter().map(|p| fact_label(p)) {
        if !what.contains(&label) {
            what.push(label);
        }
    }
    what
}

/// The site's words that changed, by their labels in the panel.
fn words(previous: &str, saved: &str) -> Vec<String> {
    changed_keys(previous, saved)
        .into_iter()
        .map(|key| {
            let found = content::wording::TABLE.iter().find(|w| w.key == key);
            found.map_or(key, |w| w.label.to_lowercase())
        })
        .collect()
}

/// The top-level keys whose values differ, each once.
fn changed_keys(previous: &str, saved: &str) -> Vec<String> {
    let (before, after) = (mapping(previous), mapping(saved));
    let mut what: Vec<String> = Vec::new();
    for key in after.keys().chain(before.keys()) {
        if before.get(key) != after.get(key) && !what.contains(key) {
            what.push(key.clone());
        }
    }
    what
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRICES: &str = "items:\n  - name: \"Terapia indywidualna\"\n    price: 190\n    duration: \"50 min\"\n  - name: \"Coaching ADHD\"\n    price: 190\n    duration: \"50 min\"\n";

    #[test]
    fn a_change_of_the_facts_is_named_by_the_forms_labels_never_by_its_keys() {
        let site = "phone: \"+48 58 345 21 90\"\naddress:\n  street: \"al. Grunwaldzka 82/4\"\n  city: \"Gdańsk\"\nbooking:\n  practice: \"https://a\"\n  therapists:\n    magda:\n      url: \"https://b\"\n";
        let saved = site
            .replace("345 21 90", "345 21 91")
            .replace("Gdańsk", "Sopot")
            .replace("https://b", "https://c");
        let said = describe(Subject::Facts, Action::Save, (site, &saved), None);
        assert_eq!(
            said,
            "Dane gabinetu: miejscowość, strony rezerwacji terapeutów, telefon"
        );
        for key in ["phone", "city", "booking", "therapists"] {
            assert!(!said.contains(key), "{said}");
        }
    }

    #[test]
    fn a_price_says_its_old_and_new_amount() {
        let saved = PRICES.replacen("price: 190", "price: 200", 1);
        assert_eq!(
            describe(Subject::Prices, Action::Save, (PRICES, &saved), None),
            "Cennik: Terapia indywidualna 190 → 200 zł"
        );
        let longer = saved.replacen(
            "duration: \"50 min\"\n  - name: \"Coaching",
            "duration: \"60 min\"\n  - name: \"Coaching",
            1,
        );
        assert_eq!(
            describe(Subject::Prices, Action::Save, (&saved, &longer), None),
            "Cennik: Terapia indywidualna (czas)"
        );
        let fewer =
            "items:\n  - name: \"Coaching ADHD\"\n    price: 190\n    duration: \"50 min\"\n";
        assert_eq!(
            describe(Subject::Prices, Action::Save, (PRICES, fewer), None),
            "Cennik: usunięta pozycja Terapia indywidualna"
        );
    }

    #[test]
    fn a_page_says_its_title_and_what_of_it_changed() {
        let id = content::DocId::parse("pages/o-mnie").expect("id");
        let before = "---\ntitle: \"O mnie\"\nsubtitle: \"Stary\"\n---\nPierwszy akapit.\n\nDrugi akapit.\n\n## Jak pracuję\n\nTrzeci akapit.\n";
        let subtitle = before.replace("Stary", "Nowy");
        assert_eq!(
            describe(
                Subject::Document(&id),
                Action::Save,
                (before, &subtitle),
                None
            ),
            "O mnie: podtytuł"
        );
        let second = before.replace("Drugi akapit.", "Drugi akapit, poprawiony.");
        assert_eq!(
            describe(
                Subject::Document(&id),
                Action::Save,
                (before, &second),
                None
            ),
            "O mnie: treść (akapit 2)"
        );
        let third = before.replace("Trzeci akapit.", "Trzeci, inaczej.");
        assert_eq!(
            describe(Subject::Document(&id), Action::Save, (before, &third), None),
            "O mnie: treść (sekcja „Jak pracuję”)"
        );
        assert_eq!(
            describe(Subject::Document(&id), Action::Delete, (before, ""), None),
            "Usunięcie: O mnie"
        );
        assert_eq!(
            describe(Subject::Document(&id), Action::Create, ("", before), None),
            "Nowy dokument: O mnie"
        );
    }

    #[test]
    fn the_facts_say_which_settings_changed() {
        assert_eq!(
            describe(
                Subject::Facts,
                Action::Save,
                (
                    "phone: \"+48 1\"\nemail: \"a@b.pl\"\n",
                    "phone: \"+48 2\"\nemail: \"a@b.pl\"\n"
                ),
                None
            ),
            "Dane gabinetu: telefon"
        );
    }

    #[test]
    fn the_words_say_which_texts_changed_by_their_labels() {
        assert_eq!(
            describe(
                Subject::Words,
                Action::Save,
                (
                    "home_blog_heading: \"Z naszego bloga\"\ncard_more: \"Więcej\"\n",
                    "home_blog_heading: \"Blog\"\ncard_more: \"Więcej\"\n"
                ),
                None
            ),
            "Napisy: nagłówek bloga"
        );
    }
}
