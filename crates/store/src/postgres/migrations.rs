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
    (12, include_str!("../../migrations-postgres/012_packed_log.sql")),
    (13, include_str!("../../migrations-postgres/013_numbers_keyed_by_integers.sql")),
    (14, include_str!("../../migrations-postgres/014_names_as_read.sql")),
    (15, include_str!("../../migrations-postgres/015_models_kept.sql")),
    (16, include_str!("../../migrations-postgres/016_fullest_record_counts.sql")),
    (17, include_str!("../../migrations-postgres/017_judged_decisions.sql")),
    (18, include_str!("../../migrations-postgres/018_judged_spread.sql")),
    (19, include_str!("../../migrations-postgres/019_judged_per_seat.sql")),
    (20, include_str!("../../migrations-postgres/020_fields_of_like_games.sql")),
    (21, include_str!("../../migrations-postgres/021_names_that_look_alike.sql")),
];

/// Which of its numbered advisory locks a migration takes, so that servers starting together migrate once.
const MIGRATION_LOCK: i64 = 0x0061_6c6d_616e_6163;

/// Applies the migrations not yet applied, each in a transaction, under an advisory lock.
pub(super) fn migrate(client: &mut Client) -> Result<()> {
    migrate_to(client, u32::MAX)
}

/// `migrate`, up to migration `last` only (a test's database of an older version).
pub(crate) fn migrate_to(client: &mut Client, last: u32) -> Result<()> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
        )
        .or_else(|e| if e.code() == Some(&SqlState::UNIQUE_VIOLATION) { Ok(()) } else { Err(e) })?;
    let known = MIGRATIONS.last().map(|m| m.0).unwrap_or(0);
    for &(version, sql) in MIGRATIONS.iter().filter(|m| m.0 <= last) {
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
            if version == 12 {
                pack_log(&mut tx)?;
            }
            if version == 14 {
                names_as_read(&mut tx)?;
            }
            if version == 21 {
                names_that_look_alike(&mut tx)?;
            }
            tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&(version as i32)])?;
        }
        tx.commit()?;
    }
    Ok(())
}

/// Migration 14: identities keyed again under the fold of names as people read them, and the games whose
/// players' names read otherwise left without a fingerprint, to be derived again (as SQLite's migration 17).
fn names_as_read(tx: &mut postgres::Transaction) -> Result<()> {
    rekey_players(tx)?;
    let games: Vec<String> = tx
        .query("SELECT game_id, name FROM game_players", &[])?
        .iter()
        .map(|r| (r.get::<_, String>(0), r.get::<_, String>(1)))
        .filter(|(_, name)| almanac_core::normalise_name(name) != *name)
        .map(|(g, _)| g)
        .collect();
    tx.execute("UPDATE games SET fingerprint = NULL WHERE id = ANY($1)", &[&games])?;
    Ok(())
}

/// Migration 21: identities keyed again under the fold that reads look-alike letters as one, and the games
/// with a player's name outside ASCII left without a fingerprint, to be derived again (as SQLite's 24).
fn names_that_look_alike(tx: &mut postgres::Transaction) -> Result<()> {
    rekey_players(tx)?;
    tx.execute(
        "UPDATE games SET fingerprint = NULL WHERE id IN (SELECT game_id FROM game_players WHERE name ~ '[^ -~]')",
        &[],
    )?;
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

/// Migration 12: every game's event rows stored as one chunk and its fact rows as one batch, then both
/// tables of rows dropped. Game by game, each read by its primary key: no sort of every event at once.
fn pack_log(tx: &mut postgres::Transaction) -> Result<()> {
    let games: Vec<String> = tx.query("SELECT id FROM games ORDER BY n", &[])?.iter().map(|r| r.get(0)).collect();
    let events = tx.prepare("SELECT seq, turn, body FROM events WHERE game_id = $1 ORDER BY seq")?;
    let facts = tx.prepare(
        "SELECT seq, turn, kind, player, item, count, cause, other, total, public, detail
         FROM facts WHERE game_id = $1 ORDER BY seq, n",
    )?;
    let p = super::events::Prepared::default();
    for id in &games {
        let rows = tx.query(&events, &[id])?;
        if let Some(first) = rows.first() {
            let lines: Vec<(u32, &str)> =
                rows.iter().map(|r| (r.get::<_, i32>(1) as u32, r.get::<_, &str>(2))).collect();
            let bytes = lines.iter().map(|(_, line)| line.len() + 1).sum();
            let chunk = crate::packed::chunks::Chunk::new(lines.into_iter(), bytes);
            super::events::write_chunk(tx, &p, id, first.get::<_, i64>(0) as u64, &chunk)?;
        }
        let facts: Vec<FactRow> = tx.query(&facts, &[id])?.iter().map(fact_row).collect::<Result<_>>()?;
        if let Some(first) = facts.first() {
            super::events::write_batch(tx, &p, id, first.seq, &crate::packed::facts::Batch::of(&facts))?;
        }
    }
    tx.batch_execute("DROP TABLE events; DROP FUNCTION events_follow(); DROP TABLE facts;")?;
    Ok(())
}

/// A row of the `facts` table that migration 12 drops.
fn fact_row(r: &Row) -> Result<FactRow> {
    let kind: &str = r.get(2);
    let kind = FactKind::named(kind)
        .ok_or_else(|| StoreError::Invalid(format!("a stored fact of no known kind, `{kind}`")))?;
    Ok(FactRow {
        seq: r.get::<_, i64>(0) as u64,
        turn: r.get::<_, i32>(1) as u32,
        kind,
        player: r.get::<_, Option<i64>>(3).map(|p| p as u32),
        item: r.get(4),
        count: r.get(5),
        cause: r.get(6),
        other: r.get::<_, Option<i64>>(7).map(|o| o as u32),
        total: r.get(8),
        public: r.get(9),
        detail: r.get(10),
    })
}
