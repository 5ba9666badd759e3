//! The pieces players put on the board, and how many each player has.

use crate::board::{Board, EdgeId, VertexId};
use almanac_core::Seat;

/// A settlement or a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
