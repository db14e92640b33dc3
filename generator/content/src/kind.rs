//! What kind of document a file is, and its id: computed once when the file is loaded, so
//! that a route, a folder or a template is never built by hand anywhere else.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The kinds of Markdown documents under `content/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Page,
    Service,
    Article,
    Team,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Page, Kind::Service, Kind::Article, Kind::Team];
    /// The kinds the admin panel edits, in the order of its tab groups.
    pub const EDITABLE: [Kind; 3] = [Kind::Page, Kind::Service, Kind::Article];

    /// The folder under `content/`.
    pub fn folder(self) -> &'static str {
        match self {
            Kind::Page => "pages",
            Kind::Service => "services",
            Kind::Article => "blog",
            Kind::Team => "team",
        }
    }

    pub fn from_folder(folder: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.folder() == folder)
    }

    /// The public address of a document of this kind; team profiles have none of their own.
    pub fn route(self, slug: &str) -> Option<String> {
        match self {
            Kind::Page if slug == "home" => Some("/".into()),
            Kind::Page => Some(format!("/{slug}")),
            Kind::Service => Some(format!("/uslugi/{slug}")),
            Kind::Article => Some(format!("/blog/{slug}")),
            Kind::Team => None,
        }
    }

    /// The template of its documents (a page names its own, `page` by default).
    pub fn template(self) -> &'static str {
        match self {
            Kind::Page => "page",
            Kind::Service => "service",
            Kind::Article => "article",
            Kind::Team => "about",
        }
    }

    /// One document of this kind, in Polish.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Page => "Strona",
            Kind::Service => "Usługa",
            Kind::Article => "Artykuł",
            Kind::Team => "Terapeuta",
        }
    }

    /// All documents of this kind, in Polish (the panel's tab groups).
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Page => "Strony",
            Kind::Service => "Usługi",
            Kind::Article => "Artykuły",
            Kind::Team => "Zespół",
        }
    }
}

/// A file name that can be part of an address: lowercase letters, digits and '-'.
pub fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Notes for editors that `content/` holds under these names and never publishes.
pub const NOTES: [&str; 2] = ["README.md", "STYLE.md"];

/// A name a file or folder under `content/` may have: a lowercase slug
/// (`[a-z0-9][a-z0-9_-]*`) and, for a file, one extension of lowercase letters and digits.
/// Names end up in addresses and in the attributes of pages, so nothing else is taken.
pub fn is_content_name(name: &str) -> bool {
    let stem_ok = |stem: &str| {
        stem.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && stem
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
    };
    match name.split_once('.') {
        None => stem_ok(name),
        Some((stem, ext)) => {
            stem_ok(stem)
                && !ext.is_empty()
                && ext
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        }
    }
}

/// Whether `content/` may hold a file (or, `is_dir`, a folder) of this name: a file's is
/// [`is_content_name`] or one of the editors' [`NOTES`], a folder's a slug without a dot.
pub fn allowed_name(name: &str, is_dir: bool) -> bool {
    match is_dir {
        true => is_content_name(name) && !name.contains('.'),
        false => is_content_name(name) || NOTES.contains(&name),
    }
}

/// The first part of `relative` (a path under `content/`, '/'-separated) whose name
/// [`allowed_name`] refuses.
pub fn bad_content_name(relative: &str) -> Option<&str> {
    let mut parts = relative.split('/').peekable();
    while let Some(part) = parts.next() {
        if !allowed_name(part, parts.peek().is_some()) {
            return Some(part);
        }
    }
    None
}

/// The longest slug [`slugify`] proposes.
pub const SLUG_MAX_CHARS: usize = 60;

/// A slug proposed for a title: lowercase, Polish (and other Latin) letters folded to ASCII,
/// every run of other characters one '-', at most [`SLUG_MAX_CHARS`] characters, cut at a
/// word. 'Jak radzić sobie z lękiem?' becomes 'jak-radzic-sobie-z-lekiem'.
pub fn slugify(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        let folded: &str = match c {
            'ą' | 'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => "a",
            'ć' | 'č' | 'ç' => "c",
            'ę' | 'è' | 'é' | 'ê' | 'ë' | 'ě' | 'ē' => "e",
            'ł' => "l",
            'ń' | 'ñ' | 'ň' => "n",
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
            'ś' | 'š' | 'ş' => "s",
            'ź' | 'ż' | 'ž' => "z",
            'ì' | 'í' | 'î' | 'ï' | 'ī' => "i",
            'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ū' | 'ű' => "u",
            'ý' | 'ÿ' => "y",
            'ř' => "r",
            'ť' => "t",
            'ď' => "d",
            'ß' => "ss",
            'æ' => "ae",
            'œ' => "oe",
            c if c.is_ascii_alphanumeric() => {
                out.push(c);
                continue;
            }
            _ => "-",
        };
        out.push_str(folded);
    }
    let mut slug = String::new();
    for word in out.split('-').filter(|w| !w.is_empty()) {
        let grown = slug.len() + usize::from(!slug.is_empty()) + word.len();
        if grown > SLUG_MAX_CHARS {
            if slug.is_empty() {
                slug.push_str(&word[..SLUG_MAX_CHARS]);
            }
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(word);
    }
    slug
}

/// A document's identity: its kind and its file name. Written `folder/slug`
/// (`blog/terapia-cbt`), which is also how the panel and the revisions name it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DocId {
    pub kind: Kind,
    pub slug: String,
}

impl DocId {
    pub fn new(kind: Kind, slug: impl Into<String>) -> Self {
        DocId {
            kind,
            slug: slug.into(),
        }
    }

    /// Parses `folder/slug`; anything else (other folders, `..`, capitals) is no id.
    pub fn parse(text: &str) -> Option<DocId> {
        let (folder, slug) = text.split_once('/')?;
        let kind = Kind::from_folder(folder)?;
        is_slug(slug).then(|| DocId::new(kind, slug))
    }

    pub fn route(&self) -> Option<String> {
        self.kind.route(&self.slug)
    }

    /// The document's file under `content_dir`.
    pub fn file(&self, content_dir: &Path) -> PathBuf {
        content_dir
            .join(self.kind.folder())
            .join(format!("{}.md", self.slug))
    }
}

impl fmt::Display for DocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.kind.folder(), self.slug)
    }
}

impl Serialize for DocId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_names_are_lowercase_slugs_with_one_extension() {
        for good in [
            "morze.jpg",
            "blog",
            "terapia-cbt.md",
            "og_2025.png",
            "site.yaml",
            "STYLE.md",
            "images/README.md",
        ] {
            assert_eq!(bad_content_name(good), None, "{good}");
        }
        for (bad, part) in [
            (
                "images/a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png",
                "a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png",
            ),
            (
                "images/q\" onmouseover=\"x\" x=\".png",
                "q\" onmouseover=\"x\" x=\".png",
            ),
            (
                "images/q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
                "q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
            ),
            ("blog/Terapia.md", "Terapia.md"),
            ("blog/zażółć.md", "zażółć.md"),
            ("images/a.b.png", "a.b.png"),
            ("images/-a.png", "-a.png"),
            ("images/a.PNG", "a.PNG"),
            ("Obrazy/a.png", "Obrazy"),
            ("images/STYLE.md/a.png", "STYLE.md"),
            ("images/a.", "a."),
        ] {
            assert_eq!(bad_content_name(bad), Some(part), "{bad}");
        }
    }

    #[test]
    fn ids_round_trip_and_give_routes() {
        let id = DocId::parse("blog/terapia-cbt").expect("an article id");
        assert_eq!(id.kind, Kind::Article);
        assert_eq!(id.to_string(), "blog/terapia-cbt");
        assert_eq!(id.route().as_deref(), Some("/blog/terapia-cbt"));
        assert_eq!(
            DocId::parse("pages/home")
                .and_then(|i| i.route())
                .as_deref(),
            Some("/")
        );
        assert_eq!(
            DocId::new(Kind::Service, "terapia-par").route().as_deref(),
            Some("/uslugi/terapia-par")
        );
        assert_eq!(DocId::new(Kind::Team, "anna").route(), None);
    }

    #[test]
    fn titles_become_slugs_with_polish_letters_folded() {
        for (title, slug) in [
            ("Jak radzić sobie z lękiem?", "jak-radzic-sobie-z-lekiem"),
            ("Zażółć gęślą jaźń", "zazolc-gesla-jazn"),
            ("  ŁÓDŹ – Śląsk, 2025!  ", "lodz-slask-2025"),
            ("Terapia „CBT” — 8 do 20 sesji", "terapia-cbt-8-do-20-sesji"),
            ("Café Ñandú über Straße", "cafe-nandu-uber-strasse"),
            ("???", ""),
        ] {
            assert_eq!(slugify(title), slug, "{title}");
            assert!(slug.is_empty() || is_slug(slug));
        }
        let long = slugify(&"bardzo długi tytuł artykułu ".repeat(10));
        assert!(
            long.len() <= SLUG_MAX_CHARS && !long.ends_with('-'),
            "{long}"
        );
        assert_eq!(slugify(&"a".repeat(80)).len(), SLUG_MAX_CHARS);
    }

    #[test]
    fn only_known_folders_and_slugs_are_ids() {
        for bad in [
            "blog/",
            "pages/../site",
            "strona",
            "pages/Strona",
            "inne/a",
            "blog/a b",
        ] {
            assert!(DocId::parse(bad).is_none(), "{bad}");
        }
    }
}
