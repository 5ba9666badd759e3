//! The state as JSON, for `almanac state --json` and the API; `vp` is each player's score.

use crate::state::{State, Step};
use crate::tiles::{catalogue, rotate_halves, rotate_sides, FeatureKind, GOODS, HALVES, SIDES};
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
        .map(|p| {
            let t = &catalogue().tiles[p.tile];
            let features: Vec<Value> = (0..t.features.len()).map(|f| feature_json(p, f)).collect();
            json!({"tile": t.id, "at": [p.at.0, p.at.1], "rotation": p.rotation as u32 * 90, "features": features})
        })
        .collect();
    let mut figures = Vec::new();
    for g in s.groups.iter().flatten() {
        for f in &g.figures {
            let p = &s.placed[f.placed];
            let where_ = feature_json(p, f.feature);
            figures.push(json!({
                "player": s.name(f.player), "figure": f.kind.name(), "feature": g.kind.name(),
                "at": [p.at.0, p.at.1], "location": where_["location"],
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

/// A feature of a placed tile as it lies: kind, location (sides or half-edges, or `I`), pennant, good.
fn feature_json(p: &crate::state::Placed, f: usize) -> Value {
    let feature = &catalogue().tiles[p.tile].features[f];
    let sides = rotate_sides(feature.sides, p.rotation);
    let halves = rotate_halves(feature.halves, p.rotation);
    let side_text: String = (0..4).filter(|i| sides & (1 << i) != 0).map(|i| SIDES[i]).collect();
    let half_text = (0..8).filter(|i| halves & (1 << i) != 0).map(|i| HALVES[i]).collect::<Vec<_>>().join(".");
    match &feature.kind {
        FeatureKind::City { pennants, good } => {
            json!({"kind": "city", "location": side_text, "pennant": *pennants > 0, "good": good.map(|g| GOODS[g])})
        }
        FeatureKind::Road => json!({"kind": "road", "location": side_text}),
        FeatureKind::Monastery => json!({"kind": "monastery", "location": "I"}),
        FeatureKind::Field { .. } => {
            json!({"kind": "field", "location": if halves == 0 { "I".to_string() } else { half_text }})
        }
    }
}
