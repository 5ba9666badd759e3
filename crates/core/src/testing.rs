//! For the games' tests (feature `testing`): a small seeded generator for the random legal players of the
//! property tests and samples, so that a failing seed replays exactly; and the two steps of a rule test,
//! an event line applied or refused; the properties every game's random games are held to (`replayed`,
//! `score_facts_add_up`, `one_pass_and_event_by_event`). Nothing in a ruleset uses it.

use crate::{Fact, Ruleset, Seat};
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

    /// One of the things counted, each as likely as its count (a random card of a hand); none when the
    /// counts are all 0.
    pub fn counted<T>(&mut self, counts: impl Iterator<Item = (T, u32)>) -> Option<T> {
        let counts: Vec<(T, u32)> = counts.collect();
        let total: u32 = counts.iter().map(|(_, n)| n).sum();
        if total == 0 {
            return None;
        }
        let mut k = self.below(total as usize) as u32;
        for (thing, n) in counts {
            if k < n {
                return Some(thing);
            }
            k -= n;
        }
        None
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
    crate::EventOf<R>: PartialEq + Debug,
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
    crate::EventOf<R>: PartialEq + Debug,
{
    let before = format!("{state:?}");
    match act::<R>(state, line) {
        Ok(_) => panic!("{line} was accepted; expected a refusal about `{words}`"),
        Err(why) => assert!(why.contains(words), "{line}: `{why}` does not say `{words}`"),
    }
    assert_eq!(format!("{state:?}"), before, "a refused event changes nothing");
}

/// A club of 300 players for generated corpora: 30 first names from the rule sources' countries, each with
/// ten initials.
pub fn club() -> Vec<String> {
    const FIRST: [&str; 30] = [
        "Ayşe", "Mehmet", "Zeynep", "Emre", "Elif", "Burak", "Selin", "Kerem", "Deniz", "Ece", "Hanne", "Gitte",
        "Mads", "Freja", "Jens", "Sofie", "Lars", "Ida", "Aino", "Veikko", "Helmi", "Eero", "Linnea", "Onni", "Maria",
        "Tomás", "Jonas", "Nora", "Pablo", "Yuki",
    ];
    FIRST.iter().flat_map(|f| "ABCDEFGHKL".chars().map(move |i| format!("{f} {i}."))).collect()
}

/// The players of one generated table: `count` different members of the club, drawn by `seed`.
pub fn table(seed: u64, count: usize) -> Vec<String> {
    let mut members = club();
    SeededRng::new(seed ^ 0x7ab1e).shuffle(&mut members);
    members.truncate(count);
    members
}

/// A day in 2025 or 2026, drawn by `seed`, so that a corpus spans months.
pub fn played_on(seed: u64) -> String {
    let mut r = SeededRng::new(seed ^ 0xda7e);
    format!("{}-{:02}-{:02}", 2025 + r.below(2), 1 + r.below(12), 1 + r.below(28))
}

/// The program that plays a generated game's every seat, as its header names it.
pub const GENERATED_BY: &str = "random legal play";

/// The header of a generated corpus's game `seed` of `ruleset`: `seats` members of the club in `colours`, a
/// title and a day drawn from the seed; the game's own fields (a board, options) follow, in `fields`' order.
/// Every seat says a program played it (`GENERATED_BY`): random play is no person's, and counts in no
/// people's numbers or win-chance model.
pub fn club_header(
    ruleset: &str,
    seed: u64,
    seats: usize,
    colours: &[&str],
    fields: serde_json::Value,
) -> serde_json::Value {
    let players: Vec<serde_json::Value> = table(seed, seats)
        .iter()
        .zip(colours)
        .map(|(n, c)| serde_json::json!({"name": n, "color": c, "bot": true, "program": GENERATED_BY}))
        .collect();
    let mut header = serde_json::json!({
        "format": "almanac/1", "ruleset": ruleset, "title": format!("Generated game {seed}"),
        "date": played_on(seed), "club": "Generated club", "players": players,
    });
    if let (Some(header), serde_json::Value::Object(fields)) = (header.as_object_mut(), fields) {
        header.extend(fields);
    }
    header
}

/// What an example's `corpus N DIR [FIRST]` arguments ask: `games` games from seed `first`, a file each in
/// `dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    pub games: u64,
    pub dir: std::path::PathBuf,
    pub first: u64,
}

impl Corpus {
    /// `Some` when the arguments (the program's name first) begin with `corpus`.
    pub fn from_args(args: &[String]) -> Option<Corpus> {
        if args.get(1).map(String::as_str) != Some("corpus") {
            return None;
        }
        let games = args.get(2).and_then(|n| n.parse().ok()).expect("corpus N DIR [FIRST]: N games");
        let dir = args.get(3).map(std::path::PathBuf::from).expect("corpus N DIR [FIRST]: a folder");
        let first = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(1);
        Some(Corpus { games, dir, first })
    }

    pub fn seeds(&self) -> std::ops::Range<u64> {
        self.first..self.first + self.games
    }
}

/// A sample program (a game crate's `examples/*_sample.rs`): `corpus N DIR [FIRST]` writes each seed's game
/// (`generated(seed)`, a log's text) to `DIR/{ruleset}-{seed:06}.jsonl`; otherwise `SEED [WORDS...]` prints
/// the game `one(seed, words)` writes (seed 7 when none is given).
pub fn sample_program(ruleset: &str, generated: impl Fn(u64) -> String, one: impl Fn(u64, &[String]) -> String) {
    let args: Vec<String> = std::env::args().collect();
    if let Some(corpus) = Corpus::from_args(&args) {
        std::fs::create_dir_all(&corpus.dir).unwrap();
        for seed in corpus.seeds() {
            std::fs::write(corpus.dir.join(format!("{ruleset}-{seed:06}.jsonl")), generated(seed)).unwrap();
        }
        return;
    }
    let seed: u64 = args.get(1).map(|s| s.parse().expect("SEED: a whole number")).unwrap_or(7);
    print!("{}", one(seed, args.get(2..).unwrap_or_default()));
}

/// The state after `event`, or none where the rules refuse it: how a generator tries a move.
pub fn tried<S: crate::Rules>(state: &S, event: &S::Event) -> Option<S> {
    let mut next = state.clone();
    next.apply(event, &mut Vec::new()).ok().map(|_| next)
}

/// The state after an event a generator chose as legal: a refusal is the generator's mistake, told with
/// the rule's words.
pub fn chosen<S: crate::Rules>(state: &S, event: &S::Event) -> S
where
    S::Event: Debug,
{
    let mut next = state.clone();
    match next.apply(event, &mut Vec::new()) {
        Ok(()) => next,
        Err(why) => panic!("the generator chose an illegal event: {event:?}: {why}"),
    }
}

/// A generated game as its log (the header line, then each event written at the state before it), and the
/// state after the last event.
pub fn written<R: Ruleset, E: Clone + Into<crate::EventOf<R>>>(header_line: &str, events: &[E]) -> (String, R::State) {
    use crate::{Line, Rules};
    let mut state = R::initial(header_line).expect("a header the ruleset reads");
    let mut text = format!("{header_line}\n");
    for e in events.iter().cloned().map(Into::into) {
        text.push_str(&e.write(&state));
        text.push('\n');
        state.apply(&e, &mut Vec::new()).expect("a legal event");
    }
    (text, state)
}

/// What a sample program says of the game it wrote: its length and its winner.
pub fn summary<R: Ruleset>(state: &R::State, events: usize) -> String
where
    R::State: crate::Seated,
{
    use crate::{Played, Seated};
    let winner = state.name_of(state.winner());
    format!("{events} events, {} turns, winner {winner:?}", state.turn())
}

/// The fingerprint of the game that `events` play from `header` (see [`crate::fingerprint`]): what a
/// spectator's log of the same game must share with the full one.
pub fn fingerprint<R: crate::Ruleset>(header_line: &str, events: &[crate::EventOf<R>]) -> String {
    use crate::Game;
    let envelope = crate::Envelope::parse(header_line).expect("a header with an envelope");
    let mut game = crate::Timeline::<R>::start(envelope, header_line).expect("a header the ruleset reads");
    for (i, e) in events.iter().enumerate() {
        game.push(i + 2, e.clone()).expect("a legal event");
    }
    game.fingerprint()
}

/// A generated game replayed from its header, the properties every game's random games are held to along
/// the way: each event, written at the state before it, reads back as the same event, and is accepted. The
/// state after each event with its facts; a panic names the event that broke either promise.
pub fn replayed<R: Ruleset, E: Clone + Into<crate::EventOf<R>>>(
    header_line: &str,
    events: &[E],
) -> Vec<(R::State, Vec<Fact>)> {
    use crate::{Line, Rules};
    let mut state = R::initial(header_line).expect("a header the ruleset reads");
    let mut out = Vec::with_capacity(events.len());
    for (i, e) in events.iter().cloned().map(Into::into).enumerate() {
        let line = e.write(&state);
        let read = crate::EventOf::<R>::parse(&state, &line).unwrap_or_else(|err| panic!("event {i} `{line}`: {err}"));
        assert!(read == e, "event {i} `{line}` reads back as another event");
        let mut facts = Vec::new();
        state.apply(&e, &mut facts).unwrap_or_else(|v| panic!("event {i} `{line}`: {v}"));
        out.push((state.clone(), facts));
    }
    out
}

/// Whether the score facts of a game replayed from `header_line` keep their promise: each `Score` fact's
/// total is its player's deltas so far (the opening's facts first), and every seat's sum ends as `score`
/// says of the last state. The first promise broken, in words.
pub fn score_facts_add_up<R: Ruleset>(
    header_line: &str,
    steps: &[(R::State, Vec<Fact>)],
    score: impl Fn(&R::State, Seat) -> i32,
) -> Result<(), String>
where
    R::State: crate::Seated,
{
    use crate::Seated;
    let mut opening = Vec::new();
    R::opening_facts(&R::initial(header_line).expect("a header the ruleset reads"), &mut opening);
    let mut sums: Vec<i32> = Vec::new();
    let facts = opening
        .iter()
        .map(|f| (0, f))
        .chain(steps.iter().enumerate().flat_map(|(i, (_, fs))| fs.iter().map(move |f| (i, f))));
    for (i, fact) in facts {
        if let Fact::Score { player, delta, total, .. } = fact {
            let p = *player as usize;
            sums.resize(sums.len().max(p + 1), 0);
            sums[p] += delta;
            if sums[p] != *total {
                return Err(format!("event {i}: seat {p}'s score facts add up to {}, the fact says {total}", sums[p]));
            }
        }
    }
    if let Some((last, _)) = steps.last() {
        for seat in last.seats() {
            let (sum, shown) = (sums.get(seat as usize).copied().unwrap_or(0), score(last, seat));
            if shown != sum {
                return Err(format!("seat {seat}'s score facts add up to {sum}, its score is {shown}"));
            }
        }
    }
    Ok(())
}

/// The state after the first `n` events of a game asked of a timeline built in one pass (from its nearest
/// snapshot) and the state reached by applying them one by one, both as `Debug` text: to be equal.
pub fn one_pass_and_event_by_event<R: Ruleset, E: Clone + Into<crate::EventOf<R>>>(
    header_line: &str,
    events: &[E],
    n: usize,
) -> (String, String)
where
    R::State: Debug,
{
    use crate::Rules;
    let envelope = crate::Envelope::parse(header_line).expect("a header with an envelope");
    let mut timeline = crate::Timeline::<R>::start(envelope, header_line).expect("a header the ruleset reads");
    for (i, e) in events.iter().cloned().enumerate() {
        timeline.push(i + 2, e.into()).expect("a legal event");
    }
    let mut state = R::initial(header_line).expect("a header the ruleset reads");
    for e in events[..n].iter().cloned().map(Into::into) {
        state.apply(&e, &mut Vec::new()).expect("a legal event");
    }
    (format!("{:?}", timeline.state_after(n)), format!("{state:?}"))
}

/// The repository's root (where `data/` and `tests/` are), for tests that read its records.
pub fn repository() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files in a folder of the repository, sorted.
pub fn files_in(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> =
        std::fs::read_dir(repository().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// Every game's sample log: the demo games of `data/samples` (what `make run` seeds), and the sample of a
/// game registered only in the tests, which a build without it could not seed (`crates/<game>/sample.jsonl`).
pub fn every_sample() -> Vec<std::path::PathBuf> {
    let mut all = files_in("data/samples");
    all.extend(files_in("crates").into_iter().map(|c| c.join("sample.jsonl")).filter(|f| f.is_file()));
    all
}

/// Every sample log and every record of another program the repository keeps (each folder of `tests/data`,
/// its notes and indexes left out): what the tests across games hold every game to.
pub fn every_record() -> Vec<std::path::PathBuf> {
    let mut all = every_sample();
    for dir in files_in("tests/data").into_iter().filter(|d| d.is_dir()) {
        let name = dir.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        all.extend(files_in(&format!("tests/data/{name}")));
    }
    // A folder inside one (records kept because they are refused) holds no record of the corpus.
    all.retain(|f| f.is_file() && !matches!(f.extension().and_then(|e| e.to_str()), Some("md" | "tsv")));
    all
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

    #[test]
    fn a_generated_table_has_different_members_of_a_club_of_three_hundred() {
        let club = club();
        assert_eq!(club.iter().collect::<std::collections::BTreeSet<_>>().len(), 300);
        let t = table(5, 6);
        assert_eq!(t.iter().collect::<std::collections::BTreeSet<_>>().len(), 6);
        assert!(t.iter().all(|n| club.contains(n)));
        assert_eq!(table(5, 6), t);
        assert_ne!(table(6, 6), t);
        assert!(played_on(3).starts_with("202"));
    }
}
