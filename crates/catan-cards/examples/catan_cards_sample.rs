//! Writes a random legal game as an almanac/1 log (the demo samples in `data/samples/` come from here):
//! `cargo run -p almanac-catan-cards --example catan_cards_sample -- SEED PLAYERS [observer] > game.jsonl`
//! With `observer`, the log is the one someone away from the table keeps: every card drawn is `unknown`.
//! The samples: `2 2` (two players), `1 4` (four players), `1 3 observer` (three players, observed).
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_catan_cards::CatanCards;
use almanac_core::testing::{played_on, sample_program, summary, table, written};
use almanac_core::Seated;
use serde_json::json;

fn main() {
    sample_program("catan-cards", generated, sample);
}

/// `SEED PLAYERS [observer]`: a club's game, or the same game kept from the next table.
fn sample(seed: u64, words: &[String]) -> String {
    let players: usize = words.first().map_or(4, |n| n.parse().expect("PLAYERS: 2 to 4"));
    let observer = words.get(1).is_some_and(|a| a == "observer");
    let g = support::play(seed, players, 2000);
    let (mut header, events) = if observer { (g.observer_header, g.observer) } else { (g.header, g.events) };
    header["title"] = json!(if observer { "Card game night, kept from the next table" } else { "Card game night" });
    header["date"] = json!("2026-11-27");
    header["club"] = json!("Kadıköy Board Gamers");
    for (p, color) in header["players"].as_array_mut().unwrap().iter_mut().zip(["red", "blue", "orange", "white"]) {
        p["color"] = json!(color);
    }
    let (text, end) = written::<CatanCards, _>(&header.to_string(), &events);
    let scores: Vec<String> = end.seats().map(|p| format!("{} {}", end.name(p), end.vp(p))).collect();
    eprintln!("{}; {}", summary::<CatanCards>(&end, events.len()), scores.join(", "));
    text
}

/// A game of a generated corpus: two members of the club (the card game is for two).
fn generated(seed: u64) -> String {
    let g = support::play(seed, 2, 2000);
    let mut header = g.header.clone();
    // The dealt hands are keyed by name: they move with the names.
    let mut hands = serde_json::Map::new();
    for (p, name) in header["players"].as_array_mut().unwrap().iter_mut().zip(table(seed, 2)) {
        let old = p["name"].as_str().unwrap().to_string();
        hands.insert(name.clone(), g.header["hands"][old.as_str()].clone());
        p["name"] = json!(name);
    }
    header["hands"] = serde_json::Value::Object(hands);
    header["title"] = json!(format!("Generated game {seed}"));
    header["date"] = json!(played_on(seed));
    header["club"] = json!("Generated club");
    written::<CatanCards, _>(&header.to_string(), &g.events).0
}
