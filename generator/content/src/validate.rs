//! Checks of the content. A document's own problems (house style, unknown facts) are
//! checked when it is read and cached with it; the checks that span files (duplicate slugs,
//! internal links, images, dates, booking links, the facts of `site.yaml`) run every build.

use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::dates::Moment;
use crate::error::Diagnostic;
use crate::facts;
use crate::fields::{text_fields, Focus, FOCUS_KEY};
use crate::images::{classify, ImageRef};
use crate::kind::DocId;
use crate::limits::NOTICE_MAX_CHARS;

use crate::model::{Content, Document, SiteConfig};
use crate::prices::Owner;
use crate::problem::WEEKDAYS;
use crate::problem::{
    BookingKey, DateField, DocumentProblem, FileProblem, OffPlatform, Problem, SiteProblem,
    StyleProblem,
};
use crate::qualifications::Member;
use crate::walk;

/// The problems a document has on its own: unknown facts and the house style.
pub fn document<M>(doc: &Document<M>, site: &SiteConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unknown in facts::unknown(&doc.body) {
        let line = doc.line_in_body(unknown.offset);
        let name = unknown.name;
        out.push(Diagnostic::new(
            &doc.file,
            line,
            DocumentProblem::UnknownFact { name },
        ));
    }
    for found in crate::style::check(&doc.body, site) {
        let line = doc.line_in_body(found.offset);
        out.push(Diagnostic::new(&doc.file, line, found.problem));
    }
    out
}

/// What the cross-file checks of one document are made against.
struct Context<'a> {
    content: &'a Content,
    routes: &'a HashSet<String>,
    images: &'a HashSet<String>,
    team: &'a [Member],
}

/// The team as the checks of claims need it.
fn team_members(content: &Content) -> Vec<Member> {
    content.team.iter().map(|t| Member::of(&t.meta)).collect()
}

impl Context<'_> {
    fn image_exists(&self, relative: &str) -> bool {
        self.images.contains(relative)
    }

    /// Why an internal address does not lead anywhere, if it does not.
    fn broken_link(&self, url: &str) -> Option<DocumentProblem> {
        let external = ["http://", "https://", "mailto:", "tel:", "#"];
        if external.iter().any(|p| url.starts_with(p)) {
            return None;
        }
        if !url.starts_with('/') || url.starts_with("//") {
            let url = url.to_string();
            return Some(DocumentProblem::LinkForm { url });
        }
        let path = url.split(['#', '?']).next().unwrap_or(url);
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            p => p,
        };
        let ok = match trimmed.strip_prefix("/images/") {
            Some(file) => self.image_exists(file),
            None => self.routes.contains(trimmed),
        };
        if ok {
            return None;
        }
        let url = url.to_string();
        Some(match self.content.panel_routes().contains(&trimmed) {
            true => DocumentProblem::LinkToPanel { url },
            false => DocumentProblem::LinkNowhere { url },
        })
    }

    fn check_image<M>(
        &self,
        doc: &Document<M>,
        field: &str,
        value: &str,
        out: &mut Vec<Diagnostic>,
    ) {
        if let ImageRef::Local(path) = classify(value) {
            if !self.image_exists(path) {
                let problem = DocumentProblem::ImageField {
                    field: field.to_string(),
                    value: value.to_string(),
                };
                out.push(Diagnostic::new(&doc.file, field_line(doc, field), problem));
            }
        }
    }

    /// The claims of `doc`'s text against the team's qualifications; `own`: the member
    /// whose profile `doc` is.
    fn check_claims<M>(&self, doc: &Document<M>, own: Option<&Member>, out: &mut Vec<Diagnostic>) {
        for (offset, problem) in
            crate::qualifications::unqualified_claims(&doc.body, self.team, own)
        {
            out.push(Diagnostic::new(
                &doc.file,
                doc.line_in_body(offset),
                problem,
            ));
        }
    }

    /// The `<title>` of `doc` ([`crate::titles`]) against the length search results show,
    /// at the line of the field it comes from.
    fn check_title<M>(
        &self,
        doc: &Document<M>,
        title: &str,
        seo_title: Option<&str>,
        out: &mut Vec<Diagnostic>,
    ) {
        let shown = crate::titles::title_tag(title, seo_title, &self.content.site.name);
        if let Some(chars) = crate::titles::too_long(&shown) {
            let field = if seo_title.is_some() {
                "seo_title"
            } else {
                "title"
            };
            let max = crate::titles::TITLE_MAX_CHARS;
            let problem = DocumentProblem::TitleTooLong { shown, chars, max };
            out.push(Diagnostic::new(&doc.file, field_line(doc, field), problem));
        }
    }

    fn check_links<M>(&self, doc: &Document<M>, out: &mut Vec<Diagnostic>) {
        for target in &doc.links {
            let problem = if target.is_image {
                match classify(&target.url) {
                    ImageRef::Local(p) if !self.image_exists(p) => {
                        Some(DocumentProblem::ImageNotFound {
                            url: target.url.clone(),
                        })
                    }
                    _ => None,
                }
            } else {
                self.broken_link(&target.url)
            };
            if let Some(problem) = problem {
                let line = doc.line_in_body(target.offset);
                out.push(Diagnostic::new(&doc.file, line, problem));
            }
        }
    }
}

fn field_line<M>(doc: &Document<M>, field: &str) -> usize {
    doc.field_lines.get(field).copied().unwrap_or(1)
}

/// What a load found changed, when its caller said which files changed: the documents are
/// the same ones as before (none came or went) and nothing beside them changed (no image,
/// no `site.yaml` or price list), so what depends on the set of documents alone (their
/// routes, for the links) need not be worked out again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delta {
    pub same_documents: bool,
}

/// Cross-file checks of earlier loads: a load re-checks only the documents that changed, or
/// every one when what they are checked against changed (routes, images, team, booking links).
#[derive(Default)]
pub struct Checks {
    /// The routes of documents that failed to load, as the context was made with them.
    failed_routes: Vec<String>,
    context: [u8; 32],
    routes: HashSet<String>,
    images: HashSet<String>,
    team: Vec<Member>,
    duplicates: Vec<Diagnostic>,
    /// The symbolic links under `content/` (never followed) and the names there that are no
    /// slugs: each a problem.
    links: Vec<Diagnostic>,
    documents: crate::maps::FastMap<DocId, ([u8; 32], Vec<Diagnostic>)>,
    /// The price problems of the documents' texts.
    price_texts: PriceTexts,
}

/// Two files of one kind with the same name (in different sub-folders) are one document.
fn duplicates(content: &Content) -> Vec<Diagnostic> {
    let mut first: HashMap<&DocId, &PathBuf> = HashMap::new();
    let ids = content
        .pages
        .iter()
        .map(|d| (&d.id, &d.file))
        .chain(content.services.iter().map(|d| (&d.id, &d.file)))
        .chain(content.articles.iter().map(|d| (&d.id, &d.file)))
        .chain(content.team.iter().map(|d| (&d.id, &d.file)));
    let mut out = Vec::new();
    for (id, file) in ids {
        if let Some(earlier) = first.insert(id, file) {
            // Report the file that sorts later, naming the one that sorts first.
            let (a, b) = if earlier <= file {
                (earlier, file)
            } else {
                (file, earlier)
            };
            let problem = DocumentProblem::DuplicateSlug {
                slug: id.slug.clone(),
                other: a.clone(),
            };
            out.push(Diagnostic::new(b, 1, problem));
            first.insert(id, a);
        }
    }
    out
}

/// A hash of everything a document's cross-file checks depend on besides the document.
fn context_key(content: &Content, failed_routes: &[String], images: &[String]) -> [u8; 32] {
    let mut h = Sha256::new();
    let ids = content
        .pages
        .iter()
        .map(|d| (&d.id, &d.file))
        .chain(content.services.iter().map(|d| (&d.id, &d.file)))
        .chain(content.articles.iter().map(|d| (&d.id, &d.file)))
        .chain(content.team.iter().map(|d| (&d.id, &d.file)));
    for (id, file) in ids {
        h.update(id.kind.folder().as_bytes());
        h.update(id.slug.as_bytes());
        h.update(file.as_os_str().as_encoded_bytes());
        h.update([0]);
    }
    for text in failed_routes.iter().chain(images) {
        h.update(text.as_bytes());
        h.update([1]);
    }
    for slug in content.site.booking.therapists.keys() {
        h.update(slug.as_bytes());
        h.update([2]);
    }
    // What a text's claims and title are measured against: the team's names and trainings,
    // the practice's name.
    for member in team_members(content) {
        h.update(member.name.as_bytes());
        h.update([3, u8::from(member.trainee)]);
    }
    h.update(content.site.name.as_bytes());
    h.finalize().into()
}

impl Checks {
    fn refresh(&mut self, content: &Content, failed_routes: &[String]) {
        let images: Vec<String> = walk::files(&content.root, &content.root.join("images"))
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.relative)
            .collect();
        let scan = crate::beneath::Root::new(&content.root)
            .scan(&content.root, crate::kind::allowed_name)
            .unwrap_or_default();
        let links = scan
            .links
            .into_iter()
            .map(|l| (l, FileProblem::SymbolicLink));
        let names = scan.refused.into_iter().map(|relative| {
            let name = relative.rsplit('/').next().unwrap_or(&relative).to_string();
            (relative, FileProblem::BadName { name })
        });
        self.links = links
            .chain(names)
            .map(|(l, p)| Diagnostic::new(&content.root.join(l), 1, p))
            .collect();
        let key = context_key(content, failed_routes, &images);
        self.failed_routes = failed_routes.to_vec();
        if key == self.context {
            return;
        }
        self.routes = content
            .routes()
            .into_iter()
            .chain(failed_routes.iter().cloned())
            .collect();
        self.images = images.into_iter().collect();
        self.team = team_members(content);
        self.duplicates = duplicates(content);
        self.documents.clear();
        self.context = key;
    }

    /// The problems of one document, checked again only if it changed.
    fn document<M>(
        &mut self,
        content: &Content,
        doc: &Document<M>,
        check: impl FnOnce(&Context<'_>, &mut Vec<Diagnostic>),
        out: &mut Vec<Diagnostic>,
    ) {
        if let Some((hash, problems)) = self.documents.get(&doc.id) {
            if *hash == doc.hash {
                out.extend(problems.iter().cloned());
                return;
            }
        }
        let context = Context {
            content,
            routes: &self.routes,
            images: &self.images,
            team: &self.team,
        };
        let mut problems = Vec::new();
        check(&context, &mut problems);
        context.check_links(doc, &mut problems);
        out.extend(problems.iter().cloned());
        self.documents.insert(doc.id.clone(), (doc.hash, problems));
    }
}

/// Each alias is a plain path that no route, no other alias and no file of the site has.
fn check_aliases(checks: &Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, (PathBuf, usize)> = HashMap::new();
    for alias in crate::aliases::aliases(content) {
        let problem = if let Some(problem) = crate::aliases::alias_problem(alias.from) {
            Some(problem)
        } else if checks.routes.contains(alias.from) {
            Some(DocumentProblem::AliasIsRoute {
                alias: alias.from.to_string(),
            })
        } else if let Some((file, line)) = seen.get(alias.from) {
            Some(DocumentProblem::AliasRepeated {
                alias: alias.from.to_string(),
                file: file.clone(),
                line: *line,
            })
        } else {
            seen.insert(alias.from, (alias.file.to_path_buf(), alias.line));
            None
        };
        if let Some(problem) = problem {
            out.push(Diagnostic::new(alias.file, alias.line, problem));
        }
    }
}

/// The visible texts of the front matter against the rules of [`crate::fields`].
fn check_texts<'a, M>(
    doc: &Document<M>,
    template: Option<&str>,
    text: impl Fn(&str) -> Option<&'a str>,
    out: &mut Vec<Diagnostic>,
) {
    for field in text_fields(doc.id.kind, template) {
        if let Err(problem) = field.check(text(field.key)) {
            out.push(Diagnostic::new(
                &doc.file,
                field_line(doc, field.key),
                problem,
            ));
        }
    }
}

/// The focal point of a document's picture, if it has one.
fn check_focus<M>(doc: &Document<M>, focus: Option<&str>, out: &mut Vec<Diagnostic>) {
    if let Some(Err(problem)) = focus.map(Focus::check) {
        out.push(Diagnostic::new(
            &doc.file,
            field_line(doc, FOCUS_KEY),
            problem,
        ));
    }
}

/// A legal text's dates (its `dated` and every date in figures in its body) written one way,
/// dd.mm.rrrr ([`crate::legal_dates`]).
fn check_legal_dates<M>(doc: &Document<M>, dated: &str, out: &mut Vec<Diagnostic>) {
    if !crate::legal_dates::is_legal_date(dated) {
        let problem = StyleProblem::LegalDate {
            date: dated.to_string(),
        };
        out.push(Diagnostic::new(
            &doc.file,
            field_line(doc, "dated"),
            problem,
        ));
    }
    for (offset, problem) in crate::legal_dates::other_forms(&doc.body) {
        out.push(Diagnostic::new(
            &doc.file,
            doc.line_in_body(offset),
            problem,
        ));
    }
}

fn check_documents(checks: &mut Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    for doc in &content.pages {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                if let Some(image) = &doc.meta.image {
                    c.check_image(doc.as_ref(), "image", image, p);
                }
                let meta = &doc.meta;
                check_texts(doc.as_ref(), Some(&meta.template), |k| meta.text(k), p);
                check_focus(doc.as_ref(), meta.image_focus.as_deref(), p);
                c.check_claims(doc.as_ref(), None, p);
                if meta.template != crate::model::PANEL_TEMPLATE {
                    c.check_title(doc.as_ref(), &meta.title, meta.seo_title.as_deref(), p);
                }
                if let Some(dated) = &meta.dated {
                    check_legal_dates(doc.as_ref(), dated, p);
                }
            },
            out,
        );
    }
    for doc in &content.services {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "image", &doc.meta.image, p);
                let meta = &doc.meta;
                check_texts(doc.as_ref(), None, |k| meta.text(k), p);
                check_focus(doc.as_ref(), meta.image_focus.as_deref(), p);
                c.check_claims(doc.as_ref(), None, p);
                c.check_title(doc.as_ref(), &meta.title, None, p);
            },
            out,
        );
    }
    for doc in &content.articles {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "image", &doc.meta.image, p);
                check_focus(doc.as_ref(), doc.meta.image_focus.as_deref(), p);
                c.check_claims(doc.as_ref(), None, p);
                // A draft's title is measured when it is published.
                if doc.meta.published {
                    c.check_title(doc.as_ref(), &doc.meta.title, None, p);
                }
                if let Some(therapist) = &doc.meta.therapist {
                    if !c.content.team.iter().any(|t| t.slug() == therapist) {
                        let problem = DocumentProblem::UnknownTherapist {
                            slug: therapist.clone(),
                        };
                        let line = field_line(doc.as_ref(), "therapist");
                        p.push(Diagnostic::new(&doc.file, line, problem));
                    }
                }
                if let Some(problem) = date_problem(DateField::Article, &doc.meta.date) {
                    p.push(Diagnostic::new(
                        &doc.file,
                        field_line(doc.as_ref(), "date"),
                        problem,
                    ));
                }
            },
            out,
        );
    }
    for doc in &content.team {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "photo", &doc.meta.photo, p);
                let meta = &doc.meta;
                check_texts(doc.as_ref(), None, |k| meta.text(k), p);
                check_focus(doc.as_ref(), meta.image_focus.as_deref(), p);
                let own = Member::of(meta);
                c.check_claims(doc.as_ref(), Some(&own), p);
            },
            out,
        );
    }
}

/// The text of `site.yaml` or the price list (files at the top of `content/`), read beneath
/// their folder, never through a link; empty when it cannot be read.
fn read_content(file: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new("."));
    crate::beneath::Root::new(dir)
        .read_to_string(file)
        .unwrap_or_default()
}

/// 1-based line of the first line of `file` that starts with `key:` (after indentation).
fn yaml_line(file: &Path, key: &str) -> usize {
    read_content(file)
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{key}:")))
        .map_or(1, |i| i + 1)
}

/// The `site.yaml` key whose line a problem of the facts is reported at.
fn site_key(problem: &Problem) -> &'static str {
    match problem {
        Problem::Site(p) => p.key(),
        _ => "notice",
    }
}

fn check_site_facts(content: &Content, images: &HashSet<String>, out: &mut Vec<Diagnostic>) {
    let site = &content.site;
    let site_file = content.root.join("site.yaml");
    let mut problems: Vec<(&str, Problem)> = Vec::new();
    let mut push = |p: SiteProblem| problems.push((p.key(), p.into()));
    for slug in &site.online_services {
        if !content.services.iter().any(|s| s.slug() == slug) {
            push(SiteProblem::OnlineService { slug: slug.clone() });
        }
    }
    if let Some(slug) = &site.default_author {
        if !content.team.iter().any(|t| t.slug() == slug) {
            push(SiteProblem::DefaultAuthor { slug: slug.clone() });
        }
    }
    for unknown in facts::unknown(&site.contact_clause) {
        push(SiteProblem::UnknownClauseFact { name: unknown.name });
    }
    if site.cookies.is_empty() {
        push(SiteProblem::NoCookies);
    }
    let fallback = &site.fallback_images;
    let served_here = |f: &String| matches!(classify(f), ImageRef::Local(p) if images.contains(p));
    if fallback.len() != 4 || !fallback.iter().all(served_here) {
        push(SiteProblem::FallbackImages);
    }
    if let Err(problem) = crate::security_txt::contact(site) {
        // Without a security contact of its own, the practice's e-mail is the one named.
        let key = match site.security_contact {
            Some(_) => "security_contact",
            None => "email",
        };
        problems.push((key, problem.into()));
    }
    problems.extend(
        contact_fact_problems(site)
            .into_iter()
            .map(|p| (site_key(&p), p)),
    );
    for (key, problem) in problems {
        out.push(Diagnostic::new(
            &site_file,
            yaml_line(&site_file, key),
            problem,
        ));
    }
    let text = read_content(&site_file);
    let booking = crate::booking::problems(content);
    for p in booking
        .into_iter()
        .chain(crate::booking::provider_problems(site))
    {
        let line = (1..=p.path.len())
            .rev()
            .find_map(|n| crate::yaml::line_of(&text, &p.path[..n]))
            .unwrap_or(1);
        out.push(Diagnostic::new(&site_file, line, p.problem));
    }
}

/// The facts of `site.yaml` still marked as example data, each at its line: warnings that
/// do not stop a build, so that a site in development builds, but say plainly what is not
/// yet the practice's own before it goes live.
pub fn example_data(content: &Content) -> Vec<Diagnostic> {
    let site_file = content.root.join("site.yaml");
    content
        .site
        .example_data
        .iter()
        .map(|fact| {
            let problem = SiteProblem::ExampleData {
                key: fact.key(),
                label: fact.label(),
            };
            Diagnostic::new(&site_file, yaml_line(&site_file, fact.key()), problem)
        })
        .collect()
}

fn is_clock(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 5
        && b[2] == b':'
        && text[..2]
            .parse::<u8>()
            .is_ok_and(|h| h < 24 && b[0].is_ascii_digit())
        && text[3..]
            .parse::<u8>()
            .is_ok_and(|m| m < 60 && b[3].is_ascii_digit())
}

/// The problems of the facts the panel lets the practice change — phone, e-mail, address,
/// opening hours, booking links and the notice — for `make check` and the panel alike.
pub fn contact_fact_problems(site: &SiteConfig) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    let digits = site.phone.chars().filter(char::is_ascii_digit).count();
    let phone_chars = site
        .phone
        .chars()
        .all(|c| c.is_ascii_digit() || " +-()".contains(c));
    if !phone_chars || !(9..=15).contains(&digits) {
        out.push(
            SiteProblem::Phone {
                value: site.phone.clone(),
            }
            .into(),
        );
    }
    if !crate::contact::is_email(&site.email) {
        out.push(
            SiteProblem::Email {
                value: site.email.clone(),
            }
            .into(),
        );
    }
    if let Some(value) = &site.data_protection_contact {
        if !crate::contact::is_email(value) {
            let value = value.clone();
            out.push(SiteProblem::DataProtectionContact { value }.into());
        }
    }
    let rules = &crate::identity::RULES;
    if let Some(reason) = rules.nip.problem(&site.nip) {
        let value = site.nip.clone();
        out.push(SiteProblem::Nip { value, reason }.into());
    }
    if let Some(reason) = rules.regon.problem(&site.regon) {
        let value = site.regon.clone();
        out.push(SiteProblem::Regon { value, reason }.into());
    }
    let a = &site.address;
    let postal = a.postal_code.len() == 6
        && a.postal_code.char_indices().all(|(i, c)| match i {
            2 => c == '-',
            _ => c.is_ascii_digit(),
        });
    if a.country == "PL" && !postal {
        out.push(
            SiteProblem::PostalCode {
                value: a.postal_code.clone(),
            }
            .into(),
        );
    }
    if a.street.trim().is_empty() || a.city.trim().is_empty() {
        out.push(SiteProblem::AddressEmpty.into());
    }
    if site.opening_hours.is_empty() {
        out.push(SiteProblem::NoOpeningHours.into());
    }
    for (n, hours) in site.opening_hours.iter().enumerate() {
        let row = n + 1;
        if hours.days.is_empty() || hours.days.iter().any(|d| !WEEKDAYS.contains(&d.as_str())) {
            let days = hours.days.clone();
            out.push(SiteProblem::OpeningDays { row, days }.into());
        }
        if !is_clock(&hours.opens) || !is_clock(&hours.closes) || hours.opens >= hours.closes {
            let (opens, closes) = (hours.opens.clone(), hours.closes.clone());
            out.push(SiteProblem::OpeningTimes { row, opens, closes }.into());
        }
    }
    if let Some(g) = site.geo {
        if !(-90.0..=90.0).contains(&g.latitude) || !(-180.0..=180.0).contains(&g.longitude) {
            let (latitude, longitude) = (g.latitude.to_string(), g.longitude.to_string());
            out.push(
                SiteProblem::Geo {
                    latitude,
                    longitude,
                }
                .into(),
            );
        }
    }
    for (n, closure) in site.closures.iter().enumerate() {
        let from = crate::dates::Date::parse(&closure.from);
        let until = crate::dates::Date::parse(&closure.until);
        if !matches!((from, until), (Ok(f), Ok(u)) if f <= u) {
            let (from, until) = (closure.from.clone(), closure.until.clone());
            out.push(
                SiteProblem::Closure {
                    row: n + 1,
                    from,
                    until,
                }
                .into(),
            );
        }
    }
    out.extend(booking_page_problems(&site.booking));
    out.extend(footer_problems(site));
    if let Some(notice) = &site.notice {
        out.extend(notice_problems(notice));
    }
    out
}

/// The problems of what the footer says of the practice: its description and its profiles.
fn footer_problems(site: &SiteConfig) -> Vec<Problem> {
    use crate::limits::{SITE_DESCRIPTION_MAX, SOCIAL_MAX};
    let mut out: Vec<Problem> = Vec::new();
    if !crate::footer::description_ok(&site.description) {
        out.push(
            SiteProblem::Description {
                max: SITE_DESCRIPTION_MAX,
            }
            .into(),
        );
    }
    if site.social.len() > SOCIAL_MAX {
        out.push(SiteProblem::TooManySocial { max: SOCIAL_MAX }.into());
    }
    for (n, link) in site.social.iter().enumerate() {
        if crate::footer::social_problem(&link.name, &link.url).is_some() {
            out.push(
                SiteProblem::SocialLink {
                    row: n + 1,
                    name: link.name.clone(),
                    url: link.url.clone(),
                }
                .into(),
            );
        }
    }
    out
}

/// The problems of the notice: its text, its dates and their order.
fn notice_problems(notice: &crate::model::Notice) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    let text = notice.text.trim();
    if text.is_empty() || text.chars().count() > NOTICE_MAX_CHARS || text.contains('\n') {
        out.push(SiteProblem::NoticeText.into());
    }
    for (field, moment) in [
        (DateField::NoticeFrom, &notice.from),
        (DateField::NoticeUntil, &notice.until),
    ] {
        out.extend(date_problem(field, moment).map(Problem::from));
    }
    if let (Some(from), Some(until)) = (notice.from.time(), notice.until.time()) {
        if until.end_unix() <= from.unix() {
            out.push(
                SiteProblem::NoticeOrder {
                    from: notice.from.text().to_string(),
                    until: notice.until.text().to_string(),
                }
                .into(),
            );
        }
    }
    out
}

/// Each booking page is a full `https://` address on its platform: the practice's on Booksy
/// (the dialog of a service booked with the practice offers the Booksy button), a
/// therapist's on the doctor-listing platform when the model gives a `doctor_id` for its
/// widget, on Booksy otherwise.
fn booking_page_problems(booking: &crate::model::Booking) -> Vec<Problem> {
    let listing = &booking.doctor_listing;
    let booksy = &booking.booksy_host;
    let mut pages = vec![(
        BookingKey::Practice,
        None,
        &booking.practice,
        booking.on_booksy(&booking.practice),
        "Booksy",
        booksy.as_str(),
    )];
    for (slug, t) in &booking.therapists {
        let (on_platform, name, host) = match &t.doctor_id {
            Some(_) => (
                booking.on_doctor_listing(&t.url),
                listing.name(),
                listing.host(),
            ),
            None => (booking.on_booksy(&t.url), "Booksy", booksy.as_str()),
        };
        pages.push((
            BookingKey::Therapist,
            Some(slug.clone()),
            &t.url,
            on_platform,
            name,
            host,
        ));
    }
    let mut out = Vec::new();
    for (key, slug, url, on_platform, platform, host) in pages {
        let url = url.clone();
        if !is_https(&url) {
            out.push(SiteProblem::BookingLink { key, slug, url }.into());
        } else if !on_platform {
            let (platform, host) = (platform.to_string(), host.to_string());
            let page = OffPlatform {
                key,
                slug,
                url,
                platform,
                host,
            };
            out.push(SiteProblem::BookingPlatform(Box::new(page)).into());
        }
    }
    out
}

fn is_https(url: &str) -> bool {
    url.starts_with("https://")
        && url.len() > "https://".len()
        && !url.contains(char::is_whitespace)
}

/// A date that is no date (`YYYY-MM-DD`, or with `HH:MM[:SS]`, Warsaw time): the rule of
/// `make check` and of the panel's settings.
pub fn date_problem(field: DateField, moment: &Moment) -> Option<DocumentProblem> {
    moment.time().is_none().then(|| DocumentProblem::Date {
        field,
        value: moment.text().to_string(),
    })
}

pub use crate::style::{FOOTER_TEMPLATE, MINORS_ROUTE};

/// The minors' protection standards (STYLE.md): the footer template — `footer`, the source
/// of `footer_file`, `None` when there is none — links [`MINORS_ROUTE`], and that page exists.
pub fn minors_standards(
    content: &Content,
    footer_file: &Path,
    footer: Option<&str>,
) -> Vec<Diagnostic> {
    let has_page = content
        .pages
        .iter()
        .any(|p| p.route.as_deref() == Some(MINORS_ROUTE));
    crate::style::minors_standards(has_page, footer)
        .into_iter()
        .map(|(line, problem)| Diagnostic::new(footer_file, line, problem))
        .collect()
}

/// A shown image needs words for those who cannot see it (its alt text): the rule of `make
/// check`, where a template shows the image, and of the panel's settings. `field` is the
/// alt text's field.
pub fn alt_problem(field: &str, image: &str, alt: &str) -> Option<DocumentProblem> {
    (!image.trim().is_empty() && alt.trim().is_empty()).then(|| DocumentProblem::NoAlt {
        field: field.to_string(),
        image: image.trim().to_string(),
    })
}

/// Links of public pages (and the price list) to articles that are not public yet.
pub fn links_to_hidden(content: &Content, hidden: &BTreeSet<String>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if hidden.is_empty() {
        return out;
    }
    let target = |url: &str| {
        let path = url.split(['#', '?']).next().unwrap_or(url);
        let path = path.trim_end_matches('/');
        hidden.contains(path).then(|| path.to_string())
    };
    let mut check = |file: &Path, line: usize, url: &str| {
        if let Some(route) = target(url) {
            let url = url.to_string();
            out.push(Diagnostic::new(
                file,
                line,
                DocumentProblem::LinkToHidden { url, route },
            ));
        }
    };
    macro_rules! docs {
        ($list:expr) => {
            for doc in $list {
                for t in doc.links.iter().filter(|t| !t.is_image) {
                    check(&doc.file, doc.line_in_body(t.offset), &t.url);
                }
            }
        };
    }
    docs!(&content.pages);
    docs!(&content.services);
    docs!(&content.articles);
    docs!(&content.team);
    for item in &content.prices.items {
        check(&content.prices_file, 1, &item.link);
    }
    out
}

/// The prices one text names: each `{{ cena.<id> }}` a row of the list, and no literal amount
/// that one row costs (`warnings`: only the amounts several rows cost, which are warnings).
fn price_texts(
    content: &Content,
    text: &str,
    line: impl Fn(usize) -> usize,
    warnings: bool,
) -> Vec<(usize, DocumentProblem)> {
    let prices = &content.prices;
    let mut out = Vec::new();
    if !warnings {
        for reference in crate::prices::references(text) {
            if !prices.items.iter().any(|i| i.id == reference.id) {
                let known = prices.items.iter().map(|i| i.id.clone()).collect();
                let problem = DocumentProblem::UnknownPrice {
                    id: reference.id,
                    known,
                };
                out.push((line(reference.offset), problem));
            }
        }
    }
    for amount in crate::prices::amounts(text) {
        let problem = match crate::prices::owner(amount.amount, prices) {
            Some(Owner::One(row)) if !warnings => DocumentProblem::LiteralPrice {
                amount: amount.amount,
                row: row.name.clone(),
                placeholder: crate::prices::placeholder(row),
            },
            Some(Owner::Several(rows)) if warnings => DocumentProblem::AmbiguousPrice {
                amount: amount.amount,
                rows: rows.iter().map(|r| r.name.clone()).collect(),
            },
            _ => continue,
        };
        out.push((line(amount.offset), problem));
    }
    out
}

/// The price problems of each document's texts found by an earlier build, kept by the
/// document's hash and file while the price list is the same: a build scans again only the
/// texts that changed (a regular expression over every article was most of a one-article
/// edit's time at 10,000 articles).
#[derive(Default)]
pub struct PriceTexts {
    prices: [u8; 32],
    /// In the order the last check met the documents: the next check meets them in the same
    /// order, and finds each where it was without a lookup.
    documents: Vec<DocumentPrices>,
}

struct DocumentPrices {
    id: DocId,
    hash: [u8; 32],
    file: PathBuf,
    problems: Vec<Diagnostic>,
}

/// The price problems of one document's body and `description` ([`price_texts`]).
fn document_prices<M>(
    content: &Content,
    doc: &Document<M>,
    description: &str,
    warnings: bool,
) -> DocumentPrices {
    let mut problems = Vec::new();
    let at = |offset| doc.line_in_body(offset);
    for (line, problem) in price_texts(content, &doc.body, at, warnings) {
        problems.push(Diagnostic::new(&doc.file, line, problem));
    }
    let line = field_line(doc, "description");
    for (_, problem) in price_texts(content, description, |_| line, warnings) {
        problems.push(Diagnostic::new(&doc.file, line, problem));
    }
    DocumentPrices {
        id: doc.id.clone(),
        hash: doc.hash,
        file: doc.file.clone(),
        problems,
    }
}

/// The prices of every document's body and description ([`price_texts`]), from `cache`
/// where a document and the price list are unchanged.
fn check_price_texts(content: &Content, warnings: bool, cache: &mut PriceTexts) -> Vec<Diagnostic> {
    let prices: [u8; 32] =
        Sha256::digest(serde_json::to_vec(&content.prices).unwrap_or_default()).into();
    if prices != cache.prices {
        cache.documents.clear();
        cache.prices = prices;
    }
    if let Some(out) = recheck_in_place(content, warnings, cache) {
        return out;
    }
    let mut old: Vec<Option<DocumentPrices>> = std::mem::take(&mut cache.documents)
        .into_iter()
        .map(Some)
        .collect();
    // Where each earlier document is, made only when one is not where the order says.
    let mut index: Option<crate::maps::FastMap<DocId, usize>> = None;
    let mut next = 0;
    let mut kept = Vec::with_capacity(old.len());
    let mut out = Vec::new();
    macro_rules! docs {
        ($list:expr, $doc:ident => $description:expr) => {
            for $doc in $list {
                let in_order = old
                    .get(next)
                    .and_then(Option::as_ref)
                    .is_some_and(|e| e.id == $doc.id);
                let at = match in_order {
                    true => Some(next),
                    false => index
                        .get_or_insert_with(|| {
                            let ids = old.iter().enumerate();
                            ids.filter_map(|(i, e)| Some((e.as_ref()?.id.clone(), i)))
                                .collect()
                        })
                        .get(&$doc.id)
                        .copied(),
                };
                if let Some(i) = at {
                    next = i + 1;
                }
                let entry = match at.and_then(|i| old[i].take()) {
                    Some(e)
                        if e.hash == $doc.hash && e.file.as_os_str() == $doc.file.as_os_str() =>
                    {
                        e
                    }
                    _ => document_prices(content, $doc.as_ref(), $description, warnings),
                };
                out.extend(entry.problems.iter().cloned());
                kept.push(entry);
            }
        };
    }
    docs!(&content.pages, d => &d.meta.description);
    docs!(&content.services, d => &d.meta.description);
    docs!(&content.articles, d => &d.meta.description);
    docs!(&content.team, d => "");
    cache.documents = kept;
    out
}

/// [`check_price_texts`] when the documents are those of the last check in the same order
/// (every save but one that adds, removes or renames a document): each entry stays where it
/// is and only a document whose text changed is checked again. `None` when one is not where
/// it was; the entries rechecked by then are right for their documents, and kept.
fn recheck_in_place(
    content: &Content,
    warnings: bool,
    cache: &mut PriceTexts,
) -> Option<Vec<Diagnostic>> {
    let count =
        content.pages.len() + content.services.len() + content.articles.len() + content.team.len();
    if cache.documents.len() != count {
        return None;
    }
    let mut entries = cache.documents.iter_mut();
    macro_rules! docs {
        ($list:expr, $doc:ident => $description:expr) => {
            for $doc in $list {
                let entry = entries.next()?;
                if entry.id != $doc.id {
                    return None;
                }
                if entry.hash != $doc.hash || entry.file.as_os_str() != $doc.file.as_os_str() {
                    *entry = document_prices(content, $doc.as_ref(), $description, warnings);
                }
            }
        };
    }
    docs!(&content.pages, d => &d.meta.description);
    docs!(&content.services, d => &d.meta.description);
    docs!(&content.articles, d => &d.meta.description);
    docs!(&content.team, d => "");
    let problems = cache
        .documents
        .iter()
        .flat_map(|e| e.problems.iter().cloned());
    Some(problems.collect())
}

/// The literal amounts that several rows of the price list cost: warnings that do not stop a
/// build, but say which texts would keep an old price. `cache` keeps them from one build to
/// the next.
pub fn price_warnings(content: &Content, cache: &mut PriceTexts) -> Vec<Diagnostic> {
    check_price_texts(content, true, cache)
}

/// The site's own words against their table, each problem at its key's line.
fn check_words(content: &Content, out: &mut Vec<Diagnostic>) {
    for (key, problem) in crate::wording::check(&content.words, &content.site) {
        let line = yaml_line(&content.words_file, &key);
        out.push(Diagnostic::new(&content.words_file, line, problem));
    }
}

/// Each row has an id texts can name it by: lowercase letters, digits and '-', unique.
fn check_price_ids(content: &Content, out: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for item in &content.prices.items {
        let id = item.id.as_str();
        let well_formed = !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !well_formed || !seen.insert(id) {
            let line = yaml_line_of_value(&content.prices_file, "id", id);
            let problem = DocumentProblem::PriceId {
                id: id.to_string(),
                repeated: well_formed,
            };
            out.push(Diagnostic::new(&content.prices_file, line, problem));
        }
    }
}

/// The 1-based line of `key: "value"` in a YAML file (1 when it cannot be read).
fn yaml_line_of_value(file: &Path, key: &str, value: &str) -> usize {
    read_content(file)
        .lines()
        .position(|l| {
            let l = l.trim().trim_start_matches("- ");
            l.strip_prefix(key)
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|rest| rest.trim().trim_matches('"') == value)
        })
        .map_or(1, |i| i + 1)
}

fn check_prices(checks: &Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    let context = Context {
        content,
        routes: &checks.routes,
        images: &checks.images,
        team: &checks.team,
    };
    let mut prices_text: Option<String> = None;
    for item in &content.prices.items {
        if let Some(problem) = context.broken_link(&item.link) {
            let text = prices_text.get_or_insert_with(|| read_content(&content.prices_file));
            let line = text
                .lines()
                .position(|l| {
                    let l = l.trim().trim_start_matches("- ");
                    l.starts_with("link:") && l.contains(item.link.as_str())
                })
                .map_or(1, |i| i + 1);
            out.push(Diagnostic::new(&content.prices_file, line, problem));
        }
    }
}

/// Every cross-file problem of the loaded content; `failed_routes` are documents that exist
/// but failed to load, so links to them are not reported a second time.
pub fn validate(
    content: &Content,
    failed_routes: &[String],
    checks: &mut Checks,
    delta: Delta,
) -> Vec<Diagnostic> {
    let same = delta.same_documents && checks.failed_routes == failed_routes;
    if !same {
        checks.refresh(content, failed_routes);
    }
    let mut out = checks.duplicates.clone();
    out.extend(checks.links.iter().cloned());
    check_documents(checks, content, &mut out);
    check_aliases(checks, content, &mut out);
    check_prices(checks, content, &mut out);
    check_price_ids(content, &mut out);
    check_words(content, &mut out);
    out.extend(check_price_texts(content, false, &mut checks.price_texts));
    check_site_facts(content, &checks.images, &mut out);
    out
}

pub use crate::linking::orphans;
