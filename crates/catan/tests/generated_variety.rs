//! The random player must exercise the whole ruleset, or the properties prove little.

mod support;

use almanac_catan::Catan;
use almanac_core::Ruleset;
use std::collections::BTreeMap;

#[test]
fn random_games_use_every_kind_of_event_and_reach_the_awards() {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut longest, mut army, mut won, mut special) = (0, 0, 0, 0);
    for seed in 0..20 {
        let players = 2 + (seed as usize % 5);
        let g = if seed % 4 == 3 {
            support::play_from(seed, support::header_with_helpers(players), 3000)
        } else {
            support::play(seed, players, 3000)
        };
        let mut s = Catan::initial(&g.header.to_string()).unwrap();
        for e in &g.events {
            *kinds.entry(e.kind()).or_default() += 1;
            let before = s.phase;
            almanac_catan::rules::apply(&mut s, e, &mut Vec::new()).unwrap();
            if matches!(before, almanac_catan::state::Phase::SpecialBuilding { .. }) && e.player() != s.active {
                special += 1;
            }
        }
        longest += s.longest_road.is_some() as usize;
        army += s.largest_army.is_some() as usize;
        won += s.winner.is_some() as usize;
    }
    for k in almanac_catan::event::EVENT_TYPES {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "no {k} in 20 random games: {kinds:?}");
    }
    assert!(longest > 0 && army > 0 && won > 0, "awards {longest}, {army}; wins {won}: {kinds:?}");
    assert!(special > 20, "only {special} special builds in the 5-6 player games");
}

#[test]
fn every_event_belongs_to_the_turn_of_the_player_who_plays_it() {
    use almanac_core::{Envelope, Game, Timeline};
    for seed in 0..6 {
        let players = 4 + (seed as usize % 3);
        let g = support::play(seed, players, 1500);
        let header = g.header.to_string();
        let mut t = Timeline::<Catan>::start(Envelope::parse(&header).unwrap(), &g.header.to_string()).unwrap();
        for (i, e) in g.events.iter().enumerate() {
            t.push(i + 2, e.clone().into()).unwrap();
        }
        // Whoever placed last in setup begins (the first player, unless a placement was taken back).
        let first = (0..g.events.len()).find(|&i| t.event_turn(i) == 1).map(|i| g.events[i].player()).unwrap();
        for (i, e) in g.events.iter().enumerate() {
            let turn = t.event_turn(i);
            if turn == 0 {
                continue;
            }
            // Turn t is played by the seat t - 1 after the first; special builds and discards are by others.
            let owner = ((first as usize + turn as usize - 1) % players) as u8;
            let kind = e.kind();
            if kind == "roll" || kind == "end_turn" || kind == "time_out" {
                assert_eq!(e.player(), owner, "seed {seed}: event {i} ({kind}) is in turn {turn}");
            }
        }
    }
}
