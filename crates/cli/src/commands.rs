//! The subcommands. Each returns the process exit code; each use case goes through `almanac_service`.

use almanac_engine::{ImportError, Reading, ValidatedLog};
use almanac_service::{At, ServiceError};
use almanac_store::{GameFilter, Store};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Reads and validates one file.
pub fn check_file(reading: Reading, path: &Path) -> Result<ValidatedLog, ImportError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ImportError::Log(almanac_core::LogError::not_a_log(format!("cannot read the file: {e}"))))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| ImportError::Log(almanac_core::LogError::not_a_log(format!("the file is not UTF-8 text: {e}"))))?;
    almanac_service::check_as(reading, &text)
}

pub use almanac_service::store_log;

fn progress(n: usize, what: &str) -> Option<ProgressBar> {
    (n > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(n as u64);
        bar.set_style(
            ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}} {{msg}}"))
                .expect("a valid template"),
        );
        bar
    })
}

/// Says something above the progress bar, or on stderr when there is none.
fn say(bar: &Option<ProgressBar>, line: String) {
    match bar {
        Some(b) => b.println(line),
        None => eprintln!("{line}"),
    }
}

pub fn import(db: &Path, reading: Reading, files: &[PathBuf]) -> anyhow::Result<i32> {
    let mut store = Store::open(db).with_context(|| format!("opening {}", db.display()))?;
    let bar = progress(files.len(), "files");
    let mut rejected = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for file in files {
        match check_file(reading, file) {
            Ok(log) => {
                let inserted = store_log(&mut store, &log)?;
                writeln!(out, "{}\t{}", inserted.id(), file.display())?;
            }
            Err(e) => {
                rejected += 1;
                say(&bar, format!("{}:{}: {}", file.display(), e.line(), e.reason()));
            }
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(if rejected > 0 { 1 } else { 0 })
}

pub fn validate(reading: Reading, files: &[PathBuf]) -> i32 {
    // Files are independent: check them on every core, then report in the order given.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    let results: Vec<Result<(usize, u32), ImportError>> = std::thread::scope(|scope| {
        let chunks: Vec<&[PathBuf]> = files.chunks(files.len().div_ceil(threads).max(1)).collect();
        let workers: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|f| check_file(reading, f).map(|log| (log.game.event_count(), log.game.current_turn())))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a validating thread")).collect()
    });
    let mut rejected = 0;
    for (file, result) in files.iter().zip(results) {
        match result {
            Ok((events, turns)) => println!("{}: ok ({events} events, {turns} turns)", file.display()),
            Err(e) => {
                rejected += 1;
                eprintln!("{}:{}: {}", file.display(), e.line(), e.reason());
            }
        }
    }
    if rejected > 0 {
        1
    } else {
        0
    }
}

fn open_existing(db: &Path) -> anyhow::Result<Store> {
    if !db.exists() {
        anyhow::bail!("no database at {} (import some games first, or set --db / ALMANAC_DB)", db.display());
    }
    Ok(Store::open(db)?)
}

/// Loads a stored game back into a timeline.
pub fn load(store: &Store, game: &str) -> anyhow::Result<(String, Box<dyn almanac_core::Game>)> {
    almanac_service::load(store, game).with_context(|| format!("no game `{game}`"))
}

pub fn state(db: &Path, game: &str, turn: Option<u32>, seq: Option<usize>, json: bool) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let (id, game) = load(&store, game)?;
    let at = match (turn, seq) {
        (Some(t), _) => At::Turn(t),
        (None, Some(s)) => At::Seq(s),
        (None, None) => At::Final,
    };
    let state = almanac_service::state(&id, game.as_ref(), at)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&state)?);
        return Ok(0);
    }
    let view = &state.view;
    println!(
        "game {id} after event {} of {}: turn {}, {} to play ({})",
        state.seq,
        game.event_count(),
        view.turn,
        view.active,
        view.phase
    );
    if let Some(w) = &view.winner {
        println!("winner: {w}");
    }
    let score = game.vocabulary().score.id;
    for p in &view.players {
        println!("  {:<16} {score} {:>2} (public {:>2})  {}", p.name, p.vp, p.vp_public, p.summary);
    }
    Ok(0)
}

pub fn stats(db: &Path, game: &str, json: bool) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let id = almanac_service::resolve(&store, game).with_context(|| format!("no game `{game}`"))?;
    let stats = almanac_service::stats(&store, &id)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
        return Ok(0);
    }
    let s = &stats.stats;
    println!("game {id}: {} turns, {} events", s.turns, s.events);
    let score =
        store.game(&id).ok().and_then(|row| almanac_service::game_kind(&row.ruleset)).map(|k| k.vocabulary().score.id);
    for p in &s.players {
        let last = p.vp_by_turn.last().map(|l| l[1]).unwrap_or(0);
        let declared: Vec<String> = p.declared.iter().map(|d| format!("{} {}", d.label, d.value)).collect();
        println!("  {:<16} {last:>3} {}  {}", p.name, score.unwrap_or("points"), declared.join(", "));
    }
    Ok(0)
}

pub fn list(db: &Path, ruleset: Option<String>, player: Option<String>, limit: u32) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let games = almanac_service::list(&store, &GameFilter { ruleset, player, limit: Some(limit), offset: None })?;
    for g in games {
        let players: Vec<String> = g.players.iter().map(|p| format!("{} {}", p.name, p.vp.unwrap_or(0))).collect();
        println!(
            "{}\t{}\t{}\t{} turns\twinner: {}\t{}",
            g.id,
            g.ruleset,
            g.title.as_deref().unwrap_or("-"),
            g.turn_count,
            g.winner.as_deref().unwrap_or("-"),
            players.join(", ")
        );
    }
    Ok(0)
}

pub fn export(db: &Path, game: &str) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let id = almanac_service::resolve(&store, game).with_context(|| format!("no game `{game}`"))?;
    let (header, events) = almanac_service::log(&store, &id)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{header}")?;
    for e in events {
        writeln!(out, "{e}")?;
    }
    Ok(0)
}

/// Seeds the database from the samples when it holds no game, then prints a summary of each game.
pub fn demo(db: &Path, samples: &Path) -> anyhow::Result<i32> {
    seed_if_empty(db, samples)?;
    let store = Store::open(db)?;
    println!("database: {}", db.display());
    for g in almanac_service::list(&store, &GameFilter { limit: Some(1000), ..Default::default() })? {
        println!(
            "\n{}  {}  ({}, {} turns, {} events)",
            g.id,
            g.title.as_deref().unwrap_or("untitled"),
            g.ruleset,
            g.turn_count,
            g.event_count
        );
        let score = almanac_service::game_kind(&g.ruleset).map_or("points", |k| k.vocabulary().score.id);
        for p in &g.players {
            let star = if g.winner.as_deref() == Some(p.name.as_str()) { " *winner*" } else { "" };
            let (vp, public) = (p.vp.unwrap_or(0), p.vp_public.unwrap_or(0));
            println!("    {:<16} {vp:>2} {score} (public {public:>2}){star}", p.name);
        }
    }
    Ok(0)
}

pub fn convert(reading: Reading, file: &Path) -> anyhow::Result<i32> {
    match check_file(reading, file) {
        Ok(log) => {
            print!("{}", log.text);
            Ok(0)
        }
        Err(e) => {
            eprintln!("{}:{}: {}", file.display(), e.line(), e.reason());
            Ok(1)
        }
    }
}

/// Derives the facts and summaries of stored games again (see `almanac reproject --help`).
pub fn reproject(db: &Path, ruleset: Option<&str>, all: bool) -> anyhow::Result<i32> {
    if let Some(r) = ruleset {
        if almanac_service::game_kind(r).is_none() {
            let known: Vec<&str> = almanac_service::GAMES.iter().map(|g| g.id()).collect();
            anyhow::bail!("unknown ruleset `{r}` (known: {})", known.join(", "));
        }
    }
    let mut store = open_existing(db)?;
    let ids = almanac_service::games_to_reproject(&store, ruleset, all)?;
    let bar = progress(ids.len(), "games");
    let report = almanac_service::reproject(&mut store, &ids, |_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for (id, e) in &report.failed {
        let why = match e {
            ServiceError::Corrupt { error, .. } => format!("no longer validates: {error}"),
            other => other.to_string(),
        };
        eprintln!("{id}: left as it was: {why}");
    }
    println!("reprojected {} game(s); {} left as they were", report.done.len(), report.failed.len());
    Ok(if report.failed.is_empty() { 0 } else { 1 })
}

/// Runs the HTTP server until interrupted, logging one line per request.
pub fn serve(db: &Path, bind: &str, max_upload: usize, seed: Option<&Path>) -> anyhow::Result<i32> {
    tracing_subscriber::fmt().with_target(false).with_writer(crate::logging::Background::start()).init();
    if let Some(samples) = seed {
        seed_if_empty(db, samples)?;
    }
    let listener = std::net::TcpListener::bind(bind).with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    let config = almanac_server::Config { max_upload, ..almanac_server::Config::new(db.to_path_buf()) };
    println!("Almanac is running at http://{addr}/ (database {}); Ctrl-C stops it.", db.display());
    std::io::stdout().flush()?;
    let system = actix_web::rt::System::new();
    system.block_on(async move { almanac_server::run(listener, config)?.await })?;
    Ok(0)
}

/// Imports the logs of `samples` when the database holds no game yet.
fn seed_if_empty(db: &Path, samples: &Path) -> anyhow::Result<()> {
    let mut store = Store::open(db)?;
    if !almanac_service::list(&store, &GameFilter { limit: Some(1), ..Default::default() })?.is_empty() {
        return Ok(());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples)
        .with_context(|| format!("reading {}", samples.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
        .collect();
    files.sort();
    for f in files {
        match check_file(Reading::default(), &f) {
            Ok(log) => {
                let id = store_log(&mut store, &log)?;
                println!("stored {}\t{}", id.id(), f.display());
            }
            Err(e) => eprintln!("{}:{}: {}", f.display(), e.line(), e.reason()),
        }
    }
    Ok(())
}
