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

/// JSON that is safe inside a `<script>` element: `<` is escaped, so no text can close it.
pub fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

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
