//! The subcommands. Each returns the process exit code.

use almanac_engine::{validate as validate_log, ImportError, ValidatedLog};
use almanac_formats::Format;
use almanac_store::{GameFilter, Store};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Reads and validates one file.
pub fn check_file(format: Option<Format>, path: &Path) -> Result<ValidatedLog, ImportError> {
    let bytes = std::fs::read(path).map_err(|e| {
        ImportError::Log(almanac_core::LogError::NotALog { line: 1, reason: format!("cannot read the file: {e}") })
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        ImportError::Log(almanac_core::LogError::NotALog {
            line: 1,
            reason: format!("the file is not UTF-8 text: {e}"),
        })
    })?;
    validate_log(format, &text)
}

pub use almanac_service::store_log;

fn progress(n: usize) -> Option<ProgressBar> {
    (n > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(n as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed} {msg}").expect("a valid template"),
        );
        bar
    })
}

pub fn import(db: &Path, format: Option<Format>, files: &[PathBuf]) -> anyhow::Result<i32> {
    let mut store = Store::open(db).with_context(|| format!("opening {}", db.display()))?;
    let bar = progress(files.len());
    let mut rejected = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for file in files {
        match check_file(format, file) {
            Ok(log) => {
                let inserted = store_log(&mut store, &log)?;
                writeln!(out, "{}\t{}", inserted.id(), file.display())?;
            }
            Err(e) => {
                rejected += 1;
                let line = format!("{}:{}: {}", file.display(), e.line(), e.reason());
                match &bar {
                    Some(b) => b.println(line),
                    None => eprintln!("{line}"),
                }
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

pub fn validate(format: Option<Format>, files: &[PathBuf]) -> i32 {
    let mut rejected = 0;
    for file in files {
        match check_file(format, file) {
            Ok(log) => println!(
                "{}: ok ({} events, {} turns)",
                file.display(),
                log.game.event_count(),
                log.game.current_turn()
            ),
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
        (Some(t), _) => almanac_service::At::Turn(t),
        (None, Some(s)) => almanac_service::At::Seq(s),
        (None, None) => almanac_service::At::Final,
    };
    let view = almanac_service::state(&id, game.as_ref(), at)?;
    let n = view["seq"].as_u64().unwrap_or(0);
    if json {
        println!("{}", serde_json::to_string_pretty(&view)?);
        return Ok(0);
    }
    println!(
        "game {id} after event {n} of {}: turn {}, {} to play ({})",
        game.event_count(),
        view["turn"],
        view["active"].as_str().unwrap_or("?"),
        view["phase"].as_str().unwrap_or("?")
    );
    if let Some(w) = view["winner"].as_str() {
        println!("winner: {w}");
    }
    for p in view["players"].as_array().into_iter().flatten() {
        println!(
            "  {:<16} vp {:>2} (public {:>2})  cards {:>2}  {}",
            p["name"].as_str().unwrap_or("?"),
            p["vp"],
            p["vp_public"],
            p["cards_in_hand"],
            p["awards"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join(" "))
                .unwrap_or_default()
        );
    }
    Ok(0)
}

pub fn stats_json(store: &Store, id: &str) -> anyhow::Result<Value> {
    Ok(almanac_service::stats(store, id)?.0)
}

pub fn stats(db: &Path, game: &str, json: bool) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let id = store.resolve(game).with_context(|| format!("no game `{game}`"))?;
    let v = stats_json(&store, &id)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    println!("game {id}: {} turns, {} events", v["turns"], v["events"]);
    let pairs = |v: &Value| -> String {
        v.as_object().into_iter().flatten().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
    };
    for p in v["players"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or("?");
        let last = p["vp_by_turn"].as_array().and_then(|s| s.last()).map(|l| l[1].to_string()).unwrap_or_default();
        if p["production_total"].as_i64().unwrap_or(0) > 0 || p["trades"]["count"].as_i64().unwrap_or(0) > 0 {
            println!(
                "  {name:<16} produced {:>3} ({})  trades {:>3}  final vp {last}",
                p["production_total"],
                pairs(&p["production"]),
                p["trades"]["count"],
            );
        } else {
            // Games without production (Carcassonne): the score by what scored it.
            println!("  {name:<16} {last:>3} points ({})", pairs(&p["vp_by_reason"]));
        }
    }
    Ok(0)
}

pub fn list(db: &Path, ruleset: Option<String>, player: Option<String>, limit: u32) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let games = store.list_games(&GameFilter { ruleset, player, limit: Some(limit), offset: None })?;
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
    let id = store.resolve(game).with_context(|| format!("no game `{game}`"))?;
    let (header, events) = store.log(&id)?;
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
    for g in store.list_games(&GameFilter { limit: Some(1000), ..Default::default() })? {
        println!(
            "\n{}  {}  ({}, {} turns, {} events)",
            g.id,
            g.title.as_deref().unwrap_or("untitled"),
            g.ruleset,
            g.turn_count,
            g.event_count
        );
        for p in &g.players {
            let star = if g.winner.as_deref() == Some(p.name.as_str()) { " *winner*" } else { "" };
            println!("    {:<16} {:>2} VP (public {:>2}){star}", p.name, p.vp.unwrap_or(0), p.vp_public.unwrap_or(0));
        }
    }
    Ok(0)
}

pub fn convert(format: Option<Format>, file: &Path) -> anyhow::Result<i32> {
    match check_file(format, file) {
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

/// Runs the HTTP server until interrupted.
pub fn serve(db: &Path, bind: &str, max_upload: usize, seed: Option<&Path>) -> anyhow::Result<i32> {
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
    if !store.list_games(&GameFilter { limit: Some(1), ..Default::default() })?.is_empty() {
        return Ok(());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples)
        .with_context(|| format!("reading {}", samples.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
        .collect();
    files.sort();
    for f in files {
        match check_file(None, &f) {
            Ok(log) => {
                let id = store_log(&mut store, &log)?;
                println!("stored {}\t{}", id.id(), f.display());
            }
            Err(e) => eprintln!("{}:{}: {}", f.display(), e.line(), e.reason()),
        }
    }
    Ok(())
}
