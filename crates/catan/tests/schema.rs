//! The JSON Schema in `data/schema/catan-1.schema.json` describes the logs the ruleset reads: every line of
//! every `catan` sample validates against it, and it lists exactly the event types the parser knows.

use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn schema() -> Value {
    let path = root().join("data/schema/catan-1.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_catan_sample_line_matches_the_schema() {
    let validator = jsonschema::validator_for(&schema()).expect("a valid schema");
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("data/samples")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        if header["ruleset"] != almanac_catan::vocabulary::ID {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            if let Err(e) = validator.validate(&v) {
                panic!("{}:{}: {e}", path.display(), i + 1);
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} lines checked");
}

#[test]
fn the_schema_rejects_what_the_ruleset_rejects() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    for bad in [
        r#"{"type":"roll","player":"Ana","dice":[1,7]}"#,
        r#"{"type":"build_road","player":"Ana","at":"3:N"}"#,
        r#"{"type":"fly","player":"Ana"}"#,
        r#"{"type":"discard","player":"Ana","cards":{"gold":1}}"#,
    ] {
        assert!(validator.validate(&serde_json::from_str(bad).unwrap()).is_err(), "{bad} passed");
    }
}

#[test]
fn the_schema_lists_exactly_the_event_types_of_the_parser() {
    let s = schema();
    let mut listed: Vec<&str> = s["$defs"]["event"]["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut known: Vec<&str> = almanac_catan::event::EVENT_TYPES.to_vec();
    listed.sort();
    known.sort();
    assert_eq!(listed, known);
}
