//! The pieces players put on the board, and how many each player has.

use crate::board::{Board, EdgeId, Harbour, VertexId};
use almanac_core::{Seat, Table};

/// A settlement or a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Building {
    pub owner: Seat,
    pub city: bool,
}

impl Building {
    pub fn name(self) -> &'static str {
        if self.city {
            CITY
        } else {
            SETTLEMENT
        }
    }
}

pub const ROAD: &str = "road";
pub const SETTLEMENT: &str = "settlement";
pub const CITY: &str = "city";

pub const MAX_SETTLEMENTS: u8 = 5;
pub const MAX_CITIES: u8 = 4;
pub const MAX_ROADS: u8 = 15;

/// What stands on the board: buildings by vertex, roads by edge (owners).
#[derive(Clone, Copy)]
pub struct Layout<'a> {
    pub board: &'a Board,
    pub buildings: &'a [Option<Building>],
    pub roads: &'a [Option<Seat>],
}

impl Layout<'_> {
    /// Does another player than `p` have a building at `v`?
    pub fn rival_at(&self, v: VertexId, p: Seat) -> bool {
        self.buildings[v as usize].is_some_and(|b| b.owner != p)
    }

    /// `p`'s `piece` (a settlement, or a city where the setup places one) may go on `v`: nothing stands there and no neighbour holds a settlement or city (the
    /// distance rule, the same for every game of the family). The refusal names `p` first, then whose
    /// building is in the way (`table` names them).
    pub fn check_free_vertex(&self, table: &Table, p: Seat, piece: &str, v: VertexId) -> Result<(), String> {
        let label = |v| self.board.vertex_label(v);
        if let Some(b) = self.buildings[v as usize] {
            let there = if b.owner == p {
                format!("their own {} stands there", b.name())
            } else {
                format!("{} already has a {} there", table.name(b.owner), b.name())
            };
            return Err(format!("{} cannot build a {piece} at {}: {there}", table.name(p), label(v)));
        }
        for &n in &self.board.vertices[v as usize].neighbours {
            if let Some(b) = self.buildings[n as usize] {
                return Err(format!(
                    "{}'s {piece} at {} breaks the distance rule (neighbour {} holds {}'s {})",
                    table.name(p),
                    label(v),
                    label(n),
                    table.name(b.owner),
                    b.name()
                ));
            }
        }
        Ok(())
    }

    /// A road of `p` may go on `e`: no road stands there yet (whether it connects is the game's to say).
    pub fn check_free_edge(&self, table: &Table, p: Seat, e: EdgeId) -> Result<(), String> {
        match self.roads[e as usize] {
            Some(o) => Err(format!(
                "{} cannot build a road at {}: {} already has a road there",
                table.name(p),
                self.board.edge_label(e),
                table.name(o)
            )),
            None => Ok(()),
        }
    }

    /// A city of `p` may go on `v`: it replaces one of `p`'s own settlements.
    pub fn check_city_site(&self, table: &Table, p: Seat, v: VertexId) -> Result<(), String> {
        let (who, at) = (table.name(p), self.board.vertex_label(v));
        match self.buildings[v as usize] {
            Some(Building { owner, city: false }) if owner == p => Ok(()),
            Some(b) if b.owner == p => Err(format!("{who} cannot build a city at {at}: a city stands there already")),
            Some(b) => Err(format!(
                "{who} cannot build a city at {at}: a city replaces one of your own settlements, and {at} holds {}'s {}",
                table.name(b.owner),
                b.name()
            )),
            None => Err(format!("{who} cannot build a city at {at}: a city replaces a settlement, and {at} is empty")),
        }
    }

    /// The harbours `p` reaches: those with one of `p`'s settlements or cities at an end of their edge.
    pub fn harbours_of(&self, p: Seat) -> impl Iterator<Item = Harbour> + '_ {
        let reaches = move |e: EdgeId| {
            self.board.edges[e as usize].ends.iter().any(|&v| self.buildings[v as usize].is_some_and(|b| b.owner == p))
        };
        self.board.harbours.iter().filter(move |&&(e, _)| reaches(e)).map(|&(_, h)| h)
    }

    /// The other end of edge `e` from vertex `v`.
    pub fn other_end(&self, e: EdgeId, v: VertexId) -> VertexId {
        let [a, b] = self.board.edges[e as usize].ends;
        if a == v {
            b
        } else {
            a
        }
    }
}

/// What stands on each place that holds something (a building on a vertex, a road on an edge), by the
/// place's index, as `view` shows it.
pub fn placed<T: Copy, V>(places: &[Option<T>], view: impl Fn(usize, T) -> V) -> Vec<V> {
    places.iter().enumerate().filter_map(|(i, p)| p.map(|p| view(i, p))).collect()
}
