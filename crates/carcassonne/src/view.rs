//! The state as JSON, for `almanac state --json` and the API; `vp` is each player's score.

use crate::state::{State, Step};
use crate::tiles::{catalogue, GOODS};
use serde_json::{json, Value};

pub fn view(s: &State) -> Value {
    let players: Vec<Value> = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "name": s.name(i as u8),
                "color": s.seating[i].color,
                "vp": p.score,
                "vp_public": p.score,
                "followers_left": p.followers,
                "builder_home": p.builder_home,
                "pig_home": p.pig_home,
                "goods": GOODS.iter().zip(p.goods).map(|(g, n)| (g.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    let tiles: Vec<Value> = s
        .placed
        .iter()
        .map(|p| json!({"tile": catalogue().tiles[p.tile].id, "at": [p.at.0, p.at.1], "rotation": p.rotation as u32 * 90}))
        .collect();
    let mut figures = Vec::new();
    for g in s.groups.iter().flatten() {
        for f in &g.figures {
            let p = &s.placed[f.placed];
            figures.push(json!({
                "player": s.name(f.player), "figure": f.kind.name(), "feature": g.kind.name(),
                "at": [p.at.0, p.at.1], "feature_index": f.feature,
            }));
        }
    }
    let phase = match s.step {
        Step::Tile => "tile",
        Step::Figure { .. } => "figure",
        Step::Over => "over",
    };
    let winner = if s.step == Step::Over {
        let best = s.players.iter().map(|p| p.score).max().unwrap_or(0);
        let top: Vec<usize> = (0..s.players.len()).filter(|&i| s.players[i].score == best).collect();
        (top.len() == 1).then(|| s.name(top[0] as u8).to_string())
    } else {
        None
    };
    json!({
        "ruleset": "carcassonne",
        "turn": s.turn,
        "events": s.events,
        "active": s.name(s.active),
        "phase": phase,
        "winner": winner,
        "players": players,
        "tiles": tiles,
        "figures": figures,
        "tiles_left": s.supply.iter().map(|&n| n as u32).sum::<u32>(),
    })
}
