//! Connections to one database for many threads: one writer at a time (SQLite takes one anyway), and
//! readers side by side, each on a connection of its own (WAL lets them read while the writer writes).

use crate::error::Result;
use crate::store::Store;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Pool {
    path: PathBuf,
    writer: Mutex<Store>,
    /// Idle read connections; a reader takes one or opens one, and gives it back.
    idle: Mutex<Vec<Store>>,
}

impl Pool {
    /// Opens (creating if needed and migrating) the database at `path`.
    pub fn open(path: &Path) -> Result<Pool> {
        let writer = Store::open(path)?;
        Ok(Pool { path: path.to_path_buf(), writer: Mutex::new(writer), idle: Mutex::new(Vec::new()) })
    }

    /// Runs `f` on a read connection of its own; it never waits for the writer.
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T> {
        let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let store = match taken {
            Some(s) => s,
            None => Store::open_reader(&self.path)?,
        };
        let out = f(&store);
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(store);
        Ok(out)
    }

    /// Runs `f` with the one writer (waiting while another write runs).
    pub fn write<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut store)
    }
}
