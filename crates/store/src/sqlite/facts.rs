//! Facts on SQLite: packed, one row per batch of events stored together (an upload, an append), keyed by game
//! and the batch's first event. Nothing reads facts across games (the questions read the read model), and a
//! game's facts are always read whole, so a row per fact (94 million rows for 100,000 games, half the file)
//! bought nothing; packed (`crate::packed::facts`), a fact takes about nine bytes.

use crate::error::{Result, StoreError};
use crate::packed::facts::{read_batch, Batch};
use almanac_core::FactRow;
use rusqlite::{params, Connection};

/// Stores `facts` packed in one row: the batch of game `id` whose first event is `first_seq`.
pub fn store(tx: &Connection, id: &str, first_seq: u64, facts: &[FactRow]) -> Result<()> {
    store_batch(tx, id, first_seq, &Batch::of(facts))
}

/// `store` of facts packed already.
pub fn store_batch(tx: &Connection, id: &str, first_seq: u64, batch: &Batch) -> Result<()> {
    // No row for no facts: a game stored before its first event (a live game at the table) would hold an
    // empty batch at event 1, where its first append's batch starts.
    if batch.facts == 0 {
        return Ok(());
    }
    tx.prepare_cached("INSERT INTO fact_batches (game_id, first_seq, facts, packed) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![id, first_seq, batch.facts, batch.packed])?;
    Ok(())
}

/// Every fact of game `id`, in event order.
pub fn read(conn: &Connection, id: &str) -> Result<Vec<FactRow>> {
    let mut stmt = conn.prepare_cached("SELECT packed FROM fact_batches WHERE game_id = ?1 ORDER BY first_seq")?;
    let mut rows = stmt.query([id])?;
    let mut facts = Vec::new();
    while let Some(row) = rows.next()? {
        read_batch(row.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?, &mut facts)
            .map_err(|e| StoreError::Invalid(format!("game {id}: {e}")))?;
    }
    Ok(facts)
}
