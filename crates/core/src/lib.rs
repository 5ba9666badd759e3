//! Game-agnostic vocabulary shared by every ruleset and by everything that reads games.
//!
//! - [`Ruleset`]: the shape every game's rules take (initial / apply).
//! - [`Table`] and [`Seated`]: the players at a game's table, which every game's state holds.
//! - [`Declarations`] and [`GameKind`]: what a game crate declares besides its rules (its name, the words of
//!   its facts, its importers, its replay drawing), and the object the engine's registry lists.
//! - [`log`]: the almanac/1 envelope (header line, then one event per line) and its errors.
//! - [`Fact`]: what analysis and charts read; the same shapes for every game, in words the game declares
//!   in its [`Vocabulary`].
//! - [`View`]: the state at a moment, typed where games share it.
//! - [`Timeline`] and [`Game`]: a validated game, able to answer "what was the state at turn N / event N".

pub mod checkpoint;
pub mod colours;
pub mod decisions;
pub mod derived;
mod facade;
pub mod facts;
pub mod field;
pub mod fingerprint;
pub mod hash;
pub mod insights;
pub mod kind;
pub mod log;
pub mod moment;
pub mod next;
pub mod position;
pub mod ruleset;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod timeline;
pub mod view;
pub mod vocabulary;
pub mod withdrawal;

pub use checkpoint::CheckpointError;
pub use facts::{cause, Dice, Fact, FactKind, FactRow, Partner, Seat};
pub use fingerprint::{fold_name, normalise_name};
pub use insights::{Insights, JudgedDecision, SeatMetric};
pub use kind::{Declarations, FormatError, Game, GameKind, Importer, ResumeError, Viewpoint};
pub use log::{table_title, Envelope, LogError, PlayerEntry, Problem, FORMAT};
pub use position::{Feature, Position};
pub use ruleset::{
    EventError, GameViewOf, Header, HeaderOf, Line, PlayerViewOf, RuleViolation, Rules, Ruleset, SetupError, Standing,
};
pub use table::{Seated, Sitter, Table};
pub use timeline::{read_events, resume, Timeline};
pub use view::{AnyView, Detail, PlayerView, View};
pub use vocabulary::{Chart, CoachPart, DiceSpec, Measure, Opening, PlayerStat, Term, Vocabulary};
