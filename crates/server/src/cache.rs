//! Recently viewed games, kept as loaded timelines so that stepping through a replay never touches the
//! database: the state at a turn is a snapshot clone plus at most 63 events.

use almanac_core::Game;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Cache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    tick: u64,
    games: HashMap<String, (u64, Arc<dyn Game>)>,
}

impl Cache {
    pub fn new(capacity: usize) -> Cache {
        Cache { capacity: capacity.max(1), inner: Mutex::new(Inner::default()) }
    }

    pub fn get(&self, id: &str) -> Option<Arc<dyn Game>> {
        let mut inner = self.inner.lock().expect("cache lock");
        inner.tick += 1;
        let tick = inner.tick;
        inner.games.get_mut(id).map(|(used, g)| {
            *used = tick;
            g.clone()
        })
    }

    pub fn put(&self, id: &str, game: Arc<dyn Game>) {
        let mut inner = self.inner.lock().expect("cache lock");
        inner.tick += 1;
        let tick = inner.tick;
        if inner.games.len() >= self.capacity && !inner.games.contains_key(id) {
            // Evict the least recently used game.
            if let Some(oldest) = inner.games.iter().min_by_key(|(_, (used, _))| *used).map(|(k, _)| k.clone()) {
                inner.games.remove(&oldest);
            }
        }
        inner.games.insert(id.to_string(), (tick, game));
    }
}
