//! What a game's log, facts and checkpoints are stored as, on either backend: packed and compressed. The
//! backends keep these byte strings in rows of their own; only this module reads or writes inside them.

pub mod chunks;
pub mod facts;
pub mod packing;

use crate::rows::NewGame;

/// A new game's log, facts and checkpoints as the store keeps them, made ahead of the writer on any thread
/// (`crate::Ahead`): compressing took a quarter of the writer's time.
pub(crate) struct Packed {
    pub(crate) events: chunks::Chunk,
    pub(crate) facts: facts::Batch,
    /// Each (after how many events, the state compressed).
    pub(crate) checkpoints: Vec<(usize, Vec<u8>)>,
}

impl Packed {
    pub fn of(new: &NewGame) -> Packed {
        Packed {
            events: chunks::Chunk::of(new.game, 0, new.event_lines),
            facts: facts::Batch::of(new.facts),
            checkpoints: checkpoints(new.game.checkpoints(0)),
        }
    }
}

/// Checkpoints as they are stored: (after how many events, the state compressed). A state repeats itself
/// (empty sites, zero counts): compressed, it takes about half the room.
pub fn checkpoints(kept: Vec<(usize, Vec<u8>)>) -> Vec<(usize, Vec<u8>)> {
    kept.into_iter().map(|(events, state)| (events, packing::compress(&state))).collect()
}
