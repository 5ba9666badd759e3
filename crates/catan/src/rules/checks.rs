//! What every rule uses to say no.

use crate::state::{Phase, State};
use almanac_core::Seat;
use almanac_core::Seated;

pub use almanac_core::ruleset::{fail, Result};

/// Building, buying and trading happen after the roll (or, for builds and purchases, in the Special
/// Building Phase, whose handler is the only way in there).
pub fn need_main(s: &State, p: Seat, what: &str) -> Result {
    match s.phase {
        Phase::Main | Phase::SpecialBuilding { .. } => Ok(()),
        Phase::BeforeRoll => fail(format!("{} must roll before {what}", s.name(p))),
        _ => fail(format!("{} cannot {what} now", s.name(p))),
    }
}
