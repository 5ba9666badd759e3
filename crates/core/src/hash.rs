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
    // One buffer for every line: a log is hashed at every upload, and most of the time went to allocations.
    let mut buf = Vec::with_capacity(256);
    write_canonical(header_line, &mut buf);
    h.update(&buf);
    for l in event_lines {
        buf.clear();
        buf.push(b'\n');
        write_canonical(l.as_ref(), &mut buf);
        h.update(&buf);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A line in the canonical spelling; a line that is not JSON stays as it is, trimmed.
pub fn canonical(line: &str) -> String {
    let mut buf = Vec::with_capacity(line.len());
    write_canonical(line, &mut buf);
    String::from_utf8(buf).expect("JSON is written as UTF-8")
}

fn write_canonical(line: &str, out: &mut Vec<u8>) {
    match serde_json::from_str::<Value>(line) {
        Ok(v) => write(&v, out),
        Err(_) => out.extend_from_slice(line.trim().as_bytes()),
    }
}

fn write(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, k).expect("a string writes into memory");
                out.push(b':');
                write(&map[k], out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(item, out);
            }
            out.push(b']');
        }
        // Scalars: serde_json writes strings with the minimal escapes and numbers as read.
        other => serde_json::to_writer(&mut *out, other).expect("a scalar writes into memory"),
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
    fn the_hash_of_a_stored_log_never_changes() {
        // Stored games are found again by this hash: a new spelling of the canonical form would make every
        // game uploaded again a second game. Pinned to what the first implementation computed, on lines with
        // escapes, non-ASCII text, numbers in several spellings, nested objects and a line that is not JSON.
        let header = r#"{"format":"almanac/1","ruleset":"x","title":"Kadıköy \"night\" é\u00e9","players":[{"name":"Ayşe"},{"name":"Bo"}],"n":[1.0,2,-3e2]}"#;
        let events = [
            r#"{ "type" : "roll", "player":"Ayşe", "dice": [3, 4] }"#,
            r#"{"z":{"b":1,"a":[{"y":null,"x":true}]},"type":"\u0074rade","note":"tab\there"}"#,
            "not json at all  ",
        ];
        assert_eq!(content_hash(header, &events), "bc2d6575dd8387c1aea1a71819be69319ff7941705d85ef0f512bf3dc4681f1c");
    }

    #[test]
    fn nested_objects_are_sorted_and_strings_keep_their_text() {
        assert_eq!(canonical(r#"{"b":{"z":1,"a":"é\"\n"},"a":[]}"#), r#"{"a":[],"b":{"a":"é\"\n","z":1}}"#);
        assert_eq!(canonical("  not json "), "not json");
    }
}
