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

/// A made-up reader for this structural test: the open features a seat holds, then its points.
fn held(p: &almanac_core::Position, seat: almanac_core::Seat) -> f64 {
    let f = &p.seats[seat as usize];
    // score, followers at home, city tiles, road tiles, monasteries, fields, field cities, goods
    (f[2] + f[3] + f[4] + f[5]) / 100.0 + f[0] / 10_000.0
}

#[test]
fn a_tile_placed_is_judged_over_the_rest_of_its_turn() {
    let g = sample();
    let positions = g.positions();
    let placed: Vec<usize> = (0..g.event_count()).filter(|&i| g.event_text(i).contains("place_tile")).collect();
    let weighed = g.weigh(&|i| placed.contains(&i), &held);
    assert!(weighed.len() >= placed.len() / 2, "{} of {} placements weighed", weighed.len(), placed.len());
    let (mut beyond, mut could) = (0, 0);
    for w in &weighed {
        let tile = field(&g.event_text(w.event), "tile");
        for a in &w.alternatives {
            assert_eq!(field(&a.line, "type"), "place_tile", "{}", a.line);
            assert_eq!(field(&a.line, "tile"), tile, "only the tile drawn: {}", a.line);
        }
        // Where the player then placed a follower, the placement is worth at least what that follower made of
        // it: the plan looked past the tile to the figure (and the end of the turn).
        if g.event_text(w.event + 1).contains("place_figure") && g.event_text(w.event + 1).contains("follower") {
            could += 1;
            let after_tile = held(&positions[w.event + 1], w.seat);
            beyond += usize::from(w.chosen().unwrap().worth > after_tile);
        }
    }
    assert!(could >= 5 && beyond * 10 >= could * 9, "{beyond} of {could} placements valued past the tile");
}
