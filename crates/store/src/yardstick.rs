//! The yardstick `almanac bench` measures imports against: the same event and fact rows inserted by plain
//! SQL into tables of the same shape, with no validation, no triggers and no derived columns.

use crate::error::Result;
use almanac_core::FactRow;
use rusqlite::{params, Connection};
use std::path::Path;
use std::time::{Duration, Instant};

/// One game's rows: its events as (seq, turn, body) and its facts.
pub struct Rows<'a> {
    pub id: String,
    pub events: Vec<(u64, u32, &'a str)>,
    pub facts: Vec<FactRow>,
}

/// Inserts every game in its own transaction into a fresh database at `path`; returns the time the
/// inserts took (the tables are made before the clock starts).
pub fn plain_insert(path: &Path, games: &[Rows]) -> Result<Duration> {
    let _ = std::fs::remove_file(path);
    let mut conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(
        "CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL, body TEXT NOT NULL,
                              PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
         CREATE TABLE facts (game_id TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL, kind TEXT NOT NULL,
                             player INTEGER, item TEXT, count INTEGER, cause TEXT, other INTEGER, total INTEGER,
                             public INTEGER, detail TEXT);
         CREATE INDEX facts_by_game ON facts(game_id, seq);
         CREATE INDEX facts_by_kind ON facts(kind, item);",
    )?;
    let t = Instant::now();
    for g in games {
        let tx = conn.transaction()?;
        {
            let mut ev = tx.prepare_cached("INSERT INTO events VALUES (?1, ?2, ?3, ?4)")?;
            for (seq, turn, body) in &g.events {
                ev.execute(params![g.id, seq, turn, body])?;
            }
            let mut fa =
                tx.prepare_cached("INSERT INTO facts VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")?;
            for r in &g.facts {
                fa.execute(params![
                    g.id, r.seq, r.turn, r.kind, r.player, r.item, r.count, r.cause, r.other, r.total, r.public,
                    r.detail
                ])?;
            }
        }
        tx.commit()?;
    }
    Ok(t.elapsed())
}
