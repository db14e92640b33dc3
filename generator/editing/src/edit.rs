//! Editing content files from the admin panel: every page, service and article is an
//! editable document; a save changes its sections and the front-matter fields of its
//! settings, leaves every other line as it was, and is refused if the file changed since it
//! was loaded. Articles can also be created and deleted.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::Editor;
use content::dates::LocalTime;
use content::encoding::hex;
use content::kind::{is_slug, DocId, Kind};
use content::schedule::{self, Status};
use content::sections::{self, Section};
use content::yaml::{Change, Node};
use content::{frontmatter, walk, yaml};

/// One editable document, as the panel sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Editable {
    /// `folder/slug`, for example `blog/terapia-cbt`.
    pub id: DocId,
    pub kind: Kind,
    /// The heading of its group of tabs in the panel ("Strony", "Usługi", "Artykuły").
    pub group: &'static str,
    /// Where the document is shown on the public site.
    pub route: Option<String>,
    pub title: String,
    pub content: EditableContent,
    /// The front-matter fields the panel edits beside the sections.
    pub settings: Settings,
    /// Whether an article is on the site now (pages and services always are).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Changes whenever the file changes, whoever changed it.
    pub version: String,
}

/// The front-matter fields of a document that the panel edits: title, meta description,
/// hero image and its alternative text; for articles also the date, the excerpt, and
/// whether it is listed, featured and published.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Settings {
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// A file under `content/images/`, a full address, a `photo-…` id, or empty.
    #[serde(default)]
    pub image: String,
    #[serde(default)]
    pub image_alt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub featured: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<bool>,
}

/// The front matter as the settings read it: every field optional, others ignored.
#[derive(Debug, Default, Deserialize)]
struct Loose {
    title: String,
    description: Option<String>,
    image: Option<String>,
    image_alt: Option<String>,
    date: Option<String>,
    excerpt: Option<String>,
    listed: Option<bool>,
    featured: Option<bool>,
    published: Option<bool>,
}

impl Loose {
    fn settings(&self, kind: Kind) -> Settings {
        let article = kind == Kind::Article;
        Settings {
            title: self.title.clone(),
            description: self.description.clone().unwrap_or_default(),
            image: self.image.clone().unwrap_or_default(),
            image_alt: self.image_alt.clone().unwrap_or_default(),
            date: article.then(|| self.date.clone().unwrap_or_default()),
            excerpt: article.then(|| self.excerpt.clone().unwrap_or_default()),
            listed: article.then(|| self.listed.unwrap_or(true)),
            featured: article.then(|| self.featured.unwrap_or(false)),
            published: article.then(|| self.published.unwrap_or(true)),
        }
    }

    fn status(&self, kind: Kind, now: i64) -> Option<Status> {
        (kind == Kind::Article).then(|| {
            if !self.published.unwrap_or(true) {
                Status::Unpublished
            } else if self
                .date
                .as_deref()
                .and_then(schedule::publish_time)
                .is_some_and(|t| t > now)
            {
                Status::Scheduled
            } else {
                Status::Published
            }
        })
    }
}

/// Why settings cannot be written, in Polish, for the panel.
pub fn check_settings(kind: Kind, settings: &Settings) -> std::result::Result<(), String> {
    let one_line = [
        ("Tytuł", &settings.title),
        ("Opis", &settings.description),
        ("Obraz", &settings.image),
        ("Tekst alternatywny obrazu", &settings.image_alt),
    ];
    for (label, text) in one_line
        .into_iter()
        .chain(settings.excerpt.iter().map(|e| ("Zajawka", e)))
    {
        if text.contains(['\n', '\r']) {
            return Err(format!("{label}: tekst musi mieścić się w jednym wierszu."));
        }
        if text.chars().count() > SETTINGS_MAX_CHARS {
            return Err(format!(
                "{label}: tekst może mieć najwyżej {SETTINGS_MAX_CHARS} znaków."
            ));
        }
    }
    if settings.title.trim().is_empty() {
        return Err("Tytuł nie może być pusty.".into());
    }
    if !settings.image.trim().is_empty() && settings.image_alt.trim().is_empty() {
        return Err(
            "Podaj tekst alternatywny obrazu: co przedstawia, dla osób, które go nie widzą.".into(),
        );
    }
    let article = kind == Kind::Article;
    let fields = [
        settings.date.is_some(),
        settings.excerpt.is_some(),
        settings.listed.is_some(),
        settings.featured.is_some(),
        settings.published.is_some(),
    ];
    if !article && fields.iter().any(|f| *f) {
        return Err("Datę, zajawkę i publikację ustawia się tylko w artykułach.".into());
    }
    if article {
        let date = settings.date.as_deref().unwrap_or_default();
        if LocalTime::parse(date).is_err() {
            return Err(format!(
                "Data „{date}” nie istnieje albo nie ma postaci RRRR-MM-DD (lub RRRR-MM-DD GG:MM, czasu polskiego)."
            ));
        }
    }
    Ok(())
}

/// The longest text of one setting.
pub const SETTINGS_MAX_CHARS: usize = 500;

/// The front-matter changes that turn `current` into `new` for a document of `kind`.
fn setting_changes(kind: Kind, current: &Loose, new: &Settings) -> Vec<Change> {
    let mut out = Vec::new();
    let mut text = |key: &str, now: Option<&String>, next: &str, optional: bool| match (
        now,
        optional && next.is_empty(),
    ) {
        (Some(_), true) => out.push(Change::remove(&[key])),
        (None, true) => {}
        (now, false) if now.map(String::as_str) != Some(next) => {
            out.push(Change::set(&[key], Node::str(next)));
        }
        _ => {}
    };
    let page = kind == Kind::Page;
    text("title", Some(&current.title), &new.title, false);
    text(
        "description",
        current.description.as_ref(),
        &new.description,
        false,
    );
    text("image", current.image.as_ref(), &new.image, page);
    text(
        "image_alt",
        current.image_alt.as_ref(),
        &new.image_alt,
        page,
    );
    if kind == Kind::Article {
        if let Some(date) = &new.date {
            text("date", current.date.as_ref(), date, false);
        }
        if let Some(excerpt) = &new.excerpt {
            text("excerpt", current.excerpt.as_ref(), excerpt, false);
        }
        let flags = [
            ("listed", current.listed, new.listed, true),
            ("featured", current.featured, new.featured, false),
            ("published", current.published, new.published, true),
        ];
        for (key, now, next, default) in flags {
            if let Some(next) = next {
                if now.unwrap_or(default) != next {
                    out.push(Change::set(&[key], Node::Bool(next)));
                }
            }
        }
    }
    out
}

/// `text` with the front-matter fields of `settings` changed, every other byte kept.
pub(crate) fn rewrite_settings(kind: Kind, text: &str, settings: &Settings) -> Result<String> {
    let split =
        frontmatter::split(text).map_err(|(line, m)| Error::Edit(format!("line {line}: {m}")))?;
    let current: Loose = yaml::parse(split.yaml).map_err(|e| Error::Edit(e.message))?;
    let changes = setting_changes(kind, &current, settings);
    if changes.is_empty() {
        return Ok(text.to_string());
    }
    let start = split.yaml.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + split.yaml.len();
    let yaml = yaml::edit(split.yaml, &changes).map_err(Error::Edit)?;
    Ok(format!("{}{yaml}{}", &text[..start], &text[end..]))
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EditableContent {
    pub sections: Vec<Section>,
}

pub(crate) fn version_of(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes)[..10])
}

impl Editor {
    /// The file of an editable document.
    pub fn file_of(&self, id: &DocId) -> Option<PathBuf> {
        Kind::EDITABLE
            .contains(&id.kind)
            .then(|| id.file(&self.content_dir))
    }

    /// Every editable document, ordered by kind (pages, services, articles), then slug, with
    /// each article's status at `now`.
    pub fn editable_list(&self, now: i64) -> Result<Vec<Editable>> {
        let mut out = Vec::new();
        for kind in Kind::EDITABLE {
            let dir = self.content_dir.join(kind.folder());
            for found in walk::files(&dir)? {
                let Some(slug) = found.relative.strip_suffix(".md") else {
                    continue;
                };
                if is_slug(slug) {
                    out.push(editable(DocId::new(kind, slug), &found.path, now)?);
                }
            }
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    pub fn editable(&self, id: &DocId, now: i64) -> Result<Option<Editable>> {
        match self.file_of(id) {
            Some(path) if path.is_file() => editable(id.clone(), &path, now).map(Some),
            _ => Ok(None),
        }
    }

    /// Replaces the whole text of `id`'s file if it is still at `version`.
    pub fn replace_text(
        &self,
        id: &DocId,
        version: &str,
        make: impl FnOnce(&str) -> Result<String>,
    ) -> Result<Saved> {
        let Some(path) = self.file_of(id) else {
            return Ok(Saved::NotFound);
        };
        replace_file(&path, version, make)
    }

    /// Saves new sections for `id` if its file is still at `version`.
    pub fn save_sections(&self, id: &DocId, version: &str, new: &[Section]) -> Result<Saved> {
        self.replace_text(id, version, |text| rewrite(text, new))
    }

    /// Saves new sections and, when given, new settings for `id` if its file is still at
    /// `version`. Unchanged sections and settings leave the file byte-identical.
    pub fn save(
        &self,
        id: &DocId,
        version: &str,
        new: &[Section],
        settings: Option<&Settings>,
    ) -> Result<Saved> {
        self.replace_text(id, version, |text| {
            let text = match settings {
                Some(s) => rewrite_settings(id.kind, text, s)?,
                None => text.to_string(),
            };
            rewrite(&text, new)
        })
    }

    /// The text of `id` with new sections and settings, as a save would write it, without
    /// writing anything (what a preview renders).
    pub fn edited_text(
        &self,
        id: &DocId,
        new: &[Section],
        settings: Option<&Settings>,
    ) -> Result<Option<String>> {
        let Some(path) = self.file_of(id).filter(|p| p.is_file()) else {
            return Ok(None);
        };
        let text = read(&path)?;
        let text = match settings {
            Some(s) => rewrite_settings(id.kind, &text, s)?,
            None => text,
        };
        rewrite(&text, new).map(Some)
    }

    /// Creates `id` with `text`, never over an existing file: `Created::Taken` if one is there.
    pub fn create(&self, id: &DocId, text: &str) -> Result<Created> {
        let Some(path) = self.file_of(id) else {
            return Ok(Created::Taken);
        };
        let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        if path.exists() {
            return Ok(Created::Taken);
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
        let temp = dir.join(format!(".{}.md.creating", id.slug));
        let mut file = fs::File::create(&temp).map_err(|e| Error::write(&temp, e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::write(&temp, e))?;
        // A hard link fails if the name exists: created whole, or not at all.
        let linked = fs::hard_link(&temp, &path);
        let _ = fs::remove_file(&temp);
        match linked {
            Ok(()) => Ok(Created::Written {
                version: version_of(text.as_bytes()),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(Created::Taken),
            Err(e) => Err(Error::write(&path, e)),
        }
    }

    /// A new, unpublished article titled `title` at `blog/slug`, dated `date`.
    pub fn create_article(
        &self,
        slug: &str,
        title: &str,
        date: &str,
        author: &str,
    ) -> Result<Created> {
        if !is_slug(slug) {
            return Err(Error::Edit(format!("'{slug}' is not a slug")));
        }
        let text = format!(
            "---\ntitle: {}\ndescription: \"\"\nexcerpt: \"\"\ndate: {}\nimage: \"\"\nimage_alt: \"\"\nauthor: {}\npublished: false\n---\n",
            yaml::quoted(title),
            yaml::quoted(date),
            yaml::quoted(author),
        );
        self.create(&DocId::new(Kind::Article, slug), &text)
    }

    /// Removes the file of `id` if it is still at `version`; `Saved::Written` holds the text
    /// it had (for the history), `saved` and `version` are empty.
    pub fn delete(&self, id: &DocId, version: &str) -> Result<Saved> {
        let Some(path) = self.file_of(id).filter(|p| p.is_file()) else {
            return Ok(Saved::NotFound);
        };
        let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let previous = read(&path)?;
        let current = version_of(previous.as_bytes());
        if current != version {
            return Ok(Saved::Conflict { current });
        }
        fs::remove_file(&path).map_err(|e| Error::write(&path, e))?;
        if let Some(dir) = path.parent().and_then(|d| fs::File::open(d).ok()) {
            let _ = dir.sync_all();
        }
        Ok(Saved::Written {
            previous,
            saved: String::new(),
            version: String::new(),
        })
    }
}

/// What creating a document did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    Written {
        version: String,
    },
    /// A document of that kind and slug exists: nothing written.
    Taken,
}

/// Writes what `make` makes of the text of `path` if the file is still at `version`: the
/// one way every change of a content file is checked against a stale editor.
pub fn replace_file(
    path: &Path,
    version: &str,
    make: impl FnOnce(&str) -> Result<String>,
) -> Result<Saved> {
    if !path.is_file() {
        return Ok(Saved::NotFound);
    }
    let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let previous = read(path)?;
    let current = version_of(previous.as_bytes());
    if current != version {
        return Ok(Saved::Conflict { current });
    }
    let saved = make(&previous)?;
    write_atomic(path, &saved)?;
    Ok(Saved::Written {
        version: version_of(saved.as_bytes()),
        previous,
        saved,
    })
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| Error::read(path, e))
}

fn editable(id: DocId, path: &Path, now: i64) -> Result<Editable> {
    let text = read(path)?;
    let split = frontmatter::split(&text)
        .map_err(|(line, m)| Error::Edit(format!("{}:{line}: {m}", path.display())))?;
    let front = yaml::parse::<Loose>(split.yaml)
        .map_err(|e| Error::Edit(format!("{}: {}", path.display(), e.message)))?;
    Ok(Editable {
        kind: id.kind,
        group: id.kind.plural(),
        route: id.route(),
        title: front.title.clone(),
        content: EditableContent {
            sections: sections::parse(split.body).sections,
        },
        settings: front.settings(id.kind),
        status: front.status(id.kind, now),
        id,
        version: version_of(text.as_bytes()),
    })
}

/// Why a set of sections cannot be written.
pub fn check_sections(new: &[Section]) -> std::result::Result<(), String> {
    for (i, s) in new.iter().enumerate() {
        let n = i + 1;
        content::limits::check_section(&s.content).map_err(|f| f.polish(n))?;
        if !is_slug(&s.kind) {
            return Err(format!(
                "Sekcja {n}: typ może zawierać tylko małe litery, cyfry i myślniki."
            ));
        }
        let marker = sections::parse(&s.content).sections.len() > 1
            || s.content.trim_start().starts_with("<!-- section:");
        if marker {
            return Err(format!(
                "Sekcja {n}: treść nie może zawierać znacznika sekcji „<!-- section: … -->”."
            ));
        }
    }
    Ok(())
}

/// The file's text with its sections replaced, front matter and layout kept.
pub(crate) fn rewrite(text: &str, new: &[Section]) -> Result<String> {
    let split =
        frontmatter::split(text).map_err(|(line, m)| Error::Edit(format!("line {line}: {m}")))?;
    let body = sections::parse(split.body);
    Ok(format!("{}{}", &text[..split.body_offset], body.write(new)))
}

/// Writes a file so that a crash leaves either the old or the new text, never half of one.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.saving"));
    let mut file = fs::File::create(&temp).map_err(|e| Error::write(&temp, e))?;
    file.write_all(text.as_bytes())
        .map_err(|e| Error::write(&temp, e))?;
    file.sync_all().map_err(|e| Error::write(&temp, e))?;
    fs::rename(&temp, path).map_err(|e| Error::write(path, e))?;
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Written: the text before and after, and the new version.
    Written {
        previous: String,
        saved: String,
        version: String,
    },
    /// The file changed since `version`: nothing written.
    Conflict {
        current: String,
    },
    NotFound,
}

/// One write of content files at a time, so a version check and its write are one step.
pub(crate) static WRITE_LOCK: Mutex<()> = Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\ntitle: \"Strona\"   # komentarz zostaje\ndescription: \"Opis\"\n---\nPierwszy akapit.\n\n<!-- section: callout -->\nUwaga!\n";

    fn id(text: &str) -> DocId {
        DocId::parse(text).expect("a valid id")
    }

    fn project(dir: &Path) -> Editor {
        let p = Editor::new(dir.join("content"));
        fs::create_dir_all(p.content_dir.join("pages")).unwrap();
        fs::write(p.content_dir.join("pages/strona.md"), DOC).unwrap();
        for kind in ["services", "blog"] {
            fs::create_dir_all(p.content_dir.join(kind)).unwrap();
        }
        p
    }

    #[test]
    fn load_then_save_unchanged_is_byte_identical() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let doc = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        assert_eq!(doc.title, "Strona");
        assert_eq!(doc.content.sections.len(), 2);
        let saved = p
            .save_sections(&id("pages/strona"), &doc.version, &doc.content.sections)
            .unwrap();
        assert!(matches!(saved, Saved::Written { ref saved, .. } if saved == DOC));
        assert_eq!(
            fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap(),
            DOC
        );
    }

    #[test]
    fn a_save_changes_only_the_sections() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let doc = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        let mut new = doc.content.sections.clone();
        new[0].content = "Nowy akapit.".into();
        new.push(Section {
            kind: "text".into(),
            content: String::new(),
        });
        p.save_sections(&id("pages/strona"), &doc.version, &new)
            .unwrap();
        let text = fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap();
        assert!(text.starts_with("---\ntitle: \"Strona\"   # komentarz zostaje\ndescription: \"Opis\"\n---\nNowy akapit.\n\n<!-- section: callout -->\nUwaga!\n"));
        assert_eq!(
            p.editable(&id("pages/strona"), 0)
                .unwrap()
                .unwrap()
                .content
                .sections,
            new
        );
    }

    #[test]
    fn a_stale_version_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let doc = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        fs::write(
            p.content_dir.join("pages/strona.md"),
            DOC.replace("Uwaga!", "Zmienione w gicie"),
        )
        .unwrap();
        let result = p
            .save_sections(&id("pages/strona"), &doc.version, &doc.content.sections)
            .unwrap();
        assert!(matches!(result, Saved::Conflict { .. }));
        assert!(fs::read_to_string(p.content_dir.join("pages/strona.md"))
            .unwrap()
            .contains("Zmienione w gicie"));
    }

    #[test]
    fn team_profiles_are_not_editable_documents() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        assert!(p.file_of(&id("team/magda")).is_none());
        assert!(p.editable(&id("pages/inna"), 0).unwrap().is_none());
    }

    #[test]
    fn section_markers_and_bad_types_are_refused() {
        let marker = [Section {
            kind: "text".into(),
            content: "a\n<!-- section: text -->\nb".into(),
        }];
        assert!(check_sections(&marker).is_err());
        let bad_type = [Section {
            kind: "Tekst!".into(),
            content: "a".into(),
        }];
        assert!(check_sections(&bad_type).is_err());
        assert!(check_sections(&[Section {
            kind: "callout".into(),
            content: "**a**".into()
        }])
        .is_ok());
    }

    const ARTICLE: &str = "---\ntitle: \"Artykuł\"  # tytuł roboczy\ndescription: \"Opis\"\nexcerpt: \"Zajawka\"\ndate: \"2025-03-01\"\nimage: \"las.svg\"\nimage_alt: \"Las\"\nauthor: \"Anna\"\n---\nTreść.\n";

    fn with_article(dir: &Path) -> Editor {
        let p = project(dir);
        fs::write(p.content_dir.join("blog/artykul.md"), ARTICLE).unwrap();
        p
    }

    #[test]
    fn unchanged_settings_leave_the_file_byte_identical() {
        let dir = tempfile::tempdir().unwrap();
        let p = with_article(dir.path());
        for doc in ["pages/strona", "blog/artykul"] {
            let e = p.editable(&id(doc), 0).unwrap().unwrap();
            let before = fs::read_to_string(p.file_of(&id(doc)).unwrap()).unwrap();
            p.save(&id(doc), &e.version, &e.content.sections, Some(&e.settings))
                .unwrap();
            let after = fs::read_to_string(p.file_of(&id(doc)).unwrap()).unwrap();
            assert_eq!(after, before, "{doc}");
        }
    }

    #[test]
    fn settings_change_only_their_own_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = with_article(dir.path());
        let e = p
            .editable(&id("blog/artykul"), 2_000_000_000)
            .unwrap()
            .unwrap();
        assert_eq!(e.settings.listed, Some(true));
        assert_eq!(e.status, Some(Status::Published));
        let mut s = e.settings.clone();
        s.title = "Jak radzić sobie z \"lękiem\"?".into();
        s.date = Some("2025-03-02 09:30".into());
        s.listed = Some(true);
        s.featured = Some(true);
        s.published = Some(false);
        p.save(
            &id("blog/artykul"),
            &e.version,
            &e.content.sections,
            Some(&s),
        )
        .unwrap();
        let text = fs::read_to_string(p.content_dir.join("blog/artykul.md")).unwrap();
        assert_eq!(
            text,
            "---\ntitle: \"Jak radzić sobie z \\\"lękiem\\\"?\"  # tytuł roboczy\ndescription: \"Opis\"\nexcerpt: \"Zajawka\"\ndate: \"2025-03-02 09:30\"\nimage: \"las.svg\"\nimage_alt: \"Las\"\nauthor: \"Anna\"\nfeatured: true\npublished: false\n---\nTreść.\n"
        );
        let again = p.editable(&id("blog/artykul"), 0).unwrap().unwrap();
        assert_eq!(again.settings, s);
        assert_eq!(again.status, Some(Status::Unpublished));
    }

    #[test]
    fn a_page_without_an_image_gets_one_and_loses_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let e = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        let mut s = e.settings.clone();
        s.image = "las.svg".into();
        s.image_alt = "Las o świcie".into();
        p.save(
            &id("pages/strona"),
            &e.version,
            &e.content.sections,
            Some(&s),
        )
        .unwrap();
        let text = fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap();
        assert!(
            text.contains(
                "description: \"Opis\"\nimage: \"las.svg\"\nimage_alt: \"Las o świcie\"\n---\n"
            ),
            "{text}"
        );
        let e = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        p.save(
            &id("pages/strona"),
            &e.version,
            &e.content.sections,
            Some(&Settings {
                image: String::new(),
                image_alt: String::new(),
                ..s
            }),
        )
        .unwrap();
        assert_eq!(
            fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap(),
            DOC
        );
    }

    #[test]
    fn settings_are_checked_in_polish() {
        let page = Settings {
            title: "Tytuł".into(),
            ..Settings::default()
        };
        assert!(check_settings(Kind::Page, &page).is_ok());
        let empty = Settings {
            title: " ".into(),
            ..page.clone()
        };
        assert_eq!(
            check_settings(Kind::Page, &empty).unwrap_err(),
            "Tytuł nie może być pusty."
        );
        let no_alt = Settings {
            image: "las.svg".into(),
            ..page.clone()
        };
        assert!(check_settings(Kind::Page, &no_alt)
            .unwrap_err()
            .contains("tekst alternatywny"));
        let dated = Settings {
            date: Some("2025-01-01".into()),
            ..page.clone()
        };
        assert!(
            check_settings(Kind::Page, &dated).is_err(),
            "no dates on pages"
        );
        let bad_date = Settings {
            date: Some("2025-02-30".into()),
            ..page.clone()
        };
        assert!(check_settings(Kind::Article, &bad_date)
            .unwrap_err()
            .contains("„2025-02-30” nie istnieje"));
        let two_lines = Settings {
            title: "a\nb".into(),
            ..page
        };
        assert!(check_settings(Kind::Page, &two_lines)
            .unwrap_err()
            .contains("jednym wierszu"));
    }

    #[test]
    fn a_new_article_is_unpublished_and_a_taken_slug_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let made = p
            .create_article("nowy", "Nowy „artykuł”", "2025-11-20", "Anna")
            .unwrap();
        assert!(matches!(made, Created::Written { .. }));
        let e = p.editable(&id("blog/nowy"), 0).unwrap().unwrap();
        assert_eq!(e.title, "Nowy „artykuł”");
        assert_eq!(e.status, Some(Status::Unpublished));
        assert_eq!(e.settings.date.as_deref(), Some("2025-11-20"));
        assert_eq!(
            p.create_article("nowy", "Inny", "2025-11-20", "Anna")
                .unwrap(),
            Created::Taken
        );
        assert_eq!(
            e.title,
            p.editable(&id("blog/nowy"), 0).unwrap().unwrap().title
        );
    }

    #[test]
    fn a_delete_needs_the_current_version_and_keeps_the_text() {
        let dir = tempfile::tempdir().unwrap();
        let p = with_article(dir.path());
        assert!(matches!(
            p.delete(&id("blog/artykul"), "stara").unwrap(),
            Saved::Conflict { .. }
        ));
        let e = p.editable(&id("blog/artykul"), 0).unwrap().unwrap();
        let deleted = p.delete(&id("blog/artykul"), &e.version).unwrap();
        assert!(matches!(deleted, Saved::Written { ref previous, .. } if previous == ARTICLE));
        assert!(!p.content_dir.join("blog/artykul.md").exists());
        assert_eq!(
            p.delete(&id("blog/artykul"), &e.version).unwrap(),
            Saved::NotFound
        );
        assert!(matches!(
            p.create(&id("blog/artykul"), ARTICLE).unwrap(),
            Created::Written { .. }
        ));
        assert_eq!(
            fs::read_to_string(p.content_dir.join("blog/artykul.md")).unwrap(),
            ARTICLE
        );
    }
}
