//! Caches shared by threads (`moka`): caches bounded by bytes (the server keeps recently viewed games, asked
//! states as JSON and drawn charts in memory, so that stepping through a replay never touches the
//! database), and maps whose entries expire (tokens and who may see a game, read from the store again after
//! a few seconds so that a change made elsewhere is seen). Eviction is moka's (an approximation of least
//! recently and least frequently used), done without one lock over every entry.

use std::hash::Hash;
use std::time::Duration;

/// Values weighed in bytes, at most `capacity` bytes of them.
pub struct Lru<K, V> {
    capacity: u64,
    inner: moka::sync::Cache<K, (V, u32)>,
}

impl<K: Hash + Eq + Send + Sync + 'static, V: Clone + Send + Sync + 'static> Lru<K, V> {
    /// A cache of at most `capacity` bytes (as its `put`s weigh them).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1) as u64;
        let inner =
            moka::sync::Cache::builder().max_capacity(capacity).weigher(|_, (_, bytes): &(V, u32)| *bytes).build();
        Lru { capacity, inner }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.inner.get(key).map(|(v, _)| v)
    }

    /// Keeps `value`, which weighs `bytes` (others make room); a value heavier than the whole cache is not kept.
    pub fn put(&self, key: K, value: V, bytes: usize) {
        if bytes as u64 > self.capacity {
            self.inner.invalidate(&key);
            return;
        }
        self.inner.insert(key, (value, u32::try_from(bytes).unwrap_or(u32::MAX)));
    }

    /// The bytes held, as weighed, once the cache has done the evictions it owes.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        self.inner.run_pending_tasks();
        self.inner.weighted_size()
    }
}

/// Entries that are forgotten `ttl` after they were put (at most `MAX_ENTRIES` of them).
pub struct Expiring<K, V> {
    inner: moka::sync::Cache<K, V>,
}

const MAX_ENTRIES: u64 = 10_000;

impl<K: Hash + Eq + Send + Sync + 'static, V: Clone + Send + Sync + 'static> Expiring<K, V> {
    pub fn new(ttl: Duration) -> Self {
        Expiring { inner: moka::sync::Cache::builder().time_to_live(ttl).max_capacity(MAX_ENTRIES).build() }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.inner.get(key)
    }

    pub fn put(&self, key: K, value: V) {
        self.inner.insert(key, value);
    }

    /// Forgets the entry of `key` (a change made here is seen at once).
    pub fn forget(&self, key: &K) {
        self.inner.invalidate(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_stay_under_the_capacity_and_a_value_heavier_than_it_is_not_kept() {
        let lru = Lru::new(100);
        lru.put("a", 1, 40);
        lru.put("b", 2, 40);
        assert_eq!((lru.get(&"a"), lru.get(&"b")), (Some(1), Some(2)));
        for k in 0..20 {
            lru.put(["c", "d", "e", "f"][k % 4], k, 40);
            assert!(lru.bytes() <= 100, "{} bytes after {k}", lru.bytes());
        }
        lru.put("huge", 4, 101);
        assert_eq!(lru.get(&"huge"), None, "heavier than the whole cache");
        lru.put("a", 5, 10);
        assert_eq!(lru.get(&"a"), Some(5), "put again, lighter");
    }

    #[test]
    fn expired_entries_are_not_given() {
        let map = Expiring::new(Duration::from_millis(0));
        map.put(1, "x");
        assert_eq!(map.get(&1), None);
        let map = Expiring::new(Duration::from_secs(60));
        map.put(1, "x");
        assert_eq!(map.get(&1), Some("x"));
        map.forget(&1);
        assert_eq!(map.get(&1), None);
    }
}
