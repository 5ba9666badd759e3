//! Facts: the one vocabulary analysis and charts read, whatever the game.
//!
//! A ruleset emits facts while it applies an event. They say what happened in plain terms (who gained
//! what and why, who traded with whom, how the score moved) so that a chart never looks inside a
//! game's state.

use serde::Serialize;

/// A player's index in seat order (0 = start player).
pub type Seat = u8;

/// Why items changed hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Dice production (and the starting resources of the second settlement, see `Setup`).
    Production,
    /// Starting resources from the setup phase.
    Setup,
    Trade,
    Steal,
    Discard,
    /// The effect of a played card (year of plenty, monopoly, ...).
    Card,
    /// Paid for a piece or a card.
    Purchase,
}

impl Cause {
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Production => "production",
            Cause::Setup => "setup",
            Cause::Trade => "trade",
            Cause::Steal => "steal",
            Cause::Discard => "discard",
            Cause::Card => "card",
            Cause::Purchase => "purchase",
        }
    }
}

/// The other side of a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Partner {
    Player(Seat),
    /// The bank at the plain 4:1 rate.
    Bank,
    /// A harbour; the value is how many cards buy one (3 or 2).
    Harbour(u8),
}

impl Partner {
    pub fn label(self) -> String {
        match self {
            Partner::Player(s) => format!("player:{s}"),
            Partner::Bank => "bank".to_string(),
            Partner::Harbour(r) => format!("harbour:{r}:1"),
        }
    }
}

/// One thing that happened. Items and reasons are short lowercase names ("ore", "knight", "city").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "fact")]
pub enum Fact {
    /// A player's turn begins (turn 0 is the setup phase).
    TurnStarted { turn: u32, player: Seat },
    Rolled { player: Seat, dice: [u8; 2] },
    Gained { player: Seat, item: &'static str, count: u32, cause: Cause, from: Option<Seat> },
    /// Paid out voluntarily (a purchase).
    Spent { player: Seat, item: &'static str, count: u32, cause: Cause },
    /// Taken away (stolen, discarded, monopolised).
    Lost { player: Seat, item: &'static str, count: u32, cause: Cause, to: Option<Seat> },
    Traded { player: Seat, partner: Partner, gave: Vec<(&'static str, u32)>, got: Vec<(&'static str, u32)> },
    Built { player: Seat, piece: &'static str },
    CardPlayed { player: Seat, card: &'static str },
    /// A score change: `delta` and `delta_public` by `reason`; `total` and `public` are the scores after it.
    Score { player: Seat, reason: &'static str, delta: i32, delta_public: i32, total: i32, public: i32 },
    Award { award: &'static str, from: Option<Seat>, to: Option<Seat> },
    GameOver { winner: Option<Seat> },
}

impl Fact {
    /// The fact's kind as stored and queried ("gained", "score", ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Fact::TurnStarted { .. } => "turn_started",
            Fact::Rolled { .. } => "rolled",
            Fact::Gained { .. } => "gained",
            Fact::Spent { .. } => "spent",
            Fact::Lost { .. } => "lost",
            Fact::Traded { .. } => "traded",
            Fact::Built { .. } => "built",
            Fact::CardPlayed { .. } => "card_played",
            Fact::Score { .. } => "score",
            Fact::Award { .. } => "award",
            Fact::GameOver { .. } => "game_over",
        }
    }
}
