//! JCloisterZone saved games (`.jcz`, 5.x) → almanac/1 `carcassonne`.
//!
//! Players keep their names. `PLACE_TILE` → `place_tile`, `DEPLOY_MEEPLE` → `place_figure`, `COMMIT` →
//! `end_turn`; `PASS` (no figure) writes nothing. The importer follows the game with the ruleset to know
//! whose turn it is (a builder's extra turn part keeps the same player), and ends the game when the pack
//! is used up or when a fixture's `gameAnnotations.endTurn` says so. Only the base game and Traders &
//! Builders are read; other elements (`pig-herd`, ...) are ignored.

use crate::FormatError;
use almanac_carcassonne::{event::Event, event::Location, rules, state::FigureKind, state::GroupKind, Carcassonne};
use almanac_core::Ruleset;
use serde::Deserialize;
use serde_json::{json, Map, Value};

#[derive(Deserialize)]
struct Save {
    setup: Setup,
    players: Vec<SavePlayer>,
    replay: Vec<Message>,
    #[serde(default, rename = "gameAnnotations")]
    annotations: Option<Annotations>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default, rename = "gameId")]
    game_id: Option<String>,
}

#[derive(Deserialize)]
struct Setup {
    sets: Map<String, Value>,
    #[serde(default)]
    elements: Map<String, Value>,
    #[serde(default)]
    rules: Map<String, Value>,
    #[serde(default)]
    start: Vec<StartTile>,
}

#[derive(Deserialize)]
struct StartTile {
    tile: String,
    x: i32,
    y: i32,
    #[serde(default)]
    rotation: u32,
}

#[derive(Deserialize)]
struct SavePlayer {
    name: String,
}

#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    payload: Value,
    /// The acting player's index (real saves carry it; older fixtures do not).
    #[serde(default)]
    player: Option<u8>,
}

#[derive(Deserialize)]
struct Annotations {
    #[serde(default, rename = "endTurn")]
    end_turn: Option<usize>,
}

/// The garden copies of the `:2` tile sets are the same tiles for scoring (gardens matter only with the
/// Abbot, which we do not read): their ids map to the plain ones.
fn plain_tile_id(id: &str) -> &str {
    match id {
        "BA/CG" => "BA/C",
        "BA/CFCG" => "BA/CFC.2",
        "BA/CCG" => "BA/CC.2",
        "BA/Cc+G" => "BA/Cc+",
        "BA/CcG" => "BA/Cc.1",
        "BA/CccG" => "BA/Ccc",
        "BA/RFrG" => "BA/RFr",
        "BA/RrG" => "BA/Rr",
        "TB/CcRR.wG" => "TB/CcRR.w",
        "TB/CcR.cG" => "TB/CcR.c",
        other => other,
    }
}

fn whole(reason: String) -> FormatError {
    FormatError { line: 1, reason }
}

pub fn to_almanac(text: &str) -> Result<String, FormatError> {
    let save: Save = serde_json::from_str(text)
        .map_err(|e| FormatError { line: e.line(), reason: format!("JCloisterZone save: {e}") })?;
    let mut sets = Vec::new();
    for key in save.setup.sets.keys() {
        match key.split(':').next().unwrap_or("") {
            "basic" => sets.push("basic"),
            "traders-and-builders" => sets.push("traders-and-builders"),
            other => return Err(whole(format!("tile set `{other}` is not supported (basic, traders-and-builders)"))),
        }
    }
    let el = &save.setup.elements;
    let on = |k: &str| el.get(k).is_some_and(|v| v.as_bool() == Some(true) || v.as_u64().is_some_and(|n| n > 0));
    let two_tile_city = match save.setup.rules.get("tiny-city-scoring").and_then(|v| v.as_str()) {
        Some("2") => 2,
        _ => 4,
    };
    let start = save.setup.start.first();
    let mut header = json!({
        "format": "almanac/1",
        "ruleset": "carcassonne",
        "title": save.name.filter(|n| !n.is_empty()).unwrap_or_else(|| format!("JCloisterZone game {}", save.game_id.unwrap_or_default())),
        "source": {"program": "JCloisterZone"},
        "players": save.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
        "options": {
            "sets": sets,
            "followers": el.get("small-follower").and_then(|v| v.as_u64()).unwrap_or(7),
            "farmers": on("farmers"),
            "goods": on("traders"),
            "builder": on("builder"),
            "pig": on("pig"),
            "two_tile_city": two_tile_city,
        },
    });
    if let Some(s) = start {
        header["start"] = json!({"tile": plain_tile_id(&s.tile), "at": [s.x, s.y], "rotation": s.rotation});
    }
    let mut state = Carcassonne::initial(&header).map_err(|e| whole(e.0))?;
    let mut out = header.to_string();
    out.push('\n');
    let mut tiles_placed = 0;
    let emit = |ev: Event, state: &mut almanac_carcassonne::state::State, out: &mut String| {
        out.push_str(&Carcassonne::write_event(state, &ev));
        out.push('\n');
        // Follow the game to know whose turn it is; a broken record is reported by the engine later.
        let _ = rules::apply(state, &ev, &mut Vec::new());
    };
    for (i, m) in save.replay.iter().enumerate() {
        let err = |reason: String| whole(format!("replay message {} ({}): {reason}", i + 1, m.kind));
        // The record's own word on who acts, else whose turn the rules say it is; the engine then checks.
        let p = m.player.filter(|&i| (i as usize) < save.players.len()).unwrap_or(state.active);
        match m.kind.as_str() {
            "PLACE_TILE" => {
                let id = plain_tile_id(m.payload["tileId"].as_str().ok_or_else(|| err("no tileId".into()))?);
                let tile = almanac_carcassonne::tiles::catalogue()
                    .get(id)
                    .ok_or_else(|| err(format!("unknown tile `{id}`")))?;
                let rotation = match m.payload["rotation"].as_str().unwrap_or("R0") {
                    "R0" => 0,
                    "R90" => 1,
                    "R180" => 2,
                    "R270" => 3,
                    other => return Err(err(format!("rotation `{other}`"))),
                };
                let pos = &m.payload["position"];
                let at = (pos[0].as_i64().unwrap_or(0) as i32, pos[1].as_i64().unwrap_or(0) as i32);
                emit(Event::PlaceTile { player: p, tile, at, rotation }, &mut state, &mut out);
                tiles_placed += 1;
            }
            "DEPLOY_MEEPLE" => {
                let id = m.payload["meepleId"].as_str().unwrap_or("");
                let figure = if id.contains(".builder.") {
                    FigureKind::Builder
                } else if id.contains(".pig.") {
                    FigureKind::Pig
                } else {
                    FigureKind::Follower
                };
                let pointer = &m.payload["pointer"];
                let f = pointer["feature"].as_str().unwrap_or("");
                let feature = GroupKind::from_name(f).ok_or_else(|| err(format!("feature `{f}` is not supported")))?;
                let location = Location::parse(pointer["location"].as_str().unwrap_or("")).map_err(err)?;
                emit(Event::PlaceFigure { player: p, figure, feature, location }, &mut state, &mut out);
            }
            "PASS" => {}
            "COMMIT" => {
                emit(Event::EndTurn { player: p }, &mut state, &mut out);
                let pack_done = save.annotations.as_ref().and_then(|a| a.end_turn).is_some_and(|n| tiles_placed >= n)
                    || state.supply.iter().all(|&n| n == 0);
                if pack_done {
                    emit(Event::EndGame, &mut state, &mut out);
                    break;
                }
            }
            other => {
                return Err(err(format!(
                    "message type `{other}` is not supported (base game and Traders & Builders only)"
                )))
            }
        }
    }
    // A save ends without a word when the game is over: it is over when no tile left fits anywhere
    // (tiles JCloisterZone drew and discarded are not in the save).
    let between_turns = state.step == almanac_carcassonne::state::Step::Tile;
    let nothing_fits =
        (0..state.supply.len()).filter(|&t| state.supply[t] > 0).all(|t| rules::legal_placements(&state, t).is_empty());
    if between_turns && nothing_fits && !out.ends_with("{\"type\":\"end_game\"}\n") {
        emit(Event::EndGame, &mut state, &mut out);
    }
    Ok(out)
}
