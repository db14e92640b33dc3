//! What an image value of the content is: a full address, a stock photo's
//! `photo-…` id, a file under `content/images/`, or nothing. The site turns each into an
//! address and a picture; the checks look for the local files.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageRef<'a> {
    Url(&'a str),
    Stock(&'a str),
    /// Path relative to `content/images/`.
    Local(&'a str),
    Missing,
}

pub fn classify(value: &str) -> ImageRef<'_> {
    let value = value.trim();
    if value.is_empty() {
        ImageRef::Missing
    } else if value.starts_with("https://") || value.starts_with("http://") {
        ImageRef::Url(value)
    } else if value.starts_with("photo-") {
        ImageRef::Stock(value)
    } else {
        ImageRef::Local(value.strip_prefix("/images/").unwrap_or(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_each_kind() {
        assert_eq!(
            classify("https://x.pl/a.jpg"),
            ImageRef::Url("https://x.pl/a.jpg")
        );
        assert_eq!(classify("photo-123"), ImageRef::Stock("photo-123"));
        assert_eq!(classify("/images/a.svg"), ImageRef::Local("a.svg"));
        assert_eq!(classify("a.svg"), ImageRef::Local("a.svg"));
        assert_eq!(classify(" "), ImageRef::Missing);
    }
}
