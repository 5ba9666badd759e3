//! The `catan-cards` ruleset: the Catan card game of the rule source (7 VP, an open row of five building
//! cards, Metropolis cards, harvests for everyone, one trade a turn, Robber events) for 2-4 players, and
//! its replay drawing. What the rules leave open (cards drawn, the row's refill, the event revealed) is in
//! the log, checked against the decks a header may declare (`docs/formats/catan-cards.md`).

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

/// The Catan card game, as the registry knows it.
pub struct CatanCards;

impl almanac_core::Ruleset for CatanCards {
    type State = State;
    const VOCABULARY: &'static almanac_core::Vocabulary = &vocabulary::VOCABULARY;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
}
