//! Checkpoints on SQLite: a game's state after every so many events and after its last, as its ruleset
//! wrote it (see `almanac_core::checkpoint`). Read model: rewritten by `reproject`, the old end replaced by
//! an append. Each is compressed (`crate::packed::checkpoints`).

use crate::error::{Result, StoreError};
use crate::packed::packing::decompress;
use crate::Checkpoint;
use rusqlite::{params, Connection, OptionalExtension};

/// Replaces game `key`'s checkpoints after `after` events by `kept` (compressed: `crate::packed::checkpoints`),
/// written by ruleset version `version`.
pub fn write(tx: &Connection, key: i64, after: usize, version: u32, kept: &[(usize, Vec<u8>)]) -> Result<()> {
    tx.prepare_cached("DELETE FROM checkpoints WHERE game = ?1 AND events > ?2")?
        .execute(params![key, after as u64])?;
    let mut insert =
        tx.prepare_cached("INSERT INTO checkpoints (game, events, version, state) VALUES (?1, ?2, ?3, ?4)")?;
    for (events, state) in kept {
        insert.execute(params![key, *events as u64, version, state])?;
    }
    Ok(())
}

/// The last checkpoint of game `id` at or before `events` events, written by ruleset version `version`.
pub fn before(conn: &Connection, id: &str, events: u64, version: u32) -> Result<Option<Checkpoint>> {
    let found: Option<(u64, Vec<u8>)> = conn
        .prepare_cached(
            "SELECT events, state FROM checkpoints
             WHERE game = (SELECT key FROM games WHERE id = ?1) AND events <= ?2 AND version = ?3
             ORDER BY events DESC LIMIT 1",
        )?
        .query_row(params![id, events.min(i64::MAX as u64), version], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((events, packed)) = found else { return Ok(None) };
    let state = decompress(&packed, "a checkpoint").map_err(|e| StoreError::Invalid(format!("game {id}: {e}")))?;
    Ok(Some(Checkpoint { events, state }))
}

/// Bytes of every checkpoint stored (compressed, as stored), to weigh them against the logs.
pub fn bytes(conn: &Connection) -> Result<u64> {
    Ok(conn.query_row("SELECT COALESCE(SUM(LENGTH(state)), 0) FROM checkpoints", [], |r| r.get(0))?)
}
