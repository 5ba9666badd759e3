//! Longest Road as catanatron 3.2.1 computes it (ruleset option `longest_road: catanatron_3_2_1`).
//!
//! catanatron's award differs from the rulebook in ways its records depend on, so games it recorded can
//! only be replayed to its own results by following its bookkeeping (this is a description of its
//! behaviour, written here from scratch):
//! - each player's roads form "components" (vertex sets). A road joins or merges components; a road that
//!   leads onto an opponent's building does not add that vertex. A settlement built on a vertex where an
//!   opponent has exactly two roads splits that opponent's component in two, walking outwards from the two
//!   neighbours (the walk keeps the settlement's vertex, as an end).
//! - a road length is the longest trail that starts at any vertex of a component and never steps onto a
//!   vertex holding another player's building (it may start on one).
//! - building a road only ever raises the player's recorded length; a split recomputes it.
//! - the card moves on a road only to a length of at least 5 that beats the holder's recorded length;
//!   after a split it goes to the longest recorded length (first such player in the order their first
//!   road was built), whatever that length.

use crate::board::{EdgeId, VertexId};
use crate::pieces::Layout;
use almanac_core::Seat;

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct CatanatronRoads {
    /// Per seat, its components (sorted vertex lists), in catanatron's order.
    components: Vec<Vec<Vec<VertexId>>>,
    /// Recorded lengths, in the order players first got one.
    lengths: Vec<(Seat, u8)>,
    holder: Option<Seat>,
    holder_length: u8,
}

fn insert(set: &mut Vec<VertexId>, v: VertexId) {
    if let Err(i) = set.binary_search(&v) {
        set.insert(i, v);
    }
}

impl CatanatronRoads {
    pub fn new(players: usize) -> Self {
        CatanatronRoads { components: vec![Vec::new(); players], ..Default::default() }
    }

    /// The player's recorded road length.
    pub fn length(&self, p: Seat) -> u8 {
        self.lengths.iter().find(|(s, _)| *s == p).map(|(_, l)| *l).unwrap_or(0)
    }

    /// Who holds the card by this bookkeeping.
    pub fn holder(&self) -> Option<Seat> {
        self.holder
    }

    fn set_length(&mut self, p: Seat, len: u8) {
        match self.lengths.iter_mut().find(|(s, _)| *s == p) {
            Some(entry) => entry.1 = len,
            None => self.lengths.push((p, len)),
        }
    }

    fn component_of(&self, p: Seat, v: VertexId) -> Option<usize> {
        self.components[p as usize].iter().position(|c| c.binary_search(&v).is_ok())
    }

    /// A setup settlement starts a component of its own.
    pub fn setup_settlement(&mut self, p: Seat, v: VertexId) {
        self.components[p as usize].push(vec![v]);
    }

    /// A road was built (already in `layout`).
    pub fn road_built(&mut self, layout: Layout, p: Seat, e: EdgeId) {
        let [a, b] = layout.board.edges[e as usize].ends;
        let (a_enemy, b_enemy) = (layout.rival_at(a, p), layout.rival_at(b, p));
        let (ai, bi) = (self.component_of(p, a), self.component_of(p, b));
        let comps = &mut self.components[p as usize];
        let component = match (ai, bi) {
            (None, Some(j)) if !a_enemy => {
                insert(&mut comps[j], a);
                j
            }
            (Some(i), None) if !b_enemy => {
                insert(&mut comps[i], b);
                i
            }
            (Some(i), Some(j)) if i != j => {
                let mut merged = comps[i].clone();
                for &v in &comps[j] {
                    insert(&mut merged, v);
                }
                comps.remove(i.max(j));
                comps.remove(i.min(j));
                comps.push(merged);
                comps.len() - 1
            }
            (Some(i), _) => i,
            (None, Some(j)) => j,
            (None, None) => {
                // Cannot happen for a connected road; start a component so the state stays usable.
                comps.push(vec![a, b]);
                comps.len() - 1
            }
        };
        let candidate = longest_from(layout, p, &self.components[p as usize][component]);
        let old = self.length(p);
        self.set_length(p, old.max(candidate));
        if candidate >= 5 && candidate > self.holder_length {
            self.holder = Some(p);
            self.holder_length = candidate;
        }
    }

    /// A settlement was built after setup (already in `layout`): it may split opponents' components.
    pub fn settlement_built(&mut self, layout: Layout, p: Seat, v: VertexId) {
        for o in 0..self.components.len() as Seat {
            if o == p {
                continue;
            }
            let edges: Vec<EdgeId> = layout.board.vertices[v as usize]
                .edges
                .iter()
                .copied()
                .filter(|&e| layout.roads[e as usize] == Some(o))
                .collect();
            if edges.len() != 2 {
                continue;
            }
            let a_set = walk(layout, layout.other_end(edges[0], v), o);
            let c_set = walk(layout, layout.other_end(edges[1], v), o);
            if let Some(i) = self.component_of(o, v) {
                self.components[o as usize].remove(i);
            }
            self.components[o as usize].push(a_set);
            self.components[o as usize].push(c_set);
            let best = self.components[o as usize].iter().map(|c| longest_from(layout, o, c)).max().unwrap_or(0);
            self.set_length(o, best);
            // The longest recorded length; the first player in order wins a tie.
            let mut top: Option<(Seat, u8)> = None;
            for &(seat, len) in &self.lengths {
                if top.is_none_or(|(_, l)| len > l) {
                    top = Some((seat, len));
                }
            }
            if let Some((seat, len)) = top {
                self.holder = Some(seat);
                self.holder_length = len;
            }
        }
    }
}

/// The vertices reachable from `start` along `p`'s roads, stopping at (but keeping) opponents' buildings.
fn walk(layout: Layout, start: VertexId, p: Seat) -> Vec<VertexId> {
    let mut seen: Vec<VertexId> = Vec::new();
    let mut agenda = vec![start];
    while let Some(n) = agenda.pop() {
        insert(&mut seen, n);
        if layout.rival_at(n, p) {
            continue;
        }
        for &e in &layout.board.vertices[n as usize].edges {
            if layout.roads[e as usize] == Some(p) {
                let next = layout.other_end(e, n);
                if seen.binary_search(&next).is_err() {
                    agenda.push(next);
                }
            }
        }
    }
    seen
}

/// The longest trail starting at any vertex of `starts`, never stepping onto another player's building.
fn longest_from(layout: Layout, p: Seat, starts: &[VertexId]) -> u8 {
    let g = RoadGraph::of(layout, p);
    starts.iter().map(|&v| g.longest(v)).max().unwrap_or(0)
}

/// A player's roads (at most 15) as bit sets, for the trail search.
struct RoadGraph {
    ends: Vec<[VertexId; 2]>,
    /// Whether the trail may step onto each end (no other player's building there).
    open: Vec<[bool; 2]>,
    /// For each road and end, the other roads touching that end.
    next: Vec<[u16; 2]>,
}

impl RoadGraph {
    fn of(layout: Layout, p: Seat) -> RoadGraph {
        let ends: Vec<[VertexId; 2]> = (0..layout.roads.len())
            .filter(|&e| layout.roads[e] == Some(p))
            .map(|e| layout.board.edges[e].ends)
            .collect();
        let open = ends.iter().map(|[a, b]| [!layout.rival_at(*a, p), !layout.rival_at(*b, p)]).collect();
        let next = (0..ends.len()).map(|i| [0, 1].map(|k| Self::touching(&ends, ends[i][k]) & !(1 << i))).collect();
        RoadGraph { ends, open, next }
    }

    fn touching(ends: &[[VertexId; 2]], v: VertexId) -> u16 {
        ends.iter().enumerate().filter(|(_, e)| e.contains(&v)).fold(0, |m, (i, _)| m | (1 << i))
    }

    fn longest(&self, start: VertexId) -> u8 {
        self.walk(start, Self::touching(&self.ends, start), 0, 0)
    }

    /// Standing on `at`, with roads `here` touching it, having used `used`.
    fn walk(&self, at: VertexId, here: u16, used: u16, len: u8) -> u8 {
        let mut best = len;
        let mut options = here & !used;
        while options != 0 {
            let i = options.trailing_zeros() as usize;
            options &= options - 1;
            let k = if self.ends[i][0] == at { 1 } else { 0 };
            if self.open[i][k] {
                best = best.max(self.walk(self.ends[i][k], self.next[i][k], used | (1 << i), len + 1));
            }
        }
        best
    }
}
