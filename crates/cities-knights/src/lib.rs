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
pub mod describe;
pub mod event;
pub mod position;
pub mod progress;
pub mod rules;
pub mod state;
pub mod view;
pub mod vocabulary;

pub use event::Event;
pub use state::State;

/// Cities & Knights, as the registry knows it.
pub struct CitiesKnights;

impl almanac_core::Ruleset for CitiesKnights {
    type State = State;
    const VOCABULARY: &'static almanac_core::Vocabulary = &vocabulary::VOCABULARY;
    const REPLAY_SCRIPT: &'static str =
        concat!(include_str!("../../catan/web/board.js"), include_str!("../web/replay.js"));
}
