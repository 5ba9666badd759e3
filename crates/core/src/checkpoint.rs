//! A game's state at a checkpoint, written compactly and read back: what lets the state at any event be
//! the nearest checkpoint plus the events after it, without replaying a game from its first event.
//!
//! A state is written whole, less what its header fixes (`Ruleset::write_state`: its `#[serde(skip)]` fields,
//! the board, the options, the table), and read back onto the state its header gives (`Ruleset::read_state`,
//! `Rules::fixed_from`), so a checkpoint holds a few hundred bytes. Both go through [`write`] and [`read`]
//! (serde's data model, as varints): a game crate declares its state's shape with serde and nothing else.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// How many events lie between two stored checkpoints. Chosen by measurement (`almanac bench-scale`): at 64
/// a cold state replays at most 63 events (a fifth of a millisecond at the median over 10,200 generated games
/// of every ruleset) and the checkpoints weigh a tenth of the logs' text.
pub const EVERY: usize = 64;

/// A checkpoint that does not read back (written by another build of its game's state).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a stored checkpoint does not read back: {0}")]
pub struct CheckpointError(pub String);

/// A value in few bytes.
pub fn write<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising plain data into a growing buffer cannot fail.
    postcard::to_allocvec(value).expect("a state serialises")
}

/// A value [`write`] wrote; every byte must be read.
pub fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CheckpointError> {
    let (value, rest): (T, &[u8]) = postcard::take_from_bytes(bytes).map_err(|e| CheckpointError(e.to_string()))?;
    if !rest.is_empty() {
        return Err(CheckpointError(format!("{} bytes left over", rest.len())));
    }
    Ok(value)
}

/// The checkpoints a game of `events` events keeps: after every [`EVERY`] events, and after the last.
pub fn kept(events: usize) -> Vec<usize> {
    let mut at: Vec<usize> = (1..=events / EVERY).map(|k| k * EVERY).collect();
    if events > 0 && !events.is_multiple_of(EVERY) {
        at.push(events);
    }
    at
}

/// After an append to a game of `events` events, the checkpoints kept that stay: those at or before the
/// last multiple of [`EVERY`] (the one at the old end, if it was not one, is replaced).
pub fn standing(events: usize) -> usize {
    events / EVERY * EVERY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_back_and_trailing_bytes_are_refused() {
        let v: (Vec<Option<u8>>, String, [u32; 3]) = (vec![Some(3), None], "Ayşe".into(), [1, 300, 70000]);
        let bytes = write(&v);
        assert_eq!(read::<(Vec<Option<u8>>, String, [u32; 3])>(&bytes), Ok(v));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read::<(Vec<Option<u8>>, String, [u32; 3])>(&longer).unwrap_err().0.contains("1 bytes left over"));
        assert!(read::<(Vec<Option<u8>>, String, [u32; 3])>(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn checkpoints_fall_every_so_many_events_and_at_the_end() {
        assert_eq!(kept(0), Vec::<usize>::new());
        assert_eq!(kept(10), [10]);
        assert_eq!(kept(EVERY), [EVERY]);
        assert_eq!(kept(2 * EVERY + 5), [EVERY, 2 * EVERY, 2 * EVERY + 5]);
        assert_eq!((standing(EVERY - 1), standing(EVERY), standing(2 * EVERY + 5)), (0, EVERY, 2 * EVERY));
    }
}
