//! Writes a random legal game as an almanac/1 log (the demo sample in `data/samples/` comes from here):
//! `cargo run -p almanac-carcassonne --example carcassonne_sample -- SEED > game.jsonl`

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_carcassonne::Carcassonne;
use almanac_core::Ruleset;
use serde_json::json;

fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let header = json!({
        "format": "almanac/1", "ruleset": "carcassonne",
        "title": "Carcassonne with Traders & Builders", "date": "2026-11-19", "club": "Kadıköy Board Gamers",
        "players": [{"name": "Deniz", "color": "blue"}, {"name": "Ece", "color": "red"}, {"name": "Kerem", "color": "green"}],
        "options": {"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true},
    });
    let (header, events) = support::play_from(seed, header);
    println!("{header}");
    let mut s = Carcassonne::initial(&header).unwrap();
    for e in &events {
        println!("{}", Carcassonne::write_event(&s, e));
        support::apply(&mut s, e).unwrap();
    }
    let scores: Vec<String> =
        s.players.iter().enumerate().map(|(i, p)| format!("{} {}", s.name(i as u8), p.score)).collect();
    eprintln!("{} events; {}", events.len(), scores.join(", "));
}
