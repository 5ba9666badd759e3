//! What the store's promise tests share, on either backend: the samples, validated logs, inserting one.

#![allow(dead_code)]

use almanac_engine::{validate, ValidatedLog};
use almanac_store::{GameFilter, Inserted, Ownership, Store, StoreError, Viewer};
use std::path::Path;

pub fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples").join(name)).unwrap()
}

pub fn log_of(text: &str) -> ValidatedLog {
    validate(None, text).unwrap()
}

/// Stores a log as the operator's own (public).
pub fn insert(store: &mut Store, log: &ValidatedLog) -> Result<Inserted, StoreError> {
    insert_as(store, log, Ownership::OPERATOR)
}

pub fn insert_as(store: &mut Store, log: &ValidatedLog, owner: Ownership) -> Result<Inserted, StoreError> {
    store.insert_game(log.game.as_ref(), log.header_line(), &log.event_lines(), &log.content_hash(), owner)
}

/// Every game, as the operator lists them.
pub fn everything() -> GameFilter {
    GameFilter { viewer: Viewer::Operator, ..Default::default() }
}
