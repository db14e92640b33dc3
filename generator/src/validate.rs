//! Checks of the content. A document's own problems (house style, unknown facts) are
//! checked when it is read and cached with it; the checks that span files (duplicate slugs,
//! internal links, images, dates, booking links, the facts of `site.yaml`) run every build.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use crate::dates::LocalTime;
use crate::error::Diagnostic;
use crate::facts;
use crate::images::{classify, ImageRef};
use crate::model::{Content, Document, SiteConfig};
use crate::walk;

fn line_in_body<M>(doc: &Document<M>, offset: usize) -> usize {
    doc.body_line + doc.body[..offset.min(doc.body.len())].matches('\n').count()
}

/// The problems a document has on its own: unknown facts and the house style.
pub(crate) fn document<M>(doc: &Document<M>, site: &SiteConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unknown in facts::unknown(&doc.body) {
        let message = format!(
            "'{{{{ {} }}}}' is not a fact of site.yaml; known: {}",
            unknown.name,
            facts::NAMES.join(", ")
        );
        out.push(Diagnostic::new(
            &doc.file,
            line_in_body(doc, unknown.offset),
            message,
        ));
    }
    for p in crate::style::check(&doc.body, site) {
        out.push(Diagnostic::new(
            &doc.file,
            line_in_body(doc, p.offset),
            p.message,
        ));
    }
    out
}

struct Checker<'a> {
    content: &'a Content,
    routes: BTreeSet<String>,
    images: HashSet<String>,
    problems: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn push(&mut self, file: &Path, line: usize, message: String) {
        self.problems.push(Diagnostic::new(file, line, message));
    }

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

    fn check_image<M>(&mut self, doc: &Document<M>, field: &str, value: &str) {
        if let ImageRef::Local(path) = classify(value) {
            if !self.image_exists(path) {
                let line = field_line(doc, field);
                self.push(
                    &doc.file,
                    line,
                    format!(
                        "{field} '{value}' is neither a full address, a 'photo-…' id nor a file under content/images/"
                    ),
                );
            }
        }
    }

    fn check_links<M>(&mut self, doc: &Document<M>) {
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
                let line = line_in_body(doc, target.offset);
                self.push(&doc.file, line, message);
            }
        }
    }
}

fn field_line<M>(doc: &Document<M>, field: &str) -> usize {
    doc.field_lines.get(field).copied().unwrap_or(1)
}

/// Each route (or team profile) with the files that define it.
fn check_duplicates(c: &mut Checker<'_>) {
    let content = c.content;
    let mut map: BTreeMap<String, Vec<&PathBuf>> = BTreeMap::new();
    let ids = content
        .pages
        .iter()
        .map(|d| (&d.id, &d.file))
        .chain(content.services.iter().map(|d| (&d.id, &d.file)))
        .chain(content.articles.iter().map(|d| (&d.id, &d.file)))
        .chain(content.team.iter().map(|d| (&d.id, &d.file)));
    for (id, file) in ids {
        map.entry(id.to_string()).or_default().push(file);
    }
    for (id, files) in map {
        for file in files.iter().skip(1) {
            let slug = id.rsplit('/').next().unwrap_or(&id);
            let first = files[0].display().to_string();
            c.push(
                file,
                1,
                format!("duplicate slug '{slug}': {first} defines it too"),
            );
        }
    }
}

fn check_documents(c: &mut Checker<'_>) {
    let content = c.content;
    for doc in &content.pages {
        if let Some(image) = &doc.meta.image {
            c.check_image(doc.as_ref(), "image", image);
        }
        c.check_links(doc.as_ref());
    }
    for doc in &content.services {
        c.check_image(doc.as_ref(), "image", &doc.meta.image);
        c.check_links(doc.as_ref());
    }
    for doc in &content.articles {
        c.check_image(doc.as_ref(), "image", &doc.meta.image);
        if let Some(therapist) = &doc.meta.therapist {
            if !content.team.iter().any(|t| t.slug() == therapist) {
                let line = field_line(doc.as_ref(), "therapist");
                let message = format!("therapist '{therapist}' is not a file under content/team/");
                c.push(&doc.file, line, message);
            }
        }
        if let Err(message) = LocalTime::parse(&doc.meta.date) {
            let line = field_line(doc.as_ref(), "date");
            c.push(&doc.file, line, format!("date: {message}"));
        }
        c.check_links(doc.as_ref());
    }
    for doc in &content.team {
        c.check_image(doc.as_ref(), "photo", &doc.meta.photo);
        if !content.site.therapist_booking.contains_key(doc.slug()) {
            let line = field_line(doc.as_ref(), "name");
            let message = format!(
                "site.yaml has no therapist_booking link for '{}'",
                doc.slug()
            );
            c.push(&doc.file, line, message);
        }
        c.check_links(doc.as_ref());
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

fn check_site_facts(c: &mut Checker<'_>, site_file: &Path) {
    let content = c.content;
    let site = &content.site;
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
    for (key, message) in problems {
        let line = yaml_line(site_file, key);
        c.push(site_file, line, message);
    }
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
pub(crate) struct FactProblem {
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
pub(crate) fn contact_fact_problems(site: &SiteConfig) -> Vec<FactProblem> {
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
    let links = std::iter::once(("booking_url", "Link do rezerwacji", &site.booking_url)).chain(
        site.therapist_booking
            .values()
            .map(|url| ("therapist_booking", "Link do rezerwacji terapeuty", url)),
    );
    for (key, label, url) in links {
        if !url.starts_with("https://")
            || url.len() <= "https://".len()
            || url.contains(char::is_whitespace)
        {
            out.push(problem(
                key,
                format!("{key}: '{url}' is not a full https:// address"),
                format!("{label}: „{url}” nie jest pełnym adresem zaczynającym się od https://."),
            ));
        }
    }
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

/// The longest notice: one line of a banner.
pub(crate) const NOTICE_MAX_CHARS: usize = 200;

/// Links of public pages (and the price list) to articles that are not public yet.
pub(crate) fn links_to_hidden(content: &Content, hidden: &BTreeSet<String>) -> Vec<Diagnostic> {
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
                    check(&doc.file, line_in_body(doc.as_ref(), t.offset), &t.url);
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

fn check_prices(c: &mut Checker<'_>) {
    let content = c.content;
    let prices_text = std::fs::read_to_string(&content.prices_file).unwrap_or_default();
    for item in &content.prices.items {
        if let Some(message) = c.broken_link(&item.link) {
            let line = prices_text
                .lines()
                .position(|l| {
                    let l = l.trim().trim_start_matches("- ");
                    l.starts_with("link:") && l.contains(item.link.as_str())
                })
                .map_or(1, |i| i + 1);
            c.push(&content.prices_file, line, message);
        }
    }
}

/// Every cross-file problem of the loaded content; `failed_routes` are documents that exist
/// but failed to load, so links to them are not reported a second time.
pub(crate) fn validate(content: &Content, failed_routes: &[String]) -> Vec<Diagnostic> {
    let mut routes: BTreeSet<String> = content.routes().into_iter().collect();
    routes.extend(failed_routes.iter().cloned());
    let images = walk::files(&content.root.join("images"))
        .unwrap_or_default()
        .into_iter()
        .map(|f| f.relative)
        .collect();
    let mut checker = Checker {
        content,
        routes,
        images,
        problems: Vec::new(),
    };
    check_duplicates(&mut checker);
    check_documents(&mut checker);
    check_prices(&mut checker);
    check_site_facts(&mut checker, &content.root.join("site.yaml"));
    checker.problems
}
