//! Servers that scale out: two `almanac serve` on one PostgreSQL answer the same, whichever takes an upload
//! or an append; identical uploads to both at once are one game; appends racing through both keep one
//! contiguous log; what one server appends, the other shows at once (its cache is validated by the last
//! sequence number).

mod support;

use serde_json::{json, Value};
use support::{another_server, sample, spawn_postgres_app, TestApp};

/// Two servers on one fresh PostgreSQL database.
fn two_servers() -> (TestApp, TestApp) {
    // PostgreSQL whatever the run: a SQLite file has one writer on one machine.
    let a = spawn_postgres_app(almanac_server::Limits { writes_per_minute: 0, ..Default::default() });
    let b = another_server(&a);
    (a, b)
}

fn retitled(log: &str, title: &str) -> String {
    let (header, rest) = log.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(header).unwrap();
    header["title"] = json!(title);
    format!("{header}\n{rest}")
}

fn ids(app: &TestApp) -> Vec<String> {
    let (_, list) = app.get_json("/api/games?limit=1000");
    let mut ids: Vec<String> =
        list["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids
}

#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn two_servers_on_one_database_answer_the_same() {
    let (a, b) = two_servers();
    let base = sample("catan-club-game.jsonl");
    for n in 0..6 {
        let server = if n % 2 == 0 { &a } else { &b };
        let (status, body) = server.post("/api/games?publish=true", retitled(&base, &format!("spread {n}")).as_bytes());
        assert_eq!(status, 201, "{body}");
    }
    assert_eq!(ids(&a).len(), 6);
    assert_eq!(ids(&a), ids(&b));
    let id = &ids(&a)[0];
    for path in [format!("/api/games/{id}/state?turn=20"), format!("/api/games/{id}/stats"), format!("/api/games/{id}")]
    {
        assert_eq!(a.get_json(&path), b.get_json(&path), "{path}");
    }
}

#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn identical_uploads_to_both_servers_at_once_are_one_game() {
    let (a, b) = two_servers();
    let log = sample("catan-helpers.jsonl");
    let statuses: Vec<(u16, String)> = std::thread::scope(|scope| {
        let uploads: Vec<_> = (0..8)
            .map(|k| {
                let (server, log) = (if k % 2 == 0 { &a } else { &b }, &log);
                scope.spawn(move || {
                    let (status, body) = server.post("/api/games?publish=true", log.as_bytes());
                    (status, body["id"].as_str().unwrap_or("").to_string())
                })
            })
            .collect();
        uploads.into_iter().map(|u| u.join().unwrap()).collect()
    });
    assert_eq!(statuses.iter().filter(|(s, _)| *s == 201).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|(s, id)| (*s == 200 || *s == 201) && *id == statuses[0].1), "{statuses:?}");
    assert_eq!(ids(&a), [statuses[0].1.clone()]);
    assert_eq!(ids(&b), ids(&a));
}

#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn appends_through_both_servers_keep_one_log_and_each_sees_the_other() {
    let (a, b) = two_servers();
    let text = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let (status, body) = a.post("/api/games?publish=true", lines[..21].join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let event = |k: usize| -> Value { serde_json::from_str(lines[k]).unwrap() };
    // B reads the game (and keeps its replay), then A appends: B shows the new events at once.
    let (_, before) = b.get_json(&format!("/api/games/{id}/state"));
    assert_eq!(before["seq"], 20);
    let (status, ok) =
        a.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 20, "events": [event(21), event(22)]}));
    assert_eq!(status, 200, "{ok}");
    let (_, game) = b.get_json(&format!("/api/games/{id}"));
    assert_eq!(game["events"], 22, "B's cache was validated by the last sequence number");
    let (_, after) = b.get_json(&format!("/api/games/{id}/state"));
    assert_eq!(after["seq"], 22);
    // Writers racing through both servers with the same expected sequence number: one wins each round.
    let mut seq = 22;
    for round in 0..5 {
        let results: Vec<u16> = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..4)
                .map(|k| {
                    let server = if k % 2 == 0 { &a } else { &b };
                    let body = json!({"expected_seq": seq, "events": [event(seq + 1)]});
                    let path = format!("/api/games/{id}/events");
                    scope.spawn(move || server.post_json(&path, &body).0)
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(results.iter().filter(|s| **s == 200).count(), 1, "round {round}: {results:?}");
        assert!(results.iter().all(|s| *s == 200 || *s == 409), "round {round}: {results:?}");
        seq += 1;
    }
    for server in [&a, &b] {
        let (_, events) = server.get_json(&format!("/api/games/{id}/events"));
        let seqs: Vec<u64> = events["events"].as_array().unwrap().iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, (1..=seq as u64).collect::<Vec<_>>(), "one contiguous log");
        let bodies: Vec<&Value> = events["events"].as_array().unwrap().iter().map(|e| &e["event"]).collect();
        assert_eq!(
            bodies.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
            (0..seq).map(|k| event(k + 1).to_string()).collect::<Vec<_>>()
        );
    }
}

/// Reads spread over a streaming replica: a server reads the replica, and its own writes from the primary
/// until the replica has replayed them. The replica's replay is paused in the middle, so that "the replica
/// has not got it yet" is certain rather than a matter of timing.
#[test]
#[ignore = "needs PostgreSQL with a streaming replica: `make test` starts them (ALMANAC_TEST_PG_REPLICATED)"]
fn reads_go_to_the_replica_and_a_server_reads_its_own_writes_from_the_primary() {
    let (db, replica) = almanac_store::testing::scratch_replicated();
    let token = support::new_club(&db.path(), "Test club");
    // The servers read tokens from the replica too.
    almanac_store::testing::wait_for_replica(&db.path(), &replica);
    let writer = support::spawn_reading_replica(&db.path(), &replica, &token);
    let reader = support::spawn_reading_replica(&db.path(), &replica, &token);
    let publish = |app: &TestApp, name: &str| {
        let (status, body) = app.post("/api/games?publish=true", sample(name).as_bytes());
        assert_eq!(status, 201, "{body}");
        body["id"].as_str().unwrap().to_string()
    };
    let reads = |app: &TestApp| app.get_json("/api/status").1["reads"].clone();
    let seen_by = |app: &TestApp, id: &str| app.get_json(&format!("/api/games/{id}")).0;

    // Streaming: what the writer stores, the other server soon reads from the replica.
    let first = publish(&writer, "catan-club-game.jsonl");
    assert_eq!(seen_by(&writer, &first), 200, "the writer reads its own write at once");
    let started = std::time::Instant::now();
    while seen_by(&reader, &first) != 200 {
        assert!(started.elapsed() < support::PATIENCE, "the replica gets the game");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(reads(&reader)["primary"], 0, "a server that never wrote reads only the replica: {}", reads(&reader));

    almanac_store::testing::pause_replay(&replica, true);
    let second = publish(&writer, "carcassonne-traders-builders.jsonl");
    let primary_before = reads(&writer)["primary"].as_u64().unwrap();
    assert_eq!(seen_by(&writer, &second), 200, "the writer reads its write from the primary");
    assert!(writer.get_json("/api/games").1["games"].to_string().contains(&second));
    assert!(reads(&writer)["primary"].as_u64().unwrap() > primary_before, "{}", reads(&writer));
    // The other server reads the replica, which has not replayed the write: the game is not there yet.
    assert_eq!(seen_by(&reader, &second), 404);
    assert_eq!(seen_by(&reader, &first), 200);

    almanac_store::testing::pause_replay(&replica, false);
    let started = std::time::Instant::now();
    while seen_by(&reader, &second) != 200 {
        assert!(started.elapsed() < support::PATIENCE, "the replica catches up");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Caught up, the replica serves the writer's reads again.
    let on_replica = reads(&writer)["replicas"][0].as_u64().unwrap();
    assert_eq!(seen_by(&writer, &second), 200);
    assert!(reads(&writer)["replicas"][0].as_u64().unwrap() > on_replica, "{}", reads(&writer));
    assert_eq!(reads(&reader)["primary"], 0, "{}", reads(&reader));
}

/// A spectator of one server follows a recorder on another: the store announces each append to every
/// server on the database.
#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn a_spectator_on_one_server_follows_appends_made_on_another() {
    let (a, b) = two_servers();
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = a.post("/api/games?publish=true", lines[..11].join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, spectator) = support::Spectator::follow(&b, &id, None);
    let mut spectator = spectator.unwrap_or_else(|| panic!("{status}"));
    assert_eq!(spectator.next_count(), 10);
    for (k, line) in lines[11..15].iter().enumerate() {
        let (status, ok) = a.append(&id, 10 + k, &[line]);
        assert_eq!(status, 200, "{ok}");
        assert_eq!(spectator.next_count(), 11 + k as u64, "server b heard of server a's append");
        // And b answers with the new event at once (what it knew of the game was read again).
        let (_, page) = b.get_json(&format!("/api/games/{id}/events?from={}", 11 + k));
        assert_eq!(page["events"].as_array().map(Vec::len), Some(1), "{page}");
    }
}

/// A replica stopped, then started, while a client reads and uploads; then frozen (every process of it
/// stopped, its connections open and silent: reads on them are cut after a few seconds), then let go on. No answer is a 500, every upload answered
/// 201 is stored, the replica is left out once it is noticed (reads and uploads go on through the primary)
/// and read again once it is back and caught up, without restarting the server.
#[test]
#[ignore = "needs PostgreSQL's programs: `make test` installs them (the test starts a primary and replica of its own)"]
fn a_replica_stopped_or_frozen_is_left_out_and_read_again_when_it_returns() {
    let pair = support::OwnReplicatedPair::start();
    let token = support::new_club(&pair.primary, "Test club");
    almanac_store::testing::wait_for_replica(&pair.primary, &pair.replica);
    let server = support::spawn_reading_replica(&pair.primary, &pair.replica, &token);
    let club_game = sample("catan-club-game.jsonl");
    let mut stored = Vec::new();
    let mut uploads = 0;
    // An upload and a few reads; every answer is checked, and what was acknowledged is remembered.
    let mut traffic = |server: &TestApp| {
        uploads += 1;
        let (status, body) =
            server.post("/api/games?publish=true", retitled(&club_game, &format!("game {uploads}")).as_bytes());
        assert!(status == 201 || status == 503, "an upload is stored or refused for now, never a 500: {status} {body}");
        if status == 201 {
            stored.push(body["id"].as_str().unwrap().to_string());
        }
        for path in ["/api/games", "/api/leaderboard"] {
            let (status, body) = server.get_json(path);
            assert!(status == 200 || status == 503, "{path}: {status} {body}");
        }
        if let Some(id) = stored.first() {
            let (status, body) = server.get_json(&format!("/api/games/{id}"));
            assert!(status == 200 || status == 503, "{status} {body}");
        }
        status
    };
    let health = |server: &TestApp| server.get_json("/api/status").1;
    // How long each change took to be noticed is printed (a figure for people; nothing is asserted of it).
    let wait_for = |what: &str, server: &TestApp, in_rotation: bool, traffic: &mut dyn FnMut(&TestApp) -> u16| {
        let started = std::time::Instant::now();
        while health(server)["replicas"][0]["in_rotation"] != in_rotation {
            assert!(started.elapsed() < support::PATIENCE, "{what}: {}", health(server));
            traffic(server);
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        eprintln!("{what}: after {} ms", started.elapsed().as_millis());
    };
    assert_eq!(traffic(&server), 201);
    assert_eq!(health(&server)["replicas"][0]["in_rotation"], true, "{}", health(&server));

    for (leave, back) in [("stop-replica", "start-replica"), ("freeze-replica", "thaw-replica")] {
        pair.replica(leave);
        // Reads go on at once: a read sent to the frozen replica before it is noticed waits until the
        // server cuts its connections to it (a few seconds), then is made again on the primary.
        wait_for(&format!("{leave}: the replica is left out"), &server, false, &mut traffic);
        // Noticed: everything is answered, through the primary.
        for _ in 0..5 {
            assert_eq!(traffic(&server), 201, "{leave}: uploads go on");
        }
        let before = server.get_json("/api/status").1["reads"]["replicas"][0].as_u64().unwrap();
        pair.replica(back);
        wait_for(&format!("{back}: the replica is read again"), &server, true, &mut traffic);
        std::thread::sleep(std::time::Duration::from_millis(500));
        for _ in 0..3 {
            assert_eq!(traffic(&server), 201, "{back}");
        }
        let after = server.get_json("/api/status").1["reads"]["replicas"][0].as_u64().unwrap();
        assert!(after > before, "{back}: reads go to the replica again ({before} → {after})");
    }
    // Every upload acknowledged is stored, and the replica has it too.
    almanac_store::testing::wait_for_replica(&pair.primary, &pair.replica);
    let listed = ids(&server);
    for id in &stored {
        assert!(listed.contains(id), "{id} was acknowledged and is stored");
    }
    assert!(stored.len() >= 17, "{} uploads acknowledged", stored.len());
}

/// pg_auto_failover: the primary is killed (kill -9 of its keeper and its PostgreSQL) during a burst of uploads
/// through two servers. The servers answer again without a restart once the secondary is promoted (the writer
/// connects again through the multi-host URL), no answer is a 500, and every upload acknowledged before,
/// during or after the failover is readable through both: with synchronous replication an acknowledged
/// upload was on the secondary before it was acknowledged.
#[test]
#[ignore = "needs pg_auto_failover: `make test` installs it (the test starts a formation of its own)"]
fn a_primary_lost_fails_over_and_every_acknowledged_upload_is_kept() {
    let formation = support::Formation::start();
    let token = support::new_club(&formation.url, "Test club");
    let servers = [support::spawn_on(&formation.url, &token), support::spawn_on(&formation.url, &token)];
    let club_game = sample("catan-club-game.jsonl");
    let acknowledged = std::sync::Mutex::new(Vec::<String>::new());
    let refused = std::sync::atomic::AtomicUsize::new(0);
    let killed_at = std::sync::Mutex::new(None::<std::time::Instant>);
    let back_after = std::sync::Mutex::new(None::<std::time::Duration>);
    std::thread::scope(|scope| {
        for (k, server) in servers.iter().enumerate() {
            let (acknowledged, refused, club_game) = (&acknowledged, &refused, &club_game);
            let (killed_at, back_after) = (&killed_at, &back_after);
            scope.spawn(move || {
                let started = std::time::Instant::now();
                let mut after_kill = 0;
                for n in 0.. {
                    let log = retitled(club_game, &format!("server {k}, upload {n}"));
                    let (status, body) = server.post("/api/games?publish=true", log.as_bytes());
                    assert!(status == 201 || status == 503, "stored, or refused for now; never a 500: {status} {body}");
                    let killed = *killed_at.lock().unwrap();
                    if status == 201 {
                        acknowledged.lock().unwrap().push(body["id"].as_str().unwrap().to_string());
                        if let Some(at) = killed {
                            after_kill += 1;
                            back_after.lock().unwrap().get_or_insert(at.elapsed());
                        }
                    } else {
                        refused.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(100));
                    }
                    if after_kill >= 5 {
                        break;
                    }
                    assert!(started.elapsed() < support::PATIENCE, "uploads are taken again");
                }
            });
        }
        // The primary is lost while both servers upload.
        while acknowledged.lock().unwrap().len() < 6 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        formation.kill_primary();
        *killed_at.lock().unwrap() = Some(std::time::Instant::now());
    });
    let acknowledged = acknowledged.into_inner().unwrap();
    eprintln!(
        "failover: {} uploads acknowledged, {} refused for now (503); uploads taken again {} ms after the kill",
        acknowledged.len(),
        refused.load(std::sync::atomic::Ordering::SeqCst),
        back_after.into_inner().unwrap().map_or(0, |d| d.as_millis())
    );
    for server in &servers {
        let listed = ids(server);
        for id in &acknowledged {
            assert!(listed.contains(id), "{id} was acknowledged and is kept");
            let (status, game) = server.get_json(&format!("/api/games/{id}"));
            assert_eq!(status, 200, "{game}");
        }
    }
}

/// A live game recorded through two servers taking turns: each append finds the game its server keeps behind
/// by the other's events, and brings it up by those events alone (`catch_up`). The log, the state and every
/// number the questions read (production, the time at the table, the winner) are those of the same log
/// uploaded whole to a third server.
#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn a_game_recorded_through_two_servers_taking_turns_reads_as_its_log_uploaded_whole() {
    let (a, b) = two_servers();
    let timed = support::timed(&sample("catan-club-game.jsonl"), |i| (i as i64) * 2_000);
    let (status, body) = a.post("/api/games?publish=true", timed[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let refs: Vec<&str> = timed.iter().map(String::as_str).collect();
    for (k, chunk) in refs[1..].chunks(7).enumerate() {
        let server = if k % 2 == 0 { &a } else { &b };
        // Each server reads the game between its appends, so that it keeps it (behind) in memory.
        assert_eq!(server.get_json(&format!("/api/games/{id}/state?turn=1")).0, 200);
        let (status, ok) = server.append(&id, k * 7, chunk);
        assert_eq!(status, 200, "append {k}: {ok}");
    }
    let alone = spawn_postgres_app(almanac_server::Limits { writes_per_minute: 0, ..Default::default() });
    let (status, body) = alone.post("/api/games?publish=true", timed.join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let whole = body["id"].as_str().unwrap().to_string();
    for metric in ["production_per_turn", "seconds_per_turn", "won"] {
        let ask = |app: &TestApp| {
            let (status, answer) = app.get_json(&format!("/api/questions?metric={metric}&by=player"));
            assert_eq!(status, 200, "{answer}");
            let groups = answer["groups"].as_array().cloned().unwrap_or_default();
            groups.iter().map(|g| (g["label"].to_string(), g["value"].to_string())).collect::<Vec<_>>()
        };
        let there = ask(&alone);
        assert_eq!(there.len(), 4, "{metric}: {there:?}");
        assert_eq!(ask(&a), there, "{metric}");
        assert_eq!(ask(&b), there, "{metric}");
    }
    for server in [&a, &b] {
        for path in ["stats", "state", "state?turn=30"] {
            let (mine, theirs) = (
                server.get_json(&format!("/api/games/{id}/{path}")).1,
                alone.get_json(&format!("/api/games/{whole}/{path}")).1,
            );
            let strip = |mut v: Value| {
                if let Some(o) = v.as_object_mut() {
                    o.remove("id");
                    o.remove("game");
                }
                v
            };
            assert_eq!(strip(mine), strip(theirs), "{path}");
        }
    }
}

/// A long live game through two servers taking turns: 48,000 events, appends alternating between the
/// servers, a spectator on the second. Each append finds the other server's copy one event behind, and it
/// catches up by that event (`catch_up`); the figures are printed (the times are not asserted: a busy
/// machine is slow), as is the first request after a restart.
#[test]
#[ignore = "needs PostgreSQL: `make test` starts one (ALMANAC_TEST_PG)"]
fn a_long_live_game_through_two_servers_taking_turns() {
    let (a, b) = two_servers();
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    // Events 20 and 21 are a trade and the trade back: repeated, they stretch the game as the rules allow.
    let (header, events) = (lines[0], &lines[1..]);
    let pair = &events[19..21];
    let mut long: Vec<&str> = vec![header];
    long.extend(&events[..21]);
    for _ in 0..(48_000 - 500) / 2 {
        long.extend(pair);
    }
    long.extend(&events[21..500]);
    let stored = long.len() - 1;
    let (status, body) = a.post("/api/games?publish=true", long.join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, spectator) = support::Spectator::follow(&b, &id, None);
    let mut spectator = spectator.unwrap_or_else(|| panic!("{status}"));
    assert_eq!(spectator.next_count(), stored as u64);
    let (mut appends, mut heard) = (Vec::new(), Vec::new());
    for k in 0..24 {
        let server = if k % 2 == 0 { &a } else { &b };
        let started = std::time::Instant::now();
        let (status, ok) = server.append(&id, stored + k, &[events[500 + k]]);
        appends.push(started.elapsed().as_secs_f64() * 1e3);
        assert_eq!(status, 200, "append {k}: {ok}");
        assert_eq!(spectator.next_count(), (stored + k + 1) as u64, "the spectator on b hears append {k}");
        if k % 2 == 0 {
            heard.push(started.elapsed().as_secs_f64() * 1e3);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{stored} events, 24 appends alternating between two servers: median {:.1} ms; a spectator on the other server hears an append {:.1} ms after it began (median)",
        median(&mut appends),
        median(&mut heard)
    );
    a.stop();
    a.start_again();
    let started = std::time::Instant::now();
    let (status, ok) = a.append(&id, stored + 24, &[events[524]]);
    assert_eq!(status, 200, "{ok}");
    println!(
        "the first request after a restart, an append at {} events: {:.0} ms",
        stored + 24,
        started.elapsed().as_secs_f64() * 1e3
    );
    let (_, game) = b.get_json(&format!("/api/games/{id}"));
    assert_eq!(game["events"], json!(stored + 25));
}
