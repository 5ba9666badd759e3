//! Connections to one database for many threads: one writer at a time per process (SQLite takes one
//! anyway; on PostgreSQL the database orders the writers of every server), and readers side by side, each
//! on a connection of its own (SQLite's WAL lets them read while the writer writes). A PostgreSQL server
//! counts its connections: a pool there opens at most `POSTGRES_READERS` readers and makes the others wait.

use crate::error::Result;
use crate::seats::SharedSeats;
use crate::store::{is_postgres, Store};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

/// Read connections one process opens to a PostgreSQL database at most.
const POSTGRES_READERS: usize = 24;

pub struct Pool {
    path: PathBuf,
    writer: Mutex<Store>,
    /// The seats held in memory, one copy for every connection.
    seats: SharedSeats,
    readers: Mutex<Readers>,
    /// Signalled when a reader gives its connection back.
    returned: Condvar,
    /// How many read connections may be open at once (`usize::MAX`: no bound).
    most: usize,
}

struct Readers {
    /// Idle read connections; a reader takes one or opens one, and gives it back.
    idle: Vec<Store>,
    open: usize,
}

impl Pool {
    /// Opens (creating if needed and migrating) the database `path`: a SQLite file or a `postgres://` URL.
    pub fn open(path: &Path) -> Result<Pool> {
        let writer = Store::open(path)?;
        let seats = writer.shared_seats();
        let most = if is_postgres(path) { POSTGRES_READERS } else { usize::MAX };
        Ok(Pool {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            seats,
            readers: Mutex::new(Readers { idle: Vec::new(), open: 0 }),
            returned: Condvar::new(),
            most,
        })
    }

    /// Runs `f` on a read connection of its own; it never waits for the writer.
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T> {
        let taken = {
            let mut readers = self.readers.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(s) = readers.idle.pop() {
                    break Some(s);
                }
                if readers.open < self.most {
                    readers.open += 1;
                    break None;
                }
                readers = self.returned.wait(readers).unwrap_or_else(|e| e.into_inner());
            }
        };
        let store = match taken {
            Some(s) => s,
            None => Store::open_reader(&self.path).map(|s| s.sharing(self.seats.clone())).inspect_err(|_| {
                self.readers.lock().unwrap_or_else(|e| e.into_inner()).open -= 1;
                self.returned.notify_one();
            })?,
        };
        let out = f(&store);
        self.readers.lock().unwrap_or_else(|e| e.into_inner()).idle.push(store);
        self.returned.notify_one();
        Ok(out)
    }

    /// Runs `f` with the one writer (waiting while another write runs).
    pub fn write<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut store)
    }
}
