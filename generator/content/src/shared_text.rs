//! Text shared instead of copied: a document's body and its sections' contents are stretches of
//! the one text read from its file. At 10,000 articles the sections' copies of their bodies were
//! a sixth of a clean build's memory.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A stretch of a text that others may share; it reads, compares and serialises as a string.
#[derive(Clone)]
pub struct SharedText {
    whole: Arc<str>,
    range: Range<usize>,
}

impl SharedText {
    pub fn as_str(&self) -> &str {
        &self.whole[self.range.clone()]
    }

    /// `part` as a stretch of this text when it is one (a slice of it, as `str`'s methods give),
    /// else as a text of its own.
    pub fn stretch(&self, part: &str) -> SharedText {
        let text = self.as_str();
        let start = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        match start.checked_add(part.len()) {
            Some(end) if end <= text.len() => SharedText {
                whole: Arc::clone(&self.whole),
                range: self.range.start + start..self.range.start + end,
            },
            _ => SharedText::from(part),
        }
    }
}

impl Default for SharedText {
    fn default() -> Self {
        SharedText::from("")
    }
}

impl From<&str> for SharedText {
    fn from(text: &str) -> Self {
        SharedText {
            range: 0..text.len(),
            whole: Arc::from(text),
        }
    }
}

impl From<String> for SharedText {
    fn from(text: String) -> Self {
        SharedText {
            range: 0..text.len(),
            whole: Arc::from(text),
        }
    }
}

impl Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SharedText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for SharedText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SharedText {}

impl PartialEq<str> for SharedText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SharedText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SharedText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(SharedText::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_of_the_text_is_shared_and_reads_as_itself() {
        let body = SharedText::from("# Tytuł\n\nAkapit.\n".to_string());
        let part = body.stretch(body.trim_end().split_once("\n\n").map_or("", |(_, p)| p));
        assert_eq!(part, "Akapit.");
        assert!(Arc::ptr_eq(&part.whole, &body.whole));
        let inner = part.stretch(&part[1..3]);
        assert_eq!(inner, "ka");
        assert!(Arc::ptr_eq(&inner.whole, &body.whole));
    }

    #[test]
    fn a_text_from_elsewhere_is_its_own() {
        let body = SharedText::from("abc");
        let other = String::from("abc");
        let copy = body.stretch(&other);
        assert_eq!(copy, "abc");
        assert!(!Arc::ptr_eq(&copy.whole, &body.whole));
    }

    #[test]
    fn it_is_written_and_read_as_a_string() {
        let text = SharedText::from("zdanie \"w cudzysłowie\"");
        let json = serde_json::to_string(&text).expect("serialises");
        assert_eq!(json, r#""zdanie \"w cudzysłowie\"""#);
        let back: SharedText = serde_json::from_str(&json).expect("deserialises");
        assert_eq!(back, text);
    }
}
