//! The PostgreSQL schema's numbered migrations, applied once each under an advisory lock.

use super::*;

/// Numbered migrations of the PostgreSQL schema, applied in order, once.
const MIGRATIONS: &[(u32, &str)] = &[
    (1, include_str!("../../migrations-postgres/001_schema.sql")),
    (2, include_str!("../../migrations-postgres/002_players.sql")),
    (3, include_str!("../../migrations-postgres/003_notes.sql")),
    (4, include_str!("../../migrations-postgres/004_insights.sql")),
    (5, include_str!("../../migrations-postgres/005_seat_revisions.sql")),
    (6, include_str!("../../migrations-postgres/006_promises_and_player_ids.sql")),
    (7, include_str!("../../migrations-postgres/007_win_models.sql")),
    (8, include_str!("../../migrations-postgres/008_one_game_counted_once.sql")),
    (9, include_str!("../../migrations-postgres/009_bot_seats.sql")),
    (10, include_str!("../../migrations-postgres/010_checkpoints.sql")),
    (11, include_str!("../../migrations-postgres/011_checks_per_statement.sql")),
];

/// Which of its numbered advisory locks a migration takes, so that servers starting together migrate once.
const MIGRATION_LOCK: i64 = 0x0061_6c6d_616e_6163;

/// Applies the migrations not yet applied, each in a transaction, under an advisory lock.
pub(super) fn migrate(client: &mut Client) -> Result<()> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
        )
        .or_else(|e| if e.code() == Some(&SqlState::UNIQUE_VIOLATION) { Ok(()) } else { Err(e) })?;
    let known = MIGRATIONS.last().map(|m| m.0).unwrap_or(0);
    for &(version, sql) in MIGRATIONS {
        let mut tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let have: i32 = tx.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])?.get(0);
        if have as u32 > known {
            return Err(StoreError::TooNew { found: have as u32, known });
        }
        if (have as u32) < version {
            tx.batch_execute(sql)?;
            if version == 8 {
                rekey_players(&mut tx)?;
            }
            tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&(version as i32)])?;
        }
        tx.commit()?;
    }
    Ok(())
}

/// Migration 8: identities keyed by the older fold of names (lower case alone) keyed by `player_key`, or
/// merged into the identity that holds their new key (as SQLite's migration 14).
fn rekey_players(tx: &mut postgres::Transaction) -> Result<()> {
    let identities: Vec<crate::rows::KeptIdentity> = tx
        .query("SELECT id, club, name, key, merged_into FROM players ORDER BY id", &[])?
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
    let crate::rows::Rekeying { rekey, merge } = crate::rows::rekeying(&identities);
    if rekey.is_empty() && merge.is_empty() {
        return Ok(());
    }
    tx.batch_execute("ALTER TABLE players DISABLE TRIGGER identities_keep_their_name")?;
    for (id, key) in rekey {
        tx.execute("UPDATE players SET key = $2 WHERE id = $1", &[&id, &key])?;
    }
    for (from, into) in merge {
        tx.execute("UPDATE players SET merged_into = $2 WHERE id = $1 OR merged_into = $1", &[&from, &into])?;
    }
    tx.batch_execute("ALTER TABLE players ENABLE TRIGGER identities_keep_their_name")?;
    Ok(())
}
