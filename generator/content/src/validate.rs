//! Checks of the content. A document's own problems (house style, unknown facts) are
//! checked when it is read and cached with it; the checks that span files (duplicate slugs,
//! internal links, images, dates, booking links, the facts of `site.yaml`) run every build.

use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::dates::LocalTime;
use crate::error::Diagnostic;
use crate::facts;
use crate::images::{classify, ImageRef};
use crate::kind::DocId;
use crate::model::{Content, Document, SiteConfig};
use crate::walk;

/// The problems a document has on its own: unknown facts and the house style.
pub fn document<M>(doc: &Document<M>, site: &SiteConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unknown in facts::unknown(&doc.body) {
        let message = format!(
            "'{{{{ {} }}}}' is not a fact of site.yaml; known: {}",
            unknown.name,
            facts::NAMES.join(", ")
        );
        out.push(Diagnostic::new(
            &doc.file,
            doc.line_in_body(unknown.offset),
            message,
        ));
    }
    for p in crate::style::check(&doc.body, site) {
        out.push(Diagnostic::new(
            &doc.file,
            doc.line_in_body(p.offset),
            p.message,
        ));
    }
    out
}

/// What the cross-file checks of one document are made against.
struct Context<'a> {
    content: &'a Content,
    routes: &'a HashSet<String>,
    images: &'a HashSet<String>,
}

impl Context<'_> {
    fn image_exists(&self, relative: &str) -> bool {
        self.images.contains(relative)
    }

    /// Why an internal address does not lead anywhere, if it does not.
    fn broken_link(&self, url: &str) -> Option<String> {
        let external = ["http://", "https://", "mailto:", "tel:", "#"];
        if external.iter().any(|p| url.starts_with(p)) {
            return None;
        }
        if !url.starts_with('/') || url.starts_with("//") {
            return Some(format!(
                "the link '{url}' must be a full address or start with '/'"
            ));
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
        (!ok).then(|| format!("the link '{url}' leads to no page of this site"))
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
                let message = format!(
                    "{field} '{value}' is neither a full address, a 'photo-…' id nor a file under content/images/"
                );
                out.push(Diagnostic::new(&doc.file, field_line(doc, field), message));
            }
        }
    }

    fn check_links<M>(&self, doc: &Document<M>, out: &mut Vec<Diagnostic>) {
        for target in &doc.links {
            let problem = if target.is_image {
                match classify(&target.url) {
                    ImageRef::Local(p) if !self.image_exists(p) => Some(format!(
                        "the image '{}' is not a file under content/images/",
                        target.url
                    )),
                    _ => None,
                }
            } else {
                self.broken_link(&target.url)
            };
            if let Some(message) = problem {
                out.push(Diagnostic::new(
                    &doc.file,
                    doc.line_in_body(target.offset),
                    message,
                ));
            }
        }
    }
}

fn field_line<M>(doc: &Document<M>, field: &str) -> usize {
    doc.field_lines.get(field).copied().unwrap_or(1)
}

/// Cross-file checks of earlier loads: a load re-checks only the documents that changed, or
/// every one when what they are checked against changed (routes, images, team, booking links).
#[derive(Default)]
pub struct Checks {
    context: [u8; 32],
    routes: HashSet<String>,
    images: HashSet<String>,
    duplicates: Vec<Diagnostic>,
    documents: HashMap<DocId, ([u8; 32], Vec<Diagnostic>)>,
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
            let message = format!(
                "duplicate slug '{}': {} defines it too",
                id.slug,
                a.display()
            );
            out.push(Diagnostic::new(b, 1, message));
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
    h.finalize().into()
}

impl Checks {
    fn refresh(&mut self, content: &Content, failed_routes: &[String]) {
        let images: Vec<String> = walk::files(&content.root.join("images"))
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.relative)
            .collect();
        let key = context_key(content, failed_routes, &images);
        if key == self.context {
            return;
        }
        self.routes = content
            .routes()
            .into_iter()
            .chain(failed_routes.iter().cloned())
            .collect();
        self.images = images.into_iter().collect();
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
            Some(format!(
                "alias '{}' is the address of an existing page",
                alias.from
            ))
        } else if let Some((file, line)) = seen.get(alias.from) {
            Some(format!(
                "alias '{}' is already an alias in {}:{line}",
                alias.from,
                file.display()
            ))
        } else {
            seen.insert(alias.from, (alias.file.to_path_buf(), alias.line));
            None
        };
        if let Some(message) = problem {
            out.push(Diagnostic::new(alias.file, alias.line, message));
        }
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
            },
            out,
        );
    }
    for doc in &content.services {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| c.check_image(doc.as_ref(), "image", &doc.meta.image, p),
            out,
        );
    }
    for doc in &content.articles {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "image", &doc.meta.image, p);
                if let Some(therapist) = &doc.meta.therapist {
                    if !c.content.team.iter().any(|t| t.slug() == therapist) {
                        let message =
                            format!("therapist '{therapist}' is not a file under content/team/");
                        p.push(Diagnostic::new(
                            &doc.file,
                            field_line(doc.as_ref(), "therapist"),
                            message,
                        ));
                    }
                }
                if let Err(message) = LocalTime::parse(&doc.meta.date) {
                    p.push(Diagnostic::new(
                        &doc.file,
                        field_line(doc.as_ref(), "date"),
                        format!("date: {message}"),
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
                if !c.content.site.booking.therapists.contains_key(doc.slug()) {
                    let message = format!(
                        "site.yaml has no booking page for '{}' under booking.therapists",
                        doc.slug()
                    );
                    p.push(Diagnostic::new(
                        &doc.file,
                        field_line(doc.as_ref(), "name"),
                        message,
                    ));
                }
            },
            out,
        );
    }
}

/// 1-based line of the first line of `file` that starts with `key:` (after indentation).
fn yaml_line(file: &Path, key: &str) -> usize {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{key}:")))
        .map_or(1, |i| i + 1)
}

fn check_site_facts(content: &Content, out: &mut Vec<Diagnostic>) {
    let site = &content.site;
    let site_file = content.root.join("site.yaml");
    let mut problems = Vec::new();
    if !crate::style::valid_nip(&site.nip) {
        problems.push((
            "nip",
            format!(
                "nip '{}' is not a valid NIP (10 digits with a check digit)",
                site.nip
            ),
        ));
    }
    if !crate::style::valid_regon(&site.regon) {
        problems.push((
            "regon",
            format!(
                "regon '{}' is not a valid REGON (9 digits with a check digit)",
                site.regon
            ),
        ));
    }
    for slug in &site.online_services {
        if !content.services.iter().any(|s| s.slug() == slug) {
            problems.push((
                "online_services",
                format!("online_services: '{slug}' is not a file under content/services/"),
            ));
        }
    }
    for unknown in facts::unknown(&site.contact_clause) {
        problems.push((
            "contact_clause",
            format!("contact_clause: '{{{{ {} }}}}' is not a fact", unknown.name),
        ));
    }
    if site.cookies.is_empty() {
        problems.push((
            "cookies",
            "cookies: list every cookie the site sets (the privacy policy shows them)".to_string(),
        ));
    }
    let fallback = &site.fallback_images;
    if fallback.len() != 4
        || fallback
            .iter()
            .any(|f| matches!(classify(f), ImageRef::Local(_) | ImageRef::Missing))
    {
        let message = "fallback_images must list exactly four 'photo-…' ids or full addresses";
        problems.push(("fallback_images", message.to_string()));
    }
    problems.extend(
        contact_fact_problems(site)
            .into_iter()
            .map(|p| (p.key, p.english)),
    );
    if let Err(message) = crate::security_txt::contact(site) {
        let key = match site.security_contact {
            Some(_) => "security_contact",
            None => "email",
        };
        problems.push((key, message));
    }
    for (key, message) in problems {
        out.push(Diagnostic::new(
            &site_file,
            yaml_line(&site_file, key),
            message,
        ));
    }
    let text = std::fs::read_to_string(&site_file).unwrap_or_default();
    for p in crate::booking::problems(content) {
        let line = (1..=p.path.len())
            .rev()
            .find_map(|n| crate::yaml::line_of(&text, &p.path[..n]))
            .unwrap_or(1);
        out.push(Diagnostic::new(&site_file, line, p.message));
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
            let message = format!(
                "{} is example data, not the practice's: replace it with the entry of the practice's CEIDG record and take it off example_data before going live",
                fact.key()
            );
            Diagnostic::new(&site_file, yaml_line(&site_file, fact.key()), message)
        })
        .collect()
}

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

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

/// A problem of the facts the panel edits, in English for `make check` and in Polish for
/// the panel: one rule, two readers.
pub struct FactProblem {
    /// The `site.yaml` key whose line is reported.
    pub key: &'static str,
    pub english: String,
    pub polish: String,
}

fn problem(key: &'static str, english: String, polish: String) -> FactProblem {
    FactProblem {
        key,
        english,
        polish,
    }
}

/// The facts the panel lets the practice change: phone, e-mail, address, opening hours,
/// booking links and the notice.
pub fn contact_fact_problems(site: &SiteConfig) -> Vec<FactProblem> {
    let mut out = Vec::new();
    let digits = site.phone.chars().filter(char::is_ascii_digit).count();
    let phone_chars = site
        .phone
        .chars()
        .all(|c| c.is_ascii_digit() || " +-()".contains(c));
    if !phone_chars || !(9..=15).contains(&digits) {
        out.push(problem(
            "phone",
            format!(
                "phone '{}' is not a phone number (9 to 15 digits, spaces, '+', '-', brackets)",
                site.phone
            ),
            format!(
                "Telefon „{}” nie jest numerem telefonu: wpisz od 9 do 15 cyfr (mogą być spacje, „+”, „-” i nawiasy).",
                site.phone
            ),
        ));
    }
    let email_ok = site.email.split_once('@').is_some_and(|(user, host)| {
        !user.is_empty()
            && host.contains('.')
            && !host.starts_with('.')
            && !host.ends_with('.')
            && !site.email.chars().any(|c| c.is_whitespace() || c == ',')
            && !host.contains('@')
    });
    if !email_ok {
        out.push(problem(
            "email",
            format!("email '{}' is not an e-mail address", site.email),
            format!("E-mail „{}” nie jest adresem e-mail.", site.email),
        ));
    }
    let a = &site.address;
    let postal = a.postal_code.len() == 6
        && a.postal_code.char_indices().all(|(i, c)| match i {
            2 => c == '-',
            _ => c.is_ascii_digit(),
        });
    if a.country == "PL" && !postal {
        out.push(problem(
            "postal_code",
            format!(
                "postal_code '{}' is not a Polish postal code (NN-NNN)",
                a.postal_code
            ),
            format!("Kod pocztowy „{}” nie ma postaci NN-NNN.", a.postal_code),
        ));
    }
    if a.street.trim().is_empty() || a.city.trim().is_empty() {
        out.push(problem(
            "street",
            "address: street and city must not be empty".to_string(),
            "Adres: ulica i miejscowość nie mogą być puste.".to_string(),
        ));
    }
    if site.opening_hours.is_empty() {
        out.push(problem(
            "opening_hours",
            "opening_hours: give at least one row".to_string(),
            "Godziny pracy: podaj co najmniej jeden wiersz.".to_string(),
        ));
    }
    for (n, hours) in site.opening_hours.iter().enumerate() {
        let n = n + 1;
        if hours.days.is_empty() || hours.days.iter().any(|d| !WEEKDAYS.contains(&d.as_str())) {
            out.push(problem(
                "opening_hours",
                format!(
                    "opening_hours: days must be English day names ({}), got {:?}",
                    WEEKDAYS.join(", "),
                    hours.days
                ),
                format!("Godziny pracy, wiersz {n}: wybierz co najmniej jeden dzień tygodnia."),
            ));
        }
        if !is_clock(&hours.opens) || !is_clock(&hours.closes) || hours.opens >= hours.closes {
            out.push(problem(
                "opening_hours",
                format!(
                    "opening_hours: '{}'–'{}' is not an opening time before a closing time (HH:MM)",
                    hours.opens, hours.closes
                ),
                format!(
                    "Godziny pracy, wiersz {n}: „{}”–„{}” to nie godzina otwarcia przed godziną zamknięcia (GG:MM).",
                    hours.opens, hours.closes
                ),
            ));
        }
    }
    out.extend(booking_page_problems(&site.booking));
    if let Some(notice) = &site.notice {
        let text = notice.text.trim();
        if text.is_empty() || text.chars().count() > NOTICE_MAX_CHARS || text.contains('\n') {
            out.push(problem(
                "notice",
                format!("notice: the text must be one line of 1 to {NOTICE_MAX_CHARS} characters"),
                format!("Komunikat: tekst musi mieć od 1 do {NOTICE_MAX_CHARS} znaków w jednym wierszu."),
            ));
        }
        let from = LocalTime::parse(&notice.from);
        let until = LocalTime::parse(&notice.until);
        for (key, label, value, parsed) in [
            ("from", "od", &notice.from, &from),
            ("until", "do", &notice.until, &until),
        ] {
            if let Err(message) = parsed {
                out.push(problem(
                    "notice",
                    format!("notice {key}: {message}"),
                    format!("Komunikat, data „{label}”: „{value}” nie istnieje albo nie ma postaci RRRR-MM-DD (lub RRRR-MM-DD GG:MM)."),
                ));
            }
        }
        if let (Ok(from), Ok(until)) = (from, until) {
            if until.end_unix() <= from.unix() {
                out.push(problem(
                    "notice",
                    format!(
                        "notice: until '{}' is before from '{}'",
                        notice.until, notice.from
                    ),
                    format!(
                        "Komunikat: data końca „{}” jest wcześniejsza niż data początku „{}”.",
                        notice.until, notice.from
                    ),
                ));
            }
        }
    }
    out
}

/// Each booking page is a full `https://` address on its platform: the practice's on Booksy
/// (the dialog of a service booked with the practice offers the Booksy button), a
/// therapist's on the doctor-listing platform when the model gives a `doctor_id` for its
/// widget, on Booksy otherwise.
fn booking_page_problems(booking: &crate::model::Booking) -> Vec<FactProblem> {
    let listing = &booking.doctor_listing;
    let booksy = &booking.booksy_host;
    let mut out = Vec::new();
    let practice = &booking.practice;
    if !is_https(practice) {
        out.push(problem(
            "practice",
            format!("practice: '{practice}' is not a full https:// address"),
            format!("Link do rezerwacji: „{practice}” nie jest pełnym adresem zaczynającym się od https://."),
        ));
    } else if !booking.on_booksy(practice) {
        out.push(problem(
            "practice",
            format!("practice: '{practice}' is not a page of Booksy ({booksy}): the dialog of a service booked with the practice offers the Booksy button"),
            format!("Link do rezerwacji: „{practice}” nie jest stroną w serwisie Booksy ({booksy}), a usługi umawiane z gabinetem prowadzą do Booksy."),
        ));
    }
    for (slug, t) in &booking.therapists {
        let url = &t.url;
        let (on_platform, name, host) = match &t.doctor_id {
            Some(_) => (
                booking.on_doctor_listing(url),
                listing.name.as_str(),
                listing.host.as_str(),
            ),
            None => (booking.on_booksy(url), "Booksy", booksy.as_str()),
        };
        if !is_https(url) {
            out.push(problem(
                "therapists",
                format!("therapists: '{slug}': '{url}' is not a full https:// address"),
                format!("Link do rezerwacji terapeuty ({slug}): „{url}” nie jest pełnym adresem zaczynającym się od https://."),
            ));
        } else if !on_platform {
            out.push(problem(
                "therapists",
                format!("therapists: '{slug}': '{url}' is not a page of {name} ({host}), where this therapist books"),
                format!("Link do rezerwacji terapeuty ({slug}): „{url}” nie jest stroną w serwisie {name} ({host}), w którym ten terapeuta przyjmuje rezerwacje."),
            ));
        }
    }
    out
}

fn is_https(url: &str) -> bool {
    url.starts_with("https://")
        && url.len() > "https://".len()
        && !url.contains(char::is_whitespace)
}

/// The longest notice: one line of a banner.
pub const NOTICE_MAX_CHARS: usize = 200;

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
            out.push(Diagnostic::new(
                file,
                line,
                format!("the link '{url}' leads to the article {route}, which is not published"),
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

fn check_prices(checks: &Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    let context = Context {
        content,
        routes: &checks.routes,
        images: &checks.images,
    };
    let mut prices_text: Option<String> = None;
    for item in &content.prices.items {
        if let Some(message) = context.broken_link(&item.link) {
            let text = prices_text.get_or_insert_with(|| {
                std::fs::read_to_string(&content.prices_file).unwrap_or_default()
            });
            let line = text
                .lines()
                .position(|l| {
                    let l = l.trim().trim_start_matches("- ");
                    l.starts_with("link:") && l.contains(item.link.as_str())
                })
                .map_or(1, |i| i + 1);
            out.push(Diagnostic::new(&content.prices_file, line, message));
        }
    }
}

/// Every cross-file problem of the loaded content; `failed_routes` are documents that exist
/// but failed to load, so links to them are not reported a second time.
pub fn validate(
    content: &Content,
    failed_routes: &[String],
    checks: &mut Checks,
) -> Vec<Diagnostic> {
    checks.refresh(content, failed_routes);
    let mut out = checks.duplicates.clone();
    check_documents(checks, content, &mut out);
    check_aliases(checks, content, &mut out);
    check_prices(checks, content, &mut out);
    check_site_facts(content, &mut out);
    out
}
