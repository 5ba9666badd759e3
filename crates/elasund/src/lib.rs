//! The `elasund` ruleset: Elasund, the first city of Catan, for 2-4 players, by the Finnish rule source and,
//! where it is silent, the reference's facts (the decisions are in `docs/formats/elasund.md`); its replay
//! drawing.
//!
//! Pure: no I/O, no clock, no randomness.
//!
//! - `board`: the grid, the city by number of players, trade squares, wall sites, church tiles, start huts.
//! - `buildings`, `cards`: the tiles and the gold and influence cards.
//! - `state`, `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.

pub mod board;
pub mod buildings;
pub mod cards;
pub mod describe;
pub mod event;
pub mod position;
pub mod rules;
pub mod setup;
pub mod state;
pub mod view;
pub mod vocabulary;

pub use event::Event;
pub use state::State;

/// Elasund, as the registry knows it.
pub struct Elasund;

impl almanac_core::Ruleset for Elasund {
    type State = State;
    const VOCABULARY: &'static almanac_core::Vocabulary = &vocabulary::VOCABULARY;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
}
