//! Game-agnostic vocabulary shared by every ruleset and by everything that reads games.
//!
//! - [`Ruleset`]: the shape every game's rules take (initial / apply, with decide and evolve on top).
//! - [`log`]: the almanac/1 envelope (header line, then one event per line) and its errors.
//! - [`Fact`]: what analysis and charts read; the same vocabulary for every game.
//! - [`Timeline`]: a validated game, able to answer "what was the state at turn N / event N".

pub mod facts;
pub mod log;
pub mod ruleset;
pub mod timeline;

pub use facts::{Cause, Fact, FactRow, Partner, Seat};
pub use log::{Envelope, LogError, PlayerEntry, FORMAT};
pub use ruleset::{RuleViolation, Ruleset, SetupError};
pub use timeline::{Game, Timeline};
