//! The words of Catan's facts and what its pages show: declared once here, read by analysis and charts.

use crate::resources::UNKNOWN;
use almanac_core::{cause, Chart, CoachPart, DiceSpec, Measure, PlayerStat, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "catan";

/// Score reasons and awards.
pub const LONGEST_ROAD: &str = "longest_road";
pub const LARGEST_ARMY: &str = "largest_army";
pub const VP_CARD: &str = "victory_point_card";
/// The cause of what a helper gives or takes.
pub const HELPER: &str = "helper";
/// Trade partners that are not players.
pub const BANK: &str = "bank";
pub const HARBOUR_3: &str = "harbour:3:1";
pub const HARBOUR_2: &str = "harbour:2:1";

/// The resource cards and an unseen card, in resource order, with the colours every Catan-family chart
/// shows them in.
/// A 7 rolled (the robber moves, full hands discard): a key moment.
pub const SEVEN: &str = "seven";
/// The robber takes a card from the player leading on points everyone can see.
pub const ROBBED_LEADER: &str = "robbed_leader";
/// A player reaches the winning score outside their own turn: by the rulebook the win waits for their turn.
pub const WIN_WAITS: &str = "win_waits";

pub const RESOURCE_ITEMS: [Term; 6] = [
    Term::colored("lumber", "lumber", "#2e7d32"),
    Term::colored("brick", "brick", "#b7472a"),
    Term::colored("wool", "wool", "#9ccc65"),
    Term::colored("grain", "grain", "#f9a825"),
    Term::colored("ore", "ore", "#607d8b"),
    Term::colored(UNKNOWN, "unknown card", "#9e9e9e"),
];

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Catan",
    score: Term::new("VP", "victory points"),
    items: &[
        RESOURCE_ITEMS[0],
        RESOURCE_ITEMS[1],
        RESOURCE_ITEMS[2],
        RESOURCE_ITEMS[3],
        RESOURCE_ITEMS[4],
        RESOURCE_ITEMS[5],
        Term::new("knight", "knight"),
        Term::new("road_building", "road building"),
        Term::new("year_of_plenty", "year of plenty"),
        Term::new("monopoly", "monopoly"),
        Term::new("victory_point", "victory point"),
        Term::new("unknown_development", "development card (unseen)"),
    ],
    causes: &[
        Term::new(cause::PRODUCTION, "dice production"),
        Term::new(cause::SETUP, "setup"),
        Term::new(cause::TRADE, "trade"),
        Term::new(cause::STEAL, "robber"),
        Term::new(cause::DISCARD, "discard"),
        Term::new(cause::CARD, "development card"),
        Term::new(cause::PURCHASE, "purchase"),
        Term::new(HELPER, "helper"),
    ],
    pieces: &[Term::new("road", "road"), Term::new("settlement", "settlement"), Term::new("city", "city")],
    cards: &[
        Term::new("knight", "knight"),
        Term::new("road_building", "road building"),
        Term::new("year_of_plenty", "year of plenty"),
        Term::new("monopoly", "monopoly"),
        Term::new("Candamir", "Candamir"),
        Term::new("Hilde", "Hilde"),
        Term::new("Jean", "Jean"),
        Term::new("Lin", "Lin"),
        Term::new("Louis", "Louis"),
        Term::new("Marianne", "Marianne"),
        Term::new("Nassir", "Nassir"),
        Term::new("Sean", "Sean"),
        Term::new("Vincent", "Vincent"),
        Term::new("William", "William"),
    ],
    score_reasons: &[
        Term::colored("settlement", "settlements", "#1f5fbf"),
        Term::colored("city", "cities", "#8e44ad"),
        Term::colored(LONGEST_ROAD, "longest road", "#f39c12"),
        Term::colored(LARGEST_ARMY, "largest army", "#c0392b"),
        Term::colored(VP_CARD, "victory point cards", "#16a085"),
    ],
    awards: &[Term::new(LONGEST_ROAD, "longest road"), Term::new(LARGEST_ARMY, "largest army")],
    partners: &[Term::new(BANK, "bank 4:1"), Term::new(HARBOUR_3, "harbour 3:1"), Term::new(HARBOUR_2, "harbour 2:1")],
    dice: Some(DiceSpec { count: 2, faces: 6 }),
    moments: &[
        Term::colored(SEVEN, "a 7", "#7f8c8d"),
        Term::colored(ROBBED_LEADER, "the robber hits the leader", "#c0392b"),
        Term::colored(WIN_WAITS, "enough points, but not their turn: the win waits", "#16a085"),
    ],
    charts: &[
        Chart::Score,
        Chart::ScoreBreakdown,
        Chart::Production,
        Chart::ProductionByTurn,
        Chart::Trades,
        Chart::Dice,
    ],
    player_stats: &[
        PlayerStat { id: "produced", label: "produced", measure: Measure::Gained(cause::PRODUCTION) },
        PlayerStat { id: "trades", label: "trades", measure: Measure::Trades },
        PlayerStat { id: "stole", label: "stole", measure: Measure::Gained(cause::STEAL) },
        PlayerStat { id: "robbed", label: "robbed of", measure: Measure::Lost(cause::STEAL) },
        PlayerStat { id: "discarded", label: "discarded", measure: Measure::Lost(cause::DISCARD) },
        PlayerStat { id: "cards_played", label: "cards played", measure: Measure::CardsPlayed },
    ],
    coach: &[CoachPart::Gained, CoachPart::Lost, CoachPart::Spent, CoachPart::Trades, CoachPart::Luck],
    items_are: "cards",
    unseen: &[UNKNOWN, "unknown_development"],
    ..Vocabulary::NONE
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::development::{DevCard, UNKNOWN_DEVELOPMENT};
    use crate::helpers::HELPERS;
    use crate::pieces::{CITY, ROAD, SETTLEMENT};
    use crate::resources::{Resource, UNKNOWN};

    #[test]
    fn every_name_the_rules_use_is_declared() {
        let v = VOCABULARY;
        for r in Resource::ALL {
            assert!(v.item(r.name()).is_some_and(|t| t.color.is_some()), "{r} needs a colour");
        }
        for c in DevCard::ALL {
            assert!(v.item(c.name()).is_some(), "{}", c.name());
        }
        assert!(v.item(UNKNOWN).is_some() && v.item(UNKNOWN_DEVELOPMENT).is_some());
        for h in HELPERS {
            assert!(v.cards.iter().any(|t| t.id == h), "{h}");
        }
        for piece in [ROAD, SETTLEMENT, CITY] {
            assert!(v.pieces.iter().any(|t| t.id == piece), "{piece}");
        }
    }
}
