//! Small numbers in few bytes, and compression: what the packed forms of facts and events are made of.

use std::result::Result;

/// An unsigned number in 7-bit groups, low first; the high bit says another group follows.
pub fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A signed number as an unsigned one, small either side of zero (0, -1, 1, -2 ... → 0, 1, 2, 3 ...).
pub fn put_signed(out: &mut Vec<u8>, n: i64) {
    put(out, ((n << 1) ^ (n >> 63)) as u64);
}

/// Reads what `put` and `put_signed` wrote; every error names `what` was being read.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8], what: &'static str) -> Self {
        Reader { bytes, at: 0, what }
    }

    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    pub fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or_else(|| format!("{} end too early", self.what))?;
        self.at += 1;
        Ok(b)
    }

    pub fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| format!("{} end too early", self.what))?;
        let raw = &self.bytes[self.at..end];
        self.at = end;
        Ok(raw)
    }

    pub fn number(&mut self) -> Result<u64, String> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(format!("{}: a number longer than 64 bits", self.what))
    }

    pub fn signed(&mut self) -> Result<i64, String> {
        let n = self.number()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }
}

/// zstd's level 5: a game's log in about a thirteenth of its text at about 140 MB/s (measured on 70 generated
/// games of every ruleset: level 3 left 50% more bytes; level 9 saved 13% more at half the speed).
const LEVEL: i32 = 5;

thread_local! {
    /// One compressor per thread, kept: making zstd's context for every chunk took a tenth of the compressing.
    static COMPRESSOR: std::cell::RefCell<zstd::bulk::Compressor<'static>> =
        std::cell::RefCell::new(zstd::bulk::Compressor::new(LEVEL).expect("zstd takes level 5"));
}

pub fn compress(bytes: &[u8]) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|c| c.compress(bytes)).expect("zstd compresses any bytes into a buffer of its own bound")
}

thread_local! {
    /// One decompressor per thread, kept: a cold read of a game's state decompresses a chunk and a checkpoint,
    /// and making zstd's context each time was a good part of it.
    static DECOMPRESSOR: std::cell::RefCell<zstd::bulk::Decompressor<'static>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new().expect("zstd makes a context"));
}

thread_local! {
    /// One streaming context per thread, kept, for reading the start of a frame only.
    static STREAMING: std::cell::RefCell<zstd::zstd_safe::DCtx<'static>> =
        std::cell::RefCell::new(zstd::zstd_safe::DCtx::create());
}

/// Decompresses the start of what `compress` made: as far as it takes to hold `lines` whole lines (the whole
/// frame when it has fewer), and a step further at most. A cold state wants a few lines of a game's chunk,
/// and a game uploaded whole is one chunk. Errors name `what` was being read.
pub fn decompress_lines(bytes: &[u8], lines: usize, what: &str) -> Result<Vec<u8>, String> {
    // About a hundred lines a step: zstd's own block is 128 KB, and each call gives what it has decoded.
    const STEP: usize = 8 << 10;
    let fail = |code: usize| format!("{what}: {}", zstd::zstd_safe::get_error_name(code));
    STREAMING.with_borrow_mut(|d| {
        d.reset(zstd::zstd_safe::ResetDirective::SessionOnly).map_err(fail)?;
        let mut out: Vec<u8> = Vec::new();
        let mut input = zstd::zstd_safe::InBuffer::around(bytes);
        let mut seen = 0;
        loop {
            out.reserve(STEP);
            let before = out.len();
            let hint = {
                let mut output = zstd::zstd_safe::OutBuffer::around_pos(&mut out, before);
                d.decompress_stream(&mut output, &mut input).map_err(fail)?
            };
            seen += memchr::memchr_iter(b'\n', &out[before..]).count();
            if hint == 0 || seen >= lines {
                return Ok(out);
            }
            if out.len() == before && input.pos() == bytes.len() {
                return Err(format!("{what}: the frame ends early"));
            }
        }
    })
}

/// Decompresses what `compress` made; every error names `what` was being read.
pub fn decompress(bytes: &[u8], what: &str) -> Result<Vec<u8>, String> {
    // `compress` writes each frame's size in its header.
    match zstd::zstd_safe::get_frame_content_size(bytes) {
        Ok(Some(size)) if size <= 1 << 30 => {
            DECOMPRESSOR.with_borrow_mut(|d| d.decompress(bytes, size as usize)).map_err(|e| format!("{what}: {e}"))
        }
        _ => zstd::stream::decode_all(bytes).map_err(|e| format!("{what}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_of_a_frame_holds_the_lines_asked_and_is_the_start_of_the_whole() {
        // 5,000 lines of varied length (about 300 KB, several of zstd's blocks), a character of two bytes
        // in each so that a step may end inside one.
        let text: String = (0..5000)
            .map(|i| format!("{{\"seq\":{i},\"name\":\"Ayşe\",\"pad\":\"{}\"}}\n", "x".repeat(i % 97)))
            .collect();
        let packed = compress(text.as_bytes());
        for lines in [1, 2, 99, 100, 101, 2500, 4999, 5000] {
            let start = decompress_lines(&packed, lines, "test").unwrap();
            assert!(text.as_bytes().starts_with(&start), "{lines}: not the start");
            let whole_lines = start.iter().filter(|&&b| b == b'\n').count();
            assert!(whole_lines >= lines, "{lines} asked, {whole_lines} given");
            assert!(start.len() < text.len() || lines > 4900, "{lines}: the whole frame read for a start");
        }
        // More lines than the frame has: the whole of it.
        assert_eq!(decompress_lines(&packed, 9999, "test").unwrap(), text.as_bytes());
        // A frame cut short says so.
        let cut = &packed[..packed.len() / 2];
        assert!(decompress_lines(cut, 5000, "the lines").unwrap_err().starts_with("the lines"));
    }
}
