//! Uploads wait their turn on one worker thread of lower priority, so that readers come first: on a busy
//! machine the scheduler gives the request threads the cores and the upload worker what is left, and one
//! upload is validated and stored at a time (SQLite takes one writer anyway).

use almanac_service::{Format, Ownership, ServiceError, ValidatedLog};
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

impl Uploads {
    /// Starts the worker, which stores into `pool`.
    pub fn start(pool: Arc<Pool>) -> std::io::Result<Uploads> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new().name("uploads".into()).spawn(move || {
            lower_priority();
            for job in queue {
                let stored = almanac_service::check(job.format, &job.text).map_err(ServiceError::from).and_then(
                    |log: ValidatedLog| Ok(pool.write(|s| almanac_service::store_log(s, &log, job.ownership))?),
                );
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
        self.jobs.send(Job { format, text, ownership, answer }).expect("the upload worker runs as long as the server");
        reply.await.expect("the upload worker answers every job")
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
