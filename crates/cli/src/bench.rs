//! `almanac bench`: the speed figures of the foundation, on a corpus of records.
//!
//! 1. validate + replay: parse every almanac/1 line and apply it with full validation, on one core; the
//!    share that translating another program's records takes; the loop the analysis searches with (events
//!    applied with nothing parsed, the legal moves listed at every position, each tried on a copy);
//! 2. import: validate and store every game (events and facts) in a fresh SQLite file, and the same
//!    rows inserted by plain SQLite for comparison;
//! 3. state at a turn: a random-access query on the longest game's timeline, and cold from the database;
//! 4. the charts of the longest game;
//! 5. a live append: events appended one at a time to the longest game stretched to about 1,000, 10,000 and
//!    48,000 events (a pair of its events that undo each other repeated), its timeline in memory as the
//!    server keeps it after an upload: the first append and the median, which should not grow with the game;
//!    and the same through two servers taking turns, each append finding its server's copy one event behind.

use crate::commands::{check_file, store_log};
use almanac_engine::{read_log, Reading};
use almanac_store::{yardstick, Store};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub fn run(corpus: &Path, db: Option<PathBuf>, postgres: Option<PathBuf>) -> anyhow::Result<i32> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "jsonl"))
        .collect();
    files.sort();
    anyhow::ensure!(!files.is_empty(), "no .json or .jsonl records in {}", corpus.display());

    // Translate once: the benchmark measures our own format.
    let t = Instant::now();
    let mut logs = Vec::new();
    for f in &files {
        match check_file(Reading::default(), f) {
            Ok(log) => logs.push(log),
            Err(e) => eprintln!("skipping {}:{}: {}", f.display(), e.line(), e.reason()),
        }
    }
    let events: usize = logs.iter().map(|l| l.game.event_count()).sum();
    let bytes: usize = logs.iter().map(|l| l.text.len()).sum();
    println!(
        "corpus: {} games, {events} events, {:.1} MB of almanac/1 text (read and translated in {:.2?})",
        logs.len(),
        bytes as f64 / 1e6,
        t.elapsed()
    );

    // 1. Validate + replay from text.
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let mut n = 0;
        for log in &logs {
            n += read_log(&log.text).expect("validated above").event_count();
        }
        assert_eq!(n, events);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "validate + replay (parse included, one core): {:.0} events/s ({:.1} MB/s, best of 3: {:.3} s)",
        events as f64 / best,
        bytes as f64 / 1e6 / best,
        best
    );
    translation_share(&files, best, events)?;
    search_loop(&logs);

    // 2. Import into a fresh database.
    let scratch = db.is_none();
    let dir = tempdir(db)?;
    let path = dir.join("bench-import.db");
    let _ = std::fs::remove_file(&path);
    let mut store = Store::open(&path)?;
    let import_s = import_each(&mut store, &logs)?;
    let facts = store.fact_count()?;
    let rows = events as u64 + facts;
    println!(
        "import (validate + store events and facts): {:.0} rows/s ({events} events + {facts} facts in {import_s:.2} s; {:.0} events/s)",
        rows as f64 / import_s,
        events as f64 / import_s
    );
    drop(store);
    let events_s = plain_sqlite_insert(&dir.join("bench-raw.db"), &logs, false)?.as_secs_f64();
    println!(
        "plain SQLite, the same event rows, one transaction per game: {:.0} events/s ({events_s:.2} s); import stores {:.2}× as many events per second",
        events as f64 / events_s,
        events_s / import_s
    );
    let raw_s = plain_sqlite_insert(&dir.join("bench-raw.db"), &logs, true)?.as_secs_f64();
    println!(
        "plain SQLite, the same event and fact rows: {:.0} rows/s ({raw_s:.2} s); import runs at {:.0}% of it",
        rows as f64 / raw_s,
        100.0 * raw_s / import_s
    );

    // 2a. `almanac import`'s way: files prepared (validated, hashed, derived, packed) on other cores while one writer
    // stores them a batch at a time. Timed apart, since on N cores only the storing does not spread.
    let path = dir.join("bench-batches.db");
    let _ = std::fs::remove_file(&path);
    let mut store = Store::open(&path)?;
    let (mut preparing, mut storing) = (0.0, 0.0);
    for batch in logs.chunks(almanac_service::STORED_TOGETHER) {
        let t = Instant::now();
        let prepared = prepared_again(batch);
        preparing += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let owned: Vec<_> = prepared.iter().map(|p| (p, almanac_store::Ownership::OPERATOR)).collect();
        for outcome in almanac_service::store_prepared_together(&mut store, &owned)? {
            outcome?;
        }
        storing += t.elapsed().as_secs_f64();
    }
    drop(store);
    // The same prepared games stored one to a transaction, as the server stores an upload that finds no other
    // waiting: what a batch shares, each game pays alone.
    let path = dir.join("bench-one-by-one.db");
    let _ = std::fs::remove_file(&path);
    let mut store = Store::open(&path)?;
    let mut alone = 0.0;
    for batch in logs.chunks(almanac_service::STORED_TOGETHER) {
        let prepared = prepared_again(batch);
        let t = Instant::now();
        for p in &prepared {
            almanac_service::store_prepared(&mut store, p, almanac_store::Ownership::OPERATOR)?;
        }
        alone += t.elapsed().as_secs_f64();
    }
    drop(store);
    println!(
        "storing one game to a transaction (an upload alone): {alone:.2} s ({:.0} events/s, {:.2}× plain SQLite's event rows)",
        events as f64 / alone,
        events_s / alone
    );
    println!(
        "almanac import's parts: preparing {preparing:.2} s of one core (validate, hash, derive, pack: {:.0} events/s a core); \
         storing {storing:.2} s ({:.0} events/s, {:.2}× plain SQLite's event rows), {} games to a transaction",
        events as f64 / preparing,
        events as f64 / storing,
        events_s / storing,
        almanac_service::STORED_TOGETHER
    );
    // `almanac import` itself, from the files, against plain SQLite timed just before each run (the machine's
    // speed drifts): the best of three of each.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut whole, mut plain) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        plain = plain.min(plain_sqlite_insert(&dir.join("bench-raw.db"), &logs, false)?.as_secs_f64());
        let path = dir.join("bench-cli.db");
        let _ = std::fs::remove_file(&path);
        let t = Instant::now();
        let code = crate::commands::import_to(&path, Reading::default(), None, false, &files, &mut std::io::sink())?;
        anyhow::ensure!(code == 0, "almanac import rejected a file of the corpus");
        whole = whole.min(t.elapsed().as_secs_f64());
    }
    println!(
        "almanac import (files read, prepared on {cores} cores, stored a batch at a time; best of 3): {whole:.2} s, \
         {:.0} events/s against plain SQLite's {:.0} (best of 3) = {:.2}×",
        events as f64 / whole,
        events as f64 / plain,
        plain / whole
    );

    // 2b. The same import into an empty PostgreSQL database, and a cold state there.
    if let Some(url) = &postgres {
        let mut pg = Store::open(url)?;
        anyhow::ensure!(pg.stored_games()?.is_empty(), "the PostgreSQL database to bench on must be empty");
        let pg_s = import_each(&mut pg, &logs)?;
        println!(
            "import into PostgreSQL (the same, over a local socket): {:.0} rows/s ({pg_s:.2} s; {:.0}% of SQLite's rate)",
            rows as f64 / pg_s,
            100.0 * import_s / pg_s
        );
        let longest = logs.iter().max_by_key(|l| l.game.event_count()).expect("not empty");
        let id = almanac_store::game_id(&longest.content_hash());
        let turns = longest.game.current_turn();
        println!("state at a random turn, cold, on PostgreSQL: {:.2} ms per query", cold_state_ms(&pg, &id, turns)?);
    }

    // 3. State at a turn.
    let longest = logs.iter().max_by_key(|l| l.game.event_count()).expect("not empty");
    let game = read_log(&longest.text).expect("validated above");
    let n = game.event_count();
    let turns = game.current_turn();
    let reps = 2000;
    let t = Instant::now();
    let mut sink = 0usize;
    for k in 0..reps {
        let turn = (k as u32 * 7919) % (turns + 1);
        sink += serde_json::to_string(&game.view_after(game.events_through_turn(turn)))?.len();
    }
    let per = t.elapsed().as_secs_f64() / reps as f64;
    println!(
        "state at a random turn of a {n}-event game (loaded timeline, JSON included): {:.1} µs per query ({sink} bytes)",
        per * 1e6
    );
    // Win chances: a model trained on the corpus's finished games of the longest game's ruleset, then
    // every position of the longest game scored.
    let same: Vec<&almanac_engine::ValidatedLog> =
        logs.iter().filter(|l| l.game.ruleset() == longest.game.ruleset()).collect();
    let samples: Vec<almanac_analysis::training::Sample> =
        same.iter().flat_map(|l| almanac_analysis::training::samples(l.game.as_ref())).collect();
    let finished = same.iter().filter(|l| l.game.winner().is_some()).count();
    let features: Vec<&str> = game.features().iter().map(|f| f.id).collect();
    let t = Instant::now();
    match almanac_analysis::training::train(game.ruleset(), game.ruleset_version(), &features, finished, &samples) {
        Ok(model) => {
            let trained = t.elapsed().as_secs_f64();
            let reps = 20;
            let t = Instant::now();
            let mut sink = 0.0;
            for _ in 0..reps {
                sink += model.chances_of(game.as_ref()).len() as f64;
            }
            let per = t.elapsed().as_secs_f64() / reps as f64;
            println!(
                "win chances: a model trained on {finished} games ({} positions) in {:.2} s; every position of the {n}-event game in {:.2} ms ({:.2} ms per 1,000 events; {sink} positions)",
                samples.len(),
                trained,
                per * 1e3,
                per * 1e3 * 1000.0 / n as f64
            );
            // Every decision of the longest game against the alternatives its rules allowed, each judged as
            // the plan it begins (the rest of its turn searched).
            let t = Instant::now();
            let judged = almanac_analysis::decisions::judge(&model, game.as_ref(), &|_| true);
            let took = t.elapsed().as_secs_f64();
            let alternatives: usize = judged.iter().map(|j| j.alternatives).sum();
            println!(
                "decisions: {} of the {n}-event game judged against {alternatives} alternatives in {:.1} ms ({:.1} ms per 1,000 events)",
                judged.len(),
                took * 1e3,
                took * 1e3 * 1000.0 / n as f64
            );
        }
        Err(why) => println!("win chances: no model ({why})"),
    }
    let store = Store::open(&path)?;
    let id = almanac_store::game_id(&longest.content_hash());
    println!(
        "state at a random turn, cold (read {n} events from SQLite, validate, replay): {:.2} ms per query",
        cold_state_ms(&store, &id, turns)?
    );

    // 4. The charts the longest game's ruleset declares, from its facts.
    let mut rows = Vec::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            rows.push(f.row(i as u64 + 1, game.event_turn(i)));
        }
    }
    let names: Vec<String> = game.envelope().players.iter().map(|p| p.name.clone()).collect();
    let colors: Vec<Option<String>> = game.envelope().players.iter().map(|p| p.color.clone()).collect();
    let vocabulary = game.vocabulary();
    let reps = 20;
    for &chart in vocabulary.charts {
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..reps {
            let stats = almanac_analysis::game_stats(&names, &rows, vocabulary);
            bytes = almanac_charts::draw(chart, &stats, vocabulary, &colors)?.len();
        }
        println!(
            "chart {}.svg of a {turns}-turn game (stats from {} facts + drawing): {:.2} ms ({bytes} bytes)",
            chart.id(),
            rows.len(),
            t.elapsed().as_secs_f64() / reps as f64 * 1e3
        );
    }
    drop(store);

    // 5. Live appends to the longest game stretched to 1,000, 10,000 and 48,000 events.
    let header = longest.header_line();
    let lines: Vec<&str> = longest.event_lines();
    let mut cases: Vec<(usize, Vec<String>)> = Vec::new();
    for target in STRETCHED_TO {
        match stretched(header, &lines, target) {
            Some(long) => cases.push((long.len() - APPENDS, long)),
            None => {
                println!("live append at length: the longest game has no pair of events that undo each other to repeat")
            }
        }
    }
    let say = |backend: &str, stored: usize, (first, median): (f64, f64)| {
        println!(
            "live append of one event at {stored} events (timeline in memory, {backend}): first {first:.2} ms, median {median:.2} ms of {APPENDS}"
        )
    };
    let by_two = |backend: &str, stored: usize, (first, median): (f64, f64)| {
        println!(
            "live append of one event at {stored} events through two servers taking turns (each keeps the game, behind by the other's event, {backend}): first {first:.2} ms, median {median:.2} ms of {APPENDS}"
        )
    };
    for (stored, lines) in &cases {
        let file = dir.join(format!("append-{stored}.db"));
        let _ = std::fs::remove_file(&file);
        let mut store = Store::open(&file)?;
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        say("SQLite", *stored, live_appends(&mut store, header, &lines, *stored)?);
        by_two("SQLite", *stored, live_appends_by(&mut store, header, &lines, *stored, 2)?);
        drop(store);
        let _ = std::fs::remove_file(&file);
    }
    if let Some(url) = &postgres {
        let mut pg = Store::open(url)?;
        for (stored, lines) in &cases {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            say("PostgreSQL", *stored, live_appends(&mut pg, header, &lines, *stored)?);
            by_two("PostgreSQL", *stored, live_appends_by(&mut pg, header, &lines, *stored, 2)?);
        }
    }
    if scratch {
        // The scratch databases are gigabytes at scale: leave nothing behind.
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(0)
}

/// Events appended one at a time by the live-append bench: the first and the median reported. Enough for
/// the median to be the connection's steady state: PostgreSQL plans a prepared statement afresh for its
/// first five executions.
const APPENDS: usize = 31;
/// The lengths the longest game is stretched to for the live append at length (the limit is 50,000).
const STRETCHED_TO: [usize; 3] = [1_000, 10_000, 48_000];

/// Stores the first `stored` of `lines` as a club's game, then appends the next `APPENDS` events one at a time
/// with the game in memory, as the server does after an upload: the first append's time and the median, in
/// milliseconds.
/// Stores every log afresh, validated again as an upload is: the seconds it took.
fn import_each(store: &mut Store, logs: &[almanac_engine::ValidatedLog]) -> anyhow::Result<f64> {
    let t = Instant::now();
    for log in logs {
        let fresh = read_log(&log.text).expect("validated above");
        let revalidated = almanac_engine::ValidatedLog { game: fresh, text: log.text.clone() };
        store_log(store, &revalidated, almanac_store::Ownership::OPERATOR)?;
    }
    Ok(t.elapsed().as_secs_f64())
}

/// Milliseconds per query for the state at a turn read cold: the game loaded from `store` (its events read,
/// validated and replayed), then its view after a turn spread over the game from query to query.
fn cold_state_ms(store: &Store, id: &str, turns: u32) -> anyhow::Result<f64> {
    let reps = 50;
    let t = Instant::now();
    for k in 0..reps {
        let (_, g) = crate::commands::load(store, id)?;
        let turn = (k as u32 * 7919) % (turns + 1);
        std::hint::black_box(g.view_after(g.events_through_turn(turn)));
    }
    Ok(t.elapsed().as_secs_f64() / f64::from(reps) * 1e3)
}

fn live_appends(store: &mut Store, header: &str, lines: &[&str], stored: usize) -> anyhow::Result<(f64, f64)> {
    live_appends_by(store, header, lines, stored, 1)
}

/// `live_appends` through `servers` servers taking turns, each keeping the game in memory as a server does:
/// every append finds its server's copy behind by the others' events since its last turn.
fn live_appends_by(
    store: &mut Store,
    header: &str,
    lines: &[&str],
    stored: usize,
    servers: usize,
) -> anyhow::Result<(f64, f64)> {
    let club = match store.club_by_name("bench") {
        Ok(club) => club,
        Err(_) => almanac_service::create_club(store, "bench")?,
    };
    // Titled by the number of servers: each run is a game of its own, not the last run's stored again.
    let mut titled: serde_json::Value = serde_json::from_str(header)?;
    titled["title"] = serde_json::json!(format!("live appends, servers: {servers}"));
    let header = titled.to_string();
    let prefix: Vec<&str> = std::iter::once(header.as_str()).chain(lines[..stored].iter().copied()).collect();
    let log = almanac_service::check(None, &prefix.join("\n"))?;
    let id = store_log(store, &log, almanac_store::Ownership::private_to(club.id))?.id().to_string();
    let mut kept: Vec<Option<almanac_service::LiveGame>> = vec![Some(almanac_service::LiveGame::counted(log.game))];
    for _ in 1..servers {
        let copy = almanac_service::check(None, &prefix.join("\n"))?.game;
        kept.push(Some(almanac_service::LiveGame::counted(copy)));
    }
    let mut times = Vec::new();
    for k in 0..APPENDS {
        let next = vec![lines[stored + k].to_string()];
        let t = Instant::now();
        almanac_service::append(store, club.id, &id, (stored + k) as u64, &next, &mut kept[k % servers])?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let first = times[0];
    times.sort_by(f64::total_cmp);
    Ok((first, times[APPENDS / 2]))
}

/// `lines` made about `target` events long by repeating, where it is played, the first pair of events that
/// leaves the game as it found it (a trade and the trade back): a long game the rules accept. `None` when
/// the game has no such pair.
fn stretched(header: &str, lines: &[&str], target: usize) -> Option<Vec<String>> {
    let mut game = read_log(header).ok()?;
    // The state after each event, written out: a pair undoes itself when the state after it is the state
    // before it.
    let mut states = vec![game.state_dump()];
    for (i, line) in lines.iter().enumerate() {
        game.push_line(i + 2, line).ok()?;
        states.push(game.state_dump());
        if i >= 1 && states[i + 1] == states[i - 1] {
            let pair = &lines[i - 1..=i];
            let repeats = target.saturating_sub(lines.len()) / 2;
            let mut out: Vec<String> = lines[..=i].iter().map(|l| l.to_string()).collect();
            for _ in 0..repeats {
                out.extend(pair.iter().map(|l| l.to_string()));
            }
            out.extend(lines[i + 1..].iter().map(|l| l.to_string()));
            return Some(out);
        }
    }
    None
}

fn tempdir(db: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let dir = match db {
        Some(d) => d,
        None => std::env::temp_dir().join(format!("almanac-bench-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Logs validated again from their text and prepared as `almanac import` prepares them (packed ahead).
fn prepared_again(logs: &[almanac_engine::ValidatedLog]) -> Vec<almanac_service::Prepared> {
    logs.iter()
        .map(|log| {
            let game = read_log(&log.text).expect("validated above");
            let log = almanac_engine::ValidatedLog { game, text: log.text.clone() };
            almanac_service::prepare(log, &almanac_service::chances::Models::none()).ahead()
        })
        .collect()
}

/// The same rows inserted by plain SQL (the store's yardstick), timed without validation.
fn plain_sqlite_insert(
    path: &Path,
    logs: &[almanac_engine::ValidatedLog],
    with_facts: bool,
) -> anyhow::Result<std::time::Duration> {
    // Rows prepared beforehand so that only the inserts are timed.
    let games: Vec<yardstick::Rows> = logs
        .iter()
        .enumerate()
        .map(|(g, log)| {
            let n = log.game.event_count();
            let lines = log.event_lines();
            yardstick::Rows {
                id: format!("g{g}"),
                events: (0..n).map(|i| (i as u64 + 1, log.game.event_turn(i), lines[i])).collect(),
                facts: (0..n)
                    .flat_map(|i| {
                        log.game.event_facts(i).iter().map(move |f| f.row(i as u64 + 1, log.game.event_turn(i)))
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(yardstick::plain_insert(path, &games, with_facts)?)
}

/// `almanac bench-scale`: how fast a stored database answers what coaches ask, as the public sees it: every
/// preset question (and each asked of one game), player pages, head-to-heads, pages of the games list; and
/// what the database weighs against its logs' text. Each is run `reps` times after one warming run; the
/// median and the 95th percentile are printed. Then each ruleset's win-chance model is trained, and timed.
pub fn scale(db: &Path, reps: usize) -> anyhow::Result<i32> {
    use almanac_service::questions::{ask, Ask, PRESETS};
    use almanac_service::{GameFilter, Viewer};
    let store = Store::open(db)?;
    let stored = store.stored_games()?.len();
    anyhow::ensure!(stored > 0, "no games in {}", db.display());
    println!("{stored} games in {}", db.display());
    // Players and pairs are taken from a thousand of them (the latest stored).
    let games = almanac_service::list(
        &store,
        &GameFilter { viewer: Viewer::Operator, limit: Some(1000), ..Default::default() },
    )?;
    let time = |what: &str, f: &mut dyn FnMut(usize) -> anyhow::Result<()>| -> anyhow::Result<()> {
        f(0)?;
        let mut ms: Vec<f64> = Vec::with_capacity(reps);
        for k in 0..reps {
            let t = Instant::now();
            f(k + 1)?;
            ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
        println!("{what}: median {:.1} ms, p95 {:.1} ms", at(0.5), at(0.95));
        Ok(())
    };
    // The first question of a process reads every seat into memory; later ones read the seats revised since.
    let first = Ask::preset(PRESETS[0].id).expect("a preset");
    let t = Instant::now();
    ask(&store, Viewer::Public, &first)?;
    println!(
        "the first question of a process, reading every seat into memory: {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for p in PRESETS {
        let question = Ask::preset(p.id).expect("a preset");
        time(&format!("question \"{}\" (computed)", p.question), &mut |_| {
            std::hint::black_box(ask(&store, Viewer::Public, &question)?);
            Ok(())
        })?;
    }
    // The server keeps answers until the read model changes: the same questions asked again.
    let kept = almanac_service::questions::AnswerMemo::default();
    let presets: Vec<Ask> = PRESETS.iter().map(|p| Ask::preset(p.id).expect("a preset")).collect();
    for question in &presets {
        almanac_service::questions::ask_kept(&store, Viewer::Public, question, &kept)?;
    }
    time("any preset question asked again (the answer kept in memory)", &mut |k| {
        let question = &presets[k % presets.len()];
        std::hint::black_box(almanac_service::questions::ask_kept(&store, Viewer::Public, question, &kept)?);
        Ok(())
    })?;
    let rulesets: Vec<String> = almanac_service::GAMES.iter().map(|g| g.id().to_string()).collect();
    for r in &rulesets {
        let question = Ask { ruleset: Some(r.clone()), ..Ask::preset("best-players").expect("a preset") };
        time(&format!("question \"Who wins most often?\" of {r}"), &mut |_| {
            std::hint::black_box(ask(&store, Viewer::Public, &question)?);
            Ok(())
        })?;
    }
    // Players spread over the list: the first seat of every n-th game.
    let players: Vec<i64> = games
        .iter()
        .step_by((games.len() / 50).max(1))
        .filter_map(|g| g.players.first().and_then(|p| p.player))
        .collect();
    let pairs: Vec<(i64, i64)> = games
        .iter()
        .step_by((games.len() / 50).max(1))
        .filter_map(|g| Some((g.players.first()?.player?, g.players.get(1)?.player?)))
        .collect();
    // Ratings are kept between requests, as the server keeps them, and rated again when games change.
    let memo = almanac_service::players::RatingsMemo::default();
    let t = Instant::now();
    for r in &rulesets {
        memo.ratings(&store, r)?;
    }
    println!("every ruleset's ratings, rated once (then kept): {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    time("a player's page", &mut |k| {
        std::hint::black_box(almanac_service::players::player_page(
            &store,
            Viewer::Public,
            players[k % players.len()],
            &memo,
        )?);
        Ok(())
    })?;
    time("a player's games across the field (\"Who wins most often?\" of one player, by opponent)", &mut |k| {
        let question = Ask {
            by: "opponent".into(),
            player: Some(players[k % players.len()]),
            ..Ask::preset("best-players").expect("a preset")
        };
        std::hint::black_box(ask(&store, Viewer::Public, &question)?);
        Ok(())
    })?;
    time("a head-to-head", &mut |k| {
        let (a, b) = pairs[k % pairs.len()];
        std::hint::black_box(almanac_service::players::head_to_head(&store, Viewer::Public, a, b)?);
        Ok(())
    })?;
    for (what, offset) in [("the games list, first page", 0), ("the games list, page 100", 99 * 50)] {
        time(what, &mut |_| {
            let filter = GameFilter { limit: Some(50), offset: Some(offset), ..Default::default() };
            std::hint::black_box(almanac_service::list(&store, &filter)?);
            Ok(())
        })?;
    }
    // The state after a random event of a random stored game, cold (nothing in memory): from its nearest
    // checkpoint and the events after it, then the same from a replay of its whole log, as before checkpoints.
    {
        let all: Vec<_> = store.stored_games()?.into_iter().filter(|g| !g.deleted).collect();
        let pick = |k: usize| {
            let g = &all[(k * 7919 + 13) % all.len()];
            (g, (k as u64 * 104_729) % (g.events + 1))
        };
        let samples = reps.max(200);
        let timed =
            |what: &str, f: &dyn Fn(&almanac_store::Visible, u64) -> anyhow::Result<()>| -> anyhow::Result<()> {
                let mut us: Vec<f64> = Vec::with_capacity(samples);
                for k in 0..samples {
                    let (g, n) = pick(k);
                    let seen = store.stored(&g.id)?;
                    let t = Instant::now();
                    f(&seen, n)?;
                    us.push(t.elapsed().as_secs_f64() * 1e6);
                }
                us.sort_by(f64::total_cmp);
                let at = |q: f64| us[((us.len() - 1) as f64 * q).round() as usize];
                println!("{what}, among {} games: median {:.0} µs, p99 {:.0} µs", all.len(), at(0.5), at(0.99));
                Ok(())
            };
        timed("state after a random event of a random game, cold, from its checkpoint", &|seen, n| {
            std::hint::black_box(almanac_service::state_from_store(&store, seen, Some(n))?);
            Ok(())
        })?;
        timed("of which reading its checkpoint and the events after it", &|seen, n| {
            let version_of = |ruleset: &str| almanac_service::game_kind(ruleset).map(|k| k.version());
            std::hint::black_box(store.resume_point(seen, Some(n), &version_of)?);
            Ok(())
        })?;
        timed("the same, replaying the whole log", &|seen, n| {
            let game = almanac_service::load_visible(&store, seen)?;
            std::hint::black_box(game.view_after(n as usize));
            Ok(())
        })?;
        let (kept, text) = (store.checkpoint_bytes()?, store.log_bytes()?);
        println!(
            "checkpoints: {:.1} MB, {:.2}× the logs' text ({:.1} MB)",
            kept as f64 / 1e6,
            kept as f64 / text as f64,
            text as f64 / 1e6
        );
    }
    if let Ok(size) = std::fs::metadata(db).map(|m| m.len()) {
        let text = store.log_bytes()?;
        println!(
            "size: {:.1} MB for {:.1} MB of almanac/1 text ({:.2}× the text; {:.0} KB per game)",
            size as f64 / 1e6,
            text as f64 / 1e6,
            size as f64 / text as f64,
            size as f64 / stored as f64 / 1e3
        );
    }
    // Win-chance models, each trained on every published game of its ruleset and kept in the database.
    drop(store);
    let mut store = Store::open(db)?;
    for kind in almanac_service::GAMES.iter().filter(|g| !g.features().is_empty()) {
        let t = Instant::now();
        let logs = almanac_service::chances::published_logs(&store, kind.id(), None)?;
        let read = t.elapsed().as_secs_f64();
        match almanac_service::chances::train(&mut store, kind.id(), logs, || {}) {
            Ok(trained) => println!(
                "win chances of {}: trained on {} games ({} positions) in {:.1} s ({:.1} s of it reading the logs)",
                kind.name(),
                trained.games,
                trained.model.trained_on.positions,
                t.elapsed().as_secs_f64(),
                read
            ),
            Err(why) => println!("win chances of {}: {why}", kind.name()),
        }
    }
    Ok(0)
}

/// The share of checking a corpus of another program's records that goes to translating them into our own
/// format (in memory, one core, best of 3), against the validate + replay of the translation (`replay_s`).
fn translation_share(files: &[PathBuf], replay_s: f64, events: usize) -> anyhow::Result<()> {
    let mut foreign = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f)?;
        if let Some(almanac_engine::Format::Foreign(importer)) = almanac_engine::detect(&text) {
            foreign.push((importer, text));
        }
    }
    if foreign.is_empty() || foreign.len() != files.len() {
        println!("translation: the corpus is not all another program's records; its share is not measured");
        return Ok(());
    }
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for (importer, text) in &foreign {
            (importer.to_almanac)(text).map_err(|e| anyhow::anyhow!("{}", e.reason))?;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mb = foreign.iter().map(|(_, t)| t.len()).sum::<usize>() as f64 / 1e6;
    println!(
        "translation of the records (in memory, one core): {best:.3} s ({:.0} MB/s), {:.0}% of translate + validate + replay",
        mb / best,
        100.0 * best / (best + replay_s)
    );
    // As `almanac validate` and an import read them: an importer that makes its events typed translates and
    // validates in one pass, its text never read back.
    let mut whole = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for (importer, text) in &foreign {
            almanac_engine::validate(Some(almanac_engine::Format::Foreign(importer)), text)?;
        }
        whole = whole.min(t.elapsed().as_secs_f64());
    }
    println!(
        "the records read as `almanac validate` reads them (translated, validated and replayed in memory, one core): \
         {whole:.3} s, {:.0} events/s",
        events as f64 / whole
    );
    Ok(())
}

/// The loop the analysis searches with, one core: every game's events applied again with nothing parsed
/// (best of 3); at every position of every game the moves the rules list whole; and those moves each applied
/// to a copy of the state, as a search tries them, on at most `TRIED_GAMES` games of each ruleset (listing
/// and trying are run once: a game with many places for a piece lists millions of moves in a corpus).
fn search_loop(logs: &[almanac_engine::ValidatedLog]) {
    const TRIED_GAMES: usize = 50;
    let mut best = f64::MAX;
    let mut events = 0;
    for _ in 0..3 {
        let t = Instant::now();
        events = logs.iter().map(|l| l.game.apply_again()).sum::<usize>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "apply only (no parsing, one core): {:.0} events/s ({events} events in {best:.3} s)",
        events as f64 / best
    );
    let listed = |logs: &[&almanac_engine::ValidatedLog], tried: bool| {
        let t = Instant::now();
        let (positions, moves) =
            logs.iter().map(|l| l.game.list_moves_again(tried)).fold((0, 0), |(p, m), (a, b)| (p + a, m + b));
        (t.elapsed().as_secs_f64(), positions, moves)
    };
    let all: Vec<&almanac_engine::ValidatedLog> = logs.iter().collect();
    let (s, positions, moves) = listed(&all, false);
    println!(
        "legal moves listed at every position (one core): {:.0} positions/s, {:.0} moves/s ({positions} positions, {moves} moves, {s:.3} s with the events between)",
        positions as f64 / s,
        moves as f64 / s
    );
    let mut some: Vec<&almanac_engine::ValidatedLog> = Vec::new();
    for log in logs {
        if some.iter().filter(|l| l.game.ruleset() == log.game.ruleset()).count() < TRIED_GAMES {
            some.push(log);
        }
    }
    let (s, _, moves) = listed(&some, true);
    println!(
        "and each move tried on a copy of the state, as a search does: {:.0} moves/s ({moves} moves of {} games, {s:.3} s)",
        moves as f64 / s,
        some.len()
    );
}
