//! Editing content files from the admin panel: every page, service and article is an
//! editable document; a save changes only its sections, leaves the front matter and the
//! formatting as they were, and is refused if the file changed since it was loaded.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::encoding::hex;
use crate::error::{Error, Result};
use crate::kind::{is_slug, DocId, Kind};
use crate::sections::{self, Section};
use crate::{frontmatter, walk, yaml, Project};

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
    /// Changes whenever the file changes, whoever changed it.
    pub version: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EditableContent {
    pub sections: Vec<Section>,
}

#[derive(Deserialize)]
struct TitleOnly {
    title: String,
}

pub(crate) fn version_of(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes)[..10])
}

impl Project {
    /// The file of an editable document.
    pub fn file_of(&self, id: &DocId) -> Option<PathBuf> {
        Kind::EDITABLE
            .contains(&id.kind)
            .then(|| id.file(&self.content_dir))
    }

    /// Every editable document, ordered by kind (pages, services, articles), then slug.
    pub fn editable_list(&self) -> Result<Vec<Editable>> {
        let mut out = Vec::new();
        for kind in Kind::EDITABLE {
            let dir = self.content_dir.join(kind.folder());
            for found in walk::files(&dir)? {
                let Some(slug) = found.relative.strip_suffix(".md") else {
                    continue;
                };
                if is_slug(slug) {
                    out.push(editable(DocId::new(kind, slug), &found.path)?);
                }
            }
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    pub fn editable(&self, id: &DocId) -> Result<Option<Editable>> {
        match self.file_of(id) {
            Some(path) if path.is_file() => editable(id.clone(), &path).map(Some),
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
        let Some(path) = self.file_of(id).filter(|p| p.is_file()) else {
            return Ok(Saved::NotFound);
        };
        let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let previous = read(&path)?;
        let current = version_of(previous.as_bytes());
        if current != version {
            return Ok(Saved::Conflict { current });
        }
        let saved = make(&previous)?;
        write_atomic(&path, &saved)?;
        Ok(Saved::Written {
            version: version_of(saved.as_bytes()),
            previous,
            saved,
        })
    }

    /// Saves new sections for `id` if its file is still at `version`.
    pub fn save_sections(&self, id: &DocId, version: &str, new: &[Section]) -> Result<Saved> {
        self.replace_text(id, version, |text| rewrite(text, new))
    }
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| Error::read(path, e))
}

fn editable(id: DocId, path: &Path) -> Result<Editable> {
    let text = read(path)?;
    let split = frontmatter::split(&text)
        .map_err(|(line, m)| Error::Edit(format!("{}:{line}: {m}", path.display())))?;
    let title = yaml::parse::<TitleOnly>(split.yaml)
        .map(|t| t.title)
        .map_err(|e| Error::Edit(format!("{}: {}", path.display(), e.message)))?;
    Ok(Editable {
        kind: id.kind,
        group: id.kind.plural(),
        route: id.route(),
        id,
        title,
        content: EditableContent {
            sections: sections::parse(split.body).sections,
        },
        version: version_of(text.as_bytes()),
    })
}

/// Why a set of sections cannot be written.
pub fn check_sections(new: &[Section]) -> std::result::Result<(), String> {
    for (i, s) in new.iter().enumerate() {
        let n = i + 1;
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

static WRITE_LOCK: Mutex<()> = Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\ntitle: \"Strona\"   # komentarz zostaje\ndescription: \"Opis\"\n---\nPierwszy akapit.\n\n<!-- section: callout -->\nUwaga!\n";

    fn id(text: &str) -> DocId {
        DocId::parse(text).expect("a valid id")
    }

    fn project(dir: &Path) -> Project {
        let p = Project::at(dir);
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
        let doc = p.editable(&id("pages/strona")).unwrap().unwrap();
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
        let doc = p.editable(&id("pages/strona")).unwrap().unwrap();
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
            p.editable(&id("pages/strona"))
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
        let doc = p.editable(&id("pages/strona")).unwrap().unwrap();
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
        assert!(p.editable(&id("pages/inna")).unwrap().is_none());
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
}
