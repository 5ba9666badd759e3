//! Games derived again by this build's rules (after an upgrade, or on demand), on every core.

use crate::chances;
use crate::error::{Result, ServiceError};
use crate::reading::read_stored;
use crate::uploads::insights_from;
use almanac_engine::GAMES;
use almanac_store::DueGame;
use almanac_store::{Derivation, Store, StoreError};

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
pub(crate) const REPROJECT_BATCH: usize = 32;

/// `f` of each item, in order, the items shared out over a thread per core (what needs no store: validating
/// and replaying logs). Each thread takes the next item as soon as it is free, so that long items falling to
/// one thread do not leave the other cores idle.
pub fn on_every_core<T: Send, U: Send>(items: Vec<T>, f: impl Fn(T) -> U + Sync) -> Vec<U> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len().max(1));
    let next = std::sync::Mutex::new(items.into_iter().enumerate());
    let (f, next) = (&f, &next);
    let mut done: Vec<(usize, U)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let item = next.lock().unwrap_or_else(|e| e.into_inner()).next();
                        let Some((i, item)) = item else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("deriving a game does not panic")).collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, u)| u).collect()
}

#[cfg(test)]
mod tests {
    /// Items of very different sizes: each is done once, and the answers come in the items' order.
    #[test]
    fn every_item_is_done_once_and_answered_in_order() {
        let items: Vec<u64> = (0..500).collect();
        let work = |n: u64| (0..(n % 7) * 10_000).fold(n, |a, k| a.wrapping_mul(31).wrapping_add(k));
        let shared = super::on_every_core(items.clone(), work);
        assert_eq!(shared, items.into_iter().map(work).collect::<Vec<_>>());
        assert!(super::on_every_core(Vec::<u64>::new(), work).is_empty());
    }
}
