//! The authenticator's CBOR as values (`cbor4ii`'s): an attestation object, a COSE key. The
//! reader stops 256 levels deep and never reserves room for a length it has not read.

use cbor4ii::core::dec::Decode;
use cbor4ii::core::utils::SliceReader;
pub(super) use cbor4ii::core::Value;

/// The first value in `bytes` (what follows it is left), or why it is not one.
pub(super) fn first_value(bytes: &[u8]) -> Result<Value, String> {
    Value::decode(&mut SliceReader::new(bytes)).map_err(|e| e.to_string())
}

/// The value `label` maps to in `entries`, a map's, when its key is that integer.
pub(super) fn field(entries: &[(Value, Value)], label: i64) -> Option<&Value> {
    entries
        .iter()
        .find(|(k, _)| matches!(k, Value::Integer(i) if *i == i128::from(label)))
        .map(|(_, v)| v)
}

/// `value` in CBOR, as an authenticator would send it (the tests' authenticators).
#[cfg(test)]
pub(super) fn encoded(value: &Value) -> Vec<u8> {
    use cbor4ii::core::enc::Encode;
    let mut out = cbor4ii::core::utils::BufWriter::new(Vec::new());
    value.encode(&mut out).expect("a Vec takes any value");
    out.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_back_and_what_follows_it_is_left() {
        let map = Value::Map(vec![
            (Value::Integer(1), Value::Integer(2)),
            (Value::Integer(-1), Value::Bytes(vec![9; 3])),
            (Value::Text("authData".into()), Value::Bytes(vec![])),
        ]);
        let mut bytes = encoded(&map);
        bytes.push(0xa0); // an empty map after it
        let read = first_value(&bytes).expect("a value");
        assert_eq!(read, map);
        let Value::Map(entries) = read else {
            unreachable!("a map was written")
        };
        assert_eq!(field(&entries, -1), Some(&Value::Bytes(vec![9; 3])));
        assert_eq!(field(&entries, 3), None);
    }

    #[test]
    fn cut_short_or_too_deep_input_is_an_error_not_a_crash() {
        assert!(first_value(&[]).is_err());
        // A byte string that says it holds 2^32 bytes and holds three.
        assert!(first_value(&[0x5a, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]).is_err());
        // 100,000 arrays, one inside the other.
        assert!(first_value(&[0x81; 100_000]).is_err());
    }
}
