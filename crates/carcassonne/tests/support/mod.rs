//! A random legal Carcassonne player, for property tests and the demo sample.

#![allow(dead_code)]

use almanac_carcassonne::event::{Event, Location};
use almanac_carcassonne::state::{FigureKind, GroupKind, State};
use almanac_carcassonne::tiles::{catalogue, rotate_halves, rotate_sides, FeatureKind, HALVES, SIDES};
use almanac_carcassonne::{rules, Carcassonne};
use almanac_core::{Fact, Ruleset};
use serde_json::{json, Value};

pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

pub fn header(players: usize) -> Value {
    let names = ["Ana", "Bo", "Cem", "Dilek", "Emre", "Fatma"];
    json!({"format": "almanac/1", "ruleset": "carcassonne",
           "players": names[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
           "options": {"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true}})
}

/// The location text of feature `f` of the tile just placed, as it lies.
fn location(s: &State, placed: usize, f: usize) -> (GroupKind, Location) {
    let p = &s.placed[placed];
    let feature = &catalogue().tiles[p.tile].features[f];
    let (kind, text) = match &feature.kind {
        FeatureKind::City { .. } | FeatureKind::Road => {
            let sides = rotate_sides(feature.sides, p.rotation);
            let text: String = (0..4).filter(|i| sides & (1 << i) != 0).map(|i| SIDES[i]).collect();
            (if matches!(feature.kind, FeatureKind::Road) { GroupKind::Road } else { GroupKind::City }, text)
        }
        FeatureKind::Monastery => (GroupKind::Monastery, "I".to_string()),
        FeatureKind::Field { .. } if feature.halves == 0 => (GroupKind::Field, "I".to_string()),
        FeatureKind::Field { .. } => {
            let halves = rotate_halves(feature.halves, p.rotation);
            (
                GroupKind::Field,
                (0..8).filter(|i| halves & (1 << i) != 0).map(|i| HALVES[i]).collect::<Vec<_>>().join("."),
            )
        }
    };
    (kind, Location::parse(&text).unwrap())
}

pub fn apply(s: &mut State, ev: &Event) -> Result<Vec<Fact>, String> {
    let mut facts = Vec::new();
    almanac_core::Rules::apply(s, ev, &mut facts).map_err(|e| e.0)?;
    Ok(facts)
}

/// Plays a whole random game; returns the header and the events.
pub fn play(seed: u64, players: usize) -> (Value, Vec<Event>) {
    play_from(seed, header(players))
}

/// Plays a whole random game from a header.
pub fn play_from(seed: u64, header: Value) -> (Value, Vec<Event>) {
    let mut rng = Rng(seed | 1);
    let mut s = Carcassonne::initial(&header.to_string()).unwrap();
    let mut pack: Vec<usize> =
        s.supply.iter().enumerate().flat_map(|(t, &n)| std::iter::repeat_n(t, n as usize)).collect();
    for i in (1..pack.len()).rev() {
        pack.swap(i, rng.below(i + 1));
    }
    let mut events = Vec::new();
    while let Some(tile) = pack.pop() {
        let p = s.active;
        let spots = rules::legal_placements(&s, tile);
        if spots.is_empty() {
            let ev = Event::DiscardTile { player: p, tile };
            apply(&mut s, &ev).unwrap();
            events.push(ev);
            continue;
        }
        let (at, rotation) = spots[rng.below(spots.len())];
        let ev = Event::PlaceTile { player: p, tile, at, rotation };
        apply(&mut s, &ev).unwrap();
        events.push(ev);
        if rng.below(3) > 0 {
            let placed = s.placed.len() - 1;
            let features = catalogue().tiles[tile].features.len();
            let kinds = [FigureKind::Follower, FigureKind::Builder, FigureKind::Pig];
            for _ in 0..6 {
                let (feature, location) = location(&s, placed, rng.below(features));
                let figure = kinds[rng.below(3)];
                let ev = Event::PlaceFigure { player: p, figure, feature, location };
                let mut t = s.clone();
                if apply(&mut t, &ev).is_ok() {
                    s = t;
                    events.push(ev);
                    break;
                }
            }
        }
        let ev = Event::EndTurn { player: p };
        apply(&mut s, &ev).unwrap();
        events.push(ev);
    }
    apply(&mut s, &Event::EndGame).unwrap();
    events.push(Event::EndGame);
    (header, events)
}
