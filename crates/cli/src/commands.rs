//! The subcommands. Each returns the process exit code.

use almanac_analysis::game_stats;
use almanac_engine::{content_hash, read_log, validate as validate_log, ImportError, ValidatedLog};
use almanac_formats::Format;
use almanac_store::{GameFilter, Inserted, Store};
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

/// Stores a validated log (one transaction).
pub fn store_log(store: &mut Store, log: &ValidatedLog) -> anyhow::Result<Inserted> {
    let hash = content_hash(&log.header_line, &log.event_lines);
    Ok(store.insert_game(log.game.as_ref(), &log.header_line, &log.event_lines, &hash)?)
}

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
    let id = store.resolve(game).with_context(|| format!("no game `{game}`"))?;
    let (header, events) = store.log(&id)?;
    let mut text = header;
    for e in events {
        text.push('\n');
        text.push_str(&e);
    }
    let game = read_log(&text).map_err(|e| anyhow::anyhow!("stored game {id} no longer validates: {e}"))?;
    Ok((id, game))
}

pub fn state(db: &Path, game: &str, turn: Option<u32>, seq: Option<usize>, json: bool) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let (id, game) = load(&store, game)?;
    let n = match (turn, seq) {
        (Some(t), _) => game.events_through_turn(t),
        (None, Some(s)) => {
            if s > game.event_count() {
                anyhow::bail!("game {id} has {} events; --seq {s} is past the end", game.event_count());
            }
            s
        }
        (None, None) => game.event_count(),
    };
    let mut view = game.view_after(n);
    view["game"] = Value::String(id.clone());
    view["seq"] = Value::from(n as u64);
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
    let row = store.game(id)?;
    let names: Vec<String> = row.players.iter().map(|p| p.name.clone()).collect();
    let facts = store.facts(id)?;
    let mut v = serde_json::to_value(game_stats(&names, &facts))?;
    v["game"] = Value::String(id.to_string());
    Ok(v)
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
    for p in v["players"].as_array().into_iter().flatten() {
        let production: Vec<String> =
            p["production"].as_object().into_iter().flatten().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "  {:<16} produced {:>3} ({})  trades {:>3}  final vp {}",
            p["name"].as_str().unwrap_or("?"),
            p["production_total"],
            production.join(", "),
            p["trades"]["count"],
            p["vp_by_turn"].as_array().and_then(|s| s.last()).map(|l| l[1].to_string()).unwrap_or_default()
        );
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
    let mut store = Store::open(db)?;
    if store.list_games(&GameFilter { limit: Some(1), ..Default::default() })?.is_empty() {
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
    }
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
