//! The typed content model: `site.yaml`, front matter of each document kind, the price list.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use crate::dates::Moment;
use crate::kind::DocId;
use crate::markdown::Target;
use crate::sections::Section;
use crate::shared_text::SharedText;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Address {
    pub street: String,
    pub postal_code: String,
    pub city: String,
    /// The voivodeship ("pomorskie"), for search engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    pub country: String,
}

/// Where a place is on a map, in degrees (WGS 84), for search engines.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Geo {
    pub latitude: f64,
    pub longitude: f64,
}

impl Address {
    /// "al. Grunwaldzka 82/4, 80-244 Gdańsk".
    pub fn one_line(&self) -> String {
        format!("{}, {} {}", self.street, self.postal_code, self.city)
    }
}

/// A profile of the practice in a social network, linked from the footer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SocialLink {
    pub name: String,
    pub url: String,
}

/// Where visitors book a visit, in one place: which platform serves what. Two
/// platforms: the doctor-listing platform, whose widgets the site embeds, and Booksy, whose
/// booking pages open in a new tab.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Booking {
    pub doctor_listing: DoctorListing,
    /// The host of Booksy's booking pages (`booksy.com`): the booking dialog offers
    /// 'Umów wizytę przez Booksy' for a page there.
    pub booksy_host: String,
    /// The practice's own booking page (on Booksy): the navigation's 'Umów wizytę', and the
    /// services booked with the practice rather than one therapist.
    pub practice: String,
    /// Each therapist's own booking page, by the file name under `content/team/`.
    pub therapists: BTreeMap<String, TherapistBooking>,
    /// Who takes each service, by the file name under `content/services/`: a therapist of
    /// `therapists`, or [`PRACTICE`].
    pub services: BTreeMap<String, String>,
}

/// The value of `booking.services` for a service booked with the practice.
pub const PRACTICE: &str = "practice";

/// The doctor-listing platform (ZnanyLekarz): the facility's calendar and a therapist's
/// certificate badge on the home page, the booking dialog's widget for a named doctor, and
/// where articles link. Content names the platform and the practice's ids there; its hosts
/// and scripts are the code's ([`crate::providers`]), never content's.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, into = "DoctorListingView")]
pub struct DoctorListing {
    /// The platform, by its key in [`crate::providers::DOCTOR_LISTINGS`] (`znanylekarz`).
    pub provider: String,
    pub facility_id: String,
    /// The facility's page on the platform.
    pub facility_url: String,
    /// Whose certificate the badge on the home page's portrait shows: a therapist of
    /// `booking.therapists` with a `doctor_id`.
    pub badge_therapist: String,
}

impl DoctorListing {
    /// The platform's fixed facts. A build never gets here with a provider the code does not
    /// know (`make check` refuses it); should one, it is the first the code knows.
    pub fn platform(&self) -> &'static crate::providers::DoctorListingProvider {
        crate::providers::doctor_listing(&self.provider)
            .unwrap_or(&crate::providers::DOCTOR_LISTINGS[0])
    }

    /// The platform's name, as pages show it.
    pub fn name(&self) -> &'static str {
        self.platform().name
    }

    /// The host of the platform's profile pages.
    pub fn host(&self) -> &'static str {
        self.platform().host
    }
}

/// What templates see of the doctor-listing platform: the content's ids with the platform's
/// fixed facts from the code beside them.
#[derive(Serialize)]
struct DoctorListingView {
    provider: String,
    name: &'static str,
    host: &'static str,
    widget_host: &'static str,
    facility_id: String,
    facility_url: String,
    calendar_scripts: &'static [&'static str],
    badge_script: &'static str,
    badge_therapist: String,
}

impl From<DoctorListing> for DoctorListingView {
    fn from(d: DoctorListing) -> Self {
        let p = d.platform();
        DoctorListingView {
            provider: d.provider,
            name: p.name,
            host: p.host,
            widget_host: p.widget_host,
            facility_id: d.facility_id,
            facility_url: d.facility_url,
            calendar_scripts: p.calendar_scripts,
            badge_script: p.badge_script,
            badge_therapist: d.badge_therapist,
        }
    }
}

/// The telephony provider's callback widget: which provider, and the practice's widget id
/// there. The script's address is the code's ([`crate::providers::TELEPHONY`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Telephony {
    pub provider: String,
    pub id: String,
}

impl Telephony {
    /// The provider's name, as pages show it.
    pub fn name(&self) -> &'static str {
        crate::providers::telephony(&self.provider)
            .unwrap_or(&crate::providers::TELEPHONY[0])
            .name
    }

    /// The widget's script. A build never gets here with a provider the code does not know.
    pub fn script(&self) -> &'static str {
        crate::providers::telephony(&self.provider)
            .unwrap_or(&crate::providers::TELEPHONY[0])
            .script
    }
}

/// A therapist's own booking page: on the doctor-listing platform (with the `doctor_id` its
/// widget shows) or on Booksy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TherapistBooking {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doctor_id: Option<String>,
}

/// Days (schema.org day names, in English) with the same opening hours.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningHours {
    pub days: Vec<String>,
    pub opens: String,
    pub closes: String,
}

/// Days the practice is closed on top of Poland's public holidays (a holiday, a training),
/// `YYYY-MM-DD`, both days included; one day has `until` equal to `from`. The call control
/// treats them like a night (`crate::holidays`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Closure {
    pub from: String,
    pub until: String,
}

/// What a cookie (or an item of browser storage) is for: the consent banner asks only for the
/// categories some cookie of the site belongs to, technical ones need no consent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CookieCategory {
    Technical,
    Analytics,
    Advertising,
}

impl CookieCategory {
    /// The category's name in the banner and the privacy policy.
    pub fn label(self) -> &'static str {
        match self {
            CookieCategory::Technical => "Techniczne",
            CookieCategory::Analytics => "Analityczne",
            CookieCategory::Advertising => "Reklamowe",
        }
    }
}

/// One cookie of the site, as the privacy policy's table lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cookie {
    pub name: String,
    pub provider: String,
    pub purpose: String,
    pub lifetime: String,
    pub category: CookieCategory,
    /// Set only while the operator's analytics tag is on (`ANALYTICS_ID`): the record of the
    /// visitor's choice, which only the consent banner keeps. Without the tag it is not
    /// listed, as the analytics' and advertising cookies are not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_analytics: bool,
}

impl Cookie {
    /// Whether the entry says its provider sets no cookie at all ('brak (widżet CallPage)').
    pub fn sets_none(&self) -> bool {
        self.name.trim().to_lowercase().starts_with("brak")
    }

    /// Whether the site sets this cookie with `measurement`.
    pub fn is_set(&self, measurement: &crate::measurement::Measurement) -> bool {
        measurement.asks_consent()
            || (self.category == CookieCategory::Technical && !self.with_analytics)
    }
}

/// The practice's facts, links and widget ids: `content/site.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub name: String,
    pub tagline: String,
    pub description: String,
    pub site_url: String,
    pub phone: String,
    pub email: String,
    /// Where the practice receives patients: the one address every page shows.
    pub address: Address,
    /// The practice's legal identity: the data controller and the provider of the services.
    pub legal_name: String,
    pub nip: String,
    pub regon: String,
    pub registered_address: Address,
    /// Where people write about their personal data (the privacy policy's
    /// `{{ kontakt_dane }}`); without it, `email`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_protection_contact: Option<String>,
    /// The information clause shown under the contact form and quoted by the privacy
    /// policy (Markdown; facts like `{{ administrator }}` are filled in).
    pub contact_clause: String,
    /// Services also offered online, by the file name under `content/services/`.
    pub online_services: Vec<String>,
    /// Who signs a new article unless the panel is told otherwise: a file name under
    /// `content/team/`.
    #[serde(default)]
    pub default_author: Option<String>,
    /// Every cookie and browser-storage item the site sets, with its category.
    pub cookies: Vec<Cookie>,
    pub map_url: String,
    /// Where the practice is on a map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geo: Option<Geo>,
    pub social: Vec<SocialLink>,
    /// Where visitors book: the practice, each therapist and each service.
    pub booking: Booking,
    /// The telephony provider's floating callback widget.
    pub telephony: Telephony,
    pub copyright_year: u16,
    pub price_range: String,
    pub opening_hours: Vec<OpeningHours>,
    /// The practice's own days off (`crate::holidays` adds the public holidays).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closures: Vec<Closure>,
    /// The image of link previews where a page has no raster image of its own.
    pub og_image: String,
    /// What that image shows, for those who cannot see it (`og:image:alt`).
    pub og_image_alt: String,
    pub stock_photo_base: String,
    pub fallback_images: Vec<String>,
    /// A notice every page shows inside its dates ("Gabinet nieczynny 24.12–1.01").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<Notice>,
    /// Whom `/.well-known/security.txt` names for security problems: an e-mail, a `mailto:`
    /// or an `https://` address; without it, `email`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_contact: Option<String>,
    /// Facts of this file that are still example data, not the practice's own: `make check`
    /// warns, the panel lists them on its first screen, and a production start publishes
    /// nothing while any remain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub example_data: Vec<ExampleFact>,
}

/// A fact of `site.yaml` that is the practice's own and may still be example data: the
/// identity, the contact facts, the site's address, the profiles and booking pages, and the
/// telephony account's id (the analytics tag is the operator's `ANALYTICS_ID`, not a fact). A production start publishes nothing while
/// any is listed in `example_data` (the sidecar's `serve::launch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ExampleFact {
    Name,
    LegalName,
    Nip,
    Regon,
    RegisteredAddress,
    Address,
    Phone,
    Email,
    SiteUrl,
    Social,
    Booking,
    Telephony,
}

impl ExampleFact {
    pub const ALL: [ExampleFact; 12] = [
        ExampleFact::Name,
        ExampleFact::LegalName,
        ExampleFact::Nip,
        ExampleFact::Regon,
        ExampleFact::RegisteredAddress,
        ExampleFact::Address,
        ExampleFact::Phone,
        ExampleFact::Email,
        ExampleFact::SiteUrl,
        ExampleFact::Social,
        ExampleFact::Booking,
        ExampleFact::Telephony,
    ];

    /// The key of the fact in `site.yaml`.
    pub fn key(self) -> &'static str {
        match self {
            ExampleFact::Name => "name",
            ExampleFact::LegalName => "legal_name",
            ExampleFact::Nip => "nip",
            ExampleFact::Regon => "regon",
            ExampleFact::RegisteredAddress => "registered_address",
            ExampleFact::Address => "address",
            ExampleFact::Phone => "phone",
            ExampleFact::Email => "email",
            ExampleFact::SiteUrl => "site_url",
            ExampleFact::Social => "social",
            ExampleFact::Booking => "booking",
            ExampleFact::Telephony => "telephony",
        }
    }

    /// The fact's name in the panel.
    pub fn label(self) -> &'static str {
        match self {
            ExampleFact::Name => "nazwa gabinetu",
            ExampleFact::LegalName => "pełna nazwa przedsiębiorcy",
            ExampleFact::Nip => "NIP",
            ExampleFact::Regon => "REGON",
            ExampleFact::RegisteredAddress => "adres siedziby (z CEIDG)",
            ExampleFact::Address => "adres gabinetu i link do mapy",
            ExampleFact::Phone => "telefon",
            ExampleFact::Email => "e-mail",
            ExampleFact::SiteUrl => "adres strony (site_url)",
            ExampleFact::Social => "profile w mediach społecznościowych",
            ExampleFact::Booking => "strony rezerwacji (Booksy, ZnanyLekarz)",
            ExampleFact::Telephony => "identyfikator widżetu telefonicznego (telephony)",
        }
    }

    /// Where the owner changes it: in the panel's 'Dane gabinetu', or only in `site.yaml`
    /// (the operator's or an editor's change).
    pub fn in_panel(self) -> bool {
        !matches!(
            self,
            ExampleFact::Name | ExampleFact::SiteUrl | ExampleFact::Telephony
        )
    }
}

/// A short notice shown on every page from `from` to `until` (Warsaw time, both days
/// included; `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` for an exact moment), gone by itself after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notice {
    pub text: String,
    pub from: Moment,
    pub until: Moment,
}

/// The template of the admin panel's page: served on the panel's own origin, linked from no
/// text of the site.
pub const PANEL_TEMPLATE: &str = "admin";

/// Front matter of a page under `content/pages/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageMeta {
    /// The page's name: the panel's tab, and `<title>` unless `seo_title` says more.
    pub title: String,
    /// What search results and link previews show instead of `title`, where the page's
    /// name is fixed (SPEC: 'O Nas', 'Cennik') but a search needs the place ("… w Gdańsku").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seo_title: Option<String>,
    pub description: String,
    /// Old addresses of this document (`/stary-adres`): each answers 301 to its route.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The Tera template (without `.html`) that renders this page.
    #[serde(default = "default_template")]
    pub template: String,
    #[serde(default)]
    pub heading: Option<String>,
    #[serde(default)]
    pub subtitle: Option<String>,
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub image_alt: Option<String>,
    /// The point of the picture a crop keeps in view (`"50% 30%"`, see [`crate::fields::Focus`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_focus: Option<String>,
    /// The date a legal document was last changed, shown as written.
    #[serde(default)]
    pub dated: Option<String>,
    #[serde(default)]
    pub noindex: bool,
}

impl PageMeta {
    /// The text of a field of [`crate::fields`], by its front-matter key.
    pub fn text(&self, key: &str) -> Option<&str> {
        match key {
            "heading" => self.heading.as_deref(),
            "subtitle" => self.subtitle.as_deref(),
            "prompt" => self.prompt.as_deref(),
            _ => None,
        }
    }
}

fn default_template() -> String {
    "page".to_string()
}

/// Front matter of a service under `content/services/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceMeta {
    pub title: String,
    pub description: String,
    /// Old addresses of this document (`/stary-adres`): each answers 301 to its route.
    #[serde(default)]
    pub aliases: Vec<String>,
    pub intro: String,
    /// Title on cards and in navigation when it differs from the page title.
    #[serde(default)]
    pub card_title: Option<String>,
    pub card_description: String,
    pub image: String,
    pub image_alt: String,
    /// The point of the picture a crop keeps in view (`"50% 30%"`, see [`crate::fields::Focus`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_focus: Option<String>,
    pub button_label: String,
    pub order: u32,
    /// Shown on the services list.
    #[serde(default)]
    pub listed: bool,
    /// Shown in the home page's teaser.
    #[serde(default)]
    pub featured: bool,
}

impl ServiceMeta {
    /// The text of a field of [`crate::fields`], by its front-matter key.
    pub fn text(&self, key: &str) -> Option<&str> {
        match key {
            "intro" => Some(&self.intro),
            "card_title" => self.card_title.as_deref(),
            "card_description" => Some(&self.card_description),
            "button_label" => Some(&self.button_label),
            _ => None,
        }
    }
}

/// Front matter of a blog article under `content/blog/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArticleMeta {
    pub title: String,
    pub description: String,
    /// Old addresses of this document (`/stary-adres`): each answers 301 to its route.
    #[serde(default)]
    pub aliases: Vec<String>,
    pub excerpt: String,
    /// `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` (Warsaw time): an article dated in the future is
    /// published at that moment.
    pub date: Moment,
    pub image: String,
    pub image_alt: String,
    /// The point of the picture a crop keeps in view (`"50% 30%"`, see [`crate::fields::Focus`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_focus: Option<String>,
    pub author: String,
    /// The therapist whose booking page the article's button opens, by the file name under
    /// `content/team/`; without one it opens the practice's booking page.
    #[serde(default)]
    pub therapist: Option<String>,
    /// Listed on `/blog`; unlisted articles are reachable by route only.
    #[serde(default = "yes")]
    pub listed: bool,
    #[serde(default)]
    pub featured: bool,
    /// `false` keeps the article out of the site (the file stays, nothing is built from it).
    #[serde(default = "yes")]
    pub published: bool,
}

fn yes() -> bool {
    true
}

/// Front matter of a therapist profile under `content/team/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMeta {
    pub name: String,
    pub role: String,
    pub photo: String,
    pub photo_alt: String,
    /// The point of the photo a crop keeps in view (`"50% 30%"`, see [`crate::fields::Focus`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_focus: Option<String>,
    pub qualifications: Vec<String>,
    pub order: u32,
}

impl TeamMeta {
    /// The text of a field of [`crate::fields`], by its front-matter key.
    pub fn text(&self, key: &str) -> Option<&str> {
        match key {
            "name" => Some(&self.name),
            "role" => Some(&self.role),
            "photo_alt" => Some(&self.photo_alt),
            _ => None,
        }
    }
}

/// The site's own words outside the documents, `content/napisy.yaml`, by key (which there
/// are: `crate::wording`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Words(pub BTreeMap<String, String>);

/// One row of the price list, `content/cennik.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceItem {
    /// What texts name the row by: `{{ cena.<id> }}` (lowercase letters, digits and '-';
    /// unique; kept when the row's name changes).
    pub id: String,
    pub name: String,
    /// Price in złoty; 0 means free of charge.
    pub price: u32,
    /// The price is a lower bound ("od 500 zł").
    #[serde(default)]
    pub from: bool,
    pub duration: String,
    pub link: String,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceList {
    pub items: Vec<PriceItem>,
}

/// A loaded Markdown document of any kind.
#[derive(Debug, Clone)]
pub struct Document<M> {
    pub id: DocId,
    /// Its public address, computed once from the id (`None` for team profiles).
    pub route: Option<String>,
    pub file: PathBuf,
    pub meta: M,
    pub sections: Vec<Section>,
    /// The raw body, for link checks; its sections are stretches of it.
    pub body: SharedText,
    /// 1-based file line where the body starts.
    pub body_line: usize,
    /// SHA-256 of the whole file: what every output made from it depends on.
    pub hash: [u8; 32],
    /// The links and images of the body, with their byte offsets.
    pub links: Vec<Target>,
    /// The 1-based line of each top-level front-matter field.
    pub field_lines: BTreeMap<String, usize>,
    /// When the file last changed (the sitemap's date outside git).
    pub modified: Option<SystemTime>,
}

impl<M> Document<M> {
    pub fn slug(&self) -> &str {
        &self.id.slug
    }

    /// The 1-based file line of a byte `offset` in the body.
    pub fn line_in_body(&self, offset: usize) -> usize {
        self.body_line
            + self.body[..offset.min(self.body.len())]
                .matches('\n')
                .count()
    }
}

/// Everything under `content/`, loaded and typed. Documents are shared, so that a rebuild
/// reuses what it did not have to read again.
#[derive(Debug, Clone)]
pub struct Content {
    pub root: PathBuf,
    pub site: SiteConfig,
    pub pages: Vec<Arc<Document<PageMeta>>>,
    pub services: Vec<Arc<Document<ServiceMeta>>>,
    pub articles: Vec<Arc<Document<ArticleMeta>>>,
    pub team: Vec<Arc<Document<TeamMeta>>>,
    pub prices: PriceList,
    pub prices_file: PathBuf,
    /// The site's own words outside the documents (`napisy.yaml`).
    pub words: Words,
    pub words_file: PathBuf,
    /// How visits are measured: the operator's settings, set by the build (see
    /// [`crate::measurement`]), never read from `content/`.
    pub measurement: crate::measurement::Measurement,
}

impl Content {
    /// The routes of the admin panel's pages: no text links there.
    pub fn panel_routes(&self) -> Vec<&str> {
        self.pages
            .iter()
            .filter(|d| d.meta.template == PANEL_TEMPLATE)
            .filter_map(|d| d.route.as_deref())
            .collect()
    }

    /// The id of every document, of every kind.
    pub fn ids(&self) -> impl Iterator<Item = &DocId> {
        let pages = self.pages.iter().map(|d| &d.id);
        let services = self.services.iter().map(|d| &d.id);
        let articles = self.articles.iter().map(|d| &d.id);
        let team = self.team.iter().map(|d| &d.id);
        pages.chain(services).chain(articles).chain(team)
    }

    /// The texts of every document that can name a price, by document: its body and its
    /// description.
    pub fn texts(&self) -> Vec<(DocId, [&str; 2])> {
        let pages = self
            .pages
            .iter()
            .map(|d| (d.id.clone(), [d.body.as_str(), &d.meta.description]));
        let services = self
            .services
            .iter()
            .map(|d| (d.id.clone(), [d.body.as_str(), &d.meta.description]));
        let articles = self
            .articles
            .iter()
            .map(|d| (d.id.clone(), [d.body.as_str(), &d.meta.description]));
        let team = self
            .team
            .iter()
            .map(|d| (d.id.clone(), [d.body.as_str(), ""]));
        pages.chain(services).chain(articles).chain(team).collect()
    }

    /// Every public route the site has, in a stable order: not the panel's.
    pub fn routes(&self) -> Vec<String> {
        let pages = self
            .pages
            .iter()
            .filter(|d| d.meta.template != PANEL_TEMPLATE)
            .filter_map(|d| d.route.clone());
        let services = self.services.iter().filter_map(|d| d.route.clone());
        let articles = self.articles.iter().filter_map(|d| d.route.clone());
        pages.chain(services).chain(articles).collect()
    }
}
