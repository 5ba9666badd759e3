//! The words of the game's facts and what its pages show.

use almanac_core::{cause, Chart, CoachPart, DiceSpec, Measure, PlayerStat, Term, Vocabulary};

/// The ruleset id in headers.
pub const ID: &str = "elasund";

pub const WALL: &str = "wall";
pub const CHURCH: &str = "church";
pub const PERMIT: &str = "permit";
/// VP markers on neutral buildings.
pub const BUILDING: &str = "building";
pub const TRADE_TRACK: &str = "trade_track";
/// Gold paid to the owners of the other permits under a new building.
pub const COMPENSATION: &str = "compensation";
/// Influence drawn for a wall tile.
pub const WALL_REWARD: &str = "wall_reward";
/// The 2 gold of step 3 (or of the extra action).
pub const BANK: &str = "bank";
/// Cards lost to the pirate, and those its roller takes back.
pub const PIRATE: &str = "pirate";
/// Half a hand given back when a deck ran short.
pub const RETURNED: &str = "returned";

pub const VOCABULARY: Vocabulary = Vocabulary {
    id: ID,
    name: "Elasund",
    score: Term::new("VP", "VP markers on the board"),
    items: &[
        Term::colored("gold", "gold", "#d4a017"),
        Term::colored("influence_red", "red influence", "#c0392b"),
        Term::colored("influence_blue", "blue influence", "#1f5fbf"),
        Term::colored("influence_green", "green influence", "#2e7d32"),
        Term::colored("unknown", "unseen influence", "#9e9e9e"),
    ],
    causes: &[
        Term::new(cause::SETUP, "dealt at the start"),
        Term::new(cause::PRODUCTION, "income"),
        Term::new(BANK, "2 gold from the bank"),
        Term::new(WALL_REWARD, "wall tile"),
        Term::new(COMPENSATION, "compensation for permits"),
        Term::new(PIRATE, "pirate"),
        Term::new(RETURNED, "given back when a deck ran short"),
        Term::new(cause::PURCHASE, "purchase"),
    ],
    pieces: &[
        Term::new("house", "house"),
        Term::new("workshop", "workshop"),
        Term::new("well", "well"),
        Term::new("market_stalls", "market stalls"),
        Term::new("inn", "inn"),
        Term::new("shop", "shop"),
        Term::new("hall", "hall"),
        Term::new(WALL, "wall tile"),
        Term::new(CHURCH, "church tile"),
        Term::new(PERMIT, "permit"),
    ],
    score_reasons: &[
        Term::colored(BUILDING, "buildings", "#c2185b"),
        Term::colored(WALL, "wall towers", "#795548"),
        Term::colored(CHURCH, "church", "#5e35b1"),
        Term::colored(TRADE_TRACK, "trade track", "#00897b"),
    ],
    dice: Some(DiceSpec { count: 2, faces: 6 }),
    moments: &[Term::colored(PIRATE, "the pirate", "#222222")],
    charts: &[
        Chart::Score,
        Chart::ScoreBySource,
        Chart::ScoreBreakdown,
        Chart::Production,
        Chart::ProductionByTurn,
        Chart::Dice,
    ],
    player_stats: &[
        PlayerStat { id: "income", label: "cards of income", measure: Measure::Gained(cause::PRODUCTION) },
        PlayerStat { id: "compensation", label: "gold in compensation", measure: Measure::Gained(COMPENSATION) },
        PlayerStat { id: "pirate", label: "cards lost to the pirate", measure: Measure::Lost(PIRATE) },
        PlayerStat { id: "walls", label: "wall tiles", measure: Measure::Built(WALL) },
        PlayerStat { id: "church", label: "church tiles", measure: Measure::Built(CHURCH) },
        PlayerStat { id: "permits", label: "permits placed", measure: Measure::Built(PERMIT) },
    ],
    coach: &[CoachPart::Gained, CoachPart::Lost, CoachPart::Spent, CoachPart::Points],
    items_are: "cards",
    unseen: &["unknown"],
    ..Vocabulary::NONE
};
