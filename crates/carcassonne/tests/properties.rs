//! A random legal player over the full draw (71 base + 24 Traders & Builders tiles after the start
//! tile): every tile is placed or discarded, scores never fall, every follower is home after the final
//! scoring, a follower is home exactly when a fact says it was placed and then returned, and a replay in one
//! pass equals one event by event.

mod support;

use almanac_carcassonne::event::Event;
use almanac_carcassonne::state::FigureKind;
use almanac_carcassonne::Carcassonne;
use almanac_core::{testing, Fact, Ruleset};
use proptest::prelude::*;
use support::{apply, play};

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_games_use_the_whole_pack_and_keep_their_promises(seed in any::<u64>(), players in 2usize..=6) {
        let (header, events) = play(seed, players);
        let placed_or_discarded = events.iter().filter(|e| matches!(e, Event::PlaceTile { .. } | Event::DiscardTile { .. })).count();
        prop_assert_eq!(placed_or_discarded, 95);
        let mut scores = vec![0i32; players];
        // Followers out on the board by the facts: placed (`Built` of a follower) less `Returned`.
        let mut out = vec![0i32; players];
        let steps = testing::replayed::<Carcassonne, _>(&header.to_string(), &events);
        for (e, (s, facts)) in events.iter().zip(&steps) {
            let over = matches!(e, Event::EndGame);
            for f in facts {
                match *f {
                    Fact::Built { player, piece } if piece != "tile" => out[player as usize] += 1,
                    Fact::Returned { player, .. } => {
                        prop_assert!(!over, "the final scoring returns no follower as a fact");
                        out[player as usize] -= 1;
                    }
                    _ => {}
                }
            }
            for (i, p) in s.players.iter().enumerate() {
                prop_assert!(p.score >= scores[i], "a score fell");
                scores[i] = p.score;
                if !over {
                    prop_assert_eq!(7 - p.followers as i32, out[i], "followers home against the facts");
                }
            }
        }
        let s = &steps.last().unwrap().0;
        for p in &s.players {
            prop_assert_eq!(p.followers, 7, "every follower is home after final scoring");
            prop_assert_eq!((p.builders_home, p.pigs_home), (s.options.builder.0, s.options.pig.0), "and every builder and pig");
        }
        prop_assert!(s.supply.iter().all(|&n| n == 0));

        // One pass (a timeline) equals one event at a time, at a random cut.
        let cut = (seed as usize) % (events.len() + 1);
        let (one_pass, by_event) = testing::one_pass_and_event_by_event::<Carcassonne, _>(&header.to_string(), &events, cut);
        prop_assert_eq!(one_pass, by_event);
    }
}

#[test]
fn random_games_use_builders_pigs_and_extra_turn_parts() {
    let (mut builders, mut pigs, mut extra) = (0, 0, 0);
    for seed in 1..11u64 {
        let (header, events) = play(seed * 7919, 2 + (seed as usize % 4));
        let mut s = Carcassonne::initial(&header.to_string()).unwrap();
        for e in &events {
            let before = s.active;
            apply(&mut s, e).unwrap();
            match e {
                Event::PlaceFigure { figure: FigureKind::Builder, .. } => builders += 1,
                Event::PlaceFigure { figure: FigureKind::Pig, .. } => pigs += 1,
                Event::EndTurn { .. } if s.active == before => extra += 1,
                _ => {}
            }
        }
    }
    assert!(builders > 0 && pigs > 0 && extra > 0, "builders {builders}, pigs {pigs}, extra parts {extra}");
}
