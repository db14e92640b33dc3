//! What templates see: plain serialisable views built from the content model.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::images;
use crate::markdown;
use content::booking::Target;
use content::facts::Facts;
use content::kind::DocId;
use content::model::{
    ArticleMeta, Content, Document, PriceItem, ServiceMeta, SiteConfig, TeamMeta,
};
use content::sections::Section;

#[derive(Debug, Clone, Serialize)]
pub struct SectionView {
    #[serde(rename = "type")]
    pub kind: String,
    pub html: String,
    /// The questions of a `faq` section, from the same pass of the parser as its HTML.
    #[serde(skip)]
    pub(crate) faq: Vec<markdown::FaqItem>,
}

/// What renders sections: the facts they name, the pictures they may show, and the HTML of
/// earlier renders.
#[derive(Clone, Copy)]
pub(crate) struct SectionInputs<'a> {
    pub facts: &'a Facts,
    pub catalog: &'a images::Catalog,
    pub cache: &'a SectionCache,
}

/// The HTML of each document's sections from earlier renders, by a hash of what it was made
/// from (the section's type and its text with the facts filled in, and the pictures): a
/// section is parsed and sanitised again only when that changed. A `site.yaml` edit renders
/// every page again, but parses only the sections that name a fact that changed.
pub(crate) struct SectionCache {
    docs: Mutex<HashMap<DocId, Arc<DocSections>>>,
    /// Whether renders are kept for the next: not by a builder of one build (see
    /// [`crate::Builder::once`]), which has no next render to spare them for.
    keeps: bool,
}

impl Default for SectionCache {
    fn default() -> Self {
        SectionCache {
            docs: Mutex::default(),
            keeps: true,
        }
    }
}

/// One document's rendered sections, by the hash of what each was made from.
type DocSections = HashMap<[u8; 32], SectionView>;

impl SectionCache {
    fn get(&self, id: &DocId) -> Option<Arc<DocSections>> {
        let docs = self.docs.lock().unwrap_or_else(|p| p.into_inner());
        docs.get(id).cloned()
    }

    /// A cache that keeps nothing.
    pub(crate) fn none() -> Self {
        SectionCache {
            keeps: false,
            ..SectionCache::default()
        }
    }

    fn put(&self, id: &DocId, views: DocSections) {
        if !self.keeps {
            return;
        }
        let mut docs = self.docs.lock().unwrap_or_else(|p| p.into_inner());
        docs.insert(id.clone(), Arc::new(views));
    }

    /// Forgets the documents `content` no longer has, once there are more than it has (a
    /// removed document's sections may wait until then: looking costs a pass over all).
    pub(crate) fn forget_removed(&self, content: &Content) {
        let mut docs = self.docs.lock().unwrap_or_else(|p| p.into_inner());
        if docs.len() > content.ids().count() {
            let ids: HashSet<&DocId> = content.ids().collect();
            docs.retain(|id, _| ids.contains(id));
        }
    }
}

fn section_kind(section: &Section) -> &str {
    if content::sections::TYPES
        .iter()
        .any(|t| t.key == section.kind)
    {
        &section.kind
    } else {
        "text"
    }
}

fn render_section(kind: &str, filled: &str, catalog: &images::Catalog) -> SectionView {
    let picture = |url: &str, alt: &str| images::markdown_picture(catalog, url, alt);
    let rendered = markdown::render(filled, &picture, kind == "faq");
    SectionView {
        kind: kind.to_string(),
        html: rendered.html,
        faq: rendered.faq,
    }
}

/// The sections of `id` that have text, as HTML, reusing those whose inputs did not change;
/// stops with [`Error::Deadline`] before a section once `deadline` has passed (each
/// section's work is bounded by the limits of `content::limits`).
pub(crate) fn sections_until(
    id: &DocId,
    sections: &[Section],
    inputs: SectionInputs<'_>,
    deadline: Option<Instant>,
) -> Result<Vec<SectionView>> {
    let earlier = inputs.cache.get(id);
    let mut kept = HashMap::new();
    let mut out = Vec::new();
    for section in sections.iter().filter(|s| !s.content.trim().is_empty()) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Error::Deadline);
        }
        let kind = section_kind(section);
        let filled = inputs.facts.fill(&section.content);
        if !inputs.cache.keeps {
            out.push(render_section(kind, &filled, inputs.catalog));
            continue;
        }
        let mut h = Sha256::new();
        h.update(kind.as_bytes());
        h.update([0]);
        h.update(filled.as_bytes());
        h.update(inputs.catalog.fingerprint());
        let key: [u8; 32] = h.finalize().into();
        let view = match earlier.as_ref().and_then(|e| e.get(&key)) {
            Some(view) => view.clone(),
            None => render_section(kind, &filled, inputs.catalog),
        };
        kept.insert(key, view.clone());
        out.push(view);
    }
    inputs.cache.put(id, kept);
    Ok(out)
}

/// The sections of `id` that have text, as HTML.
pub(crate) fn sections(
    id: &DocId,
    sections: &[Section],
    inputs: SectionInputs<'_>,
) -> Vec<SectionView> {
    sections_until(id, sections, inputs, None).unwrap_or_default()
}

/// The questions of the `faq` sections among `views`.
pub(crate) fn faq(views: &[SectionView]) -> Vec<markdown::FaqItem> {
    views.iter().flat_map(|v| v.faq.iter().cloned()).collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct ServiceCard {
    pub slug: String,
    pub title: String,
    pub page_title: String,
    pub description: String,
    pub href: String,
    pub image: String,
    pub image_alt: String,
    pub image_focus: Option<String>,
    pub intro: String,
    pub button_label: String,
}

pub(crate) fn service_card(site: &SiteConfig, doc: &Document<ServiceMeta>) -> ServiceCard {
    let m = &doc.meta;
    ServiceCard {
        slug: doc.slug().to_string(),
        title: m.card_title.clone().unwrap_or_else(|| m.title.clone()),
        page_title: m.title.clone(),
        description: markdown::typeset(&m.card_description),
        href: doc.route.clone().unwrap_or_default(),
        image: images::resolve(site, &m.image, doc.slug()),
        image_alt: m.image_alt.clone(),
        image_focus: m.image_focus.clone(),
        intro: markdown::typeset(&m.intro),
        button_label: m.button_label.clone(),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ArticleCard {
    pub slug: String,
    pub title: String,
    pub excerpt: String,
    pub href: String,
    pub image: String,
    pub image_alt: String,
    pub image_focus: Option<String>,
    pub date: String,
    pub date_iso: String,
    /// The moment with its time and zone (structured data).
    pub published_at: String,
    pub author: String,
}

pub(crate) fn article_card(site: &SiteConfig, doc: &Document<ArticleMeta>) -> ArticleCard {
    let m = &doc.meta;
    let date = m.date.time().map(|t| t.date);
    ArticleCard {
        slug: doc.slug().to_string(),
        title: m.title.clone(),
        excerpt: markdown::typeset(&m.excerpt),
        href: doc.route.clone().unwrap_or_default(),
        image: images::resolve(site, &m.image, doc.slug()),
        image_alt: m.image_alt.clone(),
        image_focus: m.image_focus.clone(),
        date: date.map(|d| d.polish()).unwrap_or_default(),
        date_iso: date.map(|d| d.iso()).unwrap_or_default(),
        published_at: m.date.time().map(|t| t.rfc3339()).unwrap_or_default(),
        author: m.author.clone(),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Profile {
    pub slug: String,
    pub name: String,
    pub role: String,
    pub photo: String,
    pub photo_alt: String,
    pub image_focus: Option<String>,
    pub qualifications: Vec<String>,
    pub bio: Vec<SectionView>,
    pub booking_url: String,
    /// Whose calendar 'Umów się' opens, and where.
    pub booking_note: Option<BookingNote>,
}

/// What every booking button says beside it before the tap: on which platform, and whose
/// calendar it opens ('Rezerwacja w serwisie Booksy, kalendarz: Tomasz Lewandowski'). The
/// templates and the booking island show `text`, made here once.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BookingNote {
    /// The therapist's name (`None`: the practice's or the facility's page).
    pub person: Option<String>,
    /// The platform's name: the doctor-listing platform's, or Booksy.
    pub platform: String,
    /// The whole sentence.
    pub text: String,
    /// The few words a button too small for the sentence carries under it ('w serwisie
    /// Booksy').
    pub short: String,
}

/// The note of a button booking at `target`; `None` only for a page on neither platform
/// (which `make check` refuses).
pub(crate) fn booking_note(content: &Content, target: &Target<'_>) -> Option<BookingNote> {
    let booking = &content.site.booking;
    let platform = if booking.on_doctor_listing(target.url) {
        booking.doctor_listing.name().to_string()
    } else if booking.on_booksy(target.url) {
        "Booksy".to_string()
    } else {
        return None;
    };
    let person = target.therapist.and_then(|slug| {
        content
            .team
            .iter()
            .find(|t| t.slug() == slug)
            .map(|t| t.meta.name.clone())
    });
    let text = match &person {
        Some(name) => format!("Rezerwacja w\u{a0}serwisie {platform}, kalendarz: {name}"),
        None => format!("Rezerwacja w\u{a0}serwisie {platform}, kalendarz gabinetu"),
    };
    let short = match &person {
        Some(name) => format!("w\u{a0}serwisie {platform}: {name}"),
        None => format!("w\u{a0}serwisie {platform}"),
    };
    Some(BookingNote {
        person,
        platform,
        text,
        short,
    })
}

/// The note of the practice's own booking page (the navigation's 'Umów wizytę').
pub(crate) fn practice_booking_note(content: &Content) -> Option<BookingNote> {
    booking_note(content, &content.site.booking.practice_target())
}

/// What the statistics count a tap on a booking button as, by the page it opens: the
/// platform and whose calendar ('ZnanyLekarz · Magdalena Wiśniewska', 'Booksy · gabinet').
pub(crate) fn booking_labels(content: &Content) -> std::collections::BTreeMap<String, String> {
    let booking = &content.site.booking;
    let therapists = booking
        .therapists
        .keys()
        .map(|slug| booking.therapist(slug));
    std::iter::once(booking.practice_target())
        .chain(therapists)
        .chain(std::iter::once(booking.article(None)))
        .filter_map(|target| {
            let note = booking_note(content, &target)?;
            let person = note.person.unwrap_or_else(|| "gabinet".to_string());
            Some((
                target.url.to_string(),
                format!("{} · {person}", note.platform),
            ))
        })
        .collect()
}

pub(crate) fn profile(
    content: &Content,
    doc: &Document<TeamMeta>,
    inputs: SectionInputs<'_>,
) -> Profile {
    let m = &doc.meta;
    Profile {
        slug: doc.slug().to_string(),
        name: m.name.clone(),
        role: m.role.clone(),
        photo: images::resolve(&content.site, &m.photo, doc.slug()),
        photo_alt: m.photo_alt.clone(),
        image_focus: m.image_focus.clone(),
        qualifications: m.qualifications.clone(),
        bio: sections(&doc.id, &doc.sections, inputs),
        booking_url: content.site.booking.therapist(doc.slug()).url.to_string(),
        booking_note: booking_note(content, &content.site.booking.therapist(doc.slug())),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PriceRow {
    pub name: String,
    pub price: String,
    /// The price in złoty, for structured data.
    pub amount: u32,
    /// `amount` is the lowest price ("od 500 zł").
    pub from: bool,
    pub duration: String,
    pub href: String,
    pub note: Option<String>,
    /// Where the row's 'Umów wizytę' books: its service's page (the practice's for a row
    /// that is not a service).
    pub booking_url: String,
    /// The free phone call (the one row of price 0, STYLE.md): the practice's `tel:`
    /// address, which the row's 'Zadzwoń' dials instead of a booking page.
    pub call_url: Option<String>,
    /// Whose calendar the row's button opens, and where.
    pub booking_note: Option<BookingNote>,
}

pub(crate) fn price_label(item: &PriceItem) -> String {
    match (item.price, item.from) {
        (0, _) => "bezpłatnie".to_string(),
        (p, true) => format!("od {p}\u{a0}zł"),
        (p, false) => format!("{p}\u{a0}zł"),
    }
}

/// The `tel:` address of a phone number as written ("+48 58 345 21 90").
pub(crate) fn tel_url(phone: &str) -> String {
    let digits: String = phone
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '+')
        .collect();
    format!("tel:{digits}")
}

pub(crate) fn price_row(item: &PriceItem, content: &Content) -> PriceRow {
    let target = content.site.booking.price_row(&item.link);
    PriceRow {
        name: item.name.clone(),
        price: price_label(item),
        amount: item.price,
        from: item.from,
        duration: item.duration.replace(' ', "\u{a0}"),
        href: item.link.clone(),
        note: item.note.clone(),
        booking_url: target.url.to_string(),
        call_url: (item.price == 0).then(|| tel_url(&content.site.phone)),
        booking_note: booking_note(content, &target),
    }
}

/// Collections every page may show: cards, team, prices.
#[derive(Debug, Clone, Serialize)]
pub struct Collections {
    pub services: Vec<ServiceCard>,
    pub featured_services: Vec<ServiceCard>,
    pub articles: Vec<Arc<ArticleCard>>,
    pub featured_articles: Vec<Arc<ArticleCard>>,
    pub team: Vec<Profile>,
    pub prices: Vec<PriceRow>,
    /// The card of every article, listed or not, with the hash of the file it was made from:
    /// what an article's own page shows too.
    #[serde(skip)]
    pub(crate) cards: HashMap<DocId, ([u8; 32], Arc<ArticleCard>)>,
}

struct CachedCard {
    doc_hash: [u8; 32],
    card: Arc<ArticleCard>,
    hash: [u8; 32],
}

/// Article cards of earlier builds: with thousands of articles, making every card again and
/// hashing them all would cost more than rendering the one page that changed.
#[derive(Default)]
pub(crate) struct CardCache {
    site: [u8; 32],
    articles: HashMap<DocId, CachedCard>,
    /// The last collections, with what they were made from and their fingerprint.
    last: Option<([u8; 32], Arc<Collections>, [u8; 32])>,
    /// The documents the last collections were made from.
    made_from: Option<MadeFrom>,
}

/// The documents and data the last collections were made from, as shared copies: a build
/// whose documents are those very copies (but an article whose card did not change) has the
/// same collections, found without hashing every card.
struct MadeFrom {
    site: [u8; 32],
    rest: Vec<u8>,
    articles: Vec<Arc<Document<ArticleMeta>>>,
    services: Vec<Arc<Document<ServiceMeta>>>,
    team: Vec<Arc<Document<TeamMeta>>>,
}

fn same_copies<M>(a: &[Arc<Document<M>>], b: &[Arc<Document<M>>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Arc::ptr_eq(x, y))
}

impl CardCache {
    /// Whether `content` makes the same collections as the last ones were made from.
    fn unchanged(&mut self, content: &Content, site: &[u8; 32], rest: &[u8]) -> bool {
        let Some(made) = self.made_from.take() else {
            return false;
        };
        let articles_same = made.articles.len() == content.articles.len()
            && made
                .articles
                .iter()
                .zip(&content.articles)
                .all(|(old, new)| {
                    Arc::ptr_eq(old, new)
                        || (old.id == new.id
                            && (old.meta.listed, old.meta.featured)
                                == (new.meta.listed, new.meta.featured)
                            && self.article(&content.site, old).1
                                == self.article(&content.site, new).1)
                });
        let same = made.site == *site
            && made.rest == rest
            && articles_same
            && same_copies(&made.services, &content.services)
            && same_copies(&made.team, &content.team);
        self.made_from = Some(made);
        same
    }

    fn article(
        &mut self,
        site: &SiteConfig,
        doc: &Document<ArticleMeta>,
    ) -> (Arc<ArticleCard>, [u8; 32]) {
        if let Some(c) = self
            .articles
            .get(&doc.id)
            .filter(|c| c.doc_hash == doc.hash)
        {
            return (Arc::clone(&c.card), c.hash);
        }
        let card = Arc::new(article_card(site, doc));
        let hash = Sha256::digest(serde_json::to_vec(&*card).unwrap_or_default()).into();
        let cached = CachedCard {
            doc_hash: doc.hash,
            card: Arc::clone(&card),
            hash,
        };
        self.articles.insert(doc.id.clone(), cached);
        (card, hash)
    }
}

/// Where an article's button books a visit (SPEC: on the doctor-listing platform): its
/// therapist's profile there, or the facility's page there.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ArticleBooking {
    pub url: String,
    /// The platform's name.
    pub platform: String,
    /// The therapist's name, when the page is theirs.
    pub therapist: Option<String>,
    /// What the button says beside it of where it leads.
    pub note: Option<BookingNote>,
}

pub(crate) fn article_booking(content: &Content, doc: &Document<ArticleMeta>) -> ArticleBooking {
    let booking = &content.site.booking;
    let target = booking.article(doc.meta.therapist.as_deref());
    let name = |slug: &str| {
        content
            .team
            .iter()
            .find(|t| t.slug() == slug)
            .map(|t| t.meta.name.clone())
    };
    ArticleBooking {
        url: target.url.to_string(),
        platform: booking.doctor_listing.name().to_string(),
        therapist: target.therapist.and_then(name),
        note: booking_note(content, &target),
    }
}

/// The booking button island's props for the service `slug`: where it books, the doctor whose
/// widget its dialog embeds (`null`: the dialog offers the Booksy button), where it leads
/// (`note`), and the practice's phone with its hours for when the widget cannot load.
pub(crate) fn service_booking(content: &Content, slug: &str) -> serde_json::Value {
    let booking = &content.site.booking;
    let target = booking.service(slug);
    let listing = &booking.doctor_listing;
    let doctor = target.doctor_id.map(|id| {
        serde_json::json!({
            "platform": listing.name(),
            "doctorId": id,
            "widgetHost": listing.platform().widget_host,
            "cookies": content::facts::calendar_cookies(content),
        })
    });
    serde_json::json!({
        "bookingUrl": target.url,
        "doctor": doctor,
        "note": booking_note(content, &target),
        "phone": content.site.phone,
        "hours": content::facts::opening_hours(&content.site).join(", "),
    })
}

/// What the collections are made from: the cards of the listed articles (not their bodies),
/// the services, the team, the prices, the facts and the images they show.
fn inputs_key(
    content: &Content,
    facts: &Facts,
    site_hash: &[u8; 32],
    cards: &mut CardCache,
    catalog: &images::Catalog,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(site_hash);
    h.update(catalog.fingerprint());
    h.update(serde_json::to_vec(facts).unwrap_or_default());
    h.update(serde_json::to_vec(&content.prices).unwrap_or_default());
    for doc in &content.articles {
        let (_, card_hash) = cards.article(&content.site, doc);
        h.update(doc.slug().as_bytes());
        h.update(card_hash);
        h.update([u8::from(doc.meta.listed), u8::from(doc.meta.featured)]);
    }
    for doc in content
        .services
        .iter()
        .map(|d| (&d.id, &d.hash))
        .chain(content.team.iter().map(|d| (&d.id, &d.hash)))
    {
        h.update(doc.0.slug.as_bytes());
        h.update(doc.1);
    }
    h.finalize().into()
}

/// The collections of `content`, and a fingerprint that changes exactly when they do; the
/// last ones are reused when nothing they are made from changed.
pub(crate) fn collections(
    content: &Content,
    inputs: SectionInputs<'_>,
    cache: &mut CardCache,
) -> (Arc<Collections>, [u8; 32]) {
    let (facts, catalog) = (inputs.facts, inputs.catalog);
    let site = &content.site;
    let site_hash: [u8; 32] = Sha256::digest(serde_json::to_vec(site).unwrap_or_default()).into();
    if cache.site != site_hash {
        *cache = CardCache {
            site: site_hash,
            ..CardCache::default()
        };
    }
    // Everything but the documents: the images, the facts and the prices.
    let mut rest = catalog.fingerprint().to_vec();
    rest.extend(serde_json::to_vec(facts).unwrap_or_default());
    rest.extend(serde_json::to_vec(&content.prices).unwrap_or_default());
    if cache.unchanged(content, &site_hash, &rest) {
        if let Some((_, collections, fingerprint)) = &cache.last {
            return (Arc::clone(collections), *fingerprint);
        }
    }
    cache.made_from = Some(MadeFrom {
        site: site_hash,
        rest,
        articles: content.articles.clone(),
        services: content.services.clone(),
        team: content.team.clone(),
    });
    let key = inputs_key(content, facts, &site_hash, cache, catalog);
    if let Some((last, collections, fingerprint)) = &cache.last {
        if *last == key {
            return (Arc::clone(collections), *fingerprint);
        }
    }
    let mut services: Vec<&Arc<Document<ServiceMeta>>> = content.services.iter().collect();
    services.sort_by(|a, b| (a.meta.order, a.slug()).cmp(&(b.meta.order, b.slug())));
    let service_cards = |pick: fn(&ServiceMeta) -> bool| {
        services
            .iter()
            .filter(|d| pick(&d.meta))
            .map(|d| service_card(site, d))
            .collect::<Vec<_>>()
    };
    let mut articles: Vec<&Arc<Document<ArticleMeta>>> =
        content.articles.iter().filter(|a| a.meta.listed).collect();
    articles.sort_by(|a, b| b.meta.date.cmp(&a.meta.date).then(a.slug().cmp(b.slug())));
    let mut fingerprint = Sha256::new();
    let mut cards = Vec::with_capacity(articles.len());
    let mut featured = Vec::new();
    for doc in &articles {
        let (card, hash) = cache.article(site, doc);
        fingerprint.update(hash);
        if doc.meta.featured {
            featured.push(Arc::clone(&card));
        }
        cards.push(card);
    }
    if featured.is_empty() {
        featured = cards.iter().take(3).cloned().collect();
    }
    let mut team: Vec<&Arc<Document<TeamMeta>>> = content.team.iter().collect();
    team.sort_by(|a, b| (a.meta.order, a.slug()).cmp(&(b.meta.order, b.slug())));
    let collections = Collections {
        services: service_cards(|m| m.listed),
        featured_services: service_cards(|m| m.featured),
        articles: cards,
        featured_articles: featured,
        team: team.iter().map(|d| profile(content, d, inputs)).collect(),
        prices: content
            .prices
            .items
            .iter()
            .map(|p| price_row(p, content))
            .collect(),
        cards: content
            .articles
            .iter()
            .map(|doc| (doc.id.clone(), (doc.hash, cache.article(site, doc).0)))
            .collect(),
    };
    let small = (
        &collections.services,
        &collections.featured_services,
        &collections.featured_articles,
        &collections.team,
        &collections.prices,
    );
    fingerprint.update(serde_json::to_vec(&small).unwrap_or_default());
    let collections = Arc::new(collections);
    let fingerprint: [u8; 32] = fingerprint.finalize().into();
    cache.last = Some((key, Arc::clone(&collections), fingerprint));
    (collections, fingerprint)
}
