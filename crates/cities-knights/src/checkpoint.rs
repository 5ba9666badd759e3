//! The state at a checkpoint: what play changed. The board and the table come from the header, so they are
//! taken from the initial state when a checkpoint is read back.

use crate::cards::{Card, Cards};
use crate::state::{Knight, Phase, Player, State};
use almanac_catan::board::{HexId, VertexId};
use almanac_catan::pieces::Building;
use almanac_core::{checkpoint, CheckpointError, Seat};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Played {
    numbers: Vec<Option<u8>>,
    players: Vec<Player>,
    buildings: Vec<Option<Building>>,
    roads: Vec<Option<Seat>>,
    knights: Vec<Option<Knight>>,
    walls: Vec<bool>,
    metropolis: [Option<VertexId>; 3],
    merchant: Option<(HexId, Seat)>,
    bank: Cards,
    decks: [u8; 3],
    barbarians: u8,
    attacks: u32,
    robber: HexId,
    turn: u32,
    active: Seat,
    phase: Phase,
    alchemist: Option<[u8; 2]>,
    crane: bool,
    merchant_fleet: Option<Card>,
    free_roads: u8,
    harbor_offers: Vec<bool>,
    must_discard: Vec<u8>,
    longest_road: Option<Seat>,
    winner: Option<Seat>,
}

pub fn write(s: &State) -> Vec<u8> {
    // Every field named: a field added to the state is a compile error here until it is kept or left out.
    let State {
        board: _,
        table: _,
        numbers,
        players,
        buildings,
        roads,
        knights,
        walls,
        metropolis,
        merchant,
        bank,
        decks,
        barbarians,
        attacks,
        robber,
        turn,
        active,
        phase,
        alchemist,
        crane,
        merchant_fleet,
        free_roads,
        harbor_offers,
        must_discard,
        longest_road,
        winner,
    } = s;
    checkpoint::write(&Played {
        numbers: numbers.clone(),
        players: players.clone(),
        buildings: buildings.clone(),
        roads: roads.clone(),
        knights: knights.clone(),
        walls: walls.clone(),
        metropolis: *metropolis,
        merchant: *merchant,
        bank: *bank,
        decks: *decks,
        barbarians: *barbarians,
        attacks: *attacks,
        robber: *robber,
        turn: *turn,
        active: *active,
        phase: *phase,
        alchemist: *alchemist,
        crane: *crane,
        merchant_fleet: *merchant_fleet,
        free_roads: *free_roads,
        harbor_offers: harbor_offers.clone(),
        must_discard: must_discard.clone(),
        longest_road: *longest_road,
        winner: *winner,
    })
}

pub fn read(initial: &State, bytes: &[u8]) -> Result<State, CheckpointError> {
    let p: Played = checkpoint::read(bytes)?;
    if p.players.len() != initial.players.len() || p.buildings.len() != initial.buildings.len() {
        return Err(CheckpointError("the checkpoint is of another table or board".into()));
    }
    Ok(State {
        board: initial.board.clone(),
        table: initial.table.clone(),
        numbers: p.numbers,
        players: p.players,
        buildings: p.buildings,
        roads: p.roads,
        knights: p.knights,
        walls: p.walls,
        metropolis: p.metropolis,
        merchant: p.merchant,
        bank: p.bank,
        decks: p.decks,
        barbarians: p.barbarians,
        attacks: p.attacks,
        robber: p.robber,
        turn: p.turn,
        active: p.active,
        phase: p.phase,
        alchemist: p.alchemist,
        crane: p.crane,
        merchant_fleet: p.merchant_fleet,
        free_roads: p.free_roads,
        harbor_offers: p.harbor_offers,
        must_discard: p.must_discard,
        longest_road: p.longest_road,
        winner: p.winner,
    })
}
