//! Every image under `content/images/`: its size, and for a raster image (JPEG, PNG, WebP)
//! its variants, taken from the cache or encoded in parallel. Files are published as they
//! are under `/images/`, variants under `/assets/img/` with their key in the name, so that
//! they can be cached for ever.

use bytes::Bytes;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::cache::Cache;
use super::encode::{self, Failure, Format, Header, Settings, Worker};
use super::svg;
use crate::error::Result;
use crate::output::Output;
use content::beneath::Root;
use content::encoding::hex;
use content::limits::MAX_IMAGE_BYTES;
use content::problem::FileProblem;
use content::walk;
use content::Diagnostic;

/// Where variants are published.
const VARIANTS_DIR: &str = "assets/img";

/// Extensions published from `content/images/`; anything else there (notes, scene files)
/// stays out of the site.
const PUBLISHED: [&str; 8] = ["jpg", "jpeg", "png", "webp", "svg", "gif", "avif", "ico"];
const RASTER: [&str; 4] = ["jpg", "jpeg", "png", "webp"];

fn extension(relative: &str) -> String {
    relative
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// One encoded copy of a raster image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Variant {
    pub width: u32,
    pub height: u32,
    pub format: Format,
    pub url: String,
}

/// What pages need to know about one file under `content/images/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ImageInfo {
    pub relative: String,
    /// Its size as shown; `None` when it cannot be known (an SVG without one).
    pub size: Option<(u32, u32)>,
    /// Every variant, by format then width; empty for what is published as it is.
    pub variants: Vec<Variant>,
    pub fallback: Option<Format>,
    /// Why the file cannot be used, if it cannot: it is then not published, and a page that
    /// shows it fails the build.
    pub broken: Option<String>,
}

impl ImageInfo {
    pub(crate) fn is_raster(&self) -> bool {
        !self.variants.is_empty()
    }

    pub(crate) fn of(&self, format: Format) -> impl Iterator<Item = &Variant> {
        self.variants.iter().filter(move |v| v.format == format)
    }

    fn plain(relative: &str, size: Option<(u32, u32)>) -> Self {
        ImageInfo {
            relative: relative.to_string(),
            size,
            variants: Vec::new(),
            fallback: None,
            broken: None,
        }
    }
}

/// How many images a build had, and how many variants it had to encode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImageStats {
    /// Raster images that have variants.
    pub sources: usize,
    /// Variants published.
    pub variants: usize,
    /// Variants encoded by this build (the others came from the cache or the last build).
    pub encoded: usize,
    /// Raster images shown as they are until their variants are encoded in the background.
    pub pending: usize,
}

struct Processed {
    info: ImageInfo,
    outputs: Vec<Output>,
}

/// The images of one build.
pub struct Catalog {
    images: BTreeMap<String, Arc<Processed>>,
    fingerprint: [u8; 32],
    pub stats: ImageStats,
    /// Files that cannot be read as images: a warning each (an error where a page shows one).
    pub warnings: Vec<Diagnostic>,
    /// Raster images whose variants were left for [`prepare`] (by their relative path).
    pub pending: Vec<String>,
}

/// What the last build processed, by file: a rebuild reads no image that did not change.
#[derive(Default)]
pub(crate) struct Memo {
    entries: HashMap<String, (u64, Option<SystemTime>, Arc<Processed>)>,
}

/// Whether a build encodes the variants it lacks, or shows those images as they are and
/// leaves the encoding to [`prepare`], outside the build (the sidecar: a save never waits for
/// a photograph).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Inline,
    Deferred,
}

impl Catalog {
    /// The image a page address (`/images/…`) names.
    pub(crate) fn get(&self, url: &str) -> Option<&ImageInfo> {
        let relative = url.strip_prefix("/images/")?;
        self.images.get(relative).map(|p| &p.info)
    }

    /// Changes whenever anything a page could show of any image does.
    pub(crate) fn fingerprint(&self) -> [u8; 32] {
        self.fingerprint
    }

    /// Reads `dir`, encoding what the cache lacks (or leaving it, `Encoding::Deferred`);
    /// returns the catalog and its files.
    pub(crate) fn build(
        dir: &Path,
        cache: &Cache,
        settings: &Settings,
        memo: &mut Memo,
        encoding: Encoding,
    ) -> Result<(Catalog, Vec<Output>)> {
        Self::build_with(dir, cache, settings, memo, encoding, Worker::find())
    }

    /// [`Catalog::build`] with `worker` as the image worker, or why there is none.
    fn build_with(
        dir: &Path,
        cache: &Cache,
        settings: &Settings,
        memo: &mut Memo,
        encoding: Encoding,
        worker: std::result::Result<Worker, Failure>,
    ) -> Result<(Catalog, Vec<Output>)> {
        let files: Vec<walk::Found> = walk::files(images_root(dir), dir)?
            .into_iter()
            .filter(|f| PUBLISHED.contains(&extension(&f.relative).as_str()))
            .collect();
        let mut scanned: Vec<Scanned> = files
            .par_iter()
            .map(|found| match memo.entries.get(&found.relative) {
                Some((len, modified, hit)) if stamp(found) == (*len, *modified) => {
                    Scanned::Known(Arc::clone(hit))
                }
                _ => scan(found, cache, settings, worker.as_ref().ok()),
            })
            .collect();
        if let Err(Failure::Worker(why) | Failure::Image(why)) = &worker {
            if scanned.iter().any(|s| matches!(s, Scanned::Unscanned(..))) {
                tracing::warn!("photographs are published as they are, without variants: {why}");
            }
        }
        let encoded = match (encoding, &worker) {
            (Encoding::Inline, Ok(worker)) => fill(&mut scanned, cache, settings, worker),
            _ => 0,
        };
        let mut catalog = Catalog {
            images: BTreeMap::new(),
            fingerprint: [0; 32],
            stats: ImageStats {
                encoded,
                ..ImageStats::default()
            },
            warnings: Vec::new(),
            pending: Vec::new(),
        };
        let mut next = Memo::default();
        for (found, scanned) in files.iter().zip(scanned) {
            let pending = scanned.missing() > 0;
            let processed = scanned.finish();
            let info = &processed.info;
            if let Some(why) = &info.broken {
                catalog.warnings.push(problem(&found.path, why.clone()));
            } else if pending {
                catalog.pending.push(found.relative.clone());
                catalog.stats.pending += 1;
            } else if info.is_raster() {
                catalog.stats.sources += 1;
                catalog.stats.variants += info.variants.len();
            }
            if !pending {
                let (len, modified) = stamp(found);
                let entry = (len, modified, Arc::clone(&processed));
                next.entries.insert(found.relative.clone(), entry);
            }
            catalog.images.insert(found.relative.clone(), processed);
        }
        *memo = next;
        let outputs = catalog
            .images
            .values()
            .flat_map(|p| p.outputs.iter().cloned())
            .collect();
        catalog.fingerprint = fingerprint_of(&catalog.images);
        Ok((catalog, outputs))
    }
}

/// Encodes into `cache` every variant the raster images `relatives` (paths under `dir`)
/// lack, outside any build; `progress` hears of each image done. Returns how many variants
/// were encoded; an image that cannot be read is skipped (the build reports it).
pub fn prepare(
    dir: &Path,
    cache_dir: &Path,
    relatives: &[String],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> usize {
    prepare_with(dir, cache_dir, relatives, progress, &encode::SETTINGS)
}

fn prepare_with(
    dir: &Path,
    cache_dir: &Path,
    relatives: &[String],
    progress: &(dyn Fn(usize, usize) + Sync),
    settings: &Settings,
) -> usize {
    let worker = match Worker::find() {
        Ok(worker) => worker,
        Err(Failure::Worker(why) | Failure::Image(why)) => {
            tracing::warn!("no image variants can be made: {why}");
            return 0;
        }
    };
    let cache = Cache::new(cache_dir.to_path_buf());
    let total = relatives.len();
    let mut encoded = 0;
    let root = Root::new(images_root(dir));
    for (done, relative) in relatives.iter().enumerate() {
        let path = dir.join(relative);
        let found = walk::Found {
            relative: relative.clone(),
            len: root.stat(&path).map_or(0, |s| s.len),
            path,
            modified: None,
            root: root.clone(),
        };
        let mut one = [scan(&found, &cache, settings, Some(&worker))];
        encoded += fill(&mut one, &cache, settings, &worker);
        progress(done + 1, total);
    }
    encoded
}

/// The images folder is listed and read beneath the folder that holds it (`content/`): a
/// link in its place is refused like any other.
fn images_root(dir: &Path) -> &Path {
    dir.parent().unwrap_or(dir)
}

fn stamp(found: &walk::Found) -> (u64, Option<SystemTime>) {
    match found.root.stat(&found.path) {
        Ok(s) if s.is_file => (s.len, s.modified),
        _ => (u64::MAX, None),
    }
}

fn fingerprint_of(images: &BTreeMap<String, Arc<Processed>>) -> [u8; 32] {
    let mut h = Sha256::new();
    for (relative, p) in images {
        h.update(relative.as_bytes());
        h.update(format!("{:?} {:?}", p.info.size, p.info.broken).as_bytes());
        for v in &p.info.variants {
            h.update(v.url.as_bytes());
        }
        for o in &p.outputs {
            h.update(o.fingerprint);
        }
    }
    h.finalize().into()
}

fn problem(path: &Path, error: String) -> Diagnostic {
    Diagnostic::new(path, 1, FileProblem::ImageUnreadable { error })
}

/// A file read, and for a raster image its variants found in the cache so far.
enum Scanned {
    /// Unchanged since the last build.
    Known(Arc<Processed>),
    Plain(ImageInfo, Output),
    /// Not an image the site can use, and why.
    Broken(String, String),
    /// A raster image the worker could not read (it is not built, or it failed): published
    /// as it is, without a size, and waiting for its variants.
    Unscanned(ImageInfo, Output),
    Raster {
        info: ImageInfo,
        original: Output,
        plans: Vec<Plan>,
        bytes: Vec<Option<Vec<u8>>>,
    },
}

impl Scanned {
    /// Takes from the cache the variants still missing that are there now.
    fn take_cached(&mut self, cache: &Cache) {
        if let Scanned::Raster { plans, bytes, .. } = self {
            for (p, b) in plans.iter().zip(bytes.iter_mut()) {
                if b.is_none() {
                    *b = cache.get(&p.key, p.variant.format.ext());
                }
            }
        }
    }

    /// The key of the picture's source bytes, for its turn to be encoded.
    fn source_key(&self) -> Option<String> {
        match self {
            Scanned::Raster { original, .. } => Some(hex(&original.fingerprint)),
            _ => None,
        }
    }

    fn missing(&self) -> usize {
        match self {
            Scanned::Raster { bytes, .. } => bytes.iter().filter(|b| b.is_none()).count(),
            Scanned::Unscanned(..) => 1,
            _ => 0,
        }
    }

    /// What is published of the file: a raster image whose variants are not all there is
    /// shown as it is.
    fn finish(self) -> Arc<Processed> {
        let processed = match self {
            Scanned::Known(p) => return p,
            Scanned::Plain(info, original) | Scanned::Unscanned(info, original) => Processed {
                info,
                outputs: vec![original],
            },
            Scanned::Broken(relative, why) => Processed {
                info: ImageInfo {
                    broken: Some(why),
                    ..ImageInfo::plain(&relative, None)
                },
                outputs: Vec::new(),
            },
            Scanned::Raster {
                info,
                original,
                plans,
                bytes,
            } => {
                if bytes.iter().any(Option::is_none) {
                    let shown = ImageInfo::plain(&info.relative, info.size);
                    return Arc::new(Processed {
                        info: shown,
                        outputs: vec![original],
                    });
                }
                let mut outputs = vec![original];
                for (p, bytes) in plans.into_iter().zip(bytes.into_iter().flatten()) {
                    let mut fingerprint = [0u8; 32];
                    fingerprint.copy_from_slice(&Sha256::digest(p.key.as_bytes()));
                    outputs.push(Output {
                        path: p.path,
                        bytes: Bytes::from(bytes),
                        fingerprint,
                    });
                }
                Processed { info, outputs }
            }
        };
        Arc::new(processed)
    }
}

/// Reads one file: published as it is, with its variants if it is a raster image.
fn scan(
    found: &walk::Found,
    cache: &Cache,
    settings: &Settings,
    worker: Option<&Worker>,
) -> Scanned {
    if found.len > MAX_IMAGE_BYTES as u64 {
        let why = content::Problem::from(FileProblem::TooLarge {
            bytes: found.len,
            limit: MAX_IMAGE_BYTES as u64,
        });
        return Scanned::Broken(found.relative.clone(), why.polish());
    }
    let bytes = match found.read() {
        Ok(bytes) => bytes,
        Err(e) => return Scanned::Broken(found.relative.clone(), e.to_string()),
    };
    let original = Output::new(format!("images/{}", found.relative), bytes);
    let ext = extension(&found.relative);
    if ext == "svg" {
        let text = String::from_utf8_lossy(&original.bytes);
        // Published as it is, an SVG can be opened on the site's own origin: it may only draw.
        if let Some(finding) = crate::gate::check_svg(&text).into_iter().next() {
            let why = svg::refusal(&finding);
            return Scanned::Broken(found.relative.clone(), why);
        }
        let size = svg::size(&text);
        return Scanned::Plain(ImageInfo::plain(&found.relative, size), original);
    }
    if !RASTER.contains(&ext.as_str()) {
        // A GIF, AVIF or icon is published as it is; the site reads no size of them.
        return Scanned::Plain(ImageInfo::plain(&found.relative, None), original);
    }
    let source_hash = hex(&original.fingerprint);
    if let Some(why) = cache.get(&broken_key(&source_hash), "txt") {
        return Scanned::Broken(found.relative.clone(), String::from_utf8_lossy(&why).into());
    }
    let known = cache.get(&header_key(&source_hash), "txt");
    let known = known.and_then(|line| Header::parse(&String::from_utf8_lossy(&line)));
    let read = || match worker.map(|w| w.header(&original.bytes)) {
        Some(Ok(header)) => {
            cache.put(&header_key(&source_hash), "txt", header.line().as_bytes());
            Some(Ok(header))
        }
        other => other,
    };
    let header = match known.map(Ok).or_else(read) {
        Some(Ok(header)) => header,
        Some(Err(Failure::Image(why))) => return Scanned::Broken(found.relative.clone(), why),
        Some(Err(Failure::Worker(why))) => {
            tracing::warn!(image = %found.relative, "the image worker did not read it: {why}");
            let info = ImageInfo::plain(&found.relative, None);
            return Scanned::Unscanned(info, original);
        }
        None => return Scanned::Unscanned(ImageInfo::plain(&found.relative, None), original),
    };
    let size = (header.width, header.height);
    let fallback = Format::fallback_for(&ext);
    let plans = plan(&found.relative, &source_hash, size, fallback, settings);
    // The fallback at the source's own width is the source itself: encoding it again would
    // only lose quality (and often grow the file).
    let as_source = ext != "webp" && header.upright;
    let bytes = plans
        .iter()
        .map(|p| {
            if as_source && p.variant.format == fallback && p.variant.width == size.0 {
                Some(original.bytes.to_vec())
            } else {
                cache.get(&p.key, p.variant.format.ext())
            }
        })
        .collect();
    let info = ImageInfo {
        variants: plans.iter().map(|p| p.variant.clone()).collect(),
        fallback: Some(fallback),
        ..ImageInfo::plain(&found.relative, Some(size))
    };
    Scanned::Raster {
        info,
        original,
        plans,
        bytes,
    }
}

/// Encodes every variant still missing, in parallel, and keeps each in the cache; an image
/// that does not decode becomes broken. One encoding runs at a time in a process, and one
/// process at a time encodes a picture: two builds of the same site (tests side by side)
/// would otherwise encode the same images twice. The one that waited finds the variants in
/// the cache. The locks are taken here, outside the thread pool, so that no pool thread ever
/// waits for them. Returns how many variants were encoded.
fn fill(pending: &mut [Scanned], cache: &Cache, settings: &Settings, worker: &Worker) -> usize {
    if pending.iter().all(|s| s.missing() == 0) {
        return 0;
    }
    static ENCODING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = ENCODING.lock().unwrap_or_else(|p| p.into_inner());
    let waiting = pending.iter().filter(|s| s.missing() > 0);
    let _turns = cache.turns(waiting.filter_map(Scanned::source_key));
    // What a build that held the locks before this one kept is not encoded again.
    for scanned in pending.iter_mut() {
        scanned.take_cached(cache);
    }
    // A first build encodes every photograph (minutes): it says how far it is.
    let total: usize = pending.iter().map(Scanned::missing).sum();
    if total == 0 {
        return 0;
    }
    let done = AtomicUsize::new(0);
    tracing::info!(total, "encoding image variants");
    pending
        .par_iter_mut()
        .map(|scanned| {
            let Scanned::Raster {
                info,
                original,
                plans,
                bytes,
            } = scanned
            else {
                return 0;
            };
            let missing: Vec<usize> = (0..plans.len()).filter(|i| bytes[*i].is_none()).collect();
            if missing.is_empty() {
                return 0;
            }
            let wanted: Vec<(Format, u32)> = missing
                .iter()
                .map(|i| (plans[*i].variant.format, plans[*i].variant.width))
                .collect();
            match worker.variants(&original.bytes, &wanted, settings) {
                Ok(made) => {
                    for (i, made) in missing.iter().zip(made) {
                        cache.put(&plans[*i].key, plans[*i].variant.format.ext(), &made);
                        bytes[*i] = Some(made);
                    }
                    let so_far = missing.len() + done.fetch_add(missing.len(), Ordering::Relaxed);
                    tracing::info!("image variants encoded: {so_far}/{total}");
                    missing.len()
                }
                Err(Failure::Worker(why)) => {
                    // Not the picture's fault: shown as it is, and tried again by a later build.
                    tracing::warn!(image = %info.relative, "its variants were not made: {why}");
                    0
                }
                Err(Failure::Image(why)) => {
                    // Remembered by the source's bytes: no later build decodes them again.
                    let key = broken_key(&hex(&original.fingerprint));
                    cache.put(&key, "txt", why.as_bytes());
                    *scanned = Scanned::Broken(info.relative.clone(), why);
                    0
                }
            }
        })
        .sum()
}

/// Where the cache keeps a source's size and orientation, as the worker read them from its
/// header: a build of a photograph it has seen starts no worker.
fn header_key(source_hash: &str) -> String {
    format!("{source_hash}-header")
}

/// Where the cache keeps why a source's bytes could not be decoded.
fn broken_key(source_hash: &str) -> String {
    format!("{source_hash}-broken")
}

/// A planned variant: what it is and the key that names its bytes.
struct Plan {
    variant: Variant,
    key: String,
    path: String,
}

fn plan(
    relative: &str,
    source_hash: &str,
    size: (u32, u32),
    fallback: Format,
    settings: &Settings,
) -> Vec<Plan> {
    let stem = relative
        .rsplit_once('.')
        .map_or(relative, |(s, _)| s)
        .replace('/', "-");
    let mut plans = Vec::new();
    for format in [Format::Avif, Format::Webp, fallback] {
        for width in settings.widths_for(size.0) {
            let mut h = Sha256::new();
            h.update(settings.describe(format).as_bytes());
            h.update(source_hash.as_bytes());
            h.update(width.to_le_bytes());
            let key = hex(&h.finalize());
            let short = key.get(..10).unwrap_or(&key);
            let path = format!("{VARIANTS_DIR}/{stem}.{width}.{short}.{}", format.ext());
            plans.push(Plan {
                variant: Variant {
                    width,
                    height: encode::scaled_height(size.0, size.1, width),
                    format,
                    url: content::encoding::url_path(&format!("/{path}")),
                },
                key,
                path,
            });
        }
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::encode::SETTINGS;

    /// Small widths so that the test encodes in a blink.
    const SMALL: Settings = Settings {
        widths: &[16, 32],
        ..SETTINGS
    };

    fn photo(dir: &Path, name: &str, w: u32, h: u32) {
        let image = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([x as u8, y as u8, 90]));
        image.save(dir.join(name)).expect("saved");
    }

    #[test]
    fn variants_are_encoded_once_then_taken_from_the_cache_or_the_memo() {
        let site = tempfile::tempdir().expect("temp dir");
        let cache_dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(cache_dir.path().to_path_buf());
        photo(site.path(), "a.jpg", 40, 20);
        photo(site.path(), "b.png", 24, 24);
        std::fs::write(
            site.path().join("c.svg"),
            "<svg width=\"10\" height=\"5\"/>",
        )
        .expect("svg");
        std::fs::write(site.path().join("README.md"), "notes").expect("notes");
        let mut memo = Memo::default();
        let (first, outputs) =
            Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Inline)
                .expect("first");
        // a.jpg: 16, 32 in three formats; b.png: 16 and its own 24 in three formats, the
        // PNG at 24 being the source itself.
        assert_eq!(first.stats.encoded, 11);
        assert_eq!(first.stats.variants, 12);
        assert_eq!(first.stats.sources, 2);
        assert!(outputs.iter().all(|o| o.path != "images/README.md"));
        assert!(outputs.iter().any(|o| o.path == "images/c.svg"));
        let a = first.get("/images/a.jpg").expect("a");
        assert_eq!(a.size, Some((40, 20)));
        let widths: Vec<u32> = a.of(Format::Jpeg).map(|v| v.width).collect();
        assert_eq!(widths, vec![16, 32]);
        assert_eq!(
            first.get("/images/b.png").and_then(|b| b.fallback),
            Some(Format::Png)
        );
        assert_eq!(
            first.get("/images/c.svg").and_then(|c| c.size),
            Some((10, 5))
        );

        let (again, _) =
            Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Inline).expect("memo");
        assert_eq!(again.stats.encoded, 0);
        let (cold, cold_outputs) = Catalog::build(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Inline,
        )
        .expect("cache");
        assert_eq!(
            cold.stats.encoded, 0,
            "a new builder finds them in the cache"
        );
        assert_eq!(cold.fingerprint(), first.fingerprint());
        assert_eq!(cold_outputs, outputs);

        photo(site.path(), "a.jpg", 40, 30);
        let (changed, _) = Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Inline)
            .expect("changed");
        assert_eq!(changed.stats.encoded, 6, "only the changed image");
        assert_ne!(changed.fingerprint(), first.fingerprint());
    }

    #[test]
    fn a_broken_image_is_a_warning_and_is_not_published() {
        let site = tempfile::tempdir().expect("temp dir");
        std::fs::write(site.path().join("broken.jpg"), "not a jpeg").expect("write");
        // A PNG signature and a header that declares 100,000 × 100,000 pixels.
        std::fs::write(
            site.path().join("bomb.png"),
            crate::images::testing::png_bomb(),
        )
        .expect("write");
        photo(site.path(), "fine.png", 20, 10);
        let cache = Cache::new(site.path().join("cache"));
        let (catalog, outputs) = Catalog::build(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Inline,
        )
        .expect("a broken image no page shows does not stop the build");
        let warned: Vec<&str> = catalog
            .warnings
            .iter()
            .map(|w| w.file.file_name().and_then(|n| n.to_str()).unwrap_or(""))
            .collect();
        assert_eq!(warned, vec!["bomb.png", "broken.jpg"]);
        assert!(
            catalog.warnings[0]
                .problem
                .english()
                .contains("100000 × 100000"),
            "{:?}",
            catalog.warnings
        );
        assert!(catalog
            .get("/images/bomb.png")
            .and_then(|i| i.broken.as_ref())
            .is_some());
        assert!(outputs
            .iter()
            .all(|o| !o.path.contains("bomb") && !o.path.contains("broken")));
        assert!(outputs.iter().any(|o| o.path == "images/fine.png"));
    }

    #[test]
    fn deferred_encoding_shows_the_original_until_prepare_fills_the_cache() {
        let site = tempfile::tempdir().expect("temp dir");
        let cache_dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(cache_dir.path().to_path_buf());
        photo(site.path(), "a.jpg", 40, 20);
        let mut memo = Memo::default();
        let (first, outputs) =
            Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Deferred)
                .expect("deferred");
        assert_eq!(first.pending, vec!["a.jpg".to_string()]);
        assert_eq!((first.stats.encoded, first.stats.pending), (0, 1));
        let a = first.get("/images/a.jpg").expect("a");
        assert!(!a.is_raster(), "shown as it is");
        assert_eq!(a.size, Some((40, 20)));
        assert_eq!(outputs.len(), 1);
        assert_eq!(
            prepare_with(
                site.path(),
                cache_dir.path(),
                &first.pending,
                &|_, _| {},
                &SMALL
            ),
            6,
            "16 and 32 px in three formats"
        );
        let (ready, _) = Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Deferred)
            .expect("ready");
        assert!(ready.pending.is_empty());
        assert!(ready.get("/images/a.jpg").expect("a").is_raster());
        assert_ne!(ready.fingerprint(), first.fingerprint());

        // A header within the limits over bytes that do not decode: pending once, then
        // known broken by its bytes, never pending again.
        let cut = crate::images::testing::png_declaring(400, 300);
        std::fs::write(site.path().join("cut.png"), cut).expect("write");
        let (seen, _) = Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Deferred)
            .expect("deferred");
        assert_eq!(seen.pending, vec!["cut.png".to_string()]);
        prepare_with(
            site.path(),
            cache_dir.path(),
            &seen.pending,
            &|_, _| {},
            &SMALL,
        );
        let (after, _) = Catalog::build(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Deferred,
        )
        .expect("broken is a warning");
        assert!(after.pending.is_empty(), "{:?}", after.pending);
        assert_eq!(after.warnings.len(), 1, "{:?}", after.warnings);
    }

    #[test]
    fn without_a_worker_a_photograph_is_published_as_it_is_and_waits_for_one() {
        let site = tempfile::tempdir().expect("temp dir");
        let cache_dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(cache_dir.path().to_path_buf());
        photo(site.path(), "a.jpg", 40, 20);
        let mut memo = Memo::default();
        let none = Err(Failure::Worker("not built yet".into()));
        let (first, outputs) = Catalog::build_with(
            site.path(),
            &cache,
            &SMALL,
            &mut memo,
            Encoding::Inline,
            none,
        )
        .expect("a build without the worker");
        assert_eq!(first.pending, vec!["a.jpg".to_string()]);
        assert!(first.warnings.is_empty(), "{:?}", first.warnings);
        let a = first.get("/images/a.jpg").expect("a");
        assert!(!a.is_raster() && a.broken.is_none());
        assert_eq!(a.size, None, "nothing read it");
        assert_eq!(outputs.len(), 1, "the file as it is");
        // Once the worker is there, the next build reads and encodes it.
        let (ready, outputs) =
            Catalog::build(site.path(), &cache, &SMALL, &mut memo, Encoding::Inline)
                .expect("a build with the worker");
        assert!(ready.pending.is_empty());
        assert_eq!(
            ready.get("/images/a.jpg").and_then(|a| a.size),
            Some((40, 20))
        );
        assert_eq!(outputs.len(), 7, "the file and its six variants");
        // What the worker read and made is in the cache: a later build needs no worker for it.
        let none = Err(Failure::Worker("gone".into()));
        let (again, outputs) = Catalog::build_with(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Inline,
            none,
        )
        .expect("a build from the cache alone");
        assert!(again.pending.is_empty());
        assert!(again.get("/images/a.jpg").expect("a").is_raster());
        assert_eq!(outputs.len(), 7);
    }

    #[test]
    fn a_worker_that_fails_leaves_the_photograph_waiting_not_broken() {
        let site = tempfile::tempdir().expect("temp dir");
        let cache_dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(cache_dir.path().to_path_buf());
        photo(site.path(), "a.jpg", 40, 20);
        // `false` ends with status 1: neither an answer nor the image's problem.
        let failing = Ok(Worker::at("/bin/false"));
        let (first, _) = Catalog::build_with(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Inline,
            failing,
        )
        .expect("a build with a failing worker");
        assert_eq!(first.pending, vec!["a.jpg".to_string()]);
        assert!(first.warnings.is_empty(), "{:?}", first.warnings);
        let (ready, _) = Catalog::build(
            site.path(),
            &cache,
            &SMALL,
            &mut Memo::default(),
            Encoding::Inline,
        )
        .expect("a build with the worker");
        assert!(ready.get("/images/a.jpg").expect("a").is_raster());
    }
}
