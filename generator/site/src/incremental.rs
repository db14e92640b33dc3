//! The memo of rendered pages: by output path, the fingerprint of everything the page's
//! template could see, its bytes and the hashes of its inline scripts. A page whose
//! fingerprint is unchanged is taken from here instead of being rendered again: the result
//! is the same bytes a clean build would produce, by construction. The memo only says what
//! a page *is*, never what was published: publishing keeps its own manifest.

use bytes::Bytes;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use crate::output::Output;
use crate::render::Inputs;

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// What the page was rendered from, and that hashed.
    inputs: Inputs,
    fingerprint: [u8; 32],
    bytes: Bytes,
    script_hashes: Arc<BTreeSet<String>>,
    /// The render that last used it; entries no render used are dropped.
    seen_in: u64,
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

/// The memo is kept across renders and updated in place: a render marks the pages it
/// reuses, adds the ones it rendered, and drops the ones it no longer has.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    entries: HashMap<String, Entry>,
    generation: u64,
}

impl Memo {
    /// Starts a render.
    pub(crate) fn begin(&mut self) {
        self.generation += 1;
    }

    /// The page at `path`, if it was rendered from exactly these inputs; it is kept.
    pub(crate) fn reuse(&mut self, path: &str, inputs: &Inputs) -> Option<&Entry> {
        let generation = self.generation;
        let entry = self.entries.get_mut(path).filter(|e| &e.inputs == inputs)?;
        entry.seen_in = generation;
        Some(entry)
    }

    /// A page rendered now.
    pub(crate) fn insert(
        &mut self,
        path: String,
        inputs: Inputs,
        fingerprint: [u8; 32],
        bytes: Bytes,
        script_hashes: Arc<BTreeSet<String>>,
    ) {
        let entry = Entry {
            inputs,
            fingerprint,
            bytes,
            script_hashes,
            seen_in: self.generation,
        };
        self.entries.insert(path, entry);
    }

    /// Ends a render: pages it did not have are forgotten.
    pub(crate) fn finish(&mut self) {
        let generation = self.generation;
        self.entries.retain(|_, e| e.seen_in == generation);
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
