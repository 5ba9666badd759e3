//! Writes a random legal game as an almanac/1 log (the samples in `data/samples/` come from here):
//! `cargo run -p almanac-cities-knights --example cities_knights_sample -- SEED [observer] > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_cities_knights::{event, CitiesKnights};
use almanac_core::testing::{played_on, table, Corpus};
use almanac_core::Ruleset;
use almanac_core::Seated;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(corpus) = Corpus::from_args(&args) {
        std::fs::create_dir_all(&corpus.dir).unwrap();
        for seed in corpus.seeds() {
            std::fs::write(corpus.dir.join(format!("cities-knights-{seed:06}.jsonl")), generated(seed)).unwrap();
        }
        return;
    }

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
    let mut s = CitiesKnights::initial(&header.to_string()).unwrap();
    for e in events {
        println!("{}", event::write(&s, e));
        almanac_cities_knights::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    eprintln!("{} events, {} turns, winner {:?}", events.len(), s.turn, s.winner.map(|w| s.name(w).to_string()));
}

/// A game of a generated corpus: three or four members of the club.
fn generated(seed: u64) -> String {
    let names = table(seed, 3 + (seed % 2) as usize);
    let players: Vec<_> =
        names.iter().zip(["red", "blue", "white", "orange"]).map(|(n, c)| json!({"name": n, "color": c})).collect();
    let header = json!({
        "format": "almanac/1", "ruleset": "cities-knights", "title": format!("Generated game {seed}"),
        "date": played_on(seed), "club": "Generated club", "players": players, "board": support::board(),
    });
    let g = support::play_from(seed, header.clone(), 8000);
    let mut s = CitiesKnights::initial(&header.to_string()).unwrap();
    let mut text = format!("{header}\n");
    for e in &g.events {
        text.push_str(&format!("{}\n", event::write(&s, e)));
        almanac_cities_knights::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    text
}
