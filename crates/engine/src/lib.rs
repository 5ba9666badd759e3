//! The registry of games, and reading through it: a log of any known ruleset, or another program's record
//! of any known game, becomes a validated [`Game`] (a timeline that answers the state at any turn).
//!
//! [`GAMES`] is the one list of games in Almanac. Pages, the API, the CLI and charts iterate over it; a new
//! game is one crate and one line here.

use almanac_core::log::{lines, Envelope, LogError, Problem};
pub use almanac_core::Viewpoint;
use almanac_core::{FormatError, Game, GameKind, Importer};

pub use almanac_core;

/// Every game this build knows: one line each.
#[rustfmt::skip]
pub static GAMES: &[&dyn GameKind] = &[
    &almanac_catan::Catan,
    &almanac_carcassonne::Carcassonne,
    &almanac_catan_cards::CatanCards,
    &almanac_cities_knights::CitiesKnights,
    &almanac_elasund::Elasund,
    #[cfg(feature = "toy-game")]
    &almanac_toy_game::Race,
];

/// The game of a ruleset id.
pub fn game_kind(id: &str) -> Option<&'static dyn GameKind> {
    GAMES.iter().copied().find(|g| g.id() == id)
}

/// The known ruleset ids, for messages.
fn known_rulesets() -> String {
    GAMES.iter().map(|g| g.id()).collect::<Vec<_>>().join(", ")
}

/// What a file is written in: our own log format, or a record of another program that a game imports.
#[derive(Clone, Copy)]
pub enum Format {
    Almanac,
    Foreign(&'static Importer),
}

impl Format {
    /// The name `--format` and `?format=` take.
    pub fn name(&self) -> &'static str {
        match self {
            Format::Almanac => "almanac",
            Format::Foreign(i) => i.name,
        }
    }

    /// What it is, for people.
    pub fn label(&self) -> &'static str {
        match self {
            Format::Almanac => "almanac/1 log",
            Format::Foreign(i) => i.label,
        }
    }
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.name() == other.name()
    }
}

/// Every format a file may be in: ours first, then each game's importers.
pub fn formats() -> Vec<Format> {
    let mut all = vec![Format::Almanac];
    all.extend(GAMES.iter().flat_map(|g| g.importers().iter().map(Format::Foreign)));
    all
}

/// The format called `name`.
pub fn format(name: &str) -> Option<Format> {
    formats().into_iter().find(|f| f.name() == name)
}

/// The names of every format, for messages and menus.
pub fn format_names() -> Vec<&'static str> {
    formats().iter().map(|f| f.name()).collect()
}

/// Guesses the format of a file from its first bytes.
pub fn detect(text: &str) -> Option<Format> {
    let end = text.char_indices().nth(4096).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let foreign = formats().into_iter().find(|f| matches!(f, Format::Foreign(i) if (i.recognises)(head)));
    foreign.or_else(|| (head.trim_start().starts_with('{') && head.contains("almanac/")).then_some(Format::Almanac))
}

/// A log that passed validation, and its text.
pub struct ValidatedLog {
    pub game: Box<dyn Game>,
    /// The almanac/1 text the game was read from.
    pub text: String,
}

impl ValidatedLog {
    /// The header line as given (trimmed).
    pub fn header_line(&self) -> &str {
        lines(&self.text).next().map_or("", |(_, l)| l.trim())
    }

    /// Each event line as given (trimmed), in order; blank lines are not lines.
    pub fn event_lines(&self) -> Vec<&str> {
        lines(&self.text).skip(1).map(|(_, l)| l.trim()).collect()
    }

    /// The hash that makes the same log one game.
    pub fn content_hash(&self) -> String {
        content_hash(self.header_line(), &self.event_lines())
    }
}

/// Reads and validates a whole almanac/1 log.
pub fn read_log(text: &str) -> Result<Box<dyn Game>, LogError> {
    let (_, first) = lines(text).next().ok_or_else(LogError::empty)?;
    let envelope = Envelope::parse(first)?;
    let kind = game_kind(&envelope.ruleset).ok_or_else(|| {
        LogError::new(1, Problem::UnknownRuleset { ruleset: envelope.ruleset.clone(), known: known_rulesets() })
    })?;
    kind.read(envelope, first, text)
}

/// Why a file could not become a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Another program's record that could not be translated.
    #[error("{0}")]
    Format(#[from] FormatError),
    /// A log that is malformed or breaks a rule.
    #[error("{0}")]
    Log(#[from] LogError),
    #[error("line 1: cannot tell the format of this file; choose one of {known} (the upload form's Format menu, `--format`, or `?format=`)")]
    UnknownFormat { known: String },
}

impl From<almanac_core::ReadError> for ImportError {
    fn from(e: almanac_core::ReadError) -> ImportError {
        match e {
            almanac_core::ReadError::Format(e) => ImportError::Format(e),
            almanac_core::ReadError::Log(e) => ImportError::Log(e),
        }
    }
}

impl ImportError {
    pub fn line(&self) -> usize {
        match self {
            ImportError::Format(e) => e.line,
            ImportError::Log(e) => e.line(),
            ImportError::UnknownFormat { .. } => 1,
        }
    }

    /// What is wrong, without the `line N: ` prefix.
    pub fn reason(&self) -> String {
        match self {
            ImportError::Format(e) => e.reason.clone(),
            ImportError::Log(e) => e.reason(),
            ImportError::UnknownFormat { known } => {
                format!(
                    "cannot tell the format of this file; choose one of {known} (the upload form's Format menu, \
                     `--format`, or `?format=`)"
                )
            }
        }
    }

    /// A log larger than Almanac stores (`almanac_core::log::limits`).
    pub fn is_too_large(&self) -> bool {
        matches!(self, ImportError::Log(e) if e.is_too_large())
    }

    /// A malformed file (as opposed to a readable log that breaks a rule).
    pub fn is_malformed(&self) -> bool {
        match self {
            ImportError::Log(e) => e.is_malformed(),
            _ => true,
        }
    }
}

/// How to read a file: its format (`None` = guess) and, for records that know more than any player did,
/// whose view to keep.
#[derive(Debug, Clone, Copy, Default)]
pub struct Reading {
    pub format: Option<Format>,
    pub view: Viewpoint,
}

/// Reads a file of `format` (`None` = guess) and validates it.
pub fn validate(format: Option<Format>, text: &str) -> Result<ValidatedLog, ImportError> {
    validate_as(Reading { format, view: Viewpoint::Full }, text)
}

/// Reads a file as `reading` says and validates it.
pub fn validate_as(reading: Reading, text: &str) -> Result<ValidatedLog, ImportError> {
    let (format, view) = (reading.format, reading.view);
    // Editors on some systems start a UTF-8 file with a byte-order mark; it is not part of the log.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(LogError::empty().into());
    }
    let format = match format {
        Some(f) => f,
        None => detect(text).ok_or_else(|| ImportError::UnknownFormat { known: format_names().join(", ") })?,
    };
    let text = match format {
        Format::Almanac if view != Viewpoint::Full => {
            return Err(FormatError::whole(format!(
                "an almanac/1 log has one view only; `{view}` is for another program's records"
            ))
            .into())
        }
        Format::Almanac => text.to_string(),
        // An importer that makes its events typed hands over the game with its text: nothing read twice.
        Format::Foreign(Importer { read: Some(read), .. }) if view == Viewpoint::Full => {
            let almanac_core::Imported { text, game } = read(text)?;
            return Ok(ValidatedLog { game, text });
        }
        Format::Foreign(importer) => importer.to_almanac_seen(text, view)?,
    };
    let game = read_log(&text)?;
    Ok(ValidatedLog { game, text })
}

/// The content hash that makes the same log one game (see `almanac_core::hash`).
pub use almanac_core::hash::content_hash;
