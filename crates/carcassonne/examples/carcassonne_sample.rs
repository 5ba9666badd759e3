//! Writes a random legal game as an almanac/1 log (the demo sample in `data/samples/` comes from here):
//! `cargo run -p almanac-carcassonne --example carcassonne_sample -- SEED > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_carcassonne::Carcassonne;
use almanac_core::testing::{played_on, table, written, Corpus};
use almanac_core::Seated;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if Corpus::write_if_asked(&args, "carcassonne", generated) {
        return;
    }
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let header = json!({
        "format": "almanac/1", "ruleset": "carcassonne",
        "title": "Carcassonne with Traders & Builders", "date": "2026-11-19", "club": "Kadıköy Board Gamers",
        "players": [{"name": "Deniz", "color": "blue"}, {"name": "Ece", "color": "red"}, {"name": "Kerem", "color": "green"}],
        "options": {"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true},
    });
    let (header, events) = support::play_from(seed, header);
    let (text, s) = written::<Carcassonne, _>(&header, &events);
    print!("{text}");
    let scores: Vec<String> =
        s.players.iter().enumerate().map(|(i, p)| format!("{} {}", s.name(i as u8), p.score)).collect();
    eprintln!("{} events; {}", events.len(), scores.join(", "));
}

/// A game of a generated corpus: two to five members of the club, with Traders & Builders.
fn generated(seed: u64) -> String {
    let count = 2 + (seed % 4) as usize;
    let colors = ["blue", "red", "green", "yellow", "black"];
    let players: Vec<_> = table(seed, count).iter().zip(colors).map(|(n, c)| json!({"name": n, "color": c})).collect();
    let header = json!({
        "format": "almanac/1", "ruleset": "carcassonne", "title": format!("Generated game {seed}"),
        "date": played_on(seed), "club": "Generated club", "players": players,
        "options": {"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true},
    });
    let (header, events) = support::play_from(seed, header);
    written::<Carcassonne, _>(&header, &events).0
}
