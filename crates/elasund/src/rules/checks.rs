//! What every rule uses to say no.

use almanac_core::RuleViolation;

pub type Result<T = ()> = std::result::Result<T, RuleViolation>;

pub fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(RuleViolation(msg.into()))
}
