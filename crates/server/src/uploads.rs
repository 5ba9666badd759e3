//! Uploads wait their turn on one worker thread of lower priority, so that readers come first: on a busy
//! machine the scheduler gives the request threads the cores and the upload worker what is left, and one
//! upload is validated and stored at a time (SQLite takes one writer anyway). Between uploads the worker
//! derives again the games an older ruleset version derived (`derivation`): an upload waits for one batch
//! at most.

use crate::derivation::Derivation;
use almanac_service::{Format, ImportError, Ownership, ServiceError, ValidatedLog};
use almanac_store::{Inserted, Pool};
use std::sync::mpsc;
use std::sync::Arc;
use tokio::sync::oneshot;

/// What an upload asks, and where its answer goes.
struct Job {
    format: Option<Format>,
    text: String,
    ownership: Ownership,
    answer: oneshot::Sender<Result<Inserted, ServiceError>>,
}

pub struct Uploads {
    jobs: mpsc::Sender<Job>,
}

/// How much lower the upload worker runs than the request threads (a `nice` value).
const NICENESS: i32 = 10;

/// How an upload is validated: `almanac_service::check`, or a stand-in in the worker's own tests.
type Check = fn(Option<Format>, &str) -> Result<ValidatedLog, ImportError>;

impl Uploads {
    /// Starts the worker, which stores into `pool` and derives again what `derivation` lists.
    pub fn start(pool: Arc<Pool>, derivation: Arc<Derivation>) -> std::io::Result<Uploads> {
        Uploads::start_checking(pool, derivation, almanac_service::check)
    }

    fn start_checking(pool: Arc<Pool>, derivation: Arc<Derivation>, check: Check) -> std::io::Result<Uploads> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new().name("uploads".into()).spawn(move || {
            lower_priority();
            loop {
                // An upload first; the derivation when none waits; otherwise sleep until one comes.
                let job = match queue.try_recv() {
                    Ok(job) => job,
                    Err(mpsc::TryRecvError::Empty) if derivation.has_work() => {
                        derivation.step(&pool);
                        continue;
                    }
                    Err(mpsc::TryRecvError::Empty) => match queue.recv() {
                        Ok(job) => job,
                        Err(mpsc::RecvError) => return,
                    },
                    Err(mpsc::TryRecvError::Disconnected) => return,
                };
                // A panic while validating one upload (a bug of ours) answers that upload with a 500 and
                // leaves the worker running for the next: it must not stop every upload until a restart.
                let stored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check(job.format, &job.text).map_err(ServiceError::from).and_then(|log: ValidatedLog| {
                        Ok(pool.write(|s| almanac_service::store_log(s, &log, job.ownership))?)
                    })
                }))
                .unwrap_or_else(|_| {
                    tracing::error!("validating an upload panicked; nothing of it was stored");
                    Err(ServiceError::Internal(
                        "validating this upload failed inside the server; nothing was stored".into(),
                    ))
                });
                // The uploader may have gone away; nothing to tell then.
                let _ = job.answer.send(stored);
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
        let (answer, reply) = oneshot::channel();
        let gone = || ServiceError::Internal("the upload worker has stopped; nothing was stored".into());
        self.jobs.send(Job { format, text, ownership, answer }).map_err(|_| gone())?;
        reply.await.map_err(|_| gone())?
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

    #[test]
    fn a_panic_while_validating_answers_that_upload_and_the_next_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Arc::new(Pool::open(&dir.path().join("almanac.db")).unwrap());
        let uploads = Uploads::start_checking(pool.clone(), Default::default(), check_or_panic).unwrap();
        // Any sample log: the first in the folder.
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
        let mut files: Vec<_> = std::fs::read_dir(samples).unwrap().map(|f| f.unwrap().path()).collect();
        files.retain(|f| f.extension().is_some_and(|e| e == "jsonl"));
        files.sort();
        let text = std::fs::read_to_string(&files[0]).unwrap();
        actix_rt::System::new().block_on(async {
            let failed = uploads.store(None, "panic".into(), Ownership::OPERATOR).await;
            assert!(matches!(failed, Err(ServiceError::Internal(_))), "{failed:?}");
            let stored = uploads.store(None, text, Ownership::OPERATOR).await.unwrap();
            assert!(matches!(stored, Inserted::New(_)), "{stored:?}");
        });
    }
}
