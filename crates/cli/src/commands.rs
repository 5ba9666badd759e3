//! The subcommands. Each returns the process exit code; each use case goes through `almanac_service`.

use almanac_engine::{ImportError, Reading, ValidatedLog};
use almanac_service::{At, ServiceError};
use almanac_store::{GameFilter, Ownership, Store, Viewer};
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

pub fn progress(n: usize, what: &str) -> Option<ProgressBar> {
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

/// Who a game stored from the command line belongs to: the operator's own (public), or a club's (private
/// unless `publish`).
pub fn ownership(store: &Store, club: Option<&str>, publish: bool) -> anyhow::Result<Ownership> {
    Ok(match club {
        None => Ownership::OPERATOR,
        Some(name) => {
            let club = store.club_by_name(name).with_context(|| format!("no club `{name}` (almanac club create)"))?;
            Ownership { club: Some(club.id), published: publish }
        }
    })
}

/// The files given, a folder standing for the files in it (in name order).
pub fn in_folders(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("reading {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

pub fn import(
    db: &Path,
    reading: Reading,
    club: Option<&str>,
    publish: bool,
    files: &[PathBuf],
) -> anyhow::Result<i32> {
    import_to(db, reading, club, publish, files, &mut std::io::stdout().lock())
}

/// `almanac import`, each stored game's line written to `out`.
pub fn import_to(
    db: &Path,
    reading: Reading,
    club: Option<&str>,
    publish: bool,
    files: &[PathBuf],
    out: &mut dyn Write,
) -> anyhow::Result<i32> {
    let mut store = Store::open(db).with_context(|| format!("opening {}", db.display()))?;
    let owner = ownership(&store, club, publish)?;
    let files = &in_folders(files)?;
    let bar = progress(files.len(), "files");
    let mut rejected = 0;
    // The win-chance models the read model's chance numbers are derived with.
    let models = almanac_service::chances::Models::load(&store)?;
    // Reading, validating and deriving a file needs no store: other threads do it, in the files' order, while
    // this thread stores the prepared files (SQLite has one writer), a few dozen at a time: each game whole
    // or not at all, but one write to the file for all of them.
    let mut batch: Vec<(PathBuf, almanac_service::Prepared)> = Vec::new();
    let mut store_batch = |batch: &mut Vec<(PathBuf, almanac_service::Prepared)>| -> anyhow::Result<()> {
        let (names, prepared): (Vec<PathBuf>, Vec<almanac_service::Prepared>) = batch.drain(..).unzip();
        let owned: Vec<_> = prepared.iter().map(|p| (p, owner)).collect();
        let outcomes = almanac_service::store_prepared_together(&mut store, &owned)?;
        let mut failed = None;
        for (file, outcome) in names.iter().zip(outcomes) {
            match outcome {
                Ok(inserted) => writeln!(out, "{}\t{}", inserted.id(), file.display())?,
                Err(e) => failed = failed.or(Some(anyhow::Error::new(e).context(file.display().to_string()))),
            }
        }
        failed.map_or(Ok(()), Err)
    };
    // Preparing goes on while a batch is stored.
    prepared_in_order(reading, files, 2 * almanac_service::STORED_TOGETHER, &models, |file, prepared| {
        match prepared {
            Ok(p) => {
                batch.push((file.to_path_buf(), p));
                if batch.len() == almanac_service::STORED_TOGETHER {
                    store_batch(&mut batch)?;
                }
            }
            Err(e) => {
                rejected += 1;
                say(&bar, format!("{}:{}: {}", file.display(), e.line(), e.reason()));
            }
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
        Ok(())
    })?;
    store_batch(&mut batch)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(if rejected > 0 { 1 } else { 0 })
}

/// Lowers this thread's scheduling priority: the writer, alone on its core, is the import's bottleneck, and
/// the preparing threads take only what it leaves.
fn yield_to_the_writer() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on this thread's own id; a failure leaves the priority as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Hands every file, prepared (read, validated, derived, packed for the store), to `each` in the
/// order given. Preparing runs on a thread per core, at a lower priority than this thread's (which `each`
/// runs on), never more than `ahead` files (and a few per core) ahead of `each`; its first error stops the
/// preparing.
fn prepared_in_order(
    reading: Reading,
    files: &[PathBuf],
    ahead: usize,
    models: &almanac_service::chances::Models,
    mut each: impl FnMut(&Path, Result<almanac_service::Prepared, ImportError>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{mpsc, Condvar, Mutex};
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let ahead = ahead + 4 * workers;
    let next = AtomicUsize::new(0);
    // How many files `each` has taken, for the workers to wait on; and whether it stopped.
    let taken = (Mutex::new(0usize), Condvar::new());
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..workers {
            let (tx, next, taken, stop) = (tx.clone(), &next, &taken, &stop);
            scope.spawn(move || {
                yield_to_the_writer();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= files.len() {
                        break;
                    }
                    {
                        let (count, turn) = taken;
                        let mut count = count.lock().expect("no worker panics holding it");
                        while i >= *count + ahead && !stop.load(Ordering::SeqCst) {
                            count = turn.wait(count).expect("no worker panics holding it");
                        }
                    }
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let prepared =
                        check_file(reading, &files[i]).map(|log| almanac_service::prepare(log, models).ahead());
                    if tx.send((i, prepared)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut want = 0;
        let mut result = Ok(());
        for (i, prepared) in rx {
            waiting.insert(i, prepared);
            while let Some(prepared) = waiting.remove(&want) {
                result = each(&files[want], prepared);
                want += 1;
                let (count, turn) = &taken;
                *count.lock().expect("no worker panics holding it") = want;
                turn.notify_all();
                if result.is_err() {
                    break;
                }
            }
            if result.is_err() {
                break;
            }
        }
        // On an error, the workers stop at their next file (and a waiting one is woken to see it).
        stop.store(true, Ordering::SeqCst);
        taken.1.notify_all();
        result
    })
}

pub fn validate(reading: Reading, files: &[PathBuf]) -> i32 {
    // Files are independent: check them on every core, then report in the order given.
    let results: Vec<Result<(usize, u32), ImportError>> = almanac_service::on_every_core(files.iter().collect(), |f| {
        check_file(reading, f).map(|log| (log.game.event_count(), log.game.current_turn()))
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

/// A database that exists: a SQLite file already made, or a PostgreSQL URL (the server says whether it
/// answers).
fn open_existing(db: &Path) -> anyhow::Result<Store> {
    if !almanac_store::is_postgres(db) && !db.exists() {
        anyhow::bail!("no database at {} (import some games first, or set --db / ALMANAC_DB)", db.display());
    }
    Ok(Store::open(db)?)
}

/// Loads a stored game back into a timeline.
pub fn load(store: &Store, game: &str) -> anyhow::Result<(String, Box<dyn almanac_core::Game>)> {
    let (seen, game) =
        almanac_service::load(store, Viewer::Operator, game).with_context(|| format!("no game `{game}`"))?;
    Ok((seen.id().to_string(), game))
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
    let seen = almanac_service::visible(&store, Viewer::Operator, game).with_context(|| format!("no game `{game}`"))?;
    let id = seen.id();
    let stats = almanac_service::stats(&store, &seen)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
        return Ok(0);
    }
    let s = &stats.stats;
    println!("game {id}: {} turns, {} events", s.turns, s.events);
    let score = store
        .game(&seen)
        .ok()
        .and_then(|row| almanac_service::game_kind(&row.ruleset))
        .map(|k| k.vocabulary().score.id);
    for p in &s.players {
        let last = p.vp_by_turn.last().map(|l| l[1]).unwrap_or(0);
        let declared: Vec<String> = p.declared.iter().map(|d| format!("{} {}", d.label, d.value)).collect();
        println!("  {:<16} {last:>3} {}  {}", p.name, score.unwrap_or("points"), declared.join(", "));
    }
    Ok(0)
}

pub fn list(db: &Path, ruleset: Option<String>, player: Option<String>, limit: u32) -> anyhow::Result<i32> {
    let store = open_existing(db)?;
    let games = almanac_service::list(
        &store,
        &GameFilter { viewer: Viewer::Operator, ruleset, player, limit: Some(limit), ..Default::default() },
    )?;
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
    let seen = almanac_service::visible(&store, Viewer::Operator, game).with_context(|| format!("no game `{game}`"))?;
    let (header, events) = almanac_service::log(&store, &seen)?;
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
    seed_if_empty(db, samples, None)?;
    let store = Store::open(db)?;
    println!("database: {}", db.display());
    for g in almanac_service::list(
        &store,
        &GameFilter { viewer: Viewer::Operator, limit: Some(1000), ..Default::default() },
    )? {
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

/// The label of the demo club's token that `serve --demo-club` prints (each start revokes the last one).
const PRINTED_AT_START: &str = "printed at start";

/// Runs the HTTP server until interrupted, logging one line per request.
pub fn serve(db: &Path, bind: &str, settings: ServeSettings) -> anyhow::Result<i32> {
    // Read first: a mistyped flag changes nothing.
    let trusted_proxies = almanac_server::TrustedProxies::parse(&settings.trusted_proxies)?;
    // A line per request as its span closes (method, route, status, request id, time), written off the
    // server's threads.
    tracing_subscriber::fmt()
        .with_target(false)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(crate::logging::Background::start())
        .init();
    // The address first: a server that cannot listen changes nothing (not even the demo club's token).
    let listener = std::net::TcpListener::bind(bind).with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    let demo = match &settings.demo_club {
        Some(name) => Some(demo_club(db, name)?),
        None => None,
    };
    if let Some(samples) = &settings.seed {
        seed_if_empty(db, samples, demo.as_ref().map(|d| d.0))?;
    }
    // Games an older ruleset version derived are derived again by the server in the background.
    let mut config = almanac_server::Config::new(db.to_path_buf());
    config.max_upload = settings.max_upload;
    config.read_dbs = settings.read_dbs;
    if let Some(rate) = settings.writes_per_minute {
        config.limits.writes_per_minute = rate;
    }
    if let Some(streams) = settings.streams_per_address {
        config.limits.streams_per_address = streams;
    }
    if let Some(streams) = settings.streams {
        config.limits.streams = streams;
    }
    config.trusted_proxies = trusted_proxies;
    println!("Almanac is running at http://{addr}/ (database {}); Ctrl-C stops it.", db.display());
    if let Some((_, name, token)) = &demo {
        println!("Demo club `{name}`: sign in at http://{addr}/signin with the token {token}");
    }
    std::io::stdout().flush()?;
    let system = actix_web::rt::System::new();
    // Built before the runtime runs: opening the store may block (a PostgreSQL client runs its own).
    let server = almanac_server::run(listener, config)?;
    system.block_on(server)?;
    Ok(0)
}

/// What `almanac serve` takes besides the database and the address.
#[derive(clap::Args)]
pub struct ServeSettings {
    /// The largest upload accepted, in bytes.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
    pub max_upload: usize,
    /// Seed an empty database with the logs in this directory first.
    #[arg(long)]
    pub seed: Option<PathBuf>,
    /// Create this club if needed, print a fresh token for it (the last printed one is revoked) and
    /// give it the seeded games: a machine that needs no set-up (`make run`).
    #[arg(long)]
    pub demo_club: Option<String>,
    /// Writes (uploads, appends, changes) allowed per minute per token and per address.
    #[arg(long)]
    pub writes_per_minute: Option<u32>,
    /// Followers' streams open at once from one address (default 20): more where many spectators
    /// share one (a club's network behind one address, a benchmark on loopback).
    #[arg(long)]
    pub streams_per_address: Option<usize>,
    /// Followers' streams open at once on this server, from everyone (default 1000).
    #[arg(long)]
    pub streams: Option<usize>,
    /// A reverse proxy in front of this server, as an address or a network (repeat for more): the
    /// limits per address then count the client it names in `Forwarded` or `X-Forwarded-For`, not the
    /// proxy. Only the peers given here are believed.
    #[arg(long = "trusted-proxy", value_name = "ADDRESS[/BITS]")]
    pub trusted_proxies: Vec<String>,
    /// A streaming replica of the PostgreSQL `--db` to send reads to (repeat for more, read in turn);
    /// this server's own writes are read from the primary until a replica has replayed them.
    #[arg(long = "read-db", value_name = "URL")]
    pub read_dbs: Vec<PathBuf>,
}

/// The demo club (created when missing) and a fresh token for it, printed at start; the token printed at
/// the last start is revoked.
fn demo_club(db: &Path, name: &str) -> anyhow::Result<(almanac_store::ClubId, String, String)> {
    let mut store = Store::open(db)?;
    let club = match store.club_by_name(name) {
        Ok(c) => c,
        Err(_) => almanac_service::create_club(&mut store, name)?,
    };
    store.revoke_tokens_labelled(club.id, PRINTED_AT_START)?;
    let (_, token) = almanac_service::issue_token(&mut store, club.id, PRINTED_AT_START)?;
    Ok((club.id, club.name, token))
}

/// Imports the logs of `samples` when the database holds no game yet: published games of `club`, or the
/// operator's own.
fn seed_if_empty(db: &Path, samples: &Path, club: Option<almanac_store::ClubId>) -> anyhow::Result<()> {
    let mut store = Store::open(db)?;
    let any = GameFilter { viewer: Viewer::Operator, limit: Some(1), ..Default::default() };
    if !almanac_service::list(&store, &any)?.is_empty() {
        return Ok(());
    }
    let owner = Ownership { club, published: true };
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples)
        .with_context(|| format!("reading {}", samples.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
        .collect();
    files.sort();
    for f in files {
        match check_file(Reading::default(), &f) {
            Ok(log) => {
                let id = store_log(&mut store, &log, owner)?;
                println!("stored {}\t{}", id.id(), f.display());
            }
            Err(e) => eprintln!("{}:{}: {}", f.display(), e.line(), e.reason()),
        }
    }
    Ok(())
}

pub fn club_create(db: &Path, name: &str) -> anyhow::Result<i32> {
    let mut store = Store::open(db)?;
    let club = almanac_service::create_club(&mut store, name)?;
    println!("club {}\t{}", club.id, club.name);
    Ok(0)
}

pub fn club_list(db: &Path) -> anyhow::Result<i32> {
    let store = Store::open(db)?;
    for c in store.clubs()? {
        println!("{}\t{}\t{} games\t{} live tokens\tsince {}", c.id, c.name, c.games, c.tokens, c.created_at);
    }
    Ok(0)
}

/// The club of `--club` (`None`: the games no club owns).
fn club_id(store: &Store, club: Option<&str>) -> anyhow::Result<Option<almanac_service::ClubId>> {
    match club {
        Some(name) => Ok(Some(store.club_by_name(name).with_context(|| format!("no club `{name}`"))?.id)),
        None => Ok(None),
    }
}

/// The player named `name` among the club's games.
fn player_named(store: &Store, club: Option<&str>, name: &str) -> anyhow::Result<i64> {
    let id = club_id(store, club)?;
    let games = club.map_or("the games no club owns".to_string(), |c| format!("club `{c}`'s games"));
    store.player_named(id, name)?.with_context(|| format!("no player `{name}` in {games}"))
}

pub fn players_show(db: &Path, club: Option<&str>, name: &str) -> anyhow::Result<i32> {
    let store = Store::open(db)?;
    let id = player_named(&store, club, name)?;
    let page = almanac_service::players::player_page(&store, Viewer::Operator, id, &Default::default())?;
    println!("player {}	{}	(written {})", page.player.id, page.player.name, page.player.spellings.join(", "));
    for r in &page.rulesets {
        let score = r.average_score.map_or("-".into(), |v| format!("{v:.1}"));
        println!(
            "{}	{} games	{} won	average score {score}	average place {:.2}",
            r.name, r.games, r.wins, r.average_place
        );
    }
    for o in &page.opponents {
        println!("  with {}	{} games	ahead {}	behind {}", o.name, o.games, o.ahead, o.behind);
    }
    Ok(0)
}

pub fn players_merge(db: &Path, club: Option<&str>, into: &str, from: &str) -> anyhow::Result<i32> {
    let mut store = Store::open(db)?;
    let (a, b) = (player_named(&store, club, into)?, player_named(&store, club, from)?);
    let merged = almanac_service::players::merge_players(&mut store, None, a, b)?;
    println!("player {}	{}	(written {})", merged.id, merged.name, merged.spellings.join(", "));
    Ok(0)
}

/// Issues a token and prints it: the only time it is shown (the database keeps its SHA-256 only).
pub fn token_create(db: &Path, club: &str, label: &str) -> anyhow::Result<i32> {
    let mut store = Store::open(db)?;
    let club = store.club_by_name(club).with_context(|| format!("no club `{club}` (almanac club create)"))?;
    let (id, token) = almanac_service::issue_token(&mut store, club.id, label)?;
    eprintln!("token {id} for club `{}`; it is shown once, keep it:", club.name);
    println!("{token}");
    Ok(0)
}

pub fn token_list(db: &Path, club: Option<&str>) -> anyhow::Result<i32> {
    let store = Store::open(db)?;
    let club = match club {
        Some(name) => Some(store.club_by_name(name).with_context(|| format!("no club `{name}`"))?.id),
        None => None,
    };
    for t in store.tokens(club)? {
        let state = t.revoked_at.map_or("live".to_string(), |at| format!("revoked {at}"));
        println!("{}\t{}\t{}\t{}\t{}", t.id, t.club, t.label, t.created_at, state);
    }
    Ok(0)
}

pub fn token_revoke(db: &Path, id: i64) -> anyhow::Result<i32> {
    let mut store = Store::open(db)?;
    store.revoke_token(id)?;
    println!("token {id} revoked");
    Ok(0)
}

pub fn migrate(from: &Path, to: &Path) -> anyhow::Result<i32> {
    let source = Store::open(from).with_context(|| format!("opening {}", from.display()))?;
    let mut target = Store::open(to).with_context(|| format!("opening {}", to.display()))?;
    let games = source.stored_games()?.len();
    let bar = progress(games, "games");
    let report = almanac_service::migrate(&source, &mut target, |_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    println!(
        "copied {} club(s), {} token(s), {} win-chance model(s) and {} game(s); {} of {} games, {} events in both ({} into {}){}",
        report.clubs,
        report.tokens,
        report.models,
        report.games,
        report.total,
        report.of,
        report.events,
        source.backend_name(),
        target.backend_name(),
        match report.failed.len() {
            0 => String::new(),
            n => format!("; {n} game(s) not copied (below)"),
        }
    );
    for m in &report.mismatches {
        eprintln!("differs: {m}");
    }
    for (game, why) in &report.failed {
        eprintln!("not copied: {game}: {why}");
    }
    Ok(if report.mismatches.is_empty() && report.failed.is_empty() { 0 } else { 1 })
}
