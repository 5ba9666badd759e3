//! Uploads are validated and derived by a few threads of lower priority (one per core), and stored by one
//! writer thread of lower priority, so that readers come first: on a busy machine the scheduler gives the
//! request threads the cores and the upload threads what is left. SQLite takes one writer anyway; the uploads
//! that wait for it when it is free are stored together, in one transaction, each whole or not at all
//! (`Store::insert_games`): a commit per game rewrote the pages of every index for every game, and that is
//! what a lone upload costs most. Between uploads the writer derives again the games an older ruleset
//! version derived (`derivation`): an upload waits for one batch at most.

use crate::derivation::Derivation;
use almanac_service::{chances::Models, Format, ImportError, Ownership, Prepared, ServiceError, ValidatedLog};
use almanac_store::{Inserted, Pool};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

type Answer = oneshot::Sender<Result<Stored, ServiceError>>;

/// An upload stored: what the store did, and the game itself when it is new and not over (a table that goes
/// on recording it), so that the server keeps it in memory and its first append does not read it again.
pub struct Stored {
    pub inserted: Inserted,
    pub live: Option<Box<dyn almanac_core::Game>>,
}

/// What an upload asks, and where its answer goes.
struct Job {
    format: Option<Format>,
    text: String,
    ownership: Ownership,
    answer: Answer,
}

/// An upload validated and derived, waiting for the writer.
struct Ready {
    prepared: Prepared,
    ownership: Ownership,
    answer: Answer,
}

pub struct Uploads {
    jobs: mpsc::Sender<Job>,
}

/// How much lower the upload threads run than the request threads (a `nice` value).
const NICENESS: i32 = 10;

/// How an upload is validated: `almanac_service::check`, or a stand-in in the worker's own tests.
type Check = fn(Option<Format>, &str) -> Result<ValidatedLog, ImportError>;

impl Uploads {
    /// Starts the threads, which store into `pool` and derive again what `derivation` lists.
    pub fn start(pool: Arc<Pool>, derivation: Arc<Derivation>) -> std::io::Result<Uploads> {
        Uploads::start_checking(pool, derivation, almanac_service::check)
    }

    fn start_checking(pool: Arc<Pool>, derivation: Arc<Derivation>, check: Check) -> std::io::Result<Uploads> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let (ready, waiting) = mpsc::channel::<Ready>();
        let preparers = std::thread::available_parallelism().map_or(1, |n| n.get());
        for k in 0..preparers {
            let (queue, ready, pool) = (queue.clone(), ready.clone(), pool.clone());
            std::thread::Builder::new().name(format!("uploads-prepare-{k}")).spawn(move || {
                lower_priority();
                loop {
                    // The lock is held while waiting for a job, never while preparing one.
                    let job = match queue.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                        Ok(job) => job,
                        Err(mpsc::RecvError) => return,
                    };
                    match prepared(&pool, check, job.format, &job.text) {
                        Ok(prepared) => {
                            let Job { ownership, answer, .. } = job;
                            if ready.send(Ready { prepared, ownership, answer }).is_err() {
                                return;
                            }
                        }
                        // The uploader may have gone away; nothing to tell then.
                        Err(e) => drop(job.answer.send(Err(e))),
                    }
                }
            })?;
        }
        drop(ready);
        std::thread::Builder::new().name("uploads".into()).spawn(move || {
            lower_priority();
            // The games due are listed here, at this thread's lower priority, before the first upload.
            derivation.list(&pool);
            loop {
                // An upload first; the derivation when none waits; otherwise sleep until one comes.
                let first = match waiting.try_recv() {
                    Ok(r) => r,
                    Err(mpsc::TryRecvError::Empty) if derivation.has_work() => {
                        derivation.step(&pool);
                        continue;
                    }
                    // Idle: now and then a look for a model trained elsewhere (which makes games due).
                    Err(mpsc::TryRecvError::Empty) => match waiting.recv_timeout(crate::derivation::MODEL_LOOK) {
                        Ok(r) => r,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            derivation.look_for_new_models(&pool);
                            continue;
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    },
                    Err(mpsc::TryRecvError::Disconnected) => return,
                };
                let mut together = vec![first];
                while together.len() < almanac_service::STORED_TOGETHER {
                    match waiting.try_recv() {
                        Ok(r) => together.push(r),
                        Err(_) => break,
                    }
                }
                store_together(&pool, together);
            }
        })?;
        Ok(Uploads { jobs })
    }

    /// Validates and stores a file, in turn with the other uploads.
    pub async fn store(
        &self,
        format: Option<Format>,
        text: String,
        ownership: Ownership,
    ) -> Result<Inserted, ServiceError> {
        Ok(self.store_keeping(format, text, ownership).await?.inserted)
    }

    /// `store`, giving back the game too when it is new and not over.
    pub async fn store_keeping(
        &self,
        format: Option<Format>,
        text: String,
        ownership: Ownership,
    ) -> Result<Stored, ServiceError> {
        let (answer, reply) = oneshot::channel();
        let gone = || ServiceError::Internal("the upload worker has stopped; nothing was stored".into());
        self.jobs.send(Job { format, text, ownership, answer }).map_err(|_| gone())?;
        reply.await.map_err(|_| gone())?
    }
}

/// An upload validated, with what storing it needs derived (`almanac_service::prepare`). A panic while
/// validating one upload (a bug of ours) answers that upload with a 500 and leaves the thread running for
/// the next: it must not stop every upload until a restart.
fn prepared(pool: &Pool, check: Check, format: Option<Format>, text: &str) -> Result<Prepared, ServiceError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let log = check(format, text)?;
        let models = pool.read_primary(|s| Models::of(s, log.game.ruleset()))??;
        let prepared = almanac_service::prepare(log, &models);
        Ok(prepared.ahead())
    }))
    .unwrap_or_else(|_| {
        tracing::error!("validating an upload panicked; nothing of it was stored");
        Err(ServiceError::Internal("validating this upload failed inside the server; nothing was stored".into()))
    })
}

/// Stores uploads that waited together and answers each with its own outcome. Should the store fail them
/// all at once (the database unreachable, say), each is tried alone, so that each answer says its own error
/// (or that the game is stored, where the failure came after the commit: PostgreSQL's read-model count).
fn store_together(pool: &Pool, together: Vec<Ready>) {
    let stored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let owned: Vec<(&Prepared, Ownership)> = together.iter().map(|r| (&r.prepared, r.ownership)).collect();
        match pool.write(|s| almanac_service::store_prepared_together(s, &owned)) {
            Ok(outcomes) => outcomes.into_iter().map(|o| o.map_err(ServiceError::from)).collect(),
            Err(_) => owned
                .iter()
                .map(|(p, ownership)| Ok(pool.write(|s| almanac_service::store_prepared(s, *p, *ownership))?))
                .collect::<Vec<_>>(),
        }
    }));
    match stored {
        Ok(outcomes) => {
            for (ready, outcome) in together.into_iter().zip(outcomes) {
                let stored = outcome.map(|inserted| {
                    let game = ready.prepared.log.game;
                    let live = (matches!(inserted, Inserted::New(_)) && game.winner().is_none()).then_some(game);
                    Stored { inserted, live }
                });
                let _ = ready.answer.send(stored);
            }
        }
        Err(_) => {
            tracing::error!("storing {} uploads panicked; none of them was stored", together.len());
            for ready in together {
                let _ = ready.answer.send(Err(ServiceError::Internal(
                    "storing this upload failed inside the server; nothing was stored".into(),
                )));
            }
        }
    }
}

/// The format an upload names (`auto`, nothing or empty: guess), or a 400 that lists them.
pub fn format_named(name: Option<&str>) -> Result<Option<Format>, crate::error::ApiError> {
    match name {
        None | Some("auto") | Some("") => Ok(None),
        Some(f) => almanac_service::format(f).map(Some).ok_or_else(|| {
            crate::error::ApiError::bad_request(format!(
                "unknown format `{f}` (auto, {})",
                almanac_service::format_names().join(", ")
            ))
        }),
    }
}

/// Lowers the calling thread's scheduling priority (Linux applies `setpriority` to one thread).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; 0 is the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Panics on a file that says so, as a bug in a reader would; validates any other.
    fn check_or_panic(format: Option<Format>, text: &str) -> Result<ValidatedLog, ImportError> {
        if text == "panic" {
            panic!("a reader's bug");
        }
        almanac_service::check(format, text)
    }

    /// The sample logs, in the folder's order.
    fn samples() -> Vec<String> {
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
        let mut files: Vec<_> = std::fs::read_dir(samples).unwrap().map(|f| f.unwrap().path()).collect();
        files.retain(|f| f.extension().is_some_and(|e| e == "jsonl"));
        files.sort();
        files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
    }

    /// Uploads that waited together are stored in one transaction, each owned by its uploader and answered
    /// with its own outcome: one new, one a copy of it (the same log), one another club's.
    #[test]
    fn uploads_that_wait_together_are_stored_in_one_transaction_each_with_its_own_answer() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Pool::open(&dir.path().join("almanac.db")).unwrap();
        let (here, there) = pool.write(|s| (s.create_club("Here").unwrap().id, s.create_club("There").unwrap().id));
        let samples = samples();
        let uploads = [
            (samples[0].clone(), Ownership { club: Some(here), published: false }),
            (samples[1].clone(), Ownership { club: Some(there), published: true }),
            (samples[0].clone(), Ownership { club: Some(here), published: false }),
        ];
        let mut replies = Vec::new();
        let together: Vec<Ready> = uploads
            .iter()
            .map(|(text, ownership)| {
                let (answer, reply) = oneshot::channel();
                replies.push(reply);
                let prepared = prepared(&pool, almanac_service::check, None, text).unwrap();
                Ready { prepared, ownership: *ownership, answer }
            })
            .collect();
        let before = pool.read(|s| s.read_model_version().unwrap()).unwrap();
        store_together(&pool, together);
        let outcomes: Vec<Inserted> =
            replies.into_iter().map(|mut r| r.try_recv().unwrap().unwrap().inserted).collect();
        assert!(matches!(&outcomes[0], Inserted::New(_)), "{outcomes:?}");
        assert!(matches!(&outcomes[1], Inserted::New(_)), "{outcomes:?}");
        assert_eq!(outcomes[2], Inserted::Existing(outcomes[0].id().to_string()));
        assert_eq!(pool.read(|s| s.read_model_version().unwrap()).unwrap(), before + 1, "one transaction");
        let owner = |k: usize| pool.read(|s| s.access_of(outcomes[k].id()).unwrap().owner).unwrap();
        assert_eq!((owner(0), owner(1)), (Some(here), Some(there)));
    }

    #[test]
    fn a_panic_while_validating_answers_that_upload_and_the_next_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Arc::new(Pool::open(&dir.path().join("almanac.db")).unwrap());
        let uploads = Uploads::start_checking(pool.clone(), Default::default(), check_or_panic).unwrap();
        // Any sample log: the first in the folder.
        let text = samples().swap_remove(0);
        actix_rt::System::new().block_on(async {
            let failed = uploads.store(None, "panic".into(), Ownership::OPERATOR).await;
            assert!(matches!(failed, Err(ServiceError::Internal(_))), "{failed:?}");
            let stored = uploads.store(None, text, Ownership::OPERATOR).await.unwrap();
            assert!(matches!(stored, Inserted::New(_)), "{stored:?}");
        });
    }
}
