//! Renders the site's pages in memory: the views and structured data of each page through
//! its template. Nothing is written here; the builder decides what to render and publish.

use bytes::Bytes;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tera::{Context, Tera};

use crate::error::{Error, Result};
use crate::image_findings::ImageFindings;
use crate::images;
use crate::islands::{self, Islands};
use crate::markdown;
use crate::output::{route_file, Output};
use crate::seo;
use crate::structured::{self, Crumb, Node};
use crate::views::{self, CardCache, Collections, SectionCache, SectionInputs, SectionView};
use crate::{assets, templates};
use content::encoding::script_json;
use content::facts::{self, Facts};
use content::kind::{DocId, Kind};
use content::load::parse_document;
use content::model::{ArticleMeta, Content, Document, PageMeta, ServiceMeta};
use content::problem::DocumentProblem;
use content::sections::Section;
use content::validate;
use content::Diagnostic;

/// What the `<head>` and the page frame need to know about any page.
#[derive(Debug, Clone, Serialize, Default)]
pub(crate) struct PageView {
    pub route: String,
    /// The page's absolute address; empty for a page that has none of its own (the error
    /// page, pages rendered on request), which then names no canonical address.
    pub canonical: String,
    pub title: String,
    /// The title of search results and link previews, when it differs from `title`.
    pub seo_title: Option<String>,
    /// The page's `<title>`: `seo_title` or `title`, with the practice's name unless it names
    /// it already ([`content::titles::title_tag`], the text `make check` measures).
    pub title_tag: String,
    pub description: String,
    pub heading: Option<String>,
    pub subtitle: Option<String>,
    pub prompt: Option<String>,
    pub image: Option<String>,
    pub image_alt: Option<String>,
    pub image_focus: Option<String>,
    pub dated: Option<String>,
    pub noindex: bool,
    /// Absolute address of the link-preview image, and what it shows.
    pub og_image: String,
    pub og_image_alt: String,
    pub og_type: &'static str,
    /// From the home page down to this page, as the visible trail and its `BreadcrumbList`
    /// show it; empty on the home page and on pages without the site's navigation.
    pub trail: Vec<Crumb>,
    /// The page's JSON-LD graph, ready for a `<script type="application/ld+json">`; empty
    /// when it has none.
    pub json_ld: String,
}

/// The keys a page adds to the base context (and a page rendered on request its own):
/// taken out again after each page. `c`, the listings, only where the template shows them:
/// cloning thousands of article cards into every page would make a build quadratic.
/// The template of a landing page, which has no navigation and leads only home: no trail.
const LANDING_TEMPLATE: &str = "m1";

const PAGE_KEYS: [&str; 8] = [
    "page",
    "sections",
    "service",
    "article",
    "booking_link",
    "error_text",
    "collections",
    "form",
];

/// What a page at a given path is rendered from, before it is hashed: everything every page
/// sees (templates, facts, assets, islands, images), its document's file (which also names
/// its template), and the listings if its template shows them. A page whose inputs are those
/// of its last render is that render, without hashing anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Inputs {
    pub global: [u8; 32],
    pub doc: [u8; 32],
    pub collections: Option<[u8; 32]>,
}

/// What a builder keeps from one render to the next: the article cards, the sections' HTML
/// and the image checks of documents that did not change.
#[derive(Default)]
pub struct Caches {
    pub(crate) cards: CardCache,
    pub(crate) sections: Arc<SectionCache>,
    pub(crate) images: ImageFindings,
    pub(crate) prices: validate::PriceTexts,
}

impl Caches {
    /// The caches of a builder of one build: the sections' HTML is not kept (the largest of
    /// them, a copy of every page's text as HTML).
    pub(crate) fn once() -> Self {
        Caches {
            sections: Arc::new(SectionCache::none()),
            ..Caches::default()
        }
    }
}

/// The base context of a renderer, reused page after page (see [`Renderer::page_context`]).
pub struct PageContext(Context);

/// One HTML page to render: a document or the error page.
#[derive(Clone)]
pub enum Job {
    Page(Arc<Document<PageMeta>>),
    Service(Arc<Document<ServiceMeta>>),
    Article(Arc<Document<ArticleMeta>>),
    NotFound,
}

impl Job {
    /// The file the page is published as.
    pub fn path(&self) -> String {
        let route = match self {
            Job::Page(d) => d.route.as_deref(),
            Job::Service(d) => d.route.as_deref(),
            Job::Article(d) => d.route.as_deref(),
            Job::NotFound => return "404.html".into(),
        };
        route_file(route.unwrap_or("/404"))
    }

    /// The template's name without `.html`.
    fn template(&self) -> &str {
        match self {
            Job::Page(d) => &d.meta.template,
            Job::Service(d) => d.id.kind.template(),
            Job::Article(d) => d.id.kind.template(),
            Job::NotFound => "404",
        }
    }

    /// The document's own identity and bytes, for its fingerprint.
    fn own(&self) -> (&'static str, &str, &[u8; 32]) {
        const NONE: [u8; 32] = [0; 32];
        match self {
            Job::Page(d) => (d.id.kind.folder(), d.slug(), &d.hash),
            Job::Service(d) => (d.id.kind.folder(), d.slug(), &d.hash),
            Job::Article(d) => (d.id.kind.folder(), d.slug(), &d.hash),
            Job::NotFound => ("", "404", &NONE),
        }
    }
}

/// A page that is not part of the static site, rendered on request (the answer to a contact
/// form sent without JavaScript). Its template must not use islands: nothing here starts
/// node. `extra` is added to the template's context.
pub struct ExtraPage<'a> {
    pub template: &'a str,
    pub route: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub extra: Vec<(&'a str, serde_json::Value)>,
}

/// The templates, the content and everything every page shares, ready to render any page.
pub struct Renderer {
    content: Arc<Content>,
    catalog: Arc<images::Catalog>,
    /// What the image checks found that does not stop the build.
    warnings: Vec<Diagnostic>,
    facts: Facts,
    collections: Arc<Collections>,
    /// The practice's node of every page's structured data.
    business: Node,
    tera: Tera,
    base: Context,
    /// Which templates (by name without `.html`) may show collections, and what every page
    /// depends on.
    /// (A few names: a list is quicker to look through than a hashed set, page after page.)
    uses_collections: Vec<String>,
    global_fingerprint: [u8; 32],
    collections_fingerprint: [u8; 32],
    /// The build's islands, for previews: prerendered from the same cache.
    islands: Islands,
    /// The HTML of sections of earlier renders, shared with the builder.
    sections: Arc<SectionCache>,
    /// The CSP hashes of the templates' inline scripts.
    script_hashes: std::collections::BTreeSet<String>,
    /// The templates' files and texts.
    template_sources: Vec<(PathBuf, String)>,
}

/// A page rendered from a document's unsaved text: what the panel's preview shows.
#[derive(Debug, Clone)]
pub struct Preview {
    pub html: String,
    /// What a save of this text would be refused for (the document's own problems and its
    /// links); the preview is rendered all the same.
    pub problems: Vec<Diagnostic>,
}

/// The mark every preview carries, visibly, at the bottom of the window.
pub const PREVIEW_MARK: &str = "Podgląd – niezapisane zmiany";
/// Where a preview's banner can say what a save would be refused for.
pub const PREVIEW_PROBLEMS: &str = "<!--preview-problems-->";

/// A page without its `<script>` elements. A preview is shown sandboxed on the panel's
/// origin, where no script may run: its islands are there as prerendered HTML, and the
/// browser has nothing to refuse.
fn without_scripts(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let Some(end) = rest[start..].find("</script>") else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + end + "</script>".len()..];
    }
    out.push_str(rest);
    out
}

/// Marks a rendered page as a preview: not to be indexed, titled and bannered as one,
/// without scripts.
fn mark_preview(html: &str) -> String {
    let mut out = without_scripts(html).replacen(
        "<head>\n",
        "<head>\n<meta name=\"robots\" content=\"noindex, nofollow\">\n",
        1,
    );
    out = out.replacen("<title>", &format!("<title>{PREVIEW_MARK} | "), 1);
    let banner = format!(
        "<div class=\"preview-banner\" role=\"status\"><strong>{PREVIEW_MARK}</strong> – ta strona nie jest opublikowana; zamknij kartę, aby wrócić do panelu.{PREVIEW_PROBLEMS}</div>\n"
    );
    match out
        .find("<body")
        .and_then(|i| out[i..].find('>').map(|j| i + j + 1))
    {
        Some(at) => out.insert_str(at, &format!("\n{banner}")),
        None => out.insert_str(0, &banner),
    }
    out
}

/// What the page script needs, embedded as JSON in every page.
fn site_script_config(content: &Content, year: u16) -> String {
    let site = &content.site;
    let fallback: Vec<String> = site
        .fallback_images
        .iter()
        .map(|f| images::resolve(site, f, ""))
        .collect();
    // The practice's hours for the call control, which works out in the browser (in Warsaw
    // time) whether the practice is open now: days as ISO numbers, times as "HH:MM".
    let hours: Vec<serde_json::Value> = site
        .opening_hours
        .iter()
        .map(|h| {
            let days: Vec<u8> = h
                .days
                .iter()
                .filter_map(|d| facts::weekday_number(d))
                .collect();
            serde_json::json!({ "days": days, "opens": h.opens, "closes": h.closes })
        })
        .collect();
    // Days the weekly hours do not hold (public holidays, the practice's own days off), from
    // the start of the build's year to the end of the year after next: a page built today
    // still knows next Easter.
    let closed: Vec<String> = content::holidays::closed_days(
        site,
        content::dates::Date {
            year,
            month: 1,
            day: 1,
        },
        content::dates::Date {
            year: year + 2,
            month: 12,
            day: 31,
        },
    )
    .iter()
    .map(content::dates::Date::iso)
    .collect();
    script_json(&serde_json::json!({
        "fallbackImages": fallback,
        "telephony": {
            "id": site.telephony.id,
            "src": site.telephony.script(),
            "cookies": facts::widget_cookies(content, site.telephony.name()),
        },
        "analyticsId": content.measurement.analytics_id,
        "stats": content.measurement.statistics,
        "booking": views::booking_labels(content),
        "phone": site.phone,
        "hours": hours,
        "closed": closed,
    }))
}

impl Renderer {
    /// The renderer for `content` and the images of `catalog`, and the files every build
    /// publishes as they are (assets, static files and the islands' browser bundles), for a
    /// build at `now` (the builder's clock: the copyright's year and the closed days' range).
    pub fn prepare(
        content: Arc<Content>,
        catalog: Arc<images::Catalog>,
        templates_dir: &Path,
        islands: &Islands,
        caches: &mut Caches,
        now: i64,
    ) -> Result<(Renderer, Vec<Output>)> {
        let build_year = content::dates::warsaw(now).0.year;
        let sections = Arc::clone(&caches.sections);
        let cards = &mut caches.cards;
        let mut templates = templates::load(templates_dir, islands)?;
        templates.tera.register_function(
            "picture",
            images::PictureFunction {
                catalog: Arc::clone(&catalog),
            },
        );
        let (mut assets, mut files) = assets::hashed(&templates_dir.join("assets"))?;
        for name in islands.manifest.scripts.keys() {
            if let Some(url) = islands.manifest.script_url(name) {
                assets.insert(name.clone(), url);
            }
        }
        files.extend(islands.browser_outputs()?);
        files.extend(assets::copied(&templates_dir.join("static"), "")?);
        let facts = Facts::new(&content);
        sections.forget_removed(&content);
        let inputs = SectionInputs {
            facts: &facts,
            catalog: &catalog,
            cache: &sections,
        };
        let (collections, collections_fingerprint) = views::collections(&content, inputs, cards);
        let mut base = Context::new();
        base.insert("site", &content.site);
        base.insert("assets", &assets);
        base.insert(
            "site_config_json",
            &site_script_config(&content, build_year),
        );
        // The form island's props on the home page: what it offers when a message cannot be sent.
        base.insert(
            "contact_form_default",
            &serde_json::json!({
                "phone": content.site.phone,
                "hours": facts::opening_hours(&content.site).join(", "),
            }),
        );
        base.insert("wording", &wording(&content, &facts));
        base.insert("build_year", &build_year);
        base.insert(
            "contact_clause",
            &markdown::to_html(&facts.fill(&content.site.contact_clause)),
        );
        let categories: Vec<serde_json::Value> = facts::consent_categories(&content)
            .into_iter()
            .map(|c| serde_json::json!({ "key": c, "label": c.label() }))
            .collect();
        base.insert("consent_categories", &categories);
        base.insert("opening_hours", &facts::opening_hours(&content.site));
        base.insert("crisis", &content::crisis::view());
        base.insert("practice_note", &views::practice_booking_note(&content));
        // The contact form's rules, for the form rendered without JavaScript.
        base.insert("contact_rules", &content::contact::RULES);
        let mut global = Sha256::new();
        global.update(templates.hash);
        global.update(serde_json::to_vec(&content.site).unwrap_or_default());
        global.update(serde_json::to_vec(&content.measurement).unwrap_or_default());
        global.update(serde_json::to_vec(&assets).unwrap_or_default());
        global.update(islands.fingerprint());
        global.update(serde_json::to_vec(&facts).unwrap_or_default());
        global.update(serde_json::to_vec(&content.words).unwrap_or_default());
        global.update(build_year.to_le_bytes());
        global.update(catalog.fingerprint());
        let shows_page_alt = &templates.shows_page_alt;
        let found = caches.images.check(
            &content,
            &catalog,
            &templates.hash,
            &|template| shows_page_alt.contains(&format!("{template}.html")),
            images::SETTINGS.widths.iter().copied().min().unwrap_or(1),
        );
        let mut warnings = found.warnings;
        warnings.extend(validate::example_data(&content));
        warnings.extend(validate::price_warnings(&content, &mut caches.prices));
        let business = structured::business(&content.site).into();
        let renderer = Renderer {
            business,
            content,
            catalog,
            warnings,
            facts,
            collections,
            tera: templates.tera,
            base,
            uses_collections: templates
                .uses_collections
                .iter()
                .map(|t| t.trim_end_matches(".html").to_string())
                .collect(),
            global_fingerprint: global.finalize().into(),
            collections_fingerprint,
            islands: islands.clone(),
            sections,
            script_hashes: templates.script_hashes,
            template_sources: templates.sources,
        };
        let mut problems = renderer.missing_templates();
        problems.extend(found.errors);
        let footer_file = templates_dir.join(validate::FOOTER_TEMPLATE);
        let footer = std::fs::read_to_string(&footer_file).ok();
        problems.extend(validate::minors_standards(
            &renderer.content,
            &footer_file,
            footer.as_deref(),
        ));
        problems.extend(validate::orphans(&renderer.content, &templates.links));
        if !problems.is_empty() {
            return Err(Error::Content(problems));
        }
        Ok((renderer, files))
    }

    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }

    /// The CSP hashes (`'sha256-…'`) of the inline scripts the templates write: the only
    /// inline code a public page may hold.
    pub fn script_hashes(&self) -> &std::collections::BTreeSet<String> {
        &self.script_hashes
    }

    /// The templates' files and texts.
    pub(crate) fn template_sources(&self) -> &[(PathBuf, String)] {
        &self.template_sources
    }

    pub fn collections(&self) -> &Collections {
        &self.collections
    }

    /// Problems that do not stop the build (an image too small for where it is shown).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The absolute link-preview address of an image a page uses, if it has a raster copy.
    fn preview_of(&self, src: &str) -> Option<String> {
        images::preview(&self.catalog, src).map(|url| seo::absolute(&self.content.site, &url))
    }

    /// Pages whose template does not exist, reported all at once.
    fn missing_templates(&self) -> Vec<Diagnostic> {
        let names: HashSet<&str> = self.tera.get_template_names().collect();
        self.content
            .pages
            .iter()
            .filter(|doc| !names.contains(format!("{}.html", doc.meta.template).as_str()))
            .map(|doc| {
                let name = doc.meta.template.clone();
                let line = doc.field_lines.get("template").copied().unwrap_or(2);
                Diagnostic::new(&doc.file, line, DocumentProblem::MissingTemplate { name })
            })
            .collect()
    }

    /// Every page of the site.
    pub fn jobs(&self) -> Vec<Job> {
        let c = &self.content;
        let pages = c.pages.iter().cloned().map(Job::Page);
        let services = c.services.iter().cloned().map(Job::Service);
        let articles = c.articles.iter().cloned().map(Job::Article);
        pages
            .chain(services)
            .chain(articles)
            .chain([Job::NotFound])
            .collect()
    }

    /// Everything the page of `job` can depend on, hashed.
    pub fn fingerprint(&self, job: &Job) -> [u8; 32] {
        let template = job.template();
        let (folder, slug, hash) = job.own();
        let mut h = Sha256::new();
        h.update(self.global_fingerprint);
        for part in [template, folder, slug] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        h.update(hash);
        if self.uses_collections(template) {
            h.update(self.collections_fingerprint);
        }
        h.finalize().into()
    }

    /// What the page of `job` is rendered from (see [`Inputs`]).
    pub(crate) fn inputs(&self, job: &Job) -> Inputs {
        let template = job.template();
        Inputs {
            global: self.global_fingerprint,
            doc: *job.own().2,
            collections: self
                .uses_collections(template)
                .then_some(self.collections_fingerprint),
        }
    }

    /// Whether the template `name` (without `.html`) may show the collections.
    fn uses_collections(&self, name: &str) -> bool {
        self.uses_collections.iter().any(|t| t == name)
    }

    pub fn render(&self, job: &Job) -> Result<Bytes> {
        self.render_in(&mut self.page_context(), job)
    }

    /// A context to render pages in, one after another: the base, to which each page adds
    /// its own keys and from which it takes them again, so that the base is copied once per
    /// thread of a build rather than once per page.
    pub fn page_context(&self) -> PageContext {
        PageContext(self.base.clone())
    }

    /// Renders `job` in `ctx` (see [`Renderer::page_context`]).
    pub fn render_in(&self, ctx: &mut PageContext, job: &Job) -> Result<Bytes> {
        self.render_until(&mut ctx.0, job, None)
    }

    /// Like [`Renderer::render`], stopping with [`Error::Deadline`] once `deadline` passed.
    fn render_until(
        &self,
        ctx: &mut Context,
        job: &Job,
        deadline: Option<Instant>,
    ) -> Result<Bytes> {
        let inputs = SectionInputs {
            facts: &self.facts,
            catalog: &self.catalog,
            cache: &self.sections,
        };
        let sections =
            |id: &DocId, list: &[Section]| views::sections_until(id, list, inputs, deadline);
        match job {
            Job::Page(doc) => self.render_page(ctx, doc, sections(&doc.id, &doc.sections)?),
            Job::Service(doc) => self.render_service(ctx, doc, sections(&doc.id, &doc.sections)?),
            Job::Article(doc) => self.render_article(ctx, doc, sections(&doc.id, &doc.sections)?),
            Job::NotFound => self.render_not_found(ctx),
        }
        .map(Bytes::from)
    }

    fn page_view(&self, route: &str, title: &str, description: &str) -> PageView {
        let site = &self.content.site;
        PageView {
            route: route.to_string(),
            canonical: seo::absolute(site, route),
            title: title.to_string(),
            title_tag: content::titles::title_tag(title, None, &site.name),
            description: self.facts.fill_plain(description),
            og_image: self.site_preview(),
            og_image_alt: site.og_image_alt.clone(),
            og_type: "website",
            ..PageView::default()
        }
    }

    /// The site's own link-preview image, as a raster copy when it has one.
    fn site_preview(&self) -> String {
        let src = format!("/images/{}", self.content.site.og_image);
        self.preview_of(&src)
            .unwrap_or_else(|| seo::absolute(&self.content.site, &src))
    }

    /// Link previews need a raster image; SVG illustrations fall back to the site's image.
    fn preview_image(&self, view: &mut PageView, image: &str, alt: &str) {
        let preview = if self.catalog.get(image).is_some() {
            self.preview_of(image)
        } else {
            let raster = [".png", ".jpg", ".jpeg", ".webp"]
                .iter()
                .any(|e| image.ends_with(e))
                || image.contains("?auto=format");
            raster.then(|| seo::absolute(&self.content.site, image))
        };
        if let Some(preview) = preview {
            view.og_image = preview;
            view.og_image_alt = alt.to_string();
        }
    }

    /// A `FAQPage` block when the document has questions in `faq` sections.
    fn faq_json_ld(sections: &[SectionView]) -> Option<Node> {
        let items = views::faq(sections);
        (!items.is_empty()).then(|| structured::faq_page(&items).into())
    }

    /// A page's trail: none on the home page, nor on a landing page, which leads only home.
    fn page_trail(view: &PageView, template: &str) -> Vec<Crumb> {
        if view.route == "/" || template == LANDING_TEMPLATE {
            return Vec::new();
        }
        let name = view.heading.as_deref().unwrap_or(&view.title);
        structured::trail(&[(name, view.route.as_str())])
    }

    fn page_json_ld(&self, view: &PageView, template: &str, sections: &[SectionView]) -> String {
        let site = &self.content.site;
        let mut nodes: Vec<Node> = Vec::new();
        if !view.trail.is_empty() {
            nodes.push(structured::breadcrumbs(site, &view.trail));
        }
        match template {
            "home" => {
                nodes.push(structured::website(site).into());
                nodes.push(self.business.clone());
            }
            "about" => {
                nodes.push(self.business.clone());
                nodes.extend(
                    structured::people(site, &self.collections)
                        .into_iter()
                        .map(Node::from),
                );
            }
            "prices" => {
                nodes.push(structured::business_with_offers(site, &self.collections).into())
            }
            _ => {}
        }
        nodes.extend(Self::faq_json_ld(sections));
        structured::script_json(&nodes)
    }

    /// Renders `template` in `ctx`, with the listings where the template shows them, then
    /// takes every key a page adds out of `ctx` again.
    fn tera_render(&self, template: &str, ctx: &mut Context) -> Result<String> {
        if self.uses_collections(template.trim_end_matches(".html")) {
            ctx.insert("collections", &self.collections);
        }
        let rendered = self.tera.render(template, ctx);
        for key in PAGE_KEYS {
            ctx.remove(key);
        }
        rendered.map_err(|e| Error::Template {
            name: template.to_string(),
            message: templates::message(&e),
        })
    }

    fn render_page(
        &self,
        ctx: &mut Context,
        doc: &Document<PageMeta>,
        sections: Vec<SectionView>,
    ) -> Result<String> {
        let site = &self.content.site;
        let m = &doc.meta;
        let route = doc.route.clone().unwrap_or_default();
        let mut page = self.page_view(&route, &m.title, &m.description);
        page.seo_title = m.seo_title.clone();
        page.title_tag = content::titles::title_tag(&m.title, m.seo_title.as_deref(), &site.name);
        page.heading = m.heading.clone();
        page.subtitle = m.subtitle.as_deref().map(markdown::typeset);
        page.prompt = m.prompt.as_deref().map(markdown::typeset);
        page.image = m
            .image
            .as_deref()
            .map(|i| images::resolve(site, i, doc.slug()));
        page.image_alt = m.image_alt.clone();
        page.image_focus = m.image_focus.clone();
        page.dated = m.dated.clone();
        page.noindex = m.noindex;
        if let Some(image) = page.image.clone() {
            let alt = m.image_alt.clone().unwrap_or_default();
            self.preview_image(&mut page, &image, &alt);
        }
        page.trail = Self::page_trail(&page, &m.template);
        page.json_ld = self.page_json_ld(&page, &m.template, &sections);
        let template = format!("{}.html", m.template);
        ctx.insert("page", &page);
        ctx.insert("sections", &sections);
        self.tera_render(&template, ctx)
    }

    fn render_service(
        &self,
        ctx: &mut Context,
        doc: &Document<ServiceMeta>,
        sections: Vec<SectionView>,
    ) -> Result<String> {
        let card = views::service_card(&self.content.site, doc);
        let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
        page.image = Some(card.image.clone());
        self.preview_image(&mut page, &card.image, &card.image_alt);
        let site = &self.content.site;
        page.trail = structured::trail(&[
            ("Usługi", "/uslugi"),
            (card.page_title.as_str(), card.href.as_str()),
        ]);
        let mut nodes: Vec<Node> = vec![
            structured::breadcrumbs(site, &page.trail),
            structured::service(site, &card, &self.facts.fill_plain(&doc.meta.description)).into(),
            self.business.clone(),
        ];
        nodes.extend(Self::faq_json_ld(&sections));
        page.json_ld = structured::script_json(&nodes);
        ctx.insert("page", &page);
        ctx.insert("service", &card);
        ctx.insert(
            "booking",
            &views::service_booking(&self.content, doc.slug()),
        );
        ctx.insert("sections", &sections);
        self.tera_render("service.html", ctx)
    }

    fn render_article(
        &self,
        ctx: &mut Context,
        doc: &Document<ArticleMeta>,
        sections: Vec<SectionView>,
    ) -> Result<String> {
        let site = &self.content.site;
        // The card the listings show, unless this is another text of the article (a preview).
        let card = match self.collections.cards.get(&doc.id) {
            Some((hash, card)) if *hash == doc.hash => Arc::clone(card),
            _ => Arc::new(views::article_card(site, doc)),
        };
        let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
        page.image = Some(card.image.clone());
        page.og_type = "article";
        self.preview_image(&mut page, &card.image, &card.image_alt);
        page.trail =
            structured::trail(&[("Blog", "/blog"), (card.title.as_str(), card.href.as_str())]);
        let mut nodes: Vec<Node> = vec![
            structured::breadcrumbs(site, &page.trail),
            structured::blog_posting(site, &card, &self.collections),
            self.business.clone(),
        ];
        nodes.extend(Self::faq_json_ld(&sections));
        page.json_ld = structured::script_json(&nodes);
        ctx.insert("page", &page);
        ctx.insert("article", &card);
        ctx.insert("booking_link", &views::article_booking(&self.content, doc));
        ctx.insert("sections", &sections);
        self.tera_render("article.html", ctx)
    }

    fn render_not_found(&self, ctx: &mut Context) -> Result<String> {
        let mut page = self.page_view("/404", "Nie znaleziono strony", "Ta strona nie istnieje.");
        page.noindex = true;
        page.canonical = String::new();
        ctx.insert("page", &page);
        ctx.insert("error_text", "404 Not Found");
        self.tera_render("404.html", ctx)
    }

    /// Renders the document `id` from `text` (its whole file, as a save would write it) with
    /// this build's templates, facts and listings, writing nothing. Its islands come from
    /// the build's prerender cache (node prerenders, and caches, only islands whose props
    /// are new). Team profiles have no page of their own: `None`.
    pub fn preview(&self, id: &DocId, text: &str) -> Result<Option<Preview>> {
        self.preview_until(id, text, None)
    }

    /// Like [`Renderer::preview`], failing with [`Error::Deadline`] once `deadline` passed:
    /// checked between the steps and before each section, whose work the limits of
    /// [`crate::limits`] bound.
    pub fn preview_until(
        &self,
        id: &DocId,
        text: &str,
        deadline: Option<Instant>,
    ) -> Result<Option<Preview>> {
        let passed = || deadline.is_some_and(|d| Instant::now() >= d);
        let file = id.file(&self.content.root);
        let site = &self.content.site;
        let mut content = (*self.content).clone();
        let bad = |d: Diagnostic| Error::Content(vec![d]);
        fn put<M>(list: &mut Vec<Arc<Document<M>>>, doc: &Arc<Document<M>>) {
            list.retain(|d| d.id != doc.id);
            list.push(Arc::clone(doc));
        }
        let (job, mut problems) = match id.kind {
            Kind::Page => {
                let doc = Arc::new(parse_document::<PageMeta>(id.kind, &file, text).map_err(bad)?);
                put(&mut content.pages, &doc);
                (Job::Page(Arc::clone(&doc)), validate::document(&doc, site))
            }
            Kind::Service => {
                let doc =
                    Arc::new(parse_document::<ServiceMeta>(id.kind, &file, text).map_err(bad)?);
                put(&mut content.services, &doc);
                (
                    Job::Service(Arc::clone(&doc)),
                    validate::document(&doc, site),
                )
            }
            Kind::Article => {
                let doc =
                    Arc::new(parse_document::<ArticleMeta>(id.kind, &file, text).map_err(bad)?);
                put(&mut content.articles, &doc);
                (
                    Job::Article(Arc::clone(&doc)),
                    validate::document(&doc, site),
                )
            }
            Kind::Team => return Ok(None),
        };
        if passed() {
            return Err(Error::Deadline);
        }
        problems.extend(
            validate::validate(
                &content,
                &[],
                &mut validate::Checks::default(),
                Default::default(),
            )
            .into_iter()
            .filter(|d| d.file == file),
        );
        let mut ctx = self.base.clone();
        let rendered = self.render_until(&mut ctx, &job, deadline)?;
        let mut pages = [Output::new(job.path(), rendered)];
        if passed() {
            return Err(Error::Deadline);
        }
        self.islands.finish(&mut pages)?;
        let html = String::from_utf8_lossy(&pages[0].bytes);
        let stock = images::fallback_url(site, &job.path());
        let html = images::stand_in(&html, &site.stock_photo_base, &stock);
        Ok(Some(Preview {
            html: mark_preview(&html),
            problems,
        }))
    }

    /// Renders a page on request from this build's templates and content; never starts node.
    pub fn render_extra(&self, page: &ExtraPage<'_>) -> Result<String> {
        let mut view = self.page_view(page.route, page.title, page.description);
        view.noindex = true;
        view.canonical = String::new();
        let mut ctx = self.base.clone();
        ctx.insert("page", &view);
        for (key, value) in &page.extra {
            ctx.insert(*key, value);
        }
        let html = self.tera_render(page.template, &mut ctx)?;
        if html.contains(islands::PLACEHOLDER_START) {
            return Err(Error::Template {
                name: page.template.to_string(),
                message: "a page rendered on request cannot contain islands".into(),
            });
        }
        Ok(html.replace(islands::LOADER_MARKER, ""))
    }
}

/// The site's own words as the templates show them (`{{ wording.key | safe }}`): a paragraph's
/// Markdown rendered (its facts filled in) without its `<p>`, a plain text escaped and typeset.
fn wording(content: &Content, facts: &Facts) -> BTreeMap<&'static str, String> {
    content::wording::TABLE
        .iter()
        .map(|w| {
            let text = content::wording::text(&content.words, w.key);
            let html = if w.markdown {
                let html = markdown::to_html(&facts.fill(text));
                let inner = html
                    .trim()
                    .trim_start_matches("<p>")
                    .trim_end_matches("</p>");
                inner.to_string()
            } else {
                tera::escape_html(&markdown::typeset(text))
            };
            (w.key, html)
        })
        .collect()
}
