//! The words of the race's facts and what its pages show: a score in squares, gained by steps.

use almanac_core::{Chart, Opening, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "race";
/// Squares moved.
pub const STEP: &str = "step";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Race to ten",
    score: Term::new("squares", "squares"),
    items: &[],
    causes: &[],
    pieces: &[],
    cards: &[],
    score_reasons: &[Term::new(STEP, "steps")],
    awards: &[],
    partners: &[],
    dice: None,
    gauges: &[],
    moments: &[],
    opening: Opening::SetupItems,
    charts: &[Chart::Score, Chart::ScoreBreakdown],
    player_stats: &[],
    coach: &[],
    items_are: "squares",
    unseen: &[],
};
