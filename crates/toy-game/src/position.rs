//! What a position of the race is made of, for the win-chance model: each token's square, and how many
//! turns pass before it moves again (the one who moves next is a step ahead of a token on the same square).

use crate::state::{State, GOAL};
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading};

const READINGS: [Reading<State>; 2] = [
    Reading::new("square", "square", |s, _, seat| f64::from(s.squares[seat as usize])),
    Reading::new("turns_to_wait", "turns before it moves", |s, _, seat| {
        let seats = s.squares.len() as u32;
        f64::from((u32::from(seat) + seats - u32::from(s.active)) % seats)
    }),
];

pub const FEATURES: [Feature; 2] = features(&READINGS);

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let scores = self.seats().map(|p| f64::from(self.squares[p as usize])).collect();
        Some(Position::race(f64::from(GOAL), scores, values(&READINGS, self, &(), self.squares.len())))
    }
}
