//! The state at a checkpoint: what play changed. The board, the options, the equipment and the table come
//! from the header, so they are taken from the initial state when a checkpoint is read back.

use crate::board::HexId;
use crate::catanatron_roads::CatanatronRoads;
use crate::development::DevCounts;
use crate::helpers::Helpers;
use crate::pieces::Building;
use crate::resources::Resources;
use crate::state::{Phase, Player, State};
use almanac_core::{checkpoint, CheckpointError, Seat};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Played {
    players: Vec<Player>,
    buildings: Vec<Option<Building>>,
    roads: Vec<Option<Seat>>,
    bank: Resources,
    deck_left: u8,
    deck_drawn: DevCounts,
    robber: HexId,
    turn: u32,
    active: Seat,
    phase: Phase,
    rolled: bool,
    dev_played: bool,
    built: bool,
    free_roads: u8,
    must_discard: Vec<u8>,
    longest_road: Option<Seat>,
    largest_army: Option<Seat>,
    winner: Option<Seat>,
    helpers: Option<Box<Helpers>>,
    catanatron_roads: Option<Box<CatanatronRoads>>,
}

pub fn write(s: &State) -> Vec<u8> {
    // Every field named: a field added to the state is a compile error here until it is kept or left out.
    let State {
        board: _,
        options: _,
        equipment: _,
        table: _,
        players,
        buildings,
        roads,
        bank,
        deck_left,
        deck_drawn,
        robber,
        turn,
        active,
        phase,
        rolled,
        dev_played,
        built,
        free_roads,
        must_discard,
        longest_road,
        largest_army,
        winner,
        helpers,
        catanatron_roads,
    } = s;
    checkpoint::write(&Played {
        players: players.clone(),
        buildings: buildings.clone(),
        roads: roads.clone(),
        bank: *bank,
        deck_left: *deck_left,
        deck_drawn: *deck_drawn,
        robber: *robber,
        turn: *turn,
        active: *active,
        phase: *phase,
        rolled: *rolled,
        dev_played: *dev_played,
        built: *built,
        free_roads: *free_roads,
        must_discard: must_discard.clone(),
        longest_road: *longest_road,
        largest_army: *largest_army,
        winner: *winner,
        helpers: helpers.clone(),
        catanatron_roads: catanatron_roads.clone(),
    })
}

pub fn read(initial: &State, bytes: &[u8]) -> Result<State, CheckpointError> {
    let p: Played = checkpoint::read(bytes)?;
    if p.players.len() != initial.players.len() || p.buildings.len() != initial.buildings.len() {
        return Err(CheckpointError("the checkpoint is of another table or board".into()));
    }
    Ok(State {
        board: initial.board.clone(),
        options: initial.options,
        equipment: initial.equipment,
        table: initial.table.clone(),
        players: p.players,
        buildings: p.buildings,
        roads: p.roads,
        bank: p.bank,
        deck_left: p.deck_left,
        deck_drawn: p.deck_drawn,
        robber: p.robber,
        turn: p.turn,
        active: p.active,
        phase: p.phase,
        rolled: p.rolled,
        dev_played: p.dev_played,
        built: p.built,
        free_roads: p.free_roads,
        must_discard: p.must_discard,
        longest_road: p.longest_road,
        largest_army: p.largest_army,
        winner: p.winner,
        helpers: p.helpers,
        catanatron_roads: p.catanatron_roads,
    })
}
