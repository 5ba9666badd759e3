//! For tests (feature `testing`): a fresh PostgreSQL database on the test server `make test` starts
//! (`tests/postgres.sh`), whose URL is in `$ALMANAC_TEST_PG`.

use std::sync::atomic::{AtomicU32, Ordering};

/// An empty database on the test server, dropped when this is: a run creates hundreds, and each holds
/// a copy of the template, so kept ones would fill a small disk.
pub struct ScratchDatabase {
    /// Its URL, as `--db` takes it.
    pub url: String,
    name: String,
    admin: String,
}

impl ScratchDatabase {
    pub fn path(&self) -> std::path::PathBuf {
        std::path::PathBuf::from(&self.url)
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        // FORCE ends the connections a server or a store of the test may still hold.
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = client.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
        }
    }
}

/// Creates an empty database on the test server.
pub fn scratch_postgres() -> ScratchDatabase {
    let admin = std::env::var("ALMANAC_TEST_PG").unwrap_or_else(|_| {
        panic!("ALMANAC_TEST_PG is not set: `make test` starts a PostgreSQL for the tests (tests/postgres.sh start DIR prints a URL)")
    });
    scratch_postgres_on(&admin)
}

/// An empty database on the primary of the replicated test servers (`$ALMANAC_TEST_PG_REPLICATED`: the
/// primary's URL and its streaming replica's), and its URL on the replica once the replica has it.
pub fn scratch_replicated() -> (ScratchDatabase, String) {
    let urls = std::env::var("ALMANAC_TEST_PG_REPLICATED").unwrap_or_else(|_| {
        panic!("ALMANAC_TEST_PG_REPLICATED is not set: `make test` starts a PostgreSQL primary and a streaming replica (tests/postgres.sh start-replicated DIR prints their URLs)")
    });
    let (primary, replica) = urls.split_once(' ').expect("two URLs: the primary's and the replica's");
    let db = scratch_postgres_on(primary);
    let (base, _) = replica.rsplit_once('/').expect("a URL with a database");
    let on_replica = format!("{base}/{}", db.name);
    let started = std::time::Instant::now();
    while postgres::Client::connect(&on_replica, postgres::NoTls).is_err() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the replica has the new database");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (db, on_replica)
}

fn scratch_postgres_on(admin: &str) -> ScratchDatabase {
    static N: AtomicU32 = AtomicU32::new(0);
    let name = format!("almanac_test_{}_{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    let mut client = postgres::Client::connect(admin, postgres::NoTls).expect("the test PostgreSQL answers");
    client.batch_execute(&format!("CREATE DATABASE {name}")).expect("a scratch database");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    ScratchDatabase { url: format!("{base}/{name}"), name, admin: admin.to_string() }
}

/// A connection of a test holding the database's write lock until dropped: writers wait, readers go on
/// (what a server does while it cannot write).
pub enum WritesHeld {
    Sqlite(rusqlite::Connection),
    Postgres(Box<postgres::Client>),
}

/// Waits until the streaming replica `replica` has replayed everything its primary `primary` has written.
pub fn wait_for_replica(primary: &std::path::Path, replica: &str) {
    let at = crate::Store::open(primary).and_then(|s| s.wal_position()).expect("the primary's position");
    let replica = crate::Store::open_reader(std::path::Path::new(replica)).expect("the replica");
    let started = std::time::Instant::now();
    while replica.replayed_position().expect("the replica's position") < at {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the replica catches up");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Stops (`true`) or resumes a streaming replica's replay of its primary's WAL: while stopped it answers
/// reads with what it had, however far the primary goes.
pub fn pause_replay(replica: &str, paused: bool) {
    let mut client = postgres::Client::connect(replica, postgres::NoTls).expect("the test replica");
    let call = if paused { "SELECT pg_wal_replay_pause()" } else { "SELECT pg_wal_replay_resume()" };
    client.batch_execute(call).expect("the replay paused or resumed");
}

/// Takes the write lock of the database `db` (a SQLite file or a `postgres://` URL): on SQLite a transaction
/// that has reserved the file, on PostgreSQL an exclusive lock of the games table (which every derivation
/// writes).
pub fn hold_writes(db: &std::path::Path) -> WritesHeld {
    if crate::store::is_postgres(db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).expect("the test database");
        client.batch_execute("BEGIN; LOCK TABLE games IN EXCLUSIVE MODE").expect("the lock of the games");
        WritesHeld::Postgres(Box::new(client))
    } else {
        let conn = rusqlite::Connection::open(db).expect("the test database");
        conn.execute_batch("BEGIN IMMEDIATE").expect("the write lock");
        WritesHeld::Sqlite(conn)
    }
}

/// Makes every stored game look derived by an older version of its ruleset, as after an upgrade: version 0,
/// and its facts gone, so that numbers derived again are told from the ones left.
pub fn age_every_game(db: &std::path::Path) {
    execute(db, "UPDATE games SET ruleset_version = 0; DELETE FROM fact_batches");
}

/// Runs `sql` (statements both backends read alike) on the test database `db`.
fn execute(db: &std::path::Path, sql: &str) {
    if crate::store::is_postgres(db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).expect("the test database");
        client.batch_execute(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    } else {
        let conn = rusqlite::Connection::open(db).expect("the test database");
        conn.execute_batch(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

/// Applies the PostgreSQL schema's migrations up to `last` only, as a database of an older version has it.
pub fn migrate_postgres_to(db: &std::path::Path, last: u32) {
    let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).expect("the test database");
    crate::postgres::migrate_to(&mut client, last).expect("the older migrations");
}

/// Removes every game's checkpoints, as a migration that changes their form does: the games are current but
/// for them.
pub fn drop_checkpoints(db: &std::path::Path) {
    execute(db, "DELETE FROM checkpoints");
}
