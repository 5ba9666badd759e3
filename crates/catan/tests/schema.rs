//! The JSON Schema `data/schema/catan-1.schema.json` refuses what the ruleset refuses. (Every sample line
//! and the list of event types are checked against it in `crates/engine/tests/schema.rs`.)

use serde_json::Value;

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/schema/catan-1.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
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
