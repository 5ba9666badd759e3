//! Connections to one database for many threads: one writer at a time per process (SQLite takes one
//! anyway; on PostgreSQL the database orders the writers of every server), and readers side by side, each
//! on a connection of its own (SQLite's WAL lets them read while the writer writes). A PostgreSQL server
//! counts its connections: a pool there opens at most `POSTGRES_READERS` readers and makes the others wait.
//! Beside a PostgreSQL primary, a pool may read streaming replicas: the writes go to the primary, the reads
//! to the replicas in turn, and a read after this pool's own write waits for no replica: it goes to the
//! primary until a replica has replayed that write.

use crate::error::{Result, StoreError};
use crate::seats::SharedSeats;
use crate::store::{is_postgres, Store};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Read connections one process opens to a PostgreSQL database at most.
const POSTGRES_READERS: usize = 24;

pub struct Pool {
    writer: Mutex<Store>,
    /// The seats held in memory, one copy for every connection.
    seats: SharedSeats,
    primary: Readers,
    /// Streaming replicas of a PostgreSQL primary, read in turn (none: every read is the primary's).
    replicas: Vec<Replica>,
    /// The primary's WAL position after this pool's last write: a replica serves this pool's reads once
    /// it has replayed that far (read-your-writes), the primary meanwhile.
    written: AtomicU64,
    /// The replica the next read tries first.
    next: AtomicUsize,
}

/// Read connections to one database.
struct Readers {
    path: PathBuf,
    idle: Mutex<Idle>,
    /// Signalled when a reader gives its connection back.
    returned: Condvar,
    /// How many read connections may be open at once (`usize::MAX`: no bound).
    most: usize,
    /// Reads served, for the status a server gives.
    served: AtomicU64,
}

struct Idle {
    /// Idle read connections; a reader takes one or opens one, and gives it back.
    stores: Vec<Store>,
    open: usize,
}

struct Replica {
    readers: Readers,
    /// How far it had replayed the primary's WAL when last asked.
    replayed: AtomicU64,
}

/// How many reads a pool served from each database.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReadsServed {
    pub primary: u64,
    /// Each replica's, in the order given.
    pub replicas: Vec<u64>,
}

impl Pool {
    /// Opens (creating if needed and migrating) the database `path`: a SQLite file or a `postgres://` URL.
    pub fn open(path: &Path) -> Result<Pool> {
        Pool::open_replicated(path, &[])
    }

    /// Opens the primary `path` for writes and reads, and `replicas` (streaming replicas of a PostgreSQL
    /// primary) for reads: each read goes to the next replica that has replayed this pool's last write, or
    /// to the primary when none has.
    pub fn open_replicated(path: &Path, replicas: &[PathBuf]) -> Result<Pool> {
        if let Some(r) = replicas.iter().find(|r| !is_postgres(r) || !is_postgres(path)) {
            return Err(StoreError::Invalid(format!(
                "{} cannot be a replica: replicas are PostgreSQL streaming replicas of a PostgreSQL primary",
                r.display()
            )));
        }
        let writer = Store::open(path)?;
        let seats = writer.shared_seats();
        let most = if is_postgres(path) { POSTGRES_READERS } else { usize::MAX };
        Ok(Pool {
            writer: Mutex::new(writer),
            seats,
            primary: Readers::new(path, most),
            replicas: replicas
                .iter()
                .map(|r| Replica { readers: Readers::new(r, POSTGRES_READERS), replayed: AtomicU64::new(0) })
                .collect(),
            written: AtomicU64::new(0),
            next: AtomicUsize::new(0),
        })
    }

    /// Runs `f` on a read connection of its own; it never waits for the writer.
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T> {
        match self.caught_up_replica() {
            Some(replica) => replica.readers.read(&self.seats, f),
            None => self.primary.read(&self.seats, f),
        }
    }

    /// Runs `f` with the one writer (waiting while another write runs).
    pub fn write<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let out = f(&mut store);
        if !self.replicas.is_empty() {
            // Where the primary's WAL is now: this write, and anything before it, is behind it.
            match store.wal_position() {
                Ok(Some(at)) => {
                    self.written.fetch_max(at, Ordering::SeqCst);
                }
                Ok(None) => {}
                // Unknown: read the primary until a replica is known to be past whatever it is now.
                Err(_) => {
                    self.written.store(u64::MAX, Ordering::SeqCst);
                }
            }
        }
        out
    }

    /// Whether reads are made in this process from a file (SQLite), so that a short one never waits on a
    /// network: a server may make those on its request threads.
    pub fn reads_in_process(&self) -> bool {
        !is_postgres(&self.primary.path)
    }

    /// How many reads each database served.
    pub fn reads_served(&self) -> ReadsServed {
        ReadsServed {
            primary: self.primary.served.load(Ordering::Relaxed),
            replicas: self.replicas.iter().map(|r| r.readers.served.load(Ordering::Relaxed)).collect(),
        }
    }

    /// A replica that has replayed this pool's last write, trying each in turn from the next one; a replica
    /// behind is asked where it is now (one round trip), and one that does not answer is passed over.
    fn caught_up_replica(&self) -> Option<&Replica> {
        let n = self.replicas.len();
        if n == 0 {
            return None;
        }
        let written = self.written.load(Ordering::SeqCst);
        let first = self.next.fetch_add(1, Ordering::Relaxed) % n;
        let in_turn = || (0..n).map(|k| &self.replicas[(first + k) % n]);
        if let Some(r) = in_turn().find(|r| r.replayed.load(Ordering::SeqCst) >= written) {
            return Some(r);
        }
        in_turn().find(|r| match r.readers.read(&self.seats, |s| s.replayed_position()) {
            Ok(Ok(Some(at))) => r.replayed.fetch_max(at, Ordering::SeqCst).max(at) >= written,
            _ => false,
        })
    }
}

impl Readers {
    fn new(path: &Path, most: usize) -> Readers {
        Readers {
            path: path.to_path_buf(),
            idle: Mutex::new(Idle { stores: Vec::new(), open: 0 }),
            returned: Condvar::new(),
            most,
            served: AtomicU64::new(0),
        }
    }

    fn read<T>(&self, seats: &SharedSeats, f: impl FnOnce(&Store) -> T) -> Result<T> {
        let taken = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(s) = idle.stores.pop() {
                    break Some(s);
                }
                if idle.open < self.most {
                    idle.open += 1;
                    break None;
                }
                idle = self.returned.wait(idle).unwrap_or_else(|e| e.into_inner());
            }
        };
        let store = match taken {
            Some(s) => s,
            None => Store::open_reader(&self.path).map(|s| s.sharing(seats.clone())).inspect_err(|_| {
                self.idle.lock().unwrap_or_else(|e| e.into_inner()).open -= 1;
                self.returned.notify_one();
            })?,
        };
        let out = f(&store);
        self.served.fetch_add(1, Ordering::Relaxed);
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).stores.push(store);
        self.returned.notify_one();
        Ok(out)
    }
}
