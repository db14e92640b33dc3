//! The memo of rendered pages: by output path, the fingerprint of everything the page's
//! template could see, and its bytes (each passed by the publish gate when it was rendered,
//! under the inline scripts its origin allowed then). A page whose
//! fingerprint is unchanged is taken from here instead of being rendered again: the result
//! is the same bytes a clean build would produce, by construction. The memo only says what
//! a page *is*, never what was published: publishing keeps its own manifest.

use bytes::Bytes;

use crate::output::Output;
use crate::render::Inputs;

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// What the page was rendered from, and that hashed.
    inputs: Inputs,
    fingerprint: [u8; 32],
    bytes: Bytes,
    /// The fingerprint of the inline scripts the gate allowed when it passed these bytes.
    gated_with: [u8; 32],
    /// The render that last used it; entries no render used are dropped.
    seen_in: u64,
}

impl Entry {
    pub(crate) fn output(&self, path: String) -> Output {
        Output {
            path,
            bytes: self.bytes.clone(),
            fingerprint: self.fingerprint,
        }
    }
}

/// A page as rendered now: what it was rendered from, that hashed, and its bytes.
pub(crate) struct Rendered {
    pub inputs: Inputs,
    pub fingerprint: [u8; 32],
    pub bytes: Bytes,
}

/// The memo is kept across renders and updated in place: a render marks the pages it
/// reuses, adds the ones it rendered, and drops the ones it no longer has.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    entries: content::maps::FastMap<String, Entry>,
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

    /// Whether the page at `path` was last rendered to exactly `bytes`, which the gate passed
    /// under the same allowed inline scripts (`gated_with`): the gate, a function of the two,
    /// would pass them again.
    pub(crate) fn passed(&self, path: &str, bytes: &[u8], gated_with: &[u8; 32]) -> bool {
        self.entries
            .get(path)
            .is_some_and(|e| &e.gated_with == gated_with && e.bytes.as_ref() == bytes)
    }

    /// Room for the `pages` of a first render at once, instead of growing page by page.
    pub(crate) fn reserve(&mut self, pages: usize) {
        if self.entries.is_empty() {
            self.entries.reserve(pages);
        }
    }

    /// A page rendered now, and passed by the gate under `gated_with`.
    pub(crate) fn insert(&mut self, path: String, page: Rendered, gated_with: [u8; 32]) {
        let Rendered {
            inputs,
            fingerprint,
            bytes,
        } = page;
        let entry = Entry {
            inputs,
            fingerprint,
            bytes,
            gated_with,
            seen_in: self.generation,
        };
        self.entries.insert(path, entry);
    }

    /// Ends a render: pages it did not have are forgotten.
    pub(crate) fn finish(&mut self) {
        let generation = self.generation;
        self.entries.retain(|_, e| e.seen_in == generation);
    }
}
