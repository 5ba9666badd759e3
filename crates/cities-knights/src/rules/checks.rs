//! What every rule uses to say no.

use crate::state::{Phase, State};
use almanac_core::Seated;
use almanac_core::{RuleViolation, Seat};

pub type Result<T = ()> = std::result::Result<T, RuleViolation>;

pub fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(RuleViolation(msg.into()))
}

/// Trading, building, knights and progress cards come after the roll ("Før terningekastet kan man hverken
/// bygge eller bytte").
pub fn need_main(s: &State, p: Seat, what: &str) -> Result {
    match s.phase {
        Phase::Main => Ok(()),
        Phase::BeforeRoll => fail(format!("{} must roll before {what}", s.name(p))),
        _ => fail(format!("{} cannot {what} now", s.name(p))),
    }
}
