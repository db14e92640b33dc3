//! The memo of rendered pages: by output path, the fingerprint of everything the page's
//! template could see, its bytes and the hashes of its inline scripts. A page whose
//! fingerprint is unchanged is taken from here instead of being rendered again: the result
//! is the same bytes a clean build would produce, by construction. The memo only says what
//! a page *is*, never what was published: publishing keeps its own manifest.

use bytes::Bytes;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use crate::output::Output;

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub fingerprint: [u8; 32],
    pub bytes: Bytes,
    pub script_hashes: Arc<BTreeSet<String>>,
}

impl Entry {
    pub(crate) fn output(&self, path: &str) -> Output {
        Output {
            path: path.to_string(),
            bytes: self.bytes.clone(),
            fingerprint: self.fingerprint,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    entries: HashMap<String, Entry>,
}

impl Memo {
    /// The page at `path`, if it was rendered from exactly these inputs.
    pub(crate) fn get(&self, path: &str, fingerprint: &[u8; 32]) -> Option<&Entry> {
        self.entries
            .get(path)
            .filter(|e| &e.fingerprint == fingerprint)
    }

    pub(crate) fn insert(&mut self, path: String, entry: Entry) {
        self.entries.insert(path, entry);
    }

    /// The inline-script hashes of one page.
    pub(crate) fn script_hashes_of(&self, path: &str) -> BTreeSet<String> {
        self.entries
            .get(path)
            .map(|e| e.script_hashes.as_ref().clone())
            .unwrap_or_default()
    }

    /// Every inline-script hash of every page but those in `except`.
    pub(crate) fn script_hashes(&self, except: &[String]) -> BTreeSet<String> {
        let mut all = BTreeSet::new();
        let mut seen: HashSet<*const BTreeSet<String>> = HashSet::new();
        let pages = self.entries.iter().filter(|(p, _)| !except.contains(p));
        for (_, entry) in pages {
            // Most pages share one set; each distinct set is merged once.
            let ptr = Arc::as_ptr(&entry.script_hashes);
            if seen.insert(ptr) {
                all.extend(entry.script_hashes.iter().cloned());
            }
        }
        all
    }
}

/// Shares equal sets of script hashes between pages, so the memo holds each set once.
#[derive(Default)]
pub(crate) struct HashSets {
    known: Vec<Arc<BTreeSet<String>>>,
}

impl HashSets {
    pub(crate) fn intern(&mut self, set: BTreeSet<String>) -> Arc<BTreeSet<String>> {
        if let Some(found) = self.known.iter().find(|k| ***k == set) {
            return Arc::clone(found);
        }
        let arc = Arc::new(set);
        self.known.push(Arc::clone(&arc));
        arc
    }
}
