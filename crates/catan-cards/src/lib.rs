//! The `catan-cards` ruleset: the Catan card game of the rule source (7 VP, an open row of five building
//! cards, Metropolis cards with an A and a B side, harvests for everyone, one trade a turn, road trades
//! while building, Robber events) for 2-4 players; its replay drawing.
//!
//! What the rules fix is validated; what they leave open (the cards drawn, the card refilling the row, the
//! event card revealed and what it did) is recorded in the log and checked against the decks a header may
//! declare. Pure: no I/O, no clock, no randomness. The log format is `docs/formats/catan-cards.md`.
//!
//! - `cards`: the building cards, their costs and points, the numbers of the game.
//! - `setup`, `state`, `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.
//!
//! Resources and hands (known cards as lower bounds, unknown cards counted) are Catan's.

pub mod cards;
mod checkpoint;
pub mod describe;
pub mod event;
pub mod position;
pub mod rules;
pub mod setup;
pub mod state;
pub mod view;
pub mod vocabulary;

use almanac_core::{Declarations, EventError, Fact, Importer, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{View, Vocabulary};
use serde_json::Value;

pub use event::Event;
pub use state::State;

/// The Catan card game, as the registry knows it.
pub struct CatanCards;

impl Ruleset for CatanCards {
    const ID: &'static str = vocabulary::ID;
    const VERSION: u32 = 1;
    type State = State;
    type Event = Event;
    type GameView = view::TableView;
    type PlayerView = view::TableauView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        setup::new_state(header)
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

    fn opening_facts(initial: &State, facts: &mut Vec<Fact>) {
        rules::opening(initial, facts)
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

    fn view(state: &State) -> View<view::TableView, view::TableauView> {
        view::view(state)
    }
    fn write_state(state: &State) -> Vec<u8> {
        checkpoint::write(state)
    }
    fn read_state(initial: &State, bytes: &[u8]) -> Result<State, almanac_core::CheckpointError> {
        checkpoint::read(initial, bytes)
    }
}

impl Declarations for CatanCards {
    const NAME: &'static str = "Catan card game";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] = &[];
    const EVENT_TYPES: &'static [&'static str] = &event::EVENT_TYPES;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
    const FEATURES: &'static [almanac_core::Feature] = &position::FEATURES;

    fn position(state: &State) -> Option<almanac_core::Position> {
        Some(position::position(state))
    }
}
