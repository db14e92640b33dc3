//! One file of the built site.

use bytes::Bytes;
use sha2::{Digest, Sha256};

/// A file of the built site: its path relative to the output folder, its bytes, and a
/// fingerprint that is equal for two outputs exactly when their bytes are (a hash of the
/// bytes, or of everything a rendered page was made from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: String,
    pub bytes: Bytes,
    pub fingerprint: [u8; 32],
}

impl Output {
    /// An output fingerprinted by its own bytes.
    pub fn new(path: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        Output {
            path: path.into(),
            fingerprint: Sha256::digest(&bytes).into(),
            bytes,
        }
    }

    pub fn is_page(&self) -> bool {
        self.path.ends_with(".html")
    }
}

/// The file a route is published as: `/` is `index.html`, `/uslugi` is `uslugi/index.html`.
pub fn route_file(route: &str) -> String {
    match route.trim_matches('/') {
        "" => "index.html".to_string(),
        r => format!("{r}/index.html"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_map_to_index_files() {
        assert_eq!(route_file("/"), "index.html");
        assert_eq!(
            route_file("/uslugi/terapia-par"),
            "uslugi/terapia-par/index.html"
        );
    }

    #[test]
    fn equal_bytes_give_equal_fingerprints() {
        assert_eq!(
            Output::new("a", "x").fingerprint,
            Output::new("b", "x").fingerprint
        );
        assert_ne!(
            Output::new("a", "x").fingerprint,
            Output::new("a", "y").fingerprint
        );
    }
}
