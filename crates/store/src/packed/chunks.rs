//! The event log in chunks, on either backend: the events stored together (an upload, an append) are one
//! chunk, their lines compressed as one text and their turns as steps. A log repeats itself from line to
//! line, so a chunk takes about a thirteenth of its text, where a row per event took more than its text.

use super::packing::{compress, decompress, decompress_lines, put_signed, Reader};
use almanac_core::Game;

/// Events as a chunk's row keeps them: their turns as steps, their lines compressed as one text.
pub struct Chunk {
    pub(crate) events: u64,
    /// Each event's turn, as steps from the one before.
    pub(crate) turns: Vec<u8>,
    /// The events' lines, each ended by a newline, compressed.
    pub(crate) lines: Vec<u8>,
    /// The length of those lines uncompressed.
    pub(crate) text_bytes: u64,
}

impl Chunk {
    /// Lines `first ..` of `game`'s log.
    pub fn of(game: &dyn Game, first: usize, lines: &[impl AsRef<str>]) -> Chunk {
        let text_bytes = lines.iter().map(|line| line.as_ref().len() + 1).sum();
        let events = lines.iter().enumerate().map(|(k, line)| (game.event_turn(first + k), line.as_ref()));
        Chunk::new(events, text_bytes)
    }

    /// The events given as (turn, line); `text_bytes` is room for their text.
    pub fn new<'a>(events: impl Iterator<Item = (u32, &'a str)>, text_bytes: usize) -> Chunk {
        let (mut turns, mut text, mut count, mut last_turn) = (Vec::new(), String::with_capacity(text_bytes), 0, 0i64);
        for (turn, line) in events {
            put_signed(&mut turns, turn as i64 - last_turn);
            last_turn = turn as i64;
            text.push_str(line);
            text.push('\n');
            count += 1;
        }
        Chunk { events: count, turns, lines: compress(text.as_bytes()), text_bytes: text.len() as u64 }
    }
}

/// The events of one chunk as (seq, turn, line), those of `wanted` only: a chunk read whole is checked
/// whole, and one wanted only to an event before its last is read only that far.
pub fn unpack(
    first: u64,
    last: u64,
    turns: &[u8],
    lines: &[u8],
    text_bytes: u64,
    wanted: std::ops::RangeInclusive<u64>,
) -> std::result::Result<Vec<(u64, u32, String)>, String> {
    // The lines up to the last one wanted: all of them, or the start of the chunk only.
    let whole = *wanted.end() >= last;
    let text = if whole {
        decompress(lines, "the chunk's lines")?
    } else {
        decompress_lines(lines, (*wanted.end() + 1 - first) as usize, "the chunk's lines")?
    };
    if (whole && text.len() as u64 != text_bytes) || text.len() as u64 > text_bytes {
        return Err(format!("{} bytes of lines where {text_bytes} were stored", text.len()));
    }
    // The start of a chunk may end inside a character: only its whole lines are read.
    let text = match (whole, text.iter().rposition(|&b| b == b'\n')) {
        (true, _) => text,
        (false, Some(end)) => text[..=end].to_vec(),
        (false, None) => Vec::new(),
    };
    let text = String::from_utf8(text).map_err(|_| "the chunk's lines are not UTF-8".to_string())?;
    let mut turns = Reader::new(turns, "the chunk's turns");
    let mut turn = 0i64;
    let mut events = Vec::new();
    let mut count = 0u64;
    // Every line ends with a newline, the last one too.
    for (k, line) in text.split_terminator('\n').enumerate() {
        let seq = first + k as u64;
        if !whole && seq > *wanted.end() {
            break;
        }
        turn += turns.signed()?;
        if wanted.contains(&seq) {
            events.push((seq, turn as u32, line.to_string()));
        }
        count += 1;
    }
    if !whole {
        // The start only: it must hold every line up to the last one wanted.
        let needed = *wanted.end() + 1 - first;
        if count < needed {
            return Err(format!("{count} lines where {needed} were wanted of {} stored", last + 1 - first));
        }
        return Ok(events);
    }
    if count != last + 1 - first || !turns.at_end() || !text.ends_with('\n') {
        return Err(format!("{count} lines where {} events were stored", last + 1 - first));
    }
    Ok(events)
}
