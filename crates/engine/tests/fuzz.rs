//! The fuzz harness: every log reader and every ruleset, fed mutations of real records, answers with a game
//! or an error naming a line, and never panics. Its corpus is every sample (`data/samples`) and every other
//! program's record among the test data (`tests/data`); proptest mutates them (stretches of text replaced,
//! lines dropped, doubled, swapped, truncated, numbers changed, a byte-order mark, CRLF line ends) and
//! shrinks a failure to a small reproducible case.
//!
//! `make test` runs a bounded number of cases; `ALMANAC_FUZZ_CASES=20000 cargo test -p almanac-engine --test
//! fuzz --release` (or `make fuzz`) runs longer.

use almanac_engine::{formats, validate, validate_as, Format, Reading, Viewpoint};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every record of the corpus, read once.
fn corpus() -> &'static [(String, String)] {
    static CORPUS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut files = Vec::new();
        for dir in ["data/samples", "tests/data/catanatron", "tests/data/jcloisterzone", "tests/data/jsettlers"] {
            for entry in std::fs::read_dir(root().join(dir)).unwrap() {
                let path = entry.unwrap().path();
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if ["jsonl", "json", "jcz", "soclog"].contains(&ext) {
                    let name = path.strip_prefix(root()).unwrap().display().to_string();
                    files.push((name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        files.sort();
        assert!(files.len() > 40, "the corpus is the samples and the test records");
        files
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Replace {
        at: usize,
        len: usize,
        with: String,
    },
    DropLine(usize),
    DoubleLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
    /// Adds `delta` to the `nth` number in the text.
    ChangeNumber {
        nth: usize,
        delta: i64,
    },
    ByteOrderMark,
    CrLf,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 0usize..40, "[\\\\\\]\\[{}\":,0-9a-zA-Z_ .:|=-]{0,12}")
            .prop_map(|(at, len, with)| Mutation::Replace { at, len, with }),
        2 => any::<usize>().prop_map(Mutation::DropLine),
        1 => any::<usize>().prop_map(Mutation::DoubleLine),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        3 => (any::<usize>(), -3i64..=3).prop_map(|(nth, delta)| Mutation::ChangeNumber { nth, delta }),
        1 => Just(Mutation::ByteOrderMark),
        1 => Just(Mutation::CrLf),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.len().max(1);
    match m {
        Mutation::Replace { at, len, with } => {
            let mut chars: Vec<char> = text.chars().collect();
            let at = at % chars.len().max(1);
            let end = (at + len).min(chars.len());
            chars.splice(at..end, with.chars());
            chars.into_iter().collect()
        }
        Mutation::DropLine(k) => {
            if !lines.is_empty() {
                lines.remove(k % n);
            }
            lines.join("\n")
        }
        Mutation::DoubleLine(k) => {
            if let Some(l) = lines.get(k % n).copied() {
                lines.insert(k % n, l);
            }
            lines.join("\n")
        }
        Mutation::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
            lines.join("\n")
        }
        Mutation::Truncate(at) => text.chars().take(at % (text.chars().count() + 1)).collect(),
        Mutation::ChangeNumber { nth, delta } => {
            let spans: Vec<(usize, usize)> = number_spans(text);
            if spans.is_empty() {
                return text.to_string();
            }
            let (start, end) = spans[nth % spans.len()];
            let value: i64 = text[start..end].parse().unwrap_or(0);
            format!("{}{}{}", &text[..start], value.saturating_add(*delta), &text[end..])
        }
        Mutation::ByteOrderMark => format!("\u{feff}{text}"),
        Mutation::CrLf => text.replace('\n', "\r\n"),
    }
}

/// Where the runs of ASCII digits are.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 18 {
                i += 1;
            }
            spans.push((start, i));
        }
        i += 1;
    }
    spans
}

/// Reads a text every way a user can: format guessed, each format named, and the views of a record that
/// knows every hand. Each answer is a game or an error naming a line and a reason.
fn read_every_way(text: &str) -> Result<(), TestCaseError> {
    let mut readings = vec![Reading { format: None, view: Viewpoint::Full }];
    readings.extend(formats().into_iter().map(|f| Reading { format: Some(f), view: Viewpoint::Full }));
    for view in [Viewpoint::Observer, Viewpoint::Seat(1)] {
        readings
            .extend(formats().into_iter().filter(|f| *f != Format::Almanac).map(|f| Reading { format: Some(f), view }));
    }
    for reading in readings {
        match validate_as(reading, text) {
            Ok(log) => {
                // What was accepted reads back as the same game from its almanac/1 text.
                let again = validate(Some(Format::Almanac), &log.text).map_err(|e| {
                    TestCaseError::fail(format!("{reading:?}: accepted, but its almanac/1 text is not: {e}"))
                })?;
                prop_assert_eq!(again.game.event_count(), log.game.event_count());
                prop_assert_eq!(again.content_hash(), log.content_hash());
            }
            Err(e) => {
                prop_assert!(e.line() >= 1, "{:?}: line 0", reading);
                prop_assert!(!e.reason().trim().is_empty(), "{:?}: an empty reason", reading);
            }
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("ALMANAC_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_record_is_read_or_refused_by_line_never_a_panic(
        which in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let (_, text) = &corpus()[which % corpus().len()];
        let mut text = text.clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        read_every_way(&text)?;
    }
}

#[test]
fn every_record_of_the_corpus_is_read_every_way_without_a_panic() {
    for (name, text) in corpus() {
        read_every_way(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
