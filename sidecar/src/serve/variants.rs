//! Photographs' variants (AVIF, WebP, the widths of `<picture>`) are encoded here, on a
//! thread of their own, never under the build lock: a build shows a photograph whose
//! variants are missing as it is and names it ([`site::Build::pending_images`]); this
//! worker encodes them into the image cache, then builds again, and the pages get their
//! `<picture>`. A save, an upload or a start never waits for a photograph.

use actix_web::web;
use std::time::{Duration, Instant};

use crate::serve::site::SiteState;

/// Starts the worker: encodes what builds leave, then builds again, until
/// [`crate::serve::images::Pending::close`].
pub fn spawn(site: web::Data<SiteState>) {
    let started = std::thread::Builder::new()
        .name("image-variants".into())
        .spawn(move || {
            while let Some(images) = site.images.take() {
                if !wait_for_worker(&site) {
                    site.images.done(&images, &[]);
                    break;
                }
                encode(&site, &images);
                // The rebuild finds the variants in the cache; a photograph added meanwhile is
                // named by it and waits for the next round. One this round encoded and the
                // rebuild still names was not kept.
                let named = match site.rebuild() {
                    Ok(published) => published.pending_images,
                    Err(e) => {
                        tracing::error!(error = %e, "the site does not build after encoding images");
                        Vec::new()
                    }
                };
                let unkept: Vec<String> =
                    images.iter().filter(|i| named.contains(i)).cloned().collect();
                site.images.done(&images, &unkept);
            }
        });
    if let Err(e) = started {
        tracing::error!(error = %e, "the image worker could not start: photographs stay as they are");
    }
}

/// Waits until the image worker is there and starts: a first `make run` compiles it after the
/// sidecar started, and serves the photographs as they are meanwhile. A worker that is there
/// but does not start yet (still being written) is waited for too, not taken for a broken one.
/// False once the site goes away.
fn wait_for_worker(site: &SiteState) -> bool {
    let mut said: Option<String> = None;
    while let Some(why) = site::images::worker_missing() {
        if said.is_none() {
            tracing::warn!(
                "photographs are shown as they are until the image worker is there: {why}"
            );
        } else if said.as_deref() != Some(why.as_str()) {
            tracing::info!("the image worker is not ready yet: {why}");
        }
        said = Some(why);
        if site.images.closed_within(Duration::from_secs(1)) {
            return false;
        }
    }
    if said.is_some() {
        tracing::info!("the image worker is there: encoding the photographs' variants");
    }
    true
}

fn encode(site: &SiteState, images: &[String]) {
    let project = &site.project;
    let started = Instant::now();
    let encoded = site::images::prepare(
        &project.content_dir.join("images"),
        &project.image_cache,
        images,
        &|done, total| tracing::info!("images: {done}/{total} encoded"),
    );
    tracing::info!(
        images = images.len(),
        variants = encoded,
        ms = started.elapsed().as_millis() as u64,
        "image variants encoded"
    );
}
