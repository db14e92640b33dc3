//! All YAML parsing lives here, so that the frozen `serde_yaml` can be swapped in one place.

use serde::de::DeserializeOwned;

/// A YAML problem with the 1-based line inside the parsed text, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub line: Option<usize>,
    pub message: String,
}

/// Parses `text` into `T`, keeping the line of the first problem.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        let full = e.to_string();
        // serde_yaml appends " at line L column C"; the caller prints the line itself.
        let message = match full.find(" at line ") {
            Some(i) => full[..i].to_string(),
            None => full,
        };
        YamlError { line, message }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Meta {
        title: String,
    }

    #[test]
    fn unknown_field_reports_its_line() {
        let err = parse::<Meta>("title: a\nauthor: b\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(
            err.message.contains("unknown field `author`"),
            "{}",
            err.message
        );
    }

    #[test]
    fn missing_field_is_named() {
        let err = parse::<Meta>("{}\n").unwrap_err();
        assert!(
            err.message.contains("missing field `title`"),
            "{}",
            err.message
        );
    }
}
