//! What a Cities & Knights position is made of, for the win-chance model: points, what a roll promises,
//! cards and progress cards in hand, city improvements, knights' strength, walls and cities, road length.

use crate::state::{State, VP_TARGET};
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading};

/// Each seat's knights on the board and the strength of its active ones, tallied once per position.
struct Knights {
    strength: Vec<f64>,
    count: Vec<f64>,
}

const READINGS: [Reading<State, Knights>; 10] = [
    Reading::new("vp", "victory points", |s, _, seat| f64::from(s.vp(seat))),
    Reading::new("cards_per_roll", "cards a roll promises", |s, _, seat| {
        f64::from(s.players[seat as usize].promised) / 1000.0
    }),
    Reading::new("cards_in_hand", "cards in hand", |s, _, seat| f64::from(s.players[seat as usize].hand.total())),
    Reading::new("progress_cards", "progress cards held", |s, _, seat| s.players[seat as usize].progress.len() as f64),
    Reading::new("improvements", "city improvement levels", |s, _, seat| {
        s.players[seat as usize].levels.iter().map(|&l| f64::from(l)).sum()
    }),
    Reading::new("knight_strength", "strength of active knights", |_, k, seat| k.strength[seat as usize]),
    Reading::new("knights", "knights on the board", |_, k, seat| k.count[seat as usize]),
    Reading::new("cities", "cities", |s, _, seat| f64::from(s.players[seat as usize].cities)),
    Reading::new("walls", "city walls", |s, _, seat| f64::from(s.players[seat as usize].walls)),
    Reading::new("road_length", "longest road", |s, _, seat| f64::from(s.players[seat as usize].road_length)),
];

pub const FEATURES: [Feature; 10] = features(&READINGS);

fn knights(s: &State) -> Knights {
    let n = s.players.len();
    let mut k = Knights { strength: vec![0f64; n], count: vec![0f64; n] };
    for knight in s.knights.iter().flatten() {
        k.count[knight.owner as usize] += 1.0;
        if knight.active {
            k.strength[knight.owner as usize] += f64::from(knight.level);
        }
    }
    k
}

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let scores = self.seats().map(|p| f64::from(self.vp(p))).collect();
        Some(Position::race(f64::from(VP_TARGET), scores, values(&READINGS, self, &knights(self), self.players.len())))
    }
}
