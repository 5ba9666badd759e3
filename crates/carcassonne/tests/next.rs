//! What may happen next at a Carcassonne table, by the rulebook: the tile drawn goes next to a tile already
//! placed with every edge matching, then a figure may go on one of that tile's features, then the turn ends.

use almanac_carcassonne::Carcassonne;
use almanac_core::{read_events, Envelope, Game, Timeline};
use serde_json::Value;
use std::collections::BTreeSet;

fn sample() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samples/carcassonne-traders-builders.jsonl"
    ))
    .unwrap()
}

fn after(n: usize) -> Timeline<Carcassonne> {
    let text = sample();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let (envelope, header) = (Envelope::parse(lines[0]).unwrap(), lines[0]);
    read_events::<Carcassonne>(envelope, header, &lines.join("\n")).unwrap()
}

fn places(game: &Timeline<Carcassonne>, kind: &str) -> Vec<Value> {
    let open = game.next();
    let choices = open[0].choices.iter().find(|c| c.kind == kind).map(|c| c.events.clone()).unwrap_or_default();
    choices.iter().map(|c| serde_json::from_str(&c.line).unwrap()).collect()
}

#[test]
fn the_first_tile_goes_beside_the_start_tile_where_its_edges_match() {
    let game = after(0);
    let open = game.next();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].player, "Deniz");
    // Every tile of the pack fits somewhere beside the start tile: none is set aside.
    assert_eq!(open[0].types, ["place_tile", "end_game"]);
    let tiles = places(&game, "place_tile");
    let beside: Vec<Value> = [[0, -1], [1, 0], [0, 1], [-1, 0]].iter().map(|a| serde_json::json!(a)).collect();
    assert!(tiles.iter().all(|t| beside.contains(&t["at"])), "a tile offered away from the start tile");
    // The tile the table drew, where it went: among them; the same tile turned so that its city meets the
    // start tile's road is not.
    let first: Value = serde_json::from_str(sample().lines().nth(1).unwrap()).unwrap();
    let same = |t: &Value| t["tile"] == first["tile"] && t["at"] == first["at"];
    assert!(tiles.iter().any(|t| same(t) && t["rotation"] == first["rotation"]));
    assert!(tiles.iter().filter(|t| same(t)).count() < 4, "every rotation fits: the edges are not checked");
    // Each tile still in the pack is offered; at the start that is every kind of the sets played.
    let kinds: BTreeSet<&str> = tiles.iter().map(|t| t["tile"].as_str().unwrap()).collect();
    assert!(kinds.len() > 20, "{kinds:?}");
}

#[test]
fn after_the_tile_a_figure_may_go_on_its_features_or_the_turn_ends() {
    let game = after(1);
    let open = game.next();
    assert_eq!(open[0].types, ["place_figure", "end_turn"]);
    let figures = places(&game, "place_figure");
    assert!(
        figures.iter().all(|f| f["figure"] == "follower"),
        "no builder or pig before the first follower: {figures:?}"
    );
    let features: BTreeSet<&str> = figures.iter().map(|f| f["feature"].as_str().unwrap()).collect();
    assert!(features.contains("city") && features.contains("road"), "{features:?}");
    // The turn ended: the next player's tile.
    let game = after(2);
    assert_eq!((game.next()[0].player.as_str(), game.next()[0].types[0]), ("Ece", "place_tile"));
}
