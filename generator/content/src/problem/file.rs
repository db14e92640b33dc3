//! Problems of a file as a file: it cannot be read, it is not where it belongs, its name is
//! not an address, its front matter or YAML does not parse, a section holds too much.

use super::texts::{texts, Texts};
use crate::limits::{Excess, Found, MAX_NESTING, MAX_SECTION_BYTES};
use crate::yaml::{YamlError, YamlKind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    /// The file cannot be read (`error` is the system's reason).
    Unreadable {
        error: String,
    },
    /// The folder cannot be listed.
    Unlisted {
        error: String,
    },
    /// A file other than Markdown in a folder of documents.
    NotMarkdown,
    /// A file name that cannot be an address.
    NotASlug {
        slug: String,
    },
    /// A name under `content/` that is not a lowercase slug with one extension: names become
    /// addresses and attributes of pages.
    BadName {
        name: String,
    },
    NoFrontMatter,
    FrontMatterNotClosed,
    /// The front matter of a document does not parse into its fields.
    FrontMatter(YamlError),
    /// A YAML file (`site.yaml`, the price list) does not parse into its fields.
    Yaml(YamlError),
    /// A section longer than [`MAX_SECTION_BYTES`].
    SectionTooLong,
    /// Quotes, lists or HTML elements nested deeper than [`MAX_NESTING`].
    NestedTooDeep,
    /// An image file that cannot be decoded (or is larger than the site takes): it is left
    /// out of the site; a page that shows it is a [`super::DocumentProblem::ImageBroken`].
    ImageUnreadable {
        error: String,
    },
    /// A symbolic link: never followed, never published.
    SymbolicLink,
    /// A submodule (another repository inside this one).
    Submodule,
    /// A hidden name (starting with '.') inside `content/`.
    Hidden,
    /// `.gitattributes` or `.gitmodules`: settings that change how git checks files out.
    GitSettings,
    /// A file larger than the site takes of its kind.
    TooLarge {
        bytes: u64,
        limit: u64,
    },
    /// A line git writes around an unresolved conflict (`<<<<<<<`, `=======`, `>>>>>>>`):
    /// `file` is the file as a clone names it (`content/blog/x.md`).
    ConflictMarker {
        marker: &'static str,
        file: String,
    },
}

impl FileProblem {
    /// What a text holds too much of ([`crate::limits`]).
    pub fn excess(found: &Found) -> FileProblem {
        match found.excess {
            Excess::Size => FileProblem::SectionTooLong,
            Excess::Nesting => FileProblem::NestedTooDeep,
        }
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0)).replace('.', ",")
}

/// A key of `site.yaml` that would give the address of a script: the code's, never content's.
fn script_address_key(e: &YamlError) -> Option<&str> {
    match &e.kind {
        YamlKind::UnknownField(f)
            if crate::providers::SCRIPT_ADDRESS_KEYS.contains(&f.as_str()) =>
        {
            Some(f)
        }
        _ => None,
    }
}

/// The English of a YAML problem: the parser's words, but for a quote left open, which the
/// parser reports lines later in words that do not say so.
fn yaml_english(e: &YamlError) -> String {
    match e.kind {
        YamlKind::UnclosedQuote => format!(
            "a quote opened on this line is not closed on it (the parser says: {})",
            e.message
        ),
        _ => e.message.clone(),
    }
}

/// The Polish of a YAML problem, without where it is.
fn yaml_polish(e: &YamlError, whole: &str, fields: &str) -> String {
    match &e.kind {
        YamlKind::UnknownField(f) => format!("nieznane pole „{f}”{fields}."),
        YamlKind::MissingField(f) => format!("brak wymaganego pola „{f}”{fields}."),
        YamlKind::DuplicateField(f) => format!("pole „{f}” występuje{fields} dwa razy."),
        YamlKind::UnclosedQuote => format!("{whole}: cudzysłów otwarty w tym wierszu nie jest w nim zamknięty; dopisz go na końcu wartości."),
        YamlKind::Syntax(syntax) => format!("{whole}: {}.", syntax.polish()),
        YamlKind::WrongType { found, expected } => format!("{whole}: wartość to {found}, a powinna być {expected}."),
        YamlKind::Other => format!("{whole}: zapis nie jest poprawnym YAML-em; sprawdź wcięcia, dwukropki i cudzysłowy w tym wierszu."),
    }
}

impl FileProblem {
    pub(super) fn texts(&self) -> Texts {
        match self {
            FileProblem::Unreadable { error } => texts(
                format!("cannot read the file: {error}"),
                format!("nie udało się odczytać pliku ({error})."),
            ),
            FileProblem::Unlisted { error } => texts(
                format!("cannot list the folder: {error}"),
                format!("nie udało się odczytać zawartości folderu ({error})."),
            ),
            FileProblem::NotMarkdown => texts(
                "only Markdown files (.md) belong in this folder".into(),
                "w tym folderze mogą być tylko pliki Markdown (.md).".into(),
            ),
            FileProblem::NotASlug { slug } => texts(
                format!("the file name '{slug}' is not a slug: use lowercase letters, digits and '-'"),
                format!("nazwa pliku „{slug}” nie może być adresem: użyj małych liter bez polskich znaków, cyfr i myślników."),
            ),
            FileProblem::BadName { name } => texts(
                format!("the name '{name}' is not allowed under content/: use lowercase letters, digits, '-' and '_', with one extension (morze-o-swicie.jpg)"),
                format!("nazwa „{name}” jest niedozwolona w content/: używaj małych liter bez polskich znaków, cyfr, „-” i „_”, z jednym rozszerzeniem (np. morze-o-swicie.jpg)."),
            ),
            FileProblem::NoFrontMatter => texts(
                "the file must start with a front matter line '---'".into(),
                "plik musi zaczynać się wierszem „---”.".into(),
            ),
            FileProblem::FrontMatterNotClosed => texts(
                "the front matter is not closed: no second line '---'".into(),
                "ustawienia na początku pliku nie są zamknięte drugim wierszem „---”.".into(),
            ),
            FileProblem::FrontMatter(e) => texts(
                format!("front matter: {}", yaml_english(e)),
                yaml_polish(e, "ustawienia nie dają się odczytać", " w ustawieniach"),
            ),
            FileProblem::Yaml(e) => texts(
                match script_address_key(e) {
                    Some(f) => format!("{f}: the address of a script is not content: the operator sets which hosts may run scripts on the site, in the code; site.yaml names only a provider and an id"),
                    None => yaml_english(e),
                },
                match script_address_key(e) {
                    Some(f) => format!("pole „{f}” nie należy do treści: z jakich serwerów strona ładuje skrypty (kalendarz, wyróżnienie, widżet rozmowy, statystyki), ustala operator serwera w kodzie strony. W site.yaml podaj tylko dostawcę (provider) i identyfikator (id)."),
                    None => yaml_polish(e, "plik nie daje się odczytać", ""),
                },
            ),
            FileProblem::SectionTooLong => texts(
                format!(
                    "this section is longer than {} KiB: split it into several sections",
                    MAX_SECTION_BYTES / 1024
                ),
                format!(
                    "tekst jest dłuższy niż {} KiB. Podziel go na kilka sekcji.",
                    MAX_SECTION_BYTES / 1024
                ),
            ),
            FileProblem::NestedTooDeep => texts(
                format!("quotes ('>'), lists or HTML elements are nested more than {MAX_NESTING} levels deep here"),
                format!("cytaty („>”), listy lub znaczniki HTML są zagnieżdżone głębiej niż na {MAX_NESTING} poziomów. Spłaszcz ten fragment."),
            ),
            FileProblem::ImageUnreadable { error } => texts(
                format!("cannot read the image: {error}; it is left out of the site, and no page may show it"),
                format!("nie udało się odczytać obrazu ({error}); nie trafi na stronę i żadna strona nie może go pokazać."),
            ),
            FileProblem::SymbolicLink => texts(
                "a symbolic link: the site never follows links in its content; put the file itself here".into(),
                "to dowiązanie symboliczne (symlink): strona nigdy nie odczytuje dowiązań w treści. Zapisz tu sam plik.".into(),
            ),
            FileProblem::Submodule => texts(
                "a submodule: the content cannot hold another repository".into(),
                "to submoduł (inne repozytorium): treść strony nie może go zawierać.".into(),
            ),
            FileProblem::Hidden => texts(
                "a hidden name (starting with '.'): content/ holds no hidden files".into(),
                "ukryta nazwa (zaczyna się od kropki): w content/ nie może być ukrytych plików ani folderów.".into(),
            ),
            FileProblem::GitSettings => texts(
                "git settings (.gitattributes, .gitmodules) change how files are checked out: the content's repository takes none".into(),
                "ustawienia gita (.gitattributes, .gitmodules) zmieniają sposób zapisu plików: repozytorium treści ich nie przyjmuje.".into(),
            ),
            FileProblem::TooLarge { bytes, limit } => texts(
                format!("the file has {bytes} bytes, more than the {limit} bytes a file of its kind may have"),
                format!("plik ma {} MiB, a plik tego rodzaju może mieć najwyżej {} MiB.", mib(*bytes), mib(*limit)),
            ),
            FileProblem::ConflictMarker { marker, file } => texts(
                format!("an unresolved git conflict (a line starting with '{marker}'): keep the right text, delete the lines '<<<<<<<', '=======' and '>>>>>>>', then run `git add {file}` and `git commit`"),
                format!("nierozwiązany konflikt gita (wiersz zaczyna się od „{marker}”): zostaw właściwy tekst, usuń wiersze „<<<<<<<”, „=======” i „>>>>>>>”, a potem wpisz git add {file} i git commit."),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    fn yaml(kind: YamlKind, message: &str) -> YamlError {
        YamlError {
            line: Some(2),
            message: message.into(),
            kind,
        }
    }

    #[test]
    fn front_matter_problems_name_the_field_in_both_languages() {
        let unknown = Problem::from(FileProblem::FrontMatter(yaml(
            YamlKind::UnknownField("autor".into()),
            "unknown field `autor`, expected one of `title`, `description`",
        )));
        assert_eq!(
            unknown.english(),
            "front matter: unknown field `autor`, expected one of `title`, `description`"
        );
        assert_eq!(unknown.polish(), "nieznane pole „autor” w ustawieniach.");
        let missing = FileProblem::FrontMatter(yaml(
            YamlKind::MissingField("title".into()),
            "missing field `title`",
        ));
        assert_eq!(
            Problem::from(missing).polish(),
            "brak wymaganego pola „title” w ustawieniach."
        );
        let twice = FileProblem::Yaml(yaml(
            YamlKind::DuplicateField("phone".into()),
            "duplicate field `phone`",
        ));
        assert_eq!(
            Problem::from(twice).polish(),
            "pole „phone” występuje dwa razy."
        );
    }

    #[test]
    fn yaml_mistakes_are_said_in_polish_at_the_line_they_are_on() {
        use crate::yaml::parse;
        let polish = |text: &str| {
            let e = parse::<serde_json::Value>(text).expect_err("a mistake");
            let line = e.line;
            (line, Problem::from(FileProblem::FrontMatter(e)).polish())
        };
        let (line, said) =
            polish("title: \"Sen a nastrój\ndescription: \"Opis\"\ndate: \"2025-01-01\"\n");
        assert_eq!(line, Some(1), "{said}");
        assert!(said.contains("cudzysłów otwarty w tym wierszu"), "{said}");
        let (line, _) = polish("title: 'Sen a nastrój\n");
        assert_eq!(line, Some(1));
        let (line, said) = polish("title: Terapia: jak działa\n");
        assert_eq!(line, Some(1));
        assert!(said.contains("dwukropek ze spacją"), "{said}");
        let (line, said) = polish("items:\n  - a\n - b\n");
        assert_eq!(line, Some(3));
        assert!(said.contains("wcięcie"), "{said}");
        let (_, said) = polish("title:\n\t- a\n");
        assert!(said.contains("tabulator"), "{said}");
        let (_, said) = polish("title: \"a \\q\"\n");
        assert!(said.contains("ukośnik"), "{said}");
        let (_, said) = polish("tags: [a, b\n");
        assert!(said.contains("„]”"), "{said}");
        // Quotes closed on their lines, and apostrophes doubled inside apostrophes, are
        // fine: the mistake is the one the parser names, where it names it.
        let (line, said) = polish("title: 'Jak to ''działa'''\nopis: \"a \\\" b\"\n - b\n");
        assert_eq!(line, Some(3), "{said}");
        for text in [
            "title: \"Sen\ndescription: \"Opis\"\n",
            "title: a: b\n",
            "items:\n  - a\n - b\n",
        ] {
            let (_, said) = polish(text);
            for english in ["did not", "found", "expected", "mapping"] {
                assert!(!said.contains(english), "{english}: {said}");
            }
        }
        let wrong: Result<Vec<String>, _> = parse("title: a\n");
        let said = Problem::from(FileProblem::Yaml(wrong.expect_err("not a list"))).polish();
        assert!(said.contains("wartość to zestaw pól"), "{said}");
        assert!(said.contains("powinna być lista"), "{said}");
    }

    #[test]
    fn a_section_problem_says_which_section_and_line() {
        let p = Problem::from(FileProblem::NestedTooDeep).in_section(2, Some(3));
        assert!(
            p.sentence()
                .starts_with("Sekcja 2, wiersz 3: cytaty („>”), listy lub znaczniki HTML"),
            "{}",
            p.sentence()
        );
        assert!(p.english().starts_with("section 2, line 3: quotes"));
        let long = Problem::from(FileProblem::SectionTooLong).in_section(2, None);
        assert!(long
            .sentence()
            .starts_with("Sekcja 2: tekst jest dłuższy niż 128 KiB"));
    }
}
