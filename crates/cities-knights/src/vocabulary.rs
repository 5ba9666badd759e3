//! The words of the game's facts and what its pages show.

use almanac_catan::vocabulary::RESOURCE_ITEMS;
use almanac_core::{cause, Chart, CoachPart, DiceSpec, Measure, PlayerStat, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "cities-knights";

pub const ROAD: &str = "road";
pub const SETTLEMENT: &str = "settlement";
pub const CITY: &str = "city";
pub const WALL: &str = "city_wall";
pub const KNIGHT: &str = "knight";
pub const KNIGHT_PROMOTION: &str = "knight_promotion";
pub const KNIGHT_ACTIVATION: &str = "knight_activation";
/// A city improvement of each track, by `Track as usize`.
pub const IMPROVEMENT: [&str; 3] = ["improvement_trade", "improvement_politics", "improvement_science"];
/// A progress card of each track, drawn or taken, by `Track as usize`.
pub const PROGRESS_CARD: [&str; 3] = ["progress_trade", "progress_politics", "progress_science"];
pub const LONGEST_ROAD: &str = "longest_road";
pub const DEFENDER: &str = "defender";
/// A victory point progress card (Printer, Constitution).
pub const PROGRESS_POINT: &str = "progress_point";
pub const MERCHANT: &str = "merchant";
pub const AQUEDUCT: &str = "aqueduct";
/// The barbarians' strength (cities on the board) and Catan's (active knights), followed by turn.
pub const GAUGE_BARBARIANS: &str = "barbarians";
pub const GAUGE_KNIGHTS: &str = "knights";
/// A battle's outcome.
pub const BATTLE_WON: &str = "battle_won";
pub const BATTLE_LOST: &str = "battle_lost";
pub const BANK: &str = "bank";
pub const HARBOUR_3: &str = "harbour_3";
pub const HARBOUR_2: &str = "harbour_2";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Catan: Cities & Knights",
    score: Term::new("VP", "victory points"),
    items: &[
        RESOURCE_ITEMS[0],
        RESOURCE_ITEMS[1],
        RESOURCE_ITEMS[2],
        RESOURCE_ITEMS[3],
        RESOURCE_ITEMS[4],
        Term::colored("cloth", "cloth", "#c2185b"),
        Term::colored("coin", "coin", "#8d6e63"),
        Term::colored("paper", "paper", "#00897b"),
        RESOURCE_ITEMS[5],
        Term::colored(PROGRESS_CARD[0], "trade progress card", "#fbc02d"),
        Term::colored(PROGRESS_CARD[1], "politics progress card", "#1e88e5"),
        Term::colored(PROGRESS_CARD[2], "science progress card", "#43a047"),
    ],
    causes: &[
        Term::new(cause::SETUP, "starting resources"),
        Term::new(cause::PRODUCTION, "production"),
        Term::new(AQUEDUCT, "aqueduct"),
        Term::new(cause::TRADE, "trade"),
        Term::new(cause::STEAL, "robber"),
        Term::new(cause::DISCARD, "discard on a 7"),
        Term::new(cause::CARD, "progress card"),
        Term::new(cause::PURCHASE, "purchase"),
    ],
    pieces: &[
        Term::new(ROAD, "road"),
        Term::new(SETTLEMENT, "settlement"),
        Term::new(CITY, "city"),
        Term::new(WALL, "city wall"),
        Term::new(KNIGHT, "knight"),
        Term::new(KNIGHT_PROMOTION, "knight promotion"),
        Term::new(KNIGHT_ACTIVATION, "knight activation"),
        Term::new("improvement_trade", "trade improvement"),
        Term::new("improvement_politics", "politics improvement"),
        Term::new("improvement_science", "science improvement"),
    ],
    cards: &[
        Term::new("alchemist", "Alchemist"),
        Term::new("crane", "Crane"),
        Term::new("engineer", "Engineer"),
        Term::new("inventor", "Inventor"),
        Term::new("irrigation", "Irrigation"),
        Term::new("medicine", "Medicine"),
        Term::new("mining", "Mining"),
        Term::new("road_building", "Road Building"),
        Term::new("smith", "Smith"),
        Term::new("bishop", "Bishop"),
        Term::new("deserter", "Deserter"),
        Term::new("diplomat", "Diplomat"),
        Term::new("intrigue", "Intrigue"),
        Term::new("saboteur", "Saboteur"),
        Term::new("spy", "Spy"),
        Term::new("warlord", "Warlord"),
        Term::new("wedding", "Wedding"),
        Term::new("commercial_harbor", "Commercial Harbor"),
        Term::new("master_merchant", "Master Merchant"),
        Term::new("merchant", "Merchant"),
        Term::new("merchant_fleet", "Merchant Fleet"),
        Term::new("resource_monopoly", "Resource Monopoly"),
        Term::new("trade_monopoly", "Trade Monopoly"),
    ],
    score_reasons: &[
        Term::colored(SETTLEMENT, "settlements", "#1f5fbf"),
        Term::colored(CITY, "cities", "#8e44ad"),
        Term::colored("metropolis_trade", "trade metropolis", "#fbc02d"),
        Term::colored("metropolis_politics", "politics metropolis", "#1e88e5"),
        Term::colored("metropolis_science", "science metropolis", "#43a047"),
        Term::colored(LONGEST_ROAD, "longest road", "#f39c12"),
        Term::colored(DEFENDER, "defender of Catan", "#c0392b"),
        Term::colored(PROGRESS_POINT, "printer and constitution", "#6d4c41"),
        Term::colored(MERCHANT, "merchant", "#00897b"),
    ],
    awards: &[
        Term::new(LONGEST_ROAD, "longest road"),
        Term::new("metropolis_trade", "trade metropolis"),
        Term::new("metropolis_politics", "politics metropolis"),
        Term::new("metropolis_science", "science metropolis"),
        Term::new(MERCHANT, "merchant"),
    ],
    partners: &[Term::new(BANK, "bank 4:1"), Term::new(HARBOUR_3, "harbour 3:1"), Term::new(HARBOUR_2, "2:1 trade")],
    dice: Some(DiceSpec { count: 2, faces: 6 }),
    gauges: &[
        Term::colored(GAUGE_BARBARIANS, "the barbarians", "#c0392b"),
        Term::colored(GAUGE_KNIGHTS, "the knights of Catan", "#1f5fbf"),
    ],
    moments: &[
        Term::colored(BATTLE_WON, "the knights drove the barbarians off", "#2e7d32"),
        Term::colored(BATTLE_LOST, "the barbarians pillaged", "#8e44ad"),
    ],
    // Cities & Knights shows every chart.
    charts: &Chart::ALL,
    player_stats: &[
        PlayerStat { id: "produced", label: "cards from production", measure: Measure::Gained(cause::PRODUCTION) },
        PlayerStat { id: "trades", label: "trades", measure: Measure::Trades },
        PlayerStat { id: "stolen", label: "cards lost to the robber", measure: Measure::Lost(cause::STEAL) },
        PlayerStat { id: "discarded", label: "cards discarded on a 7", measure: Measure::Lost(cause::DISCARD) },
        PlayerStat { id: "knights", label: "knights built", measure: Measure::Built(KNIGHT) },
        PlayerStat { id: "progress", label: "progress cards played", measure: Measure::CardsPlayed },
    ],
    coach: &[CoachPart::Gained, CoachPart::Lost, CoachPart::Spent, CoachPart::Trades, CoachPart::Luck],
    items_are: "cards",
    unseen: &[almanac_catan::resources::UNKNOWN],
    ..Vocabulary::NONE
};
