//! The event store, on SQLite (a file, the default) or PostgreSQL (`postgres://…`). All of Almanac's SQL
//! lives in this crate: `sqlite/` and `postgres/`, one backend each, behind [`Store`]; both keep a game's
//! log, facts and checkpoints in the packed forms of `packed/`.
//!
//! Promises, the same on both backends (each has a test in `tests/store.rs`, run against both):
//! - events are append-only: triggers reject UPDATE and DELETE on the log's chunks (`event_chunks`), and an
//!   INSERT of a chunk that does not start at the last seq of its game + 1 (which also closes `INSERT OR
//!   REPLACE`); a game's id, hash, ruleset, header
//!   and owner never change, and no game row is deleted or replaced;
//! - a club's private game is found by nobody else, nor a player of its games only: every read of a game
//!   takes a [`Visible`] and of a player a [`VisiblePlayer`], made only by the store's access check for a
//!   [`Viewer`]; players' ids are random;
//! - no statement rewrites history: `INSERT OR REPLACE` through any key, `UPDATE`, `DELETE` (and `TRUNCATE`
//!   on PostgreSQL) of the log, a game's identity, its seats, the players, notes and tokens are refused;
//! - a game is stored in one transaction with its facts: all or nothing;
//! - the same log twice is one game (the hash of its canonical spelling, `almanac_core::hash`);
//! - live appends name the sequence number they expect to follow; a stale writer gets [`StoreError::Conflict`];
//! - the schema changes only by numbered migrations (`migrations/NNN_*.sql`), applied in order once;
//! - every game keeps the ruleset version that accepted it; `reproject` re-derives a game's facts and
//!   summary under a newer version without touching its events;
//! - [`Pool`]: readers work side by side (WAL) while one writer writes;
//! - every seat names a player across games: one identity per name (in any case) among one club's games,
//!   spellings merged into one; only published games count for a player.

mod cut_off;
mod error;
mod ownership;
mod packed;
mod pool;
mod postgres;
mod questions;
mod rows;
mod seats;
mod sqlite;
mod store;
#[cfg(feature = "testing")]
pub mod testing;
pub mod yardstick;

pub use almanac_core::FactRow;
pub use error::{Result, StoreError};
pub use ownership::{Access, Club, ClubId, ClubRow, Ownership, TokenRow, Viewer, Visible, VisiblePlayer};
pub use pool::{Pool, ReadsServed, ReplicaHealth};
pub use rows::{
    game_id, player_key, Checkpoint, GameFilter, GameRow, Identity, Inserted, PlayerId, PlayerRow, RatedGame,
    Recording, ResumePoint, SeatOf, Sitting,
};
pub use rows::{
    AnswerRow, Appended, CountedGame, Derivation, Dimension, DueGame, FieldOf, LikeField, NewGame, Note, OpeningRecord,
    PartnerTotal, PlayerNumber, PlayerProfile, Question, Sort, StoredGame, TokenRecord, WinModel,
};
pub use store::{is_postgres, Ahead, Store};
