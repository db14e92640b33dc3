//! Images. The rule of an image value lives here: a full address as given, `photo-…` expanded to the
//! stock-photo address, a local file under `content/images/`, and a deterministic stock pick
//! otherwise (which of these a value is, is `content::images`). A local raster image is
//! published in several widths as AVIF, WebP and its own format (`catalog`, `cache`), made by
//! the `imaging` worker in a process of its own (`encode`), and shown with `<picture>`
//! (`picture`).

mod cache;
mod catalog;
mod checks;
mod encode;
mod picture;
mod stand_in;
mod svg;

pub use cache::CACHE_ENV;
pub(crate) use cache::{default_dir as default_cache_dir, Cache};
pub(crate) use catalog::Catalog;
pub(crate) use catalog::Memo;
pub use catalog::{prepare, Encoding, ImageStats};
pub(crate) use checks::check;
pub(crate) use encode::SETTINGS;
pub use encode::{inspect, worker_missing, ImageProblem, Inspected, MAX_PIXELS, MAX_SIDE};

#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub(crate) use picture::{focus_rules, markdown as markdown_picture, preview, PictureFunction};
pub(crate) use stand_in::stand_in;

use content::images::{classify, ImageRef};
use content::model::SiteConfig;

pub(crate) fn stock_url(site: &SiteConfig, id: &str) -> String {
    format!(
        "{}{id}?auto=format&fit=crop&w=1200&q=80",
        site.stock_photo_base
    )
}

/// A stable pick among the fallback images, so two builds of one site are identical.
pub(crate) fn fallback_url(site: &SiteConfig, seed: &str) -> String {
    // FNV-1a: stable across Rust versions, unlike the std hasher.
    let hash = seed.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let count = site.fallback_images.len().max(1) as u64;
    match site.fallback_images.get((hash % count) as usize) {
        Some(id) => resolve(site, id, seed),
        None => String::new(),
    }
}

/// The address a page uses for an image value.
pub(crate) fn resolve(site: &SiteConfig, value: &str, seed: &str) -> String {
    match classify(value) {
        ImageRef::Url(url) => url.to_string(),
        ImageRef::Stock(id) => stock_url(site, id),
        ImageRef::Local(path) => format!("/images/{path}"),
        ImageRef::Missing => fallback_url(site, seed),
    }
}
