//! Game-agnostic vocabulary shared by every ruleset and by everything that reads games.
//!
//! - [`Rules`], [`Line`] and [`Header`]: what a game must say (its state and how events move it, its event
//!   lines, its header).
//! - [`Table`] and [`Seated`]: the players at a game's table, which every game's state holds.
//! - [`Ruleset`] and [`GameKind`]: a game as the registry knows it (its rules' state, the words of its facts,
//!   its replay drawing; the rest provided), and the object the engine's registry lists.
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
pub mod plans;
pub mod position;
pub mod ruleset;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod timeline;
pub mod view;
pub mod vocabulary;
pub mod withdrawal;

/// `#[derive(Acting)]` on an event enum: its `player()`, from the variants; `#[derive(Played)]` on a state:
/// its `standing()`, from its fields.
pub use almanac_derive::{Acting, Played};
pub use checkpoint::CheckpointError;
pub use facts::{cause, Dice, Fact, FactKind, FactRow, Partner, Seat};
pub use fingerprint::{fold_name, normalise_name, search_fold};
pub use insights::{Insights, JudgedDecision, SeatMetric};
pub use kind::{
    EventOf, FormatError, Game, GameKind, GameViewOf, HeaderOf, Imported, Importer, PlayerViewOf, ReadError,
    ResumeError, Ruleset, Viewpoint,
};
pub use log::{table_title, Envelope, LogError, PlayerEntry, Problem, FORMAT};
pub use position::{Feature, Position, Positioned, Reading};
pub use ruleset::{Described, EventError, Header, Line, Played, RuleViolation, Rules, SetupError, Standing, Viewed};
pub use table::{Seated, Sitter, Table};
pub use timeline::{read_events, resume, Timeline};
pub use view::{AnyView, Detail, OwnView, PlayerView, View};
pub use vocabulary::{Chart, CoachPart, DiceSpec, Measure, Opening, PlayerStat, Term, Vocabulary};
