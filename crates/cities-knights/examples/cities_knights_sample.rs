//! Writes a random legal game as an almanac/1 log (the samples in `data/samples/` come from here):
//! `cargo run -p almanac-cities-knights --example cities_knights_sample -- SEED [observer] > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_cities_knights::CitiesKnights;
use almanac_core::testing::{club_header, sample_program, summary, written};
use serde_json::json;

fn main() {
    sample_program("cities-knights", generated, sample);
}

/// `SEED [observer]`: a club's game, or the same game kept by a spectator.
fn sample(seed: u64, words: &[String]) -> String {
    let observer = words.first().is_some_and(|a| a == "observer");
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
    let (text, end) = written::<CitiesKnights, _>(&header.to_string(), events);
    eprintln!("{}", summary::<CitiesKnights>(&end, events.len()));
    text
}

/// A game of a generated corpus: three or four members of the club.
fn generated(seed: u64) -> String {
    let colours = ["red", "blue", "white", "orange"];
    let header =
        club_header("cities-knights", seed, 3 + (seed % 2) as usize, &colours, json!({"board": support::board()}));
    let g = support::play_from(seed, header.clone(), 8000);
    written::<CitiesKnights, _>(&header.to_string(), &g.events).0
}
