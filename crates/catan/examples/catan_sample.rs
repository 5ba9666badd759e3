//! Writes a random legal game as an almanac/1 log (the demo samples in `data/samples/` come from here):
//! `cargo run -p almanac-catan --example catan_sample -- SEED [observer] > game.jsonl`
//! `... -- corpus N DIR [FIRST]` writes N games from seed FIRST, a file each, players drawn from a club of 300.

#[path = "../tests/support/mod.rs"]
mod support;

use almanac_catan::Catan;
use almanac_core::testing::{club_header, sample_program, summary, written};
use almanac_core::Ruleset;
use serde_json::json;

fn main() {
    sample_program("catan", generated, sample);
}

/// `SEED [observer | six | helpers]`: a club's game, kept by a spectator, of six, or with the Helpers.
fn sample(seed: u64, words: &[String]) -> String {
    let word = words.first().map(String::as_str);
    let (observer, six, with_helpers) = (word == Some("observer"), word == Some("six"), word == Some("helpers"));
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
    if with_helpers {
        header["title"] = json!("Helpers of Catan night");
        header["helpers"] = json!({"stack": ["Nassir", "Jean", "Lin", "Hilde", "Louis", "William"]});
    }
    // With helpers: the first game from `seed` on in which every helper is used on both sides.
    let mut seed = seed;
    let g = loop {
        let g = support::play_from(seed, header.clone(), 8000);
        if !with_helpers || every_helper_on_both_sides(&header, &g.events) {
            break g;
        }
        seed += 1;
    };
    eprintln!("seed {seed}");
    let events = if observer { &g.observer } else { &g.events };
    let (text, end) = written::<Catan, _>(&header.to_string(), events);
    eprintln!("{}", summary::<Catan>(&end, events.len()));
    text
}

fn every_helper_on_both_sides(header: &serde_json::Value, events: &[almanac_catan::Event]) -> bool {
    let mut used = [[false; 2]; 10];
    let mut s = Catan::initial(&header.to_string()).unwrap();
    for e in events {
        if let almanac_catan::Event::UseHelper(u) = e {
            let side = s.helpers.as_ref().unwrap().held[u.player as usize].unwrap().b_side;
            used[u.helper][side as usize] = true;
        }
        almanac_catan::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
    }
    used.iter().all(|s| s[0] && s[1]) && s.winner.is_some()
}

/// A game of a generated corpus: three or four members of the club on the base game's board.
fn generated(seed: u64) -> String {
    let colours = ["red", "blue", "white", "orange"];
    let header = club_header("catan", seed, 3 + (seed % 2) as usize, &colours, json!({"board": support::board(4)}));
    let g = support::play_from(seed, header.clone(), 8000);
    written::<Catan, _>(&header.to_string(), &g.events).0
}
