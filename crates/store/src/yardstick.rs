//! The yardstick `almanac bench` measures imports against: the same event rows (and, in the stricter
//! comparison, fact rows) inserted by plain SQL into tables of the same shape, with no validation, no
//! triggers, no derived columns and no read model.

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

/// Inserts every game's events (and its facts, with `with_facts`) in its own transaction into a fresh database
/// at `path`; returns the time the inserts took (the tables are made before the clock starts).
pub fn plain_insert(path: &Path, games: &[Rows], with_facts: bool) -> Result<Duration> {
    let _ = std::fs::remove_file(path);
    let mut conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(
        "CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL, body TEXT NOT NULL,
                              PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
         CREATE TABLE facts (game_id TEXT NOT NULL, seq INTEGER NOT NULL, n INTEGER NOT NULL, turn INTEGER NOT NULL,
                             kind TEXT NOT NULL, player INTEGER, item TEXT, count INTEGER, cause TEXT, other INTEGER,
                             total INTEGER, public INTEGER, detail TEXT, PRIMARY KEY (game_id, seq, n)) WITHOUT ROWID;",
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
                tx.prepare_cached("INSERT INTO facts VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")?;
            let mut n = 0u32;
            for (k, r) in g.facts.iter().enumerate().filter(|_| with_facts) {
                // The place of a fact within its event.
                n = if k > 0 && g.facts[k - 1].seq == r.seq { n + 1 } else { 0 };
                fa.execute(params![
                    g.id,
                    r.seq,
                    n,
                    r.turn,
                    r.kind.as_str(),
                    r.player,
                    r.item,
                    r.count,
                    r.cause,
                    r.other,
                    r.total,
                    r.public,
                    r.detail
                ])?;
            }
        }
        tx.commit()?;
    }
    Ok(t.elapsed())
}
