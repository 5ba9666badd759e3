//! What every rule uses to say no.

use crate::state::{Phase, State};
use almanac_core::Seat;
use almanac_core::Seated;

pub use almanac_core::ruleset::{fail, Result};

/// Trading, building, knights and progress cards come after the roll ("Før terningekastet kan man hverken
/// bygge eller bytte").
pub fn need_main(s: &State, p: Seat, what: &str) -> Result {
    match s.phase {
        Phase::Main => Ok(()),
        Phase::BeforeRoll => fail(format!("{} must roll before {what}", s.name(p))),
        _ => fail(format!("{} cannot {what} now", s.name(p))),
    }
}
