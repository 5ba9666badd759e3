//! The state at a checkpoint: what play changed. The table and the decks' make-up come from the header, so
//! they are taken from the initial state when a checkpoint is read back.

use crate::cards::Card;
use crate::state::{Phase, Player, Side, State};
use almanac_core::{checkpoint, CheckpointError, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
struct Played {
    players: Vec<Player>,
    row: Vec<Card>,
    metropolises_left: u8,
    side: Side,
    buildings_out: BTreeMap<Card, u8>,
    events_out: BTreeMap<String, u8>,
    turn: u32,
    active: Seat,
    phase: Phase,
    traded: bool,
    road_traded: bool,
    must_discard: Vec<u8>,
    longest_road: Option<Seat>,
    largest_army: Option<Seat>,
    winner: Option<Seat>,
}

pub fn write(s: &State) -> Vec<u8> {
    // Every field named: a field added to the state is a compile error here until it is kept or left out.
    let State {
        table: _,
        decks: _,
        players,
        row,
        metropolises_left,
        side,
        buildings_out,
        events_out,
        turn,
        active,
        phase,
        traded,
        road_traded,
        must_discard,
        longest_road,
        largest_army,
        winner,
    } = s;
    checkpoint::write(&Played {
        players: players.clone(),
        row: row.clone(),
        metropolises_left: *metropolises_left,
        side: *side,
        buildings_out: buildings_out.clone(),
        events_out: events_out.clone(),
        turn: *turn,
        active: *active,
        phase: *phase,
        traded: *traded,
        road_traded: *road_traded,
        must_discard: must_discard.clone(),
        longest_road: *longest_road,
        largest_army: *largest_army,
        winner: *winner,
    })
}

pub fn read(initial: &State, bytes: &[u8]) -> Result<State, CheckpointError> {
    let p: Played = checkpoint::read(bytes)?;
    if p.players.len() != initial.players.len() {
        return Err(CheckpointError("the checkpoint is of another table".into()));
    }
    Ok(State {
        table: initial.table.clone(),
        decks: initial.decks.clone(),
        players: p.players,
        row: p.row,
        metropolises_left: p.metropolises_left,
        side: p.side,
        buildings_out: p.buildings_out,
        events_out: p.events_out,
        turn: p.turn,
        active: p.active,
        phase: p.phase,
        traded: p.traded,
        road_traded: p.road_traded,
        must_discard: p.must_discard,
        longest_road: p.longest_road,
        largest_army: p.largest_army,
        winner: p.winner,
    })
}
