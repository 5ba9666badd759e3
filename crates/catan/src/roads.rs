//! The longest single road of a player: the longest trail along their roads that uses each road once
//! and does not pass through a vertex holding an opponent's settlement or city.

use crate::board::{EdgeId, VertexId};
use crate::state::State;
use almanac_core::Seat;

pub fn longest_road(s: &State, p: Seat) -> u8 {
    let roads: Vec<EdgeId> = (0..s.roads.len() as EdgeId).filter(|&e| s.roads[e as usize] == Some(p)).collect();
    let mut best = 0;
    for (i, &e) in roads.iter().enumerate() {
        for &start in &s.board.edges[e as usize].ends {
            // Start at each end of each road; the trail's first vertex may be anything.
            let other = other_end(s, e, start);
            best = best.max(walk(s, p, &roads, other, 1u16 << i, 1));
        }
    }
    best
}

fn other_end(s: &State, e: EdgeId, v: VertexId) -> VertexId {
    let [a, b] = s.board.edges[e as usize].ends;
    if a == v {
        b
    } else {
        a
    }
}

fn walk(s: &State, p: Seat, roads: &[EdgeId], at: VertexId, used: u16, len: u8) -> u8 {
    if s.buildings[at as usize].is_some_and(|b| b.owner != p) {
        return len;
    }
    let mut best = len;
    for (i, &e) in roads.iter().enumerate() {
        if used & (1 << i) != 0 {
            continue;
        }
        let [a, b] = s.board.edges[e as usize].ends;
        if a == at || b == at {
            let next = if a == at { b } else { a };
            best = best.max(walk(s, p, roads, next, used | (1 << i), len + 1));
        }
    }
    best
}
