//! A log checked, imported and stored: validated by its game's rules, with its facts, insights and
//! checkpoints prepared before the store's transaction, alone or many together.

use crate::chances;
use crate::error::{Result, ServiceError};
use almanac_core::Game;
use almanac_engine::{Format, ImportError, Reading, ValidatedLog};
use almanac_store::{Inserted, Ownership};
use almanac_store::{NewGame, Store, StoreError};

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
pub(crate) fn prepare_ref<'a>(log: &'a ValidatedLog, models: &chances::Models) -> Prepared<&'a ValidatedLog> {
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
pub(crate) fn insights_from(game: &dyn Game, facts: &[almanac_core::FactRow]) -> almanac_core::Insights {
    let mut tally = almanac_analysis::insights::Tally::new(game.envelope().players.len(), *game.vocabulary());
    tally.add(facts);
    tally.add_times(&entry_times(game, 0..game.event_count()));
    tally.insights()
}

/// Each entry's turn and the moment it was made (`Game::event_time`), for `Tally::add_times`.
pub(crate) fn entry_times(game: &dyn Game, entries: std::ops::Range<usize>) -> Vec<(u32, Option<i64>)> {
    entries.map(|i| (game.event_turn(i), game.event_time(i))).collect()
}
