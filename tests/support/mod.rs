//! Shared by the HTTP and browser tests: the real server on a free port, a real SQLite file, and a
//! small HTTP client.

#![allow(dead_code)]

use almanac_store::testing::ScratchDatabase;
use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

/// How long a test waits for anything the server does in the background (a derivation, a replica, a
/// place coming free) before it calls it lost: one patience for the whole suite, long, so that a slow or
/// busy machine makes a test slower, never red. Waits poll for their condition and end as soon as it holds.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(900);

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn sample(name: &str) -> String {
    std::fs::read_to_string(root().join("data/samples").join(name)).unwrap()
}

/// The lines of `log` (a header, then events) with each event stamped with the moment it was entered: `ms(i)`
/// milliseconds after 19:00 on 3 December 2026 for the `i`-th event.
#[allow(dead_code)] // Not every test file stamps entries.
pub fn timed(log: &str, ms: impl Fn(usize) -> i64) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let start = almanac_core::moment::parse("2026-12-03T19:00:00Z").unwrap();
    let mut timed = vec![lines[0].to_string()];
    for (i, line) in lines[1..].iter().enumerate() {
        let mut event: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).unwrap();
        event.insert("time".into(), serde_json::json!(almanac_core::moment::write(start + ms(i))));
        timed.push(serde_json::Value::Object(event).to_string());
    }
    timed
}

pub struct TestApp {
    pub address: String,
    /// A live token of the club "Test club", which `post` and `post_json` send.
    pub token: String,
    pub db: PathBuf,
    /// The client, made again when the server starts again: a connection kept alive to the stopped server
    /// is reset at its next use.
    agent: std::sync::RwLock<ureq::Agent>,
    /// What the server was started with, and its handle while it runs (a test may stop it and start it
    /// again on the same address and database).
    config: almanac_server::Config,
    running: std::sync::Mutex<Option<actix_web::dev::ServerHandle>>,
    _dir: tempfile::TempDir,
    /// Last, so the database goes after the rest (another server on it does not own it).
    _scratch: Option<ScratchDatabase>,
}

/// Publishes every catanatron record kept in tests/data (games catanatron's programs played), then the
/// generated club games (random legal play, as their headers say), then the samples named: enough finished
/// games of two populations of programs for a win-chance model to be tried on games it did not learn from
/// (each game's id, in that order).
pub fn publish_records_for_a_model(app: &TestApp, samples: &[&str]) -> Vec<String> {
    let mut files = catanatron_records();
    files.extend(generated_club_games());
    publish(app, files, samples)
}

/// Of the ids `publish_records_for_a_model` gives, the first generated club game's (seed 1: four at the
/// table, random legal play at every seat).
pub fn first_generated_game(ids: &[String]) -> String {
    ids[catanatron_records().len()].clone()
}

/// The first of `ids` (in their order) whose chances answer `wanted` says yes to, with that answer: a game to
/// look at chosen by what its analysis holds, not by its place among the records.
pub fn chances_where(app: &TestApp, ids: &[String], wanted: impl Fn(&Value) -> bool) -> Option<(String, Value)> {
    ids.iter().find_map(|id| {
        let (status, chances) = app.get_json(&format!("/api/games/{id}/chances"));
        (status == 200 && wanted(&chances)).then(|| (id.clone(), chances))
    })
}

/// Whether a chances answer shows a chance after some event and marks one of `marks` among its decisions.
pub fn shows_a_mark(chances: &Value, marks: &[&str]) -> bool {
    let shown = chances["by_event"].as_array().is_some_and(|b| b.iter().any(Value::is_array));
    let marked = chances["decisions"]
        .as_array()
        .is_some_and(|d| d.iter().any(|d| marks.contains(&d["mark"].as_str().unwrap_or(""))));
    shown && marked
}

/// Publishes every catanatron record kept in tests/data: games one program played, and nothing else.
pub fn publish_program_records(app: &TestApp) -> Vec<String> {
    publish(app, catanatron_records(), &[])
}

fn catanatron_records() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(root().join("tests/data/catanatron")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// The generated club games (`tests/data/generated-club-games.tar.xz`: 40 Catan games of three or four
/// members of a club, random legal play, every seat a program's), unpacked once under `target/` and kept for the next run: into a
/// folder of this program's own, then renamed whole into place (a program that finds it there reads it).
pub fn generated_club_games() -> Vec<PathBuf> {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let archive = root().join("tests/data/generated-club-games.tar.xz");
        // Named by the archive's size, so that a changed archive is unpacked again.
        let size = std::fs::metadata(&archive).unwrap().len();
        let dir = root().join(format!("target/generated-club-games-{size}"));
        if !dir.is_dir() {
            let part = root().join(format!("target/generated-club-games-{size}.{}", std::process::id()));
            std::fs::create_dir_all(&part).unwrap();
            let untar = std::process::Command::new("tar").arg("-xJf").arg(&archive).arg("-C").arg(&part).status();
            assert!(untar.is_ok_and(|s| s.success()), "tar -xJf {} (tar and xz are needed)", archive.display());
            // Another program may have put its copy in place first: then this one goes.
            if std::fs::rename(&part, &dir).is_err() {
                let _ = std::fs::remove_dir_all(&part);
            }
        }
        dir
    });
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

fn publish(app: &TestApp, files: Vec<PathBuf>, samples: &[&str]) -> Vec<String> {
    let mut bodies: Vec<(String, Vec<u8>)> =
        files.iter().map(|f| (f.display().to_string(), std::fs::read(f).unwrap())).collect();
    bodies.extend(samples.iter().map(|n| (n.to_string(), sample(n).into_bytes())));
    bodies
        .iter()
        .map(|(name, body)| {
            let (status, answer) = app.post("/api/games?publish=true", body);
            assert!(status == 201 || status == 200, "{name}: {answer}");
            answer["id"].as_str().unwrap().to_string()
        })
        .collect()
}

/// Trains `ruleset`'s win-chance model on the app's published games, as `almanac train` does.
pub fn train(app: &TestApp, ruleset: &str) -> almanac_service::chances::Trained {
    let mut store = almanac_store::Store::open(&app.db).unwrap();
    let logs = almanac_service::chances::published_logs(&store, ruleset, None).unwrap();
    let trained = almanac_service::chances::train(&mut store, ruleset, logs, || {}).unwrap_or_else(|e| panic!("{e}"));
    // The running server takes the model up by itself (it may have marked games while the training derived
    // them): the test goes on once it follows the new model and has nothing left to derive, so that no
    // progress line comes and goes under what the test looks at.
    let newest: serde_json::Map<String, Value> =
        store.newest_models().unwrap().into_iter().map(|(r, id)| (r, Value::from(id))).collect();
    let started = std::time::Instant::now();
    loop {
        let status = app.get_json("/api/status").1;
        if status["models"] == Value::Object(newest.clone()) && status["derivation"].is_null() {
            return trained;
        }
        assert!(started.elapsed() < PATIENCE, "the server takes up the model: {status}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Starts Almanac on 127.0.0.1 with a fresh database and a club with a token; it runs until the test
/// process ends.
pub fn spawn_app(max_upload: usize) -> TestApp {
    spawn_app_with(max_upload, almanac_server::Limits::default())
}

/// The database the tests use: a SQLite file in `dir`, or, with `ALMANAC_TEST_STORE=postgres` (`make test`
/// runs the API tests so a second time), a fresh database on the test PostgreSQL.
/// The scratch PostgreSQL database, when there is one, is dropped with the second part.
pub fn test_database(dir: &Path) -> (PathBuf, Option<ScratchDatabase>) {
    match std::env::var("ALMANAC_TEST_STORE").as_deref() {
        Ok("postgres") => {
            let db = almanac_store::testing::scratch_postgres();
            (db.path(), Some(db))
        }
        _ => (dir.join("almanac.db"), None),
    }
}

pub fn spawn_app_with(max_upload: usize, limits: almanac_server::Limits) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let (db, scratch) = test_database(dir.path());
    let token = new_club(&db, "Test club");
    serve(db, token, max_upload, limits, dir, scratch)
}

/// Starts Almanac as `spawn_app_with` does, behind the reverse proxies `proxies` (addresses or networks,
/// `serve --trusted-proxy`).
pub fn spawn_app_behind(proxies: &[&str], limits: almanac_server::Limits) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let (db, scratch) = test_database(dir.path());
    let token = new_club(&db, "Test club");
    let config = almanac_server::Config {
        workers: Some(2),
        limits,
        trusted_proxies: almanac_server::TrustedProxies::parse(proxies).unwrap(),
        ..almanac_server::Config::new(db.clone())
    };
    serve_config(config, token, dir, scratch)
}

/// A server on a fresh PostgreSQL database, whatever the run's store (servers that scale out need one).
pub fn spawn_postgres_app(limits: almanac_server::Limits) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let scratch = almanac_store::testing::scratch_postgres();
    let db = scratch.path();
    let token = new_club(&db, "Test club");
    serve(db, token, 16 << 20, limits, dir, Some(scratch))
}

/// Another server on the same database as `app`, with the same club token (servers that scale out).
pub fn another_server(app: &TestApp) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    serve(app.db.clone(), app.token.clone(), 16 << 20, almanac_server::Limits::default(), dir, None)
}

fn serve(
    db: PathBuf,
    token: String,
    max_upload: usize,
    limits: almanac_server::Limits,
    dir: tempfile::TempDir,
    scratch: Option<ScratchDatabase>,
) -> TestApp {
    let config =
        almanac_server::Config { max_upload, workers: Some(2), limits, ..almanac_server::Config::new(db.clone()) };
    serve_config(config, token, dir, scratch)
}

/// A server on the PostgreSQL primary `db` that sends its reads to the streaming replica `replica`, with
/// the club token `token`.
pub fn spawn_reading_replica(db: &Path, replica: &str, token: &str) -> TestApp {
    let config = almanac_server::Config {
        workers: Some(2),
        limits: almanac_server::Limits { writes_per_minute: 0, ..Default::default() },
        read_dbs: vec![PathBuf::from(replica)],
        ..almanac_server::Config::new(db.to_path_buf())
    };
    serve_config(config, token.to_string(), tempfile::tempdir().unwrap(), None)
}

fn serve_config(
    config: almanac_server::Config,
    token: String,
    dir: tempfile::TempDir,
    scratch: Option<ScratchDatabase>,
) -> TestApp {
    let db = config.db.clone();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let handle = start_on(listener, config.clone());
    let agent = std::sync::RwLock::new(new_agent());
    let running = std::sync::Mutex::new(Some(handle));
    TestApp { address, token, db, agent, config, running, _dir: dir, _scratch: scratch }
}

fn start_on(listener: TcpListener, config: almanac_server::Config) -> actix_web::dev::ServerHandle {
    let server = almanac_server::run(listener, config).expect("the server starts");
    let handle = server.handle();
    std::thread::spawn(move || actix_rt::System::new().block_on(server));
    handle
}

impl TestApp {
    /// Stops the server (a table's network gone): nothing answers at its address until `start_again`.
    pub fn stop(&self) {
        let handle = self.running.lock().unwrap().take().expect("the server runs");
        actix_rt::System::new().block_on(handle.stop(false));
    }

    /// Starts the server again, on the same address and database.
    pub fn start_again(&self) {
        let at = self.address.trim_start_matches("http://");
        let listener = TcpListener::bind(at).unwrap_or_else(|e| panic!("{at} again: {e}"));
        *self.running.lock().unwrap() = Some(start_on(listener, self.config.clone()));
        *self.agent.write().unwrap() = new_agent();
    }

    fn agent(&self) -> ureq::Agent {
        self.agent.read().unwrap().clone()
    }
}

/// The tests' HTTP client. Redirects are not followed: the tests look at them.
fn new_agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).max_redirects(0).build().new_agent()
}

/// Creates a club in the database at `db` and returns a fresh token of it.
pub fn new_club(db: &Path, name: &str) -> String {
    let mut store = almanac_store::Store::open(db).unwrap();
    let club = almanac_service::create_club(&mut store, name).unwrap();
    almanac_service::issue_token(&mut store, club.id, "tests").unwrap().1
}

/// A response: status, headers (lower-case names) and body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

impl TestApp {
    pub fn get_text(&self, path: &str) -> (u16, String, String) {
        let mut r = self.agent().get(&format!("{}{path}", self.address)).call().unwrap();
        let ct = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (r.status().as_u16(), ct, r.body_mut().read_to_string().unwrap())
    }

    pub fn get_json(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.get_text(path);
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")))
    }

    /// Posts with the test club's token.
    /// Publishes the sample `name` with the test club's token: its game's id (a new game, or the one the
    /// sample already is).
    pub fn publish_sample(&self, name: &str) -> String {
        let (status, body) = self.post("/api/games?publish=true", sample(name).as_bytes());
        assert!(status == 201 || status == 200, "{name}: {body}");
        body["id"].as_str().unwrap().to_string()
    }

    pub fn post(&self, path: &str, body: &[u8]) -> (u16, Value) {
        let auth = format!("Bearer {}", self.token);
        let r = self.send("POST", path, Some(body), &[("authorization", &auth)]);
        (r.status, r.json())
    }

    /// Appends `lines` (log lines) to game `id` live, after its first `expected` events, with the test
    /// club's token, as a recorder does.
    pub fn append(&self, id: &str, expected: usize, lines: &[&str]) -> (u16, Value) {
        let events: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        self.post_json(
            &format!("/api/games/{id}/events"),
            &serde_json::json!({"expected_seq": expected, "events": events}),
        )
    }

    /// Posts JSON with the test club's token.
    pub fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let auth = format!("Bearer {}", self.token);
        let headers = [("authorization", auth.as_str()), ("content-type", "application/json")];
        let r = self.send("POST", path, Some(body.to_string().as_bytes()), &headers);
        (r.status, r.json())
    }

    /// Any request, with exactly the headers given.
    pub fn send(&self, method: &str, path: &str, body: Option<&[u8]>, headers: &[(&str, &str)]) -> Reply {
        let url = format!("{}{path}", self.address);
        let mut request = ureq::http::Request::builder().method(method).uri(&url);
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        let mut r = match body {
            Some(b) => self.agent().run(request.body(b.to_vec()).unwrap()),
            None => self.agent().run(request.body(()).unwrap()),
        }
        .unwrap();
        let headers =
            r.headers().iter().map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string())).collect();
        // Bytes first: a compressed body is no text (its headers are what such a test reads).
        let bytes = r.body_mut().with_config().limit(64 << 20).read_to_vec().unwrap();
        let body = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Reply { status: r.status().as_u16(), headers, body }
    }

    pub fn get_as(&self, path: &str, token: &str) -> Reply {
        self.send("GET", path, None, &[("authorization", &format!("Bearer {token}"))])
    }
}

/// A spectator of a game: its stream (`/api/games/{id}/stream`, Server-Sent Events) read as it comes.
pub struct Spectator {
    reader: std::io::BufReader<std::net::TcpStream>,
}

impl Spectator {
    /// Opens the stream of game `id` on `app` (with `token`, or as the public); the status line's code and,
    /// when it is 200, the spectator.
    pub fn follow(app: &TestApp, id: &str, token: Option<&str>) -> (u16, Option<Spectator>) {
        Spectator::follow_with(app, id, token, &[])
    }

    /// `follow`, with more headers (`name: value`), as a proxy in front of the server would add them.
    pub fn follow_with(app: &TestApp, id: &str, token: Option<&str>, headers: &[&str]) -> (u16, Option<Spectator>) {
        use std::io::{BufRead, Write};
        let host = app.address.trim_start_matches("http://").to_string();
        let mut stream = std::net::TcpStream::connect(&host).unwrap();
        // A stream that stays silent this long has failed the test (no wall-clock promise is checked: a
        // stream sends a heartbeat every 15 s).
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let more: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        write!(
            stream,
            "GET /api/games/{id}/stream HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{auth}{more}\r\n"
        )
        .unwrap();
        let mut reader = std::io::BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let code: u16 = status.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        (code, (code == 200).then_some(Spectator { reader }))
    }

    /// Reads the stream until it names an event (`event: NAME`: why it ends), and gives the name; `None` if
    /// the stream closed without one.
    pub fn ending(&mut self) -> Option<String> {
        use std::io::BufRead;
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("the stream ends within the suite's patience");
            if n == 0 {
                return None;
            }
            if let Some(name) = line.trim().strip_prefix("event: ") {
                return Some(name.to_string());
            }
        }
    }

    /// Reads the stream until a line that starts with `start` (a heartbeat is `: still here`).
    pub fn until_line(&mut self, start: &str) {
        use std::io::BufRead;
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("the stream says it within 30 s");
            assert!(n > 0, "the stream ended");
            if line.starts_with(start) {
                return;
            }
        }
    }

    /// The next number of events the stream announces.
    pub fn next_count(&mut self) -> u64 {
        use std::io::BufRead;
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("the stream announces within the suite's patience");
            assert!(n > 0, "the stream ended");
            if let Some(data) = line.trim().strip_prefix("data: ") {
                let v: Value = serde_json::from_str(data).unwrap();
                return v["seq"].as_u64().unwrap();
            }
        }
    }
}

/// A PostgreSQL primary and its streaming replica of a test's own (`tests/postgres.sh start-replicated`),
/// for a test that stops or freezes the replica: the shared pair of `make test` is left to the others.
/// Stopped and removed when dropped.
pub struct OwnReplicatedPair {
    dir: tempfile::TempDir,
    pub primary: PathBuf,
    pub replica: String,
}

impl OwnReplicatedPair {
    pub fn start() -> OwnReplicatedPair {
        let dir = tempfile::tempdir().unwrap();
        let urls = OwnReplicatedPair::script("start-replicated", dir.path());
        let (primary, replica) = urls.trim().split_once(' ').expect("two URLs");
        OwnReplicatedPair { primary: PathBuf::from(primary), replica: replica.to_string(), dir }
    }

    fn script(command: &str, dir: &Path) -> String {
        let out = postgres_sh(command, dir).expect("tests/postgres.sh runs");
        assert!(out.status.success(), "postgres.sh {command}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// `stop-replica`, `start-replica`, `freeze-replica` or `thaw-replica`.
    pub fn replica(&self, command: &str) {
        OwnReplicatedPair::script(command, self.dir.path());
    }
}

/// Runs `tests/postgres.sh COMMAND DIR`.
fn postgres_sh(command: &str, dir: &Path) -> std::io::Result<std::process::Output> {
    std::process::Command::new("bash").arg(root().join("tests/postgres.sh")).arg(command).arg(dir).output()
}

impl Drop for OwnReplicatedPair {
    fn drop(&mut self) {
        let _ = postgres_sh("thaw-replica", self.dir.path());
        let _ = postgres_sh("stop", self.dir.path());
    }
}

/// A pg_auto_failover formation of a test's own (`tests/postgres.sh start-failover`): a monitor, a primary and
/// a synchronous secondary; `url` is the multi-host URL servers take. Stopped and removed when dropped.
pub struct Formation {
    dir: tempfile::TempDir,
    pub url: PathBuf,
}

impl Formation {
    pub fn start() -> Formation {
        let dir = tempfile::tempdir().unwrap();
        let url = OwnReplicatedPair::script("start-failover", dir.path());
        Formation { url: PathBuf::from(url.trim()), dir }
    }

    /// Kills the primary node (its keeper and its PostgreSQL, kill -9): a machine lost.
    pub fn kill_primary(&self) {
        OwnReplicatedPair::script("kill-primary", self.dir.path());
    }
}

impl Drop for Formation {
    fn drop(&mut self) {
        let _ = postgres_sh("stop", self.dir.path());
    }
}

/// Starts Almanac on the database at `db` (any URL), as the club of `token`.
pub fn spawn_on(db: &Path, token: &str) -> TestApp {
    let config = almanac_server::Config {
        workers: Some(2),
        limits: almanac_server::Limits { writes_per_minute: 0, ..Default::default() },
        ..almanac_server::Config::new(db.to_path_buf())
    };
    serve_config(config, token.to_string(), tempfile::tempdir().unwrap(), None)
}
