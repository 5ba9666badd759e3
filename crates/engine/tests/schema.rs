//! The JSON Schemas in `data/schema/` describe the logs the games read: every registered game has one, it
//! lists exactly the event types the game reads, and every line of every game's sample validates against
//! the schema of its ruleset.

use almanac_engine::GAMES;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema_of(ruleset: &str) -> Value {
    let path = root().join(format!("data/schema/{ruleset}-1.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_sample_line_matches_the_schema_of_its_ruleset() {
    let mut checked = 0;
    let mut rulesets = std::collections::BTreeSet::new();
    for path in almanac_core::testing::every_sample() {
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let ruleset = header["ruleset"].as_str().unwrap().to_string();
        let validator = jsonschema::validator_for(&schema_of(&ruleset)).expect("a valid schema");
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            if let Err(e) = validator.validate(&v) {
                panic!("{}:{}: {e}", path.display(), i + 1);
            }
            checked += 1;
        }
        rulesets.insert(ruleset);
    }
    assert!(checked > 1000, "only {checked} lines checked");
    for g in GAMES {
        assert!(rulesets.contains(g.id()), "no sample of {}", g.id());
    }
}

#[test]
fn each_schema_lists_exactly_the_event_types_of_its_game() {
    for g in GAMES {
        let schema = schema_of(g.id());
        jsonschema::validator_for(&schema).expect("a valid schema");
        let mut listed: Vec<&str> = schema["$defs"]["event"]["properties"]["type"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut known = g.event_types().to_vec();
        listed.sort();
        known.sort();
        assert_eq!(listed, known, "{}", g.id());
    }
}

#[test]
fn every_schema_takes_a_withdrawal_and_refuses_a_malformed_one() {
    let good = serde_json::json!({"type": "withdraw", "seq": 3});
    let timed = serde_json::json!({"type": "withdraw", "seq": 3, "time": "2026-12-03T19:04:11.250+03:00"});
    let bad = [
        serde_json::json!({"type": "withdraw"}),
        serde_json::json!({"type": "withdraw", "seq": 0}),
        serde_json::json!({"type": "withdraw", "seq": 3, "player": "Ayşe"}),
        serde_json::json!({"type": "withdraw", "seq": 3, "time": "yesterday"}),
    ];
    for g in GAMES {
        let validator = jsonschema::validator_for(&schema_of(g.id())).expect("a valid schema");
        assert!(validator.is_valid(&good), "{}", g.id());
        assert!(validator.is_valid(&timed), "{}", g.id());
        for line in &bad {
            assert!(!validator.is_valid(line), "{}: {line}", g.id());
        }
    }
}
