//! Properties of random legal games (see `support`): they replay to the same state in one pass or event by
//! event, read back as written, conserve cards, keep VP equal to the sum of its parts and of the score facts,
//! and are accepted as an observer logs them.

mod support;

use almanac_catan::development::DevCard;
use almanac_catan::resources::Resource;
use almanac_catan::{Catan, State};
use almanac_core::{testing, Fact};
use proptest::prelude::*;

/// The game replayed, each event written and read back on the way (`testing::replayed`).
fn replay(header: &serde_json::Value, events: &[almanac_catan::Event]) -> Vec<(State, Vec<Fact>)> {
    testing::replayed::<Catan, _>(&header.to_string(), events)
}

fn check_invariants(s: &State) {
    let bank_total = s.equipment.bank_per_resource as u32 * 5;
    let cards: u32 = s.bank.total() + s.players.iter().map(|p| p.hand.total()).sum::<u32>();
    assert_eq!(cards, bank_total, "resource cards are conserved");
    let devs: u32 = s.deck_left as u32
        + s.players
            .iter()
            .map(|p| p.dev.held_total() + p.dev.played.total() + p.dev.knights_discarded as u32)
            .sum::<u32>();
    assert_eq!(devs, s.equipment.deck.total(), "development cards are conserved");
    for (i, p) in s.players.iter().enumerate() {
        let seat = i as u8;
        let parts = p.settlements as i32
            + 2 * p.cities as i32
            + 2 * (s.longest_road == Some(seat)) as i32
            + 2 * (s.largest_army == Some(seat)) as i32
            + (p.dev.held[DevCard::VictoryPoint] + p.dev.played[DevCard::VictoryPoint]) as i32;
        assert_eq!(s.vp(seat), parts, "VP is the sum of its parts");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_are_accepted_and_conserve_everything(seed in any::<u64>(), players in 2usize..=6) {
        let g = support::play(seed, players, 1500);
        prop_assert!(g.events.len() > 20);
        let states = replay(&g.header, &g.events);
        for (s, _) in &states {
            check_invariants(s);
        }
        let vp = |s: &State, seat| s.vp(seat);
        prop_assert_eq!(testing::score_facts_add_up::<Catan>(&g.header.to_string(), &states, vp), Ok(()));
    }

    #[test]
    fn one_pass_equals_event_by_event(seed in any::<u64>(), players in 2usize..=6, cut in 0usize..1000) {
        let g = support::play(seed, players, 600);
        let n = cut % (g.events.len() + 1);
        let (one_pass, by_event) = testing::one_pass_and_event_by_event::<Catan, _>(&g.header.to_string(), &g.events, n);
        prop_assert_eq!(one_pass, by_event);
    }

    #[test]
    fn an_observer_log_is_accepted_with_the_same_card_counts(seed in any::<u64>(), players in 2usize..=6) {
        let g = support::play(seed, players, 1000);
        let truth = replay(&g.header, &g.events);
        let seen = replay(&g.header, &g.observer);
        for (i, ((t, _), (o, _))) in truth.iter().zip(&seen).enumerate() {
            for p in 0..players {
                prop_assert_eq!(t.players[p].hand.total(), o.players[p].hand.total(), "cards in hand after event {}", i);
                for r in Resource::ALL {
                    prop_assert!(o.players[p].hand.known[r] <= t.players[p].hand.known[r], "known cards are a lower bound");
                }
            }
            prop_assert_eq!(t.vp_public(0), o.vp_public(0));
        }
        // One game is one game, in whichever view it was logged.
        let logged = |events: &[almanac_catan::Event]| -> Vec<almanac_catan::LoggedEvent> {
            events.iter().cloned().map(Into::into).collect()
        };
        prop_assert_eq!(
            almanac_core::testing::fingerprint::<Catan>(&g.header.to_string(), &logged(&g.events)),
            almanac_core::testing::fingerprint::<Catan>(&g.header.to_string(), &logged(&g.observer))
        );
    }

    #[test]
    fn helper_games_are_accepted_conserve_everything_and_survive_writing(seed in any::<u64>(), players in 2usize..=6) {
        let g = support::play_from(seed, support::header_with_helpers(players), 1500);
        for (s, _) in replay(&g.header, &g.events) {
            check_invariants(&s);
            // Everyone holds exactly one helper once setup is over.
            if s.turn > 0 {
                let h = s.helpers.as_ref().unwrap();
                prop_assert!(h.held.iter().all(|c| c.is_some()));
                prop_assert_eq!(h.display.len() + players, 10);
            }
        }
    }
}
