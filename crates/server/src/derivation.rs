//! Games stored by an older version of their ruleset (after an upgrade) are derived again in the background,
//! on the upload worker between uploads, so that the server answers at once however many there are. Until a
//! game is done its facts, summary and coach numbers are those of the older version: the pages say so in a
//! progress line, the API in the header `Almanac-Stale-Games` and in each game's `stale`.
//!
//! A game may also be due only because it has no checkpoints (a migration dropped them): it is derived again
//! the same way, but its numbers are current and nothing marks it.
//!
//! A model trained meanwhile (by `almanac train`, or by another server) makes the chance numbers of its
//! ruleset's finished games an older model's: each server looks at the newest models while its worker is idle
//! (`look_for_new_models`, every `MODEL_LOOK`), and when one changed lists the games due again, so that they
//! are marked and derived anew on a running server, not only on the next to start.
//!
//! Each server lists the games due when it starts, in the background too: at 100,000 games the list takes
//! most of a second, and the first answer must not wait for it. Until the list is made the answers say the
//! check is under way (`checking`), and no game is yet marked. Several servers on one PostgreSQL each derive them
//! (the same result, written twice); a game is never half derived, since each is derived in a transaction.

use almanac_service::ServiceError;
use almanac_store::{Pool, StoreError};
use serde::Serialize;
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// How many games are derived again between two looks at the upload queue.
const BATCH: usize = 32;

/// How often a game is tried again when the store, not its log, failed (the database was locked or gone).
const ATTEMPTS: u32 = 5;

/// How long the worker waits before trying a batch the store refused again.
const PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// How often an idle server looks for a model trained elsewhere.
pub const MODEL_LOOK: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Default)]
pub struct Derivation {
    inner: Mutex<Due>,
    /// Each ruleset's newest model's id when the games due were last listed (`None`: not read yet).
    models: Mutex<Option<Vec<(String, i64)>>>,
}

#[derive(Default)]
struct Due {
    /// The games due are being listed still.
    checking: bool,
    /// Games listed when the server started whose numbers are an older version's.
    total: usize,
    /// Games still to derive, in the order they were stored, with the attempts made (the batch being
    /// derived is taken out); those only without checkpoints too.
    queue: VecDeque<(String, u32)>,
    /// Every game whose numbers are still of an older version: those queued and those that failed.
    stale: HashSet<String>,
    done: usize,
    failed: usize,
}

/// How far the derivation is, as the API says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// The server is still listing the games due: the other numbers are not known yet.
    pub checking: bool,
    /// Games found stored by an older version when the server started.
    pub games: usize,
    pub done: usize,
    /// Games whose log this version of their rules refuses: their numbers stay those of the older version
    /// (the server's log says why; `almanac reproject` says it too).
    pub failed: usize,
    /// Games still to derive.
    pub waiting: usize,
}

impl Progress {
    /// Games whose numbers are still of an older version.
    pub fn stale(&self) -> usize {
        self.waiting + self.failed
    }
}

impl Derivation {
    /// A derivation whose games are yet to be listed (`list`).
    pub fn checking() -> Derivation {
        Derivation { inner: Mutex::new(Due { checking: true, ..Due::default() }), models: Mutex::new(None) }
    }

    /// Lists the games due again if a model was trained since they were last listed (on this server or any
    /// other): its ruleset's finished games are then an older model's. Cheap: one small query.
    pub fn look_for_new_models(&self, pool: &Pool) {
        let Ok(Ok(now)) = pool.read(|s| s.newest_models()) else { return };
        let seen = self.models.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if seen.as_ref().is_some_and(|seen| *seen != now) {
            tracing::info!("a model was trained since the games were listed: listing the games due again");
            self.list(pool);
        }
    }

    /// Lists the games of `pool` an older version derived (or that have no checkpoints yet), to derive again.
    pub fn list(&self, pool: &Pool) {
        // The models first, kept once the list is made: a model trained while the list is made is found by
        // the next look, and `models` names what the marks already follow.
        let models = pool.read(|s| s.newest_models()).ok().and_then(Result::ok);
        self.list_games(pool);
        if let Some(models) = models {
            *self.models.lock().unwrap_or_else(|e| e.into_inner()) = Some(models);
        }
    }

    /// Each ruleset's newest model (by id) when the games due were last listed: the stale marks follow
    /// these models (`/api/status`).
    pub fn models(&self) -> std::collections::BTreeMap<String, i64> {
        self.models.lock().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or_default().into_iter().collect()
    }

    fn list_games(&self, pool: &Pool) {
        let listed = pool.read(|s| almanac_service::games_due(s, None, false));
        let games = match listed {
            Ok(Ok(games)) => games,
            Ok(Err(e)) => return self.failed_to_list(&e.to_string()),
            Err(e) => return self.failed_to_list(&e.to_string()),
        };
        let stale: HashSet<String> = games.iter().filter(|g| g.numbers_older).map(|g| g.id.clone()).collect();
        if !games.is_empty() {
            tracing::info!(
                "{} game(s) are being derived again in the background: {} stored by older rulesets, {} without checkpoints",
                games.len(),
                stale.len(),
                games.len() - stale.len()
            );
        }
        *self.due() = Due {
            checking: false,
            total: stale.len(),
            stale,
            queue: games.into_iter().map(|g| (g.id, 0)).collect(),
            done: 0,
            failed: 0,
        };
    }

    fn failed_to_list(&self, why: &str) {
        tracing::error!("could not list the games stored by older rulesets: {why}");
        *self.due() = Due::default();
    }

    fn due(&self) -> std::sync::MutexGuard<'_, Due> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How far it is; `None` when no game's numbers are of an older version.
    pub fn progress(&self) -> Option<Progress> {
        let due = self.due();
        if due.checking {
            return Some(Progress { checking: true, games: 0, done: 0, failed: 0, waiting: 0 });
        }
        // The games being derived are still stale: waiting, though no longer queued.
        let waiting = due.stale.len() - due.failed;
        let progress = Progress { checking: false, games: due.total, done: due.done, failed: due.failed, waiting };
        (progress.stale() > 0).then_some(progress)
    }

    /// The numbers of game `id` (a full id) are still those of an older version of its rules.
    pub fn is_stale(&self, id: &str) -> bool {
        self.due().stale.contains(id)
    }

    pub fn has_work(&self) -> bool {
        !self.due().queue.is_empty()
    }

    /// Derives the next games again (on the upload worker: a lower priority, one writer).
    pub fn step(&self, pool: &Pool) {
        let batch: Vec<(String, u32)> = {
            let mut due = self.due();
            let n = due.queue.len().min(BATCH);
            due.queue.drain(..n).collect()
        };
        if batch.is_empty() {
            return;
        }
        let ids: Vec<String> = batch.iter().map(|(id, _)| id.clone()).collect();
        // A panic while deriving (a bug of ours) leaves the batch as it was and the worker running.
        let derived = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.write(|s| almanac_service::reproject(s, &ids, |_| {}))
        }));
        let mut due = self.due();
        let Ok(report) = derived else {
            tracing::error!("deriving {} game(s) again panicked; they are left as they were", ids.len());
            due.failed += ids.iter().filter(|id| due.stale.contains(*id)).count();
            return;
        };
        let mut retry = false;
        for id in report.done {
            if due.stale.remove(&id) {
                due.done += 1;
            }
        }
        for (id, e) in report.failed {
            let attempts = batch.iter().find(|(b, _)| *b == id).map_or(0, |(_, a)| *a) + 1;
            // A game deleted meanwhile has no numbers left; a log the rules refuse is refused again; a
            // store that failed may answer next time.
            if matches!(e, ServiceError::Store(StoreError::NotFound(_))) {
                if due.stale.remove(&id) {
                    due.total -= 1;
                }
            } else if matches!(e, ServiceError::Corrupt { .. } | ServiceError::UnknownRuleset { .. })
                || attempts >= ATTEMPTS
            {
                tracing::error!("{id}: left as it was derived before: {e}");
                if due.stale.contains(&id) {
                    due.failed += 1;
                }
            } else {
                due.queue.push_back((id, attempts));
                retry = true;
            }
        }
        drop(due);
        if retry {
            std::thread::sleep(PAUSE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_waiting_and_failed_games_as_stale() {
        let p = Progress { checking: false, games: 10, done: 6, failed: 1, waiting: 3 };
        assert_eq!(p.stale(), 4);
        let derivation = Derivation::default();
        assert_eq!(derivation.progress(), None);
        assert!(!derivation.has_work());
        assert!(!derivation.is_stale("any"));
    }

    #[test]
    fn until_the_games_due_are_listed_the_progress_says_it_is_checking() {
        let derivation = Derivation::checking();
        let progress = derivation.progress().expect("a progress while checking");
        assert!(progress.checking);
        assert_eq!(progress.stale(), 0);
        assert!(!derivation.has_work());
        derivation.failed_to_list("the store is gone");
        assert_eq!(derivation.progress(), None, "a list that failed leaves nothing marked");
    }
}
