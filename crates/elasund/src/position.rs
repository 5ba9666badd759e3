//! What an Elasund position is made of, for the win-chance model: markers placed (the points), gold,
//! influence cards, buildings and the squares they cover, permits on the board, the trade track, walls and
//! towers.

use crate::state::{State, MARKERS};
use almanac_core::{Feature, Position, Seat};

pub const FEATURES: [Feature; 9] = [
    Feature::new("vp", "victory points"),
    Feature::new("gold", "gold"),
    Feature::new("influence", "influence cards"),
    Feature::new("buildings", "buildings"),
    Feature::new("markers_on_buildings", "markers on buildings"),
    Feature::new("permits", "permits on the board"),
    Feature::new("trade", "place on the trade track"),
    Feature::new("walls", "wall tiles built"),
    Feature::new("towers", "towers"),
];

pub fn position(s: &State) -> Position {
    let n = s.players.len();
    let mut buildings = vec![0f64; n];
    let mut markers = vec![0f64; n];
    for b in s.buildings.iter().flatten() {
        buildings[b.owner as usize] += 1.0;
        markers[b.owner as usize] += f64::from(b.markers);
    }
    let mut permits = vec![0f64; n];
    for c in &s.cells {
        if let Some((owner, _)) = c.permit {
            permits[owner as usize] += 1.0;
        }
    }
    let seats = (0..n)
        .map(|i| {
            let p = &s.players[i];
            vec![
                f64::from(s.vp(i as Seat)),
                f64::from(p.hand.gold),
                f64::from(p.hand.influence_total()),
                buildings[i],
                markers[i],
                permits[i],
                f64::from(p.trade),
                f64::from(p.walls),
                f64::from(p.towers),
            ]
        })
        .collect();
    let scores: Vec<f64> = (0..n).map(|i| f64::from(s.vp(i as Seat))).collect();
    let leader = scores.iter().copied().fold(0.0, f64::max);
    Position { progress: (leader / f64::from(MARKERS)).min(1.0), scores, seats }
}
