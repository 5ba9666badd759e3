//! What a Carcassonne position is made of, for the win-chance model: the score, the followers at home,
//! the open features each player holds (by the tiles they cover, as they would score), the fields and the
//! cities they feed, goods, and how much of the pack is left.

use crate::state::{FigureKind, GroupKind, State};
use almanac_core::position::{features, values};
use almanac_core::{Feature, Position, Positioned, Reading};

/// The open features each seat holds (with the most followers on them), tallied once per position: tiles
/// of cities, tiles of roads, monasteries, fields, and the cities those fields feed.
struct Held(Vec<[f64; 5]>);

const READINGS: [Reading<State, Held>; 8] = [
    Reading::new("score", "points", |s, _, seat| f64::from(s.players[seat as usize].score)),
    Reading::new("followers_home", "followers at home", |s, _, seat| f64::from(s.players[seat as usize].followers)),
    Reading::new("open_city_tiles", "tiles of open cities held", |_, h, seat| h.0[seat as usize][0]),
    Reading::new("open_road_tiles", "tiles of open roads held", |_, h, seat| h.0[seat as usize][1]),
    Reading::new("monasteries", "monasteries held", |_, h, seat| h.0[seat as usize][2]),
    Reading::new("fields", "fields held", |_, h, seat| h.0[seat as usize][3]),
    Reading::new("field_cities", "cities beside the fields held", |_, h, seat| h.0[seat as usize][4]),
    Reading::new("goods", "goods", |s, _, seat| s.players[seat as usize].goods.iter().sum::<u32>() as f64),
];

pub const FEATURES: [Feature; 8] = features(&READINGS);

fn held(s: &State) -> Held {
    let n = s.players.len();
    let mut held = vec![[0f64; 5]; n];
    // Every feature not yet scored, once (by its root), to the player(s) with the most followers on it.
    for g in s.groups.iter().flatten().filter(|g| !g.done) {
        let mut count = vec![0usize; n];
        for f in g.figures.iter().filter(|f| f.kind == FigureKind::Follower) {
            count[f.player as usize] += 1;
        }
        let most = count.iter().copied().max().unwrap_or(0);
        if most == 0 {
            continue;
        }
        for p in (0..n).filter(|&p| count[p] == most) {
            let h = &mut held[p];
            match g.kind {
                GroupKind::City => h[0] += g.tiles.len() as f64,
                GroupKind::Road => h[1] += g.tiles.len() as f64,
                GroupKind::Monastery => h[2] += 1.0,
                GroupKind::Field => {
                    h[3] += 1.0;
                    h[4] += g.cities.len() as f64;
                }
            }
        }
    }
    Held(held)
}

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let left: f64 = self.supply.iter().map(|&k| f64::from(k)).sum();
        let placed = self.placed.len() as f64;
        Some(Position {
            progress: placed / (placed + left).max(1.0),
            scores: self.players.iter().map(|p| f64::from(p.score)).collect(),
            seats: values(&READINGS, self, &held(self), self.players.len()),
        })
    }
}
