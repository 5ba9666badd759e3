//! The almanac/1 log envelope: one JSON object per line, a header first, then one event per line.
//!
//! The envelope is what every ruleset shares (format, ruleset id, players, optional metadata).
//! Everything else in the header (options, board, deck) belongs to the ruleset and is read by it.

use serde::{Deserialize, Serialize};

/// The format tag of the header line.
pub const FORMAT: &str = "almanac/1";

/// One player in seat order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerEntry {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
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
}

impl Envelope {
    /// Reads and checks the shared part of a header line.
    pub fn parse(header_line: &str) -> Result<Envelope, LogError> {
        let value: serde_json::Value = serde_json::from_str(header_line).map_err(|e| LogError::NotALog {
            line: 1,
            reason: format!("the first line must be an almanac/1 header (a JSON object), but it is not JSON: {e}"),
        })?;
        if !value.is_object() {
            return Err(LogError::NotALog {
                line: 1,
                reason: "the first line must be a JSON object (the header)".into(),
            });
        }
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(LogError::Header {
                    line: 1,
                    reason: format!("unsupported format `{other}`; this version reads `{FORMAT}`"),
                })
            }
            None => {
                return Err(LogError::NotALog {
                    line: 1,
                    reason: format!("the header has no `format` field; expected \"format\": \"{FORMAT}\""),
                })
            }
        }
        let envelope: Envelope =
            serde_json::from_value(value).map_err(|e| LogError::Header { line: 1, reason: format!("header: {e}") })?;
        if envelope.players.is_empty() {
            return Err(LogError::Header { line: 1, reason: "header: `players` is empty".into() });
        }
        for (i, p) in envelope.players.iter().enumerate() {
            if p.name.trim().is_empty() {
                return Err(LogError::Header {
                    line: 1,
                    reason: format!("header: player {} has an empty name", i + 1),
                });
            }
            if envelope.players[..i].iter().any(|q| q.name == p.name) {
                return Err(LogError::Header {
                    line: 1,
                    reason: format!("header: two players are named `{}`", p.name),
                });
            }
        }
        Ok(envelope)
    }
}

/// Why a log was rejected. Every variant names the line (1 = the header).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LogError {
    #[error("line 1: the file is empty; a game log starts with an almanac/1 header line")]
    Empty,
    #[error("line {line}: {reason}")]
    NotALog { line: usize, reason: String },
    #[error("line {line}: {reason}")]
    Header { line: usize, reason: String },
    #[error("line {line}: unknown ruleset `{ruleset}` (known: {known})")]
    UnknownRuleset { line: usize, ruleset: String, known: String },
    #[error("line {line}: malformed JSON: {reason}")]
    Json { line: usize, reason: String },
    #[error("line {line}: {reason}")]
    Event { line: usize, reason: String },
    #[error("line {line}: {reason}")]
    Rule { line: usize, reason: String },
}

impl LogError {
    pub fn line(&self) -> usize {
        match self {
            LogError::Empty => 1,
            LogError::NotALog { line, .. }
            | LogError::Header { line, .. }
            | LogError::UnknownRuleset { line, .. }
            | LogError::Json { line, .. }
            | LogError::Event { line, .. }
            | LogError::Rule { line, .. } => *line,
        }
    }

    /// The message without the `line N: ` prefix.
    pub fn reason(&self) -> String {
        let full = self.to_string();
        match full.split_once(": ") {
            Some((_, rest)) => rest.to_string(),
            None => full,
        }
    }

    /// True when the file is not readable as a log at all (malformed), false when it broke a rule.
    pub fn is_malformed(&self) -> bool {
        !matches!(self, LogError::Rule { .. })
    }
}

/// Splits a log into its non-blank lines with their 1-based line numbers.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r'))).filter(|(_, l)| !l.trim().is_empty())
}

/// Words for a JSON error in an event line: `malformed JSON: ...` for a line that is not JSON (the
/// timeline reports it as `LogError::Json`), `event: ...` for a JSON value of the wrong shape.
pub fn event_json_error(e: serde_json::Error) -> String {
    if e.is_syntax() || e.is_eof() {
        format!("malformed JSON: {e}")
    } else {
        format!("event: {e}")
    }
}
