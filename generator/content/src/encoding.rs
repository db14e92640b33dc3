//! Small encodings used across the generator and the sidecar.

use serde_json::Value;

/// Lowercase hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

/// A path made safe for any address: every byte but letters, digits and `-._~/` is
/// percent-encoded, so no space, comma, quote or angle bracket of a file name can end an
/// address inside `srcset` or an attribute.
pub fn url_path(path: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// JSON that is safe inside a `<script>` element: `<` is escaped, so no text can close it.
pub fn script_json(value: &Value) -> String {
    script_text(&value.to_string())
}

/// A JSON text made safe inside a `<script>` element, as [`script_json`] makes it.
pub fn script_text(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_keep_slugs_and_encode_everything_else() {
        assert_eq!(
            url_path("/assets/img/morze-1.800.ab.avif"),
            "/assets/img/morze-1.800.ab.avif"
        );
        assert_eq!(
            url_path("/a\"><script x=`,1 2.png"),
            "/a%22%3E%3Cscript%20x%3D%60%2C1%202.png"
        );
        assert_eq!(url_path("/zażółć"), "/za%C5%BC%C3%B3%C5%82%C4%87");
    }

    #[test]
    fn hex_is_lowercase_and_padded() {
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }

    #[test]
    fn json_cannot_close_its_script_element() {
        let json = script_json(&serde_json::json!({ "a": "</script><script>alert(1)" }));
        assert!(!json.contains("</script>"));
    }
}
