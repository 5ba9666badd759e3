//! The content hash that makes the same log one game however its JSON is spelled.
//!
//! Each line is read as JSON and written again in one canonical spelling (object keys sorted, no white
//! space, strings escaped only where JSON requires it), so key order, spaces and `\u` escapes do not make a
//! log a different game. Numbers keep their written form (`1.0` and `1` stay different).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::BTreeMap;

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
    if write_plain(line.as_bytes(), out) {
        return;
    }
    match serde_json::from_str::<Canon>(line) {
        Ok(v) => v.write(out),
        Err(_) => out.extend_from_slice(line.trim().as_bytes()),
    }
}

/// The canonical spelling of `line` written to `out`, if the line is plain JSON, as nearly every stored line
/// is: no white space outside texts, texts without escapes, numbers as integers, each key once in its
/// object. Only the keys need sorting then, which is done on the line's bytes: reading it into values took
/// most of the hash's time. Anything else, JSON or not, gives false (with `out` as it was) and goes the long
/// way.
fn write_plain(line: &[u8], out: &mut Vec<u8>) -> bool {
    let (mut at, before) = (0, out.len());
    let mut entries = Vec::new();
    let mut scratch = Vec::new();
    let done = plain_value(line, &mut at, out, &mut entries, &mut scratch, 0) && at == line.len();
    if !done {
        out.truncate(before);
    }
    done
}

/// An object's entry as `plain_value` reads it: where its key is in the line, and where the entry (key and
/// value, canonical) was written in the output.
type Entry = (std::ops::Range<usize>, std::ops::Range<usize>);

/// Writes the canonical spelling of the plain value at `at` to `out`, moving past it; `entries` and `scratch`
/// are room shared by the objects inside it.
fn plain_value(
    b: &[u8],
    at: &mut usize,
    out: &mut Vec<u8>,
    entries: &mut Vec<Entry>,
    scratch: &mut Vec<u8>,
    depth: u32,
) -> bool {
    // Well within serde_json's own limit of nesting, beyond which a line is not read as JSON at all.
    if depth > 64 {
        return false;
    }
    let start = *at;
    let scalar = match b.get(*at) {
        Some(b'{' | b'[') => None,
        Some(b'"') => Some(plain_text(b, at).is_some()),
        Some(b't') => Some(plain_word(b, at, b"true")),
        Some(b'f') => Some(plain_word(b, at, b"false")),
        Some(b'n') => Some(plain_word(b, at, b"null")),
        Some(b'-' | b'0'..=b'9') => Some(plain_integer(b, at)),
        _ => Some(false),
    };
    if let Some(plain) = scalar {
        if plain {
            out.extend_from_slice(&b[start..*at]);
        }
        return plain;
    }
    let object = b[*at] == b'{';
    let close = if object { b'}' } else { b']' };
    out.push(b[*at]);
    *at += 1;
    if b.get(*at) == Some(&close) {
        *at += 1;
        out.push(close);
        return true;
    }
    let (base, first) = (entries.len(), out.len());
    loop {
        let entry_start = out.len();
        let mut key = 0..0;
        if object {
            let key_start = *at + 1;
            if plain_text(b, at).is_none() || b.get(*at) != Some(&b':') {
                return false;
            }
            key = key_start..*at - 1;
            out.extend_from_slice(&b[key_start - 1..=*at]);
            *at += 1;
        } else if out.len() > first {
            out.push(b',');
        }
        if !plain_value(b, at, out, entries, scratch, depth + 1) {
            return false;
        }
        if object {
            entries.push((key, entry_start..out.len()));
        }
        match b.get(*at) {
            Some(b',') => *at += 1,
            Some(&c) if c == close => {
                *at += 1;
                break;
            }
            _ => return false,
        }
    }
    if object {
        // The entries were written in the line's order, without commas: written again sorted by key (as
        // bytes: texts without escapes compare so, as the sorted map does), with commas.
        let mine = &mut entries[base..];
        mine.sort_unstable_by(|x, y| b[x.0.clone()].cmp(&b[y.0.clone()]));
        if mine.windows(2).any(|w| b[w[0].0.clone()] == b[w[1].0.clone()]) {
            // A key twice keeps its last value: the long way knows which.
            return false;
        }
        scratch.clear();
        scratch.extend_from_slice(&out[first..]);
        out.truncate(first);
        for (i, (_, written)) in mine.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&scratch[written.start - first..written.end - first]);
        }
        entries.truncate(base);
    }
    out.push(close);
    true
}

/// A text without escapes or control characters at `at`: its bytes between the quotes.
fn plain_text<'a>(b: &'a [u8], at: &mut usize) -> Option<&'a [u8]> {
    if b.get(*at) != Some(&b'"') {
        return None;
    }
    let start = *at + 1;
    let len = b.get(start..)?.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
    if b[start + len] != b'"' {
        return None;
    }
    *at = start + len + 1;
    Some(&b[start..start + len])
}

fn plain_word(b: &[u8], at: &mut usize, word: &[u8]) -> bool {
    let found = b.get(*at..*at + word.len()) == Some(word);
    *at += word.len();
    found
}

/// An integer that serde_json reads as one and writes back as it was: no leading zero, not `-0`, no fraction
/// or exponent, within 64 bits.
fn plain_integer(b: &[u8], at: &mut usize) -> bool {
    let negative = b[*at] == b'-';
    let start = *at + negative as usize;
    let digits = &b[start..b[start..].iter().position(|c| !c.is_ascii_digit()).map_or(b.len(), |n| start + n)];
    *at = start + digits.len();
    if digits.is_empty() || (digits[0] == b'0' && (digits.len() > 1 || negative)) {
        return false;
    }
    if matches!(b.get(*at), Some(b'.' | b'e' | b'E')) {
        return false;
    }
    let mut n = 0u64;
    for d in digits {
        match n.checked_mul(10).and_then(|n| n.checked_add((d - b'0') as u64)) {
            Some(next) => n = next,
            None => return false,
        }
    }
    !negative || n <= 1 << 63
}

/// A JSON value read for its canonical spelling: objects kept sorted as they are read, texts borrowed from
/// the line where they have no escapes. (Read as `serde_json::Value`, whose objects keep their order, a
/// line's keys were hashed, sorted and looked up again: a tenth of an import's time.)
enum Canon<'a> {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    Text(Cow<'a, str>),
    Array(Vec<Canon<'a>>),
    Object(BTreeMap<Cow<'a, str>, Canon<'a>>),
}

impl Canon<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        let scalar = "a scalar writes into memory";
        match self {
            Canon::Null => out.extend_from_slice(b"null"),
            Canon::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            // serde_json writes numbers as read and texts with the minimal escapes, as it always did here.
            Canon::Number(n) => serde_json::to_writer(&mut *out, n).expect(scalar),
            Canon::Text(t) => serde_json::to_writer(&mut *out, t.as_ref()).expect(scalar),
            Canon::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            Canon::Object(map) => {
                out.push(b'{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    serde_json::to_writer(&mut *out, k.as_ref()).expect(scalar);
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

/// A text of a line, borrowed when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(Visit)
    }
}

impl<'de> Deserialize<'de> for Canon<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Canon<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Canon<'de>, E> {
                Ok(Canon::Null)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Canon<'de>, E> {
                Ok(Canon::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Canon<'de>, E> {
                Ok(Canon::Number(n.into()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Canon<'de>, E> {
                Ok(Canon::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Canon<'de>, E> {
                // As serde_json's own values read it: a number JSON cannot spell is null.
                Ok(serde_json::Number::from_f64(n).map_or(Canon::Null, Canon::Number))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Canon<'de>, E> {
                Ok(Canon::Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Canon<'de>, E> {
                Ok(Canon::Text(Cow::Owned(s.to_string())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Canon<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Canon::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Canon<'de>, A::Error> {
                // A key written twice keeps its last value, as serde_json's own values do.
                let mut object = BTreeMap::new();
                while let Some((Text(k), v)) = map.next_entry()? {
                    object.insert(k, v);
                }
                Ok(Canon::Object(object))
            }
        }
        d.deserialize_any(Visit)
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

    /// The canonical spelling as first written: read as `serde_json::Value`, keys sorted on writing.
    fn canonical_by_value(line: &str) -> String {
        fn write(v: &serde_json::Value, out: &mut Vec<u8>) {
            match v {
                serde_json::Value::Object(map) => {
                    let mut keys: Vec<&String> = map.keys().collect();
                    keys.sort();
                    out.push(b'{');
                    for (i, k) in keys.into_iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        serde_json::to_writer(&mut *out, k).unwrap();
                        out.push(b':');
                        write(&map[k], out);
                    }
                    out.push(b'}');
                }
                serde_json::Value::Array(items) => {
                    out.push(b'[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        write(item, out);
                    }
                    out.push(b']');
                }
                other => serde_json::to_writer(&mut *out, other).unwrap(),
            }
        }
        let mut out = Vec::new();
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => write(&v, &mut out),
            Err(_) => out.extend_from_slice(line.trim().as_bytes()),
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_line_of_the_samples_is_spelled_as_the_first_implementation_spelled_it() {
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
        let mut lines = 0;
        for entry in std::fs::read_dir(samples).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "jsonl") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    assert_eq!(canonical(line), canonical_by_value(line), "{}: {line}", path.display());
                    lines += 1;
                }
            }
        }
        assert!(lines > 5000, "{lines} lines");
        // What the samples may not hold: a key twice, numbers at the edges, escapes in keys, deep nesting.
        for line in [
            r#"{"a":1,"a":2,"b":{"a":[1,{"c":null}]}}"#,
            r#"{"n":[18446744073709551615,-9223372036854775808,1e400,0.1,1E2,-0.0]}"#,
            r#"{"k\u00e9\n":"v\t","\"q":true,"":false}"#,
            r#"[[[[[[{"z":[]}]]]]]]"#,
            "  7 ",
            "{broken",
        ] {
            assert_eq!(canonical(line), canonical_by_value(line), "{line}");
        }
    }

    /// A line spelled the plain way is spelled exactly as the first implementation spelled it.
    fn check_plain(line: &str) -> bool {
        let mut out = b"before".to_vec();
        let plain = write_plain(line.as_bytes(), &mut out);
        if plain {
            assert_eq!(String::from_utf8(out).unwrap(), format!("before{}", canonical_by_value(line)), "{line}");
        } else {
            assert_eq!(out, b"before", "a line that is not plain writes nothing: {line}");
        }
        plain
    }

    #[test]
    fn a_plain_line_is_spelled_canonically_without_being_read_into_values() {
        for (line, plain) in [
            (r#"{"a":1,"b":{"c":[1,-2,true,false,null,"x é"]},"d":{}}"#, true),
            (r#"{"type":"x","b":{"z":[{"y":1,"x":2}],"a":0},"a":[]}"#, true),
            (r#"{"n":[18446744073709551615,-9223372036854775808,0]}"#, true),
            (r#"[[],{},"",[[[]]]]"#, true),
            (r#"{"a":1,"a":2}"#, false),
            (r#"{"b":1,"c":{"a":1,"a":2}}"#, false),
            (r#"{"a": 1}"#, false),
            (r#" {"a":1}"#, false),
            (r#"{"a":1}x"#, false),
            (r#"{"a":"x"y"}"#, false),
            (r#"{"a\u0062":1}"#, false),
            (r#"{"a":-0}"#, false),
            (r#"{"a":01}"#, false),
            (r#"{"a":1.0}"#, false),
            (r#"{"a":1e2}"#, false),
            (r#"{"a":18446744073709551616}"#, false),
            (r#"{"a":-9223372036854775809}"#, false),
            (r#"{"a":tru}"#, false),
            (r#"{"a":1,}"#, false),
            (r#"{"a"}"#, false),
            ("", false),
        ] {
            assert_eq!(check_plain(line), plain, "{line}");
        }
        // Every line of the samples, and each with a byte dropped or changed, at a few places, to one that JSON
        // gives meaning to: whatever the plain way spells must be spelled as the long way does.
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
        let (mut lines, mut plain) = (0, 0);
        for entry in std::fs::read_dir(samples).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "jsonl") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    lines += 1;
                    plain += check_plain(line) as usize;
                    let places = [1, 7, 13, 29].map(|k| (lines * k) % line.len().max(1));
                    for at in places {
                        if !line.is_char_boundary(at) || !line.is_char_boundary(at + 1) {
                            continue;
                        }
                        for c in ["", " ", "\"", "\\", "-", "0", "9", "e", ".", ",", ":", "{", "}", "[", "]", "a"] {
                            check_plain(&format!("{}{c}{}", &line[..at], &line[at + 1..]));
                        }
                    }
                }
            }
        }
        assert!(plain * 10 > lines * 9, "the samples' lines are nearly all plain: {plain} of {lines}");
    }

    #[test]
    fn nested_objects_are_sorted_and_strings_keep_their_text() {
        assert_eq!(canonical(r#"{"b":{"z":1,"a":"é\"\n"},"a":[]}"#), r#"{"a":[],"b":{"a":"é\"\n","z":1}}"#);
        assert_eq!(canonical("  not json "), "not json");
    }
}
