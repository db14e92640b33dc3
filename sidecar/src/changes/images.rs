//! Pictures as changes of the content: an upload decoded whole (one at a time) before it is
//! kept, stored under `content/images/` (never over another file), the site rebuilt, the
//! file committed and the upload written to the audit log; a picture no page shows removed
//! the same way; and the list of pictures with their texts. Done on the blocking pool.

use actix_web::http::StatusCode;
use content::beneath::Root;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::audit::Content;
use crate::changes::{commit, one_at_a_time, read, Pipeline};
use crate::db::Upload;
use crate::error::ApiError;
use crate::http::admin::Author;

/// The formats the panel takes, by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jpeg,
    Png,
    Webp,
}

impl Format {
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Format::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Format::Png)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(Format::Webp)
        } else {
            None
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::Jpeg => "jpg",
            Format::Png => "png",
            Format::Webp => "webp",
        }
    }
}

/// The file name an upload is stored under: the slug of its name, the sniffed extension.
pub fn stored_name(name: &str, format: Format) -> String {
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let mut slug = content::kind::slugify(stem);
    if slug.is_empty() {
        slug = "obraz".into();
    }
    format!("{slug}.{}", format.extension())
}

/// An upload refused for what its bytes are: nothing of it is kept.
pub fn refused(problem: &site::images::ImageProblem) -> ApiError {
    let status = match problem {
        site::images::ImageProblem::UnknownFormat => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        // Not the picture's fault: the image worker did not answer (on a first `make run`,
        // it is still compiling).
        site::images::ImageProblem::Unchecked(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    ApiError::status(status, problem.polish())
}

/// Decodes uploads one at a time: each may take a few hundred megabytes for a moment. The
/// others wait here, not on a blocking thread: a burst of uploads leaves the panel's other
/// requests their threads.
static DECODING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// Proves the bytes are an image the site can use, decoding them whole within the limits.
pub async fn inspect(body: bytes::BytesMut) -> Result<bytes::BytesMut, ApiError> {
    if Format::sniff(&body).is_none() {
        return Err(refused(&site::images::ImageProblem::UnknownFormat));
    }
    let _one = DECODING
        .acquire()
        .await
        .map_err(|_| refused(&site::images::ImageProblem::Unchecked("closed".into())))?;
    crate::tasks::block(move || site::images::inspect(&body).map(|_| body))
        .await?
        .map_err(|problem| {
            tracing::warn!(%problem, "an upload was refused");
            refused(&problem)
        })
}

/// One upload at a time chooses its name.
static NAMING: Mutex<()> = Mutex::new(());

/// Stores `bytes` in `dir` (beneath `root`, `content/`) as `name`, or `name-2`, `name-3`…
/// where another file (or a link) has the name; the same bytes under the name already are
/// that file. Created whole, never over a name, never through a link ([`Root::create_new`]).
fn store(root: &Root, dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<String> {
    let _guard = NAMING.lock().unwrap_or_else(|p| p.into_inner());
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    for n in 1..1000 {
        let candidate = match n {
            1 => name.to_string(),
            n => format!("{stem}-{n}.{ext}"),
        };
        let path = dir.join(&candidate);
        if root.exists(&path) {
            if root.read(&path).is_ok_and(|b| b == bytes) {
                return Ok(candidate);
            }
            continue;
        }
        if root.create_new(&path, bytes)? {
            return Ok(candidate);
        }
    }
    Err(std::io::Error::other("no free name"))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stored {
    pub file: String,
    pub url: String,
    pub alt: String,
    pub bytes: usize,
    pub warning: Option<String>,
    /// Its lighter variants are still being made (`GET /api/images` says when they are).
    pub pending: bool,
}

/// Stores an upload already inspected as `name` (or the next free name), rebuilds the site
/// and commits the file; the upload is written to the audit log.
pub async fn upload(
    pipeline: &Pipeline,
    author: &Author,
    name: String,
    alt: String,
    body: bytes::BytesMut,
) -> Result<Stored, ApiError> {
    let (author, state) = (author.clone(), pipeline.clone());
    one_at_a_time(pipeline, move || {
        let state = &state;
        let dir = state.site.project.content_dir.join("images");
        let root = state.site.editor.root();
        let file = store(&root, &dir, &name, &body).map_err(|e| ApiError::internal(&e))?;
        state.db.put_upload(&Upload {
            file: file.clone(),
            alt: alt.clone(),
            author: author.email.clone(),
            uploaded_at: state.clock.now(),
            bytes: body.len() as i64,
        })?;
        state.site.rebuild().map_err(|e| {
            tracing::error!(error = %e, "the site does not build after an upload");
            ApiError::unprocessable("Obraz zapisano, ale strony nie udało się zbudować ponownie.")
        })?;
        tracing::info!(file, bytes = body.len(), "image uploaded");
        let committed = {
            let _builder = state.site.builder();
            let message = format!("Nowy obraz images/{file} z panelu administracyjnego");
            commit(state, &dir.join(&file), &author.email, &message)
        };
        let (email, client) = (&author.email, &author.client);
        state
            .accounts
            .audit(Content::ImageUploaded, email, client, &file);
        let failure = state.site.publishing.status().failure;
        let warnings: Vec<String> = failure.into_iter().chain(committed).collect();
        Ok(Stored {
            pending: state.site.images.waits_for(&file),
            url: format!("/images/{file}"),
            file,
            alt,
            bytes: body.len(),
            warning: (!warnings.is_empty()).then(|| warnings.join(" ")),
        })
    })
    .await
}

/// The titles of what shows `file` (a path under `content/images/`): pages, services,
/// articles (published or not), profiles, and the facts of `site.yaml`.
fn users(content: &content::model::Content, file: &str) -> Vec<String> {
    use content::images::{classify, ImageRef};
    let shows = |value: &str| matches!(classify(value), ImageRef::Local(p) if p == file);
    let in_text =
        |links: &[content::markdown::Target]| links.iter().any(|l| l.is_image && shows(&l.url));
    let mut titles = Vec::new();
    for doc in &content.pages {
        if doc.meta.image.as_deref().is_some_and(shows) || in_text(&doc.links) {
            titles.push(doc.meta.title.clone());
        }
    }
    for doc in &content.services {
        if shows(&doc.meta.image) || in_text(&doc.links) {
            titles.push(doc.meta.title.clone());
        }
    }
    for doc in &content.articles {
        if shows(&doc.meta.image) || in_text(&doc.links) {
            titles.push(doc.meta.title.clone());
        }
    }
    for doc in &content.team {
        if shows(&doc.meta.photo) || in_text(&doc.links) {
            titles.push(doc.meta.name.clone());
        }
    }
    let site = &content.site;
    if shows(&site.og_image) || site.fallback_images.iter().any(|i| shows(i)) {
        titles.push("Dane gabinetu (site.yaml)".into());
    }
    titles
}

/// Removes `file` (a name under `content/images/`, checked to be one by the caller) if no
/// page shows it, rebuilds and commits; the removal is written to the audit log.
pub async fn delete(pipeline: &Pipeline, author: &Author, file: String) -> Result<(), ApiError> {
    let (author, state) = (author.clone(), pipeline.clone());
    one_at_a_time(pipeline, move || {
        let state = &state;
        let not_found = || ApiError::status(StatusCode::NOT_FOUND, "Nie ma takiego obrazu.");
        let dir = state.site.project.content_dir.join("images");
        let path = dir.join(&file);
        let root = state.site.editor.root();
        if !root.is_file(&path) {
            return Err(not_found());
        }
        // Everything, also what is not public yet: an unpublished article must not lose it.
        let content = site::load(&state.site.project).map_err(|e| ApiError::internal(&e))?;
        let shown_by = users(&content, &file);
        if !shown_by.is_empty() {
            return Err(ApiError::unprocessable(format!(
                "Tego obrazu nie można usunąć, bo pokazują go: {}. Najpierw wybierz tam inny obraz.",
                shown_by.join(", ")
            )));
        }
        root.remove_file(&path).map_err(|e| ApiError::internal(&e))?;
        state.db.delete_upload(&file)?;
        tracing::info!(file, admin = author.email, "image deleted");
        state.site.rebuild().map_err(|e| {
            tracing::error!(error = %e, "the site does not build after an image was deleted");
            ApiError::unprocessable("Obraz usunięto, ale strony nie udało się zbudować ponownie.")
        })?;
        let _builder = state.site.builder();
        let message = format!("Usunięcie obrazu images/{file} w panelu administracyjnym");
        if let Some(warning) = commit(state, &path, &author.email, &message) {
            tracing::warn!("{warning}");
        }
        let (email, client) = (&author.email, &author.client);
        state.accounts.audit(Content::ImageDeleted, email, client, &file);
        Ok(())
    })
    .await
}

/// A picture of the site as the panel lists it (`GET /api/images`) and as an upload answers.
#[derive(Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Picture {
    file: String,
    url: String,
    /// The alternative text given at upload, if the image came from the panel.
    alt: Option<String>,
    bytes: u64,
    /// Still waiting for its variants (a photograph just uploaded): shown as it is until then.
    pending: bool,
}

/// Every image under `content/images/`, uploaded ones with their text.
pub async fn list(pipeline: &Pipeline) -> Result<Vec<Picture>, ApiError> {
    read(pipeline, |state| {
        let content_dir = &state.site.project.content_dir;
        let dir: PathBuf = content_dir.join("images");
        let alts: HashMap<String, String> = state
            .db
            .uploads()?
            .into_iter()
            .map(|u| (u.file, u.alt))
            .collect();
        let mut out: Vec<Picture> = content::walk::files(content_dir, &dir)
            .unwrap_or_default()
            .into_iter()
            .filter(|found| !found.relative.contains('/'))
            .filter_map(|found| {
                let file = found.relative;
                let ext = file.rsplit_once('.')?.1.to_ascii_lowercase();
                let shown = ["jpg", "jpeg", "png", "webp", "svg", "gif", "avif"];
                shown.contains(&ext.as_str()).then(|| Picture {
                    url: format!("/images/{file}"),
                    alt: alts.get(&file).cloned(),
                    bytes: found.len,
                    pending: state.site.images.waits_for(&file),
                    file,
                })
            })
            .collect();
        out.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(out)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn formats_are_told_by_their_first_bytes() {
        assert_eq!(Format::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(Format::Jpeg));
        assert_eq!(Format::sniff(b"\x89PNG\r\n\x1a\n...."), Some(Format::Png));
        assert_eq!(Format::sniff(b"RIFF\x10\0\0\0WEBPVP8 "), Some(Format::Webp));
        assert_eq!(Format::sniff(b"GIF89a"), None);
        assert_eq!(Format::sniff(b"<svg xmlns"), None);
        assert_eq!(Format::sniff(b"RIFF\x10\0\0\0WAVEfmt "), None);
    }

    #[test]
    fn names_are_slugs_with_the_real_extension_and_never_overwrite() {
        assert_eq!(
            stored_name("Zdjęcie gabinetu.JPG", Format::Jpeg),
            "zdjecie-gabinetu.jpg"
        );
        assert_eq!(stored_name("../../etc/passwd", Format::Png), "passwd.png");
        assert_eq!(stored_name("plik.exe", Format::Webp), "plik.webp");
        assert_eq!(stored_name("", Format::Png), "obraz.png");
        for hostile in [
            "a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png",
            "q\" onmouseover=\"alert(1)\" x=\".png",
            "q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
        ] {
            let name = stored_name(hostile, Format::Png);
            assert!(content::kind::is_content_name(&name), "{hostile} → {name}");
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let root = Root::new(dir.path());
        let images = dir.path().join("images");
        let store = |name: &str, bytes: &[u8]| store(&root, &images, name, bytes);
        assert_eq!(store("a.png", b"one").expect("stored"), "a.png");
        assert_eq!(
            store("a.png", b"one").expect("stored"),
            "a.png",
            "same bytes"
        );
        assert_eq!(store("a.png", b"two").expect("stored"), "a-2.png");
        assert_eq!(fs::read(images.join("a.png")).expect("stored"), b"one");
        // A link planted under the next name (or as a temporary file) is never written
        // through: the upload takes a free name.
        let target = dir.path().join("site.sqlite3");
        fs::write(&target, "baza").expect("write");
        std::os::unix::fs::symlink(&target, images.join("a-3.png")).expect("link");
        std::os::unix::fs::symlink(&target, images.join(".a-4.png.uploading")).expect("link");
        assert_eq!(store("a.png", b"three").expect("stored"), "a-4.png");
        assert_eq!(fs::read_to_string(&target).expect("read"), "baza");
    }
}
