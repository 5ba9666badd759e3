//! JCloisterZone is the oracle for Carcassonne: its engine tests state the scores after the last move
//! (`test.assertions`: "<name> has <n> points", "<name> scored <feature> for <n> points").

use almanac_core::Fact;
use almanac_engine::validate;
use almanac_formats::Format;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn check(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let save: Value = serde_json::from_str(&text).unwrap();
    let log = validate(Some(Format::Jcz), &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let game = &log.game;
    let state = game.view_after(usize::MAX);
    let names: Vec<String> =
        state["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
    let mut scored: Vec<(String, String, i32)> = Vec::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            if let Fact::Score { player, reason, delta, .. } = f {
                scored.push((names[*player as usize].clone(), reason.to_string(), *delta));
            }
        }
    }
    let mut problems = Vec::new();
    let assertions = save["test"]["assertions"].as_array().unwrap();
    for a in assertions {
        let a = a.as_str().unwrap();
        let words: Vec<&str> = a.split_whitespace().collect();
        match words.as_slice() {
            [name, "has", n, "points"] => {
                let p = state["players"].as_array().unwrap().iter().find(|p| p["name"] == *name).unwrap();
                if p["vp"].as_i64() != n.parse::<i64>().ok() {
                    problems.push(format!("{a}: we have {}", p["vp"]));
                }
            }
            [name, "scored", feature, "for", n, "points"] => {
                let n: i32 = n.parse().unwrap();
                if !scored.iter().any(|(who, why, d)| who == name && why == feature && *d == n) {
                    problems.push(format!("{a}: our scores {scored:?}"));
                }
            }
            _ => problems.push(format!("cannot read assertion `{a}`")),
        }
    }
    if problems.is_empty() {
        Ok(assertions.len())
    } else {
        Err(format!("{}: {}", path.display(), problems.join("; ")))
    }
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcloisterzone");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn every_jcloisterzone_game_ends_with_its_stated_scores() {
    let files = fixtures();
    assert_eq!(files.len(), 5);
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        match check(f) {
            Ok(n) => checked += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 15, "only {checked} assertions checked");
}

#[test]
fn garden_copies_of_the_second_edition_score_like_the_plain_tiles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcloisterzone/field-scoring.jcz");
    let mut save: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    save["setup"]["sets"] = serde_json::json!({"basic:2": 1});
    for m in save["replay"].as_array_mut().unwrap() {
        if m["payload"]["tileId"] == "BA/C" {
            m["payload"]["tileId"] = Value::from("BA/CG");
        }
    }
    let plain = validate(Some(Format::Jcz), &std::fs::read_to_string(&path).unwrap()).unwrap();
    let garden = validate(Some(Format::Jcz), &save.to_string()).unwrap();
    assert_eq!(plain.game.view_after(usize::MAX)["players"], garden.game.view_after(usize::MAX)["players"]);
}
