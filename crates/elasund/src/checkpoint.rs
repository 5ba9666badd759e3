//! The state at a checkpoint: what play changed. The table, the players' colours and the city's width come
//! from the header, so they are taken from the initial state when a checkpoint is read back.

use crate::board::{ChurchTile, Square, WallSite};
use crate::state::{Cell, Phase, Placed, Player, State};
use almanac_core::{checkpoint, CheckpointError, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
struct Played {
    players: Vec<Player>,
    cells: Vec<Cell>,
    buildings: Vec<Option<Placed>>,
    walls: BTreeMap<WallSite, (Seat, u8)>,
    church: Option<Square>,
    church_stack: Vec<ChurchTile>,
    stacks: [u8; 5],
    gold: u8,
    deck: u8,
    discards: u8,
    ship: Option<u8>,
    pirate: bool,
    turn: u32,
    active: Seat,
    phase: Phase,
    winner: Option<Seat>,
}

pub fn write(s: &State) -> Vec<u8> {
    // Every field named: a field added to the state is a compile error here until it is kept or left out.
    let State {
        table: _,
        colours: _,
        city: _,
        players,
        cells,
        buildings,
        walls,
        church,
        church_stack,
        stacks,
        gold,
        deck,
        discards,
        ship,
        pirate,
        turn,
        active,
        phase,
        winner,
    } = s;
    checkpoint::write(&Played {
        players: players.clone(),
        cells: cells.clone(),
        buildings: buildings.clone(),
        walls: walls.clone(),
        church: *church,
        church_stack: church_stack.clone(),
        stacks: *stacks,
        gold: *gold,
        deck: *deck,
        discards: *discards,
        ship: *ship,
        pirate: *pirate,
        turn: *turn,
        active: *active,
        phase: *phase,
        winner: *winner,
    })
}

pub fn read(initial: &State, bytes: &[u8]) -> Result<State, CheckpointError> {
    let p: Played = checkpoint::read(bytes)?;
    if p.players.len() != initial.players.len() || p.cells.len() != initial.cells.len() {
        return Err(CheckpointError("the checkpoint is of another table or city".into()));
    }
    Ok(State {
        table: initial.table.clone(),
        colours: initial.colours.clone(),
        city: initial.city,
        players: p.players,
        cells: p.cells,
        buildings: p.buildings,
        walls: p.walls,
        church: p.church,
        church_stack: p.church_stack,
        stacks: p.stacks,
        gold: p.gold,
        deck: p.deck,
        discards: p.discards,
        ship: p.ship,
        pirate: p.pirate,
        turn: p.turn,
        active: p.active,
        phase: p.phase,
        winner: p.winner,
    })
}
