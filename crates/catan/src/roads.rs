//! The longest single road of a player: the longest trail along their roads that uses each road once
//! and does not pass through a vertex holding an opponent's settlement or city.

use crate::board::{EdgeId, VertexId};
use crate::pieces::Layout;
use almanac_core::Seat;

pub fn longest_road(layout: Layout, p: Seat) -> u8 {
    let mine: Vec<EdgeId> =
        (0..layout.roads.len() as EdgeId).filter(|&e| layout.roads[e as usize] == Some(p)).collect();
    // Each of the player's roads by its place in `mine` (its bit in a trail's `used`), found from a corner's
    // own edges rather than by looking through every road at each step.
    let mut bit = vec![NONE; layout.roads.len()];
    for (i, &e) in mine.iter().enumerate() {
        bit[e as usize] = i as u8;
    }
    let trail = Trail { layout, bit: &bit, player: p };
    let mut best = 0;
    for (i, &e) in mine.iter().enumerate() {
        for &start in &layout.board.edges[e as usize].ends {
            // Start at each end of each road; the trail's first vertex may be anything.
            best = best.max(trail.walk(layout.other_end(e, start), 1u16 << i, 1));
        }
    }
    best
}

/// Not one of the player's roads.
const NONE: u8 = u8::MAX;

struct Trail<'a> {
    layout: Layout<'a>,
    bit: &'a [u8],
    player: Seat,
}

impl Trail<'_> {
    fn walk(&self, at: VertexId, used: u16, len: u8) -> u8 {
        if self.layout.rival_at(at, self.player) {
            return len;
        }
        let mut best = len;
        for &e in self.layout.board.vertices[at as usize].edges.iter() {
            let i = self.bit[e as usize];
            if i == NONE || used & (1 << i) != 0 {
                continue;
            }
            best = best.max(self.walk(self.layout.other_end(e, at), used | (1 << i), len + 1));
        }
        best
    }
}
