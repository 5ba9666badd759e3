//! Facts packed: a batch of facts (those of the events stored together) as one byte string, on either backend.
//!
//! The packing: a format byte, the batch's distinct words (kind, item, cause, detail) once each, then every
//! fact as a byte of which optional fields it has, its event and turn as steps from the fact before, its
//! words as places in the list and its numbers as variable-length integers; all of it compressed (a game's
//! facts repeat themselves: compressed, they take a third of the space).

use super::packing::{compress, decompress, put, put_signed, Reader};
use almanac_core::{FactKind, FactRow};
use std::collections::HashMap;

/// A batch of facts as a row keeps them: how many, and packed and compressed.
pub struct Batch {
    pub(crate) facts: u64,
    pub(crate) packed: Vec<u8>,
}

impl Batch {
    pub fn of(facts: &[FactRow]) -> Batch {
        Batch { facts: facts.len() as u64, packed: compress(&pack(facts)) }
    }
}

/// Appends the facts of a batch as stored (`Batch::packed`) to `facts`.
pub fn read_batch(stored: &[u8], facts: &mut Vec<FactRow>) -> Result<(), String> {
    unpack(&decompress(stored, "packed facts")?, facts)
}

/// The version of the packing, its first byte.
const FORMAT: u8 = 1;

/// Which optional fields a fact has: one bit each, in this order.
const PLAYER: u8 = 1;
const ITEM: u8 = 2;
const COUNT: u8 = 4;
const CAUSE: u8 = 8;
const OTHER: u8 = 16;
const TOTAL: u8 = 32;
const PUBLIC: u8 = 64;
const DETAIL: u8 = 128;

pub fn pack(facts: &[FactRow]) -> Vec<u8> {
    let mut words: Vec<&str> = Vec::new();
    // A quick hash: a game's words are few and nobody's choice, and each is met a thousand times.
    let mut places: HashMap<&str, u64, crate::questions::Quick> = HashMap::default();
    for f in facts {
        for w in
            [Some(f.kind.as_str()), f.item.as_deref(), f.cause.as_deref(), f.detail.as_deref()].into_iter().flatten()
        {
            places.entry(w).or_insert_with(|| {
                words.push(w);
                words.len() as u64 - 1
            });
        }
    }
    let mut out = vec![FORMAT];
    put(&mut out, words.len() as u64);
    for w in &words {
        put(&mut out, w.len() as u64);
        out.extend_from_slice(w.as_bytes());
    }
    put(&mut out, facts.len() as u64);
    let (mut seq, mut turn) = (0i64, 0i64);
    for f in facts {
        let mut has = 0u8;
        for (bit, present) in [
            (PLAYER, f.player.is_some()),
            (ITEM, f.item.is_some()),
            (COUNT, f.count.is_some()),
            (CAUSE, f.cause.is_some()),
            (OTHER, f.other.is_some()),
            (TOTAL, f.total.is_some()),
            (PUBLIC, f.public.is_some()),
            (DETAIL, f.detail.is_some()),
        ] {
            if present {
                has |= bit;
            }
        }
        out.push(has);
        put_signed(&mut out, f.seq as i64 - seq);
        put_signed(&mut out, f.turn as i64 - turn);
        (seq, turn) = (f.seq as i64, f.turn as i64);
        put(&mut out, places[f.kind.as_str()]);
        if let Some(p) = f.player {
            put(&mut out, p as u64);
        }
        if let Some(w) = &f.item {
            put(&mut out, places[w.as_str()]);
        }
        if let Some(n) = f.count {
            put_signed(&mut out, n);
        }
        if let Some(w) = &f.cause {
            put(&mut out, places[w.as_str()]);
        }
        if let Some(p) = f.other {
            put(&mut out, p as u64);
        }
        if let Some(n) = f.total {
            put_signed(&mut out, n);
        }
        if let Some(n) = f.public {
            put_signed(&mut out, n);
        }
        if let Some(w) = &f.detail {
            put(&mut out, places[w.as_str()]);
        }
    }
    out
}

/// Appends the facts packed in `bytes` to `facts`.
pub fn unpack(bytes: &[u8], facts: &mut Vec<FactRow>) -> std::result::Result<(), String> {
    let mut r = Reader::new(bytes, "packed facts");
    let format = r.byte()?;
    if format != FORMAT {
        return Err(format!("packed facts of format {format}, which this program does not know"));
    }
    let mut words = Vec::new();
    for _ in 0..r.number()? {
        let len = r.number()? as usize;
        let raw = r.take(len)?;
        words.push(std::str::from_utf8(raw).map_err(|_| "packed facts: a word is not UTF-8".to_string())?.to_string());
    }
    let word = |i: u64| words.get(i as usize).cloned().ok_or_else(|| format!("packed facts: no word {i}"));
    let count = r.number()? as usize;
    facts.reserve(count);
    let (mut seq, mut turn) = (0i64, 0i64);
    for _ in 0..count {
        let has = r.byte()?;
        seq += r.signed()?;
        turn += r.signed()?;
        let kind = word(r.number()?)?;
        let kind = FactKind::named(&kind).ok_or_else(|| format!("packed facts: a fact of no known kind, `{kind}`"))?;
        let player = if has & PLAYER != 0 { Some(r.number()? as u32) } else { None };
        let item = if has & ITEM != 0 { Some(word(r.number()?)?) } else { None };
        let count = if has & COUNT != 0 { Some(r.signed()?) } else { None };
        let cause = if has & CAUSE != 0 { Some(word(r.number()?)?) } else { None };
        let other = if has & OTHER != 0 { Some(r.number()? as u32) } else { None };
        let total = if has & TOTAL != 0 { Some(r.signed()?) } else { None };
        let public = if has & PUBLIC != 0 { Some(r.signed()?) } else { None };
        let detail = if has & DETAIL != 0 { Some(word(r.number()?)?) } else { None };
        facts.push(FactRow {
            seq: seq as u64,
            turn: turn as u32,
            kind,
            player,
            item,
            count,
            cause,
            other,
            total,
            public,
            detail,
        });
    }
    if !r.at_end() {
        return Err("packed facts: bytes left after the last fact".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: u64, turn: u32, kind: FactKind) -> FactRow {
        FactRow::bare(seq, turn, kind)
    }

    #[test]
    fn packed_facts_read_back_as_they_were() {
        let mut facts = vec![
            row(3, 1, FactKind::Gained),
            row(3, 1, FactKind::Gained),
            row(9, 2, FactKind::Score),
            row(12, 40, FactKind::Moment),
        ];
        facts[0].player = Some(0);
        facts[0].item = Some("apples".into());
        facts[0].count = Some(2);
        facts[1].player = Some(5);
        facts[1].item = Some("apples".into());
        facts[1].count = Some(-3);
        facts[1].cause = Some("dice".into());
        facts[2].other = Some(u32::MAX);
        facts[2].total = Some(i64::MIN);
        facts[2].public = Some(i64::MAX);
        facts[3].detail = Some("ünïcode \"detail\"".into());
        facts[3].count = Some(0);
        let packed = pack(&facts);
        let mut back = vec![row(1, 1, FactKind::Built)];
        unpack(&packed, &mut back).unwrap();
        assert_eq!(back[0].kind, FactKind::Built, "unpacking appends");
        assert_eq!(&back[1..], &facts[..]);
        // Words are stored once: "apples" twice and "gained" twice take one place each.
        assert_eq!(packed.windows(6).filter(|w| w == b"apples").count(), 1);
        assert_eq!(packed.windows(6).filter(|w| w == b"gained").count(), 1);
    }

    #[test]
    fn an_empty_batch_packs_and_unpacks() {
        let mut back = Vec::new();
        unpack(&pack(&[]), &mut back).unwrap();
        assert!(back.is_empty());
    }

    #[test]
    fn damaged_packings_are_refused_not_misread() {
        let mut facts = vec![row(1, 1, FactKind::Score)];
        facts[0].count = Some(300);
        let packed = pack(&facts);
        for cut in 0..packed.len() {
            assert!(unpack(&packed[..cut], &mut Vec::new()).is_err(), "cut at {cut}");
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(unpack(&longer, &mut Vec::new()).unwrap_err().contains("left"));
        let mut other_format = packed;
        other_format[0] = 9;
        assert!(unpack(&other_format, &mut Vec::new()).unwrap_err().contains("format 9"));
    }
}
