//! Writes a random legal game as an almanac/1 log (the demo samples in `data/samples/` come from here):
//! `cargo run -p almanac-catan --example sample_game -- SEED [observer] > game.jsonl`

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_catan::{event, Catan};
use almanac_core::Ruleset;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let observer = args.get(2).is_some_and(|a| a == "observer");
    let six = args.get(2).is_some_and(|a| a == "six");
    let board = support::board(if six { 6 } else { 4 });
    let mut header = json!({
        "format": "almanac/1",
        "ruleset": "catan",
        "title": if observer { "Thursday league, table 2 (recorded by a spectator)" } else { "Thursday league, table 2" },
        "date": "2026-11-12",
        "club": "Kadıköy Board Gamers",
        "location": "Istanbul",
        "options": {"vp_target": 10},
        "players": [
            {"name": "Ayşe", "color": "red"}, {"name": "Mehmet", "color": "blue"},
            {"name": "Zeynep", "color": "white"}, {"name": "Can", "color": "orange"}
        ],
        "board": board,
    });
    if six {
        header["title"] = json!("Saturday marathon, six players");
        header["players"] = json!([
            {"name": "Ayşe", "color": "red"}, {"name": "Mehmet", "color": "blue"}, {"name": "Zeynep", "color": "white"},
            {"name": "Can", "color": "orange"}, {"name": "Elif", "color": "green"}, {"name": "Burak", "color": "brown"}
        ]);
    }
    let g = support::play_from(seed, header.clone(), 8000);
    let events = if observer { &g.observer } else { &g.events };
    println!("{}", header);
    let mut s = Catan::initial(&header).unwrap();
    for e in events {
        println!("{}", event::write(&s, e));
        Catan::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    eprintln!("{} events, {} turns, winner {:?}", events.len(), s.turn, s.winner.map(|w| s.name(w).to_string()));
}
