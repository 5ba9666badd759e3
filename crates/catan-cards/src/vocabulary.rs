//! The words of the card game's facts and what its pages show.

use almanac_catan::vocabulary::RESOURCE_ITEMS;
use almanac_core::{cause, Chart, CoachPart, Measure, PlayerStat, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "catan-cards";
/// The free card a trading partner draws.
pub const TRADE_BONUS: &str = "trade_bonus";
/// What an event card gave or took.
pub const EVENT: &str = "event";
pub const LONGEST_ROAD: &str = "longest_road";
pub const LARGEST_ARMY: &str = "largest_army";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Catan card game",
    score: Term::new("VP", "victory points"),
    items: &RESOURCE_ITEMS,
    causes: &[
        Term::new(cause::SETUP, "dealt at the start"),
        Term::new(cause::PRODUCTION, "harvest"),
        Term::new(cause::TRADE, "trade"),
        Term::new(TRADE_BONUS, "free card for trading"),
        Term::new(cause::PURCHASE, "purchase"),
        Term::new(cause::DISCARD, "robber"),
        Term::new(EVENT, "event card"),
    ],
    pieces: &[
        Term::new("road", "road"),
        Term::new("settlement", "settlement"),
        Term::new("city", "city"),
        Term::new("knight", "knight"),
        Term::new("metropolis", "metropolis"),
    ],
    score_reasons: &[
        Term::colored("settlement", "settlements", "#1f5fbf"),
        Term::colored("city", "cities", "#8e44ad"),
        Term::colored("metropolis", "metropolises", "#d35400"),
        Term::colored(LONGEST_ROAD, "longest road", "#f39c12"),
        Term::colored(LARGEST_ARMY, "largest army", "#c0392b"),
    ],
    awards: &[Term::new(LONGEST_ROAD, "longest road"), Term::new(LARGEST_ARMY, "largest army")],
    charts: &[Chart::Score, Chart::ProductionByTurn, Chart::Trades, Chart::ScoreBreakdown, Chart::Production],
    player_stats: &[
        PlayerStat { id: "drew", label: "drew at harvests", measure: Measure::Gained(cause::PRODUCTION) },
        PlayerStat { id: "trades", label: "trades", measure: Measure::Trades },
        PlayerStat { id: "bonus", label: "free cards for trading", measure: Measure::Gained(TRADE_BONUS) },
        PlayerStat { id: "discarded", label: "discarded to the robber", measure: Measure::Lost(cause::DISCARD) },
        PlayerStat { id: "roads", label: "roads built", measure: Measure::Built("road") },
        PlayerStat { id: "knights", label: "knights built", measure: Measure::Built("knight") },
    ],
    coach: &[CoachPart::Gained, CoachPart::Lost, CoachPart::Spent, CoachPart::Trades, CoachPart::Points],
    items_are: "cards",
    unseen: &[almanac_catan::resources::UNKNOWN],
    ..Vocabulary::NONE
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use almanac_catan::resources::Resource;

    #[test]
    fn every_name_the_rules_use_is_declared() {
        for r in Resource::ALL {
            assert!(VOCABULARY.item(r.name()).is_some(), "{r}");
        }
        for c in Card::ALL {
            assert!(VOCABULARY.pieces.iter().any(|t| t.id == c.name()), "{}", c.name());
            if c.points() > 0 {
                assert!(VOCABULARY.score_reason(c.name()).is_some(), "{}", c.name());
            }
        }
    }
}
