//! Facts as table rows: one generic table, one row per fact, keyed by game, event and place in the event.

use crate::error::Result;
use almanac_core::FactRow;
use rusqlite::{params, CachedStatement, Connection, Transaction};

pub struct Inserter<'t> {
    stmt: CachedStatement<'t>,
}

impl<'t> Inserter<'t> {
    pub fn new(tx: &'t Transaction) -> Result<Self> {
        Ok(Inserter {
            stmt: tx.prepare_cached(
                "INSERT INTO facts (game_id, seq, n, turn, kind, player, item, count, cause, other, total, public, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?,
        })
    }

    /// Inserts fact `n` (counted from 0) of its event.
    pub fn insert(&mut self, id: &str, n: usize, row: &FactRow) -> Result<()> {
        self.stmt.execute(params![
            id, row.seq, n as u32, row.turn, row.kind, row.player, row.item, row.count, row.cause, row.other,
            row.total, row.public, row.detail
        ])?;
        Ok(())
    }
}

pub fn read(conn: &Connection, id: &str) -> Result<Vec<FactRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, turn, kind, player, item, count, cause, other, total, public, detail
         FROM facts WHERE game_id = ?1 ORDER BY seq, n",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(FactRow {
            seq: r.get(0)?,
            turn: r.get(1)?,
            kind: r.get(2)?,
            player: r.get(3)?,
            item: r.get(4)?,
            count: r.get(5)?,
            cause: r.get(6)?,
            other: r.get(7)?,
            total: r.get(8)?,
            public: r.get(9)?,
            detail: r.get(10)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
