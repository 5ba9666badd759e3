//! Readers of other programs' game records. Each turns a record into an almanac/1 log (text), which
//! then goes through the same validation as any uploaded log: an importer translates, it never judges.
//!
//! - `catanatron`: `catanatron-dump/1` JSON files (see `shared/reference/catan-logs.md`).
//! - `jcz`: JCloisterZone 5.x saved games (see `shared/reference/carcassonne.md` §3).

pub mod catanatron;
pub mod jcz;

/// The formats `almanac import --format` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Almanac,
    Catanatron,
    Jcz,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Almanac => "almanac",
            Format::Catanatron => "catanatron",
            Format::Jcz => "jcz",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "almanac" => Some(Format::Almanac),
            "catanatron" => Some(Format::Catanatron),
            "jcz" => Some(Format::Jcz),
            _ => None,
        }
    }
}

/// A record that could not be translated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct FormatError {
    /// The line of the source file the problem is on (1 for a whole-file problem).
    pub line: usize,
    pub reason: String,
}

/// Guesses the format of a record from its first bytes.
pub fn detect(text: &str) -> Option<Format> {
    let head: String = text.chars().take(4096).collect();
    if head.contains("\"catanatron-dump/1\"") {
        Some(Format::Catanatron)
    } else if head.contains("\"appVersion\"") && head.contains("\"replay\"")
        || head.contains("\"setup\"") && head.contains("\"sets\"")
    {
        Some(Format::Jcz)
    } else if head.trim_start().starts_with('{') && head.contains("almanac/") {
        Some(Format::Almanac)
    } else {
        None
    }
}

/// Translates a record of `format` into almanac/1 text. An almanac log is returned as it is.
pub fn to_almanac(format: Format, text: &str) -> Result<String, FormatError> {
    match format {
        Format::Almanac => Ok(text.to_string()),
        Format::Catanatron => catanatron::to_almanac(text),
        Format::Jcz => jcz::to_almanac(text),
    }
}
