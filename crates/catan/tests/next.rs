//! What may happen next at a Catan table, by the rulebook: the first settlement on any free corner, its
//! road on an edge touching it, the next settlement two edges away at least (the distance rule), and after
//! a 7 the players holding more than seven cards discarding before the robber moves.

use almanac_catan::Catan;
use almanac_core::next::Open;
use almanac_core::{read_events, Envelope, Game, Timeline};
use serde_json::Value;

fn sample() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-club-game.jsonl")).unwrap()
}

/// The game after the sample's first `n` events.
fn after(n: usize) -> Timeline<Catan> {
    let text = sample();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let (envelope, header) = Envelope::read(lines[0]).unwrap();
    read_events::<Catan>(envelope, header, &lines.join("\n")).unwrap()
}

/// The `at` of each legal place of `kind` in the decision.
fn places(open: &Open, kind: &str) -> Vec<String> {
    let choices = open.choices.iter().find(|c| c.kind == kind).map(|c| c.events.clone()).unwrap_or_default();
    choices
        .iter()
        .map(|c| serde_json::from_str::<Value>(&c.line).unwrap()["at"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn setup_offers_every_free_corner_then_a_road_touching_the_settlement_then_the_distance_rule() {
    let game = after(0);
    let open = game.next();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Ayşe", ["build_settlement"].as_slice()));
    let board = &game.last().board;
    assert_eq!(places(&open[0], "build_settlement").len(), board.vertices.len(), "an empty board: every corner");

    // Ayşe's settlement on 9:S: her road goes on an edge that touches it, and only there.
    let game = after(1);
    let open = game.next();
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Ayşe", ["build_road"].as_slice()));
    let corner = board.vertices.iter().find(|v| v.name == "9:S").unwrap();
    let mut touching: Vec<String> = corner.edges.iter().map(|&e| board.edges[e as usize].name.clone()).collect();
    let mut offered = places(&open[0], "build_road");
    touching.sort();
    offered.sort();
    assert_eq!(offered, touching);

    // Mehmet's first settlement: any corner but hers and its neighbours.
    let game = after(2);
    let open = game.next();
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Mehmet", ["build_settlement"].as_slice()));
    let offered = places(&open[0], "build_settlement");
    assert_eq!(offered.len(), board.vertices.len() - 1 - corner.neighbours.len());
    assert!(!offered.contains(&"9:S".to_string()));
    for &n in &corner.neighbours {
        assert!(
            !offered.contains(&board.vertices[n as usize].name),
            "{} is next to Ayşe's",
            board.vertices[n as usize].name
        );
    }
}

#[test]
fn after_a_seven_those_holding_more_than_seven_discard_and_only_then_the_robber_moves() {
    let text = sample();
    // The event before the sample's first discard is the 7.
    let first = text.lines().position(|l| l.contains(r#""type":"discard""#)).unwrap();
    let game = after(first - 1);
    let open = game.next();
    let discarding: Vec<(&str, &[&str])> = open.iter().map(|o| (o.player.as_str(), o.types.as_slice())).collect();
    assert_eq!(discarding, [("Zeynep", ["discard"].as_slice()), ("Can", ["discard"].as_slice())]);
    // Both discarded: the roller moves the robber, to any hex but the one it stands on.
    let game = after(first + 1);
    let open = game.next();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].types, ["move_robber"]);
    let hexes: std::collections::BTreeSet<u64> = open[0].choices[0]
        .events
        .iter()
        .map(|c| serde_json::from_str::<Value>(&c.line).unwrap()["hex"].as_u64().unwrap())
        .collect();
    assert_eq!(hexes.len(), game.last().board.hexes.len() - 1);
    assert!(!hexes.contains(&(game.last().robber as u64)));
}
