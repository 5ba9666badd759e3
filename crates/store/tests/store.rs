//! The store's promises, each against a real SQLite file.

mod common;

use almanac_store::{Appended, DueGame, GameFilter, Inserted, Ownership, Store, StoreError, Viewer};
use common::{everything, insert, insert_as, log_of, sample};
use std::path::PathBuf;

/// The version of the Catan ruleset this build stores games with.
fn catan_version() -> u32 {
    almanac_engine::game_kind("catan").unwrap().version()
}

fn db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("almanac.db");
    (dir, path)
}

/// A store on a fresh SQLite file, with the directory that holds it.
fn opened() -> (tempfile::TempDir, Store) {
    let (dir, path) = db();
    (dir, Store::open(&path).unwrap())
}

/// The facts the ruleset derives from a log, as rows.
fn facts_of(log: &almanac_engine::ValidatedLog) -> Vec<almanac_core::FactRow> {
    let game = &log.game;
    (0..game.event_count())
        .flat_map(|i| game.event_facts(i).iter().map(move |f| f.row(i as u64 + 1, game.event_turn(i))))
        .collect()
}

/// How many events are stored, over all games (in chunks of events stored together).
fn stored_events(store: &Store) -> i64 {
    store
        .connection()
        .query_row("SELECT COALESCE(SUM(last_seq - first_seq + 1), 0) FROM event_chunks", [], |r| r.get(0))
        .unwrap()
}

fn count(store: &Store, table: &str) -> i64 {
    store.connection().query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)).unwrap()
}

common::every_store_test!(opened());

#[test]
fn migrations_run_once_and_a_newer_schema_is_refused() {
    let (_dir, path) = db();
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 24);
    drop(store);
    let store = Store::open(&path).unwrap();
    let applied: i64 =
        store.connection().query_row("SELECT COUNT(*) FROM schema_migrations", [], |r| r.get(0)).unwrap();
    assert_eq!(applied, 24, "reopening applies nothing again");
    store.connection().execute("INSERT INTO schema_migrations (version) VALUES (99)", []).unwrap();
    drop(store);
    match Store::open(&path) {
        Err(StoreError::TooNew { found: 99, known: 24 }) => {}
        other => panic!("expected TooNew, got {:?}", other.err()),
    }
}

#[test]
fn events_are_append_only() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    insert(&mut store, &log_of(&sample("catan-club-game.jsonl"))).unwrap();
    let conn = store.connection();
    let update = conn.execute("UPDATE event_chunks SET lines = x'00' WHERE first_seq = 1", []).unwrap_err();
    assert!(update.to_string().contains("append-only"), "{update}");
    let delete = conn.execute("DELETE FROM event_chunks", []).unwrap_err();
    assert!(delete.to_string().contains("append-only"), "{delete}");
    assert_eq!(stored_events(&store), 553);
}

#[test]
fn a_game_is_stored_whole_with_its_facts_and_ruleset_version() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let log = log_of(&sample("catan-club-game.jsonl"));
    let id = insert(&mut store, &log).unwrap();
    let Inserted::New(id) = id else { panic!("expected a new game") };
    let facts: usize = (0..log.game.event_count()).map(|i| log.game.event_facts(i).len()).sum();
    assert_eq!(stored_events(&store) as usize, log.game.event_count());
    assert_eq!(store.fact_count().unwrap() as usize, facts);
    assert_eq!(store.facts(&store.stored(&id).unwrap()).unwrap(), facts_of(&log), "the facts read back as derived");
    assert_eq!(count(&store, "fact_batches"), 1, "an upload's facts are one batch");
    let row = store.game(&store.stored(&id).unwrap()).unwrap();
    assert_eq!(row.ruleset, "catan");
    assert_eq!(row.ruleset_version, catan_version());
    assert_eq!(row.club.as_deref(), Some("Kadıköy Board Gamers"));
    assert_eq!(row.winner.as_deref(), Some("Zeynep"));
    assert_eq!(row.players.len(), 4);
    // The stored log reads back line for line.
    let (header, events) = store.log(&store.stored(&id).unwrap()).unwrap();
    assert_eq!(header, log.header_line());
    assert_eq!(events, log.event_lines());
}

#[test]
fn a_failure_half_way_stores_nothing() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    // Make the insert of the facts fail, after the events', as a full disk or a crash would.
    store
        .connection()
        .execute_batch("CREATE TEMP TRIGGER fail_half_way BEFORE INSERT ON fact_batches BEGIN SELECT RAISE(ABORT, 'disk full'); END;")
        .unwrap();
    let err = insert(&mut store, &log_of(&sample("catan-club-game.jsonl"))).unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    for table in ["games", "game_players", "event_chunks", "fact_batches", "seats"] {
        assert_eq!(count(&store, table), 0, "{table} keeps rows of a failed insert");
    }
}

#[test]
fn the_same_log_twice_is_one_game() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let text = sample("catan-club-game.jsonl");
    let first = insert(&mut store, &log_of(&text)).unwrap();
    // Trailing blank lines and CRLF line ends do not make another game.
    let again = insert(&mut store, &log_of(&format!("{}\n\n", text.replace('\n', "\r\n")))).unwrap();
    assert!(matches!(first, Inserted::New(_)));
    assert_eq!(again, Inserted::Existing(first.id().to_string()));
    assert_eq!(count(&store, "games"), 1);
    assert_eq!(stored_events(&store), 553);
    // The observer's log of the same game is another log: another game.
    let other = insert(&mut store, &log_of(&sample("catan-club-game-observer.jsonl"))).unwrap();
    assert!(matches!(other, Inserted::New(_)));
    assert_eq!(store.list_games(&everything()).unwrap().len(), 2);
}

#[test]
fn live_appends_name_the_sequence_they_follow_and_a_stale_writer_gets_a_conflict() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let full = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = full.lines().collect();
    // Start with the header and the first 100 events.
    let start = log_of(&lines[..101].join("\n"));
    let club = store.create_club("Kadıköy").unwrap().id;
    let id = insert_as(&mut store, &start, Ownership::private_to(club)).unwrap().id().to_string();
    // Two writers both think the log ends at 100. The first appends 5 events ...
    let mut game = start.game;
    let next: Vec<String> = lines[101..106].iter().map(|s| s.to_string()).collect();
    for (i, l) in next.iter().enumerate() {
        game.push_line(102 + i, l).unwrap();
    }
    assert_eq!(
        store
            .append_events(
                club,
                &id,
                100,
                Appended { game: game.as_ref(), lines: &next, insights: &Default::default() }
            )
            .unwrap(),
        105
    );
    // ... the second, still expecting 100, is refused and writes nothing.
    let err = store
        .append_events(club, &id, 100, Appended { game: game.as_ref(), lines: &next, insights: &Default::default() })
        .unwrap_err();
    assert!(matches!(err, StoreError::Conflict { expected: 100, actual: 105, .. }), "{err}");
    assert_eq!(stored_events(&store), 105);
    assert_eq!(store.game(&store.stored(&id).unwrap()).unwrap().event_count, 105);
    let (_, events) = store.log(&store.stored(&id).unwrap()).unwrap();
    assert_eq!(events.len(), 105);
    assert_eq!(events[104], lines[105]);
    // The upload and the append are two chunks; a range across them reads as one log, with the turns.
    assert_eq!(count(&store, "event_chunks"), 2);
    let range = store.events(&store.stored(&id).unwrap(), 98, 103).unwrap();
    assert_eq!(range.iter().map(|(seq, _, _)| *seq).collect::<Vec<_>>(), [98, 99, 100, 101, 102, 103]);
    for (seq, turn, line) in range {
        assert_eq!(line, lines[seq as usize], "event {seq}");
        assert_eq!(turn, game.event_turn(seq as usize - 1), "event {seq}");
    }
}

#[test]
fn games_are_listed_newest_first_and_filtered() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let a = insert(&mut store, &log_of(&sample("catan-club-game.jsonl"))).unwrap();
    let b = insert(&mut store, &log_of(&sample("catan-catanatron-tournament.jsonl"))).unwrap();
    let all = store.list_games(&GameFilter::default()).unwrap();
    assert_eq!(all.len(), 2, "the operator's games are public");
    assert_eq!(all.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), [b.id(), a.id()]);
    let ayse = store.list_games(&GameFilter { player: Some("Ayşe".into()), ..Default::default() }).unwrap();
    assert_eq!(ayse.len(), 1);
    assert_eq!(ayse[0].id, a.id());
    assert!(store
        .list_games(&GameFilter { ruleset: Some("carcassonne".into()), ..Default::default() })
        .unwrap()
        .is_empty());
    assert_eq!(store.resolve(Viewer::Public, &a.id()[..6]).unwrap(), a.id());
    assert_eq!(store.resolve(Viewer::Public, a.id()).unwrap(), a.id());
    assert!(matches!(store.resolve(Viewer::Public, "zzz"), Err(StoreError::NotFound(_))));
    assert!(matches!(store.resolve(Viewer::Public, ""), Err(StoreError::NotFound(_))), "a prefix of two games");
    // An id that begins another is found whole; the prefix both share finds neither.
    let long = log_of(&sample("catan-six-players.jsonl"));
    let (lines, hash) = (long.event_lines(), long.content_hash());
    let new = almanac_store::NewGame {
        game: long.game.as_ref(),
        header_line: long.header_line(),
        event_lines: &lines,
        content_hash: &hash,
        facts: &long.game.fact_rows(0),
        insights: &Default::default(),
        ahead: None,
    };
    store.insert_game_as(&format!("{}0", a.id()), &new, Ownership::OPERATOR).unwrap();
    assert_eq!(store.resolve(Viewer::Public, a.id()).unwrap(), a.id());
    assert!(matches!(store.resolve(Viewer::Public, &a.id()[..6]), Err(StoreError::NotFound(_))));
}

#[test]
fn reprojection_rewrites_facts_and_summary_and_never_the_events() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let log = log_of(&sample("catan-club-game.jsonl"));
    let id = insert(&mut store, &log).unwrap().id().to_string();
    let (facts, events) =
        (store.facts(&store.stored(&id).unwrap()).unwrap(), store.log(&store.stored(&id).unwrap()).unwrap());
    // As if an older version had stored the game: another version, no facts, stale summary columns.
    let conn = store.connection();
    conn.execute("UPDATE games SET ruleset_version = 0, winner = NULL WHERE id = ?1", [&id]).unwrap();
    conn.execute("DELETE FROM fact_batches WHERE game_id = ?1", [&id]).unwrap();
    conn.execute("UPDATE game_players SET vp = NULL WHERE game_id = ?1", [&id]).unwrap();
    // Another game, current but for its checkpoints (as a migration that drops them leaves it).
    let other = insert(&mut store, &log_of(&sample("catan-six-players.jsonl"))).unwrap().id().to_string();
    let conn = store.connection();
    conn.execute("DELETE FROM checkpoints WHERE game = (SELECT key FROM games WHERE id = ?1)", [&other]).unwrap();
    let due = |id: &str, numbers_older| DueGame { id: id.to_string(), ruleset: "catan".into(), numbers_older };
    let stale = store.games_to_reproject(Some("catan"), Some(catan_version())).unwrap();
    assert_eq!(stale, [due(&id, true), due(&other, false)]);
    assert!(store.games_to_reproject(Some("carcassonne"), None).unwrap().is_empty());
    common::rederive(&mut store, &other, &log_of(&sample("catan-six-players.jsonl")), &Default::default()).unwrap();

    common::rederive(&mut store, &id, &log, &Default::default()).unwrap();
    assert_eq!(store.facts(&store.stored(&id).unwrap()).unwrap(), facts, "the same facts as when it was stored");
    assert_eq!(store.log(&store.stored(&id).unwrap()).unwrap(), events, "the events did not move");
    let row = store.game(&store.stored(&id).unwrap()).unwrap();
    assert_eq!((row.ruleset_version, row.winner.as_deref()), (catan_version(), Some("Zeynep")));
    assert!(row.players.iter().all(|p| p.vp.is_some()));
    assert!(store.games_to_reproject(Some("catan"), Some(catan_version())).unwrap().is_empty());
    // A game of other events is refused: reprojection never rewrites a log.
    let shorter = log_of(&sample("catan-club-game.jsonl").lines().take(50).collect::<Vec<_>>().join("\n"));
    assert!(matches!(
        common::rederive(&mut store, &id, &shorter, &Default::default()),
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(store.facts(&store.stored(&id).unwrap()).unwrap(), facts);
}

#[test]
fn readers_read_while_the_writer_holds_a_transaction() {
    let (_dir, path) = db();
    let pool = std::sync::Arc::new(almanac_store::Pool::open(&path).unwrap());
    let log = log_of(&sample("catan-club-game.jsonl"));
    let id = pool.write(|s| insert(s, &log)).unwrap().id().to_string();
    let (held, release) = (std::sync::mpsc::channel::<()>(), std::sync::mpsc::channel::<()>());
    let writer = {
        let pool = pool.clone();
        let log = log_of(&sample("catan-six-players.jsonl"));
        std::thread::spawn(move || {
            pool.write(|s| {
                // An open write transaction, as a long upload would hold.
                s.connection().execute_batch("BEGIN IMMEDIATE").unwrap();
                held.0.send(()).unwrap();
                release.1.recv().unwrap();
                s.connection().execute_batch("ROLLBACK").unwrap();
                insert(s, &log).unwrap();
            })
        })
    };
    held.1.recv().unwrap();
    // The writer is mid-transaction; two readers on their own connections still answer.
    let games = pool.read(|s| s.list_games(&everything()).unwrap()).unwrap();
    let facts = pool.read(|s| s.facts(&s.stored(&id).unwrap()).unwrap().len()).unwrap();
    assert_eq!(games.len(), 1);
    assert!(facts > 500);
    release.0.send(()).unwrap();
    writer.join().unwrap();
    assert_eq!(pool.read(|s| s.list_games(&everything()).unwrap().len()).unwrap(), 2);
}

#[test]
fn no_insert_can_rewrite_or_skip_an_event() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let id = insert(&mut store, &log_of(&sample("catan-club-game.jsonl"))).unwrap().id().to_string();
    let conn = store.connection();
    let key: i64 = conn.query_row("SELECT key FROM games WHERE id = ?1", [&id], |r| r.get(0)).unwrap();
    let before = store.log(&store.stored(&id).unwrap()).unwrap();
    let insert_chunk = |first: u64, last: u64, verb: &str| {
        conn.execute(
            &format!(
                "{verb} INTO event_chunks (game, first_seq, last_seq, turns, lines, text_bytes)
                 VALUES (?1, ?2, ?3, x'00', x'00', 1)"
            ),
            rusqlite::params![key, first, last],
        )
        .unwrap_err()
    };
    // REPLACE deletes the old row without firing the DELETE trigger; the INSERT trigger still sees seq 1 taken.
    let replace = insert_chunk(1, 1, "INSERT OR REPLACE");
    assert!(replace.to_string().contains("append-only"), "{replace}");
    // A gap after the last event, a chunk overlapping the last one, a chunk ending before it starts.
    for (first, last) in [(555, 555), (553, 554), (554, 553)] {
        let err = insert_chunk(first, last, "INSERT");
        assert!(err.to_string().contains("last seq of its game + 1"), "{first}–{last}: {err}");
    }
    assert_eq!(store.log(&store.stored(&id).unwrap()).unwrap(), before);
    assert_eq!(stored_events(&store), 553);
    let rekey = conn.execute("UPDATE games SET key = key + 1000 WHERE id = ?1", [&id]).unwrap_err();
    assert!(rekey.to_string().contains("key never changes"), "{rekey}");
}

#[test]
fn what_names_a_game_never_changes_and_no_game_is_removed() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let id = insert(&mut store, &log_of(&sample("catan-club-game.jsonl"))).unwrap().id().to_string();
    let conn = store.connection();
    for change in [
        "UPDATE games SET content_hash = 'x' WHERE id = ?1",
        "UPDATE games SET ruleset = 'carcassonne' WHERE id = ?1",
        "UPDATE games SET id = 'ffffffffffffffff' WHERE id = ?1",
        "UPDATE games SET header = '{}' WHERE id = ?1",
        "UPDATE games SET owner = 1 WHERE id = ?1",
        "DELETE FROM games WHERE id = ?1",
        "DELETE FROM game_players WHERE game_id = ?1",
        "INSERT OR REPLACE INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count)
         VALUES (?1, 'y', 'catan', 1, '{}', 0, 0)",
    ] {
        let err = conn.execute(change, [&id]).unwrap_err();
        assert!(err.to_string().contains("never"), "{change}: {err}");
    }
    // What is derived may be refreshed.
    conn.execute("UPDATE games SET winner = NULL WHERE id = ?1", [&id]).unwrap();
    assert_eq!(count(&store, "games"), 1);
}

/// Every row of `table`, in the order of its first two columns, as SQLite holds them.
fn rows_of(store: &Store, table: &str) -> Vec<Vec<rusqlite::types::Value>> {
    let mut stmt = store.connection().prepare(&format!("SELECT * FROM {table} ORDER BY 1, 2")).unwrap();
    let width = stmt.column_count();
    let rows = stmt.query_map([], |r| (0..width).map(|k| r.get(k)).collect::<rusqlite::Result<Vec<_>>>()).unwrap();
    rows.collect::<rusqlite::Result<_>>().unwrap()
}

/// The tables whose rows are promised: the log, the games' rows, their seats, the players, notes, tokens.
const PROMISED: [&str; 6] = ["event_chunks", "games", "game_players", "players", "notes", "tokens"];

#[test]
fn no_statement_rewrites_history_through_any_key() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let club = store.create_club("Moda").unwrap().id;
    let log = log_of(&sample("catan-club-game.jsonl"));
    let id = insert_as(&mut store, &log, Ownership { club: Some(club), published: true }).unwrap().id().to_string();
    let renamed = log_of(&sample("catan-club-game.jsonl").replace("Mehmet", "Memet"));
    let other = insert_as(&mut store, &renamed, Ownership { club: Some(club), published: true }).unwrap();
    let game = store.stored(&id).unwrap();
    let seat = |g: &str, store: &Store| store.game(&store.stored(g).unwrap()).unwrap().players[1].player.unwrap();
    store.merge_players(Some(club), seat(&id, &store), seat(other.id(), &store)).unwrap();
    store.add_note(&game, 3, club, "a note as written").unwrap();
    store.add_token(club, "hash-live", "live").unwrap();
    let revoked = store.add_token(club, "hash-revoked", "gone").unwrap();
    store.revoke_token(revoked).unwrap();
    let before: Vec<_> = PROMISED.iter().map(|t| rows_of(&store, t)).collect();
    let conn = store.connection();
    let next = "(SELECT MAX(last_seq) + 1 FROM event_chunks)";
    for (statement, words) in [
        // The log: a chunk's rowid with a legal first seq erased the game's first chunk before.
        (format!("INSERT OR REPLACE INTO event_chunks (rowid, game, first_seq, last_seq, turns, lines, text_bytes)
                  SELECT rowid, game, {next}, {next}, turns, lines, text_bytes FROM event_chunks LIMIT 1"), "never replaced"),
        ("REPLACE INTO event_chunks SELECT * FROM event_chunks LIMIT 1".into(), "append-only"),
        ("UPDATE OR REPLACE event_chunks SET first_seq = 1".into(), "append-only"),
        ("UPDATE event_chunks SET lines = x'00'".into(), "append-only"),
        ("DELETE FROM event_chunks".into(), "append-only"),
        // A game's row, by its rowid, id, content hash and key.
        ("INSERT OR REPLACE INTO games (rowid, id, content_hash, ruleset, ruleset_version, header, event_count, turn_count, key)
          SELECT rowid, 'ffffffffffffffff', 'h1', ruleset, 1, header, 0, 0, 9999 FROM games LIMIT 1".into(), "never stored twice"),
        ("INSERT OR REPLACE INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count, key)
          SELECT id, 'h2', ruleset, 1, header, 0, 0, 9998 FROM games LIMIT 1".into(), "never stored twice"),
        ("INSERT OR REPLACE INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count, key)
          SELECT 'eeeeeeeeeeeeeeee', content_hash, ruleset, 1, header, 0, 0, 9997 FROM games LIMIT 1".into(), "never stored twice"),
        ("INSERT OR REPLACE INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count, key)
          SELECT 'dddddddddddddddd', 'h3', ruleset, 1, header, 0, 0, key FROM games LIMIT 1".into(), "never stored twice"),
        ("UPDATE games SET header = '{}'".into(), "never change"),
        ("DELETE FROM games".into(), "never deleted"),
        // A game's seats: who sat there, under which name, as which player.
        ("INSERT OR REPLACE INTO game_players (game_id, seat, name, player_id)
          SELECT game_id, seat, 'Mallory', player_id FROM game_players LIMIT 1".into(), "never replaced"),
        ("REPLACE INTO game_players SELECT * FROM game_players LIMIT 1".into(), "never replaced"),
        ("UPDATE game_players SET name = 'Mallory'".into(), "never change who sat there"),
        ("UPDATE game_players SET player_id = (SELECT MIN(id) FROM players)".into(), "never change who sat there"),
        ("UPDATE game_players SET color = 'black'".into(), "never change who sat there"),
        ("DELETE FROM game_players".into(), "never deleted"),
        // The players: by id, by club and name; a merge undone.
        ("INSERT OR REPLACE INTO players (id, club, name, key) SELECT id, club, 'Mallory', 'mallory' FROM players LIMIT 1".into(), "never replaced"),
        ("INSERT OR REPLACE INTO players (id, club, name, key) SELECT 77, club, name, key FROM players LIMIT 1".into(), "never replaced"),
        ("UPDATE players SET name = 'Mallory'".into(), "never change"),
        ("UPDATE players SET merged_into = NULL WHERE merged_into IS NOT NULL".into(), "never undone"),
        ("DELETE FROM players".into(), "never deleted"),
        // The notes.
        ("INSERT OR REPLACE INTO notes (id, game_id, seq, club, text) SELECT id, game_id, seq, club, 'rewritten' FROM notes".into(), "never replaced"),
        ("INSERT INTO notes (id, game_id, seq, club, text) SELECT id, game_id, seq, club, 'x' FROM notes WHERE true
          ON CONFLICT (id) DO UPDATE SET text = 'x'".into(), "never replaced"),
        ("UPDATE notes SET text = 'rewritten'".into(), "kept as written"),
        ("DELETE FROM notes".into(), "kept as written"),
        // The tokens: by id, by hash; a hash changed, a revocation taken back.
        ("INSERT OR REPLACE INTO tokens (id, club_id, hash) SELECT id, club_id, 'stolen' FROM tokens LIMIT 1".into(), "never replaced"),
        ("INSERT OR REPLACE INTO tokens (club_id, hash) SELECT club_id, hash FROM tokens LIMIT 1".into(), "never replaced"),
        ("UPDATE tokens SET hash = 'stolen'".into(), "never change"),
        ("UPDATE tokens SET revoked_at = NULL WHERE revoked_at IS NOT NULL".into(), "never taken back"),
        ("DELETE FROM tokens".into(), "never deleted"),
    ] {
        let err = conn.execute(&statement, []).unwrap_err();
        assert!(err.to_string().contains(words), "{statement}: {err}");
    }
    let after: Vec<_> = PROMISED.iter().map(|t| rows_of(&store, t)).collect();
    for ((table, before), after) in PROMISED.iter().zip(&before).zip(&after) {
        assert_eq!(before, after, "{table} is as it was");
    }
    assert_eq!(store.log(&game).unwrap().1, log.event_lines(), "the log reads back whole");
    assert_eq!(conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0)).unwrap(), "ok");
    // What is derived may still be refreshed, and a live token revoked.
    conn.execute("UPDATE game_players SET vp = vp WHERE game_id = ?1", [&id]).unwrap();
    store.revoke_tokens_labelled(club, "live").unwrap();
}

/// The same lines with the keys of every object in reverse order and a space after each colon.
fn respelled(text: &str) -> String {
    fn reversed(v: &serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(m) => {
                serde_json::Value::Object(m.iter().rev().map(|(k, v)| (k.clone(), reversed(v))).collect())
            }
            serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(reversed).collect()),
            other => other.clone(),
        }
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| reversed(&serde_json::from_str(l).unwrap()).to_string().replace("\":", "\": "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_log_spelled_otherwise_or_with_a_byte_order_mark_is_the_same_game() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    let text = sample("catan-club-game.jsonl");
    let first = insert(&mut store, &log_of(&text)).unwrap();
    let other = respelled(&text);
    assert_ne!(other.lines().next(), text.lines().next(), "the spelling differs");
    assert_eq!(insert(&mut store, &log_of(&other)).unwrap(), Inserted::Existing(first.id().to_string()));
    let bom = format!("\u{feff}{text}");
    assert_eq!(insert(&mut store, &log_of(&bom)).unwrap(), Inserted::Existing(first.id().to_string()));
    assert_eq!(count(&store, "games"), 1);
}

#[test]
fn a_database_of_version_1_is_hashed_again_and_keeps_its_ids() {
    let (_dir, path) = db();
    let text = sample("catan-club-game.jsonl");
    let log = log_of(&text);
    let twin = log_of(&respelled(&text));
    {
        // A version-1 database: the first migration only, two spellings of one log stored as two games
        // under the old hash of their bytes.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../migrations/001_events_and_facts.sql")).unwrap();
        conn.execute_batch("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT); INSERT INTO schema_migrations VALUES (1, 'then');").unwrap();
        for (id, l) in [("aaaaaaaaaaaaaaaa", &log), ("bbbbbbbbbbbbbbbb", &twin)] {
            conn.execute(
                "INSERT INTO games (id, content_hash, ruleset, ruleset_version, header, event_count, turn_count)
                 VALUES (?1, ?2, 'catan', 1, ?3, 0, 0)",
                [id, &format!("raw-{id}"), l.header_line()],
            )
            .unwrap();
            for (i, e) in l.event_lines().iter().enumerate() {
                conn.execute("INSERT INTO events VALUES (?1, ?2, 0, ?3)", rusqlite::params![id, i + 1, e]).unwrap();
            }
            for f in facts_of(l) {
                conn.execute(
                    "INSERT INTO facts (game_id, seq, turn, kind, player, item, count, cause, other, total, public, detail)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                    rusqlite::params![
                        id, f.seq, f.turn, f.kind.as_str(), f.player, f.item, f.count, f.cause, f.other, f.total, f.public,
                        f.detail
                    ],
                )
                .unwrap();
            }
            for (seat, name) in ["Ayşe", "Mehmet"].iter().enumerate() {
                let name = if id.starts_with('b') { name.to_uppercase() } else { name.to_string() };
                conn.execute(
                    "INSERT INTO game_players (game_id, seat, name) VALUES (?1, ?2, ?3)",
                    rusqlite::params![id, seat, name],
                )
                .unwrap();
            }
        }
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 24);
    // Migrations 6 and 7 kept every fact: keyed by its place in its event, then packed per game.
    for (id, l) in [("aaaaaaaaaaaaaaaa", &log), ("bbbbbbbbbbbbbbbb", &twin)] {
        assert_eq!(store.facts(&store.stored(id).unwrap()).unwrap(), facts_of(l), "{id}");
    }
    assert_eq!(count(&store, "fact_batches"), 2);
    // Migration 8 kept every event, now under the game's key.
    for (id, l) in [("aaaaaaaaaaaaaaaa", &log), ("bbbbbbbbbbbbbbbb", &twin)] {
        assert_eq!(store.log(&store.stored(id).unwrap()).unwrap().1, l.event_lines(), "{id}");
    }
    // Migration 4 gave every seat of the games stored then its player, one per name in any case.
    let seats: Vec<Option<i64>> = ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]
        .iter()
        .map(|id| store.game(&store.stored(id).unwrap()).unwrap().players[0].player)
        .collect();
    assert!(seats[0].is_some() && seats[0] == seats[1], "{seats:?}");
    // Migration 12 renumbered them: random ids above every sequential one, the seats following.
    assert!((1 << 32..1 << 53).contains(&seats[0].unwrap()), "{seats:?}");
    assert_eq!(
        store.identity(&store.visible_player(Viewer::Operator, seats[0].unwrap()).unwrap()).unwrap().name,
        "AYŞE",
        "the spelling that sorts first"
    );
    let hash = |id: &str| -> String {
        store.connection().query_row("SELECT content_hash FROM games WHERE id = ?1", [id], |r| r.get(0)).unwrap()
    };
    assert_eq!(hash("aaaaaaaaaaaaaaaa"), log.content_hash());
    assert_eq!(hash("bbbbbbbbbbbbbbbb"), format!("{}-bbbbbbbbbbbbbbbb", log.content_hash()));
    // The same log uploaded now finds the game stored then, under its old id.
    assert_eq!(insert(&mut store, &log).unwrap(), Inserted::Existing("aaaaaaaaaaaaaaaa".into()));
}

#[test]
fn a_clubs_private_game_is_found_by_nobody_else() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    common::a_clubs_private_game_is_found_by_nobody_else(&mut store);
    // Two records (A's and B's own), each once: a deleted game's events stay, and its upload again adds none.
    assert_eq!(stored_events(&store), 2 * 553, "a deleted game's events stay, and its upload again adds none");
}

#[test]
fn tokens_are_stored_as_hashes_and_stop_working_when_revoked() {
    let (_dir, path) = db();
    common::tokens_are_stored_as_hashes_and_stop_working_when_revoked(&mut Store::open(&path).unwrap());
}

#[test]
fn games_are_found_by_any_word_in_any_case_and_listed_in_the_order_asked() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    for name in ["catan-club-game.jsonl", "catan-six-players.jsonl", "carcassonne-traders-builders.jsonl"] {
        insert(&mut store, &log_of(&sample(name))).unwrap();
    }
    let find = |store: &Store, search: &str| -> Vec<String> {
        let filter = GameFilter { search: Some(search.into()), ..Default::default() };
        store.list_games(&filter).unwrap().into_iter().map(|g| g.title.unwrap_or_default()).collect()
    };
    // A player's name beyond ASCII, in capitals; a word of a title; a club's name in part.
    assert_eq!(find(&store, "AYŞE").len(), 2, "Ayşe plays both Catan games");
    assert_eq!(find(&store, "marathon"), ["Saturday marathon, six players"]);
    assert_eq!(find(&store, "kadıköy").len(), 3);
    assert!(find(&store, "%").is_empty() && find(&store, "_").is_empty(), "wildcards are letters here");
    let player = GameFilter { player: Some("ayşe".into()), ..Default::default() };
    assert_eq!(store.list_games(&player).unwrap().len(), 2, "a player in any case");
    let by = |sort| -> Vec<u32> {
        store.list_games(&GameFilter { sort, ..Default::default() }).unwrap().iter().map(|g| g.turn_count).collect()
    };
    let turns = by(almanac_store::Sort::Turns);
    assert!(turns.windows(2).all(|w| w[0] >= w[1]), "{turns:?}");
    let page = GameFilter { sort: almanac_store::Sort::Turns, limit: Some(1), offset: Some(1), ..Default::default() };
    assert_eq!(store.list_games(&page).unwrap()[0].turn_count, turns[1]);
}

/// The field's sums, added to once per transaction by the store and moved by triggers on publishing and
/// deleting, equal the sums of the published seats' numbers after every kind of change.
#[test]
fn the_fields_sums_are_the_sums_of_the_published_seats_numbers() {
    let (_dir, path) = db();
    let mut store = Store::open(&path).unwrap();
    common::questions_are_answered_over_the_games_the_viewer_may_see(&mut store);
    // A published game derived again with other numbers: its old ones leave the field, the new ones join it.
    let public = store.list_games(&everything()).unwrap().into_iter().find(|g| g.published).unwrap();
    let text = store.log(&store.stored(&public.id).unwrap()).unwrap();
    let log = log_of(&(std::iter::once(text.0).chain(text.1).collect::<Vec<_>>().join("\n") + "\n"));
    common::rederive(&mut store, &public.id, &log, &common::won_by(3, [2.0, 3.0, 4.0, 11.0], "z")).unwrap();
    // A club's published game appended to: its numbers replaced by those of the longer game.
    let full = sample("cities-knights-club-game.jsonl");
    let lines: Vec<&str> = full.lines().collect();
    let club = store.create_club("Live").unwrap().id;
    let start = log_of(&lines[..101].join("\n"));
    let id = insert_with_insights(&mut store, &start, Ownership { club: Some(club), published: true }, 1.0);
    let mut game = start.game;
    // To its end: a game counts, and its numbers join the field, once it has a winner.
    let next: Vec<String> = lines[101..].iter().map(|l| l.to_string()).collect();
    for (i, l) in next.iter().enumerate() {
        game.push_line(102 + i, l).unwrap();
    }
    let longer = common::won_by(0, [7.0, 1.0, 1.0, 1.0], "y");
    store.append_events(club, &id, 100, Appended { game: game.as_ref(), lines: &next, insights: &longer }).unwrap();
    // A game's seats of another edition (as an older version of its rules worded it): their numbers are in the
    // field of games so worded, and derived again, the seats take the game's edition and their numbers move.
    let worded = |store: &Store| -> i64 {
        let sql = "SELECT COUNT(*) FROM field_metrics WHERE edition = 'as worded before' AND seats > 0";
        store.connection().query_row(sql, [], |r| r.get(0)).unwrap()
    };
    store.connection().execute("UPDATE seats SET edition = 'as worded before' WHERE game_id = ?1", [&id]).unwrap();
    assert!(worded(&store) > 0);
    common::rederive(&mut store, &id, &log_of(&full), &longer).unwrap();
    assert_eq!(worded(&store), 0);
    let sums = |sql: &str| -> Vec<(String, i64, String, String, String, i64, i64)> {
        let conn = store.connection();
        let mut stmt = conn.prepare(sql).unwrap();
        // Totals in thousandths: summed in another order, a float's last bits may differ.
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    (r.get::<_, f64>(5)? * 1e3).round() as i64,
                    r.get(6)?,
                ))
            })
            .unwrap();
        rows.collect::<rusqlite::Result<_>>().unwrap()
    };
    let kept = sums(
        "SELECT ruleset, players, edition, metric, arg, total, seats FROM field_metrics WHERE seats > 0
         ORDER BY 1, 2, 3, 4, 5",
    );
    let counted = sums(
        "SELECT s.ruleset, s.players, g.edition, m.metric, m.arg, SUM(n.value), COUNT(*)
         FROM seat_numbers n JOIN metrics m ON m.key = n.metric JOIN seats s ON s.key = n.seat_key
              JOIN games g ON g.id = s.game_id
         WHERE s.counted = 1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5",
    );
    assert!(!counted.is_empty());
    assert_eq!(kept, counted);
}

/// Stores `log` for `owner` with every seat scoring `score` (a read model of its own).
fn insert_with_insights(store: &mut Store, log: &almanac_engine::ValidatedLog, owner: Ownership, score: f64) -> String {
    let insights = common::won_by(0, [score; 4], "w");
    common::insert_with(store, log, owner, &insights).unwrap().id().to_string()
}

#[test]
fn a_ruleset_s_newest_model_is_its_model_and_none_is_rewritten() {
    let mut store = Store::open_in_memory().unwrap();
    common::models_are_kept_newest_first(&mut store);
    let conn = store.connection();
    let before: i64 = conn.query_row("SELECT COUNT(*) FROM win_models", [], |r| r.get(0)).unwrap();
    for statement in [
        "UPDATE win_models SET body = '{}'",
        "INSERT OR REPLACE INTO win_models (id, ruleset, version, games, positions, body)
         SELECT id, ruleset, version, games, positions, '{}' FROM win_models LIMIT 1",
        "REPLACE INTO win_models SELECT * FROM win_models LIMIT 1",
        "DELETE FROM win_models",
    ] {
        let err = conn.execute(statement, []).unwrap_err();
        assert!(err.to_string().contains("kept as trained"), "{statement}: {err}");
    }
    let after: i64 = conn.query_row("SELECT COUNT(*) FROM win_models", [], |r| r.get(0)).unwrap();
    assert_eq!(before, after);
    assert!(before >= 2);
    common::models_are_kept_newest_first_read(&store);
}

/// A game stored before checkpoints existed has none: it is due to be derived again, which writes them.
#[test]
fn a_game_without_checkpoints_is_due_to_be_derived_again() {
    let (_dir, mut store) = opened();
    let log = log_of(&sample("catan-club-game.jsonl"));
    insert(&mut store, &log).unwrap();
    let version = log.game.ruleset_version();
    assert!(store.games_to_reproject(Some("catan"), Some(version)).unwrap().is_empty());
    store.connection().execute("DELETE FROM checkpoints", []).unwrap();
    assert_eq!(store.games_to_reproject(Some("catan"), Some(version)).unwrap().len(), 1);
}

#[test]
fn only_postgresql_has_replicas_and_a_sqlite_pool_reads_its_file() {
    let (_dir, path) = db();
    let replica = std::path::PathBuf::from("postgres://almanac@127.0.0.1:1/almanac");
    let refused = almanac_store::Pool::open_replicated(&path, std::slice::from_ref(&replica)).err().unwrap();
    assert!(refused.to_string().contains("cannot be a replica"), "{refused}");
    let pool = almanac_store::Pool::open(&path).unwrap();
    pool.read(|s| s.stored_games().unwrap()).unwrap();
    pool.write(|s| s.stored_games().unwrap());
    assert_eq!(pool.reads_served(), almanac_store::ReadsServed { primary: 1, replicas: vec![] });
}
