//! What a Catan position is made of, for the win-chance model: points, what the dice promise each
//! resource, cards, development cards, roads and knights against the awards, pieces on the board, harbours.

use crate::development::DevCard;
use crate::resources::Resource;
use crate::state::State;
use almanac_core::{Feature, Position};

pub const FEATURES: [Feature; 17] = [
    Feature::new("vp", "victory points"),
    Feature::new("vp_public", "victory points in sight"),
    Feature::new("lumber_per_roll", "lumber a roll promises"),
    Feature::new("brick_per_roll", "brick a roll promises"),
    Feature::new("wool_per_roll", "wool a roll promises"),
    Feature::new("grain_per_roll", "grain a roll promises"),
    Feature::new("ore_per_roll", "ore a roll promises"),
    Feature::new("cards_in_hand", "cards in hand"),
    Feature::new("development_cards", "development cards held"),
    Feature::new("knights", "knights played"),
    Feature::new("road_length", "longest road"),
    Feature::new("longest_road", "holds the longest road"),
    Feature::new("largest_army", "holds the largest army"),
    Feature::new("settlements", "settlements"),
    Feature::new("cities", "cities"),
    Feature::new("harbours", "harbours reached"),
    Feature::new("resources_produced", "resources the board pays at all"),
];

/// The chance of each sum of two dice, by sum.
fn chance(sum: u8) -> f64 {
    f64::from(6 - (i32::from(sum) - 7).abs()).max(0.0) / 36.0
}

pub fn position(s: &State) -> Position {
    let n = s.players.len();
    // What the board pays each seat on an average roll, by resource (the robber's hex pays nothing).
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
    let mut harbours = vec![0f64; n];
    for (edge, _) in &s.board.harbours {
        let mut owners: Vec<u8> = s.board.edges[*edge as usize]
            .ends
            .iter()
            .filter_map(|&v| s.buildings[v as usize])
            .map(|b| b.owner)
            .collect();
        owners.dedup();
        for o in owners {
            harbours[o as usize] += 1.0;
        }
    }
    let seats = (0..n)
        .map(|i| {
            let p = &s.players[i];
            let seat = i as almanac_core::Seat;
            let held = p.dev.held.total() as f64 + f64::from(p.dev.held_unknown);
            let mut v = vec![f64::from(s.vp(seat)), f64::from(s.vp_public(seat))];
            v.extend(per_roll[i]);
            v.extend([
                p.hand.total() as f64,
                held,
                f64::from(p.dev.played[DevCard::Knight]),
                f64::from(p.road_length),
                f64::from(u8::from(s.longest_road == Some(seat))),
                f64::from(u8::from(s.largest_army == Some(seat))),
                f64::from(p.settlements),
                f64::from(p.cities),
                harbours[i],
                per_roll[i].iter().filter(|&&x| x > 0.0).count() as f64,
            ]);
            v
        })
        .collect();
    let target = f64::from(s.options.vp_target.max(1));
    let scores: Vec<f64> = (0..n).map(|i| f64::from(s.vp(i as almanac_core::Seat))).collect();
    let leader = scores.iter().copied().fold(0.0, f64::max);
    Position { progress: (leader / target).min(1.0), scores, seats }
}
