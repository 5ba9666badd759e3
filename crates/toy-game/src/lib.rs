//! The `ten-squares` ruleset: players take turns moving one to three squares; whoever reaches square ten first
//! wins. The smallest game there is, kept to show what adding a game takes (ARCHITECTURE.md, "Adding a
//! game"): registered only when the engine's `toy-game` feature is on, which the tests turn on and the build
//! `make run` starts does not. `state`: the header and the state; `rules`: its rules and views; `event`: the
//! line; `position`: what the win-chance model reads; `vocabulary`: the words; `web/replay.js`.

pub mod event;
pub mod position;
pub mod rules;
pub mod state;
pub mod vocabulary;

pub use event::Event;
pub use state::State;

/// The race, as the registry knows it.
pub struct Race;

impl almanac_core::Ruleset for Race {
    type State = State;
    const VOCABULARY: &'static almanac_core::Vocabulary = &vocabulary::VOCABULARY;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
}
