//! Editing content files from the admin panel: every page, service and article is an
//! editable document; a save changes its sections and the front-matter fields of its
//! settings, leaves every other line as it was, and is refused if the file changed since it
//! was loaded. Articles can also be created and deleted.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use ts_rs::TS;

use crate::error::{Error, Result};
use crate::transaction::{transaction, version_of, Expect, Saved};
use crate::Editor;
use content::dates::Moment;
use content::fields::{one_line, text_fields, Focus, TextField, FOCUS_KEY};
use content::kind::{is_slug, DocId, Kind};
use content::problem::{DateField, EditProblem, Field, Problem};
use content::schedule::{self, Status};
use content::sections::{self, Section};
use content::validate::{alt_problem, date_problem};
use content::yaml::{Change, Node};
use content::{frontmatter, yaml};

/// One editable document, as the panel sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
pub struct Editable {
    /// `folder/slug`, for example `blog/terapia-cbt`.
    #[ts(type = "string")]
    pub id: DocId,
    /// Pages, services and articles: team profiles are edited in 'Zespół' ([`crate::team`]).
    #[ts(type = "Exclude<Kind, \"team\">")]
    pub kind: Kind,
    /// The heading of its group of tabs in the panel ("Strony", "Usługi", "Artykuły").
    pub group: &'static str,
    /// Where the document is shown on the public site.
    pub route: Option<String>,
    pub title: String,
    pub content: EditableContent,
    /// The front-matter fields the panel edits beside the sections.
    pub settings: Settings,
    /// The visible texts of its front matter, as the panel shows them: each one's value is
    /// the setting of its `name`.
    pub fields: Vec<TextField>,
    /// Whether an article is on the site now (pages and services always are).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<Status>,
    /// Changes whenever the file changes, whoever changed it.
    pub version: String,
}

/// The front-matter fields of a document that the panel edits: title, meta description,
/// hero image and its alternative text; for articles also the date, the excerpt, and
/// whether it is listed, featured and published.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields)]
pub struct Settings {
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// A file under `content/images/`, a full address, a `photo-…` id, or empty.
    #[serde(default)]
    pub image: String,
    #[serde(default)]
    pub image_alt: String,
    /// The point of the image a crop keeps in view (`"50% 30%"`), or empty for the middle.
    #[serde(default)]
    pub image_focus: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// Who wrote an article: the name it is signed with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub featured: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<bool>,
    /// The visible texts of [`content::fields`] the document has (and only those).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intro: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub button_label: Option<String>,
}

impl Settings {
    /// The value of a text of [`content::fields`], by its front-matter key.
    fn text_mut(&mut self, key: &str) -> Option<&mut Option<String>> {
        match key {
            "heading" => Some(&mut self.heading),
            "subtitle" => Some(&mut self.subtitle),
            "prompt" => Some(&mut self.prompt),
            "intro" => Some(&mut self.intro),
            "card_title" => Some(&mut self.card_title),
            "card_description" => Some(&mut self.card_description),
            "button_label" => Some(&mut self.button_label),
            _ => None,
        }
    }

    fn text(&self, key: &str) -> Option<&String> {
        let value = match key {
            "heading" => &self.heading,
            "subtitle" => &self.subtitle,
            "prompt" => &self.prompt,
            "intro" => &self.intro,
            "card_title" => &self.card_title,
            "card_description" => &self.card_description,
            "button_label" => &self.button_label,
            _ => return None,
        };
        value.as_ref()
    }
}

/// The front matter as the settings read it: every field optional, others ignored.
#[derive(Debug, Default, Deserialize)]
struct Loose {
    title: String,
    description: Option<String>,
    image: Option<String>,
    image_alt: Option<String>,
    image_focus: Option<String>,
    date: Option<Moment>,
    excerpt: Option<String>,
    author: Option<String>,
    listed: Option<bool>,
    featured: Option<bool>,
    published: Option<bool>,
    template: Option<String>,
    heading: Option<String>,
    subtitle: Option<String>,
    prompt: Option<String>,
    intro: Option<String>,
    card_title: Option<String>,
    card_description: Option<String>,
    button_label: Option<String>,
}

impl Loose {
    fn text(&self, key: &str) -> Option<&String> {
        let value = match key {
            "heading" => &self.heading,
            "subtitle" => &self.subtitle,
            "prompt" => &self.prompt,
            "intro" => &self.intro,
            "card_title" => &self.card_title,
            "card_description" => &self.card_description,
            "button_label" => &self.button_label,
            _ => return None,
        };
        value.as_ref()
    }

    /// The visible texts this document has.
    fn text_fields(&self, kind: Kind) -> &'static [TextField] {
        text_fields(kind, self.template.as_deref())
    }

    fn settings(&self, kind: Kind) -> Settings {
        let mut settings = self.fixed_settings(kind);
        for field in self.text_fields(kind) {
            if let Some(value) = settings.text_mut(field.key) {
                *value = Some(self.text(field.key).cloned().unwrap_or_default());
            }
        }
        settings
    }

    fn fixed_settings(&self, kind: Kind) -> Settings {
        let article = kind == Kind::Article;
        Settings {
            title: self.title.clone(),
            description: self.description.clone().unwrap_or_default(),
            image: self.image.clone().unwrap_or_default(),
            image_alt: self.image_alt.clone().unwrap_or_default(),
            image_focus: self.image_focus.clone().unwrap_or_default(),
            date: article.then(|| {
                let date = self.date.as_ref().map(Moment::text);
                date.unwrap_or_default().to_string()
            }),
            excerpt: article.then(|| self.excerpt.clone().unwrap_or_default()),
            author: article.then(|| self.author.clone().unwrap_or_default()),
            listed: article.then(|| self.listed.unwrap_or(true)),
            featured: article.then(|| self.featured.unwrap_or(false)),
            published: article.then(|| self.published.unwrap_or(true)),
            ..Settings::default()
        }
    }

    fn status(&self, kind: Kind, now: i64) -> Option<Status> {
        (kind == Kind::Article)
            .then(|| schedule::status(self.published.unwrap_or(true), self.date.as_ref(), now))
    }
}

/// Why settings cannot be written.
pub fn check_settings(kind: Kind, settings: &Settings) -> std::result::Result<(), Problem> {
    let one_line_fields = [
        (Field::Title, &settings.title),
        (Field::Description, &settings.description),
        (Field::Image, &settings.image),
        (Field::ImageAlt, &settings.image_alt),
    ];
    for (field, text) in one_line_fields
        .into_iter()
        .chain(settings.excerpt.iter().map(|e| (Field::Excerpt, e)))
        .chain(settings.author.iter().map(|a| (Field::Author, a)))
    {
        one_line(field, text, SETTINGS_MAX_CHARS)?;
    }
    if settings.title.trim().is_empty() {
        return Err(EditProblem::NoTitle.into());
    }
    if let Some(p) = alt_problem("image_alt", &settings.image, &settings.image_alt) {
        return Err(p.into());
    }
    Focus::check(&settings.image_focus)?;
    let article = kind == Kind::Article;
    let fields = [
        settings.date.is_some(),
        settings.excerpt.is_some(),
        settings.author.is_some(),
        settings.listed.is_some(),
        settings.featured.is_some(),
        settings.published.is_some(),
    ];
    if !article && fields.iter().any(|f| *f) {
        return Err(EditProblem::OnlyForArticles.into());
    }
    if article {
        let date = Moment::new(settings.date.as_deref().unwrap_or_default());
        if let Some(p) = date_problem(DateField::Article, &date) {
            return Err(p.into());
        }
        if settings
            .author
            .as_deref()
            .is_some_and(|a| a.trim().is_empty())
        {
            return Err(EditProblem::NoAuthor.into());
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
    for field in current.text_fields(kind) {
        if let Some(next) = new.text(field.key) {
            text(field.key, current.text(field.key), next, !field.required);
        }
    }
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
    text(
        FOCUS_KEY,
        current.image_focus.as_ref(),
        &new.image_focus,
        true,
    );
    if kind == Kind::Article {
        if let Some(date) = &new.date {
            let now = current.date.as_ref().map(|d| d.text().to_string());
            text("date", now.as_ref(), date, false);
        }
        if let Some(excerpt) = &new.excerpt {
            text("excerpt", current.excerpt.as_ref(), excerpt, false);
        }
        if let Some(author) = &new.author {
            text("author", current.author.as_ref(), author.trim(), false);
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
    for field in current.text_fields(kind) {
        if let Some(next) = settings.text(field.key) {
            field.check(Some(next)).map_err(Error::Refused)?;
        }
    }
    let changes = setting_changes(kind, &current, settings);
    if changes.is_empty() {
        return Ok(text.to_string());
    }
    let start = split.yaml.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + split.yaml.len();
    let yaml = yaml::edit(split.yaml, &changes).map_err(Error::Edit)?;
    Ok(format!("{}{yaml}{}", &text[..start], &text[end..]))
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
pub struct EditableContent {
    pub sections: Vec<Section>,
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
            for found in self.files_of(kind.folder())? {
                let Some(slug) = found.relative.strip_suffix(".md") else {
                    continue;
                };
                if is_slug(slug) {
                    out.push(self.editable_at(DocId::new(kind, slug), &found.path, now)?);
                }
            }
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    pub fn editable(&self, id: &DocId, now: i64) -> Result<Option<Editable>> {
        match self.file_of(id) {
            Some(path) if self.is_file(&path) => self.editable_at(id.clone(), &path, now).map(Some),
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
        transaction(&self.root(), &path, Expect::Version(version), |text| {
            make(text).map(Some)
        })
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
        let Some(path) = self.file_of(id).filter(|p| self.is_file(p)) else {
            return Ok(None);
        };
        let text = self.read(&path)?;
        let text = match settings {
            Some(s) => rewrite_settings(id.kind, &text, s)?,
            None => text,
        };
        rewrite(&text, new).map(Some)
    }

    /// Creates `id` with `text`, never over an existing file: `Saved::Conflict` if one is
    /// there.
    pub fn create(&self, id: &DocId, text: &str) -> Result<Saved> {
        let Some(path) = self.file_of(id) else {
            return Ok(Saved::NotFound);
        };
        transaction(&self.root(), &path, Expect::Nothing, |_| {
            Ok(Some(text.to_string()))
        })
    }

    /// A new, unpublished article titled `title` at `blog/slug`, dated `date`.
    pub fn create_article(
        &self,
        slug: &str,
        title: &str,
        date: &str,
        author: &str,
    ) -> Result<Saved> {
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
        let Some(path) = self.file_of(id) else {
            return Ok(Saved::NotFound);
        };
        transaction(&self.root(), &path, Expect::Version(version), |_| Ok(None))
    }

    fn editable_at(&self, id: DocId, path: &Path, now: i64) -> Result<Editable> {
        Editable::of(id, path, &self.read(path)?, now)
    }
}

impl Editable {
    /// The document `id` whose file at `path` holds `text`, with its status at `now`: what a
    /// save answers with, from the text it wrote.
    pub fn of(id: DocId, path: &Path, text: &str, now: i64) -> Result<Editable> {
        let split = frontmatter::split(text)
            .map_err(|(line, m)| Error::Edit(format!("{}:{line}: {m}", path.display())))?;
        let front = yaml::parse::<Loose>(split.yaml)
            .map_err(|e| Error::Edit(format!("{}: {}", path.display(), e.message)))?;
        Ok(Editable {
            kind: id.kind,
            group: id.kind.plural(),
            // The panel's own page is no place for a link: it has no route for the panel to offer.
            route: id
                .route()
                .filter(|_| front.template.as_deref() != Some(content::model::PANEL_TEMPLATE)),
            title: front.title.clone(),
            content: EditableContent {
                sections: sections::parse(split.body).sections,
            },
            settings: front.settings(id.kind),
            fields: front.text_fields(id.kind).to_vec(),
            status: front.status(id.kind, now),
            id,
            version: version_of(text.as_bytes()),
        })
    }
}

/// Why a set of sections cannot be written.
pub fn check_sections(new: &[Section]) -> std::result::Result<(), Problem> {
    for (i, s) in new.iter().enumerate() {
        let n = i + 1;
        content::limits::check_section(&s.content)
            .map_err(|f| Problem::excess_in_section(&f, n))?;
        if !is_slug(&s.kind) {
            return Err(Problem::from(EditProblem::SectionType).in_section(n, None));
        }
        let marker = sections::parse(&s.content).sections.len() > 1
            || s.content.trim_start().starts_with("<!-- section:");
        if marker {
            return Err(Problem::from(EditProblem::SectionMarker).in_section(n, None));
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

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
            content: Default::default(),
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
        assert_eq!(e.settings.author.as_deref(), Some("Anna"));
        s.author = Some("Tomasz Lewandowski".into());
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
            "---\ntitle: \"Jak radzić sobie z \\\"lękiem\\\"?\"  # tytuł roboczy\ndescription: \"Opis\"\nexcerpt: \"Zajawka\"\ndate: \"2025-03-02 09:30\"\nimage: \"las.svg\"\nimage_alt: \"Las\"\nauthor: \"Tomasz Lewandowski\"\nfeatured: true\npublished: false\n---\nTreść.\n"
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
            check_settings(Kind::Page, &empty).unwrap_err().sentence(),
            "Tytuł nie może być pusty."
        );
        let no_alt = Settings {
            image: "las.svg".into(),
            ..page.clone()
        };
        assert!(check_settings(Kind::Page, &no_alt)
            .unwrap_err()
            .sentence()
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
            .sentence()
            .contains("„2025-02-30” nie istnieje"));
        let unsigned = Settings {
            date: Some("2025-02-28".into()),
            author: Some("  ".into()),
            ..page.clone()
        };
        assert_eq!(
            check_settings(Kind::Article, &unsigned)
                .unwrap_err()
                .sentence(),
            "Wybierz autora artykułu."
        );
        assert!(
            check_settings(
                Kind::Page,
                &Settings {
                    author: Some("Anna".into()),
                    ..page.clone()
                }
            )
            .is_err(),
            "no authors on pages"
        );
        let two_lines = Settings {
            title: "a\nb".into(),
            ..page
        };
        assert_eq!(
            check_settings(Kind::Page, &two_lines)
                .unwrap_err()
                .sentence(),
            "Tytuł: tekst musi mieścić się w jednym wierszu."
        );
    }

    const SERVICE: &str = "---\ntitle: \"Terapia par\"\ndescription: \"Opis\"\nintro: \"Wstęp\"  # krótko\ncard_title: \"Para\"\ncard_description: \"Karta\"\nimage: \"las.svg\"\nimage_alt: \"Las\"\nbutton_label: \"Umów sesję\"\norder: 3\n---\nTreść.\n";

    #[test]
    fn a_service_edits_its_visible_texts_and_only_their_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        fs::write(p.content_dir.join("services/para.md"), SERVICE).unwrap();
        let e = p.editable(&id("services/para"), 0).unwrap().unwrap();
        let names: Vec<_> = e.fields.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            ["intro", "cardTitle", "cardDescription", "buttonLabel"]
        );
        assert_eq!(e.settings.button_label.as_deref(), Some("Umów sesję"));
        assert_eq!(e.settings.heading, None, "a service has no heading");
        let s = Settings {
            intro: Some("Nowy wstęp".into()),
            card_title: Some(String::new()),
            button_label: Some("Umów się we dwoje".into()),
            ..e.settings.clone()
        };
        p.save(
            &id("services/para"),
            &e.version,
            &e.content.sections,
            Some(&s),
        )
        .unwrap();
        let text = fs::read_to_string(p.content_dir.join("services/para.md")).unwrap();
        assert_eq!(
            text,
            SERVICE
                .replace("\"Wstęp\"", "\"Nowy wstęp\"")
                .replace("card_title: \"Para\"\n", "")
                .replace("\"Umów sesję\"", "\"Umów się we dwoje\"")
        );
        let again = p.editable(&id("services/para"), 0).unwrap().unwrap();
        assert_eq!(again.settings, s);
    }

    #[test]
    fn an_empty_required_text_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        fs::write(p.content_dir.join("services/para.md"), SERVICE).unwrap();
        let e = p.editable(&id("services/para"), 0).unwrap().unwrap();
        let s = Settings {
            button_label: Some(" ".into()),
            ..e.settings.clone()
        };
        let refused = p
            .save(
                &id("services/para"),
                &e.version,
                &e.content.sections,
                Some(&s),
            )
            .unwrap_err();
        let Error::Refused(problem) = refused else {
            panic!("refused by the rules: {refused}");
        };
        assert_eq!(
            problem.sentence(),
            "Napis na przycisku rezerwacji: pole nie może być puste."
        );
        assert_eq!(
            fs::read_to_string(p.content_dir.join("services/para.md")).unwrap(),
            SERVICE
        );
    }

    #[test]
    fn the_home_page_has_a_prompt_and_other_pages_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let home = "---\ntitle: \"Start\"\ndescription: \"Opis\"\ntemplate: home\nheading: \"Witaj\"\nsubtitle: \"Pod\"\nprompt: \"Zadzwoń\"\n---\nTekst.\n";
        fs::write(p.content_dir.join("pages/home.md"), home).unwrap();
        let e = p.editable(&id("pages/home"), 0).unwrap().unwrap();
        assert_eq!(e.settings.prompt.as_deref(), Some("Zadzwoń"));
        let s = Settings {
            heading: Some("Znajdź swoją drogę".into()),
            ..e.settings.clone()
        };
        p.save(&id("pages/home"), &e.version, &e.content.sections, Some(&s))
            .unwrap();
        assert_eq!(
            fs::read_to_string(p.content_dir.join("pages/home.md")).unwrap(),
            home.replace("\"Witaj\"", "\"Znajdź swoją drogę\"")
        );
        let other = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        assert_eq!(other.settings.prompt, None);
        assert_eq!(other.settings.heading.as_deref(), Some(""));
    }

    #[test]
    fn a_focal_point_comes_and_goes_and_a_wrong_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let e = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        let focused = Settings {
            image_focus: "30% 70%".into(),
            ..e.settings.clone()
        };
        assert!(check_settings(Kind::Page, &focused).is_ok());
        p.save(
            &id("pages/strona"),
            &e.version,
            &e.content.sections,
            Some(&focused),
        )
        .unwrap();
        let text = fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap();
        assert!(
            text.contains("description: \"Opis\"\nimage_focus: \"30% 70%\"\n---"),
            "{text}"
        );
        let e = p.editable(&id("pages/strona"), 0).unwrap().unwrap();
        assert_eq!(e.settings.image_focus, "30% 70%");
        let middle = Settings {
            image_focus: String::new(),
            ..e.settings.clone()
        };
        p.save(
            &id("pages/strona"),
            &e.version,
            &e.content.sections,
            Some(&middle),
        )
        .unwrap();
        assert_eq!(
            fs::read_to_string(p.content_dir.join("pages/strona.md")).unwrap(),
            DOC
        );
        let wrong = Settings {
            image_focus: "130% 0%".into(),
            ..middle
        };
        assert!(check_settings(Kind::Page, &wrong)
            .unwrap_err()
            .sentence()
            .starts_with("Punkt ostrości „130% 0%”: podaj dwie liczby od 0 do 100"));
    }

    #[test]
    fn a_new_article_is_unpublished_and_a_taken_slug_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = project(dir.path());
        let made = p
            .create_article("nowy", "Nowy „artykuł”", "2025-11-20", "Anna")
            .unwrap();
        assert!(matches!(made, Saved::Written { .. }));
        let e = p.editable(&id("blog/nowy"), 0).unwrap().unwrap();
        assert_eq!(e.title, "Nowy „artykuł”");
        assert_eq!(e.status, Some(Status::Unpublished));
        assert_eq!(e.settings.date.as_deref(), Some("2025-11-20"));
        assert!(matches!(
            p.create_article("nowy", "Inny", "2025-11-20", "Anna")
                .unwrap(),
            Saved::Conflict { .. }
        ));
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
            Saved::Written { .. }
        ));
        assert_eq!(
            fs::read_to_string(p.content_dir.join("blog/artykul.md")).unwrap(),
            ARTICLE
        );
    }
}
