//! JCloisterZone is the oracle for Carcassonne: its engine tests state the scores after the last move
//! (`test.assertions`: "<name> has <n> points", "<name> scored <feature> for <n> points").

use almanac_carcassonne::import::jcz::to_almanac;
use almanac_carcassonne::Carcassonne;
use almanac_core::Seated;
use almanac_core::{read_events, Envelope, Fact, Game, Timeline};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn replay(text: &str) -> Result<Timeline<Carcassonne>, String> {
    let log = to_almanac(text).map_err(|e| e.to_string())?;
    let header_line = log.lines().next().unwrap();
    let envelope = Envelope::parse(header_line).map_err(|e| e.to_string())?;
    read_events::<Carcassonne>(envelope, header_line, &log).map_err(|e| e.to_string())
}

/// The final score of each player, by name.
fn scores(game: &Timeline<Carcassonne>) -> Vec<(String, i32)> {
    let s = game.last();
    s.players.iter().enumerate().map(|(i, p)| (s.name(i as u8).to_string(), p.score)).collect()
}

fn check(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let save: Value = serde_json::from_str(&text).unwrap();
    let game = replay(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let s = game.last();
    let mut scored: Vec<(String, String, i32)> = Vec::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            if let Fact::Score { player, reason, delta, .. } = f {
                scored.push((s.name(*player).to_string(), reason.to_string(), *delta));
            }
        }
    }
    let final_scores = scores(&game);
    let mut problems = Vec::new();
    let assertions = save["test"]["assertions"].as_array().unwrap();
    for a in assertions {
        let a = a.as_str().unwrap();
        let words: Vec<&str> = a.split_whitespace().collect();
        match words.as_slice() {
            [name, "has", n, "points"] => {
                let ours = final_scores.iter().find(|(who, _)| who == name).map(|(_, p)| *p);
                if ours != n.parse::<i32>().ok() {
                    problems.push(format!("{a}: we have {ours:?}"));
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

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcloisterzone").join(name)
}

fn fixtures() -> Vec<PathBuf> {
    let dir = fixture("");
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
    let text = std::fs::read_to_string(fixture("field-scoring.jcz")).unwrap();
    let mut save: Value = serde_json::from_str(&text).unwrap();
    save["setup"]["sets"] = serde_json::json!({"basic:2": 1});
    for m in save["replay"].as_array_mut().unwrap() {
        if m["payload"]["tileId"] == "BA/C" {
            m["payload"]["tileId"] = Value::from("BA/CG");
        }
    }
    let plain = replay(&text).unwrap();
    let garden = replay(&save.to_string()).unwrap();
    assert_eq!(scores(&plain), scores(&garden));
}

#[test]
fn a_save_with_a_setting_almanac_cannot_honour_is_refused_whole() {
    let text = std::fs::read_to_string(fixture("wine-scoring.jcz")).unwrap();
    let mut save: Value = serde_json::from_str(&text).unwrap();
    save["setup"]["elements"]["abbot"] = Value::from(1);
    let err = to_almanac(&save.to_string()).unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.reason.contains("`abbot: 1` cannot be honoured"), "{err}");
    // Fewer followers is a setting Almanac honours: it becomes the `followers` option.
    let mut save: Value = serde_json::from_str(&text).unwrap();
    save["setup"]["elements"]["small-follower"] = Value::from(5);
    let log = to_almanac(&save.to_string()).unwrap();
    let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(header["options"]["followers"], 5);
    // So are two pigs and two builders each: counts the rules hold every player to.
    let mut save: Value = serde_json::from_str(&text).unwrap();
    save["setup"]["elements"]["pig"] = Value::from(2);
    save["setup"]["elements"]["builder"] = Value::from(2);
    let log = to_almanac(&save.to_string()).unwrap();
    let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!((header["options"]["pig"].as_u64(), header["options"]["builder"].as_u64()), (Some(2), Some(2)));
    assert!(replays(&log), "the two-pig save replays");
}

/// Whether an almanac/1 log of this ruleset replays to its end.
fn replays(log: &str) -> bool {
    let head = log.lines().next().unwrap();
    let envelope = almanac_core::log::Envelope::parse(head).unwrap();
    almanac_core::timeline::read_events::<almanac_carcassonne::Carcassonne>(envelope, head, log).is_ok()
}

/// A save without a name is titled by its table (the program's game id stays in the source), so that a
/// club's list never reads "game 1" four times.
#[test]
fn an_unnamed_save_is_titled_by_who_played_it() {
    for path in fixtures() {
        let log = to_almanac(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
        let players: Vec<&str> =
            header["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(header["title"], almanac_core::table_title(&players, None), "{}", path.display());
        assert!(!header["title"].as_str().unwrap().contains("game 1"));
        assert_eq!(header["source"]["game"], "1", "{}", path.display());
    }
}
