//! Renders every output file of the site in memory; nothing is written here.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use tera::{Context, Tera};
use walkdir::WalkDir;

use crate::error::{Diagnostic, Error, Result};
use crate::images;
use crate::islands::{Islands, SsrStats};
use crate::markdown;
use crate::model::{page_route, Content};
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

pub fn load_templates(dir: &Path, islands: &Islands) -> Result<Tera> {
    let sources: Vec<(String, String)> = files_under(dir)?
        .into_iter()
        .filter(|(name, _)| name.ends_with(".html"))
        .map(|(name, bytes)| (name, String::from_utf8_lossy(&bytes).into_owned()))
        .collect();
    let mut tera = Tera::default();
    tera.set_escape_fn(escape_html);
    islands.register(&mut tera);
    tera.add_raw_templates(sources)
        .map_err(|e| Error::Template {
            name: dir.display().to_string(),
            message: tera_message(&e),
        })?;
    Ok(tera)
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
    collections: Collections,
    tera: Tera,
    base: Context,
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

    fn page_json_ld(&self, template: &str, view: &PageView) -> String {
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

    fn pages(&self, problems: &mut Vec<Diagnostic>, outputs: &mut Vec<Output>) -> Result<()> {
        let site = &self.content.site;
        for doc in &self.content.pages {
            let template = format!("{}.html", doc.meta.template);
            if !self.tera.get_template_names().any(|n| n == template) {
                problems.push(Diagnostic::new(
                    &doc.file,
                    2,
                    format!("template: there is no templates/{template}"),
                ));
                continue;
            }
            let route = page_route(&doc.slug);
            let m = &doc.meta;
            let mut page = self.page_view(&route, &m.title, &m.description);
            page.heading = m.heading.clone();
            page.subtitle = m.subtitle.as_deref().map(markdown::bind_orphans);
            page.prompt = m.prompt.as_deref().map(markdown::bind_orphans);
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
            page.json_ld = self.page_json_ld(&doc.meta.template, &page);
            let mut ctx = self.base.clone();
            ctx.insert("page", &page);
            ctx.insert("sections", &views::sections(&doc.sections));
            outputs.push(Output {
                path: route_file(&route),
                bytes: self.render(&template, &ctx)?,
            });
        }
        Ok(())
    }

    fn services(&self, outputs: &mut Vec<Output>) -> Result<()> {
        for doc in &self.content.services {
            let card = views::service_card(self.content, doc);
            let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
            page.image = Some(card.image.clone());
            self.preview_image(&mut page, &card.image);
            let trail = [
                ("Usługi", "/uslugi"),
                (card.page_title.as_str(), card.href.as_str()),
            ];
            page.json_ld = seo::script_json(&[seo::breadcrumbs(&self.content.site, &trail)]);
            let mut ctx = self.base.clone();
            ctx.insert("page", &page);
            ctx.insert("service", &card);
            ctx.insert("sections", &views::sections(&doc.sections));
            outputs.push(Output {
                path: route_file(&card.href),
                bytes: self.render("service.html", &ctx)?,
            });
        }
        Ok(())
    }

    fn articles(&self, outputs: &mut Vec<Output>) -> Result<()> {
        for doc in &self.content.articles {
            let card = views::article_card(self.content, doc);
            let mut page = self.page_view(&card.href, &doc.meta.title, &doc.meta.description);
            page.image = Some(card.image.clone());
            page.og_type = "article";
            self.preview_image(&mut page, &card.image);
            let site = &self.content.site;
            let trail = [("Blog", "/blog"), (card.title.as_str(), card.href.as_str())];
            page.json_ld = seo::script_json(&[
                seo::breadcrumbs(site, &trail),
                seo::blog_posting(site, &card),
            ]);
            let mut ctx = self.base.clone();
            ctx.insert("page", &page);
            ctx.insert("article", &card);
            ctx.insert("sections", &views::sections(&doc.sections));
            outputs.push(Output {
                path: route_file(&card.href),
                bytes: self.render("article.html", &ctx)?,
            });
        }
        Ok(())
    }

    fn not_found(&self, outputs: &mut Vec<Output>) -> Result<()> {
        let mut page = self.page_view("/404", "Nie znaleziono strony", "Ta strona nie istnieje.");
        page.noindex = true;
        let mut ctx = self.base.clone();
        ctx.insert("page", &page);
        ctx.insert("error_text", "404 Not Found");
        outputs.push(Output {
            path: "404.html".into(),
            bytes: self.render("404.html", &ctx)?,
        });
        Ok(())
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
    let tera = load_templates(templates_dir, islands)?;
    let (mut assets, mut outputs) = hashed_assets(&templates_dir.join("assets"))?;
    for name in islands.manifest.scripts.keys() {
        if let Some(url) = islands.manifest.script_url(name) {
            assets.insert(name.clone(), url);
        }
    }
    outputs.extend(islands.browser_outputs()?);
    copy_tree(&templates_dir.join("static"), "", &mut outputs)?;
    copy_tree(&content.root.join("images"), "images/", &mut outputs)?;
    let collections: Collections = views::collections(content);
    let mut base = Context::new();
    base.insert("site", &content.site);
    base.insert("assets", &assets);
    base.insert("c", &collections);
    base.insert("booking", &booking_props(content));
    base.insert("site_config_json", &site_script_config(content));
    base.insert("contact_form_default", &serde_json::json!({}));
    Ok((
        Renderer {
            content,
            collections,
            tera,
            base,
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
    let (renderer, mut outputs) = prepare(content, templates_dir, islands)?;
    let mut problems = Vec::new();
    renderer.pages(&mut problems, &mut outputs)?;
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    renderer.services(&mut outputs)?;
    renderer.articles(&mut outputs)?;
    renderer.not_found(&mut outputs)?;
    renderer.search_files(&mut outputs);
    let stats = islands.finish(&mut outputs)?;
    let hashes = crate::headers::inline_script_hashes(&outputs);
    let headers = crate::headers::security_headers(&content.site, &hashes);
    outputs.push(Output {
        path: crate::headers::FILE.into(),
        bytes: crate::headers::headers_file(&headers).into_bytes(),
    });
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((outputs, stats))
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
    let mut ctx = renderer.base.clone();
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
