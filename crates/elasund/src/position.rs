//! What an Elasund position is made of, for the win-chance model: markers placed (the points), gold,
//! influence cards, buildings and the squares they cover, permits on the board, the trade track, walls and
//! towers.

use crate::state::{State, MARKERS};
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading};

/// Each seat's buildings, the markers on them and its permits on the board, tallied once per position.
struct Board {
    buildings: Vec<f64>,
    markers: Vec<f64>,
    permits: Vec<f64>,
}

const READINGS: [Reading<State, Board>; 9] = [
    Reading::new("vp", "victory points", |s, _, seat| f64::from(s.vp(seat))),
    Reading::new("gold", "gold", |s, _, seat| f64::from(s.players[seat as usize].hand.gold)),
    Reading::new("influence", "influence cards", |s, _, seat| {
        f64::from(s.players[seat as usize].hand.influence_total())
    }),
    Reading::new("buildings", "buildings", |_, b, seat| b.buildings[seat as usize]),
    Reading::new("markers_on_buildings", "markers on buildings", |_, b, seat| b.markers[seat as usize]),
    Reading::new("permits", "permits on the board", |_, b, seat| b.permits[seat as usize]),
    Reading::new("trade", "place on the trade track", |s, _, seat| f64::from(s.players[seat as usize].trade)),
    Reading::new("walls", "wall tiles built", |s, _, seat| f64::from(s.players[seat as usize].walls)),
    Reading::new("towers", "towers", |s, _, seat| f64::from(s.players[seat as usize].towers)),
];

pub const FEATURES: [Feature; 9] = features(&READINGS);

fn board(s: &State) -> Board {
    let n = s.players.len();
    let mut b = Board { buildings: vec![0f64; n], markers: vec![0f64; n], permits: vec![0f64; n] };
    for building in s.buildings.iter().flatten() {
        b.buildings[building.owner as usize] += 1.0;
        b.markers[building.owner as usize] += f64::from(building.markers);
    }
    for c in &s.cells {
        if let Some((owner, _)) = c.permit {
            b.permits[owner as usize] += 1.0;
        }
    }
    b
}

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let scores = self.seats().map(|p| f64::from(self.vp(p))).collect();
        Some(Position::race(f64::from(MARKERS), scores, values(&READINGS, self, &board(self), self.players.len())))
    }
}
