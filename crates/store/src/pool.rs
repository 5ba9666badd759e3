//! Connections to one database for many threads: one writer at a time per process (SQLite takes one
//! anyway; on PostgreSQL the database orders the writers of every server), and readers side by side, each
//! on a connection of its own (SQLite's WAL lets them read while the writer writes). A PostgreSQL server
//! counts its connections: a pool there opens at most `POSTGRES_READERS` readers and makes the others wait.
//!
//! Beside a PostgreSQL primary, a pool may read streaming replicas: the writes go to the primary, the reads
//! to the replicas in rotation, and a read after this pool's own write waits for no replica: it goes to the
//! primary until a replica has replayed that write. A replica is in rotation while a thread of the pool
//! watching it hears from it (every `TICK`, within `SILENT_FOR`) and it is no further behind the primary
//! than `LAG_BOUND`; a read whose connection to it is lost takes it out at once, and is made again on the
//! primary. It comes back by itself once it answers and has caught up.
//!
//! A connection that is lost is never used again: a reader's is dropped, the writer's is opened again
//! before the next write (after a restart of the primary, or a failover to another host of a multi-host
//! URL).

use crate::error::{take_connection_lost, Result, StoreError};
use crate::seats::SharedSeats;
use crate::store::{is_postgres, Store};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Read connections one process opens to a PostgreSQL database at most.
const POSTGRES_READERS: usize = 24;

/// How often a replica is asked how far it has replayed, and the primary where its WAL is.
const TICK: Duration = Duration::from_millis(200);
/// A replica not heard from for this long is out of rotation (stopped, frozen, or cut off).
const SILENT_FOR: Duration = Duration::from_millis(1000);
/// A replica silent this long with connections still open to it (frozen: its kernel still takes the bytes)
/// has them shut down, so that the reads waiting on them end and are made again on the primary.
const FROZEN_FOR: Duration = Duration::from_secs(3);
/// A replica further behind the primary than this is out of rotation until it catches up: its readers
/// would see a past that old.
pub const LAG_BOUND: Duration = Duration::from_secs(5);
/// How long a pool opening waits for each replica's first answer.
const FIRST_ANSWER: Duration = Duration::from_secs(2);

pub struct Pool {
    path: PathBuf,
    writer: Mutex<Store>,
    /// The writer's connection was lost: it is opened again before the next write.
    writer_lost: AtomicBool,
    /// The seats held in memory, one copy for every connection.
    seats: SharedSeats,
    primary: Readers,
    /// Streaming replicas of a PostgreSQL primary, read in rotation (none: every read is the primary's).
    replicas: Vec<Arc<Replica>>,
    /// The primary's WAL position after this pool's last write: a replica serves this pool's reads once
    /// it has replayed that far (read-your-writes), the primary meanwhile.
    written: AtomicU64,
    /// The replica the next read tries first.
    next: AtomicUsize,
    /// What the watching threads share with the pool; they stop when the pool is dropped.
    watch: Arc<Watch>,
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
    /// When its watcher last heard from it, and when a read last lost its connection to it (milliseconds
    /// from the pool's start; 0: never).
    answered_at: AtomicU64,
    failed_at: AtomicU64,
    /// How far behind the primary it was when last asked, in milliseconds.
    lag: AtomicU64,
    /// Where it listens, and whether its connections were cut in this silence (`FROZEN_FOR`).
    addresses: Vec<std::net::SocketAddr>,
    cut: AtomicBool,
}

/// What the pool and its watching threads share.
struct Watch {
    started: Instant,
    stopped: AtomicBool,
    /// The primary's WAL position over the last `LAG_BOUND` and more: (milliseconds from the start, position).
    primary_at: Mutex<VecDeque<(u64, u64)>>,
}

/// How many reads a pool served from each database.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReadsServed {
    pub primary: u64,
    /// Each replica's, in the order given.
    pub replicas: Vec<u64>,
}

/// A replica as its pool sees it now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReplicaHealth {
    /// Whether reads go to it.
    pub in_rotation: bool,
    /// Milliseconds since it last answered (`None`: it never has).
    pub silent_ms: Option<u64>,
    /// How far behind the primary it was when it last answered, in milliseconds.
    pub lag_ms: u64,
}

impl Pool {
    /// Opens (creating if needed and migrating) the database `path`: a SQLite file or a `postgres://` URL.
    pub fn open(path: &Path) -> Result<Pool> {
        Pool::open_replicated(path, &[])
    }

    /// Opens the primary `path` for writes and reads, and `replicas` (streaming replicas of a PostgreSQL
    /// primary) for reads: each read goes to the next replica in rotation that has replayed this pool's last
    /// write, or to the primary when none has.
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
        let watch = Arc::new(Watch {
            started: Instant::now(),
            stopped: AtomicBool::new(false),
            primary_at: Mutex::new(VecDeque::new()),
        });
        let replicas: Vec<Arc<Replica>> = replicas
            .iter()
            .map(|r| {
                Arc::new(Replica {
                    readers: Readers::new(r, POSTGRES_READERS),
                    replayed: AtomicU64::new(0),
                    answered_at: AtomicU64::new(0),
                    failed_at: AtomicU64::new(0),
                    lag: AtomicU64::new(0),
                    addresses: crate::cut_off::addresses_of(&r.to_string_lossy()),
                    cut: AtomicBool::new(false),
                })
            })
            .collect();
        if !replicas.is_empty() {
            watch_primary(path, &watch);
            for r in &replicas {
                watch_replica(r, &watch);
            }
            cut_off_frozen(&replicas, &watch);
            // Reads go to a replica from the start when it answers at once.
            let waiting = Instant::now();
            while replicas.iter().any(|r| r.answered_at.load(Ordering::SeqCst) == 0) && waiting.elapsed() < FIRST_ANSWER
            {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        Ok(Pool {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            writer_lost: AtomicBool::new(false),
            seats,
            primary: Readers::new(path, most),
            replicas,
            written: AtomicU64::new(0),
            next: AtomicUsize::new(0),
            watch,
        })
    }

    /// Runs `f` on a read connection of its own; it never waits for the writer. A read on a replica whose
    /// connection is lost is made again on the primary (`f` may run twice).
    pub fn read<T>(&self, f: impl Fn(&Store) -> T) -> Result<T> {
        if let Some(replica) = self.replica_to_read() {
            match replica.readers.read(&self.seats, &f) {
                Ok((out, false)) => return Ok(out),
                // Out of rotation until its watcher hears from it again.
                Ok((_, true)) | Err(_) => replica.failed_at.store(self.watch.now(), Ordering::SeqCst),
            }
        }
        self.read_primary(f)
    }

    /// Runs `f` on a read connection to the primary, whatever the replicas: for what must not depend on a
    /// replica (a writer's token, what an upload needs to be stored).
    pub fn read_primary<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T> {
        self.primary.read(&self.seats, f).map(|(out, _)| out)
    }

    /// Runs `f` with the one writer (waiting while another write runs). A writer whose connection was lost
    /// connects again first; should that fail, `f` meets the lost connection and says so
    /// (`StoreError::Unavailable`).
    pub fn write<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if self.writer_lost.load(Ordering::SeqCst) || store.is_closed() {
            if let Ok(again) = Store::open_writer_again(&self.path) {
                *store = again.sharing(self.seats.clone());
                self.writer_lost.store(false, Ordering::SeqCst);
            }
        }
        take_connection_lost();
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
        if take_connection_lost() {
            self.writer_lost.store(true, Ordering::SeqCst);
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

    /// Each replica as this pool sees it now, in the order given.
    pub fn replicas(&self) -> Vec<ReplicaHealth> {
        let now = self.watch.now();
        self.replicas
            .iter()
            .map(|r| {
                let answered = r.answered_at.load(Ordering::SeqCst);
                ReplicaHealth {
                    in_rotation: self.in_rotation(r, now),
                    silent_ms: (answered > 0).then(|| now.saturating_sub(answered)),
                    lag_ms: r.lag.load(Ordering::SeqCst),
                }
            })
            .collect()
    }

    fn in_rotation(&self, r: &Replica, now: u64) -> bool {
        let answered = r.answered_at.load(Ordering::SeqCst);
        answered > 0
            && answered > r.failed_at.load(Ordering::SeqCst)
            && now.saturating_sub(answered) <= SILENT_FOR.as_millis() as u64
            && r.lag.load(Ordering::SeqCst) <= LAG_BOUND.as_millis() as u64
    }

    /// A replica in rotation that has replayed this pool's last write, trying each in turn from the next; one
    /// that its watcher last saw behind that write is asked where it is now (one round trip: a read just
    /// after a write need not wait for the next look).
    fn replica_to_read(&self) -> Option<&Replica> {
        let n = self.replicas.len();
        if n == 0 {
            return None;
        }
        let written = self.written.load(Ordering::SeqCst);
        let now = self.watch.now();
        let first = self.next.fetch_add(1, Ordering::Relaxed) % n;
        let in_turn = || (0..n).map(|k| &*self.replicas[(first + k) % n]).filter(|r| self.in_rotation(r, now));
        if let Some(r) = in_turn().find(|r| r.replayed.load(Ordering::SeqCst) >= written) {
            return Some(r);
        }
        in_turn().find(|r| match r.readers.read(&self.seats, |s| s.replayed_position()) {
            Ok((Ok(Some(at)), false)) => r.replayed.fetch_max(at, Ordering::SeqCst).max(at) >= written,
            Ok((_, true)) | Err(_) => {
                r.failed_at.store(self.watch.now(), Ordering::SeqCst);
                false
            }
            _ => false,
        })
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.watch.stopped.store(true, Ordering::SeqCst);
    }
}

impl Watch {
    /// Milliseconds from the pool's start (at least 1, so that 0 stays "never").
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64 + 1
    }

    /// How long ago the primary first passed `replayed` (0: it has not, as far as the samples tell).
    fn lag_behind(&self, replayed: u64) -> u64 {
        let samples = self.primary_at.lock().unwrap_or_else(|e| e.into_inner());
        samples.iter().find(|(_, at)| *at > replayed).map_or(0, |(when, _)| self.now().saturating_sub(*when))
    }
}

/// A thread that notes where the primary's WAL is, every `TICK`, for the replicas' lag; it keeps the last
/// minute (a replica more than `LAG_BOUND` behind is out however far).
fn watch_primary(path: &Path, watch: &Arc<Watch>) {
    let (path, watch) = (path.to_path_buf(), watch.clone());
    std::thread::spawn(move || {
        let mut store: Option<Store> = None;
        while !watch.stopped.load(Ordering::SeqCst) {
            if store.is_none() {
                store = Store::open_reader(&path).ok();
            }
            if let Some(s) = &store {
                match s.wal_position() {
                    Ok(Some(at)) => {
                        let mut samples = watch.primary_at.lock().unwrap_or_else(|e| e.into_inner());
                        // Only a move is worth keeping: the first sample past a position is what counts.
                        if samples.back().is_none_or(|(_, last)| *last < at) {
                            samples.push_back((watch.now(), at));
                        }
                        let horizon = watch.now().saturating_sub(60_000);
                        while samples.len() > 1 && samples.front().is_some_and(|(when, _)| *when < horizon) {
                            samples.pop_front();
                        }
                    }
                    _ => store = None,
                }
            }
            std::thread::sleep(TICK);
        }
    });
}

/// A thread that never waits on a database: every `TICK` it looks at how long each replica has been silent,
/// and shuts down this process's connections to one silent for `FROZEN_FOR`, once a silence.
fn cut_off_frozen(replicas: &[Arc<Replica>], watch: &Arc<Watch>) {
    let (replicas, watch) = (replicas.to_vec(), watch.clone());
    std::thread::spawn(move || {
        while !watch.stopped.load(Ordering::SeqCst) {
            let now = watch.now();
            for r in &replicas {
                let answered = r.answered_at.load(Ordering::SeqCst);
                let silent = answered > 0 && now.saturating_sub(answered) > FROZEN_FOR.as_millis() as u64;
                if !silent {
                    r.cut.store(false, Ordering::SeqCst);
                } else if !r.cut.swap(true, Ordering::SeqCst) {
                    crate::cut_off::cut_connections_to(&r.addresses);
                }
            }
            std::thread::sleep(TICK);
        }
    });
}

/// A thread that asks a replica how far it has replayed, every `TICK`, on a connection of its own (one that
/// hangs holds up this thread only: the replica falls silent, and out of rotation).
fn watch_replica(replica: &Arc<Replica>, watch: &Arc<Watch>) {
    let (replica, watch) = (replica.clone(), watch.clone());
    std::thread::spawn(move || {
        let mut store: Option<Store> = None;
        while !watch.stopped.load(Ordering::SeqCst) {
            if store.is_none() {
                store = Store::open_reader(&replica.readers.path).ok();
            }
            if let Some(s) = &store {
                match s.replayed_position() {
                    Ok(Some(at)) => {
                        replica.replayed.fetch_max(at, Ordering::SeqCst);
                        replica.lag.store(watch.lag_behind(at), Ordering::SeqCst);
                        replica.answered_at.store(watch.now(), Ordering::SeqCst);
                    }
                    // Not a replica (or not answering): never in rotation.
                    _ => store = None,
                }
            }
            std::thread::sleep(TICK);
        }
    });
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

    /// Runs `f` on a connection, and says whether the connection was lost meanwhile (it is then dropped,
    /// not given back).
    fn read<T>(&self, seats: &SharedSeats, f: impl FnOnce(&Store) -> T) -> Result<(T, bool)> {
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
        let give_back_place = || {
            self.idle.lock().unwrap_or_else(|e| e.into_inner()).open -= 1;
            self.returned.notify_one();
        };
        let store = match taken {
            Some(s) => s,
            None => Store::open_reader(&self.path).map(|s| s.sharing(seats.clone())).inspect_err(|_| {
                take_connection_lost();
                give_back_place();
            })?,
        };
        take_connection_lost();
        let out = f(&store);
        let lost = take_connection_lost() || store.is_closed();
        self.served.fetch_add(1, Ordering::Relaxed);
        if lost {
            drop(store);
            give_back_place();
        } else {
            self.idle.lock().unwrap_or_else(|e| e.into_inner()).stores.push(store);
            self.returned.notify_one();
        }
        Ok((out, lost))
    }
}
