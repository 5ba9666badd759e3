//! Almanac's use cases, one function each, shared by the `almanac` command and the HTTP server, so both
//! answer the same question the same way. Neither SQL nor HTTP is written here: this layer joins the
//! engine (the registry of games), the store, analysis and charts.
//!
//! Reading use cases take a `&Store` (any read connection), writing ones a `&mut Store` (the writer); the
//! server runs them on its pool's connections.

pub mod chances;
mod live;
pub mod players;
pub mod questions;
pub mod tables;

pub use almanac_analysis::coach::{Cell as CoachCell, CoachRow, CoachTable, Column as CoachColumn};
use almanac_analysis::{game_stats, GameStats};
use almanac_charts::ChartError;
use almanac_core::{AnyView, Chart, Game, LogError, Problem};
use almanac_engine::read_log;
use almanac_store::{Derivation, GameRow, NewGame, Store, StoreError};
pub use almanac_store::{DueGame, StoredGame, TokenRecord};
pub use live::{append, append_to, LiveGame};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

pub use almanac_engine::{
    format, format_names, formats, game_kind, Format, ImportError, Reading, ValidatedLog, Viewpoint, GAMES,
};
pub use almanac_store::{
    Access, Club, ClubId, ClubRow, GameFilter, Inserted, Ownership, Sort, TokenRow, Viewer, Visible, VisiblePlayer,
};

/// A use case's result.
pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Why a use case failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("stored game {id} no longer validates: {error}")]
    Corrupt { id: String, error: LogError },
    #[error("the events do not follow the stored log: {0}")]
    Rejected(LogError),
    #[error("no chart `{chart}` for {ruleset} games ({known})")]
    NoSuchChart { chart: String, ruleset: String, known: String },
    #[error("game {id} is of ruleset `{ruleset}`, which this build does not know")]
    UnknownRuleset { id: String, ruleset: String },
    #[error("{0}")]
    Chart(#[from] ChartError),
    #[error("{0}")]
    Question(String),
    /// A game a table begins that cannot begin so (an unknown game, a seat without a name…).
    #[error("{0}")]
    Start(String),
    #[error("no random numbers for a token: {0}")]
    Random(String),
    /// A fault of this program's (a panic caught), not of the input: said plainly, as a 500.
    #[error("{0}")]
    Internal(String),
}

/// Validates a file of `format` (`None`: guess), without storing it.
pub fn check(format: Option<Format>, text: &str) -> Result<ValidatedLog, ImportError> {
    almanac_engine::validate(format, text)
}

/// Validates a file read as `reading` says (a format, and whose view of an omniscient record).
pub fn check_as(reading: Reading, text: &str) -> Result<ValidatedLog, ImportError> {
    almanac_engine::validate_as(reading, text)
}

/// Validates a file of `format` (`None`: guess) and stores it in one transaction, owned as `ownership` says.
pub fn import(
    store: &mut Store,
    format: Option<Format>,
    text: &str,
    ownership: Ownership,
) -> Result<(Inserted, ValidatedLog), ServiceError> {
    let log = check(format, text)?;
    let inserted = store_log(store, &log, ownership)?;
    Ok((inserted, log))
}

/// Stores a validated log (its read model with the chance numbers of its ruleset's model, if it has one).
pub fn store_log(store: &mut Store, log: &ValidatedLog, ownership: Ownership) -> Result<Inserted, StoreError> {
    let models = chances::Models::of(store, log.game.ruleset())?;
    store_prepared(store, &prepare_ref(log, &models), ownership)
}

/// A validated log with what storing it needs computed (its content hash, its facts as rows, its read model):
/// the work that needs no store, done where it can run beside the one writer (`almanac import` prepares on
/// every core).
pub struct Prepared<L = ValidatedLog> {
    pub log: L,
    content_hash: String,
    /// Every fact as a row, made once: the read model is derived from them and they are stored.
    facts: Vec<almanac_core::FactRow>,
    insights: almanac_core::Insights,
    /// What the store would make of the game, made here ahead (`Prepared::ahead`).
    ahead: Option<almanac_store::Ahead>,
}

pub fn prepare(log: ValidatedLog, models: &chances::Models) -> Prepared {
    let Prepared { content_hash, facts, insights, .. } = prepare_ref(&log, models);
    Prepared { log, content_hash, facts, insights, ahead: None }
}

/// `prepare` of a log borrowed.
fn prepare_ref<'a>(log: &'a ValidatedLog, models: &chances::Models) -> Prepared<&'a ValidatedLog> {
    let facts = log.game.fact_rows(0);
    let mut insights = insights_from(log.game.as_ref(), &facts);
    models.add_to(&mut insights, log.game.as_ref());
    Prepared { content_hash: log.content_hash(), log, facts, insights, ahead: None }
}

impl Prepared {
    /// Does the store's work on the game that needs no connection here, rather than in the store's one writer.
    pub fn ahead(mut self) -> Prepared {
        let lines = self.log.event_lines();
        let ahead = almanac_store::Ahead::of(&self.new_game(&lines));
        self.ahead = Some(ahead);
        self
    }
}

impl<L: std::borrow::Borrow<ValidatedLog>> Prepared<L> {
    /// The game as the store takes it, its event lines being `lines` (`ValidatedLog::event_lines`).
    fn new_game<'a>(&'a self, lines: &'a [&'a str]) -> NewGame<'a> {
        let log = self.log.borrow();
        NewGame {
            game: log.game.as_ref(),
            header_line: log.header_line(),
            event_lines: lines,
            content_hash: &self.content_hash,
            facts: &self.facts,
            insights: &self.insights,
            ahead: self.ahead.as_ref(),
        }
    }
}

/// Stores a prepared log: `store_log` without the work `prepare` did.
pub fn store_prepared<L: std::borrow::Borrow<ValidatedLog>>(
    store: &mut Store,
    p: &Prepared<L>,
    ownership: Ownership,
) -> Result<Inserted, StoreError> {
    store.insert_game(&p.new_game(&p.log.borrow().event_lines()), ownership)
}

/// The most games stored in one transaction by `store_prepared_together`: `almanac import`'s batches and the
/// uploads a server stores together, so that one transaction stays short beside the readers.
pub const STORED_TOGETHER: usize = 32;

/// Stores prepared logs together (`Store::insert_games`: on SQLite in one transaction), each owned as its
/// ownership says: each whole or not at all; each one's outcome in order.
pub fn store_prepared_together(
    store: &mut Store,
    prepared: &[(&Prepared, Ownership)],
) -> Result<Vec<Result<Inserted, StoreError>>, StoreError> {
    let lines: Vec<Vec<&str>> = prepared.iter().map(|(p, _)| p.log.event_lines()).collect();
    let games: Vec<(NewGame, Ownership)> =
        prepared.iter().zip(&lines).map(|((p, owner), lines)| (p.new_game(lines), *owner)).collect();
    store.insert_games(&games)
}

/// What the questions across games read of a game: its numbers per seat, from its facts.
pub fn insights_of(game: &dyn Game) -> almanac_core::Insights {
    insights_from(game, &game.fact_rows(0))
}

/// `insights_of` from the game's fact rows, made already: a fold over the facts, then over when each entry
/// was made.
fn insights_from(game: &dyn Game, facts: &[almanac_core::FactRow]) -> almanac_core::Insights {
    let mut tally = almanac_analysis::insights::Tally::new(game.envelope().players.len(), *game.vocabulary());
    tally.add(facts);
    tally.add_times(&entry_times(game, 0..game.event_count()));
    tally.insights()
}

/// Each entry's turn and the moment it was made (`Game::event_time`), for `Tally::add_times`.
pub(crate) fn entry_times(game: &dyn Game, entries: std::ops::Range<usize>) -> Vec<(u32, Option<i64>)> {
    entries.map(|i| (game.event_turn(i), game.event_time(i))).collect()
}

/// A game `viewer` may see, given by id or unique prefix (not found otherwise, as a game that does not
/// exist): what every read of one game takes.
pub fn visible(store: &Store, viewer: Viewer, game: &str) -> Result<Visible, ServiceError> {
    Ok(store.visible(viewer, game)?)
}

/// The stored games the filter's viewer may see, newest first.
pub fn list(store: &Store, filter: &GameFilter) -> Result<Vec<GameRow>, ServiceError> {
    for words in [&filter.search, &filter.player, &filter.ruleset].into_iter().flatten() {
        refuse_nul("a search", words)?;
    }
    Ok(store.list_games(filter)?)
}

/// No text with a NUL character is taken, on either backend (PostgreSQL's text cannot hold one): the
/// same clear refusal everywhere, whichever database is behind.
pub fn refuse_nul(what: &str, text: &str) -> Result<(), ServiceError> {
    if text.contains('\0') {
        return Err(StoreError::Invalid(format!("{what} cannot hold a NUL character (\\u0000)")).into());
    }
    Ok(())
}

/// The stored log of a game: its header line and event lines, as uploaded.
pub fn log(store: &Store, game: &Visible) -> Result<(String, Vec<String>), ServiceError> {
    Ok(store.log(game)?)
}

/// Loads a stored game `viewer` may see (by id or unique prefix) back into a timeline.
pub fn load(store: &Store, viewer: Viewer, game: &str) -> Result<(Visible, Box<dyn Game>), ServiceError> {
    let visible = store.visible(viewer, game)?;
    let timeline = load_visible(store, &visible)?;
    Ok((visible, timeline))
}

/// Loads a game already found visible back into a timeline.
pub fn load_visible(store: &Store, game: &Visible) -> Result<Box<dyn Game>, ServiceError> {
    let (header, events) = store.log(game)?;
    read_stored(game.id(), header, events)
}

fn read_stored(id: &str, header: String, events: Vec<String>) -> Result<Box<dyn Game>, ServiceError> {
    let mut text = header;
    for e in events {
        text.push('\n');
        text.push_str(&e);
    }
    read_log(&text).map_err(|error| match error.problem {
        Problem::UnknownRuleset { ruleset, .. } => ServiceError::UnknownRuleset { id: id.to_string(), ruleset },
        _ => ServiceError::Corrupt { id: id.to_string(), error },
    })
}

/// A stored game's row with its header, as `GET /api/games/{id}` gives it.
#[derive(Serialize)]
pub struct GameSummary {
    #[serde(flatten)]
    pub row: GameRow,
    /// The header line as uploaded.
    pub header: Value,
    pub turns: u32,
    pub events: usize,
    /// Each seat's colour as every picture of the game draws it (CSS hex, `almanac_core::colours`).
    pub colours: Vec<&'static str>,
    /// The game's items (resources, commodities, goods ...) with their words and colours, for its drawing.
    pub items: &'static [almanac_core::Term],
    /// This record counts in records, ratings and questions: it is published, has a winner and is, of the
    /// records of what was played (its fingerprint), the one that saw the most (the fewest unseen cards,
    /// then the longest, then the first stored).
    pub counted: bool,
    /// The other records of the same game the viewer may see (a spectator's log, another view, a copy), the
    /// first stored first.
    pub recordings: Vec<almanac_store::Recording>,
    /// Its facts and numbers were derived by an older version of its rules (a server derives them again in
    /// the background after an upgrade, and sets this too while the game waits its turn).
    pub stale: bool,
}

pub fn summary(store: &Store, visible: &Visible, game: &dyn Game) -> Result<GameSummary, ServiceError> {
    let row = store.game(visible)?;
    let colours = row
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| almanac_core::colours::player_colour(p.color.as_deref(), i))
        .collect();
    let items = game.vocabulary().items;
    let (counted, recordings) = store.recordings(visible)?;
    let stale = row.ruleset_version != game.ruleset_version();
    Ok(GameSummary {
        row,
        header: game.header().clone(),
        turns: game.current_turn(),
        events: game.event_count(),
        colours,
        items,
        counted,
        recordings,
        stale,
    })
}

/// One event as stored, with its turn and how it reads in words.
#[derive(Serialize)]
pub struct EventRow {
    pub seq: u64,
    pub turn: u32,
    /// The event line as uploaded.
    pub event: Box<RawValue>,
    /// What the event did, in words, after the player's name.
    pub text: String,
    /// The points it scored, in words ("Kerem +8 city"), when it scored any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<String>,
    /// What it produced, per player in words (the name, then how many of each item), when it produced any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub production: Vec<String>,
    /// The key moments it was, in words ("the robber hits the leader (Zeynep)", "Ayşe takes the longest
    /// road"), when it was any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moments: Vec<String>,
    /// The event this one withdraws (its seq), when it is a withdrawal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withdraws: Option<u64>,
    /// The withdrawal (its seq) that took this event back, when one did: the replay strikes it through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withdrawn_by: Option<u64>,
}

/// Events `from..=to` (by seq, 1-based) of a stored game and its timeline.
pub fn events(
    store: &Store,
    visible: &Visible,
    game: &dyn Game,
    from: u64,
    to: u64,
) -> Result<Vec<EventRow>, ServiceError> {
    let rows = store.events(visible, from.max(1), to)?;
    let (first, last) = match (rows.first(), rows.last()) {
        (Some(a), Some(b)) => (a.0 as usize - 1, b.0 as usize),
        _ => return Ok(Vec::new()),
    };
    let words = game.event_words(first, last);
    Ok(rows
        .into_iter()
        .zip(words)
        .map(|((seq, _, body), text)| {
            let i = seq as usize - 1;
            let event = RawValue::from_string(body.clone())
                .unwrap_or_else(|_| RawValue::from_string(Value::String(body).to_string()).expect("a JSON string"));
            let almanac_core::derived::Derived { scores, production, moments } =
                almanac_core::derived::derived(game, i);
            let withdraws = game.withdrawal_of(i).map(|w| w as u64 + 1);
            let withdrawn_by = game.withdrawn_by(i).map(|w| w as u64 + 1);
            EventRow {
                seq,
                turn: game.event_turn(i),
                event,
                text,
                scores,
                production,
                moments,
                withdraws,
                withdrawn_by,
            }
        })
        .collect())
}

/// Which moment of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The end of turn N (0 = setup).
    Turn(u32),
    /// After N events (0 = before the first).
    Seq(usize),
    Final,
}

/// The state at a moment, as `almanac state --json` and `GET .../state` give it.
#[derive(Serialize)]
pub struct StateAt {
    pub game: String,
    /// How many events have been applied.
    pub seq: u64,
    #[serde(flatten)]
    pub view: AnyView,
}

/// The number of events applied at a moment of a game.
pub fn events_at(game: &dyn Game, at: At) -> usize {
    match at {
        At::Turn(t) => game.events_through_turn(t),
        // A number beyond the game clamps to its end, as a turn beyond it does.
        At::Seq(s) => s.min(game.event_count()),
        At::Final => game.event_count(),
    }
}

/// The state at a moment.
pub fn state(id: &str, game: &dyn Game, at: At) -> Result<StateAt, ServiceError> {
    let n = events_at(game, at);
    Ok(StateAt { game: id.to_string(), seq: n as u64, view: game.view_after(n) })
}

/// What may happen next in a game, for a recorder at its table: after how many events, and the open
/// decisions (whose, which event types, and for a placement the legal events, one per place). A game whose
/// ruleset declares no recorder has none.
#[derive(Serialize)]
pub struct NextOf {
    pub game: String,
    pub seq: u64,
    pub recorder: bool,
    pub open: Vec<almanac_core::next::Open>,
}

/// What may happen next after the last event of `game`.
pub fn next(id: &str, game: &dyn Game) -> NextOf {
    let recorder = game_kind(game.ruleset()).is_some_and(|k| k.recorder());
    NextOf { game: id.to_string(), seq: game.event_count() as u64, recorder, open: game.next() }
}

/// The state after `events` events of a stored game (none: all of them), read cold: its nearest checkpoint
/// and the events after it (at most `checkpoint::EVERY - 1` replayed), never a replay from the first event.
/// (A moment named by its turn needs the game's timeline, which says which event ends a turn.)
pub fn state_from_store(store: &Store, game: &Visible, events: Option<u64>) -> Result<StateAt, ServiceError> {
    let version_of = |ruleset: &str| game_kind(ruleset).map(|k| k.version());
    let point = store.resume_point(game, events, &version_of)?;
    let id = game.id();
    let kind = game_kind(&point.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset { id: id.to_string(), ruleset: point.ruleset.clone() })?;
    let header = point.header.as_str();
    let checkpoint = point.checkpoint.as_ref().map(|c| (c.events as usize, c.state.as_slice()));
    let view = match kind.view_from(header, checkpoint, &point.lines) {
        Ok(view) => view,
        Err(almanac_core::ResumeError::Log(error)) => return Err(ServiceError::Corrupt { id: id.to_string(), error }),
        // A checkpoint that does not read back, or one that a later withdrawal reaches behind (the store
        // steps back past those), is a fault of this build's, not of the log: the whole log answers.
        Err(almanac_core::ResumeError::Checkpoint(_) | almanac_core::ResumeError::Withdrawal { .. }) => {
            let whole = store.resume_point(game, events, &|_| None)?;
            kind.view_from(header, None, &whole.lines).map_err(|e| match e {
                almanac_core::ResumeError::Log(error) => ServiceError::Corrupt { id: id.to_string(), error },
                other => ServiceError::Internal(other.to_string()),
            })?
        }
    };
    Ok(StateAt { game: id.to_string(), seq: point.events, view })
}

/// A game's stats, as `almanac stats --json` and `GET .../stats` give them.
#[derive(Serialize)]
pub struct StatsOf {
    pub game: String,
    #[serde(flatten)]
    pub stats: GameStats,
}

/// A game's stats from its stored facts, in the words of its game.
pub fn stats(store: &Store, game: &Visible) -> Result<StatsOf, ServiceError> {
    let id = game.id();
    let row = store.game(game)?;
    let kind = game_kind(&row.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset { id: id.to_string(), ruleset: row.ruleset.clone() })?;
    let names: Vec<String> = row.players.iter().map(|p| p.name.clone()).collect();
    let facts = store.facts(game)?;
    Ok(StatsOf { game: id.to_string(), stats: game_stats(&names, &facts, kind.vocabulary()) })
}

/// The end of a stored game as a coach reads it: per player, cards gained by source, lost by how, what the
/// spending bought, the trades; each number with the events behind it.
pub fn coach(store: &Store, game: &Visible) -> Result<CoachTable, ServiceError> {
    let id = game.id();
    let row = store.game(game)?;
    let kind = game_kind(&row.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset { id: id.to_string(), ruleset: row.ruleset.clone() })?;
    let names: Vec<String> = row.players.iter().map(|p| p.name.clone()).collect();
    Ok(almanac_analysis::coach::coach_table(&names, &store.facts(game)?, kind.vocabulary()))
}

/// A chart of a stored game, as SVG: one its game declares (`vp`, `production` ...).
pub fn chart(store: &Store, game: &Visible, name: &str) -> Result<String, ServiceError> {
    let id = game.id();
    let row = store.game(game)?;
    let kind = game_kind(&row.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset { id: id.to_string(), ruleset: row.ruleset.clone() })?;
    let vocabulary = kind.vocabulary();
    let chart = Chart::from_id(name).filter(|c| vocabulary.shows(*c)).ok_or_else(|| ServiceError::NoSuchChart {
        chart: name.to_string(),
        ruleset: row.ruleset.clone(),
        known: vocabulary.charts.iter().map(|c| c.id()).collect::<Vec<_>>().join(", "),
    })?;
    let names: Vec<String> = row.players.iter().map(|p| p.name.clone()).collect();
    let colors: Vec<Option<String>> = row.players.iter().map(|p| p.color.clone()).collect();
    let stats = game_stats(&names, &store.facts(game)?, vocabulary);
    Ok(almanac_charts::draw(chart, &stats, vocabulary, &colors)?)
}

/// What `reproject` did.
#[derive(Debug, Default)]
pub struct Reprojected {
    /// Games whose facts and summary were derived again.
    pub done: Vec<String>,
    /// Games left as they were, and why.
    pub failed: Vec<(String, ServiceError)>,
}

/// The stored games `reproject` would derive again: those of `ruleset` (every known ruleset when `None`)
/// stored by another version than this build's, or every one of them with `all`.
pub fn games_to_reproject(store: &Store, ruleset: Option<&str>, all: bool) -> Result<Vec<String>, ServiceError> {
    Ok(games_due(store, ruleset, all)?.into_iter().map(|g| g.id).collect())
}

/// `games_to_reproject`, each game saying whether its numbers are an older version's or only its checkpoints
/// are missing.
pub fn games_due(store: &Store, ruleset: Option<&str>, all: bool) -> Result<Vec<DueGame>, ServiceError> {
    let mut due = Vec::new();
    for kind in GAMES.iter().filter(|g| ruleset.is_none_or(|r| r == g.id())) {
        due.extend(store.games_to_reproject(Some(kind.id()), (!all).then_some(kind.version()))?);
    }
    Ok(due)
}

/// Derives the facts and summary columns of the games `ids` again with this build's rulesets (events are never
/// touched): `REPROJECT_BATCH` games at a time, their logs read, replayed on every core, and stored in one
/// transaction, each game whole or not at all; `progress` hears of each game as it is done.
pub fn reproject(store: &mut Store, ids: &[String], mut progress: impl FnMut(&str)) -> Reprojected {
    let mut report = Reprojected::default();
    let models = match chances::Models::load(store) {
        Ok(m) => m,
        Err(e) => {
            let reason = e.to_string();
            report.failed = ids.iter().map(|id| (id.clone(), ServiceError::Internal(reason.clone()))).collect();
            return report;
        }
    };
    for chunk in ids.chunks(REPROJECT_BATCH) {
        // Each game's full id and stored log: its header line and event lines.
        type Stored = (String, (String, Vec<String>));
        let logs: Vec<Result<Stored, ServiceError>> = chunk
            .iter()
            .map(|id| {
                let game = store.stored(id)?;
                let log = store.log(&game)?;
                Ok((game.id().to_string(), log))
            })
            .collect();
        let derived = on_every_core(logs, |log| {
            let (id, (header, events)) = log?;
            let game = read_stored(&id, header, events)?;
            let facts = game.fact_rows(0);
            let mut insights = insights_from(game.as_ref(), &facts);
            models.add_to(&mut insights, game.as_ref());
            Ok((id, game, facts, insights))
        });
        let ready: Vec<Derivation> = derived
            .iter()
            .filter_map(|d| d.as_ref().ok())
            .map(|(id, game, facts, insights)| Derivation { id, game: game.as_ref(), facts, insights })
            .collect();
        // Should the store fail as a whole (no transaction at all), every game of the batch says why.
        let outcomes: Vec<Result<(), ServiceError>> = match store.reproject_games(&ready) {
            Ok(outcomes) => outcomes.into_iter().map(|o| o.map_err(ServiceError::from)).collect(),
            Err(e) => {
                let reason = e.to_string();
                ready.iter().map(|_| Err(ServiceError::Store(StoreError::Invalid(reason.clone())))).collect()
            }
        };
        let mut outcomes = outcomes.into_iter();
        for (id, d) in chunk.iter().zip(derived) {
            let outcome = match d {
                Ok(_) => outcomes.next().expect("an outcome per game stored"),
                Err(e) => Err(e),
            };
            match outcome {
                Ok(()) => report.done.push(id.clone()),
                Err(e) => report.failed.push((id.clone(), e)),
            }
            progress(id);
        }
    }
    report
}

/// How many games `reproject` derives again to a transaction.
const REPROJECT_BATCH: usize = 32;

/// `f` of each item, in order, the items shared out over a thread per core (what needs no store: validating
/// and replaying logs).
pub fn on_every_core<T: Send, U: Send>(items: Vec<T>, f: impl Fn(T) -> U + Sync) -> Vec<U> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len().max(1));
    let per = items.len().div_ceil(cores).max(1);
    let mut parts: Vec<Vec<T>> = Vec::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        parts.push(items.by_ref().take(per).collect());
    }
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> =
            parts.into_iter().map(|part| scope.spawn(move || part.into_iter().map(f).collect::<Vec<U>>())).collect();
        workers.into_iter().flat_map(|w| w.join().expect("deriving a game does not panic")).collect()
    })
}

/// Creates a club.
pub fn create_club(store: &mut Store, name: &str) -> Result<Club, ServiceError> {
    Ok(store.create_club(name)?)
}

/// A new token for `club`: returned once, stored only as its SHA-256. `label` says what it is for.
pub fn issue_token(store: &mut Store, club: ClubId, label: &str) -> Result<(i64, String), ServiceError> {
    let token = format!("alm_{}", random_hex(24)?);
    let id = store.add_token(club, &token_hash(&token), label)?;
    Ok((id, token))
}

/// `bytes` bytes from the system's random source, as hex (tokens, the sign-in form's proof).
pub fn random_hex(bytes: usize) -> Result<String, ServiceError> {
    let mut secret = vec![0u8; bytes];
    getrandom::fill(&mut secret).map_err(|e| ServiceError::Random(e.to_string()))?;
    Ok(secret.iter().map(|b| format!("{b:02x}")).collect())
}

/// How a token is stored and looked up.
pub fn token_hash(token: &str) -> String {
    almanac_core::hash::sha256_hex(token.trim())
}

/// The club a live token belongs to.
pub fn club_of_token(store: &Store, token: &str) -> Result<Option<Club>, ServiceError> {
    Ok(store.club_of_token(&token_hash(token))?)
}

/// Publishes a club's game (anyone may read it then), or makes it private again.
pub fn publish(store: &mut Store, club: ClubId, game: &str, published: bool) -> Result<String, ServiceError> {
    Ok(store.set_published(club, game, published)?)
}

/// Hides a club's game from every view and list; its events stay stored (they are append-only), and an
/// upload of the same log by the club shows it again.
pub fn delete(store: &mut Store, club: ClubId, game: &str) -> Result<String, ServiceError> {
    Ok(store.delete_game(club, game)?)
}

/// Undoes `delete`: the club's deleted game (by its full id) is shown again, with its notes.
pub fn restore(store: &mut Store, club: ClubId, game: &str) -> Result<String, ServiceError> {
    Ok(store.restore_game(club, game)?)
}

/// The club's deleted games, the latest deleted first.
pub fn deleted_games(store: &Store, club: ClubId) -> Result<Vec<GameRow>, ServiceError> {
    Ok(store.deleted_games(club)?)
}

/// The longest note a coach may write, in characters.
pub const NOTE_LIMIT: usize = 2000;

/// A club's note on its own game, after event `seq` (0: before the first). Notes are kept as written.
pub fn add_note(
    store: &mut Store,
    club: ClubId,
    game: &str,
    seq: u64,
    text: &str,
) -> Result<almanac_store::Note, ServiceError> {
    let game = store.owned(club, game)?;
    let access = game.access();
    let text = text.trim();
    if text.is_empty() {
        return Err(StoreError::Invalid("a note needs words".into()).into());
    }
    refuse_nul("a note", text)?;
    if text.chars().count() > NOTE_LIMIT {
        return Err(StoreError::Invalid(format!("a note is at most {NOTE_LIMIT} characters")).into());
    }
    if seq > access.events {
        return Err(StoreError::Invalid(format!(
            "game {} has {} events; a note goes after one of them",
            access.id, access.events
        ))
        .into());
    }
    let id = store.add_note(&game, seq, club, text)?;
    let notes = store.notes(&game)?;
    Ok(notes.into_iter().find(|n| n.id == id).expect("the note just written"))
}

/// The notes on a game the viewer may see, in the order of the game.
pub fn notes(store: &Store, viewer: Viewer, game: &str) -> Result<Vec<almanac_store::Note>, ServiceError> {
    Ok(store.notes(&store.visible(viewer, game)?)?)
}

/// What `migrate` copied, and what it found when it compared the two databases.
#[derive(Debug, Default)]
pub struct Migrated {
    pub clubs: usize,
    pub tokens: usize,
    /// Games copied now (a game already in the target is left as it is).
    pub games: usize,
    /// Win-chance models copied (each ruleset's newest).
    pub models: usize,
    /// Games in both databases (copied now or before), of the source's `of` games; their events.
    pub total: usize,
    pub of: usize,
    pub events: u64,
    /// Games whose copy differs (content hash, events, owner, published, deleted), with why.
    pub mismatches: Vec<String>,
    /// Games the target would not take, and why: the others are copied all the same, and a migration run
    /// again tries these again.
    pub failed: Vec<(String, ServiceError)>,
}

/// Copies a database into another (a club's SQLite file into the federation's PostgreSQL): clubs, tokens
/// (as hashes), and every game by its stored log — read and validated again, stored under its own id, with
/// its owner, publication and deletion — then compares the two, game by game (content hash and events).
/// Games already in `to` are not copied again, so a migration interrupted may be run again.
pub fn migrate(from: &Store, to: &mut Store, mut progress: impl FnMut(&str)) -> Result<Migrated, ServiceError> {
    let mut report = Migrated::default();
    for club in from.clubs()? {
        if to.club_by_name(&club.name).is_err() {
            to.create_club(&club.name)?;
            report.clubs += 1;
        }
    }
    let have: std::collections::HashSet<String> = to.token_records()?.into_iter().map(|t| t.hash).collect();
    for token in from.token_records()?.into_iter().filter(|t| !have.contains(&t.hash)) {
        let club = to.club_by_name(&token.club)?;
        let id = to.add_token(club.id, &token.hash, &token.label)?;
        if token.revoked {
            to.revoke_token(id)?;
        }
        report.tokens += 1;
    }
    // Each ruleset's win-chance model, the newest, unless the copy holds the same one already.
    for kind in GAMES.iter() {
        if let Some(model) = from.model(kind.id())? {
            if to.model(kind.id())?.is_none_or(|m| m.body != model.body) {
                to.save_model(&model)?;
                report.models += 1;
            }
        }
    }
    let copied: std::collections::HashSet<String> = to.stored_games()?.into_iter().map(|g| g.id).collect();
    let games = from.stored_games()?;
    for g in games.iter().filter(|g| !copied.contains(&g.id)) {
        match copy_game(from, to, g) {
            Ok(()) => report.games += 1,
            Err(e) => report.failed.push((g.id.clone(), e)),
        }
        progress(&g.id);
    }
    // The coaches' notes, by club name (the copy's are stamped when copied), on the games copied.
    for g in &games {
        let Ok(copy) = to.stored(&g.id) else { continue };
        let have: Vec<(u64, String, String)> = to.notes(&copy)?.into_iter().map(|n| (n.seq, n.club, n.text)).collect();
        for n in from.notes(&from.stored(&g.id)?)? {
            if !have.contains(&(n.seq, n.club.clone(), n.text.clone())) {
                let club = to.club_by_name(&n.club)?.id;
                if let Err(e) = to.add_note(&copy, n.seq, club, &n.text) {
                    report.failed.push((format!("{}: a note of {}", g.id, n.club), e.into()));
                }
            }
        }
    }
    // The merges of spellings, by club and name: the copy's players are the same people.
    let merged: std::collections::HashSet<_> = to.player_merges()?.into_iter().collect();
    for m in from.player_merges()?.into_iter().filter(|m| !merged.contains(m)) {
        let (club, into, from_name) = &m;
        let club = match club {
            Some(name) => Some(to.club_by_name(name)?.id),
            None => None,
        };
        if let (Some(a), Some(b)) = (to.player_named(club, into)?, to.player_named(club, from_name)?) {
            if a != b {
                to.merge_players(None, a, b)?;
            }
        }
    }
    let sorted = |mut v: Vec<(Option<String>, String, String)>| {
        v.sort();
        v
    };
    if sorted(to.player_merges()?) != sorted(from.player_merges()?) {
        report.mismatches.push("the merges of players' spellings differ".into());
    }
    let copies: std::collections::HashMap<String, almanac_store::StoredGame> =
        to.stored_games()?.into_iter().map(|g| (g.id.clone(), g)).collect();
    for g in &games {
        match copies.get(&g.id) {
            Some(copy) if copy == g => {}
            Some(copy) => report.mismatches.push(format!("{}: {copy:?} against {g:?}", g.id)),
            None if report.failed.iter().any(|(id, _)| id == &g.id) => continue,
            None => {
                report.mismatches.push(format!("{}: not copied", g.id));
                continue;
            }
        }
        report.total += 1;
        report.events += g.events;
    }
    report.of = games.len();
    Ok(report)
}

/// Copies one stored game into another database: its log read and validated again, stored under its id,
/// with its owner, publication and deletion.
fn copy_game(from: &Store, to: &mut Store, g: &StoredGame) -> Result<(), ServiceError> {
    let (header, events) = from.log(&from.stored(&g.id)?)?;
    let game = read_stored(&g.id, header.clone(), events.clone())?;
    let owner = match &g.owner {
        Some(name) => Some(to.club_by_name(name)?.id),
        None => None,
    };
    let lines: Vec<&str> = events.iter().map(String::as_str).collect();
    let ownership = Ownership { club: owner, published: g.published };
    let facts = game.fact_rows(0);
    let mut insights = insights_from(game.as_ref(), &facts);
    // The copy's own model (copied before the games): the numbers name it, so the copy's games are current.
    chances::Models::of(to, game.ruleset())?.add_to(&mut insights, game.as_ref());
    let new = NewGame {
        game: game.as_ref(),
        header_line: &header,
        event_lines: &lines,
        content_hash: &g.content_hash,
        facts: &facts,
        insights: &insights,
        ahead: None,
    };
    to.insert_game_as(&g.id, &new, ownership)?;
    if g.deleted {
        if let Some(club) = owner {
            to.delete_game(club, &g.id)?;
        }
    }
    Ok(())
}
