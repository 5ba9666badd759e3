//! Properties of random legal games (see `support`): they are accepted as the omniscient recorder and as
//! an observer logs them, read back as written, conserve cards, keep the score equal to the sum of its parts.

mod support;

use almanac_cities_knights::cards::Card;
use almanac_cities_knights::progress::Track;
use almanac_cities_knights::state::{State, BANK_COMMODITIES, BANK_RESOURCES};
use almanac_cities_knights::CitiesKnights;
use almanac_core::testing;
use almanac_core::Seated;
use proptest::prelude::*;

fn check_invariants(s: &State) {
    for c in Card::ALL {
        let held: u32 = s.players.iter().map(|p| p.hand.known[c] as u32).sum();
        let total = if c.is_commodity() { BANK_COMMODITIES } else { BANK_RESOURCES } as u32;
        assert_eq!(held + s.bank[c] as u32, total, "{c} cards are conserved");
    }
    for t in Track::ALL {
        let held: usize = s
            .players
            .iter()
            .map(|p| {
                p.progress.cards.iter().filter(|h| h.track == t).count()
                    + p.shown.iter().filter(|c| c.track() == t).count()
            })
            .sum();
        assert_eq!(held + s.decks[t as usize] as usize, 18, "{} progress cards are conserved", t.colour());
    }
    for (i, p) in s.players.iter().enumerate() {
        let seat = i as u8;
        let metropolises = Track::ALL.iter().filter(|&&t| s.metropolis_holder(t) == Some(seat)).count() as i32;
        let parts = p.settlements as i32
            + 2 * p.cities as i32
            + 2 * metropolises
            + 2 * (s.longest_road == Some(seat)) as i32
            + p.defenders as i32
            + p.shown.len() as i32
            + s.merchant.is_some_and(|(_, o)| o == seat) as i32;
        assert_eq!(s.vp(seat), parts, "the score is the sum of its parts");
        assert!(p.walls <= p.cities, "a wall stands under a city");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_games_are_accepted_and_conserve_everything(seed in any::<u64>(), players in 3usize..=4) {
        let g = support::play(seed, players, 3000);
        prop_assert!(g.events.len() > 40);
        let states = testing::replayed::<CitiesKnights, _>(&g.header.to_string(), &g.events);
        for (s, _) in &states {
            check_invariants(s);
        }
        let vp = |s: &State, seat| s.vp(seat);
        prop_assert_eq!(testing::score_facts_add_up::<CitiesKnights>(&g.header.to_string(), &states, vp), Ok(()));
    }

    #[test]
    fn an_observer_log_of_the_same_game_is_accepted_with_the_same_scores(seed in any::<u64>()) {
        let g = support::play(seed, 4, 3000);
        let truth = testing::replayed::<CitiesKnights, _>(&g.header.to_string(), &g.events);
        let seen = testing::replayed::<CitiesKnights, _>(&g.header.to_string(), &g.observer);
        for ((a, _), (b, _)) in truth.iter().zip(&seen) {
            for p in a.seats() {
                prop_assert_eq!(a.vp(p), b.vp(p));
                prop_assert_eq!(a.players[p as usize].hand.total(), b.players[p as usize].hand.total());
                prop_assert_eq!(a.players[p as usize].progress.len(), b.players[p as usize].progress.len());
            }
        }
        // One game is one game, in whichever view it was logged.
        prop_assert_eq!(
            almanac_core::testing::fingerprint::<almanac_cities_knights::CitiesKnights>(&g.header.to_string(), &g.events),
            almanac_core::testing::fingerprint::<almanac_cities_knights::CitiesKnights>(&g.header.to_string(), &g.observer)
        );
    }
}

#[test]
fn random_games_reach_a_winner_and_use_every_kind_of_event() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut cards = std::collections::BTreeSet::new();
    let mut winners = 0;
    for seed in 0..12 {
        let g = support::play(seed, 4, 6000);
        let (last, _) = testing::replayed::<CitiesKnights, _>(&g.header.to_string(), &g.events).pop().unwrap();
        winners += last.winner.is_some() as u32;
        for e in &g.events {
            kinds.insert(e.kind());
            if let almanac_cities_knights::Event::PlayProgress { play, .. } = e {
                cards.insert(play.card().name());
            }
        }
    }
    assert!(winners >= 6, "only {winners} of 12 random games reached 13 points");
    let missing: Vec<&str> =
        almanac_cities_knights::event::EVENT_TYPES.iter().copied().filter(|k| !kinds.contains(k)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
    assert!(cards.len() >= 15, "only {} kinds of progress cards played: {cards:?}", cards.len());
}
