//! Facts: the one vocabulary analysis and charts read, whatever the game.
//!
//! A ruleset emits facts while it applies an event. They say what happened in plain terms (who gained
//! what and why, who traded with whom, how the score moved) so that a chart never looks inside a
//! game's state.

use serde::{Deserialize, Serialize};
use serde_json::json;

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
    /// A helper's advantage (Catan: Helpers scenario).
    Helper,
    /// Won by completing a feature (Carcassonne: the goods of a completed city).
    Completion,
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
            Cause::Helper => "helper",
            Cause::Completion => "completion",
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
    TurnStarted {
        turn: u32,
        player: Seat,
    },
    Rolled {
        player: Seat,
        dice: [u8; 2],
    },
    Gained {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: Cause,
        from: Option<Seat>,
    },
    /// Paid out voluntarily (a purchase).
    Spent {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: Cause,
    },
    /// Taken away (stolen, discarded, monopolised).
    Lost {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: Cause,
        to: Option<Seat>,
    },
    Traded {
        player: Seat,
        partner: Partner,
        gave: Vec<(&'static str, u32)>,
        got: Vec<(&'static str, u32)>,
    },
    Built {
        player: Seat,
        piece: &'static str,
    },
    CardPlayed {
        player: Seat,
        card: &'static str,
    },
    /// A score change: `delta` and `delta_public` by `reason`; `total` and `public` are the scores after it.
    Score {
        player: Seat,
        reason: &'static str,
        delta: i32,
        delta_public: i32,
        total: i32,
        public: i32,
    },
    Award {
        award: &'static str,
        from: Option<Seat>,
        to: Option<Seat>,
    },
    GameOver {
        winner: Option<Seat>,
    },
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

/// A stored fact. Which columns mean what depends on `kind`:
/// - `turn_started`: player, count = the turn that starts; `rolled`: player, count = the sum, detail = the dice;
/// - `gained` / `spent` / `lost`: player, item, count, cause, other = the player it came from or went to;
/// - `traded`: player, item = partner (`player`, `bank`, `harbour:3:1`), other = partner seat, detail = {gave, got};
/// - `built`: player, item = piece; `card_played`: player, item = card;
/// - `score`: player, item = reason, count = delta, total, public, detail = {delta_public};
/// - `award`: item = award, player = new holder, other = old holder; `game_over`: player = winner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactRow {
    pub seq: u64,
    pub turn: u32,
    pub kind: String,
    pub player: Option<u32>,
    pub item: Option<String>,
    pub count: Option<i64>,
    pub cause: Option<String>,
    pub other: Option<u32>,
    pub total: Option<i64>,
    pub public: Option<i64>,
    pub detail: Option<String>,
}

impl Fact {
    /// The fact as a row of the generic facts table.
    pub fn row(&self, seq: u64, turn: u32) -> FactRow {
        let player: Option<u32>;
        let mut item: Option<String> = None;
        let mut count: Option<i64> = None;
        let mut cause: Option<&str> = None;
        let mut other: Option<u32> = None;
        let mut total: Option<i64> = None;
        let mut public: Option<i64> = None;
        let mut detail: Option<String> = None;
        match self {
            Fact::TurnStarted { player: p, turn: t } => {
                player = Some(*p as u32);
                count = Some(*t as i64);
            }
            Fact::Rolled { player: p, dice } => {
                player = Some(*p as u32);
                count = Some(dice.iter().map(|&d| d as i64).sum());
                detail = Some(json!(dice).to_string());
            }
            Fact::Gained { player: p, item: i, count: c, cause: k, from } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
                other = from.map(|s| s as u32);
            }
            Fact::Spent { player: p, item: i, count: c, cause: k } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
            }
            Fact::Lost { player: p, item: i, count: c, cause: k, to } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
                other = to.map(|s| s as u32);
            }
            Fact::Traded { player: p, partner, gave, got } => {
                player = Some(*p as u32);
                item = Some(match partner {
                    Partner::Player(_) => "player".to_string(),
                    other => other.label(),
                });
                if let Partner::Player(s) = partner {
                    other = Some(*s as u32);
                }
                let as_map = |v: &Vec<(&str, u32)>| {
                    v.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>()
                };
                detail = Some(json!({"gave": as_map(gave), "got": as_map(got)}).to_string());
            }
            Fact::Built { player: p, piece } => {
                player = Some(*p as u32);
                item = Some(piece.to_string());
            }
            Fact::CardPlayed { player: p, card } => {
                player = Some(*p as u32);
                item = Some(card.to_string());
            }
            Fact::Score { player: p, reason, delta, delta_public, total: t, public: pb } => {
                player = Some(*p as u32);
                item = Some(reason.to_string());
                count = Some(*delta as i64);
                total = Some(*t as i64);
                public = Some(*pb as i64);
                detail = Some(json!({"delta_public": delta_public}).to_string());
            }
            Fact::Award { award, from, to } => {
                item = Some(award.to_string());
                player = to.map(|s| s as u32);
                other = from.map(|s| s as u32);
            }
            Fact::GameOver { winner } => player = winner.map(|s| s as u32),
        }
        FactRow {
            seq,
            turn,
            kind: self.kind().to_string(),
            player,
            item,
            count,
            cause: cause.map(str::to_string),
            other,
            total,
            public,
            detail,
        }
    }
}
