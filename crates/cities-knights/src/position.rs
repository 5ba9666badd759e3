//! What a Cities & Knights position is made of, for the win-chance model: points, what a roll promises,
//! cards and progress cards in hand, city improvements, knights' strength, walls and cities, road length.

use crate::state::{State, VP_TARGET};
use almanac_core::{Feature, Position, Seat};

pub const FEATURES: [Feature; 10] = [
    Feature::new("vp", "victory points"),
    Feature::new("cards_per_roll", "cards a roll promises"),
    Feature::new("cards_in_hand", "cards in hand"),
    Feature::new("progress_cards", "progress cards held"),
    Feature::new("improvements", "city improvement levels"),
    Feature::new("knight_strength", "strength of active knights"),
    Feature::new("knights", "knights on the board"),
    Feature::new("cities", "cities"),
    Feature::new("walls", "city walls"),
    Feature::new("road_length", "longest road"),
];

pub fn position(s: &State) -> Position {
    let n = s.players.len();
    let mut strength = vec![0f64; n];
    let mut knights = vec![0f64; n];
    for k in s.knights.iter().flatten() {
        knights[k.owner as usize] += 1.0;
        if k.active {
            strength[k.owner as usize] += f64::from(k.level);
        }
    }
    let seats = (0..n)
        .map(|i| {
            let p = &s.players[i];
            vec![
                f64::from(s.vp(i as Seat)),
                f64::from(p.promised) / 1000.0,
                f64::from(p.hand.total()),
                p.progress.len() as f64,
                p.levels.iter().map(|&l| f64::from(l)).sum(),
                strength[i],
                knights[i],
                f64::from(p.cities),
                f64::from(p.walls),
                f64::from(p.road_length),
            ]
        })
        .collect();
    let scores: Vec<f64> = (0..n).map(|i| f64::from(s.vp(i as Seat))).collect();
    let leader = scores.iter().copied().fold(0.0, f64::max);
    Position { progress: (leader / f64::from(VP_TARGET)).min(1.0), scores, seats }
}
