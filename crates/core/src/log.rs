//! The almanac/1 log envelope: one JSON object per line, a header first, then one event per line.
//!
//! The envelope is what every ruleset shares (format, ruleset id, players, optional metadata).
//! Everything else in the header (options, board, deck) belongs to the ruleset and is read by it.

use crate::ruleset::RuleViolation;
use serde::{Deserialize, Serialize};

/// The format tag of the header line.
pub const FORMAT: &str = "almanac/1";

/// Sizes no real game comes near (the longest game seen, a bot game of 3,131 events, has lines
/// of 2.3 KB), so that one upload cannot take a server's memory. Documented in `docs/clubs.md`.
pub mod limits {
    /// Events in one game.
    pub const MAX_EVENTS: usize = 50_000;
    /// Bytes in one line (the header or an event).
    pub const MAX_LINE_BYTES: usize = 64 * 1024;
    /// Characters in the header's title, date, club and location.
    pub const MAX_FIELD_CHARS: usize = 200;
    /// Characters in a player's name (and colour).
    pub const MAX_NAME_CHARS: usize = 64;
}

/// A title for a game whose record names it only by a program's id (`~botsOnly~7`, a save number): the
/// table it was, in words, from what the record says. "Four players: Ayşe, Bora, Can and Deniz, 2026-11-03".
pub fn table_title(players: &[&str], date: Option<&str>) -> String {
    const COUNTS: [&str; 9] = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight"];
    let count = COUNTS.get(players.len()).map_or_else(|| players.len().to_string(), |c| c.to_string());
    let mut title = format!("{count} player{}", if players.len() == 1 { "" } else { "s" });
    let named: Vec<&str> = players.iter().take(4).copied().collect();
    if let Some((last, first)) = named.split_last() {
        let more = players.len() - named.len();
        title.push_str(": ");
        if more > 0 {
            title.push_str(&format!("{}, {last} and {more} more", first.join(", ")));
        } else if first.is_empty() {
            title.push_str(last);
        } else {
            title.push_str(&format!("{} and {last}", first.join(", ")));
        }
    }
    if let Some(d) = date.filter(|d| !d.is_empty()) {
        title.push_str(&format!(", {d}"));
    }
    title
}

/// One player in seat order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerEntry {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// The seat was played by a program (a bot), as the record says: not a person, so left out of people's
    /// leaderboards and "who" questions unless asked for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The program that played the seat, where the record names it (a bot's own name: a seat colour is not
    /// a player, the program is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
}

/// The part of the header every ruleset shares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub format: String,
    pub ruleset: String,
    pub players: Vec<PlayerEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When the game was played, as the recorder wrote it (ISO 8601 date preferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// An id of its own a recorder gives each game it begins at a table: two games begun alike (the same
    /// players, board, title, date and place) are two games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
}

impl Envelope {
    /// Reads and checks the shared part of a header line (a game reads its own part, `Ruleset::header`).
    pub fn parse(header_line: &str) -> Result<Envelope, LogError> {
        if header_line.len() > limits::MAX_LINE_BYTES {
            return Err(LogError::new(
                1,
                Problem::Limit(format!(
                    "the header is {} bytes long; a line has at most {} bytes",
                    header_line.len(),
                    limits::MAX_LINE_BYTES
                )),
            ));
        }
        if holds_nul(header_line) {
            return Err(LogError::new(1, Problem::Nul));
        }
        // Nearly every header is well formed: it is read straight into the envelope, and read as a JSON value
        // first only to say what is wrong with one that is not (serde would read a list as the fields in order:
        // only an object is read straight).
        let direct = (header_line.trim_start().starts_with('{'))
            .then(|| serde_json::from_str::<Envelope>(header_line).ok())
            .flatten()
            .filter(|e| e.format == FORMAT);
        let envelope = match direct {
            Some(envelope) => envelope,
            None => {
                let value: serde_json::Value = serde_json::from_str(header_line).map_err(|e| {
                    LogError::not_a_log(format!(
                        "the first line must be an almanac/1 header (a JSON object), but it is not JSON: {}",
                        crate::ruleset::json_reason(&e)
                    ))
                })?;
                if !value.is_object() {
                    return Err(LogError::not_a_log("the first line must be a JSON object (the header)"));
                }
                match value.get("format").and_then(|f| f.as_str()) {
                    Some(FORMAT) => {}
                    Some(other) => {
                        return Err(LogError::header(format!(
                            "unsupported format `{other}`; this version reads `{FORMAT}`"
                        )))
                    }
                    None => {
                        return Err(LogError::not_a_log(format!(
                            "the header has no `format` field; expected \"format\": \"{FORMAT}\""
                        )))
                    }
                }
                Envelope::deserialize(&value)
                    .map_err(|e| LogError::header(format!("header: {}", crate::ruleset::json_reason(&e))))?
            }
        };
        if envelope.players.is_empty() {
            return Err(LogError::header("header: `players` is empty"));
        }
        let fields = [
            ("title", &envelope.title),
            ("date", &envelope.date),
            ("club", &envelope.club),
            ("location", &envelope.location),
            ("table", &envelope.table),
        ];
        for (name, value) in fields {
            let chars = value.as_deref().map_or(0, |v| v.chars().count());
            if chars > limits::MAX_FIELD_CHARS {
                return Err(LogError::new(
                    1,
                    Problem::Limit(format!(
                        "header: `{name}` has {chars} characters; at most {}",
                        limits::MAX_FIELD_CHARS
                    )),
                ));
            }
        }
        for (i, p) in envelope.players.iter().enumerate() {
            for (what, text) in [("name", Some(&p.name)), ("colour", p.color.as_ref())] {
                let chars = text.map_or(0, |t| t.chars().count());
                if chars > limits::MAX_NAME_CHARS {
                    return Err(LogError::new(
                        1,
                        Problem::Limit(format!(
                            "header: player {}'s {what} has {chars} characters; at most {}",
                            i + 1,
                            limits::MAX_NAME_CHARS
                        )),
                    ));
                }
            }
            // A name of blanks (spaces, a braille blank, Hangul fillers) shows nothing.
            if crate::fold_name(&p.name).is_empty() {
                return Err(LogError::header(format!("header: player {} has an empty name", i + 1)));
            }
            // Names are one player's in any case (`red` and `RED`), and however they were typed (`Ayşe` with a
            // composed or a combining cedilla, a trailing space, a zero-width space; `Ｃan` or a Cyrillic `а` in
            // `Can`), as identities are.
            let folded = crate::fold_name(&p.name);
            if let Some(q) = envelope.players[..i].iter().find(|q| crate::fold_name(&q.name) == folded) {
                let shown = crate::normalise_name(&p.name);
                return Err(LogError::header(if q.name == p.name {
                    format!("header: two players are named `{}`", p.name)
                } else if crate::normalise_name(&q.name) == shown {
                    format!(
                        "header: `{shown}` is seated twice (players {} and {}: the same name, typed with characters that look alike); give each player a name of their own",
                        envelope.players[..i].iter().position(|r| r.name == q.name).unwrap_or(0) + 1,
                        i + 1
                    )
                } else {
                    format!(
                        "header: `{}` and `{}` name one player in two spellings; give each player a name of their own",
                        q.name, p.name
                    )
                }));
            }
        }
        Ok(envelope)
    }
}

/// Why a log was rejected: the line (1 = the header) and what is wrong there.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct LogError {
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong on a line of a log.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    #[error("the file is empty; a game log starts with an almanac/1 header line")]
    Empty,
    /// The file is not an almanac/1 log at all.
    #[error("{0}")]
    NotALog(String),
    /// The header cannot start a game.
    #[error("{0}")]
    Header(String),
    #[error("unknown ruleset `{ruleset}` (known: {known})")]
    UnknownRuleset { ruleset: String, known: String },
    /// The line is not JSON.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// The line is JSON but not an event of the ruleset (unknown type, missing field, unknown player).
    #[error("{0}")]
    Event(String),
    /// A readable event that the rules forbid here.
    #[error("{0}")]
    Rule(RuleViolation),
    /// Larger than Almanac stores (see [`limits`]).
    #[error("{0}")]
    Limit(String),
    /// A NUL character, written `\u0000` in a JSON string: no database column takes it on both backends
    /// (PostgreSQL's text refuses it), so no backend takes it.
    #[error("this line holds a NUL character (`\\u0000`), which a game log cannot hold")]
    Nul,
}

impl LogError {
    pub fn new(line: usize, problem: Problem) -> LogError {
        LogError { line, problem }
    }

    pub fn empty() -> LogError {
        LogError::new(1, Problem::Empty)
    }

    /// The file is not a log (line 1).
    pub fn not_a_log(reason: impl Into<String>) -> LogError {
        LogError::new(1, Problem::NotALog(reason.into()))
    }

    /// The header cannot start a game (line 1).
    pub fn header(reason: impl Into<String>) -> LogError {
        LogError::new(1, Problem::Header(reason.into()))
    }

    pub fn line(&self) -> usize {
        self.line
    }

    /// What is wrong, without the `line N: ` prefix.
    pub fn reason(&self) -> String {
        self.problem.to_string()
    }

    /// True when the log is larger than Almanac stores (see [`limits`]).
    pub fn is_too_large(&self) -> bool {
        matches!(self.problem, Problem::Limit(_))
    }

    /// True when the file is not readable as a log at all (malformed), false when it broke a rule.
    pub fn is_malformed(&self) -> bool {
        !matches!(self.problem, Problem::Rule(_))
    }
}

/// Whether a line of JSON holds a NUL character: a raw NUL byte, or the escape `\u0000` (a backslash that
/// is not itself escaped, then `u0000`).
pub fn holds_nul(line: &str) -> bool {
    let bytes = line.as_bytes();
    // Most lines hold neither a NUL nor a backslash: one scan, and the walk below only from the first.
    let Some(first) = memchr::memchr2(0, b'\\', bytes) else {
        return false;
    };
    let mut backslashes = 0;
    for (i, &b) in bytes.iter().enumerate().skip(first) {
        if b == 0 {
            return true;
        }
        if b == b'\\' {
            backslashes += 1;
            continue;
        }
        if backslashes % 2 == 1 && bytes[i..].starts_with(b"u0000") {
            return true;
        }
        backslashes = 0;
    }
    false
}

/// Splits a log into its non-blank lines with their 1-based line numbers.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r'))).filter(|(_, l)| !l.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_titled_by_who_sat_at_it_and_when() {
        assert_eq!(table_title(&["Ayşe", "Bora"], Some("2026-11-03")), "Two players: Ayşe and Bora, 2026-11-03");
        assert_eq!(table_title(&["A", "B", "C", "D"], None), "Four players: A, B, C and D");
        assert_eq!(
            table_title(&["robot 14", "robot 9", "robot 11", "robot 6", "robot 8", "robot 13"], Some("2026-11-30")),
            "Six players: robot 14, robot 9, robot 11, robot 6 and 2 more, 2026-11-30"
        );
        assert_eq!(table_title(&["Solo"], Some("")), "One player: Solo");
    }

    /// A header is read straight into its envelope only when it is a well-formed object: anything else is
    /// refused with what is wrong with it, as before that shortcut.
    #[test]
    fn a_header_is_an_object_of_the_format_or_is_refused_for_what_it_is() {
        let ok = r#"{"format":"almanac/1","ruleset":"a-game","players":[{"name":"Ana"}],"board":{"any":[1,2]}}"#;
        let envelope = Envelope::parse(ok).unwrap();
        assert_eq!((envelope.ruleset.as_str(), envelope.players[0].name.as_str()), ("a-game", "Ana"));
        let refused = |line: &str| Envelope::parse(line).unwrap_err().problem.to_string();
        // The same fields in a list, which serde would read in order into the envelope's fields.
        assert!(refused(r#"["almanac/1","a-game",[{"name":"Ana"}]]"#).contains("must be a JSON object"));
        assert!(refused(r#"{"format":"almanac/2","ruleset":"a-game","players":[{"name":"Ana"}]}"#)
            .contains("unsupported format `almanac/2`"));
        assert!(refused(r#"{"ruleset":"a-game","players":[{"name":"Ana"}]}"#).contains("has no `format` field"));
        // A field twice: JSON's last one counts, as it did.
        let twice = r#"{"format":"almanac/1","ruleset":"other","ruleset":"a-game","players":[{"name":"Ana"}]}"#;
        assert_eq!(Envelope::parse(twice).unwrap().ruleset, "a-game");
    }

    #[test]
    fn a_header_naming_one_player_twice_in_two_spellings_is_refused() {
        let header = |a: &str, b: &str| {
            format!(r#"{{"format":"almanac/1","ruleset":"a-game","players":[{{"name":"{a}"}},{{"name":"{b}"}}]}}"#)
        };
        let look_alike = [("Can", "\u{FF23}an"), ("Can", "C\u{430}n"), ("Can", "Can\u{2800}")];
        for (a, b) in [("red", "RED"), ("Işıl", "IŞIL"), ("Ömer", "ÖMER")].into_iter().chain(look_alike) {
            let e = Envelope::parse(&header(a, b)).unwrap_err();
            assert_eq!(e.line, 1);
            assert_eq!(
                e.problem.to_string(),
                format!(
                    "header: `{a}` and `{b}` name one player in two spellings; give each player a name of their own"
                )
            );
        }
        assert!(Envelope::parse(&header("red", "red"))
            .unwrap_err()
            .to_string()
            .contains("two players are named `red`"));
        assert!(Envelope::parse(&header("Ömer", "Omer")).is_ok(), "another letter is another name");
        let hidden = Envelope::parse(&header("Can", "Ca\u{34F}n\u{FE0F}")).unwrap_err().to_string();
        assert!(hidden.contains("`Can` is seated twice (players 1 and 2"), "{hidden}");
        assert!(Envelope::parse(&header("Amie", "Arnie")).is_ok(), "ASCII letters are compared as typed");
        let blank = Envelope::parse(&header("Can", "\u{2800}\u{3164}")).unwrap_err().to_string();
        assert!(blank.contains("player 2 has an empty name"), "{blank}");
    }

    #[test]
    fn a_nul_is_found_as_json_reads_it() {
        let lines = [
            (r#"{"name":"a\u0000b"}"#, true),
            (r#"{"name":"a\\u0000b"}"#, false),
            (r#"{"name":"a\\\u0000b"}"#, true),
            (r#"{"name":"u0000"}"#, false),
            (r#"{"name":"\u00001"}"#, true),
            (r#"{"name":"\u0001"}"#, false),
            ("{\"name\":\"a\u{0}b\"}", true),
        ];
        for (line, nul) in lines {
            assert_eq!(holds_nul(line), nul, "{line}");
            // The oracle: what serde_json reads (a raw NUL is not JSON at all).
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                assert_eq!(v["name"].as_str().unwrap().contains('\0'), nul, "{line}");
            }
        }
        let header = r#"{"format":"almanac/1","ruleset":"a-game","players":[{"name":"A\u0000"},{"name":"B"}]}"#;
        assert_eq!(Envelope::parse(header).unwrap_err(), LogError::new(1, Problem::Nul));
    }
}
