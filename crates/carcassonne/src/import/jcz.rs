//! JCloisterZone saved games (`.jcz`, 5.x) → almanac/1 `carcassonne`.
//!
//! Players keep their names. `PLACE_TILE` → `place_tile`, `DEPLOY_MEEPLE` → `place_figure`, `COMMIT` →
//! `end_turn`; `PASS` (no figure) writes nothing. The importer follows the game with the ruleset to know
//! whose turn it is (a builder's extra turn part keeps the same player), and ends the game when the pack
//! is used up or when a fixture's `gameAnnotations.endTurn` says so.
//!
//! Every setting of the save is either honoured (as a ruleset option) or refused by name: a game played
//! with figures or rules Almanac does not know would otherwise replay to other scores than it had.

use crate::event::{Event, Location};
use crate::rules;
use crate::state::{FigureKind, GroupKind, State, Step};
use crate::tiles::catalogue;
use almanac_core::Line;
use almanac_core::Ruleset;
use almanac_core::{FormatError, Importer};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;

/// The JCloisterZone importer (`--format jcz`).
pub const JCLOISTERZONE: Importer = Importer {
    name: "jcz",
    label: "JCloisterZone save",
    recognises: |head| {
        head.contains("\"appVersion\"") && head.contains("\"replay\"")
            || head.contains("\"setup\"") && head.contains("\"sets\"")
    },
    to_almanac,
    seen: None,
    read: None,
};

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
    sets: BTreeMap<String, Setting>,
    #[serde(default)]
    elements: BTreeMap<String, Setting>,
    #[serde(default)]
    rules: BTreeMap<String, Setting>,
    #[serde(default)]
    start: Vec<StartTile>,
}

/// A setting's value as JCloisterZone writes it.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum Setting {
    Flag(bool),
    Count(u64),
    Text(String),
    Other(serde_json::Value),
}

impl Setting {
    /// How many of a figure (a flag counts as one), or `None` for a value that is neither.
    fn count(&self) -> Option<u64> {
        match self {
            Setting::Flag(on) => Some(u64::from(*on)),
            Setting::Count(n) => Some(*n),
            _ => None,
        }
    }

    fn shown(&self) -> String {
        match self {
            Setting::Flag(b) => b.to_string(),
            Setting::Count(n) => n.to_string(),
            Setting::Text(t) => format!("\"{t}\""),
            Setting::Other(v) => v.to_string(),
        }
    }
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
    payload: Payload,
    /// The acting player's index (real saves carry it; older fixtures do not).
    #[serde(default)]
    player: Option<u8>,
}

/// Every field of a message payload we read.
#[derive(Deserialize, Default)]
struct Payload {
    #[serde(default, rename = "tileId")]
    tile_id: Option<String>,
    #[serde(default)]
    rotation: Option<String>,
    #[serde(default)]
    position: Option<[i32; 2]>,
    #[serde(default, rename = "meepleId")]
    meeple_id: Option<String>,
    #[serde(default)]
    pointer: Option<Pointer>,
}

#[derive(Deserialize)]
struct Pointer {
    feature: String,
    location: String,
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

/// The ruleset options a save's settings make, or the first setting Almanac cannot honour.
fn options(setup: &Setup) -> Result<serde_json::Value, String> {
    let mut sets = Vec::new();
    for key in setup.sets.keys() {
        match key.split(':').next().unwrap_or("") {
            "basic" => sets.push("basic"),
            "traders-and-builders" => sets.push("traders-and-builders"),
            other => return Err(format!("tile set `{other}` is not supported (basic, traders-and-builders)")),
        }
    }
    let mut followers = 0;
    let (mut farmers, mut goods, mut builder, mut pig) = (false, false, 0, 0);
    for (name, value) in &setup.elements {
        let refuse = || {
            format!(
                "the setting `{name}: {}` cannot be honoured: Almanac plays the base game and Traders & Builders",
                value.shown()
            )
        };
        let n = value.count().ok_or_else(refuse)?;
        match name.as_str() {
            "small-follower" => followers = n,
            "farmers" => farmers = n > 0,
            "traders" => goods = n > 0,
            // How many each player has: the rules hold a player to that many on the board at once.
            "builder" | "pig" if n > 9 => {
                return Err(format!("the setting `{name}: {n}` gives each player no sensible number of {name}s"))
            }
            "builder" => builder = n,
            "pig" => pig = n,
            // Pig herds sit on tiles of sets Almanac does not read, and gardens only matter with the Abbot:
            // with the supported tile sets neither changes a score.
            "pig-herd" | "garden" => {}
            _ if n == 0 => {}
            _ => return Err(refuse()),
        }
    }
    if followers == 0 || followers > 30 {
        return Err(format!(
            "the setting `small-follower: {followers}` gives each player no sensible number of followers"
        ));
    }
    let mut two_tile_city = 4;
    for (name, value) in &setup.rules {
        match (name.as_str(), value) {
            ("tiny-city-scoring", Setting::Text(t)) if t == "2" || t == "4" => two_tile_city = t.parse().unwrap_or(4),
            ("random-seating-order", _) => {} // the save lists the players in the order they played
            _ => {
                return Err(format!(
                    "the rule `{name}: {}` cannot be honoured (Almanac knows tiny-city-scoring)",
                    value.shown()
                ))
            }
        }
    }
    Ok(json!({
        "sets": sets,
        "followers": followers,
        "farmers": farmers,
        "goods": goods,
        "builder": count(builder),
        "pig": count(pig),
        "two_tile_city": two_tile_city,
    }))
}

/// A figure count as the header writes it: `true` or `false` for the rule book's one or none, else the number.
fn count(n: u64) -> serde_json::Value {
    if n <= 1 {
        json!(n == 1)
    } else {
        json!(n)
    }
}

pub fn to_almanac(text: &str) -> Result<String, FormatError> {
    let save: Save = serde_json::from_str(text)
        .map_err(|e| FormatError { line: e.line(), reason: format!("JCloisterZone save: {e}") })?;
    let options = options(&save.setup).map_err(FormatError::whole)?;
    let mut header = json!({
        "format": "almanac/1",
        "ruleset": "carcassonne",
        // A save without a name is titled by its table; the program's game id stays in `source`.
        "title": save.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| {
            almanac_core::table_title(&save.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), None)
        }),
        "source": {"program": "JCloisterZone", "game": save.game_id},
        "players": save.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
        "options": options,
    });
    if let Some(s) = save.setup.start.first() {
        header["start"] = json!({"tile": plain_tile_id(&s.tile), "at": [s.x, s.y], "rotation": s.rotation});
    }
    let mut state = crate::Carcassonne::initial(&header.to_string()).map_err(|e| FormatError::whole(e.0))?;
    let mut out = header.to_string();
    out.push('\n');
    let mut tiles_placed = 0;
    let emit = |ev: Event, state: &mut State, out: &mut String| {
        out.push_str(&ev.write(state));
        out.push('\n');
        // Follow the game to know whose turn it is; a broken record is reported by the engine later.
        let mut next = state.clone();
        if almanac_core::Rules::apply(&mut next, &ev, &mut Vec::new()).is_ok() {
            *state = next;
        }
    };
    for (i, m) in save.replay.iter().enumerate() {
        let err = |reason: String| FormatError::whole(format!("replay message {} ({}): {reason}", i + 1, m.kind));
        // The record's own word on who acts, else whose turn the rules say it is; the engine then checks.
        let p = m.player.filter(|&i| (i as usize) < save.players.len()).unwrap_or(state.active);
        match m.kind.as_str() {
            "PLACE_TILE" => {
                let id = plain_tile_id(m.payload.tile_id.as_deref().ok_or_else(|| err("no tileId".into()))?);
                let tile = catalogue().get(id).ok_or_else(|| err(format!("unknown tile `{id}`")))?;
                let rotation = match m.payload.rotation.as_deref().unwrap_or("R0") {
                    "R0" => 0,
                    "R90" => 1,
                    "R180" => 2,
                    "R270" => 3,
                    other => return Err(err(format!("rotation `{other}`"))),
                };
                let [x, y] = m.payload.position.ok_or_else(|| err("no position".into()))?;
                emit(Event::PlaceTile { player: p, tile, at: (x, y), rotation }, &mut state, &mut out);
                tiles_placed += 1;
            }
            "DEPLOY_MEEPLE" => {
                let id = m.payload.meeple_id.as_deref().unwrap_or("");
                let figure = if id.contains(".builder.") {
                    FigureKind::Builder
                } else if id.contains(".pig.") {
                    FigureKind::Pig
                } else {
                    FigureKind::Follower
                };
                let pointer = m.payload.pointer.as_ref().ok_or_else(|| err("no pointer".into()))?;
                let feature = GroupKind::from_name(&pointer.feature)
                    .ok_or_else(|| err(format!("feature `{}` is not supported", pointer.feature)))?;
                let location = Location::parse(&pointer.location).map_err(err)?;
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
    let between_turns = state.step == Step::Tile;
    let nothing_fits =
        (0..state.supply.len()).filter(|&t| state.supply[t] > 0).all(|t| rules::legal_placements(&state, t).is_empty());
    if between_turns && nothing_fits && !out.ends_with("{\"type\":\"end_game\"}\n") {
        emit(Event::EndGame, &mut state, &mut out);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(elements: serde_json::Value, rules: serde_json::Value) -> Setup {
        serde_json::from_value(json!({"sets": {"basic:1": 1}, "elements": elements, "rules": rules})).unwrap()
    }

    #[test]
    fn figure_counts_and_rules_become_options() {
        let o = options(&setup(
            json!({"small-follower": 5, "farmers": true, "builder": 1, "pig": 1, "traders": true}),
            json!({"tiny-city-scoring": "2"}),
        ))
        .unwrap();
        assert_eq!(o["followers"], 5);
        assert_eq!(
            (o["builder"].as_bool(), o["pig"].as_bool(), o["goods"].as_bool()),
            (Some(true), Some(true), Some(true))
        );
        assert_eq!(o["two_tile_city"], 2);
        let plain = options(&setup(json!({"small-follower": 7}), json!({}))).unwrap();
        assert_eq!((plain["farmers"].as_bool(), plain["builder"].as_bool()), (Some(false), Some(false)));
    }

    #[test]
    fn settings_almanac_cannot_honour_are_refused_by_name() {
        let refused = |elements, rules| options(&setup(elements, rules)).unwrap_err();
        let e = refused(json!({"small-follower": 7, "abbot": 1}), json!({}));
        assert!(e.contains("`abbot: 1` cannot be honoured"), "{e}");
        let e = refused(json!({"small-follower": 7, "big-follower": 1}), json!({}));
        assert!(e.contains("`big-follower: 1` cannot be honoured"), "{e}");
        let two = options(&setup(json!({"small-follower": 7, "builder": 2, "pig": 2}), json!({}))).unwrap();
        assert_eq!((two["builder"].clone(), two["pig"].clone()), (json!(2), json!(2)), "two of each, as counts");
        let e = refused(json!({"small-follower": 7}), json!({"princess-must-remove-knight": true}));
        assert!(e.contains("the rule `princess-must-remove-knight: true` cannot be honoured"), "{e}");
        // An element that is switched off changes nothing.
        assert!(options(&setup(json!({"small-follower": 7, "abbot": 0, "wagon": false}), json!({}))).is_ok());
    }
}
