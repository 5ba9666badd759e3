//! The JSON Schema in `data/schema/` describes the logs the engine reads: every line of every sample
//! validates against it, and it lists exactly the event types the parser knows.

use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn schema() -> Value {
    schema_of("catan")
}

fn schema_of(ruleset: &str) -> Value {
    let path = root().join(format!("data/schema/{ruleset}-1.schema.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_sample_line_matches_the_schema_of_its_ruleset() {
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("data/samples")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let validator =
            jsonschema::validator_for(&schema_of(header["ruleset"].as_str().unwrap())).expect("a valid schema");
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
fn the_schema_rejects_what_the_engine_rejects() {
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
    let mut listed: Vec<String> = s["$defs"]["event"]["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut known: Vec<String> = almanac_catan::event::EVENT_TYPES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    known.sort();
    assert_eq!(listed, known);
    let carc = schema_of("carcassonne");
    let mut listed: Vec<&str> = carc["$defs"]["event"]["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut known: Vec<&str> = almanac_carcassonne::event::EVENT_TYPES.to_vec();
    listed.sort();
    known.sort();
    assert_eq!(listed, known);
}
