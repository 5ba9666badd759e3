//! What a record says the game looked like after an event: another program's hand snapshots, its holders
//! of the special cards, its scores. The rules derive all of it; a log may state it (`"stated": {...}` on
//! any event) and the engine then checks it after the event, like a roll's `production`.

use crate::resources::{Bundle, Resource};
use crate::state::State;
use almanac_core::Seat;
use almanac_core::Seated;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The statements one event carries, by seat.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stated {
    /// Whole hands, card by card.
    pub hands: Vec<(Seat, Bundle)>,
    /// How many resource cards a player holds.
    pub hand_sizes: Vec<(Seat, u32)>,
    /// Who holds Longest Road (`Some(None)`: nobody).
    pub longest_road: Option<Option<Seat>>,
    pub largest_army: Option<Option<Seat>>,
    /// Victory points, hidden cards included.
    pub vp: Vec<(Seat, i32)>,
}

/// The `stated` object as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatedSpec {
    #[serde(default)]
    hands: BTreeMap<String, Bundle>,
    #[serde(default)]
    hand_sizes: BTreeMap<String, u32>,
    /// A name, or `null` for nobody; absent when not stated.
    #[serde(default, deserialize_with = "present")]
    longest_road: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    largest_army: Option<Option<String>>,
    #[serde(default)]
    vp: BTreeMap<String, i32>,
}

/// Tells a `null` (nobody) from an absent field.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

fn seat(state: &State, name: &str) -> Result<Seat, String> {
    state.table.seat(name, "stated")
}

fn by_seat<T>(state: &State, m: BTreeMap<String, T>) -> Result<Vec<(Seat, T)>, String> {
    m.into_iter().map(|(n, v)| Ok((seat(state, &n)?, v))).collect()
}

impl Stated {
    pub fn parse(state: &State, spec: StatedSpec) -> Result<Stated, String> {
        let holder = |h: Option<Option<String>>| -> Result<Option<Option<Seat>>, String> {
            Ok(match h {
                None => None,
                Some(None) => Some(None),
                Some(Some(n)) => Some(Some(seat(state, &n)?)),
            })
        };
        Ok(Stated {
            hands: by_seat(state, spec.hands)?,
            hand_sizes: by_seat(state, spec.hand_sizes)?,
            longest_road: holder(spec.longest_road)?,
            largest_army: holder(spec.largest_army)?,
            vp: by_seat(state, spec.vp)?,
        })
    }

    pub fn write(&self, state: &State) -> Value {
        let name = |s: Seat| state.name(s).to_string();
        let mut m = Map::new();
        if !self.hands.is_empty() {
            m.insert("hands".into(), Value::Object(self.hands.iter().map(|(s, b)| (name(*s), json!(b))).collect()));
        }
        if !self.hand_sizes.is_empty() {
            let sizes = self.hand_sizes.iter().map(|(s, n)| (name(*s), json!(n))).collect();
            m.insert("hand_sizes".into(), Value::Object(sizes));
        }
        if let Some(h) = self.longest_road {
            m.insert("longest_road".into(), json!(h.map(name)));
        }
        if let Some(h) = self.largest_army {
            m.insert("largest_army".into(), json!(h.map(name)));
        }
        if !self.vp.is_empty() {
            m.insert("vp".into(), Value::Object(self.vp.iter().map(|(s, v)| (name(*s), json!(v))).collect()));
        }
        Value::Object(m)
    }

    /// Does the game after the event agree? A hand with unseen cards agrees with every hand it could be.
    pub fn check(&self, s: &State) -> Result<(), String> {
        let holder = |h: Option<Seat>| h.map_or("nobody".to_string(), |p| s.name(p).to_string());
        for &(p, stated) in &self.hands {
            let hand = &s.players[p as usize].hand;
            let fits = hand.total() == stated.total()
                && Resource::ALL
                    .iter()
                    .all(|&r| hand.known[r] as u32 <= stated.known[r] as u32 + stated.unknown as u32);
            if !fits {
                return Err(format!(
                    "the record states that {} holds {stated}, but by the rules they hold {hand}",
                    s.name(p)
                ));
            }
        }
        for &(p, n) in &self.hand_sizes {
            let held = s.players[p as usize].hand.total();
            if held != n {
                return Err(format!(
                    "the record states that {} holds {n} cards, but by the rules they hold {held}",
                    s.name(p)
                ));
            }
        }
        let awards =
            [("Longest Road", self.longest_road, s.longest_road), ("Largest Army", self.largest_army, s.largest_army)];
        for (award, stated, held) in awards {
            if let Some(stated) = stated.filter(|&h| h != held) {
                return Err(format!(
                    "the record states that {} holds {award}, but by the rules {} does",
                    holder(stated),
                    holder(held)
                ));
            }
        }
        for &(p, vp) in &self.vp {
            if s.vp(p) != vp {
                return Err(format!(
                    "the record states that {} has {vp} victory points, but by the rules they have {}",
                    s.name(p),
                    s.vp(p)
                ));
            }
        }
        Ok(())
    }
}
