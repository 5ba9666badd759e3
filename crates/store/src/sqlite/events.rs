//! The event log on SQLite, in chunks (`crate::packed::chunks`), a row each. A row per event had taken more
//! than its text (97 bytes for a 61-byte line: the game's id, the keys, and pages a third empty under random
//! ids). The database keeps the promises of the log on chunks: a chunk is never updated or deleted and
//! starts right after the last one of its game.

use crate::error::{Result, StoreError};
use crate::packed::chunks::{unpack, Chunk};
use almanac_core::Game;
use rusqlite::{params, Connection};

/// Stores lines `first ..` of `game`'s log (already validated) as the next chunk of game `id`.
pub fn write(tx: &Connection, id: &str, game: &dyn Game, first: usize, lines: &[impl AsRef<str>]) -> Result<()> {
    write_chunk(tx, key_of(tx, id)?, first as u64 + 1, &Chunk::of(game, first, lines))
}

/// The integer key of game `id`, which its chunks are stored under.
pub fn key_of(tx: &Connection, id: &str) -> Result<i64> {
    Ok(tx.prepare_cached("SELECT key FROM games WHERE id = ?1")?.query_row([id], |r| r.get(0))?)
}

/// Stores `chunk` as the chunk of the game keyed `key` that starts at `first_seq`.
pub fn write_chunk(tx: &Connection, key: i64, first_seq: u64, chunk: &Chunk) -> Result<()> {
    if chunk.events == 0 {
        return Ok(());
    }
    tx.prepare_cached(
        "INSERT INTO event_chunks (game, first_seq, last_seq, turns, lines, text_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![key, first_seq, first_seq + chunk.events - 1, chunk.turns, chunk.lines, chunk.text_bytes])?;
    Ok(())
}

/// Every line of game `id`'s log, in order.
pub fn all(conn: &Connection, id: &str) -> Result<Vec<String>> {
    Ok(range(conn, id, 1, u64::MAX)?.into_iter().map(|(_, _, line)| line).collect())
}

/// Events `from ..= to` of game `id` as (seq, turn, line).
pub fn range(conn: &Connection, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
    // SQLite's integers are signed: a larger bound means "to the end".
    let (from, to) = (from.min(i64::MAX as u64), to.min(i64::MAX as u64));
    let mut stmt = conn.prepare_cached(
        "SELECT first_seq, last_seq, turns, lines, text_bytes FROM event_chunks
         WHERE game = (SELECT key FROM games WHERE id = ?1) AND last_seq >= ?2 AND first_seq <= ?3
         ORDER BY first_seq",
    )?;
    let mut rows = stmt.query(params![id, from, to])?;
    let mut events = Vec::new();
    while let Some(row) = rows.next()? {
        let first: u64 = row.get(0)?;
        let last: u64 = row.get(1)?;
        let turns = row.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
        let lines = row.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?;
        let text_bytes: u64 = row.get(4)?;
        let chunk = unpack(first, last, turns, lines, text_bytes, from..=to)
            .map_err(|e| StoreError::Invalid(format!("game {id}, events {first}–{last}: {e}")))?;
        events.extend(chunk);
    }
    Ok(events)
}
