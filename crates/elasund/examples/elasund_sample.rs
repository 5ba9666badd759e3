//! Writes a random legal game as an almanac/1 log (the samples in `data/samples/` come from here):
//! `cargo run -p almanac-elasund --example elasund_sample -- SEED PLAYERS [observer] > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_core::testing::{played_on, sample_program, summary, table, written};
use almanac_elasund::Elasund;
use serde_json::json;

fn main() {
    sample_program("elasund", generated, sample);
}

/// `SEED PLAYERS [observer]`: a club's game, or the same game kept by a spectator.
fn sample(seed: u64, words: &[String]) -> String {
    let players: usize = words.first().map_or(4, |n| n.parse().expect("PLAYERS: 2 to 4"));
    let observer = words.get(1).is_some_and(|a| a == "observer");
    let mut header = support::header(players);
    header["title"] = json!(if observer { "The first city (kept by a spectator)" } else { "The first city" });
    header["date"] = json!("2026-11-28");
    header["club"] = json!("Tampereen lautapelikerho");
    header["location"] = json!("Tampere");
    let g = support::play_from(seed, header, 8000);
    let (header, events) = if observer { (&g.observer_header, &g.observer) } else { (&g.header, &g.events) };
    let (text, end) = written::<Elasund, _>(&header.to_string(), events);
    eprintln!("{}", summary::<Elasund>(&end, events.len()));
    text
}

/// A game of a generated corpus: two to four members of the club.
fn generated(seed: u64) -> String {
    let count = 2 + (seed % 3) as usize;
    let mut header = support::header(count);
    for (p, name) in header["players"].as_array_mut().unwrap().iter_mut().zip(table(seed, count)) {
        p["name"] = json!(name);
    }
    header["title"] = json!(format!("Generated game {seed}"));
    header["date"] = json!(played_on(seed));
    header["club"] = json!("Generated club");
    let g = support::play_from(seed, header, 8000);
    written::<Elasund, _>(&g.header.to_string(), &g.events).0
}
