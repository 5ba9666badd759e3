//! The random player must exercise the whole ruleset, or the properties prove little.

mod support;

use almanac_catan::Catan;
use almanac_core::Ruleset;
use std::collections::BTreeMap;

#[test]
fn random_games_use_every_kind_of_event_and_reach_the_awards() {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut longest, mut army, mut won) = (0, 0, 0);
    for seed in 0..20 {
        let g = support::play(seed, 2 + (seed as usize % 3), 3000);
        let mut s = Catan::initial(&g.header).unwrap();
        for e in &g.events {
            *kinds.entry(e.kind()).or_default() += 1;
            Catan::apply(&mut s, e, &mut Vec::new()).unwrap();
        }
        longest += s.longest_road.is_some() as usize;
        army += s.largest_army.is_some() as usize;
        won += s.winner.is_some() as usize;
    }
    for k in almanac_catan::event::EVENT_TYPES {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "no {k} in 20 random games: {kinds:?}");
    }
    assert!(longest > 0 && army > 0 && won > 0, "awards {longest}, {army}; wins {won}: {kinds:?}");
}
