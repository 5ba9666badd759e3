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
use crate::state::State;
use almanac_core::Seat;

#[derive(Debug, Clone, Default)]
pub struct CatanatronRoads {
    /// Per seat, its components (sorted vertex lists), in catanatron's order.
    components: Vec<Vec<Vec<VertexId>>>,
    /// Recorded lengths, in the order players first got one.
    lengths: Vec<(Seat, u8)>,
    holder: Option<Seat>,
    holder_length: u8,
}

impl CatanatronRoads {
    pub fn new(players: usize) -> Self {
        CatanatronRoads { components: vec![Vec::new(); players], ..Default::default() }
    }

    pub fn length(&self, p: Seat) -> u8 {
        self.lengths.iter().find(|(s, _)| *s == p).map(|(_, l)| *l).unwrap_or(0)
    }

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
}

fn enemy(s: &State, v: VertexId, p: Seat) -> bool {
    s.buildings[v as usize].is_some_and(|b| b.owner != p)
}

fn insert(set: &mut Vec<VertexId>, v: VertexId) {
    if let Err(i) = set.binary_search(&v) {
        set.insert(i, v);
    }
}

/// A setup settlement starts a component of its own.
pub fn setup_settlement(s: &mut State, p: Seat, v: VertexId) {
    let roads = s.catanatron_roads.as_mut().expect("catanatron mode");
    roads.components[p as usize].push(vec![v]);
}

/// A road was built (already placed in `s.roads`).
pub fn road_built(s: &mut State, p: Seat, e: EdgeId) {
    let [a, b] = s.board.edges[e as usize].ends;
    let (a_enemy, b_enemy) = (enemy(s, a, p), enemy(s, b, p));
    let mut roads = s.catanatron_roads.take().expect("catanatron mode");
    let (ai, bi) = (roads.component_of(p, a), roads.component_of(p, b));
    let comps = &mut roads.components[p as usize];
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
    let candidate = longest_from(s, p, &roads.components[p as usize][component]);
    let old = roads.length(p);
    roads.set_length(p, old.max(candidate));
    if candidate >= 5 && candidate > roads.holder_length {
        roads.holder = Some(p);
        roads.holder_length = candidate;
    }
    s.catanatron_roads = Some(roads);
}

/// A settlement was built after setup (already placed): it may split opponents' components.
pub fn settlement_built(s: &mut State, p: Seat, v: VertexId) {
    let mut roads = s.catanatron_roads.take().expect("catanatron mode");
    for o in 0..s.players.len() as Seat {
        if o == p {
            continue;
        }
        let edges: Vec<EdgeId> =
            s.board.vertices[v as usize].edges.iter().copied().filter(|&e| s.roads[e as usize] == Some(o)).collect();
        if edges.len() != 2 {
            continue;
        }
        let other = |e: EdgeId| {
            let [x, y] = s.board.edges[e as usize].ends;
            if x == v {
                y
            } else {
                x
            }
        };
        let a_set = walk(s, other(edges[0]), o);
        let c_set = walk(s, other(edges[1]), o);
        if let Some(i) = roads.component_of(o, v) {
            roads.components[o as usize].remove(i);
        }
        roads.components[o as usize].push(a_set);
        roads.components[o as usize].push(c_set);
        let best = roads.components[o as usize].iter().map(|c| longest_from(s, o, c)).max().unwrap_or(0);
        roads.set_length(o, best);
        // The longest recorded length; the first player in order wins a tie.
        let mut top: Option<(Seat, u8)> = None;
        for &(seat, len) in &roads.lengths {
            if top.is_none_or(|(_, l)| len > l) {
                top = Some((seat, len));
            }
        }
        if let Some((seat, len)) = top {
            roads.holder = Some(seat);
            roads.holder_length = len;
        }
    }
    s.catanatron_roads = Some(roads);
}

/// The vertices reachable from `start` along `p`'s roads, stopping at (but keeping) opponents' buildings.
fn walk(s: &State, start: VertexId, p: Seat) -> Vec<VertexId> {
    let mut seen: Vec<VertexId> = Vec::new();
    let mut agenda = vec![start];
    while let Some(n) = agenda.pop() {
        insert(&mut seen, n);
        if enemy(s, n, p) {
            continue;
        }
        for &e in &s.board.vertices[n as usize].edges {
            if s.roads[e as usize] == Some(p) {
                let [x, y] = s.board.edges[e as usize].ends;
                let next = if x == n { y } else { x };
                if seen.binary_search(&next).is_err() {
                    agenda.push(next);
                }
            }
        }
    }
    seen
}

/// The longest trail starting at any vertex of `starts`, never stepping onto another player's building.
fn longest_from(s: &State, p: Seat, starts: &[VertexId]) -> u8 {
    let g = RoadGraph::of(s, p);
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
    fn of(s: &State, p: Seat) -> RoadGraph {
        let ends: Vec<[VertexId; 2]> =
            (0..s.roads.len()).filter(|&e| s.roads[e] == Some(p)).map(|e| s.board.edges[e].ends).collect();
        let open = ends.iter().map(|[a, b]| [!enemy(s, *a, p), !enemy(s, *b, p)]).collect();
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
