//! What a position of the Catan card game is made of, for the win-chance model: points, cards in hand, the
//! tableau (roads, settlements, cities, metropolises, knights) and the two special cards.

use crate::cards::VP_TO_WIN;
use crate::state::State;
use almanac_core::{Feature, Position, Seat};

pub const FEATURES: [Feature; 9] = [
    Feature::new("vp", "victory points"),
    Feature::new("cards_in_hand", "cards in hand"),
    Feature::new("roads", "roads"),
    Feature::new("settlements", "settlements"),
    Feature::new("cities", "cities"),
    Feature::new("metropolises", "metropolises"),
    Feature::new("knights", "knights"),
    Feature::new("longest_road", "holds the longest road"),
    Feature::new("largest_army", "holds the largest army"),
];

pub fn position(s: &State) -> Position {
    let n = s.players.len();
    let seats = (0..n)
        .map(|i| {
            let (p, seat) = (&s.players[i], i as Seat);
            vec![
                f64::from(s.vp(seat)),
                f64::from(p.hand.total()),
                f64::from(p.roads),
                f64::from(p.settlements),
                f64::from(p.cities),
                f64::from(p.metropolises),
                f64::from(p.knights),
                f64::from(u8::from(s.longest_road == Some(seat))),
                f64::from(u8::from(s.largest_army == Some(seat))),
            ]
        })
        .collect();
    let scores: Vec<f64> = (0..n).map(|i| f64::from(s.vp(i as Seat))).collect();
    let leader = scores.iter().copied().fold(0.0, f64::max);
    Position { progress: (leader / f64::from(VP_TO_WIN)).clamp(0.0, 1.0), scores, seats }
}
