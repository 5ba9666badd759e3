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
/// whole, and one wanted only to an event before its last is read only that far. Only the lines wanted are
/// checked as text and copied (a cold state reads a few lines near the end of a long chunk).
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
    let mut turns = Reader::new(turns, "the chunk's turns");
    let mut turn = 0i64;
    let mut events = Vec::new();
    let mut count = 0u64;
    // Every line ends with a newline, the last one too; the start of a chunk may end inside a line (and a
    // character), and only its whole lines are read.
    let mut from = 0;
    for end in memchr::memchr_iter(b'\n', &text) {
        let seq = first + count;
        if !whole && seq > *wanted.end() {
            break;
        }
        turn += turns.signed()?;
        if wanted.contains(&seq) {
            let line = std::str::from_utf8(&text[from..end]).map_err(|_| format!("line {seq} is not UTF-8"))?;
            events.push((seq, turn as u32, line.to_string()));
        }
        count += 1;
        from = end + 1;
    }
    if !whole {
        // The start only: it must hold every line up to the last one wanted.
        let needed = *wanted.end() + 1 - first;
        if count < needed {
            return Err(format!("{count} lines where {needed} were wanted of {} stored", last + 1 - first));
        }
        return Ok(events);
    }
    if count != last + 1 - first || !turns.at_end() || from != text.len() {
        return Err(format!("{count} lines where {} events were stored", last + 1 - first));
    }
    // A chunk read whole is checked whole: its text too.
    std::str::from_utf8(&text).map_err(|_| "the chunk's lines are not UTF-8".to_string())?;
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twenty lines with letters of more than one byte, in turns 1, 1, 2, 2, ...
    fn lines() -> Vec<(u32, String)> {
        (0..20)
            .map(|k| {
                (k / 2 + 1, format!(r#"{{"type":"roll","player":"Ayşe","n":{k},"note":"{}"}}"#, "ğ".repeat(k as usize)))
            })
            .collect()
    }

    fn chunk(lines: &[(u32, String)]) -> Chunk {
        let bytes = lines.iter().map(|(_, l)| l.len() + 1).sum();
        Chunk::new(lines.iter().map(|(t, l)| (*t, l.as_str())), bytes)
    }

    #[test]
    fn every_range_of_a_chunk_reads_back_as_its_lines_and_turns() {
        let lines = lines();
        let c = chunk(&lines);
        let (first, last) = (5, 5 + lines.len() as u64 - 1);
        for from in first..=last {
            for to in from..=last + 3 {
                let read = unpack(first, last, &c.turns, &c.lines, c.text_bytes, from..=to).unwrap();
                let want: Vec<(u64, u32, String)> = (from..=to.min(last))
                    .map(|seq| (seq, lines[(seq - first) as usize].0, lines[(seq - first) as usize].1.clone()))
                    .collect();
                assert_eq!(read, want, "{from}..={to}");
            }
        }
    }

    #[test]
    fn a_damaged_chunk_is_refused_where_it_is_read() {
        let mut lines = lines();
        let c = chunk(&lines);
        // More lines wanted than the chunk says it holds.
        assert!(unpack(1, 25, &c.turns, &c.lines, c.text_bytes, 1..=22).is_err());
        // A line that is not UTF-8: refused when it is wanted, and when the chunk is read whole.
        lines[3].1 = String::from_utf8_lossy(b"x").into_owned();
        let mut text: Vec<u8> = lines.iter().flat_map(|(_, l)| format!("{l}\n").into_bytes()).collect();
        let at = text.iter().position(|&b| b == b'x').unwrap();
        text[at] = 0xff;
        let damaged = super::super::packing::compress(&text);
        let bytes = text.len() as u64;
        assert!(unpack(1, 20, &c.turns, &damaged, bytes, 4..=6).unwrap_err().contains("line 4 is not UTF-8"));
        assert!(unpack(1, 20, &c.turns, &damaged, bytes, 1..=20).is_err());
        assert_eq!(unpack(1, 20, &c.turns, &damaged, bytes, 6..=8).unwrap().len(), 3, "lines after it read");
    }
}
