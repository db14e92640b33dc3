//! The therapists' profiles under `content/team/`, edited in the panel's 'Zespół': a profile's
//! front-matter fields and its text are rewritten in place (every other line stays), a new
//! therapist is a new file named after them, and the order of the profiles is each one's
//! `order:`. Every write is version-checked like any other change of the content.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use ts_rs::TS;

use crate::edit::check_sections;
use crate::error::{Error, Result};
use crate::transaction::{transaction, version_of, Expect, Saved};
use crate::Editor;
use content::fields::{one_line, text_fields, Focus, FOCUS_KEY};
use content::frontmatter;
use content::kind::{is_slug, slugify, DocId, Kind};
use content::model::TeamMeta;
use content::problem::{EditProblem, Field, Problem};
use content::sections::Section;
use content::yaml::{self, Change, Item, Node};

/// What the panel edits of a therapist.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    pub role: String,
    /// A picture under `content/images/`.
    pub photo: String,
    pub photo_alt: String,
    /// The point of the photo a crop keeps in view (`"50% 30%"`), or empty for the middle.
    #[serde(default)]
    pub image_focus: String,
    pub qualifications: Vec<String>,
    /// The text under the name: Markdown.
    pub body: String,
}

/// A therapist as the panel lists them, in the order the site shows them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
pub struct TeamMember {
    /// The file's name under `content/team/`, also the profile's anchor on `/o-mnie`.
    pub slug: String,
    pub order: u32,
    pub profile: Profile,
    pub version: String,
    /// Whether a new article is signed by this person unless another author is chosen
    /// (`default_author` of `site.yaml`); set by the server that lists the team.
    #[serde(rename = "defaultAuthor")]
    pub default_author: bool,
}

/// The longest qualification.
pub const QUALIFICATION_MAX_CHARS: usize = 150;

/// Why a profile cannot be written: the rules of the build for its texts, a photo, and
/// qualifications of one line each.
pub fn check_profile(p: &Profile) -> std::result::Result<(), Problem> {
    for field in text_fields(Kind::Team, None) {
        let value = match field.key {
            "name" => &p.name,
            "role" => &p.role,
            _ => &p.photo_alt,
        };
        field.check(Some(value))?;
    }
    if p.photo.trim().is_empty() {
        return Err(EditProblem::Empty {
            field: Field::Photo,
        }
        .into());
    }
    one_line(Field::Photo, &p.photo, 200)?;
    Focus::check(&p.image_focus)?;
    for (i, q) in p.qualifications.iter().enumerate() {
        let field = Field::Qualification(i + 1);
        if q.trim().is_empty() {
            return Err(EditProblem::Empty { field }.into());
        }
        one_line(field, q, QUALIFICATION_MAX_CHARS)?;
    }
    check_sections(&[Section {
        kind: "text".into(),
        content: p.body.as_str().into(),
    }])
}

fn id(slug: &str) -> DocId {
    DocId::new(Kind::Team, slug)
}

fn edit_error(path: &std::path::Path, message: impl std::fmt::Display) -> Error {
    Error::Edit(format!("{}: {message}", path.display()))
}

/// The profile in `text`, the file of `slug`.
fn member(slug: &str, path: &std::path::Path, text: &str) -> Result<TeamMember> {
    let split =
        frontmatter::split(text).map_err(|(line, m)| edit_error(path, format!("{line}: {m}")))?;
    let meta: TeamMeta = yaml::parse(split.yaml).map_err(|e| edit_error(path, e.message))?;
    Ok(TeamMember {
        slug: slug.to_string(),
        order: meta.order,
        profile: Profile {
            name: meta.name,
            role: meta.role,
            photo: meta.photo,
            photo_alt: meta.photo_alt,
            image_focus: meta.image_focus.unwrap_or_default(),
            qualifications: meta.qualifications,
            body: split.body.trim_start_matches('\n').trim_end().to_string(),
        },
        version: version_of(text.as_bytes()),
        default_author: false,
    })
}

/// `text` with the profile's fields and body replaced, every other front-matter line kept.
fn rewrite(text: &str, p: &Profile) -> Result<String> {
    let split =
        frontmatter::split(text).map_err(|(line, m)| Error::Edit(format!("line {line}: {m}")))?;
    let now: TeamMeta = yaml::parse(split.yaml).map_err(|e| Error::Edit(e.message))?;
    let mut changes = Vec::new();
    let texts = [
        ("name", &now.name, &p.name),
        ("role", &now.role, &p.role),
        ("photo", &now.photo, &p.photo),
        ("photo_alt", &now.photo_alt, &p.photo_alt),
    ];
    for (key, now, next) in texts {
        if now != next.trim() {
            changes.push(Change::set(&[key], Node::str(next.trim())));
        }
    }
    let focus = p.image_focus.trim();
    match (&now.image_focus, focus.is_empty()) {
        (Some(_), true) => changes.push(Change::remove(&[FOCUS_KEY])),
        (now, false) if now.as_deref() != Some(focus) => {
            changes.push(Change::set(&[FOCUS_KEY], Node::str(focus)));
        }
        _ => {}
    }
    let next: Vec<&str> = p.qualifications.iter().map(|q| q.trim()).collect();
    let list = (now.qualifications != next).then(|| {
        next.iter()
            .map(
                |q| match now.qualifications.iter().position(|old| old == q) {
                    Some(i) => Item::Keep(i),
                    None => Item::New {
                        value: Node::str(*q),
                        comments_of: None,
                    },
                },
            )
            .collect::<Vec<_>>()
    });
    let mut yaml = if changes.is_empty() {
        split.yaml.to_string()
    } else {
        yaml::edit(split.yaml, &changes).map_err(Error::Edit)?
    };
    if let Some(items) = list {
        yaml = yaml::edit_list(&yaml, "qualifications", &items).map_err(Error::Edit)?;
    }
    let start = split.yaml.as_ptr() as usize - text.as_ptr() as usize;
    let body_start = split.body.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + split.yaml.len();
    let old_body = &text[body_start..];
    let body = if old_body.trim() == p.body.trim() {
        old_body.to_string()
    } else {
        body_text(&p.body)
    };
    Ok(format!(
        "{}{yaml}{}{body}",
        &text[..start],
        &text[end..body_start]
    ))
}

/// A body as a file ends it: with one new line.
fn body_text(body: &str) -> String {
    let body = body.trim_end();
    if body.is_empty() {
        String::new()
    } else {
        format!("{body}\n")
    }
}

/// The file of a new profile, ordered `order`.
fn new_file(p: &Profile, order: u32) -> String {
    let list: String = p
        .qualifications
        .iter()
        .map(|q| format!("\n  - {}", yaml::quoted(q.trim())))
        .collect();
    let list = if list.is_empty() {
        " []".to_string()
    } else {
        list
    };
    let focus = match p.image_focus.trim() {
        "" => String::new(),
        f => format!("{FOCUS_KEY}: {}\n", yaml::quoted(f)),
    };
    format!(
        "---\nname: {}\nrole: {}\nphoto: {}\nphoto_alt: {}\n{focus}qualifications:{list}\norder: {order}\n---\n{}",
        yaml::quoted(p.name.trim()),
        yaml::quoted(p.role.trim()),
        yaml::quoted(p.photo.trim()),
        yaml::quoted(p.photo_alt.trim()),
        body_text(&p.body),
    )
}

impl Editor {
    /// The file of the profile `slug` (which may not exist yet).
    pub fn team_file(&self, slug: &str) -> Option<PathBuf> {
        is_slug(slug).then(|| id(slug).file(&self.content_dir))
    }

    /// Every therapist, in the order the site shows them (by `order:`, then name of file).
    pub fn team(&self) -> Result<Vec<TeamMember>> {
        let mut out = Vec::new();
        for found in self.files_of(Kind::Team.folder())? {
            let Some(slug) = found.relative.strip_suffix(".md").filter(|s| is_slug(s)) else {
                continue;
            };
            let text = self.read(&found.path)?;
            out.push(member(slug, &found.path, &text)?);
        }
        out.sort_by(|a, b| (a.order, &a.slug).cmp(&(b.order, &b.slug)));
        Ok(out)
    }

    /// Saves `profile` as the profile `slug` if its file is still at `version`.
    pub fn save_profile(&self, slug: &str, version: &str, profile: &Profile) -> Result<Saved> {
        let Some(path) = self.team_file(slug) else {
            return Ok(Saved::NotFound);
        };
        transaction(&self.root(), &path, Expect::Version(version), |text| {
            rewrite(text, profile).map(Some)
        })
    }

    /// Sets the place of the profile `slug` among the others, if its file is still at
    /// `version`.
    pub fn set_order(&self, slug: &str, version: &str, order: u32) -> Result<Saved> {
        let Some(path) = self.team_file(slug) else {
            return Ok(Saved::NotFound);
        };
        transaction(&self.root(), &path, Expect::Version(version), |text| {
            let split = frontmatter::split(text)
                .map_err(|(line, m)| Error::Edit(format!("line {line}: {m}")))?;
            let change = Change::set(&["order"], Node::Int(i64::from(order)));
            let yaml = yaml::edit(split.yaml, &[change]).map_err(Error::Edit)?;
            let start = split.yaml.as_ptr() as usize - text.as_ptr() as usize;
            let end = start + split.yaml.len();
            Ok(Some(format!("{}{yaml}{}", &text[..start], &text[end..])))
        })
    }

    /// The slug a new therapist named `name` gets: their name in lowercase ASCII.
    pub fn team_slug(name: &str) -> std::result::Result<String, Problem> {
        let slug = slugify(name);
        if slug.is_empty() {
            return Err(EditProblem::NoSlug.into());
        }
        Ok(slug)
    }

    /// Where the site names the therapist `slug` besides their profile, in Polish: their
    /// booking page, the services they take and the certificate badge in `site.yaml`, and
    /// the articles that book with them. A therapist named anywhere is not removed.
    pub fn therapist_uses(&self, slug: &str) -> Result<Vec<String>> {
        let site_file = self.content_dir.join("site.yaml");
        let text = self.read(&site_file)?;
        let site: serde_json::Value =
            yaml::parse(&text).map_err(|e| edit_error(&site_file, e.message))?;
        let booking = &site["booking"];
        let mut out = Vec::new();
        if booking["therapists"].get(slug).is_some() {
            out.push("link do rezerwacji w danych gabinetu (site.yaml)".to_string());
        }
        if booking["doctor_listing"]["badge_therapist"] == slug {
            out.push("certyfikat na stronie głównej".to_string());
        }
        if let Some(services) = booking["services"].as_object() {
            for (service, who) in services {
                if who == slug {
                    out.push(format!("usługa „{service}”"));
                }
            }
        }
        for found in self.files_of(Kind::Article.folder())? {
            let text = self.read(&found.path)?;
            let Ok(split) = frontmatter::split(&text) else {
                continue;
            };
            let front: serde_json::Value = yaml::parse(split.yaml).unwrap_or_default();
            if front["therapist"] == slug {
                let title = front["title"].as_str().unwrap_or(&found.relative);
                out.push(format!("artykuł „{title}”"));
            }
        }
        Ok(out)
    }

    /// Removes the profile `slug` if its file is still at `version` (its text stays in the
    /// history).
    pub fn delete_profile(&self, slug: &str, version: &str) -> Result<Saved> {
        let Some(path) = self.team_file(slug) else {
            return Ok(Saved::NotFound);
        };
        transaction(&self.root(), &path, Expect::Version(version), |_| Ok(None))
    }

    /// A new profile, last in the order, never over an existing file (`Saved::Conflict`).
    pub fn create_profile(&self, slug: &str, profile: &Profile) -> Result<Saved> {
        let Some(path) = self.team_file(slug) else {
            return Ok(Saved::NotFound);
        };
        let last = self.team()?.iter().map(|m| m.order).max().unwrap_or(0);
        let text = new_file(profile, last + 1);
        transaction(&self.root(), &path, Expect::Nothing, |_| Ok(Some(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const MAGDA: &str = "---\nname: \"Magdalena Wiśniewska\"\nrole: \"Psycholożka\"  # krótko\nphoto: \"magdalena.svg\"\nphoto_alt: \"Portret\"\nqualifications:\n  - \"Magister psychologii\"\n  - \"Interwencja kryzysowa\"\norder: 1\n---\nOd dziesięciu lat pomaga dorosłym.\n";

    fn project(dir: &std::path::Path) -> Editor {
        let e = Editor::new(dir.join("content"));
        fs::create_dir_all(e.content_dir.join("team")).unwrap();
        fs::write(e.content_dir.join("team/magda.md"), MAGDA).unwrap();
        e
    }

    #[test]
    fn an_unchanged_profile_leaves_the_file_byte_identical() {
        let dir = tempfile::tempdir().unwrap();
        let e = project(dir.path());
        let [m] = e.team().unwrap().try_into().unwrap();
        assert_eq!(m.profile.qualifications.len(), 2);
        e.save_profile("magda", &m.version, &m.profile).unwrap();
        assert_eq!(
            fs::read_to_string(e.content_dir.join("team/magda.md")).unwrap(),
            MAGDA
        );
    }

    #[test]
    fn a_profile_changes_only_its_own_lines() {
        let dir = tempfile::tempdir().unwrap();
        let e = project(dir.path());
        let [m] = e.team().unwrap().try_into().unwrap();
        let p = Profile {
            role: "Psycholożka i coach".into(),
            qualifications: vec!["Magister psychologii".into()],
            body: "Nowy opis.".into(),
            ..m.profile.clone()
        };
        assert!(matches!(
            e.save_profile("magda", &m.version, &p).unwrap(),
            Saved::Written { .. }
        ));
        assert_eq!(
            fs::read_to_string(e.content_dir.join("team/magda.md")).unwrap(),
            "---\nname: \"Magdalena Wiśniewska\"\nrole: \"Psycholożka i coach\"  # krótko\nphoto: \"magdalena.svg\"\nphoto_alt: \"Portret\"\nqualifications:\n  - \"Magister psychologii\"\norder: 1\n---\nNowy opis.\n"
        );
        assert!(matches!(
            e.save_profile("magda", &m.version, &p).unwrap(),
            Saved::Conflict { .. }
        ));
    }

    #[test]
    fn a_new_therapist_is_named_after_them_last_and_never_over_another() {
        let dir = tempfile::tempdir().unwrap();
        let e = project(dir.path());
        let slug = Editor::team_slug("Zofia Żądło-Łęcka").unwrap();
        assert_eq!(slug, "zofia-zadlo-lecka");
        let p = Profile {
            name: "Zofia Żądło-Łęcka".into(),
            role: "Psycholożka dziecięca".into(),
            photo: "las.svg".into(),
            photo_alt: "Portret Zofii".into(),
            image_focus: "40% 20%".into(),
            qualifications: vec!["Psychologia dziecięca".into()],
            body: "Pracuje z dziećmi.".into(),
        };
        assert!(matches!(
            e.create_profile(&slug, &p).unwrap(),
            Saved::Written { .. }
        ));
        let team = e.team().unwrap();
        assert_eq!(
            team.iter()
                .map(|m| (m.slug.as_str(), m.order))
                .collect::<Vec<_>>(),
            [("magda", 1), (slug.as_str(), 2)]
        );
        assert_eq!(team[1].profile, p);
        assert!(matches!(
            e.create_profile(&slug, &p).unwrap(),
            Saved::Conflict { .. }
        ));
        e.set_order(&slug, &team[1].version, 0).unwrap();
        let first = e.team().unwrap().remove(0);
        assert_eq!(first.slug, slug);
        assert!(matches!(
            e.delete_profile(&slug, &first.version).unwrap(),
            Saved::Written { .. }
        ));
        assert_eq!(e.team().unwrap().len(), 1);
    }

    #[test]
    fn a_therapist_named_by_the_booking_or_an_article_is_said_to_be_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let e = project(dir.path());
        fs::write(
            e.content_dir.join("site.yaml"),
            "name: \"Gabinet\"\nbooking:\n  practice: \"https://booksy.com/x\"\n  doctor_listing:\n    badge_therapist: magda\n  therapists:\n    magda:\n      url: \"https://booksy.com/m\"\n  services:\n    terapia-par: magda\n    coaching: practice\n",
        )
        .unwrap();
        fs::create_dir_all(e.content_dir.join("blog")).unwrap();
        fs::write(
            e.content_dir.join("blog/lek.md"),
            "---\ntitle: \"Lęk\"\ntherapist: magda\n---\nTekst.\n",
        )
        .unwrap();
        assert_eq!(
            e.therapist_uses("magda").unwrap(),
            [
                "link do rezerwacji w danych gabinetu (site.yaml)",
                "certyfikat na stronie głównej",
                "usługa „terapia-par”",
                "artykuł „Lęk”",
            ]
        );
        assert!(e.therapist_uses("ewa").unwrap().is_empty());
    }

    #[test]
    fn a_profile_is_refused_in_polish() {
        let p = Profile {
            name: "Anna".into(),
            role: "Psycholożka".into(),
            photo: "las.svg".into(),
            photo_alt: "Portret".into(),
            image_focus: String::new(),
            qualifications: vec!["Magister".into(), " ".into()],
            body: String::new(),
        };
        assert_eq!(
            check_profile(&p).unwrap_err().sentence(),
            "Kwalifikacja 2: pole nie może być puste."
        );
        let bad_focus = Profile {
            image_focus: "góra".into(),
            qualifications: vec![],
            ..p.clone()
        };
        assert!(check_profile(&bad_focus)
            .unwrap_err()
            .sentence()
            .starts_with("Punkt ostrości „góra”"));
        let no_photo = Profile {
            photo: String::new(),
            qualifications: vec![],
            ..p.clone()
        };
        assert_eq!(
            check_profile(&no_photo).unwrap_err().sentence(),
            "Zdjęcie: pole nie może być puste."
        );
        let no_name = Profile {
            name: " ".into(),
            qualifications: vec![],
            ..p
        };
        assert_eq!(
            check_profile(&no_name).unwrap_err().sentence(),
            "Imię i nazwisko: pole nie może być puste."
        );
    }
}
