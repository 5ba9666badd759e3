//! For the games' tests (feature `testing`): a small seeded generator for the random legal players of the
//! property tests and samples, so that a failing seed replays exactly; and the two steps of a rule test,
//! an event line applied or refused. Nothing in a ruleset uses it.

use crate::{Fact, Ruleset};
use std::fmt::Debug;

/// splitmix64 to spread the seed, then xorshift64*.
pub struct SeededRng(u64);

impl SeededRng {
    pub fn new(seed: u64) -> SeededRng {
        // Nearby seeds give unrelated games.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        SeededRng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Reads `line` as a log gives it and applies it to `state`, which changes only if the event is legal; the
/// line must read back the same after writing. The facts, or the refusal in words.
pub fn act<R: Ruleset>(state: &mut R::State, line: &str) -> Result<Vec<Fact>, String>
where
    R::Event: PartialEq + Debug,
{
    let event = R::parse_event(state, line).map_err(|e| e.to_string())?;
    let again = R::parse_event(state, &R::write_event(state, &event)).expect("a written event reads back");
    assert_eq!(again, event, "written and read again");
    let mut next = state.clone();
    let mut facts = Vec::new();
    R::apply(&mut next, &event, &mut facts).map_err(|v| v.0)?;
    *state = next;
    Ok(facts)
}

/// `line` is refused with words that say `words`, and `state` is left as it was.
pub fn refused<R: Ruleset>(state: &mut R::State, line: &str, words: &str)
where
    R::Event: PartialEq + Debug,
{
    let before = format!("{state:?}");
    match act::<R>(state, line) {
        Ok(_) => panic!("{line} was accepted; expected a refusal about `{words}`"),
        Err(why) => assert!(why.contains(words), "{line}: `{why}` does not say `{words}`"),
    }
    assert_eq!(format!("{state:?}"), before, "a refused event changes nothing");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_and_neighbouring_seeds_differ() {
        let draw = |seed| {
            let mut r = SeededRng::new(seed);
            (0..8).map(|_| r.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let mut r = SeededRng::new(1);
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>(), "a shuffle keeps every element");
        assert_ne!(v, sorted);
    }
}
