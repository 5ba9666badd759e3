//! `almanac bench-load`: a crowd against a running server for a while, then the count of what it lost.
//! Uploaders post sample games (each retitled, so each is a new game), readers ask states, charts, event
//! pages and the games page of the games there are, live writers upload the start of a game and append
//! the rest one event at a time. At the end every acknowledged upload and append is read back.

use anyhow::Context;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Crowd {
    pub uploaders: usize,
    pub readers: usize,
    pub writers: usize,
    pub seconds: u64,
}

/// What one kind of request did.
#[derive(Default)]
struct Tally {
    ms: Vec<f64>,
    errors: u64,
    first_error: Option<String>,
}

#[derive(Default)]
struct Report {
    kinds: std::collections::BTreeMap<&'static str, Tally>,
    /// Acknowledged games and the events each must have.
    games: Vec<(String, u64)>,
}

struct Client {
    agent: ureq::Agent,
    url: String,
    token: String,
}

impl Client {
    fn new(url: &str, token: &str) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .new_agent();
        Client { agent, url: url.trim_end_matches('/').to_string(), token: token.to_string() }
    }

    /// A request; the status and the body, or the transport's error.
    fn call(&self, method: &str, path: &str, body: Option<(&str, &[u8])>) -> Result<(u16, String), String> {
        let url = format!("{}{path}", self.url);
        let auth = format!("Bearer {}", self.token);
        let result = match (method, body) {
            ("GET", _) => self.agent.get(&url).header("Authorization", &auth).call(),
            (_, Some((content_type, bytes))) => {
                self.agent.post(&url).header("Authorization", &auth).header("Content-Type", content_type).send(bytes)
            }
            _ => self.agent.post(&url).header("Authorization", &auth).send_empty(),
        };
        let mut response = result.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let text = response.body_mut().with_config().limit(256 << 20).read_to_string().map_err(|e| e.to_string())?;
        Ok((status, text))
    }
}

fn record(report: &Mutex<Report>, kind: &'static str, started: Instant, outcome: &Result<(u16, String), String>) {
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let mut report = report.lock().unwrap_or_else(|e| e.into_inner());
    let tally = report.kinds.entry(kind).or_default();
    tally.ms.push(ms);
    let error = match outcome {
        Ok((s, _)) if (200..300).contains(s) => None,
        Ok((s, body)) => Some(format!("{s} {}", body.chars().take(200).collect::<String>())),
        Err(e) => Some(e.clone()),
    };
    if let Some(e) = error {
        tally.errors += 1;
        tally.first_error.get_or_insert(e);
    }
}

/// A sample log with its title replaced, so that it is a new game.
fn retitled(log: &str, title: &str) -> String {
    let (header, rest) = log.split_once('\n').unwrap_or((log, ""));
    let mut header: Value = serde_json::from_str(header).expect("a sample's header is JSON");
    header["title"] = Value::String(title.to_string());
    format!("{header}\n{rest}")
}

fn id_of(body: &str) -> Option<String> {
    serde_json::from_str::<Value>(body).ok()?["id"].as_str().map(String::from)
}

/// `url` is one server, or several separated by commas (servers that scale out): each client keeps to one,
/// the clients spread over all, and every game is read back through the first.
pub fn run(url: &str, token: &str, samples: &Path, crowd: Crowd) -> anyhow::Result<i32> {
    let servers: Vec<&str> = url.split(',').map(str::trim).filter(|u| !u.is_empty()).collect();
    anyhow::ensure!(!servers.is_empty(), "no server to load");
    let server = |k: usize| servers[k % servers.len()];
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(samples).with_context(|| format!("reading {}", samples.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            logs.push(std::fs::read_to_string(&path)?);
        }
    }
    anyhow::ensure!(!logs.is_empty(), "no .jsonl samples in {}", samples.display());
    let live_log = logs.iter().max_by_key(|l| l.lines().count()).expect("a sample").clone();
    let logs = Arc::new(logs);
    let client = Client::new(servers[0], token);
    let (status, body) = client.call("GET", "/api/games?limit=1000", None).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(status == 200, "the server answered {status}: {body}");
    let games: Value = serde_json::from_str(&body)?;
    let known: Vec<(String, u64)> = games["games"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|g| (g["id"].as_str().unwrap_or("").to_string(), g["turn_count"].as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    anyhow::ensure!(!known.is_empty(), "the server has no game to read; seed it first");
    let known = Arc::new(known);
    let report = Arc::new(Mutex::new(Report::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();

    for u in 0..crowd.uploaders {
        let (logs, report, stop) = (logs.clone(), report.clone(), stop.clone());
        let client = Client::new(server(u), token);
        threads.push(std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let log = retitled(&logs[(u + n) % logs.len()], &format!("load {u}-{n}"));
                let events = log.lines().filter(|l| !l.trim().is_empty()).count() as u64 - 1;
                let started = Instant::now();
                let outcome = client.call("POST", "/api/games", Some(("application/x-ndjson", log.as_bytes())));
                record(&report, "upload", started, &outcome);
                if let Ok((201, body)) = &outcome {
                    if let Some(id) = id_of(body) {
                        report.lock().unwrap_or_else(|e| e.into_inner()).games.push((id, events));
                    }
                }
            }
        }));
    }
    for r in 0..crowd.readers {
        let (known, report, stop) = (known.clone(), report.clone(), stop.clone());
        let client = Client::new(server(r), token);
        threads.push(std::thread::spawn(move || {
            let mut n: usize = r * 7919;
            while !stop.load(Ordering::Relaxed) {
                n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (id, turns) = &known[(n >> 33) % known.len()];
                let (kind, path) = match (n >> 20) % 10 {
                    0..=5 => ("state", format!("/api/games/{id}/state?turn={}", (n >> 40) as u64 % (turns + 1))),
                    6 | 7 => ("chart", format!("/api/games/{id}/charts/vp.svg")),
                    8 => ("events", format!("/api/games/{id}/events?from={}&limit=200", (n >> 40) % 200 + 1)),
                    _ => ("page", "/".to_string()),
                };
                let started = Instant::now();
                let outcome = client.call("GET", &path, None);
                record(&report, kind, started, &outcome);
            }
        }));
    }
    for w in 0..crowd.writers {
        let (report, stop, live_log) = (report.clone(), stop.clone(), live_log.clone());
        let client = Client::new(server(w), token);
        threads.push(std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let log = retitled(&live_log, &format!("live {w}-{n}"));
                let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
                let start = 21.min(lines.len());
                let started = Instant::now();
                let outcome = client.call(
                    "POST",
                    "/api/games",
                    Some(("application/x-ndjson", lines[..start].join("\n").as_bytes())),
                );
                record(&report, "live upload", started, &outcome);
                let Some(id) = outcome.ok().filter(|(s, _)| *s == 201).and_then(|(_, b)| id_of(&b)) else { continue };
                let mut seq = start as u64 - 1;
                for line in &lines[start..] {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let body = format!("{{\"expected_seq\":{seq},\"events\":[{line}]}}");
                    let started = Instant::now();
                    let outcome = client.call(
                        "POST",
                        &format!("/api/games/{id}/events"),
                        Some(("application/json", body.as_bytes())),
                    );
                    record(&report, "append", started, &outcome);
                    match outcome {
                        Ok((200, _)) => seq += 1,
                        _ => break,
                    }
                }
                report.lock().unwrap_or_else(|e| e.into_inner()).games.push((id, seq));
            }
        }));
    }

    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(crowd.seconds));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let elapsed = started.elapsed().as_secs_f64();

    // Every acknowledged game, read back.
    let report = report.lock().unwrap_or_else(|e| e.into_inner());
    let mut lost = Vec::new();
    for (id, events) in &report.games {
        match client.call("GET", &format!("/api/games/{id}"), None) {
            Ok((200, body)) => {
                let stored = serde_json::from_str::<Value>(&body).ok().and_then(|g| g["events"].as_u64());
                if stored != Some(*events) {
                    lost.push(format!("{id}: {events} events acknowledged, {stored:?} stored"));
                }
            }
            other => lost.push(format!("{id}: {other:?}")),
        }
    }
    println!(
        "{} uploaders, {} readers, {} live writers for {elapsed:.0} s against {url}",
        crowd.uploaders, crowd.readers, crowd.writers
    );
    println!("{:<12} {:>8} {:>9} {:>9} {:>9} {:>7}", "kind", "count", "per s", "p50 ms", "p99 ms", "errors");
    let mut errors = 0;
    for (kind, tally) in &report.kinds {
        let mut ms = tally.ms.clone();
        ms.sort_by(f64::total_cmp);
        let at =
            |q: f64| ms.get(((ms.len() as f64 * q) as usize).min(ms.len().saturating_sub(1))).copied().unwrap_or(0.0);
        println!(
            "{kind:<12} {:>8} {:>9.1} {:>9.1} {:>9.1} {:>7}",
            ms.len(),
            ms.len() as f64 / elapsed,
            at(0.5),
            at(0.99),
            tally.errors
        );
        errors += tally.errors;
    }
    for (kind, tally) in &report.kinds {
        if let Some(e) = &tally.first_error {
            println!("first {kind} error: {e}");
        }
    }
    println!("games acknowledged: {}; lost: {}", report.games.len(), lost.len());
    for l in lost.iter().take(10) {
        println!("  lost {l}");
    }
    Ok(if errors == 0 && lost.is_empty() { 0 } else { 1 })
}
