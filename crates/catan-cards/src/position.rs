//! What a position of the Catan card game is made of, for the win-chance model: points, cards in hand, the
//! tableau (roads, settlements, cities, metropolises, knights) and the two special cards.

use crate::cards::VP_TO_WIN;
use crate::state::State;
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading};

const READINGS: [Reading<State>; 9] = [
    Reading::new("vp", "victory points", |s, _, seat| f64::from(s.vp(seat))),
    Reading::new("cards_in_hand", "cards in hand", |s, _, seat| f64::from(s.players[seat as usize].hand.total())),
    Reading::new("roads", "roads", |s, _, seat| f64::from(s.players[seat as usize].roads)),
    Reading::new("settlements", "settlements", |s, _, seat| f64::from(s.players[seat as usize].settlements)),
    Reading::new("cities", "cities", |s, _, seat| f64::from(s.players[seat as usize].cities)),
    Reading::new("metropolises", "metropolises", |s, _, seat| f64::from(s.players[seat as usize].metropolises)),
    Reading::new("knights", "knights", |s, _, seat| f64::from(s.players[seat as usize].knights)),
    Reading::new("longest_road", "holds the longest road", |s, _, seat| {
        f64::from(u8::from(s.longest_road == Some(seat)))
    }),
    Reading::new("largest_army", "holds the largest army", |s, _, seat| {
        f64::from(u8::from(s.largest_army == Some(seat)))
    }),
];

pub const FEATURES: [Feature; 9] = features(&READINGS);

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let scores = self.seats().map(|p| f64::from(self.vp(p))).collect();
        Some(Position::race(f64::from(VP_TO_WIN), scores, values(&READINGS, self, &(), self.players.len())))
    }
}
