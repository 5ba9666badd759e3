//! Properties of random legal games (see `support`) for 2 to 4 players: they are accepted, keep their
//! promises (cards conserved against the declared decks, VP the sum of its parts and of the score facts),
//! replay the same in one pass or event by event, read back as written, and are accepted as an observer away
//! from the table logs them.

mod support;

use almanac_catan::resources::Resource;
use almanac_catan_cards::cards::Card;
use almanac_catan_cards::{CatanCards, Event, State};
use almanac_core::{testing, Fact};
use proptest::prelude::*;

/// The game replayed, each event written and read back on the way (`testing::replayed`).
fn replay(header: &serde_json::Value, events: &[Event]) -> Vec<(State, Vec<Fact>)> {
    testing::replayed::<CatanCards, _>(&header.to_string(), events)
}

fn check_invariants(s: &State) {
    let declared = s.decks.resources.expect("the generated games declare their decks");
    for r in Resource::ALL {
        let held: u32 = s.players.iter().map(|p| p.hand.known[r] as u32).sum();
        assert!(held <= declared[r] as u32, "more {r} in hands than in the deck");
    }
    for (i, p) in s.players.iter().enumerate() {
        let seat = i as u8;
        let parts = p.settlements as i32
            + 2 * p.cities as i32
            + 3 * p.metropolises as i32
            + 2 * (s.longest_road == Some(seat)) as i32
            + 2 * (s.largest_army == Some(seat)) as i32;
        assert_eq!(s.vp(seat), parts, "VP is the sum of its parts");
        assert!(p.roads >= 1, "the starting road stays");
    }
    assert!(s.row.len() <= 5);
    assert_eq!(s.metropolises_left as u32 + s.players.iter().map(|p| p.metropolises as u32).sum::<u32>(), 4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_games_are_accepted_and_keep_their_promises(seed in any::<u64>(), players in 2usize..=4) {
        let g = support::play(seed, players, 2000);
        prop_assert!(g.events.len() > 20);
        let states = replay(&g.header, &g.events);
        for (s, _) in &states {
            check_invariants(s);
        }
        let vp = |s: &State, seat| s.vp(seat);
        prop_assert_eq!(testing::score_facts_add_up::<CatanCards>(&g.header.to_string(), &states, vp), Ok(()));
        let last = &states.last().unwrap().0;
        if let Some(w) = last.winner {
            prop_assert!(last.vp(w) >= 7, "the winner has 7 VP");
        }
    }

    #[test]
    fn one_pass_equals_event_by_event(seed in any::<u64>(), players in 2usize..=4, cut in 0usize..2000) {
        let g = support::play(seed, players, 600);
        let n = cut % (g.events.len() + 1);
        let (one_pass, by_event) = testing::one_pass_and_event_by_event::<CatanCards, _>(&g.header.to_string(), &g.events, n);
        prop_assert_eq!(one_pass, by_event);
    }

    #[test]
    fn an_observer_log_is_accepted_with_the_same_counts_and_points(seed in any::<u64>(), players in 2usize..=4) {
        let g = support::play(seed, players, 1500);
        let truth = replay(&g.header, &g.events);
        let seen = replay(&g.observer_header, &g.observer);
        for (i, ((t, _), (o, _))) in truth.iter().zip(&seen).enumerate() {
            for p in 0..players {
                prop_assert_eq!(t.players[p].hand.total(), o.players[p].hand.total(), "cards in hand after event {}", i);
                for r in Resource::ALL {
                    prop_assert!(o.players[p].hand.known[r] <= t.players[p].hand.known[r], "known cards are a lower bound");
                }
                prop_assert_eq!(t.vp(p as u8), o.vp(p as u8));
            }
        }
        prop_assert_eq!(truth.last().unwrap().0.winner, seen.last().unwrap().0.winner);
        // One game is one game, in whichever view it was logged.
        prop_assert_eq!(
            almanac_core::testing::fingerprint::<CatanCards>(&g.header.to_string(), &g.events),
            almanac_core::testing::fingerprint::<CatanCards>(&g.observer_header.to_string(), &g.observer)
        );
    }
}

#[test]
fn random_games_build_every_card_use_road_trades_and_meet_every_event() {
    let (mut built, mut road_trades, mut events, mut discards) = (Vec::new(), 0, Vec::new(), 0);
    for seed in 1..25u64 {
        let g = support::play(seed * 7919, 2 + (seed as usize % 3), 2000);
        for e in &g.events {
            match e {
                Event::Build { card, road_trade, event, .. } => {
                    built.push(*card);
                    road_trades += road_trade.is_some() as usize;
                    if let Some(ev) = event {
                        events.push(ev.name.clone());
                    }
                }
                Event::Discard { .. } => discards += 1,
                _ => {}
            }
        }
    }
    for card in Card::ALL {
        assert!(built.contains(&card), "no {} was built", card.name());
    }
    for name in ["robber", "good_harvest", "thieves"] {
        assert!(events.iter().any(|e| e == name), "no {name} event");
    }
    assert!(road_trades > 0 && discards > 0, "road trades {road_trades}, discards {discards}");
}
