//! The content checks speak English (`make check` is read by developers and editors of the
//! files); the panel speaks Polish. The common problems are translated here, one pattern per
//! message the checks write, with where the problem is (a section, the settings, another
//! page); anything not translated is shown in English after a Polish sentence that says so.

use regex::Regex;
use std::path::Path;
use std::sync::OnceLock;

use crate::error::Diagnostic;
use crate::kind::Kind;
use crate::{frontmatter, sections};

/// English pattern → Polish text (`$1`, `$2` are the pattern's groups).
const TRANSLATIONS: &[(&str, &str)] = &[
    (
        r"^the link '(.*)' leads to no page of this site$",
        "link „$1” prowadzi do strony, której nie ma w serwisie.",
    ),
    (
        r"^the link '(.*)' must be a full address or start with '/'$",
        "link „$1” musi być pełnym adresem (https://…) albo zaczynać się od „/”.",
    ),
    (
        r"^the link '(.*)' leads to the article (.*), which is not published$",
        "link „$1” prowadzi do artykułu $2, który nie jest opublikowany (jest wycofany albo zaplanowany na później).",
    ),
    (
        r"^the image '(.*)' is not a file under content/images/$",
        "obrazu „$1” nie ma wśród obrazów strony (content/images/).",
    ),
    (
        r"^(\w+) '(.*)' is neither a full address, a 'photo-…' id nor a file under content/images/$",
        "obrazu „$2” (pole $1) nie ma wśród obrazów strony; wybierz przesłany obraz albo podaj pełny adres.",
    ),
    (
        r"^date: '(.*)' is not a date in the form .*$",
        "data „$1” nie istnieje albo nie ma postaci RRRR-MM-DD (lub RRRR-MM-DD GG:MM).",
    ),
    (
        r"^front matter: unknown field `(\w+)`.*$",
        "nieznane pole „$1” w ustawieniach.",
    ),
    (
        r"^front matter: missing field `(\w+)`.*$",
        "brak wymaganego pola „$1” w ustawieniach.",
    ),
    (
        r"^front matter: duplicate field `(\w+)`.*$",
        "pole „$1” występuje w ustawieniach dwa razy.",
    ),
    (
        r"^front matter: (.*)$",
        "ustawienia nie dają się odczytać ($1).",
    ),
    (
        r"^'\{\{ (\w+) \}\}' is not a fact of site\.yaml; known: (.*)$",
        "„{{ $1 }}” nie jest znaną daną gabinetu; znane: $2.",
    ),
    (
        r"^the question '(.*)' must end with '\?' \(STYLE\.md\)$",
        "pytanie „$1” musi kończyć się znakiem zapytania (zasady stylu).",
    ),
    (
        r"^'(.*)': put a space between a number and its unit \(STYLE\.md\)$",
        "„$1”: między liczbą a jednostką potrzebna jest spacja (zasady stylu).",
    ),
    (
        r"^write prices in 'zł', not 'PLN' \(STYLE\.md\)$",
        "ceny piszemy w „zł”, nie „PLN” (zasady stylu).",
    ),
    (
        r"^where 800 70 2222 or 116 111 is given, give the adults' line 116 123 too \(STYLE\.md\)$",
        "gdzie podano 800 70 2222 lub 116 111, trzeba podać też telefon zaufania dla dorosłych 116 123 (zasady stylu).",
    ),
    (
        r"^where violence is mentioned, give the Blue Line 800 120 002 \(STYLE\.md\)$",
        "gdzie mowa o przemocy, trzeba podać Niebieską Linię 800 120 002 (zasady stylu).",
    ),
    (
        r"^write \{\{ adres \}\} instead of the street.*$",
        "zamiast adresu ulicy wpisz {{ adres }}, aby adres był w jednym miejscu (zasady stylu).",
    ),
    (
        r"^'(.*)': the site says 'pacjent' \(STYLE\.md\)$",
        "„$1”: na stronie piszemy „pacjent” (zasady stylu).",
    ),
    (
        r"^therapist '(.*)' is not a file under content/team/$",
        "terapeuty „$1” nie ma w zespole.",
    ),
    (
        r"^duplicate slug '(.*)': .*$",
        "adres „$1” jest już zajęty przez inny plik.",
    ),
    (
        r"^the file must start with a front matter line '---'$",
        "plik musi zaczynać się wierszem „---”.",
    ),
    (
        r"^the front matter is not closed: no second line '---'$",
        "ustawienia na początku pliku nie są zamknięte drugim wierszem „---”.",
    ),
    (
        r"^template: there is no templates/(.*)\.html$",
        "nie ma szablonu „$1”.",
    ),
];

fn compiled() -> &'static [(Regex, &'static str)] {
    static ALL: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    ALL.get_or_init(|| {
        TRANSLATIONS
            .iter()
            .map(|(p, t)| (Regex::new(p).expect("valid pattern"), *t))
            .collect()
    })
}

/// The Polish text of an English check message, if it has one.
pub(crate) fn translate(message: &str) -> Option<String> {
    compiled().iter().find_map(|(re, text)| {
        let caps = re.captures(message)?;
        let mut out = String::new();
        caps.expand(text, &mut out);
        Some(out)
    })
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Where in a document a 1-based file line is: `None` in the front matter, else the 1-based
/// section.
pub(crate) fn section_at(text: &str, line: usize) -> Option<usize> {
    let split = frontmatter::split(text).ok()?;
    if line < split.body_line {
        return None;
    }
    let before: String = split
        .body
        .lines()
        .take(line - split.body_line + 1)
        .map(|l| format!("{l}\n"))
        .collect();
    Some(sections::parse(&before).sections.len().max(1))
}

impl Diagnostic {
    /// The problem in Polish, with where it is: in `edited` (the document being saved, whose
    /// new text is `edited_text`) as its section or its settings, elsewhere by the file.
    pub fn polish(&self, content_dir: &Path, edited: Option<(&Path, &str)>) -> String {
        let what = match translate(&self.message) {
            Some(t) => t,
            None => format!(
                "treść nie przeszła sprawdzenia (komunikat techniczny: {}).",
                self.message
            ),
        };
        let text_of = |path: &Path| -> Option<String> {
            match edited {
                Some((p, text)) if p == path => Some(text.to_string()),
                _ => std::fs::read_to_string(path).ok(),
            }
        };
        let place = |text: Option<String>| match text.and_then(|t| {
            frontmatter::split(&t).ok()?;
            Some(section_at(&t, self.line))
        }) {
            Some(Some(n)) => format!("sekcja {n}"),
            Some(None) => "ustawienia".to_string(),
            None => format!("wiersz {}", self.line),
        };
        let relative = self.file.strip_prefix(content_dir).unwrap_or(&self.file);
        let name = relative.to_string_lossy();
        let is_edited = edited.is_some_and(|(p, _)| p == self.file);
        let location = if is_edited {
            capitalised(&place(text_of(&self.file)))
        } else if name == "site.yaml" {
            "Dane gabinetu (site.yaml)".to_string()
        } else if name == "cennik.yaml" {
            "Cennik".to_string()
        } else {
            let folder = relative
                .parent()
                .and_then(|p| p.to_str())
                .and_then(Kind::from_folder);
            let slug = name.trim_end_matches(".md");
            let label = folder.map_or("Plik", Kind::label);
            format!("{label} {slug}, {}", place(text_of(&self.file)))
        };
        format!("{location}: {what}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_messages_are_translated() {
        for (english, polish) in [
            (
                "the link '/nie-ma' leads to no page of this site",
                "link „/nie-ma” prowadzi do strony, której nie ma w serwisie.",
            ),
            (
                "date: '2025-02-30' is not a date in the form YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]",
                "data „2025-02-30” nie istnieje albo nie ma postaci RRRR-MM-DD (lub RRRR-MM-DD GG:MM).",
            ),
            (
                "front matter: unknown field `autor`, expected one of `title`, `description`",
                "nieznane pole „autor” w ustawieniach.",
            ),
            (
                "'190zł': put a space between a number and its unit (STYLE.md)",
                "„190zł”: między liczbą a jednostką potrzebna jest spacja (zasady stylu).",
            ),
            (
                "the question 'Jak zacząć' must end with '?' (STYLE.md)",
                "pytanie „Jak zacząć” musi kończyć się znakiem zapytania (zasady stylu).",
            ),
        ] {
            assert_eq!(translate(english).as_deref(), Some(polish), "{english}");
        }
        assert_eq!(translate("something new"), None);
    }

    #[test]
    fn lines_are_placed_in_sections_or_the_settings() {
        let text =
            "---\ntitle: a\n---\nA\n\n<!-- section: callout -->\nB\n<!-- section: text -->\nC\n";
        assert_eq!(section_at(text, 2), None);
        assert_eq!(section_at(text, 4), Some(1));
        assert_eq!(section_at(text, 7), Some(2));
        assert_eq!(section_at(text, 9), Some(3));
        let d = Diagnostic::new(
            Path::new("/c/blog/a.md"),
            7,
            "'5zł': put a space between a number and its unit (STYLE.md)",
        );
        assert_eq!(
            d.polish(Path::new("/c"), Some((Path::new("/c/blog/a.md"), text))),
            "Sekcja 2: „5zł”: między liczbą a jednostką potrzebna jest spacja (zasady stylu)."
        );
        assert!(d
            .polish(Path::new("/c"), None)
            .starts_with("Artykuł blog/a, wiersz 7: "));
    }
}
