//! Reads `content/` into the typed model, collecting every problem instead of stopping at one.
//!
//! A [`Loader`] keeps what it parsed, keyed by path, size and modification time, so that a
//! rebuild reads and parses only the files that changed. As git does with its index, a file
//! whose modification time is too close to the moment it was read is read again next time:
//! a second change within the same timestamp tick would otherwise go unseen.

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::beneath::Root;
use crate::error::{Diagnostic, Error, Result};
use crate::kind::{is_slug, DocId, Kind};
use crate::model::{
    ArticleMeta, Content, Document, PageMeta, PriceList, ServiceMeta, SiteConfig, TeamMeta,
};
use crate::problem::FileProblem;
use crate::shared_text::SharedText;
use crate::validate::Delta;
use crate::{conflicts, frontmatter, limits, markdown, sections, validate, walk, yaml};

/// How close to its reading a change must be for the file to count as possibly changed again.
const RACY: Duration = Duration::from_secs(2);

/// Line of each top-level key in a YAML text, offset to file lines.
fn top_level_keys(yaml_text: &str, first_line: usize) -> BTreeMap<String, usize> {
    yaml_text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|(i, l)| Some((l.split_once(':')?.0.trim().to_string(), first_line + i)))
        .collect()
}

/// The text of `path` (read beneath `root`, never through a link), or why it cannot be
/// read, as a problem of that file. One open: the size it was opened with, and what was read
/// from it, are held to the limit.
fn read(root: &Root, path: &Path) -> std::result::Result<String, Diagnostic> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| {
        let error = e.to_string();
        Diagnostic::new(path, 1, FileProblem::Unreadable { error })
    };
    let limit = limits::MAX_TEXT_BYTES as u64;
    let too_large = |bytes| Diagnostic::new(path, 1, FileProblem::TooLarge { bytes, limit });
    let (file, len) = root.open_sized(path).map_err(unreadable)?;
    // A text file far larger than any the site holds is refused before it is read.
    if len > limit {
        return Err(too_large(len));
    }
    let mut text = String::with_capacity(len as usize);
    file.take(limit + 1)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    match text.len() as u64 > limit {
        true => Err(too_large(text.len() as u64)),
        false => Ok(text),
    }
}

/// The content folder a document of `kind` at `file` is in (`content/` of `content/blog/x.md`).
fn root_of(kind: Kind, file: &Path) -> &Path {
    let folder = Path::new(kind.folder());
    let mut dir = file.parent().unwrap_or(Path::new(""));
    while !dir.ends_with(folder) {
        match dir.parent() {
            Some(up) => dir = up,
            None => return file.parent().unwrap_or(Path::new("")),
        }
    }
    dir.parent().unwrap_or(Path::new(""))
}

/// Parses one Markdown document of `kind` with front matter of type `M`.
pub fn parse_document<M: DeserializeOwned>(
    kind: Kind,
    file: &Path,
    text: &str,
) -> std::result::Result<Document<M>, Diagnostic> {
    let slug = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    if !is_slug(&slug) {
        return Err(Diagnostic::new(file, 1, FileProblem::NotASlug { slug }));
    }
    conflicts::check(root_of(kind, file), file, text)
        .map_err(|(line, p)| Diagnostic::new(file, line, p))?;
    let split = frontmatter::split(text).map_err(|(line, p)| Diagnostic::new(file, line, p))?;
    let meta: M = yaml::parse(split.yaml).map_err(|e| {
        let line = e.line.map_or(1, |l| split.yaml_line + l - 1);
        Diagnostic::new(file, line, FileProblem::FrontMatter(e))
    })?;
    // Before anything parses the Markdown: too long or too deeply nested text is refused
    // at the cost of one pass over its lines.
    limits::check_body(split.body)
        .map_err(|f| Diagnostic::new(file, split.body_line + f.line, FileProblem::excess(&f)))?;
    let id = DocId::new(kind, slug);
    let body = SharedText::from(split.body);
    Ok(Document {
        route: id.route(),
        id,
        file: file.to_path_buf(),
        meta,
        sections: sections::parse_shared(&body).sections,
        links: markdown::targets(split.body),
        body,
        body_line: split.body_line,
        hash: sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(
            text.as_bytes(),
        ))
        .into(),
        field_lines: top_level_keys(split.yaml, split.yaml_line),
        modified: None,
    })
}

/// Size and modification time: what tells a changed file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified: SystemTime,
}

struct Entry<M> {
    stamp: Stamp,
    read_at: SystemTime,
    /// The load that last found the file; entries no load found are dropped.
    seen_in: u64,
    parsed: std::result::Result<Arc<Document<M>>, Diagnostic>,
    /// The problems a document has on its own (house style, unknown facts), and the
    /// `site.yaml` they were checked against.
    own_problems: Vec<Diagnostic>,
    checked_with: Option<u64>,
}

impl<M> Entry<M> {
    fn fresh(&self, stamp: Stamp) -> bool {
        self.stamp == stamp && stamp.modified + RACY < self.read_at
    }

    /// Checks the document on its own against `site.yaml` (`site`, with its key).
    fn check(&mut self, site: (&SiteConfig, u64)) {
        self.own_problems = match &self.parsed {
            Ok(doc) => validate::document(doc, site.0),
            Err(_) => Vec::new(),
        };
        self.checked_with = Some(site.1);
    }
}

/// Parsed documents of one kind, by path, and the folder's listing as last read.
struct Cache<M> {
    /// By path relative to the kind's folder.
    entries: crate::maps::FastMap<String, Entry<M>>,
    listing: Option<Vec<walk::Found>>,
    generation: u64,
    /// What the last load gave, for the next load told of edits only.
    last: Option<Last<M>>,
}

impl<M> Default for Cache<M> {
    fn default() -> Self {
        Self {
            entries: crate::maps::FastMap::default(),
            listing: None,
            generation: 0,
            last: None,
        }
    }
}

/// One kind's last load: a load told that only documents it loaded without a problem were
/// edited, and that still load without one, puts those in place and looks at nothing else
/// (one article's save at 10,000 articles went through every file four times).
struct Last<M> {
    /// The `site.yaml` the documents were checked against.
    site_key: u64,
    docs: Vec<Arc<Document<M>>>,
    failed: Vec<String>,
    problems: Vec<Diagnostic>,
    /// Files read so soon after they changed that their stamp cannot vouch for them: such a
    /// file is read again by the next full load, so the short way is taken only when the
    /// caller names every one of them.
    racy: Vec<String>,
}

/// What changed since the last load, when the caller knows (the sidecar wrote the files, or
/// a watcher saw them): only these paths are looked at again; every other file is taken to
/// be as it was. Without it, every file is looked at.
#[derive(Debug, Clone, Copy)]
pub enum Changes<'a> {
    Unknown,
    /// These files were written, created or removed: read them again.
    Only(&'a [PathBuf]),
    /// This one file was written with this text (the panel's save): parsed from the text the
    /// writer holds, not read back.
    Written(&'a Written),
}

/// A file and the text just written to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    pub text: String,
}

impl<'a> Changes<'a> {
    /// The paths the caller says changed; `None` when it does not know.
    fn paths(self) -> Option<&'a [PathBuf]> {
        match self {
            Changes::Unknown => None,
            Changes::Only(paths) => Some(paths),
            Changes::Written(w) => Some(std::slice::from_ref(&w.path)),
        }
    }

    /// The text written to `path`, when the caller holds it.
    fn text_of(self, path: &Path) -> Option<&'a str> {
        match self {
            Changes::Written(w) if w.path == path => Some(&w.text),
            _ => None,
        }
    }
}

/// `path` under `dir` as a listing names it (`a/b.md`).
fn relative_to(dir: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(dir).ok()?;
    Some(
        relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// Updates a folder's listing for the changed paths under it: new or changed files get a
/// fresh entry, removed ones leave. Whether a file came or went.
fn apply_changes(
    listing: &mut Vec<walk::Found>,
    (root, dir): (&Root, &Path),
    changed: &[PathBuf],
) -> bool {
    let mut came_or_went = false;
    for path in changed {
        let Some(relative) = relative_to(dir, path) else {
            continue;
        };
        let position = listing.binary_search_by(|f| f.relative.as_str().cmp(&relative));
        let hidden = relative.split('/').any(walk::is_hidden);
        match (
            root.stat(path).ok().filter(|m| m.is_file && !hidden),
            position,
        ) {
            (Some(meta), at) => {
                let found = walk::Found {
                    relative,
                    path: path.clone(),
                    len: meta.len,
                    modified: meta.modified,
                    root: root.clone(),
                };
                match at {
                    Ok(i) => listing[i] = found,
                    Err(i) => {
                        listing.insert(i, found);
                        came_or_went = true;
                    }
                }
            }
            (None, Ok(i)) => {
                listing.remove(i);
                came_or_went = true;
            }
            (None, Err(_)) => {}
        }
    }
    came_or_went
}

/// What loading one kind of documents found.
struct KindLoad<M> {
    docs: Vec<Arc<Document<M>>>,
    /// Routes of documents that exist but failed to load (links to them are not reported).
    failed: Vec<String>,
    /// The caller said what changed, and no document of this kind came or went.
    same_documents: bool,
}

fn parse_entry<M: DeserializeOwned>(
    kind: Kind,
    found: &walk::Found,
    stamp: Option<Stamp>,
    generation: u64,
    written: Option<&str>,
) -> Entry<M> {
    let read_at = clock::wall();
    let path = &found.path;
    let text = match written {
        Some(text) => Ok(std::borrow::Cow::Borrowed(text)),
        None => read(&found.root, path).map(std::borrow::Cow::Owned),
    };
    let parsed = text
        .and_then(|text| parse_document::<M>(kind, path, &text))
        .map(|mut doc| {
            doc.modified = stamp.map(|s| s.modified);
            Arc::new(doc)
        });
    Entry {
        stamp: stamp.unwrap_or(Stamp {
            size: 0,
            modified: SystemTime::UNIX_EPOCH,
        }),
        read_at,
        seen_in: generation,
        own_problems: Vec::new(),
        checked_with: None,
        parsed,
    }
}

/// The stamp a listing found for a file.
fn stamp_found(found: &walk::Found) -> Option<Stamp> {
    found.modified.map(|modified| Stamp {
        size: found.len,
        modified,
    })
}

/// Whether the caller says `path` changed. A file name is compared first: a path's equality
/// compares its components, and every file of a folder is asked about.
fn told(changes: Changes<'_>, path: &Path) -> bool {
    changes.paths().is_some_and(|paths| {
        paths
            .iter()
            .any(|p| p.file_name() == path.file_name() && p == path)
    })
}

/// Whether `found` must be read and parsed (again) by this load.
fn must_parse<M>(
    entries: &crate::maps::FastMap<String, Entry<M>>,
    generation: u64,
    found: &walk::Found,
    changes: Changes<'_>,
) -> bool {
    let changed = told(changes, &found.path);
    match entries.get(found.relative.as_str()) {
        None => true,
        Some(e) => {
            let stale = changed || !stamp_found(found).is_some_and(|s| e.fresh(s));
            stale && e.seen_in != generation
        }
    }
}

/// The parsed file, read again if it changed (or if the caller says it did).
fn entry<'a, M: DeserializeOwned>(
    entries: &'a mut crate::maps::FastMap<String, Entry<M>>,
    generation: u64,
    kind: Kind,
    found: &walk::Found,
    changes: Changes<'_>,
) -> &'a mut Entry<M> {
    let written = changes.text_of(&found.path);
    let changed = told(changes, &found.path);
    let stamp = found.modified.map(|modified| Stamp {
        size: found.len,
        modified,
    });
    if !entries.contains_key(found.relative.as_str()) {
        let parsed = parse_entry(kind, found, stamp, generation, written);
        entries.insert(found.relative.clone(), parsed);
    }
    let Some(entry) = entries.get_mut(found.relative.as_str()) else {
        unreachable!("inserted above");
    };
    let stale = changed || !stamp.is_some_and(|s| entry.fresh(s));
    if stale && entry.seen_in != generation {
        *entry = parse_entry(kind, found, stamp, generation, written);
    }
    entry.seen_in = generation;
    entry
}

impl<M: DeserializeOwned + Send + Sync> Cache<M> {
    /// Every `.md` file of `kind`, sorted by slug.
    fn load(
        &mut self,
        kind: Kind,
        content_dir: &Path,
        site: (&SiteConfig, u64),
        changes: Changes<'_>,
        problems: &mut Vec<Diagnostic>,
    ) -> KindLoad<M> {
        let dir = content_dir.join(kind.folder());
        let mut out = KindLoad {
            docs: Vec::new(),
            failed: Vec::new(),
            same_documents: false,
        };
        let root = Root::new(content_dir);
        let changes = match (changes.paths(), self.listing.as_mut()) {
            (Some(changed), Some(listing)) => {
                out.same_documents = !apply_changes(listing, (&root, &dir), changed);
                changes
            }
            _ => {
                match walk::files(content_dir, &dir) {
                    Ok(files) => self.listing = Some(files),
                    Err(e) => {
                        let error = e.to_string();
                        problems.push(Diagnostic::new(&dir, 1, FileProblem::Unlisted { error }));
                        self.listing = None;
                        return out;
                    }
                }
                Changes::Unknown
            }
        };
        if let (true, Some(changed)) = (out.same_documents, changes.paths()) {
            if let Some(edited) = self.edited(kind, &dir, site, changes, changed) {
                problems.extend(edited.1);
                return edited.0;
            }
        }
        let first_problem = problems.len();
        let mut racy = Vec::new();
        self.generation += 1;
        let Cache {
            entries,
            listing,
            generation,
            ..
        } = self;
        let listing = listing.as_deref().unwrap_or_default();
        out.docs.reserve(listing.len());
        // The files to read are read and parsed in parallel, and checked on their own (house
        // style, facts) while at it; the pass below then finds them fresh.
        let to_parse: Vec<&walk::Found> = listing
            .iter()
            .filter(|f| f.relative.ends_with(".md") && must_parse(entries, *generation, f, changes))
            .collect();
        let parsed: Vec<(String, Entry<M>)> = to_parse
            .par_iter()
            .map(|found| {
                let written = changes.text_of(&found.path);
                let stamp = stamp_found(found);
                let mut entry = parse_entry(kind, found, stamp, *generation, written);
                entry.check(site);
                (found.relative.clone(), entry)
            })
            .collect();
        entries.extend(parsed);
        for found in listing {
            if !found.relative.ends_with(".md") {
                problems.push(Diagnostic::new(&found.path, 1, FileProblem::NotMarkdown));
                continue;
            }
            let entry = entry::<M>(entries, *generation, kind, found, changes);
            if !stamp_found(found).is_some_and(|s| entry.fresh(s)) {
                racy.push(found.relative.clone());
            }
            if entry.checked_with != Some(site.1) {
                entry.check(site);
            }
            problems.extend(entry.own_problems.iter().cloned());
            match &entry.parsed {
                Ok(doc) => out.docs.push(Arc::clone(doc)),
                Err(d) => {
                    problems.push(d.clone());
                    let stem = found.path.file_stem().unwrap_or_default().to_string_lossy();
                    out.failed.extend(kind.route(&stem));
                }
            }
        }
        let current = *generation;
        entries.retain(|_, e| e.seen_in == current);
        out.docs.sort_by(|a, b| a.id.slug.cmp(&b.id.slug));
        self.last = Some(Last {
            site_key: site.1,
            docs: out.docs.clone(),
            failed: out.failed.clone(),
            problems: problems[first_problem..].to_vec(),
            racy,
        });
        out
    }

    /// The short way of [`Cache::load`]: the last load's documents with the `changed` ones
    /// under `dir` parsed again and put in their place, when the last load checked them against
    /// this `site.yaml`, none of them had or has a problem of its own, and every file the last
    /// load could not trust its stamp for is among them. `None` sends the load the long way
    /// (which parses the files again: rare, and the long way is right whatever happened here).
    fn edited(
        &mut self,
        kind: Kind,
        dir: &Path,
        site: (&SiteConfig, u64),
        changes: Changes<'_>,
        changed: &[PathBuf],
    ) -> Option<(KindLoad<M>, Vec<Diagnostic>)> {
        let Cache {
            entries,
            listing,
            generation,
            last,
        } = self;
        let last = last.as_mut().filter(|l| l.site_key == site.1)?;
        let listing = listing.as_deref()?;
        let here: Vec<&walk::Found> = changed
            .iter()
            .filter_map(|p| relative_to(dir, p))
            .map(|relative| {
                let at = listing.binary_search_by(|f| f.relative.as_str().cmp(&relative));
                at.ok().map(|i| &listing[i])
            })
            .collect::<Option<_>>()?;
        let named = |relative: &String| here.iter().any(|f| f.relative == *relative);
        if !last.racy.iter().all(named) || here.iter().any(|f| !f.relative.ends_with(".md")) {
            return None;
        }
        let mut replaced = Vec::with_capacity(here.len());
        for found in &here {
            let old = entries.get(found.relative.as_str())?;
            let slug = match &old.parsed {
                Ok(doc) if old.own_problems.is_empty() => doc.id.slug.clone(),
                _ => return None,
            };
            let written = changes.text_of(&found.path);
            let mut entry = parse_entry(kind, found, stamp_found(found), *generation, written);
            entry.check(site);
            let fit = match &entry.parsed {
                Ok(doc) if entry.own_problems.is_empty() && doc.id.slug == slug => {
                    Some(Arc::clone(doc))
                }
                _ => None,
            };
            entries.insert(found.relative.clone(), entry);
            replaced.push((slug, fit?));
        }
        for (slug, doc) in replaced {
            let at = last.docs.binary_search_by(|d| d.id.slug.cmp(&slug)).ok()?;
            last.docs[at] = doc;
        }
        last.racy = here
            .iter()
            .filter(|f| {
                let entry = entries.get(f.relative.as_str());
                !entry.is_some_and(|e| stamp_found(f).is_some_and(|s| e.fresh(s)))
            })
            .map(|f| f.relative.clone())
            .collect();
        let load = KindLoad {
            docs: last.docs.clone(),
            failed: last.failed.clone(),
            same_documents: true,
        };
        Some((load, last.problems.clone()))
    }
}

/// `site.yaml` or the price list, parsed again only when it changed.
struct YamlFile<T> {
    stamp: Option<Stamp>,
    read_at: SystemTime,
    parsed: Option<std::result::Result<T, Diagnostic>>,
}

impl<T> Default for YamlFile<T> {
    fn default() -> Self {
        Self {
            stamp: None,
            read_at: SystemTime::UNIX_EPOCH,
            parsed: None,
        }
    }
}

fn stamp_of(root: &Root, path: &Path) -> Option<Stamp> {
    let meta = root.stat(path).ok()?;
    Some(Stamp {
        size: meta.len,
        modified: meta.modified?,
    })
}

impl<T: DeserializeOwned + Clone> YamlFile<T> {
    fn load(
        &mut self,
        (root, path): (&Root, &Path),
        changes: Changes<'_>,
        problems: &mut Vec<Diagnostic>,
    ) -> Option<T> {
        let told = changes.paths().map(|paths| paths.iter().any(|p| p == path));
        let stamp = match told {
            Some(false) => self.stamp,
            _ => stamp_of(root, path),
        };
        let fresh = self
            .stamp
            .zip(stamp)
            .is_some_and(|(old, now)| old == now && now.modified + RACY < self.read_at);
        if self.parsed.is_none() || told == Some(true) || (told.is_none() && !fresh) {
            self.read_at = clock::wall();
            self.stamp = stamp;
            let text = match changes.text_of(path) {
                Some(text) => Ok(text.to_string()),
                None => read(root, path),
            };
            self.parsed = Some(text.and_then(|text| {
                let root_dir = path.parent().unwrap_or(Path::new(""));
                conflicts::check(root_dir, path, &text)
                    .map_err(|(line, p)| Diagnostic::new(path, line, p))?;
                yaml::parse(&text).map_err(|e| {
                    let line = e.line.unwrap_or(1);
                    Diagnostic::new(path, line, FileProblem::Yaml(e))
                })
            }));
        }
        match self.parsed.as_ref()? {
            Ok(value) => Some(value.clone()),
            Err(d) => {
                problems.push(d.clone());
                None
            }
        }
    }
}

/// The loaded content and the routes of documents that failed to load.
pub(crate) struct Raw {
    pub content: Content,
    pub failed_routes: Vec<String>,
    pub delta: Delta,
}

/// Whether every path of `changes` is a document of one of the kinds' folders.
fn only_documents(content_dir: &Path, changes: Changes<'_>) -> bool {
    changes.paths().is_some_and(|paths| {
        paths.iter().all(|p| {
            Kind::ALL
                .iter()
                .any(|k| p.starts_with(content_dir.join(k.folder())))
        })
    })
}

/// Loads `content/` again and again, re-reading only what changed.
#[derive(Default)]
pub struct Loader {
    pages: Cache<PageMeta>,
    services: Cache<ServiceMeta>,
    articles: Cache<ArticleMeta>,
    team: Cache<TeamMeta>,
    site: YamlFile<SiteConfig>,
    prices: YamlFile<PriceList>,
    words: YamlFile<crate::model::Words>,
    checks: validate::Checks,
    delta: Delta,
}

/// What a document's own checks depend on in `site.yaml`.
fn site_key(site: &SiteConfig) -> u64 {
    let text = serde_json::to_string(&site.address).unwrap_or_default();
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Loader {
    /// Loads all of `content_dir`. Returns the content when `site.yaml` and the price list
    /// could be read (documents that failed are left out), and every problem found.
    pub(crate) fn load_raw(
        &mut self,
        content_dir: &Path,
        changes: Changes<'_>,
    ) -> (Option<Raw>, Vec<Diagnostic>) {
        let mut problems = Vec::new();
        let root = Root::new(content_dir);
        let site_file = content_dir.join("site.yaml");
        let site = self.site.load((&root, &site_file), changes, &mut problems);
        let prices_file = content_dir.join("cennik.yaml");
        let prices = self
            .prices
            .load((&root, &prices_file), changes, &mut problems);
        let words_file = content_dir.join(crate::wording::FILE);
        let words = self
            .words
            .load((&root, &words_file), changes, &mut problems);
        let (Some(site), Some(prices), Some(words)) = (site, prices, words) else {
            return (None, problems);
        };
        let key = (&site, site_key(&site));
        let (p, c) = (&mut problems, changes);
        let pages = self.pages.load(Kind::Page, content_dir, key, c, p);
        let services = self.services.load(Kind::Service, content_dir, key, c, p);
        let articles = self.articles.load(Kind::Article, content_dir, key, c, p);
        let team = self.team.load(Kind::Team, content_dir, key, c, p);
        let delta = Delta {
            same_documents: only_documents(content_dir, changes)
                && [
                    pages.same_documents,
                    services.same_documents,
                    articles.same_documents,
                    team.same_documents,
                ]
                .iter()
                .all(|same| *same),
        };
        let failed_routes = [pages.failed, services.failed, articles.failed].concat();
        let content = Content {
            root: content_dir.to_path_buf(),
            site,
            pages: pages.docs,
            services: services.docs,
            articles: articles.docs,
            team: team.docs,
            prices,
            prices_file,
            words,
            words_file,
            measurement: Default::default(),
        };
        let raw = Raw {
            content,
            failed_routes,
            delta,
        };
        (Some(raw), problems)
    }

    /// What the last load found changed (see [`Delta`]).
    pub fn delta(&self) -> Delta {
        self.delta
    }

    /// Loads and validates the content; fails with every problem found, sorted.
    pub fn load(&mut self, content_dir: &Path, changes: Changes<'_>) -> Result<Content> {
        match self.load_all(content_dir, changes) {
            (Some(content), problems) if problems.is_empty() => Ok(content),
            (_, problems) => Err(Error::Content(problems)),
        }
    }

    /// [`Loader::load_all`] that hands the content, when it loaded without a problem of its
    /// own, to `then` while the checks across files run beside it (they were a serial part of
    /// every build): `then`'s result is returned only when those checks found nothing either.
    pub fn load_then<R: Send>(
        &mut self,
        content_dir: &Path,
        changes: Changes<'_>,
        then: impl FnOnce(Content) -> R + Send,
    ) -> (Option<Content>, Vec<Diagnostic>, Option<R>) {
        let (raw, mut problems) = self.load_raw(content_dir, changes);
        let Some(raw) = raw else {
            problems.sort();
            return (None, problems, None);
        };
        self.delta = raw.delta;
        let checks = &mut self.checks;
        let mut across = || validate::validate(&raw.content, &raw.failed_routes, checks, raw.delta);
        let (found, result) = match problems.is_empty() {
            true => {
                let content = raw.content.clone();
                let (found, result) = rayon::join(across, || then(content));
                (found, Some(result))
            }
            false => (across(), None),
        };
        problems.extend(found);
        problems.sort();
        let result = result.filter(|_| problems.is_empty());
        (Some(raw.content), problems, result)
    }

    /// Loads and validates the content: what loaded (the documents that failed left out;
    /// none when `site.yaml`, the price list or the words could not be read) beside every
    /// problem found, sorted, so that the checks that come after loading can still look at
    /// what did load and report their problems with these.
    pub fn load_all(
        &mut self,
        content_dir: &Path,
        changes: Changes<'_>,
    ) -> (Option<Content>, Vec<Diagnostic>) {
        let (content, problems, _) = self.load_then(content_dir, changes, |_| ());
        (content, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_read_whole_up_to_the_limit_and_refused_past_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = Root::new(dir.path());
        let limit = limits::MAX_TEXT_BYTES;
        let at_limit = dir.path().join("a.md");
        std::fs::write(&at_limit, "ż".repeat(limit / 2)).expect("write");
        assert_eq!(read(&root, &at_limit).expect("read").len(), limit);
        let past = dir.path().join("b.md");
        std::fs::write(&past, "x".repeat(limit + 1)).expect("write");
        let problem = read(&root, &past).expect_err("refused").problem;
        let bytes = limit as u64 + 1;
        let limit = limit as u64;
        assert_eq!(problem, FileProblem::TooLarge { bytes, limit }.into());
        let link = dir.path().join("c.md");
        std::os::unix::fs::symlink(&at_limit, &link).expect("link");
        let problem = read(&root, &link)
            .expect_err("never through a link")
            .problem;
        assert!(matches!(
            problem,
            crate::Problem::File(FileProblem::Unreadable { .. })
        ));
    }

    #[test]
    fn a_file_is_fresh_only_when_unchanged_and_not_racy() {
        let now = clock::wall();
        let old = now - Duration::from_secs(60);
        let entry: Entry<PageMeta> = Entry {
            stamp: Stamp {
                size: 10,
                modified: old,
            },
            read_at: now,
            seen_in: 0,
            parsed: Err(Diagnostic::new(Path::new("a"), 1, FileProblem::NotMarkdown)),
            own_problems: Vec::new(),
            checked_with: None,
        };
        assert!(entry.fresh(Stamp {
            size: 10,
            modified: old
        }));
        assert!(!entry.fresh(Stamp {
            size: 11,
            modified: old
        }));
        let racy = Entry {
            stamp: Stamp {
                size: 10,
                modified: now,
            },
            ..entry
        };
        assert!(
            !racy.fresh(Stamp {
                size: 10,
                modified: now
            }),
            "changed in the second it was read: read again"
        );
    }

    #[test]
    fn a_document_or_a_yaml_file_with_a_conflict_is_refused_at_the_marker() {
        let dir = tempfile::tempdir().expect("temp dir");
        let content = dir.path().join("content");
        let text =
            "---\ntitle: \"A\"\n---\nTekst.\n<<<<<<< HEAD\nNasz.\n=======\nIch.\n>>>>>>> abc\n";
        let file = content.join("blog/archiwum/a.md");
        let refused = parse_document::<ArticleMeta>(Kind::Article, &file, text).err();
        let refused = refused.expect("refused");
        assert_eq!(refused.line, 5);
        assert!(
            refused
                .english()
                .contains("git add content/blog/archiwum/a.md"),
            "{}",
            refused.english()
        );

        std::fs::create_dir_all(&content).expect("mkdir");
        let prices = content.join("cennik.yaml");
        std::fs::write(
            &prices,
            "items:\n<<<<<<< HEAD\n  - a\n=======\n  - b\n>>>>>>> x\n",
        )
        .expect("write");
        let mut problems = Vec::new();
        let loaded = YamlFile::<PriceList>::default().load(
            (&Root::new(&content), &prices),
            Changes::Unknown,
            &mut problems,
        );
        assert!(loaded.is_none());
        assert_eq!(problems[0].line, 2);
        assert!(problems[0]
            .problem
            .polish()
            .contains("git add content/cennik.yaml"));
    }
}
