//! Numbered schema migrations, applied in order, each once, each in its own transaction.

use crate::error::{Result, StoreError};
use rusqlite::{Connection, Transaction};

/// A migration: its number, a step in Rust run first (for what SQL cannot compute), its SQL, then a step in
/// Rust run after it.
struct Migration {
    version: u32,
    before: Option<fn(&Transaction) -> Result<()>>,
    sql: &'static str,
    after: Option<fn(&Transaction) -> Result<()>>,
}

/// Append new ones; never edit a released one.
const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, before: None, sql: include_str!("../../migrations/001_events_and_facts.sql"), after: None },
    Migration {
        version: 2,
        before: Some(rehash_canonically),
        sql: include_str!("../../migrations/002_clubs_and_promises.sql"),
        after: None,
    },
    Migration { version: 3, before: None, sql: include_str!("../../migrations/003_edition.sql"), after: None },
    Migration { version: 4, before: None, sql: include_str!("../../migrations/004_players.sql"), after: None },
    Migration { version: 5, before: None, sql: include_str!("../../migrations/005_notes.sql"), after: None },
    Migration { version: 6, before: None, sql: include_str!("../../migrations/006_insights.sql"), after: None },
    Migration {
        version: 7,
        before: None,
        sql: include_str!("../../migrations/007_packed_facts.sql"),
        after: Some(pack_facts),
    },
    Migration {
        version: 8,
        before: None,
        sql: include_str!("../../migrations/008_event_chunks.sql"),
        after: Some(chunk_events),
    },
    Migration { version: 9, before: None, sql: include_str!("../../migrations/009_seat_revisions.sql"), after: None },
    Migration {
        version: 10,
        before: None,
        sql: include_str!("../../migrations/010_field_sums_per_transaction.sql"),
        after: None,
    },
    Migration {
        version: 11,
        before: None,
        sql: include_str!("../../migrations/011_numbers_keyed_by_integers.sql"),
        after: None,
    },
    Migration {
        version: 12,
        before: None,
        sql: include_str!("../../migrations/012_promises_and_player_ids.sql"),
        after: None,
    },
    Migration { version: 13, before: None, sql: include_str!("../../migrations/013_win_models.sql"), after: None },
    Migration {
        version: 14,
        before: None,
        sql: include_str!("../../migrations/014_one_game_counted_once.sql"),
        after: Some(rekey_players),
    },
    Migration { version: 15, before: None, sql: include_str!("../../migrations/015_bot_seats.sql"), after: None },
    Migration { version: 16, before: None, sql: include_str!("../../migrations/016_checkpoints.sql"), after: None },
    Migration {
        version: 17,
        before: None,
        sql: include_str!("../../migrations/017_names_as_read.sql"),
        after: Some(names_as_read),
    },
    Migration { version: 18, before: None, sql: include_str!("../../migrations/018_models_kept.sql"), after: None },
    Migration {
        version: 19,
        before: None,
        sql: include_str!("../../migrations/019_fullest_record_counts.sql"),
        after: None,
    },
    Migration {
        version: 20,
        before: None,
        sql: include_str!("../../migrations/020_judged_decisions.sql"),
        after: None,
    },
    Migration { version: 21, before: None, sql: include_str!("../../migrations/021_judged_spread.sql"), after: None },
    Migration { version: 22, before: None, sql: include_str!("../../migrations/022_judged_per_seat.sql"), after: None },
    Migration {
        version: 23,
        before: None,
        sql: include_str!("../../migrations/023_fields_of_like_games.sql"),
        after: None,
    },
    Migration {
        version: 24,
        before: None,
        sql: include_str!("../../migrations/024_names_that_look_alike.sql"),
        after: Some(names_that_look_alike),
    },
];

pub fn current(conn: &Connection) -> Result<u32> {
    Ok(conn.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| r.get(0))?)
}

pub fn run(conn: &mut Connection) -> Result<()> {
    run_to(conn, u32::MAX)
}

/// Applies the migrations up to number `last`.
fn run_to(conn: &mut Connection, last: u32) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
    )?;
    let have = current(conn)?;
    let known = MIGRATIONS.last().map(|m| m.version).unwrap_or(0);
    if have > known {
        return Err(StoreError::TooNew { found: have, known });
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > have && m.version <= last) {
        let tx = conn.transaction()?;
        if let Some(step) = m.before {
            step(&tx)?;
        }
        tx.execute_batch(m.sql)?;
        if let Some(step) = m.after {
            step(&tx)?;
        }
        tx.execute("INSERT INTO schema_migrations (version) VALUES (?1)", [m.version])?;
        tx.commit()?;
    }
    Ok(())
}

/// Migration 2: content hashes of the canonical spelling of each line, so that a log re-serialised with
/// other key order, spaces or escapes is the same game. Ids stay. Two stored games that turn out to be one
/// log keep both rows (events are never deleted): the later one's hash gets its id appended.
fn rehash_canonically(tx: &Transaction) -> Result<()> {
    let games: Vec<(String, String)> = {
        let mut stmt = tx.prepare("SELECT id, header FROM games ORDER BY stored_at, rowid")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut seen = std::collections::HashSet::new();
    // Move every hash aside first so that the new ones never meet an old one in the UNIQUE index.
    tx.execute("UPDATE games SET content_hash = 'old:' || content_hash", [])?;
    for (id, header) in games {
        let events: Vec<String> = {
            let mut stmt = tx.prepare_cached("SELECT body FROM events WHERE game_id = ?1 ORDER BY seq")?;
            let rows = stmt.query_map([&id], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let mut hash = almanac_core::hash::content_hash(&header, &events);
        if !seen.insert(hash.clone()) {
            hash = format!("{hash}-{id}");
        }
        tx.execute("UPDATE games SET content_hash = ?2 WHERE id = ?1", [&id, &hash])?;
    }
    Ok(())
}

/// Migration 14: identities keyed by the older fold of names (lower case alone) keyed by `player_key`, or
/// merged into the identity that holds their new key.
fn rekey_players(tx: &Transaction) -> Result<()> {
    let identities: Vec<crate::rows::KeptIdentity> = {
        let mut stmt = tx.prepare("SELECT id, club, name, key, merged_into FROM players ORDER BY id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let crate::rows::Rekeying { rekey, merge } = crate::rows::rekeying(&identities);
    if rekey.is_empty() && merge.is_empty() {
        return Ok(());
    }
    tx.execute_batch("DROP TRIGGER identities_keep_their_name")?;
    for (id, key) in rekey {
        tx.execute("UPDATE players SET key = ?2 WHERE id = ?1", rusqlite::params![id, key])?;
    }
    for (from, into) in merge {
        tx.execute(
            "UPDATE players SET merged_into = ?2 WHERE id = ?1 OR merged_into = ?1",
            rusqlite::params![from, into],
        )?;
    }
    tx.execute_batch(
        "CREATE TRIGGER identities_keep_their_name BEFORE UPDATE OF id, club, name, key ON players
         WHEN NEW.id IS NOT OLD.id OR NEW.club IS NOT OLD.club OR NEW.name IS NOT OLD.name OR NEW.key IS NOT OLD.key
         BEGIN SELECT RAISE(ABORT, 'a player''s id, club, name and key never change; only merges do'); END;",
    )?;
    Ok(())
}

/// Migration 17: identities keyed again under the fold of names as people read them, and the games whose
/// players' names read otherwise left without a fingerprint, to be derived again.
fn names_as_read(tx: &Transaction) -> Result<()> {
    rekey_players(tx)?;
    let games: Vec<String> = {
        let mut stmt = tx.prepare("SELECT game_id, name FROM game_players")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let rows: Vec<(String, String)> = rows.collect::<rusqlite::Result<_>>()?;
        rows.into_iter().filter(|(_, name)| almanac_core::normalise_name(name) != *name).map(|(g, _)| g).collect()
    };
    for game in games {
        tx.execute("UPDATE games SET fingerprint = NULL WHERE id = ?1", [&game])?;
    }
    Ok(())
}

/// Migration 24: identities keyed again under the fold that reads look-alike letters as one, and the games
/// with a player's name outside ASCII left without a fingerprint, to be derived again.
fn names_that_look_alike(tx: &Transaction) -> Result<()> {
    rekey_players(tx)?;
    tx.execute(
        "UPDATE games SET fingerprint = NULL
         WHERE id IN (SELECT game_id FROM game_players WHERE name GLOB '*[^ -~]*')",
        [],
    )?;
    Ok(())
}

/// Migration 7: every game's fact rows packed into one batch, then the table of rows dropped.
fn pack_facts(tx: &Transaction) -> Result<()> {
    {
        let mut stmt = tx.prepare(
            "SELECT game_id, seq, turn, kind, player, item, count, cause, other, total, public, detail
             FROM facts ORDER BY game_id, seq, n",
        )?;
        let mut rows = stmt.query([])?;
        let mut game: Option<String> = None;
        let mut batch: Vec<almanac_core::FactRow> = Vec::new();
        while let Some(r) = rows.next()? {
            let id: String = r.get(0)?;
            if game.as_deref() != Some(id.as_str()) {
                if let Some(done) = game.replace(id) {
                    super::facts::store(tx, &done, 1, &batch)?;
                    batch.clear();
                }
            }
            batch.push(almanac_core::FactRow {
                seq: r.get(1)?,
                turn: r.get(2)?,
                kind: {
                    let kind: String = r.get(3)?;
                    almanac_core::FactKind::named(&kind)
                        .ok_or_else(|| StoreError::Invalid(format!("a stored fact of no known kind, `{kind}`")))?
                },
                player: r.get(4)?,
                item: r.get(5)?,
                count: r.get(6)?,
                cause: r.get(7)?,
                other: r.get(8)?,
                total: r.get(9)?,
                public: r.get(10)?,
                detail: r.get(11)?,
            });
        }
        if let Some(done) = game {
            super::facts::store(tx, &done, 1, &batch)?;
        }
    }
    tx.execute_batch("DROP TABLE facts")?;
    Ok(())
}

/// Migration 8: every game's event rows stored as one chunk, then the table of rows dropped. Game by game, each
/// read in its key's order: no sort of every event at once (48 million at 100,000 games).
fn chunk_events(tx: &Transaction) -> Result<()> {
    let games: Vec<(i64, String)> = {
        let mut stmt = tx.prepare("SELECT key, id FROM games ORDER BY key")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut stmt = tx.prepare("SELECT seq, turn, body FROM events WHERE game_id = ?1 ORDER BY seq")?;
    for (key, id) in games {
        let rows: Vec<(u64, u32, String)> =
            stmt.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
        if let Some(&(first, _, _)) = rows.first() {
            let bytes = rows.iter().map(|(_, _, line)| line.len() + 1).sum();
            let chunk =
                crate::packed::chunks::Chunk::new(rows.iter().map(|(_, turn, line)| (*turn, line.as_str())), bytes);
            super::events::write_chunk(tx, key, first, &chunk)?;
        }
    }
    drop(stmt);
    tx.execute_batch("DROP TABLE events")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of (metric, arg, seat key, value) or (ruleset, metric, arg, total, seats), in order.
    fn rows<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> Vec<(String, String, i64, T)> {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap();
        rows.collect::<rusqlite::Result<_>>().unwrap()
    }

    #[test]
    fn numbers_keyed_by_texts_are_kept_under_integer_keys_and_still_follow_visibility() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::Sqlite::add_functions(&conn).unwrap();
        // Seats and numbers alone, without the games and players they name.
        conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
        run_to(&mut conn, 10).unwrap();
        conn.execute_batch(
            "INSERT INTO seats (key, game_id, seat, ruleset, player, players, published, deleted)
                 VALUES (1, 'g', 0, 'a-game', 1, 2, 1, 0), (2, 'g', 1, 'a-game', 2, 2, 1, 0);
             INSERT INTO seat_metrics (metric, arg, seat_key, value)
                 VALUES ('won', '', 1, 1.0), ('won', '', 2, 0.0), ('production', 'pears', 1, 3.5);
             INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
                 VALUES ('a-game', 'won', '', 1.0, 2), ('a-game', 'production', 'pears', 3.5, 1);",
        )
        .unwrap();
        // Up to migration 13: from 14 on, numbers follow whether a seat counts (`recount`), not visibility.
        run_to(&mut conn, 13).unwrap();
        assert_eq!(current(&conn).unwrap(), 13);
        let kept: Vec<(String, String, i64, f64)> = rows(
            &conn,
            "SELECT m.metric, m.arg, n.seat_key, n.value FROM seat_numbers n JOIN metrics m ON m.key = n.metric
             ORDER BY 1, 2, 3",
        );
        let expected = [("production", "pears", 1, 3.5), ("won", "", 1, 1.0), ("won", "", 2, 0.0)];
        let expected: Vec<(String, String, i64, f64)> =
            expected.iter().map(|&(m, a, k, v)| (m.to_string(), a.to_string(), k, v)).collect();
        assert_eq!(kept, expected);
        // The first seat's game hidden: its numbers leave the field.
        conn.execute("UPDATE seats SET published = 0 WHERE key = 1", []).unwrap();
        let field: Vec<(String, String, i64, f64)> =
            rows(&conn, "SELECT metric, arg, seats, total FROM field_metrics ORDER BY metric, arg");
        assert_eq!(field, vec![("production".into(), "pears".into(), 0, 0.0), ("won".into(), "".into(), 1, 0.0)]);
    }

    /// A club that kept `Can` and a fullwidth `Ｃan` apart under the older fold has one player after migration
    /// 24 (the second merged into the first, whose page it keeps); `Amie` and `Arnie` stay two. The game that
    /// seats a name outside ASCII loses its fingerprint to be derived again; the all-ASCII one keeps it.
    #[test]
    fn names_that_look_alike_become_one_player_and_their_games_are_fingerprinted_again() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::Sqlite::add_functions(&conn).unwrap();
        conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
        run_to(&mut conn, 23).unwrap();
        conn.execute_batch(
            "INSERT INTO players (id, club, name, key) VALUES
                 (1, 7, 'Can', 'can'), (2, 7, '\u{FF23}an', '\u{FF43}an'), (3, 7, 'Amie', 'amie'),
                 (4, 7, 'Arnie', 'arnie'), (5, 8, 'C\u{430}n', 'c\u{430}n');
             INSERT INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count, fingerprint)
                 VALUES ('wide', 'h1', 'a-game', 1, '{}', 0, 0, 'f1'), ('plain', 'h2', 'a-game', 1, '{}', 0, 0, 'f2');
             INSERT INTO game_players (game_id, seat, name, player_id) VALUES
                 ('wide', 0, '\u{FF23}an', 2), ('wide', 1, 'Amie', 3), ('plain', 0, 'Amie', 3), ('plain', 1, 'Arnie', 4);",
        )
        .unwrap();
        run_to(&mut conn, 24).unwrap();
        let players: Vec<(i64, String, Option<i64>)> = {
            let mut stmt = conn.prepare("SELECT id, key, merged_into FROM players ORDER BY id").unwrap();
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap();
            rows.collect::<rusqlite::Result<_>>().unwrap()
        };
        let can = almanac_core::fold_name("Can");
        assert_eq!(
            players,
            vec![
                (1, can.clone(), None),
                (2, "\u{FF43}an".into(), Some(1)),
                (3, "amie".into(), None),
                (4, "arnie".into(), None),
                (5, can, None), // another club's player: keyed again, merged with nobody
            ]
        );
        let prints: Vec<(String, Option<String>)> = {
            let mut stmt = conn.prepare("SELECT id, fingerprint FROM games ORDER BY id").unwrap();
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
            rows.collect::<rusqlite::Result<_>>().unwrap()
        };
        assert_eq!(prints, vec![("plain".into(), Some("f2".into())), ("wide".into(), None)]);
    }
}
