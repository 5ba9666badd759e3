//! catanatron is the oracle: every game it recorded must replay to its own final VP, awards and production.

use almanac_core::{Cause, Fact};
use almanac_engine::validate;
use almanac_formats::Format;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn resource(name: &str) -> &'static str {
    match name {
        "WOOD" => "lumber",
        "BRICK" => "brick",
        "SHEEP" => "wool",
        "WHEAT" => "grain",
        "ORE" => "ore",
        _ => panic!("resource {name}"),
    }
}

/// Checks one catanatron dump against its own `final` and `summary`; returns a description of the mismatches.
pub fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap();
    let dump: Value = serde_json::from_str(&text).unwrap();
    let log = validate(Some(Format::Catanatron), &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let game = &log.game;
    let state = game.view_after(usize::MAX);
    let mut problems = Vec::new();
    let fin = &dump["final"];
    for p in state["players"].as_array().unwrap() {
        let colour = p["name"].as_str().unwrap();
        let theirs = &fin["players"][colour];
        if p["vp"] != theirs["vp_actual"] || p["vp_public"] != theirs["vp_public"] {
            problems.push(format!(
                "{colour}: vp {}/{} but catanatron {}/{}",
                p["vp"], p["vp_public"], theirs["vp_actual"], theirs["vp_public"]
            ));
        }
        for (r, n) in theirs["hand"].as_object().unwrap() {
            if p["hand"][resource(r)] != *n {
                problems.push(format!("{colour}: hand {r} {} but catanatron {n}", p["hand"][resource(r)]));
            }
        }
    }
    for award in ["longest_road", "largest_army"] {
        if state[award] != fin[award] {
            problems.push(format!("{award}: {} but catanatron {}", state[award], fin[award]));
        }
    }
    if state["winner"] != fin["winner"] {
        problems.push(format!("winner: {} but catanatron {}", state["winner"], fin["winner"]));
    }
    // Production by resource, from facts only.
    let names: Vec<String> =
        state["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
    let mut ours: BTreeMap<(String, String), u64> = BTreeMap::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            if let Fact::Gained { player, item, count, cause: Cause::Production, .. } = f {
                *ours.entry((names[*player as usize].clone(), item.to_string())).or_default() += *count as u64;
            }
        }
    }
    let mut theirs: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (colour, by_res) in dump["summary"]["production_from_rolls"].as_object().unwrap() {
        for (r, n) in by_res.as_object().unwrap() {
            if n.as_u64().unwrap() > 0 {
                theirs.insert((colour.clone(), resource(r).to_string()), n.as_u64().unwrap());
            }
        }
    }
    if ours != theirs {
        problems.push(format!("production differs: ours {ours:?}, catanatron {theirs:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {}", path.display(), problems.join("; ")))
    }
}

/// The committed games, plus every `.json` under the directories in `$CATANATRON_GAMES` (colon-separated),
/// so a freshly generated corpus can be checked the same way.
fn fixtures() -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron")];
    if let Ok(extra) = std::env::var("CATANATRON_GAMES") {
        dirs.extend(extra.split(':').filter(|d| !d.is_empty()).map(PathBuf::from));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".meta.json") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_catanatron_game_replays_to_catanatrons_result() {
    let files = fixtures();
    assert!(files.len() >= 4, "expected the catanatron fixtures in tests/data/catanatron");
    let failures: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    assert!(failures.is_empty(), "{} of {} games differ:\n{}", failures.len(), files.len(), failures.join("\n"));
}
