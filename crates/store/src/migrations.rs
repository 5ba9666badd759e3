//! Numbered schema migrations, applied in order, each once, each in its own transaction.

use crate::error::{Result, StoreError};
use rusqlite::Connection;

/// (number, SQL). Append new ones; never edit a released one.
const MIGRATIONS: &[(u32, &str)] = &[(1, include_str!("../migrations/001_events_and_facts.sql"))];

pub fn current(conn: &Connection) -> Result<u32> {
    Ok(conn.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| r.get(0))?)
}

pub fn run(conn: &mut Connection) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
    )?;
    let have = current(conn)?;
    let known = MIGRATIONS.last().map(|m| m.0).unwrap_or(0);
    if have > known {
        return Err(StoreError::TooNew { found: have, known });
    }
    for &(version, sql) in MIGRATIONS.iter().filter(|m| m.0 > have) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.execute("INSERT INTO schema_migrations (version) VALUES (?1)", [version])?;
        tx.commit()?;
    }
    Ok(())
}
