//! The `cities-knights` ruleset: Catan: Cities & Knights for 3-4 players, by the Danish rule source and,
//! where it is silent, the reference's facts. The decisions where both are silent are in the format
//! document, `docs/formats/cities-knights.md`.
//!
//! Pure: no I/O, no clock, no randomness. The board, its names, the resources, the pieces, Longest Road and
//! the players' exchange are the base game's (`almanac-catan`); what this game adds lives here:
//!
//! - `cards`: hands of resources and commodities; `progress`: the tracks and the 54 progress cards.
//! - `state`, `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js` (drawn
//!   on the base game's `web/board.js`).

pub mod cards;
mod checkpoint;
pub mod describe;
pub mod event;
pub mod position;
pub mod progress;
pub mod rules;
pub mod state;
pub mod view;
pub mod vocabulary;

use almanac_catan::board::{Board, BoardSpec};
use almanac_core::{Declarations, EventError, Fact, Importer, PlayerEntry, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{View, Vocabulary};
use serde::Deserialize;
use serde_json::Value;

pub use event::Event;
pub use state::State;

/// The header as this ruleset reads it (the envelope's other fields are ignored here).
#[derive(Deserialize)]
struct Header {
    players: Vec<PlayerEntry>,
    board: BoardSpec,
}

/// Cities & Knights, as the registry knows it.
pub struct CitiesKnights;

impl Ruleset for CitiesKnights {
    const ID: &'static str = vocabulary::ID;
    /// 2: what each roll promises each player (`Fact::Promised`), so that luck can be read.
    const VERSION: u32 = 2;
    type State = State;
    type Event = Event;
    type GameView = view::BoardView;
    type PlayerView = view::HandView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        let h = Header::deserialize(header).map_err(|e| SetupError(format!("header: {e}")))?;
        let board = Board::from_spec(&h.board)?;
        let seating = almanac_core::Table::of(&h.players);
        State::new(board, seating)
    }

    fn parse_event(state: &State, line: &str) -> Result<Event, EventError> {
        event::parse(state, line)
    }

    fn write_event(state: &State, event: &Event) -> String {
        event::write(state, event)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe::describe(state, event)
    }

    fn apply(state: &mut State, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, event, facts)
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn active(state: &State) -> Seat {
        state.active
    }

    fn winner(state: &State) -> Option<Seat> {
        state.winner
    }

    fn view(state: &State) -> View<view::BoardView, view::HandView> {
        view::view(state)
    }
    fn write_state(state: &State) -> Vec<u8> {
        checkpoint::write(state)
    }
    fn read_state(initial: &State, bytes: &[u8]) -> Result<State, almanac_core::CheckpointError> {
        checkpoint::read(initial, bytes)
    }
}

impl Declarations for CitiesKnights {
    const NAME: &'static str = "Catan: Cities & Knights";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] = &[];
    const EVENT_TYPES: &'static [&'static str] = &event::EVENT_TYPES;
    const REPLAY_SCRIPT: &'static str =
        concat!(include_str!("../../catan/web/board.js"), include_str!("../web/replay.js"));
    const FEATURES: &'static [almanac_core::Feature] = &position::FEATURES;

    fn position(state: &State) -> Option<almanac_core::Position> {
        Some(position::position(state))
    }
}
