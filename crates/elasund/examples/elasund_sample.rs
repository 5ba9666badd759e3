//! Writes a random legal game as an almanac/1 log (the samples in `data/samples/` come from here):
//! `cargo run -p almanac-elasund --example elasund_sample -- SEED PLAYERS [observer] > game.jsonl`

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_core::Ruleset;
use almanac_elasund::{event, Elasund};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let players: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4);
    let observer = args.get(3).is_some_and(|a| a == "observer");
    let mut header = support::header(players);
    header["title"] = json!(if observer { "The first city (kept by a spectator)" } else { "The first city" });
    header["date"] = json!("2026-11-28");
    header["club"] = json!("Tampereen lautapelikerho");
    header["location"] = json!("Tampere");
    let g = support::play_from(seed, header, 8000);
    let (header, events) = if observer { (&g.observer_header, &g.observer) } else { (&g.header, &g.events) };
    println!("{header}");
    let mut s = Elasund::initial(header).unwrap();
    for e in events {
        println!("{}", event::write(&s, e));
        almanac_elasund::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    eprintln!("{} events, {} turns, winner {:?}", events.len(), s.turn, s.winner.map(|w| s.name(w).to_string()));
}
