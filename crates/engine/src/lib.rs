//! The projection engine: reads a log of any known ruleset, validates it event by event and gives back a
//! [`Game`] (a timeline that answers the state at any turn). Other programs' records are translated by
//! `almanac-formats` first.

use almanac_core::log::{lines, Envelope, LogError};
use almanac_core::timeline::read_events;
use almanac_core::{Game, Ruleset, Timeline};
use almanac_formats::Format;
use serde_json::Value;
use sha2::{Digest, Sha256};

pub use almanac_core;

/// The rulesets this build knows: (id, version).
pub const RULESETS: &[(&str, u32)] = &[
    (almanac_catan::Catan::ID, almanac_catan::Catan::VERSION),
    (almanac_carcassonne::Carcassonne::ID, almanac_carcassonne::Carcassonne::VERSION),
];

/// A log that passed validation, with its text split for storage.
pub struct ValidatedLog {
    pub game: Box<dyn Game>,
    /// The header line as given.
    pub header_line: String,
    /// Each event line as given (trimmed), in order.
    pub event_lines: Vec<String>,
    /// The almanac/1 text the game was read from.
    pub text: String,
}

fn header_of(text: &str) -> Result<(Envelope, Value, &str), LogError> {
    let (_, first) = lines(text).next().ok_or(LogError::Empty)?;
    let envelope = Envelope::parse(first)?;
    let header: Value = serde_json::from_str(first).expect("parsed by Envelope::parse");
    Ok((envelope, header, first))
}

fn start(envelope: Envelope, header: Value) -> Result<Box<dyn Game>, LogError> {
    match envelope.ruleset.as_str() {
        almanac_catan::Catan::ID => Ok(Box::new(Timeline::<almanac_catan::Catan>::start(envelope, header)?)),
        almanac_carcassonne::Carcassonne::ID => {
            Ok(Box::new(Timeline::<almanac_carcassonne::Carcassonne>::start(envelope, header)?))
        }
        other => Err(LogError::UnknownRuleset {
            line: 1,
            ruleset: other.to_string(),
            known: RULESETS.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", "),
        }),
    }
}

/// Reads and validates a whole almanac/1 log.
pub fn read_log(text: &str) -> Result<Box<dyn Game>, LogError> {
    let (envelope, header, _) = header_of(text)?;
    match envelope.ruleset.as_str() {
        // The common case without dynamic dispatch per event.
        almanac_catan::Catan::ID => Ok(Box::new(read_events::<almanac_catan::Catan>(envelope, header, text)?)),
        _ => {
            let mut game = start(envelope, header)?;
            for (no, line) in lines(text).skip(1) {
                game.push_line(no, line)?;
            }
            Ok(game)
        }
    }
}

/// Why a file could not become a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    #[error("{0}")]
    Format(#[from] almanac_formats::FormatError),
    #[error("{0}")]
    Log(#[from] LogError),
    #[error("line 1: cannot tell the format of this file; name it with --format (almanac, catanatron, jcz)")]
    UnknownFormat,
}

impl ImportError {
    pub fn line(&self) -> usize {
        match self {
            ImportError::Format(e) => e.line,
            ImportError::Log(e) => e.line(),
            ImportError::UnknownFormat => 1,
        }
    }

    /// The message without the `line N: ` prefix.
    pub fn reason(&self) -> String {
        match self {
            ImportError::Format(e) => e.reason.clone(),
            ImportError::Log(e) => e.reason(),
            ImportError::UnknownFormat => {
                "cannot tell the format of this file; name it with --format (almanac, catanatron)".into()
            }
        }
    }

    /// A malformed file (as opposed to a readable log that breaks a rule).
    pub fn is_malformed(&self) -> bool {
        match self {
            ImportError::Log(e) => e.is_malformed(),
            _ => true,
        }
    }
}

/// Reads a file of `format` (`None` = guess) and validates it.
pub fn validate(format: Option<Format>, text: &str) -> Result<ValidatedLog, ImportError> {
    if text.trim().is_empty() {
        return Err(LogError::Empty.into());
    }
    let format = match format {
        Some(f) => f,
        None => almanac_formats::detect(text).ok_or(ImportError::UnknownFormat)?,
    };
    let text = almanac_formats::to_almanac(format, text)?;
    let game = read_log(&text)?;
    let mut it = lines(&text);
    let header_line = it.next().map(|(_, l)| l.trim().to_string()).unwrap_or_default();
    let event_lines = it.map(|(_, l)| l.trim().to_string()).collect();
    Ok(ValidatedLog { game, header_line, event_lines, text })
}

/// The content hash that makes the same log one game: SHA-256 of the almanac/1 lines (blank lines and
/// trailing white space ignored), as hex.
pub fn content_hash(header_line: &str, event_lines: &[String]) -> String {
    let mut h = Sha256::new();
    h.update(header_line.as_bytes());
    for l in event_lines {
        h.update(b"\n");
        h.update(l.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
