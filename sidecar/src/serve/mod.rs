//! The live site: builds served from memory (`site`), static files with their headers
//! (`static_files`), the panel's page (`panel`), picture variants made in the background
//! (`variants`), publishing to a CDN (`publishing`), scheduled changes (`scheduler`),
//! `make dev` (`dev`) and going live (`launch`: no example data on a production site).

pub mod compiling;
pub mod dev;
pub mod headers;
pub mod images;
pub mod launch;
pub mod publishing;
pub mod scheduler;
pub mod site;
pub mod static_files;
pub mod variants;
panel! {
    pub mod panel;
}
