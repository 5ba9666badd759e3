//! The words of Carcassonne's facts and what its pages show.

use crate::state::GroupKind;
use almanac_core::{Chart, CoachPart, Measure, Opening, PlayerStat, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "carcassonne";
/// The piece a placed tile is.
pub const TILE: &str = "tile";
/// The pieces a follower is, by the feature it is placed in.
pub const KNIGHT: &str = "knight";
pub const THIEF: &str = "thief";
pub const MONK: &str = "monk";
pub const FARMER: &str = "farmer";

/// The piece a follower placed in a feature of `kind` is.
pub fn follower(kind: GroupKind) -> &'static str {
    match kind {
        GroupKind::City => KNIGHT,
        GroupKind::Road => THIEF,
        GroupKind::Monastery => MONK,
        GroupKind::Field => FARMER,
    }
}

/// Goods are won by completing a city.
pub const COMPLETION: &str = "completion";
/// The score reason of the goods majorities at the end.
pub const GOODS_MAJORITY: &str = "goods";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Carcassonne",
    score: Term::new("points", "points"),
    items: &[
        Term::colored("wine", "wine", "#8e244d"),
        Term::colored("grain", "grain", "#e0b43c"),
        Term::colored("cloth", "cloth", "#4a7fb5"),
    ],
    causes: &[Term::new(COMPLETION, "completed city")],
    pieces: &[
        Term::new(TILE, "tile"),
        Term::new(KNIGHT, "knight (city)"),
        Term::new(THIEF, "thief (road)"),
        Term::new(MONK, "monk (monastery)"),
        Term::new(FARMER, "farmer (field)"),
    ],
    score_reasons: &[
        Term::colored("city", "cities", "#b5834f"),
        Term::colored("road", "roads", "#888888"),
        Term::colored("monastery", "monasteries", "#c0392b"),
        Term::colored("field", "fields", "#5aa03c"),
        Term::colored(GOODS_MAJORITY, "goods", "#8e44ad"),
    ],
    // How a player starts: the features of their first two followers.
    opening: Opening::FirstPieces { count: 2, pieces: &[KNIGHT, THIEF, MONK, FARMER] },
    charts: &[Chart::Score, Chart::ScoreBreakdown],
    player_stats: &[
        PlayerStat { id: "cities", label: "cities", measure: Measure::Points("city") },
        PlayerStat { id: "roads", label: "roads", measure: Measure::Points("road") },
        PlayerStat { id: "monasteries", label: "monasteries", measure: Measure::Points("monastery") },
        PlayerStat { id: "fields", label: "fields", measure: Measure::Points("field") },
        PlayerStat { id: "goods", label: "goods", measure: Measure::Points(GOODS_MAJORITY) },
    ],
    coach: &[CoachPart::Points, CoachPart::Placed, CoachPart::Returned, CoachPart::Gained],
    items_are: "goods",
    ..Vocabulary::NONE
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::GOODS;

    #[test]
    fn every_name_the_rules_use_is_declared() {
        for good in GOODS {
            assert!(VOCABULARY.item(good).is_some_and(|t| t.color.is_some()), "{good}");
        }
        for kind in [GroupKind::City, GroupKind::Road, GroupKind::Monastery, GroupKind::Field] {
            assert!(VOCABULARY.score_reason(kind.name()).is_some(), "{}", kind.name());
            assert!(VOCABULARY.pieces.iter().any(|t| t.id == follower(kind)), "{}", kind.name());
        }
    }
}
