//! The state as JSON, for `almanac state --json` and the API.

use crate::cards::{DEV_CARDS, RESOURCES};
use crate::state::{Phase, State, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS};
use serde_json::{json, Map, Value};

fn counts(names: &[&str], values: &[u8]) -> Map<String, Value> {
    names.iter().zip(values).map(|(n, v)| (n.to_string(), json!(v))).collect()
}

pub fn view(s: &State) -> Value {
    let name = |seat: Option<u8>| seat.map(|p| json!(s.name(p))).unwrap_or(Value::Null);
    let players: Vec<Value> =
        s.players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let seat = i as u8;
                let mut hand = counts(&RESOURCES, &p.hand.known);
                hand.insert("unknown".into(), json!(p.hand.unknown));
                let mut held = counts(&DEV_CARDS, &p.dev.held);
                held.insert("unknown".into(), json!(p.dev.held_unknown));
                let mut awards = Vec::new();
                if s.longest_road == Some(seat) {
                    awards.push("longest_road");
                }
                if s.largest_army == Some(seat) {
                    awards.push("largest_army");
                }
                let helper = s.helpers.as_ref().and_then(|h| h.held[i]).map(
                    |c| json!({"name": crate::helpers::HELPERS[c.helper], "side": if c.b_side { "B" } else { "A" }}),
                );
                json!({
                    "name": s.name(seat),
                    "helper": helper,
                    "color": s.seating[i].color,
                    "vp": s.vp(seat),
                    "vp_public": s.vp_public(seat),
                    "hand": hand,
                    "cards_in_hand": p.hand.total(),
                    "development": {"held": held, "played": counts(&DEV_CARDS, &p.dev.played)},
                    "knights": p.dev.played[0],
                    "longest_road_length": p.road_length,
                    "awards": awards,
                    "pieces_left": {
                        "roads": MAX_ROADS - p.roads,
                        "settlements": MAX_SETTLEMENTS - p.settlements,
                        "cities": MAX_CITIES - p.cities,
                    },
                })
            })
            .collect();
    let buildings: Vec<Value> = s
        .buildings
        .iter()
        .enumerate()
        .filter_map(|(v, b)| {
            b.map(|b| {
                json!({"at": s.board.vertices[v].name, "owner": s.name(b.owner),
                       "kind": if b.city { "city" } else { "settlement" }})
            })
        })
        .collect();
    let roads: Vec<Value> = s
        .roads
        .iter()
        .enumerate()
        .filter_map(|(e, o)| o.map(|o| json!({"at": s.board.edges[e].name, "owner": s.name(o)})))
        .collect();
    let phase = match s.phase {
        Phase::Setup { .. } => "setup",
        Phase::BeforeRoll => "roll",
        Phase::Discard => "discard",
        Phase::MoveRobber { .. } => "move_robber",
        Phase::Main => "main",
        Phase::SpecialBuilding { .. } => "special_building",
        Phase::Over => "over",
    };
    json!({
        "ruleset": "catan",
        "turn": s.turn,
        "events": s.events,
        "active": s.name(s.active),
        "phase": phase,
        "winner": name(s.winner),
        "players": players,
        "bank": counts(&RESOURCES, &s.bank),
        "development_deck": s.deck_left,
        "robber": s.robber,
        "longest_road": name(s.longest_road),
        "largest_army": name(s.largest_army),
        "buildings": buildings,
        "helpers_on_display": s.helpers.as_ref().map(|h| h.display.iter().map(|&d| crate::helpers::HELPERS[d]).collect::<Vec<_>>()),
        "roads": roads,
    })
}
