//! Properties of random legal games (see `support`): they replay to the same state in one pass or event by
//! event, conserve cards, keep VP equal to the sum of its parts, and are accepted as an observer logs them.

mod support;

use almanac_catan::development::DevCard;
use almanac_catan::event;
use almanac_catan::resources::Resource;
use almanac_catan::{Catan, State};
use almanac_core::{Fact, Ruleset};
use proptest::prelude::*;

fn replay(header: &serde_json::Value, events: &[almanac_catan::Event]) -> Vec<(State, Vec<Fact>)> {
    let mut s = Catan::initial(&header.to_string()).unwrap();
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let mut facts = Vec::new();
        almanac_catan::rules::apply(&mut s, e, &mut facts).unwrap_or_else(|v| panic!("event {i} {e:?}: {v}"));
        out.push((s.clone(), facts));
    }
    out
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
        let mut score = vec![0i32; players];
        for (s, facts) in &states {
            check_invariants(s);
            for f in facts {
                if let Fact::Score { player, delta, total, .. } = f {
                    score[*player as usize] += delta;
                    prop_assert_eq!(score[*player as usize], *total, "score facts add up");
                }
            }
        }
        let last = &states.last().unwrap().0;
        for p in 0..players {
            prop_assert_eq!(score[p], last.vp(p as u8), "the sum of score deltas is the final VP");
        }
    }

    #[test]
    fn one_pass_equals_event_by_event(seed in any::<u64>(), players in 2usize..=6, cut in 0usize..1000) {
        let g = support::play(seed, players, 600);
        let states = replay(&g.header, &g.events);
        let n = cut % (g.events.len() + 1);
        // Build the timeline in one pass, then ask for the state after n events (snapshot + replay).
        let header_line = g.header.to_string();
        let env = almanac_core::Envelope::parse(&header_line).unwrap();
        let mut timeline = almanac_core::Timeline::<Catan>::start(env, &g.header.to_string()).unwrap();
        for (i, e) in g.events.iter().enumerate() {
            timeline.push(i + 2, e.clone().into()).unwrap();
        }
        let expected = if n == 0 { Catan::initial(&g.header.to_string()).unwrap() } else { states[n - 1].0.clone() };
        prop_assert_eq!(format!("{:?}", timeline.state_after(n)), format!("{expected:?}"));
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
        let mut s = Catan::initial(&g.header.to_string()).unwrap();
        for e in &g.events {
            let line = event::write(&s, e);
            prop_assert_eq!(&event::parse(&s, &line).unwrap(), e, "{}", line);
            almanac_catan::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
            check_invariants(&s);
            // Everyone holds exactly one helper once setup is over.
            if s.turn > 0 {
                let h = s.helpers.as_ref().unwrap();
                prop_assert!(h.held.iter().all(|c| c.is_some()));
                prop_assert_eq!(h.display.len() + players, 10);
            }
        }
    }

    #[test]
    fn events_survive_writing_and_reading(seed in any::<u64>(), players in 2usize..=6) {
        let g = support::play(seed, players, 400);
        let mut s = Catan::initial(&g.header.to_string()).unwrap();
        for e in &g.events {
            let line = event::write(&s, e);
            let back = event::parse(&s, &line).unwrap();
            prop_assert_eq!(&back, e, "{}", line);
            almanac_catan::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
        }
    }
}
