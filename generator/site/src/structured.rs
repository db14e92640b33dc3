//! Structured data (JSON-LD): each page carries one `@graph` whose nodes refer to each other by
//! `@id`. The practice is described once, in full, on every page that names it (as the
//! site's or an article's publisher, a service's provider, a therapist's employer), since a
//! search engine resolves `@id` within a page. A page's trail is the visible breadcrumb
//! (`partials/trail.html`) and its `BreadcrumbList`, from the same [`Crumb`]s.

use serde::Serialize;
use serde_json::{json, Value};

use crate::markdown::FaqItem;
use crate::seo::absolute;
use crate::views::{ArticleCard, Collections, ServiceCard};
use content::encoding;
use content::model::SiteConfig;

/// One step of a page's trail: the home page first, the page itself last.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Crumb {
    pub name: String,
    pub route: String,
}

/// The trail from the home page down to a page, through `steps` (`(name, route)` below home).
pub(crate) fn trail(steps: &[(&str, &str)]) -> Vec<Crumb> {
    std::iter::once(("Strona główna", "/"))
        .chain(steps.iter().copied())
        .map(|(name, route)| Crumb {
            name: name.replace('\u{a0}', " "),
            route: route.to_string(),
        })
        .collect()
}

/// The trail as a `BreadcrumbList`: what the page's visible trail shows, step by step.
pub(crate) fn breadcrumbs(site: &SiteConfig, trail: &[Crumb]) -> Node {
    let items = trail
        .iter()
        .enumerate()
        .map(|(i, c)| ListItem {
            kind: "ListItem",
            item: absolute(site, &c.route),
            name: &c.name,
            position: i + 1,
        })
        .collect();
    Node::of(&BreadcrumbList {
        kind: "BreadcrumbList",
        items,
    })
}

// The nodes every article page has, as types rather than `json!` trees: written straight to
// their text, with their keys in the order `json!` writes them (sorted), so the text is the
// same. At 10,000 articles the trees were a sixth of a clean build's allocations.

#[derive(Serialize)]
struct BreadcrumbList<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "itemListElement")]
    items: Vec<ListItem<'a>>,
}

#[derive(Serialize)]
struct ListItem<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    item: String,
    name: &'a str,
    position: usize,
}

#[derive(Serialize)]
struct Reference<'a> {
    #[serde(rename = "@id")]
    id: &'a str,
}

#[derive(Serialize)]
struct BlogPosting<'a> {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    author: Author<'a>,
    #[serde(rename = "dateModified")]
    date_modified: &'a str,
    #[serde(rename = "datePublished")]
    date_published: &'a str,
    description: String,
    headline: &'a str,
    image: String,
    #[serde(rename = "inLanguage")]
    in_language: &'static str,
    #[serde(rename = "mainEntityOfPage")]
    main_entity_of_page: &'a str,
    publisher: Reference<'a>,
    url: &'a str,
}

#[derive(Serialize)]
struct Author<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    url: String,
    #[serde(rename = "worksFor")]
    works_for: Reference<'a>,
}

/// A node of a page's graph, written as JSON: the practice's, the same on every page of a
/// build, is written once.
#[derive(Debug, Clone)]
pub(crate) struct Node(String);

impl From<Value> for Node {
    fn from(value: Value) -> Self {
        Node(value.to_string())
    }
}

impl Node {
    /// A node of a type that serialises as a JSON object.
    fn of(node: &impl Serialize) -> Node {
        Node(serde_json::to_string(node).unwrap_or_default())
    }
}

/// The nodes of a page as one JSON text safe inside a `<script>` element; empty without nodes.
/// (The text `json!` would write for `{"@context": …, "@graph": [nodes]}`.)
pub(crate) fn script_json(nodes: &[Node]) -> String {
    if nodes.is_empty() {
        return String::new();
    }
    let mut json = String::from(r#"{"@context":"https://schema.org","@graph":["#);
    for (i, node) in nodes.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&node.0);
    }
    json.push_str("]}");
    encoding::script_text(&json)
}

fn business_id(site: &SiteConfig) -> String {
    absolute(site, "/#gabinet")
}

fn refer(id: String) -> Value {
    json!({ "@id": id })
}

/// The practice as a `MedicalBusiness`, in full, with its price list as offers in PLN (for
/// the page that shows the price list).
pub(crate) fn business_with_offers(site: &SiteConfig, collections: &Collections) -> Value {
    let mut business = business(site);
    business["hasOfferCatalog"] = offer_catalog(site, collections);
    business
}

/// The practice as a `MedicalBusiness`, in full.
pub(crate) fn business(site: &SiteConfig) -> Value {
    let hours: Vec<Value> = site
        .opening_hours
        .iter()
        .map(|h| json!({ "@type": "OpeningHoursSpecification", "dayOfWeek": h.days, "opens": h.opens, "closes": h.closes }))
        .collect();
    json!({
        "@type": "MedicalBusiness",
        "@id": business_id(site),
        "name": site.name,
        "description": site.description,
        "url": absolute(site, "/"),
        "image": absolute(site, &format!("/images/{}", site.og_image)),
        "logo": absolute(site, "/favicon.svg"),
        "telephone": site.phone,
        "email": site.email,
        "priceRange": site.price_range,
        "address": {
            "@type": "PostalAddress",
            "streetAddress": site.address.street,
            "postalCode": site.address.postal_code,
            "addressLocality": site.address.city,
            "addressRegion": site.address.region,
            "addressCountry": site.address.country,
        },
        "areaServed": { "@type": "City", "name": site.address.city },
        "hasMap": site.map_url,
        "geo": site.geo.as_ref().map(|g| json!({ "@type": "GeoCoordinates", "latitude": g.latitude, "longitude": g.longitude })),
        "openingHoursSpecification": hours,
        "sameAs": same_as(site),
    })
}

fn offer_catalog(site: &SiteConfig, collections: &Collections) -> Value {
    let offers: Vec<Value> = collections
        .prices
        .iter()
        .map(|p| {
            let mut offer = json!({
                "@type": "Offer",
                "name": p.name,
                "price": p.amount.to_string(),
                "priceCurrency": "PLN",
                "url": absolute(site, &p.href),
                "itemOffered": { "@type": "Service", "name": p.name, "provider": refer(business_id(site)) },
            });
            if p.from {
                offer["priceSpecification"] = json!({
                    "@type": "PriceSpecification",
                    "minPrice": p.amount.to_string(),
                    "priceCurrency": "PLN",
                });
            }
            offer
        })
        .collect();
    json!({ "@type": "OfferCatalog", "name": "Cennik", "itemListElement": offers })
}

fn same_as(site: &SiteConfig) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    let candidates = site
        .social
        .iter()
        .map(|s| s.url.as_str())
        .chain(site.booking.pages());
    for url in candidates {
        if !urls.iter().any(|u| u == url) {
            urls.push(url.to_string());
        }
    }
    urls
}

/// The site itself, on the home page, published by the practice.
pub(crate) fn website(site: &SiteConfig) -> Value {
    json!({
        "@type": "WebSite",
        "@id": absolute(site, "/#strona"),
        "url": absolute(site, "/"),
        "name": site.name,
        "description": site.description,
        "inLanguage": "pl-PL",
        "publisher": refer(business_id(site)),
    })
}

/// The therapists, each at their profile on /o-mnie, employed by the practice.
pub(crate) fn people(site: &SiteConfig, collections: &Collections) -> Vec<Value> {
    collections
        .team
        .iter()
        .map(|t| {
            let url = absolute(site, &format!("/o-mnie#{}", t.slug));
            json!({
                "@type": "Person",
                "@id": url,
                "name": t.name,
                "jobTitle": t.role,
                "image": absolute(site, &t.photo),
                "url": url,
                "worksFor": refer(business_id(site)),
            })
        })
        .collect()
}

/// A service's page: the service, provided by the practice where it is.
pub(crate) fn service(site: &SiteConfig, card: &ServiceCard, description: &str) -> Value {
    let url = absolute(site, &card.href);
    json!({
        "@type": "Service",
        "@id": format!("{url}#usluga"),
        "name": card.page_title,
        "serviceType": card.title,
        "description": description,
        "url": url,
        "image": absolute(site, &card.image),
        "provider": refer(business_id(site)),
        "areaServed": { "@type": "City", "name": site.address.city },
    })
}

/// An article, written by a person working for the practice (whose profile on /o-mnie is the
/// author's page), published by the practice; its dates with their time and zone.
pub(crate) fn blog_posting(site: &SiteConfig, a: &ArticleCard, collections: &Collections) -> Node {
    let profile = collections.team.iter().find(|t| t.name == a.author);
    article_node(site, a, profile.map(|t| t.slug.as_str()))
}

/// [`blog_posting`] of an author whose profile is `/o-mnie#{profile}` (none: `/o-mnie`).
fn article_node(site: &SiteConfig, a: &ArticleCard, profile: Option<&str>) -> Node {
    let url = absolute(site, &a.href);
    let author_url = absolute(
        site,
        &profile.map_or("/o-mnie".to_string(), |slug| format!("/o-mnie#{slug}")),
    );
    let business = business_id(site);
    Node::of(&BlogPosting {
        id: format!("{url}#artykul"),
        kind: "BlogPosting",
        author: Author {
            kind: "Person",
            name: &a.author,
            url: author_url,
            works_for: Reference { id: &business },
        },
        date_modified: &a.published_at,
        date_published: &a.published_at,
        description: a.excerpt.replace('\u{a0}', " "),
        headline: &a.title,
        image: absolute(site, &a.image),
        in_language: "pl-PL",
        main_entity_of_page: &url,
        publisher: Reference { id: &business },
        url: &url,
    })
}

/// The questions and answers of a page's FAQ sections.
pub(crate) fn faq_page(items: &[FaqItem]) -> Value {
    let questions: Vec<Value> = items
        .iter()
        .map(|i| {
            json!({
                "@type": "Question",
                "name": i.question.replace('\u{a0}', " "),
                "acceptedAnswer": { "@type": "Answer", "text": i.answer.replace('\u{a0}', " ") },
            })
        })
        .collect();
    json!({ "@type": "FAQPage", "mainEntity": questions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_its_script_element() {
        assert!(!script_json(&[json!({ "a": "</script>" }).into()]).contains("</script>"));
    }

    #[test]
    fn the_graph_is_the_text_json_writes_for_it() {
        let nodes = [
            json!({ "@type": "Thing", "name": "<b>" }),
            json!({ "b": [1, 2] }),
        ];
        let written: Vec<Node> = nodes.iter().cloned().map(Node::from).collect();
        assert_eq!(
            script_json(&written),
            encoding::script_json(&json!({ "@context": "https://schema.org", "@graph": nodes }))
        );
    }

    fn site() -> SiteConfig {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/site.yaml");
        let text = std::fs::read_to_string(file).expect("site.yaml");
        content::yaml::parse(&text).expect("parses")
    }

    #[test]
    fn typed_nodes_write_the_text_their_json_trees_wrote() {
        let site = site();
        let crumbs = trail(&[("Blog", "/blog"), ("Sen\u{a0}i stres", "/blog/sen")]);
        let items: Vec<Value> = crumbs
            .iter()
            .enumerate()
            .map(|(i, c)| json!({ "@type": "ListItem", "position": i + 1, "name": c.name, "item": absolute(&site, &c.route) }))
            .collect();
        let tree = json!({ "@type": "BreadcrumbList", "itemListElement": items });
        assert_eq!(breadcrumbs(&site, &crumbs).0, tree.to_string());

        let card = ArticleCard {
            slug: "sen".into(),
            title: "Sen i \"stres\" <b>".into(),
            excerpt: "O\u{a0}śnie".into(),
            href: "/blog/sen".into(),
            image: "/images/sen.jpg".into(),
            image_alt: String::new(),
            image_focus: None,
            date: String::new(),
            date_iso: String::new(),
            published_at: "2026-01-05T09:00:00+01:00".into(),
            author: "Magdalena".into(),
        };
        let url = absolute(&site, "/blog/sen");
        let tree = json!({
            "@type": "BlogPosting",
            "@id": format!("{url}#artykul"),
            "headline": card.title,
            "description": "O śnie",
            "datePublished": card.published_at,
            "dateModified": card.published_at,
            "image": absolute(&site, &card.image),
            "url": url,
            "mainEntityOfPage": url,
            "inLanguage": "pl-PL",
            "author": { "@type": "Person", "name": card.author, "url": absolute(&site, "/o-mnie#magdalena"), "worksFor": refer(business_id(&site)) },
            "publisher": refer(business_id(&site)),
        });
        assert_eq!(
            article_node(&site, &card, Some("magdalena")).0,
            tree.to_string()
        );
    }

    #[test]
    fn a_page_without_nodes_has_no_script_text() {
        assert_eq!(script_json(&[]), "");
    }

    #[test]
    fn a_trail_starts_at_home_and_ends_at_the_page() {
        let t = trail(&[
            ("Blog", "/blog"),
            ("Pierwsza\u{a0}wizyta", "/blog/pierwsza-wizyta"),
        ]);
        let names: Vec<&str> = t.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Strona główna", "Blog", "Pierwsza wizyta"]);
        assert_eq!(t[2].route, "/blog/pierwsza-wizyta");
    }
}
