//! What a Catan position is made of, for the win-chance model: points, what the dice promise each
//! resource (and what the robber takes while it stays), cards (and how many a 7 would halve), the builds a
//! hand pays for now, development cards, roads and knights against the awards, pieces on the board,
//! harbours; during the set-up, the settlements still to place and what the best free corner promises.

use crate::development::DevCard;
use crate::resources::Resource;
use crate::state::State;
use almanac_core::position::{features, values};
use almanac_core::Seated;
use almanac_core::{Feature, Position, Positioned, Reading, Seat};

/// What several features share, tallied once per position.
struct Tally {
    /// What the board pays each seat on an average roll, by resource in `Resource::ALL`'s order, the
    /// robber's hex counted: the robber moves on within a turn or two, and its block is read apart.
    per_roll: Vec<[f64; 5]>,
    /// What the robber's hex takes from each seat's average roll while it stays.
    blocked: Vec<f64>,
    /// The harbours each seat's buildings stand at.
    harbours: Vec<f64>,
    /// During the set-up, what the best corner still free promises on an average roll (0 after it).
    best_free: f64,
}

/// Whether a hand pays for `cost`.
fn affords(s: &State, seat: Seat, cost: &crate::resources::Resources) -> bool {
    let hand = &s.players[seat as usize].hand;
    Resource::ALL.into_iter().all(|r| hand.known[r] >= cost[r])
}

/// The set-up settlements a seat has still to place (two each; none once play began).
fn to_place(s: &State, seat: Seat) -> f64 {
    match s.phase {
        crate::state::Phase::Setup { .. } => {
            let p = &s.players[seat as usize];
            2.0 - f64::from(p.settlements + p.cities).min(2.0)
        }
        _ => 0.0,
    }
}

const READINGS: [Reading<State, Tally>; 23] = [
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
    Reading::new("robbed_per_roll", "what the robber takes from a roll while it stays", |_, t, seat| {
        t.blocked[seat as usize]
    }),
    Reading::new("cards_over_limit", "cards a 7 would take half of", |s, _, seat| {
        let cards = s.players[seat as usize].hand.total() as f64;
        if cards > f64::from(s.options.discard_limit) {
            cards
        } else {
            0.0
        }
    }),
    Reading::new("city_in_hand", "a city the hand pays for now", |s, _, seat| {
        f64::from(u8::from(s.players[seat as usize].settlements > 0 && affords(s, seat, &crate::resources::CITY_COST)))
    }),
    Reading::new("settlement_in_hand", "a settlement the hand pays for now", |s, _, seat| {
        f64::from(u8::from(affords(s, seat, &crate::resources::SETTLEMENT_COST)))
    }),
    Reading::new("set_up_to_place", "set-up settlements still to place", |s, _, seat| to_place(s, seat)),
    Reading::new("set_up_to_come", "what the set-up settlements still to place can take", |s, t, seat| {
        to_place(s, seat) * t.best_free
    }),
];

pub const FEATURES: [Feature; 23] = features(&READINGS);

/// The chance of each sum of two dice, by sum.
fn chance(sum: u8) -> f64 {
    f64::from(6 - (i32::from(sum) - 7).abs()).max(0.0) / 36.0
}

fn tally(s: &State) -> Tally {
    let n = s.players.len();
    let mut per_roll = vec![[0f64; 5]; n];
    let mut blocked = vec![0f64; n];
    for (h, hex) in s.board.hexes.iter().enumerate() {
        let (Some(number), Some(r)) = (hex.number, hex.terrain.produces()) else { continue };
        let k = Resource::ALL.iter().position(|&x| x == r).unwrap_or(0);
        for &v in &hex.corners {
            if let Some(b) = s.buildings[v as usize] {
                let pays = chance(number) * if b.city { 2.0 } else { 1.0 };
                per_roll[b.owner as usize][k] += pays;
                if h == s.robber as usize {
                    blocked[b.owner as usize] += pays;
                }
            }
        }
    }
    let harbours = (0..n).map(|p| s.layout().harbours_of(p as Seat).count() as f64).collect();
    Tally { per_roll, blocked, harbours, best_free: best_free(s) }
}

/// During the set-up, what the best free corner the distance rule allows promises on an average roll.
fn best_free(s: &State) -> f64 {
    if !matches!(s.phase, crate::state::Phase::Setup { .. }) {
        return 0.0;
    }
    (0..s.board.vertices.len())
        .filter(|&v| {
            let vertex = &s.board.vertices[v];
            s.buildings[v].is_none() && (&vertex.neighbours).into_iter().all(|&u| s.buildings[u as usize].is_none())
        })
        .map(|v| {
            s.board.vertices[v]
                .hexes
                .iter()
                .filter_map(|&h| {
                    s.board.hexes[h as usize].number.filter(|_| s.board.hexes[h as usize].terrain.produces().is_some())
                })
                .map(chance)
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
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
