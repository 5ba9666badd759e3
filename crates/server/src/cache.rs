//! A small least-recently-used map, shared by threads: the server keeps recently viewed games (their
//! timelines) and recently asked states (their JSON) in memory, so that stepping through a replay never
//! touches the database and an asked state is written once.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

pub struct Lru<K, V> {
    capacity: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    tick: u64,
    entries: HashMap<K, (u64, V)>,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    pub fn new(capacity: usize) -> Self {
        Lru { capacity: capacity.max(1), inner: Mutex::new(Inner { tick: 0, entries: HashMap::new() }) }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        inner.entries.get_mut(key).map(|(used, v)| {
            *used = tick;
            v.clone()
        })
    }

    pub fn put(&self, key: K, value: V) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        if inner.entries.len() >= self.capacity && !inner.entries.contains_key(&key) {
            // Evict the least recently used entry.
            if let Some(oldest) = inner.entries.iter().min_by_key(|(_, (used, _))| *used).map(|(k, _)| k.clone()) {
                inner.entries.remove(&oldest);
            }
        }
        inner.entries.insert(key, (tick, value));
    }
}
