//! Almanac's use cases, one function each, shared by the `almanac` command and the HTTP server, so both
//! answer the same question the same way. Neither SQL nor HTTP is written here: this layer joins the
//! engine (the registry of games), the store, analysis and charts.
//!
//! Reading use cases take a `&Store` (any read connection), writing ones a `&mut Store` (the writer); the
//! server runs them on its pool's connections.
//!
//! A file per job: `uploads` (a log checked, imported, stored), `reading` (what a reader asks of a stored
//! game), `reprojection` (games derived again), `clubs` (clubs, tokens, publishing, deleting, notes),
//! `migration` (a store copied into another), `live` (a game at the table), `chances`, `players`,
//! `questions`, `tables`; `error` the failure they share. Everything is named from here.

pub mod chances;
mod clubs;
mod error;
mod live;
mod migration;
pub mod players;
pub mod questions;
mod reading;
mod reprojection;
pub mod tables;
mod uploads;

pub use almanac_analysis::coach::{Cell as CoachCell, CoachRow, CoachTable, Column as CoachColumn};
pub use almanac_store::{DueGame, StoredGame, TokenRecord};
pub use live::{append, append_to, catch_up, LiveGame};

pub use almanac_engine::{
    format, format_names, formats, game_kind, Format, ImportError, Reading, ValidatedLog, Viewpoint, GAMES,
};
pub use almanac_store::{
    Access, Club, ClubId, ClubRow, GameFilter, Inserted, Ownership, Sort, TokenRow, Viewer, Visible, VisiblePlayer,
};

pub use clubs::*;
pub use error::{Result, ServiceError};
pub use migration::*;
pub(crate) use reading::read_stored;
pub use reading::*;
pub use reprojection::*;
pub(crate) use uploads::entry_times;
pub use uploads::*;
