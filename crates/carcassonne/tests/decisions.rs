//! A tile placed against every place and rotation the drawn tile fits, and a follower against every
//! feature of the tile just placed and none.

use almanac_carcassonne::Carcassonne;
use almanac_core::{read_events, Envelope, Game, Timeline};

fn sample() -> Timeline<Carcassonne> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samples/carcassonne-traders-builders.jsonl"
    ))
    .unwrap();
    let first = text.lines().next().unwrap();
    read_events::<Carcassonne>(Envelope::parse(first).unwrap(), first, &text).unwrap()
}

fn field(line: &str, name: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(line).unwrap()[name].clone()
}

#[test]
fn a_tile_placed_is_weighed_against_every_place_and_rotation_it_fits() {
    let g = sample();
    let placed: Vec<usize> = (0..g.event_count()).filter(|&i| g.event_text(i).contains("place_tile")).collect();
    let mut judged = 0;
    for &i in placed.iter().take(12) {
        let d = g.decision(i).expect("placing a tile is a decision");
        let chosen: Vec<_> = d.alternatives.iter().filter(|a| a.chosen).collect();
        assert_eq!(chosen.len(), 1, "event {i}");
        assert_eq!(chosen[0].line, g.event_text(i));
        let tile = field(&g.event_text(i), "tile");
        let places: std::collections::BTreeSet<String> = d
            .alternatives
            .iter()
            .map(|a| {
                assert_eq!(field(&a.line, "type"), "place_tile", "only the drawn tile may be placed now: {}", a.line);
                assert_eq!(field(&a.line, "tile"), tile, "{}", a.line);
                format!("{} {}", field(&a.line, "at"), field(&a.line, "rotation"))
            })
            .collect();
        assert_eq!(places.len(), d.alternatives.len(), "each place and rotation once");
        judged += usize::from(d.alternatives.len() > 1);
    }
    assert!(judged >= 10, "most placements had a choice: {judged}");
}

#[test]
fn a_follower_is_weighed_against_the_other_features_of_the_tile() {
    let g = sample();
    let i = (0..g.event_count()).find(|&i| g.event_text(i).contains("place_figure")).unwrap();
    let d = g.decision(i).expect("placing a follower is a decision");
    assert!(d.alternatives.iter().any(|a| a.chosen));
    assert!(d.alternatives.len() >= 2, "{:?}", d.alternatives.iter().map(|a| &a.line).collect::<Vec<_>>());
    assert!(d.alternatives.iter().all(|a| a.outcomes.len() == 1));
}
