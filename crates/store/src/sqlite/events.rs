//! The event log on SQLite, in chunks: the events stored together (an upload, an append) are one row, their
//! lines compressed as one text. A log repeats itself from line to line, so a chunk takes about a thirteenth
//! of its text, where a row per event took more than its text (97 bytes for a 61-byte line: the game's id,
//! the keys, and pages a third empty under random ids). The database keeps the promises of the log on
//! chunks: a chunk is never updated or deleted and starts right after the last one of its game.

use super::packing::{compress, decompress, decompress_lines, put_signed, Reader};
use crate::error::{Result, StoreError};
use almanac_core::Game;
use rusqlite::{params, Connection};

/// Stores lines `first ..` of `game`'s log (already validated) as the next chunk of game `id`.
pub fn write(tx: &Connection, id: &str, game: &dyn Game, first: usize, lines: &[impl AsRef<str>]) -> Result<()> {
    write_chunk(tx, key_of(tx, id)?, first as u64 + 1, &Chunk::of(game, first, lines))
}

/// The integer key of game `id`, which its chunks are stored under.
pub fn key_of(tx: &Connection, id: &str) -> Result<i64> {
    Ok(tx.prepare_cached("SELECT key FROM games WHERE id = ?1")?.query_row([id], |r| r.get(0))?)
}

/// Events as a chunk's row keeps them: their turns as steps, their lines compressed as one text.
pub struct Chunk {
    events: u64,
    turns: Vec<u8>,
    lines: Vec<u8>,
    text_bytes: u64,
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

/// Stores `chunk` as the chunk of the game keyed `key` that starts at `first_seq`.
pub fn write_chunk(tx: &Connection, key: i64, first_seq: u64, chunk: &Chunk) -> Result<()> {
    if chunk.events == 0 {
        return Ok(());
    }
    tx.prepare_cached(
        "INSERT INTO event_chunks (game, first_seq, last_seq, turns, lines, text_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![key, first_seq, first_seq + chunk.events - 1, chunk.turns, chunk.lines, chunk.text_bytes])?;
    Ok(())
}

/// Every line of game `id`'s log, in order.
pub fn all(conn: &Connection, id: &str) -> Result<Vec<String>> {
    Ok(range(conn, id, 1, u64::MAX)?.into_iter().map(|(_, _, line)| line).collect())
}

/// Events `from ..= to` of game `id` as (seq, turn, line).
pub fn range(conn: &Connection, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
    // SQLite's integers are signed: a larger bound means "to the end".
    let (from, to) = (from.min(i64::MAX as u64), to.min(i64::MAX as u64));
    let mut stmt = conn.prepare_cached(
        "SELECT first_seq, last_seq, turns, lines, text_bytes FROM event_chunks
         WHERE game = (SELECT key FROM games WHERE id = ?1) AND last_seq >= ?2 AND first_seq <= ?3
         ORDER BY first_seq",
    )?;
    let mut rows = stmt.query(params![id, from, to])?;
    let mut events = Vec::new();
    while let Some(row) = rows.next()? {
        let first: u64 = row.get(0)?;
        let last: u64 = row.get(1)?;
        let turns = row.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
        let lines = row.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?;
        let text_bytes: u64 = row.get(4)?;
        let chunk = unpack(first, last, turns, lines, text_bytes, from..=to)
            .map_err(|e| StoreError::Invalid(format!("game {id}, events {first}–{last}: {e}")))?;
        events.extend(chunk);
    }
    Ok(events)
}

/// The events of one chunk as (seq, turn, line), those of `wanted` only: a chunk read whole is checked
/// whole, and one wanted only to an event before its last is read only that far.
fn unpack(
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
