//! The state at a checkpoint: what play changed. The options and the table come from the header, so they are
//! taken from the initial state when a checkpoint is read back; the grid is where each placed tile lies, so
//! it is rebuilt from them.

use crate::state::{Group, Placed, Player, State, Step};
use almanac_core::{checkpoint, CheckpointError, Seat};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Played {
    players: Vec<Player>,
    placed: Vec<Placed>,
    parent: Vec<usize>,
    groups: Vec<Option<Group>>,
    supply: Vec<u8>,
    turn: u32,
    active: Seat,
    step: Step,
    second_part: bool,
    bonus_due: bool,
}

pub fn write(s: &State) -> Vec<u8> {
    // Every field named: a field added to the state is a compile error here until it is kept or left out.
    let State {
        options: _,
        table: _,
        grid: _,
        players,
        placed,
        parent,
        groups,
        supply,
        turn,
        active,
        step,
        second_part,
        bonus_due,
    } = s;
    checkpoint::write(&Played {
        players: players.clone(),
        placed: placed.clone(),
        parent: parent.clone(),
        groups: groups.clone(),
        supply: supply.clone(),
        turn: *turn,
        active: *active,
        step: *step,
        second_part: *second_part,
        bonus_due: *bonus_due,
    })
}

pub fn read(initial: &State, bytes: &[u8]) -> Result<State, CheckpointError> {
    let p: Played = checkpoint::read(bytes)?;
    if p.players.len() != initial.players.len() || p.supply.len() != initial.supply.len() {
        return Err(CheckpointError("the checkpoint is of another table or tile set".into()));
    }
    let grid = p.placed.iter().enumerate().map(|(i, t)| (t.at, i)).collect();
    Ok(State {
        options: initial.options.clone(),
        table: initial.table.clone(),
        grid,
        players: p.players,
        placed: p.placed,
        parent: p.parent,
        groups: p.groups,
        supply: p.supply,
        turn: p.turn,
        active: p.active,
        step: p.step,
        second_part: p.second_part,
        bonus_due: p.bonus_due,
    })
}
