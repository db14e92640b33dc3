//! Renders every output file of the site in memory; nothing is written here.

use rayon::prelude::*;
use regex::Regex;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use tera::{Context, Tera};
use walkdir::WalkDir;

use crate::error::{Diagnostic, Error, Result};
use crate::facts::{self, Facts};
use crate::images;
use crate::islands::{Islands, SsrStats};
use crate::markdown;
use crate::model::{page_route, ArticleMeta, Content, Document, PageMeta, ServiceMeta};
use crate::seo;
use crate::views::{self, Collections};

/// One file of the built site, with its path relative to the output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// What the `<head>` and the page frame need to know about any page.
#[derive(Debug, Clone, Serialize, Default)]
pub struct PageView {
    pub route: String,
    pub canonical: String,
    pub title: String,
    pub description: String,
    pub heading: Option<String>,
    pub subtitle: Option<String>,
    pub prompt: Option<String>,
    pub image: Option<String>,
    pub image_alt: Option<String>,
    pub dated: Option<String>,
    pub noindex: bool,
    /// Absolute address of the link-preview image.
    pub og_image: String,
    pub og_type: &'static str,
    /// JSON-LD blocks, ready for a `<script type="application/ld+json">`.
    pub json_ld: String,
}

fn tera_message(e: &tera::Error) -> String {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// Files under `dir`, as (path relative to `dir` with '/', bytes), sorted.
fn files_under(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for entry in WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| Error::read(dir, e.into()))?;
        if !entry.file_type().is_file() || entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = std::fs::read(entry.path()).map_err(|e| Error::read(entry.path(), e))?;
        out.push((name, bytes));
    }
    Ok(out)
}

/// Escapes what HTML needs escaped; unlike Tera's default it leaves `/` as it is.
fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + 8);
    for c in input.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The templates, each with the collections it may show (directly or through the templates
/// it extends, includes or imports), and one hash of all their sources.
pub struct Templates {
    pub tera: Tera,
    pub uses_collections: HashSet<String>,
    pub hash: [u8; 32],
}

fn collection_users(sources: &[(String, String)]) -> HashSet<String> {
    let reference =
        Regex::new(r#"\{%-?\s*(?:extends|include|import)\s+"([^"]+)""#).expect("valid regex");
    let uses = Regex::new(r"(^|[^A-Za-z0-9_.])c\.[a-z_]+").expect("valid regex");
    let by_name: HashMap<&str, &str> = sources
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let mut users = HashSet::new();
    for (name, _) in sources {
        let mut stack = vec![name.as_str()];
        let mut seen = HashSet::new();
        while let Some(current) = stack.pop() {
            if !seen.insert(current) {
                continue;
            }
            let Some(source) = by_name.get(current) else {
                continue;
            };
            if uses.is_match(source) {
                users.insert(name.clone());
                break;
            }
            stack.extend(
                reference
                    .captures_iter(source)
                    .filter_map(|c| c.get(1))
                    .map(|m| m.as_str()),
            );
        }
    }
    users
}

pub fn load_templates(dir: &Path, islands: &Islands) -> Result<Templates> {
    let sources: Vec<(String, String)> = files_under(dir)?
        .into_iter()
        .filter(|(name, _)| name.ends_with(".html"))
        .map(|(name, bytes)| (name, String::from_utf8_lossy(&bytes).into_owned()))
        .collect();
    let mut hasher = Sha256::new();
    for (name, source) in &sources {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(source.as_bytes());
        hasher.update([0]);
    }
    let uses_collections = collection_users(&sources);
    let mut tera = Tera::default();
    tera.set_escape_fn(escape_html);
    islands.register(&mut tera);
    tera.add_raw_templates(sources)
        .map_err(|e| Error::Template {
            name: dir.display().to_string(),
            message: tera_message(&e),
        })?;
    Ok(Templates {
        tera,
        uses_collections,
        hash: hasher.finalize().into(),
    })
}

/// Content-hashed assets: `assets/style.css` becomes `assets/style.<hash>.css`.
fn hashed_assets(dir: &Path) -> Result<(BTreeMap<String, String>, Vec<Output>)> {
    let mut map = BTreeMap::new();
    let mut outputs = Vec::new();
    for (name, bytes) in files_under(dir)? {
        let digest = Sha256::digest(&bytes);
        let hash: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
        let hashed = match name.rsplit_once('.') {
            Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
            None => format!("{name}.{hash}"),
        };
        map.insert(name, format!("/assets/{hashed}"));
        outputs.push(Output {
            path: format!("assets/{hashed}"),
            bytes,
        });
    }
    Ok((map, outputs))
}

fn route_file(route: &str) -> String {
    match route.trim_matches('/') {
        "" => "index.html".to_string(),
        r => format!("{r}/index.html"),
    }
}

struct Renderer<'a> {
    content: &'a Content,
    facts: Facts,
    collections: Collections,
    tera: Tera,
    base: Context,
    /// Which templates may show collections, and what every output depends on.
    uses_collections: HashSet<String>,
    global_fingerprint: [u8; 32],
    collections_fingerprint: [u8; 32],
}

/// One HTML output: a page, a service, an article or the error page.
#[derive(Clone, Copy)]
enum Job<'a> {
    Page(&'a Document<PageMeta>),
    Service(&'a Document<ServiceMeta>),
    Article(&'a Document<ArticleMeta>),
    NotFound,
}

/// Pages rendered by earlier builds, by output path, with the fingerprint of everything their
/// template could see. An output whose fingerprint is unchanged is not rendered again: the
/// result is the same bytes a full build would produce, by construction.
#[derive(Debug, Clone, Default)]
pub struct Memo {
    entries: HashMap<String, MemoEntry>,
}

impl Memo {
    pub fn contains(&self, path: &str) -> bool {
        self.entries.contains_key(path)
    }
}

#[derive(Debug, Clone)]
struct MemoEntry {
    fingerprint: [u8; 32],
    bytes: Arc<Vec<u8>>,
}

/// What one rendering produced.
pub struct Rendered {
    pub outputs: Vec<Output>,
    pub stats: SsrStats,
    pub memo: Memo,
    /// Output paths rendered this time (the rest came from the memo).
    pub fresh: HashSet<String>,
}

impl Renderer<'_> {
    fn page_view(&self, route: &str, title: &str, description: &str) -> PageView {
        let site = &self.content.site;
        PageView {
            route: route.to_string(),
            canonical: seo::absolute(site, route),
            title: title.to_string(),
            description: description.to_string(),
            og_image: seo::absolute(site, &format!("/images/{}", site.og_image)),
            og_type: "website",
            json_ld: seo::script_json(&[]),
            ..PageView::default()
        }
    }

    /// Link previews need a raster image; SVG illustrations fall back to the site's image.
    fn preview_image(&self, view: &mut PageView, image: &str) {
        let raster = [".png", ".jpg", ".jpeg", ".webp"]
            .iter()
            .any(|e| image.ends_with(e))
            || image.contains("?auto=format");
        if raster {
            view.og_image = seo::absolute(&self.content.site, image);
        }
    }

    /// A `FAQPage` block when the document has questions in `faq` sections.
    fn faq_json_ld(&self, sections: &[crate::sections::Section]) -> Option<serde_json::Value> {
        let items = views::faq(sections, &self.facts);
        (!items.is_empty()).then(|| seo::faq_page(&items))
    }

    fn page_json_ld(&self, template: &str, view: &PageView, doc: &Document<PageMeta>) -> String {
        let site = &self.content.site;
        let crumb_name = view.heading.as_deref().unwrap_or(&view.title);
        let mut blocks = Vec::new();
        if view.route != "/" {
            blocks.push(seo::breadcrumbs(site, &[(crumb_name, view.route.as_str())]));
        }
        match template {
            "home" => blocks.push(seo::business(site, &self.collections, false)),
            "about" => {
                blocks.push(seo::business(site, &self.collections, false));
                blocks.extend(seo::people(site, &self.collections));
            }
            "prices" => blocks.push(seo::business(site, &self.collections, true)),
            _ => {}
        }
        blocks.extend(self.faq_json_ld(&doc.sections));
        seo::script_json(&blocks)
    }

    fn render(&self, template: &str, context: &Context) -> Result<Vec<u8>> {
        self.tera
            .render(template, context)
            .map(String::into_bytes)
            .map_err(|e| Error::Template {
                name: template.to_string(),
                message: tera_message(&e),
            })
    }

    fn page_template(doc: &Document<PageMeta>) -> String {
        format!("{}.html", doc.meta.template)
    }

    /// Pages whose template does not exist, reported all at once.
    fn missing_templates(&self) -> Vec<Diagnostic> {
        self.content
            .pages
            .iter()
            .filter(|doc| {
                !self
                    .tera
                    .get_template_names()
                    .any(|n| n == Self::page_template(doc))
            })
            .map(|doc| {
                Diagnostic::new(
                    &doc.file,
                    2,
                    format!(
                        "template: there is no templates/{}",
                        Self::page_template(doc)
                    ),
                )
            })
            .collect()
    }

    fn jobs(&self) -> Vec<Job<'_>> {
        let pages = self.content.pages.iter().map(Job::Page);
        let services = self.content.services.iter().map(Job::Service);
        let articles = self.content.articles.iter().map(Job::Article);
        pages
            .chain(services)
            .chain(articles)
            .chain([Job::NotFound])
            .collect()
    }

    fn job_path(job: Job<'_>) -> String {
        match job {
            Job::Page(doc) => route_file(&page_route(&doc.slug)),
            Job::Service(doc) => route_file(&format!("/uslugi/{}", doc.slug)),
            Job::Article(doc) => route_file(&format!("/blog/{}", doc.slug)),
            Job::NotFound => "404.html".into(),
        }
    }

    fn job_template(job: Job<'_>) -> String {
        match job {
            Job::Page(doc) => Self::page_template(doc),
            Job::Service(_) => "service.html".into(),
            Job::Article(_) => "article.html".into(),
            Job::NotFound => "404.html".into(),
        }
    }

    /// Everything the output of `job` can depend on, hashed.
    fn fingerprint(&self, job: Job<'_>) -> [u8; 32] {
        let template = Self::job_template(job);
        let mut h = Sha256::new();
        h.update(self.global_fingerprint);
        h.update(template.as_bytes());
        let own: (&str, &str, &[u8; 32]) = match job {
            Job::Page(d) => ("page", &d.slug, &d.hash),
            Job::Service(d) => ("service", &d.slug, &d.hash),
            Job::Article(d) => ("article", &d.slug, &d.hash),
            Job::NotFound => ("404", "", &[0; 32]),
        };
        h.update(own.0.as_bytes());
        h.update(own.1.as_bytes());
        h.update(own.2);
        if self.uses_collections.contains(&template) {
            h.update(self.collections_fingerprint);
        }
        h.finalize().into()
    }

    fn render_job(&self, job: Job<'_>) -> Result<Vec<u8>> {
        match job {
            Job::Page(doc) => self.render_page(doc),
            Job::Service(doc) => self.render_service(doc),
            Job::Article(doc) => self.render_article(doc),
            Job::NotFound => self.render_not_found(),
        }
    }

    /// The base context, with the listings only where the template shows them: cloning
    /// thousands of article cards into every page would make a build quadratic.
    fn context(&self, template: &str) -> Context {
        let mut ctx = self.base.clone();
        if self.uses_collections.contains(template) {
            ctx.insert("c", &self.collections);
        }
        ctx
    }

    fn render_page(&self, doc: &Document<PageMeta>) -> Result<Vec<u8>> {
        let site = &self.content.site;
        let route = page_route(&doc.slug);
        let m = &doc.meta;
        let mut page = self.page_view(&route, &m.title, &m.description);
        page.heading = m.heading.clone();
        page.subtitle = m.subtitle.as_deref().map(markdown::typeset);
        page.prompt = m.prompt.as_deref().map(markdown::typeset);
        page.image = m
            .image
            .as_deref()
            .map(|i| images::resolve(site, i, &doc.slug));
        page.image_alt = m.image_alt.clone();
        page.dated = m.dated.clone();
        page.noindex = m.noindex;
        if let Some(image) = page.image.clone() {
            self.preview_image(&mut page, &image);
        }
        page.json_ld = self.page_json_ld(&doc.meta.template, &page, doc);
        let mut ctx = self.context(&Self::page_template(doc));
        ctx.insert("page", &page);
        ctx.insert("sections", &views::sections(&doc.sections, &self.facts));
        self.render(&Self::page_template(doc), &ctx)
    }

    fn render_service(&self, doc: &Document<ServiceMeta>) -> Result<Vec<u8>> {
        let card = views::service_card(self.content, doc);
        let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
        page.image = Some(card.image.clone());
        self.preview_image(&mut page, &card.image);
        let trail = [
            ("Usługi", "/uslugi"),
            (card.page_title.as_str(), card.href.as_str()),
        ];
        let mut blocks = vec![seo::breadcrumbs(&self.content.site, &trail)];
        blocks.extend(self.faq_json_ld(&doc.sections));
        page.json_ld = seo::script_json(&blocks);
        let mut ctx = self.context("service.html");
        ctx.insert("page", &page);
        ctx.insert("service", &card);
        ctx.insert("sections", &views::sections(&doc.sections, &self.facts));
        self.render("service.html", &ctx)
    }

    fn render_article(&self, doc: &Document<ArticleMeta>) -> Result<Vec<u8>> {
        let card = views::article_card(self.content, doc);
        let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
        page.image = Some(card.image.clone());
        page.og_type = "article";
        self.preview_image(&mut page, &card.image);
        let site = &self.content.site;
        let trail = [("Blog", "/blog"), (card.title.as_str(), card.href.as_str())];
        let mut blocks = vec![
            seo::breadcrumbs(site, &trail),
            seo::blog_posting(site, &card),
        ];
        blocks.extend(self.faq_json_ld(&doc.sections));
        page.json_ld = seo::script_json(&blocks);
        let mut ctx = self.context("article.html");
        ctx.insert("page", &page);
        ctx.insert("article", &card);
        ctx.insert("booking_link", &views::article_booking(self.content, doc));
        ctx.insert("sections", &views::sections(&doc.sections, &self.facts));
        self.render("article.html", &ctx)
    }

    fn render_not_found(&self) -> Result<Vec<u8>> {
        let mut page = self.page_view("/404", "Nie znaleziono strony", "Ta strona nie istnieje.");
        page.noindex = true;
        let mut ctx = self.context("404.html");
        ctx.insert("page", &page);
        ctx.insert("error_text", "404 Not Found");
        self.render("404.html", &ctx)
    }
}

impl Renderer<'_> {
    fn search_files(&self, outputs: &mut Vec<Output>) {
        let site = &self.content.site;
        let files = [
            ("sitemap.xml", seo::sitemap(self.content)),
            ("robots.txt", seo::robots(site)),
            (
                "blog/atom.xml",
                seo::atom_feed(site, &self.collections.articles),
            ),
        ];
        outputs.extend(files.into_iter().map(|(path, text)| Output {
            path: path.into(),
            bytes: text.into_bytes(),
        }));
    }
}

fn copy_tree(dir: &Path, prefix: &str, outputs: &mut Vec<Output>) -> Result<()> {
    for (name, bytes) in files_under(dir)? {
        outputs.push(Output {
            path: format!("{prefix}{name}"),
            bytes,
        });
    }
    Ok(())
}

/// Props every booking button island shares: where to book, and the doctor-listing platform.
fn booking_props(content: &Content) -> serde_json::Value {
    let listing = &content.site.doctor_listing;
    serde_json::json!({
        "bookingUrl": content.site.booking_url,
        "doctorListing": {
            "name": listing.name,
            "profileUrl": listing.profile_url,
            "doctorId": listing.doctor_id,
            "widgetHost": listing.widget_host,
        },
    })
}

/// What the page script needs, embedded as JSON in every page.
fn site_script_config(content: &Content) -> String {
    let site = &content.site;
    let fallback: Vec<String> = site
        .fallback_images
        .iter()
        .map(|f| images::resolve(site, f, ""))
        .collect();
    serde_json::json!({
        "fallbackImages": fallback,
        "telephony": { "id": site.telephony_widget_id, "src": site.telephony_widget_src },
        "analyticsId": site.analytics_id,
    })
    .to_string()
    .replace('<', "\\u003c")
}

/// The renderer with its base context, and the asset files every build publishes.
fn prepare<'a>(
    content: &'a Content,
    templates_dir: &Path,
    islands: &Islands,
) -> Result<(Renderer<'a>, Vec<Output>)> {
    let templates = load_templates(templates_dir, islands)?;
    let (mut assets, mut outputs) = hashed_assets(&templates_dir.join("assets"))?;
    for name in islands.manifest.scripts.keys() {
        if let Some(url) = islands.manifest.script_url(name) {
            assets.insert(name.clone(), url);
        }
    }
    outputs.extend(islands.browser_outputs()?);
    copy_tree(&templates_dir.join("static"), "", &mut outputs)?;
    copy_tree(&content.root.join("images"), "images/", &mut outputs)?;
    let facts = Facts::new(content);
    let collections: Collections = views::collections(content, &facts);
    let mut base = Context::new();
    base.insert(
        "contact_clause",
        &markdown::to_html(&facts.fill(&content.site.contact_clause)),
    );
    let categories: Vec<serde_json::Value> = facts::consent_categories(content)
        .into_iter()
        .map(|c| serde_json::json!({ "key": c, "label": c.label() }))
        .collect();
    base.insert("consent_categories", &categories);
    base.insert("site", &content.site);
    base.insert("assets", &assets);
    base.insert("booking", &booking_props(content));
    base.insert("site_config_json", &site_script_config(content));
    base.insert("contact_form_default", &serde_json::json!({}));
    let mut global = Sha256::new();
    global.update(templates.hash);
    global.update(serde_json::to_vec(&content.site).unwrap_or_default());
    global.update(serde_json::to_vec(&assets).unwrap_or_default());
    global.update(islands.fingerprint());
    global.update(serde_json::to_vec(&facts).unwrap_or_default());
    let collections_fingerprint =
        Sha256::digest(serde_json::to_vec(&collections).unwrap_or_default()).into();
    Ok((
        Renderer {
            content,
            facts,
            collections,
            tera: templates.tera,
            base,
            uses_collections: templates.uses_collections,
            global_fingerprint: global.finalize().into(),
            collections_fingerprint,
        },
        outputs,
    ))
}

/// Renders the whole site from loaded, validated content, the templates and the islands.
pub fn render_site(
    content: &Content,
    templates_dir: &Path,
    islands: &Islands,
) -> Result<(Vec<Output>, SsrStats)> {
    render_with_memo(content, templates_dir, islands, &Memo::default())
        .map(|r| (r.outputs, r.stats))
}

/// Renders the site, taking every page whose fingerprint is in `memo` from there, and the
/// others in parallel.
pub fn render_with_memo(
    content: &Content,
    templates_dir: &Path,
    islands: &Islands,
    memo: &Memo,
) -> Result<Rendered> {
    let (renderer, mut outputs) = prepare(content, templates_dir, islands)?;
    let problems = renderer.missing_templates();
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    let jobs: Vec<(Job<'_>, String, [u8; 32])> = renderer
        .jobs()
        .into_iter()
        .map(|job| (job, Renderer::job_path(job), renderer.fingerprint(job)))
        .collect();
    let (cached, to_render): (Vec<_>, Vec<_>) = jobs
        .into_iter()
        .partition(|(_, path, fp)| memo.entries.get(path).is_some_and(|e| e.fingerprint == *fp));
    let mut fresh: Vec<Output> = to_render
        .par_iter()
        .map(|(job, path, _)| {
            renderer.render_job(*job).map(|bytes| Output {
                path: path.clone(),
                bytes,
            })
        })
        .collect::<Result<_>>()?;
    let stats = islands.finish(&mut fresh)?;
    let mut next = Memo::default();
    let fingerprints: HashMap<&str, [u8; 32]> = to_render
        .iter()
        .map(|(_, p, fp)| (p.as_str(), *fp))
        .collect();
    let fresh_paths: HashSet<String> = fresh.iter().map(|o| o.path.clone()).collect();
    for output in fresh {
        let fingerprint = fingerprints[output.path.as_str()];
        let bytes = Arc::new(output.bytes);
        next.entries.insert(
            output.path.clone(),
            MemoEntry {
                fingerprint,
                bytes: Arc::clone(&bytes),
            },
        );
        outputs.push(Output {
            path: output.path,
            bytes: bytes.to_vec(),
        });
    }
    for (_, path, _) in cached {
        if let Some(entry) = memo.entries.get(&path) {
            outputs.push(Output {
                path: path.clone(),
                bytes: entry.bytes.to_vec(),
            });
            next.entries.insert(path, entry.clone());
        }
    }
    renderer.search_files(&mut outputs);
    let hashes = crate::headers::inline_script_hashes(&outputs);
    let headers = crate::headers::security_headers(&content.site, &hashes);
    outputs.push(Output {
        path: crate::headers::FILE.into(),
        bytes: crate::headers::headers_file(&headers).into_bytes(),
    });
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Rendered {
        outputs,
        stats,
        memo: next,
        fresh: fresh_paths,
    })
}

/// A page that is not part of the static site, rendered on request (for example the answer
/// to a contact form sent without JavaScript). `extra` is added to the template's context.
pub struct ExtraPage<'a> {
    pub template: &'a str,
    pub route: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub extra: Vec<(&'a str, serde_json::Value)>,
}

pub fn render_extra(
    content: &Content,
    templates_dir: &Path,
    islands: &Islands,
    page: &ExtraPage<'_>,
) -> Result<String> {
    let (renderer, _) = prepare(content, templates_dir, islands)?;
    let mut view = renderer.page_view(page.route, page.title, page.description);
    view.noindex = true;
    let mut ctx = renderer.context(page.template);
    ctx.insert("page", &view);
    for (key, value) in &page.extra {
        ctx.insert(*key, value);
    }
    let mut outputs = vec![Output {
        path: "page.html".into(),
        bytes: renderer.render(page.template, &ctx)?,
    }];
    islands.finish(&mut outputs)?;
    Ok(String::from_utf8_lossy(&outputs[0].bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_slashes_and_escapes_markup() {
        assert_eq!(
            escape_html("/a?b=1&c=<\"'>"),
            "/a?b=1&amp;c=&lt;&quot;&#39;&gt;"
        );
    }

    #[test]
    fn routes_map_to_index_files() {
        assert_eq!(route_file("/"), "index.html");
        assert_eq!(
            route_file("/uslugi/terapia-par"),
            "uslugi/terapia-par/index.html"
        );
    }
}
