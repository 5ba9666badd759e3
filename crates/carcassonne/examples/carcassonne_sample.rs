//! Writes a random legal game as an almanac/1 log (the demo sample in `data/samples/` comes from here):
//! `cargo run -p almanac-carcassonne --example carcassonne_sample -- SEED > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_carcassonne::Carcassonne;
use almanac_core::testing::{club_header, sample_program, written};
use almanac_core::Seated;
use serde_json::json;

fn main() {
    sample_program("carcassonne", generated, sample);
}

/// `SEED`: a club's game of three.
fn sample(seed: u64, _: &[String]) -> String {
    let header = json!({
        "format": "almanac/1", "ruleset": "carcassonne",
        "title": "Carcassonne with Traders & Builders", "date": "2026-11-19", "club": "Kadıköy Board Gamers",
        "players": [{"name": "Deniz", "color": "blue"}, {"name": "Ece", "color": "red"}, {"name": "Kerem", "color": "green"}],
        "options": {"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true},
    });
    let (header, events) = support::play_from(seed, header);
    let (text, s) = written::<Carcassonne, _>(&header.to_string(), &events);
    let scores: Vec<String> =
        s.players.iter().enumerate().map(|(i, p)| format!("{} {}", s.name(i as u8), p.score)).collect();
    eprintln!("{} events; {}", events.len(), scores.join(", "));
    text
}

/// A game of a generated corpus: two to five members of the club, with Traders & Builders.
fn generated(seed: u64) -> String {
    let colours = ["blue", "red", "green", "yellow", "black"];
    let options = json!({"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true});
    let header = club_header("carcassonne", seed, 2 + (seed % 4) as usize, &colours, json!({"options": options}));
    let (header, events) = support::play_from(seed, header);
    written::<Carcassonne, _>(&header.to_string(), &events).0
}
