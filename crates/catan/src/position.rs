//! What a Catan position is made of, for the win-chance model: points, what the dice promise each
//! resource, cards, development cards, roads and knights against the awards, pieces on the board, harbours.

use crate::development::DevCard;
use crate::resources::Resource;
use crate::state::State;
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading, Seat};

/// What several features share, tallied once per position.
struct Tally {
    /// What the board pays each seat on an average roll, by resource in `Resource::ALL`'s order (the
    /// robber's hex pays nothing).
    per_roll: Vec<[f64; 5]>,
    /// The harbours each seat's buildings stand at.
    harbours: Vec<f64>,
}

const READINGS: [Reading<State, Tally>; 17] = [
    Reading::new("vp", "victory points", |s, _, seat| f64::from(s.vp(seat))),
    Reading::new("vp_public", "victory points in sight", |s, _, seat| f64::from(s.vp_public(seat))),
    Reading::new("lumber_per_roll", "lumber a roll promises", |_, t, seat| t.per_roll[seat as usize][0]),
    Reading::new("brick_per_roll", "brick a roll promises", |_, t, seat| t.per_roll[seat as usize][1]),
    Reading::new("wool_per_roll", "wool a roll promises", |_, t, seat| t.per_roll[seat as usize][2]),
    Reading::new("grain_per_roll", "grain a roll promises", |_, t, seat| t.per_roll[seat as usize][3]),
    Reading::new("ore_per_roll", "ore a roll promises", |_, t, seat| t.per_roll[seat as usize][4]),
    Reading::new("cards_in_hand", "cards in hand", |s, _, seat| s.players[seat as usize].hand.total() as f64),
    Reading::new("development_cards", "development cards held", |s, _, seat| {
        let dev = &s.players[seat as usize].dev;
        dev.held.total() as f64 + f64::from(dev.held_unknown)
    }),
    Reading::new("knights", "knights played", |s, _, seat| {
        f64::from(s.players[seat as usize].dev.played[DevCard::Knight])
    }),
    Reading::new("road_length", "longest road", |s, _, seat| f64::from(s.players[seat as usize].road_length)),
    Reading::new("longest_road", "holds the longest road", |s, _, seat| {
        f64::from(u8::from(s.longest_road == Some(seat)))
    }),
    Reading::new("largest_army", "holds the largest army", |s, _, seat| {
        f64::from(u8::from(s.largest_army == Some(seat)))
    }),
    Reading::new("settlements", "settlements", |s, _, seat| f64::from(s.players[seat as usize].settlements)),
    Reading::new("cities", "cities", |s, _, seat| f64::from(s.players[seat as usize].cities)),
    Reading::new("harbours", "harbours reached", |_, t, seat| t.harbours[seat as usize]),
    Reading::new("resources_produced", "resources the board pays at all", |_, t, seat| {
        t.per_roll[seat as usize].iter().filter(|&&x| x > 0.0).count() as f64
    }),
];

pub const FEATURES: [Feature; 17] = features(&READINGS);

/// The chance of each sum of two dice, by sum.
fn chance(sum: u8) -> f64 {
    f64::from(6 - (i32::from(sum) - 7).abs()).max(0.0) / 36.0
}

fn tally(s: &State) -> Tally {
    let n = s.players.len();
    let mut per_roll = vec![[0f64; 5]; n];
    for (h, hex) in s.board.hexes.iter().enumerate() {
        let (Some(number), Some(r)) = (hex.number, hex.terrain.produces()) else { continue };
        if h == s.robber as usize {
            continue;
        }
        let k = Resource::ALL.iter().position(|&x| x == r).unwrap_or(0);
        for &v in &hex.corners {
            if let Some(b) = s.buildings[v as usize] {
                per_roll[b.owner as usize][k] += chance(number) * if b.city { 2.0 } else { 1.0 };
            }
        }
    }
    let harbours = (0..n).map(|p| s.layout().harbours_of(p as Seat).count() as f64).collect();
    Tally { per_roll, harbours }
}

impl Positioned for State {
    const FEATURES: &'static [Feature] = &FEATURES;

    fn position(&self) -> Option<Position> {
        let scores = self.seats().map(|p| f64::from(self.vp(p))).collect();
        Some(Position::race(
            f64::from(self.options.vp_target.max(1)),
            scores,
            values(&READINGS, self, &tally(self), self.players.len()),
        ))
    }
}
