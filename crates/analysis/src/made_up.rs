//! A made-up game for the tests: two players' items `a` and `b`, towers, a bank; analysis names no real
//! game, so its tests speak of this one.

use almanac_core::{cause, Chart, Term, Vocabulary};

pub const WORDS: Vocabulary = Vocabulary {
    id: "words",
    name: "Words",
    score: Term::new("VP", "victory points"),
    items: &[Term::new("a", "apples"), Term::new("b", "bricks")],
    causes: &[
        Term::new(cause::PRODUCTION, "production"),
        Term::new(cause::SETUP, "setup"),
        Term::new(cause::STEAL, "steal"),
    ],
    pieces: &[Term::new("tower", "tower")],
    partners: &[Term::new("bank", "bank")],
    score_reasons: &[Term::new("tower", "towers")],
    charts: &[Chart::Score],
    items_are: "cards",
    ..Vocabulary::NONE
};
