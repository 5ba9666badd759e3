//! Small maps shared by threads: a least-recently-used cache bounded by bytes (the server keeps recently
//! viewed games' timelines, asked states as JSON and drawn charts in memory, so that stepping through a
//! replay never touches the database), and a map whose entries expire (tokens and who may see a game,
//! re-read from the store after a few seconds so that a change made elsewhere is seen).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Lru<K, V> {
    capacity: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    tick: u64,
    bytes: usize,
    /// Value, last use, weight in bytes.
    entries: HashMap<K, (V, u64, usize)>,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// A cache of at most `capacity` bytes (as its `put`s weigh them).
    pub fn new(capacity: usize) -> Self {
        Lru { capacity: capacity.max(1), inner: Mutex::new(Inner { tick: 0, bytes: 0, entries: HashMap::new() }) }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        inner.entries.get_mut(key).map(|(v, used, _)| {
            *used = tick;
            v.clone()
        })
    }

    /// Removes and returns the value kept for `key`.
    pub fn take(&self, key: &K) -> Option<V> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (value, _, bytes) = inner.entries.remove(key)?;
        inner.bytes -= bytes;
        Some(value)
    }

    /// Keeps `value`, which weighs `bytes`, evicting the least recently used entries to make room; a value
    /// heavier than the whole cache is not kept.
    pub fn put(&self, key: K, value: V, bytes: usize) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, old)) = inner.entries.remove(&key) {
            inner.bytes -= old;
        }
        if bytes > self.capacity {
            return;
        }
        while inner.bytes + bytes > self.capacity {
            let Some(oldest) = inner.entries.iter().min_by_key(|(_, (_, used, _))| *used).map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((_, _, w)) = inner.entries.remove(&oldest) {
                inner.bytes -= w;
            }
        }
        inner.tick += 1;
        let tick = inner.tick;
        inner.bytes += bytes;
        inner.entries.insert(key, (value, tick, bytes));
    }

    /// The bytes held, as weighed.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

/// Entries that are forgotten `ttl` after they were put.
pub struct Expiring<K, V> {
    ttl: Duration,
    entries: Mutex<HashMap<K, (V, Instant)>>,
}

impl<K: Hash + Eq + Clone, V: Clone> Expiring<K, V> {
    pub fn new(ttl: Duration) -> Self {
        Expiring { ttl, entries: Mutex::new(HashMap::new()) }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(key).filter(|(_, at)| at.elapsed() < self.ttl).map(|(v, _)| v.clone())
    }

    pub fn put(&self, key: K, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= 10_000 {
            let ttl = self.ttl;
            entries.retain(|_, (_, at)| at.elapsed() < ttl);
            if entries.len() >= 10_000 {
                entries.clear();
            }
        }
        entries.insert(key, (value, Instant::now()));
    }

    /// Forgets every entry whose value `stale` picks (a change made here is seen at once).
    pub fn forget(&self, stale: impl Fn(&K, &V) -> bool) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).retain(|k, (v, _)| !stale(k, v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first_and_the_bytes_stay_under_the_capacity() {
        let lru = Lru::new(100);
        lru.put("a", 1, 40);
        lru.put("b", 2, 40);
        assert_eq!(lru.get(&"a"), Some(1));
        lru.put("c", 3, 40);
        assert_eq!(lru.get(&"b"), None, "b was used least recently");
        assert_eq!((lru.get(&"a"), lru.get(&"c")), (Some(1), Some(3)));
        assert_eq!(lru.bytes(), 80);
        lru.put("huge", 4, 101);
        assert_eq!(lru.get(&"huge"), None, "heavier than the whole cache");
        lru.put("a", 5, 10);
        assert_eq!((lru.get(&"a"), lru.bytes()), (Some(5), 50));
    }

    #[test]
    fn expired_entries_are_not_given() {
        let map = Expiring::new(Duration::from_millis(0));
        map.put(1, "x");
        assert_eq!(map.get(&1), None);
        let map = Expiring::new(Duration::from_secs(60));
        map.put(1, "x");
        assert_eq!(map.get(&1), Some("x"));
        map.forget(|k, _| *k == 1);
        assert_eq!(map.get(&1), None);
    }
}
