//! The header and the state of the race.

use almanac_core::{PlayerEntry, Seat, Seated, SetupError, Table};
use serde::{Deserialize, Serialize};

/// The square that wins.
pub const GOAL: u32 = 10;

/// The header as the race reads it: the players, in seat order.
#[derive(Deserialize)]
pub struct Header {
    pub players: Vec<PlayerEntry>,
}

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> Result<State, SetupError> {
        if !(2..=4).contains(&self.players.len()) {
            return Err(SetupError(format!("the race is for 2 to 4 players, not {}", self.players.len())));
        }
        let table = Table::of(&self.players);
        Ok(State { squares: vec![0; table.len()], table, turn: 1, active: 0, winner: None })
    }
}

/// The race after some steps. The table is what the header fixes (`#[serde(skip)]`); the rest is a
/// checkpoint.
#[derive(Debug, Clone, Serialize, Deserialize, almanac_core::Played)]
pub struct State {
    #[serde(skip)]
    pub table: Table,
    /// Each seat's square.
    pub squares: Vec<u32>,
    pub turn: u32,
    pub active: Seat,
    pub winner: Option<Seat>,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

/// The track, in a view.
#[derive(Serialize)]
pub struct Track {
    pub goal: u32,
}

/// Where a player stands, in a view.
#[derive(Serialize)]
pub struct Square {
    pub square: u32,
}
