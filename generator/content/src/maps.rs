//! The maps a builder keeps from one build to the next.

/// A map with an entry per document, looked up for every document on every build: with a
/// quick hasher (foldhash, seeded per process) instead of SipHash.
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
