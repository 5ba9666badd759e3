//! What a reader asks of a stored game: whether it may be seen, the list, the log, the game loaded, its
//! summary, events, state at a moment, what may happen next, its statistics, coach table and charts.

use crate::error::{Result, ServiceError};
use almanac_analysis::coach::CoachTable;
use almanac_analysis::{game_stats, GameStats};
use almanac_core::{AnyView, Chart, Game, Problem};
use almanac_engine::game_kind;
use almanac_engine::read_log;
use almanac_store::{GameFilter, Viewer, Visible};
use almanac_store::{GameRow, Store, StoreError};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

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

pub(crate) fn read_stored(id: &str, header: String, events: Vec<String>) -> Result<Box<dyn Game>, ServiceError> {
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
        // The header as the API shows it: the line's JSON, as uploaded.
        header: serde_json::from_str(game.header_line()).unwrap_or_default(),
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
