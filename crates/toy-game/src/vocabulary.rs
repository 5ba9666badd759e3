//! The words of the race's facts and what its pages show: a score in squares, gained by steps.

use almanac_core::{Chart, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "ten-squares";
/// Squares moved.
pub const STEP: &str = "step";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Ten squares",
    score: Term::new("squares", "squares"),
    score_reasons: &[Term::new(STEP, "steps")],
    charts: &[Chart::Score, Chart::ScoreBreakdown],
    items_are: "squares",
    ..Vocabulary::NONE
};
