//! For tests (feature `testing`): a fresh PostgreSQL database on the test server `make test` starts
//! (`tests/postgres.sh`), whose URL is in `$ALMANAC_TEST_PG`.

use std::sync::atomic::{AtomicU32, Ordering};

/// Creates an empty database on the test server and returns its URL.
pub fn scratch_postgres() -> String {
    let admin = std::env::var("ALMANAC_TEST_PG").unwrap_or_else(|_| {
        panic!("ALMANAC_TEST_PG is not set: `make test` starts a PostgreSQL for the tests (tests/postgres.sh start DIR prints a URL)")
    });
    static N: AtomicU32 = AtomicU32::new(0);
    let name = format!("almanac_test_{}_{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    let mut client = postgres::Client::connect(&admin, postgres::NoTls).expect("the test PostgreSQL answers");
    client.batch_execute(&format!("CREATE DATABASE {name}")).expect("a scratch database");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    format!("{base}/{name}")
}
