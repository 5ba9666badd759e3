//! Properties of random legal games (see `support`): accepted as the omniscient recorder and as a spectator
//! log them, read back as written, cards and markers conserved, the score the markers on the board.

mod support;

use almanac_core::testing;
use almanac_core::Seated;
use almanac_elasund::board::squares;
use almanac_elasund::cards::{GOLD_CARDS, INFLUENCE_CARDS};
use almanac_elasund::state::{State, MARKERS};
use almanac_elasund::Elasund;
use proptest::prelude::*;

fn check_invariants(s: &State) {
    let gold: u32 = s.players.iter().map(|p| p.hand.gold as u32).sum::<u32>() + s.gold as u32;
    assert_eq!(gold, GOLD_CARDS as u32, "gold is conserved");
    let influence: u32 =
        s.players.iter().map(|p| p.hand.influence_total()).sum::<u32>() + s.deck as u32 + s.discards as u32;
    assert_eq!(influence, INFLUENCE_CARDS as u32, "influence cards are conserved");
    for q in s.seats() {
        let p = s.player(q);
        let on_buildings: u32 = s.buildings.iter().flatten().filter(|b| b.owner == q).map(|b| b.markers as u32).sum();
        let on_church = squares().filter(|&sq| s.cell(sq).church.is_some_and(|(_, m)| m == Some(q))).count() as u32;
        let on_track = p.track_marks.iter().filter(|&&m| m).count() as u32;
        let placed = on_buildings + on_church + on_track + p.towers as u32;
        assert_eq!(placed, (MARKERS - p.markers_left) as u32, "every marker off the supply is somewhere");
        assert_eq!(s.vp(q) as u32, placed);
        let permits_on_board = squares().filter(|&sq| s.cell(sq).permit.is_some_and(|(o, _)| o == q)).count();
        let home = p.permits_home.iter().filter(|&&h| h).count();
        assert_eq!(permits_on_board + home, 5, "five permits each");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_games_are_accepted_and_conserve_everything(seed in any::<u64>(), players in 2usize..=4) {
        let g = support::play(seed, players, 3000);
        prop_assert!(g.events.len() > 40);
        let states = testing::replayed::<Elasund, _>(&g.header.to_string(), &g.events);
        for (s, _) in &states {
            check_invariants(s);
        }
        let vp = |s: &State, seat| s.vp(seat);
        prop_assert_eq!(testing::score_facts_add_up::<Elasund>(&g.header.to_string(), &states, vp), Ok(()));
    }

    #[test]
    fn a_spectators_log_of_the_same_game_is_accepted_with_the_same_scores(seed in any::<u64>()) {
        let g = support::play(seed, 4, 3000);
        let truth = testing::replayed::<Elasund, _>(&g.header.to_string(), &g.events);
        let seen = testing::replayed::<Elasund, _>(&g.observer_header.to_string(), &g.observer);
        for ((a, _), (b, _)) in truth.iter().zip(&seen) {
            for p in a.seats() {
                prop_assert_eq!(a.vp(p), b.vp(p));
                prop_assert_eq!(a.player(p).hand.total(), b.player(p).hand.total());
                prop_assert_eq!(a.player(p).hand.gold, b.player(p).hand.gold);
            }
        }
        // One game is one game, in whichever view it was logged.
        prop_assert_eq!(
            almanac_core::testing::fingerprint::<almanac_elasund::Elasund>(&g.header.to_string(), &g.events),
            almanac_core::testing::fingerprint::<almanac_elasund::Elasund>(&g.observer_header.to_string(), &g.observer)
        );
    }
}

#[test]
fn random_games_reach_a_winner_and_use_every_kind_of_event() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut winners = 0;
    for seed in 0..12 {
        let g = support::play(seed, 2 + (seed as usize % 3), 6000);
        let (last, _) = testing::replayed::<Elasund, _>(&g.header.to_string(), &g.events).pop().unwrap();
        winners += last.winner.is_some() as u32;
        for e in &g.events {
            kinds.insert(e.kind());
        }
    }
    assert!(winners >= 6, "only {winners} of 12 random games ended with a winner");
    let missing: Vec<&str> =
        almanac_elasund::event::EVENT_TYPES.iter().copied().filter(|k| !kinds.contains(k)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
