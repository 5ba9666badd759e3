//! Writes a random legal game as an almanac/1 log (the samples in `data/samples/` come from here):
//! `cargo run -p almanac-cities-knights --example cities_knights_sample -- SEED [observer] > game.jsonl`

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_cities_knights::{event, CitiesKnights};
use almanac_core::Ruleset;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let observer = args.get(2).is_some_and(|a| a == "observer");
    let header = json!({
        "format": "almanac/1",
        "ruleset": "cities-knights",
        "title": if observer { "Barbarians at the gate (recorded by a spectator)" } else { "Barbarians at the gate" },
        "date": "2026-11-21",
        "club": "Aarhus Brætspilsklub",
        "location": "Aarhus",
        "players": [
            {"name": "Hanne", "color": "red"}, {"name": "Gitte", "color": "blue"},
            {"name": "CD", "color": "white"}, {"name": "Carsten", "color": "orange"}
        ],
        "board": support::board(),
    });
    let g = support::play_from(seed, header.clone(), 8000);
    let events = if observer { &g.observer } else { &g.events };
    println!("{header}");
    let mut s = CitiesKnights::initial(&header).unwrap();
    for e in events {
        println!("{}", event::write(&s, e));
        almanac_cities_knights::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    eprintln!("{} events, {} turns, winner {:?}", events.len(), s.turn, s.winner.map(|w| s.name(w).to_string()));
}
