//! The content hash that makes the same log one game however its JSON is spelled.
//!
//! Each line is read as JSON and written again in one canonical spelling (object keys sorted, no white
//! space, strings escaped only where JSON requires it), so key order, spaces and `\u` escapes do not make a
//! log a different game. Numbers keep their written form (`1.0` and `1` stay different).

use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 of the canonical lines (header first, then each event), joined by newlines, as hex.
pub fn content_hash(header_line: &str, event_lines: &[impl AsRef<str>]) -> String {
    let mut h = Sha256::new();
    h.update(canonical(header_line).as_bytes());
    for l in event_lines {
        h.update(b"\n");
        h.update(canonical(l.as_ref()).as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A line in the canonical spelling; a line that is not JSON stays as it is, trimmed.
pub fn canonical(line: &str) -> String {
    match serde_json::from_str::<Value>(line) {
        Ok(v) => {
            let mut out = String::with_capacity(line.len());
            write(&v, &mut out);
            out
        }
        Err(_) => line.trim().to_string(),
    }
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        // Scalars: serde_json writes strings with the minimal escapes and numbers as read.
        other => out.push_str(&other.to_string()),
    }
}

/// The SHA-256 of a text, as hex (a club token is stored as this, never as itself).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_spaces_and_escapes_do_not_change_the_hash() {
        let a = content_hash(r#"{"format":"almanac/1","ruleset":"x"}"#, &[r#"{"type":"roll","dice":[1,2]}"#]);
        let b = content_hash(
            r#"{ "ruleset" : "x", "format": "almanac/1" }"#,
            &[r#"{"dice": [1, 2], "type": "\u0072oll"}"#],
        );
        assert_eq!(a, b);
        let c = content_hash(r#"{"format":"almanac/1","ruleset":"x"}"#, &[r#"{"type":"roll","dice":[2,1]}"#]);
        assert_ne!(a, c, "array order is meaning");
    }

    #[test]
    fn nested_objects_are_sorted_and_strings_keep_their_text() {
        assert_eq!(canonical(r#"{"b":{"z":1,"a":"é\"\n"},"a":[]}"#), r#"{"a":[],"b":{"a":"é\"\n","z":1}}"#);
        assert_eq!(canonical("  not json "), "not json");
    }
}
