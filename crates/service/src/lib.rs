//! Almanac's use cases, one function each, shared by the `almanac` command and the HTTP server.
//! Neither SQL nor HTTP is written here: this layer only joins the engine, the store and analysis.

use almanac_analysis::game_stats;
use almanac_core::{Game, LogError};
use almanac_engine::{content_hash, read_log, ImportError, ValidatedLog};
use almanac_formats::Format;
use almanac_store::{Inserted, Store, StoreError};
use serde_json::Value;

/// Why a use case failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("stored game {id} no longer validates: {error}")]
    Corrupt { id: String, error: LogError },
    #[error("game {id} has {events} events; event {seq} is past the end")]
    PastTheEnd { id: String, events: usize, seq: usize },
    #[error("the events do not follow the stored log: {0}")]
    Rejected(LogError),
}

/// Validates a file of `format` (`None`: guess) and stores it in one transaction.
pub fn import(store: &mut Store, format: Option<Format>, text: &str) -> Result<(Inserted, ValidatedLog), ServiceError> {
    let log = almanac_engine::validate(format, text)?;
    let inserted = store_log(store, &log)?;
    Ok((inserted, log))
}

/// Stores a validated log.
pub fn store_log(store: &mut Store, log: &ValidatedLog) -> Result<Inserted, StoreError> {
    let hash = content_hash(&log.header_line, &log.event_lines);
    store.insert_game(log.game.as_ref(), &log.header_line, &log.event_lines, &hash)
}

/// Loads a stored game (by id or unique prefix) back into a timeline.
pub fn load(store: &Store, game: &str) -> Result<(String, Box<dyn Game>), ServiceError> {
    let id = store.resolve(game)?;
    let (header, events) = store.log(&id)?;
    let mut text = header;
    for e in events {
        text.push('\n');
        text.push_str(&e);
    }
    let game = read_log(&text).map_err(|error| ServiceError::Corrupt { id: id.clone(), error })?;
    Ok((id, game))
}

/// Which moment of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The end of turn N (0 = setup).
    Turn(u32),
    /// After N events (0 = before the first).
    Seq(usize),
    Final,
}

/// The state at a moment, as `almanac state --json` prints it: the ruleset's view plus `game` and `seq`.
pub fn state(id: &str, game: &dyn Game, at: At) -> Result<Value, ServiceError> {
    let n = match at {
        At::Turn(t) => game.events_through_turn(t),
        At::Seq(s) if s > game.event_count() => {
            return Err(ServiceError::PastTheEnd { id: id.to_string(), events: game.event_count(), seq: s })
        }
        At::Seq(s) => s,
        At::Final => game.event_count(),
    };
    let mut view = game.view_after(n);
    view["game"] = Value::String(id.to_string());
    view["seq"] = Value::from(n as u64);
    Ok(view)
}

/// A game's stats from its stored facts, as `almanac stats --json` prints them.
pub fn stats(store: &Store, id: &str) -> Result<(Value, almanac_analysis::GameStats), ServiceError> {
    let row = store.game(id)?;
    let names: Vec<String> = row.players.iter().map(|p| p.name.clone()).collect();
    let facts = store.facts(id)?;
    let stats = game_stats(&names, &facts);
    let mut v = serde_json::to_value(&stats).expect("stats serialize");
    v["game"] = Value::String(id.to_string());
    Ok((v, stats))
}

/// Appends event lines to a stored game, if its log still ends at `expected_seq`. Returns the new
/// number of events and the updated game.
pub fn append(
    store: &mut Store,
    id: &str,
    expected_seq: u64,
    lines: &[String],
) -> Result<(u64, Box<dyn Game>), ServiceError> {
    let (id, mut game) = load(store, id)?;
    if game.event_count() as u64 != expected_seq {
        return Err(StoreError::Conflict { game: id, expected: expected_seq, actual: game.event_count() as u64 }.into());
    }
    for (k, line) in lines.iter().enumerate() {
        // Line numbers as if the events were in the file: header, stored events, then these.
        game.push_line(game.event_count() + 2, line).map_err(|e| match e {
            LogError::Rule { reason, .. } => {
                ServiceError::Rejected(LogError::Rule { line: expected_seq as usize + k + 2, reason })
            }
            other => ServiceError::Rejected(other),
        })?;
    }
    let seq = store.append_events(&id, expected_seq, game.as_ref(), lines)?;
    Ok((seq, game))
}
