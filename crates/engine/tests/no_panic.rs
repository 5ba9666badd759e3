//! Reading never panics: any corruption of a real log gives a log or an error naming a line.

use almanac_engine::read_log;
use proptest::prelude::*;
use std::path::Path;

fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples").join(name)).unwrap()
}

/// Replaces a stretch of the text with other bytes (kept as text).
fn corrupt(text: &str, at: usize, len: usize, with: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = at % chars.len().max(1);
    let end = (at + len).min(chars.len());
    chars.splice(at..end, with.chars());
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_corrupted_log_is_read_or_rejected_never_a_panic(
        which in 0usize..4,
        at in any::<usize>(),
        len in 0usize..40,
        with in "[\\\\\\]\\[{}\":,0-9a-zA-Z_ .-]{0,12}",
    ) {
        let name = ["catan-club-game.jsonl", "catan-helpers.jsonl", "catan-six-players.jsonl", "carcassonne-traders-builders.jsonl"][which];
        let text = corrupt(&sample(name), at, len, &with);
        match read_log(&text) {
            Ok(_) => {}
            Err(e) => prop_assert!(e.line() >= 1 && !e.reason().is_empty()),
        }
    }
}
