//! Facts: the one vocabulary analysis and charts read, whatever the game.
//!
//! A ruleset emits facts while it applies an event. They say what happened in plain terms (who gained
//! what and why, who traded with whom, how the score moved) so that a chart never looks inside a game's
//! state. The shapes are shared by every game; the words in them (items, causes, pieces, reasons, awards)
//! are ids the game declares in its [`crate::Vocabulary`].

use serde::{Deserialize, Serialize};

/// A player's index in seat order (0 = start player).
pub type Seat = u8;

/// The causes every game of the family shares; analysis reads these. A game may add causes of its own
/// (declared in its vocabulary), which analysis counts without knowing what they mean.
pub mod cause {
    /// Dice production (or a harvest draw).
    pub const PRODUCTION: &str = "production";
    /// Starting resources from the setup phase.
    pub const SETUP: &str = "setup";
    pub const TRADE: &str = "trade";
    pub const STEAL: &str = "steal";
    pub const DISCARD: &str = "discard";
    /// The effect of a played card.
    pub const CARD: &str = "card";
    /// Paid for a piece or a card; or the card bought.
    pub const PURCHASE: &str = "purchase";
}

/// The other side of a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partner {
    Player(Seat),
    /// Not a player: the bank, a harbour ... (an id the game declares among its `partners`).
    Market(&'static str),
}

/// The dice of one roll, in the order the game reads them; or only their sum, when that is all a record
/// kept (some servers log the total alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dice {
    values: [u8; 4],
    len: u8,
    sum: u8,
}

impl Dice {
    /// Up to four dice.
    pub fn new(values: &[u8]) -> Dice {
        assert!(values.len() <= 4, "at most four dice");
        let mut d = Dice { values: [0; 4], len: values.len() as u8, sum: values.iter().sum() };
        d.values[..values.len()].copy_from_slice(values);
        d
    }

    /// A roll known only by its sum.
    pub fn sum_only(sum: u8) -> Dice {
        Dice { values: [0; 4], len: 0, sum }
    }

    /// Each die; empty when only the sum is known.
    pub fn values(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }

    pub fn sum(&self) -> u32 {
        self.sum as u32
    }
}

/// One thing that happened. The `&'static str` fields are words of the game's vocabulary.
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    /// A player's turn begins (turn 0 is the setup phase).
    TurnStarted {
        turn: u32,
        player: Seat,
    },
    /// A chance outcome: the dice a player rolled.
    Rolled {
        player: Seat,
        dice: Dice,
    },
    Gained {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: &'static str,
        from: Option<Seat>,
    },
    /// Paid out voluntarily (a purchase).
    Spent {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: &'static str,
    },
    /// Taken away (stolen, discarded, monopolised).
    Lost {
        player: Seat,
        item: &'static str,
        count: u32,
        cause: &'static str,
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
    /// A piece came back to its player's supply (a follower home from a scored feature), in the words of
    /// the piece `Built` named when it was placed.
    Returned {
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
    /// A measure of the game's own took a new value (the barbarians' strength, a ship's position): a gauge
    /// the game declares in its vocabulary, drawn by turn.
    Gauge {
        gauge: &'static str,
        value: i32,
    },
    /// Something worth marking on the game's timeline (a battle, ...), which the game declares among its
    /// moments; `player` when it is somebody's.
    Moment {
        moment: &'static str,
        player: Option<Seat>,
    },
    /// What one roll of the production dice promises a player from now on, in thousandths of an item: the
    /// chance of every sum times what the board would pay on it. Said when it changes (a building, the
    /// robber), before the roll it applies to; luck is production against the promise of every roll.
    Promised {
        player: Seat,
        thousandths: u32,
    },
}

impl Fact {
    /// What passes from one player to another (a card stolen, a payment to a player): lost by `from`,
    /// gained by `to`, for the same cause.
    pub fn passed(from: Seat, to: Seat, item: &'static str, count: u32, cause: &'static str) -> [Fact; 2] {
        [
            Fact::Lost { player: from, item, count, cause, to: Some(to) },
            Fact::Gained { player: to, item, count, cause, from: Some(from) },
        ]
    }

    /// What the fact is (stored as `FactKind::as_str` spells it).
    pub fn kind(&self) -> FactKind {
        match self {
            Fact::TurnStarted { .. } => FactKind::TurnStarted,
            Fact::Rolled { .. } => FactKind::Rolled,
            Fact::Gained { .. } => FactKind::Gained,
            Fact::Spent { .. } => FactKind::Spent,
            Fact::Lost { .. } => FactKind::Lost,
            Fact::Traded { .. } => FactKind::Traded,
            Fact::Built { .. } => FactKind::Built,
            Fact::Returned { .. } => FactKind::Returned,
            Fact::CardPlayed { .. } => FactKind::CardPlayed,
            Fact::Score { .. } => FactKind::Score,
            Fact::Award { .. } => FactKind::Award,
            Fact::GameOver { .. } => FactKind::GameOver,
            Fact::Gauge { .. } => FactKind::Gauge,
            Fact::Moment { .. } => FactKind::Moment,
            Fact::Promised { .. } => FactKind::Promised,
        }
    }
}

/// What a fact is: the `kind` of a stored fact, spelled in the store as `as_str` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    TurnStarted,
    Rolled,
    Gained,
    Spent,
    Lost,
    Traded,
    Built,
    Returned,
    CardPlayed,
    Score,
    Award,
    GameOver,
    Gauge,
    Moment,
    Promised,
}

impl FactKind {
    pub const ALL: [FactKind; 15] = [
        FactKind::TurnStarted,
        FactKind::Rolled,
        FactKind::Gained,
        FactKind::Spent,
        FactKind::Lost,
        FactKind::Traded,
        FactKind::Built,
        FactKind::Returned,
        FactKind::CardPlayed,
        FactKind::Score,
        FactKind::Award,
        FactKind::GameOver,
        FactKind::Gauge,
        FactKind::Moment,
        FactKind::Promised,
    ];

    /// The kind as the store spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            FactKind::TurnStarted => "turn_started",
            FactKind::Rolled => "rolled",
            FactKind::Gained => "gained",
            FactKind::Spent => "spent",
            FactKind::Lost => "lost",
            FactKind::Traded => "traded",
            FactKind::Built => "built",
            FactKind::Returned => "returned",
            FactKind::CardPlayed => "card_played",
            FactKind::Score => "score",
            FactKind::Award => "award",
            FactKind::GameOver => "game_over",
            FactKind::Gauge => "gauge",
            FactKind::Moment => "moment",
            FactKind::Promised => "promised",
        }
    }

    /// The kind a stored spelling names, if any.
    pub fn named(name: &str) -> Option<FactKind> {
        FactKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl std::fmt::Display for FactKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stored fact. Which columns mean what depends on `kind`:
/// - `turn_started`: player, count = the turn that starts; `rolled`: player, count = the sum, detail = the dice;
/// - `gained` / `spent` / `lost`: player, item, count, cause, other = the player it came from or went to;
/// - `traded`: player, item = `player` or the market's id (`bank`, ...), other = partner seat, detail = {gave, got};
/// - `built`: player, item = piece; `card_played`: player, item = card;
/// - `score`: player, item = reason, count = delta, total, public, detail = {delta_public};
/// - `award`: item = award, player = new holder, other = old holder; `game_over`: player = winner;
/// - `gauge`: item = gauge, count = its value; `moment`: item = moment, player;
/// - `promised`: player, count = thousandths of an item a roll promises from now on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactRow {
    pub seq: u64,
    pub turn: u32,
    pub kind: FactKind,
    pub player: Option<u32>,
    pub item: Option<String>,
    pub count: Option<i64>,
    pub cause: Option<String>,
    pub other: Option<u32>,
    pub total: Option<i64>,
    pub public: Option<i64>,
    pub detail: Option<String>,
}

/// The `item` of a stored `traded` fact whose partner is a player (the seat is in `other`).
pub const PLAYER_PARTNER: &str = "player";

/// The cards of a trade as its fact's detail spells them (`{"gave":{item:count},"got":{item:count}}`), read
/// without building JSON values: every trade of every game is read so for the read model.
#[derive(Deserialize, Default, Debug, PartialEq)]
pub struct TradeCards {
    #[serde(default)]
    pub gave: ItemCounts,
    #[serde(default)]
    pub got: ItemCounts,
}

impl TradeCards {
    /// The cards of a trade fact's detail; none when there is no detail or it is not a trade's.
    pub fn of(detail: Option<&str>) -> Option<TradeCards> {
        detail.and_then(|d| serde_json::from_str(d).ok())
    }
}

/// Items with their counts (an item written twice keeps its last count, as JSON objects read).
#[derive(Deserialize, Default, Debug, PartialEq)]
#[serde(transparent)]
pub struct ItemCounts(pub std::collections::BTreeMap<String, i64>);

impl ItemCounts {
    pub fn total(&self) -> i64 {
        self.0.values().sum()
    }
}

impl FactRow {
    /// A row of `kind` at event `seq` of `turn` with no other field yet.
    pub fn bare(seq: u64, turn: u32, kind: FactKind) -> FactRow {
        FactRow {
            seq,
            turn,
            kind,
            player: None,
            item: None,
            count: None,
            cause: None,
            other: None,
            total: None,
            public: None,
            detail: None,
        }
    }
}

// A fact's detail is spelled here as serde_json spells the same values, without building them: every roll,
// score and trade of every game has one. The test below holds the two spellings together.

/// `[a,b,...]`.
fn numbers_json(numbers: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 4 * numbers.len());
    out.push('[');
    for (i, n) in numbers.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&n.to_string());
    }
    out.push(']');
    out
}

/// `{"gave":{item:count,...},"got":{...}}`, items in the order given.
fn trade_json(gave: &[(&str, u32)], got: &[(&str, u32)]) -> String {
    let mut out = Vec::with_capacity(64);
    for (side, items) in [(&b"{\"gave\":{"[..], gave), (&b"},\"got\":{"[..], got)] {
        out.extend_from_slice(side);
        for (i, (item, n)) in items.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            serde_json::to_writer(&mut out, item).expect("a text writes into memory");
            out.push(b':');
            out.extend_from_slice(n.to_string().as_bytes());
        }
    }
    out.extend_from_slice(b"}}");
    String::from_utf8(out).expect("JSON is written as UTF-8")
}

impl Fact {
    /// The fact as a row of the generic facts table.
    pub fn row(&self, seq: u64, turn: u32) -> FactRow {
        let mut row = FactRow::bare(seq, turn, self.kind());
        let seat = |s: Seat| Some(s as u32);
        match self {
            Fact::TurnStarted { player, turn } => {
                row.player = seat(*player);
                row.count = Some(*turn as i64);
            }
            Fact::Rolled { player, dice } => {
                row.player = seat(*player);
                row.count = Some(dice.sum() as i64);
                if !dice.values().is_empty() {
                    row.detail = Some(numbers_json(dice.values()));
                }
            }
            // Who it came from, or went to, is the other player.
            Fact::Gained { player, item, count, cause, from: other }
            | Fact::Lost { player, item, count, cause, to: other } => {
                row.player = seat(*player);
                row.item = Some(item.to_string());
                row.count = Some(*count as i64);
                row.cause = Some(cause.to_string());
                row.other = other.and_then(seat);
            }
            Fact::Spent { player, item, count, cause } => {
                row.player = seat(*player);
                row.item = Some(item.to_string());
                row.count = Some(*count as i64);
                row.cause = Some(cause.to_string());
            }
            Fact::Traded { player, partner, gave, got } => {
                row.player = seat(*player);
                match partner {
                    Partner::Player(s) => {
                        row.item = Some(PLAYER_PARTNER.to_string());
                        row.other = seat(*s);
                    }
                    Partner::Market(id) => row.item = Some(id.to_string()),
                }
                row.detail = Some(trade_json(gave, got));
            }
            Fact::Built { player, piece } | Fact::Returned { player, piece } => {
                row.player = seat(*player);
                row.item = Some(piece.to_string());
            }
            Fact::CardPlayed { player, card } => {
                row.player = seat(*player);
                row.item = Some(card.to_string());
            }
            Fact::Score { player, reason, delta, delta_public, total, public } => {
                row.player = seat(*player);
                row.item = Some(reason.to_string());
                row.count = Some(*delta as i64);
                row.total = Some(*total as i64);
                row.public = Some(*public as i64);
                row.detail = Some(format!("{{\"delta_public\":{delta_public}}}"));
            }
            Fact::Award { award, from, to } => {
                row.item = Some(award.to_string());
                row.player = to.and_then(seat);
                row.other = from.and_then(seat);
            }
            Fact::GameOver { winner } => row.player = winner.and_then(seat),
            Fact::Gauge { gauge, value } => {
                row.item = Some(gauge.to_string());
                row.count = Some(*value as i64);
            }
            Fact::Moment { moment, player } => {
                row.item = Some(moment.to_string());
                row.player = player.and_then(seat);
            }
            Fact::Promised { player, thousandths } => {
                row.player = seat(*player);
                row.count = Some(*thousandths as i64);
            }
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_is_named_by_its_spelling_and_serde_spells_it_the_same() {
        for kind in FactKind::ALL {
            assert_eq!(FactKind::named(kind.as_str()), Some(kind));
            assert_eq!(json!(kind), json!(kind.as_str()));
        }
        let spellings: std::collections::BTreeSet<_> = FactKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(spellings.len(), FactKind::ALL.len(), "no two kinds spelled alike");
        assert_eq!(FactKind::named("rolled "), None);
    }

    #[test]
    fn details_are_spelled_as_serde_json_spells_them() {
        for dice in [&[][..], &[3], &[6, 1], &[1, 2, 3]] {
            assert_eq!(numbers_json(dice), json!(dice).to_string());
        }
        let sides: [&[(&str, u32)]; 3] = [&[], &[("apples", 2), ("pears", 10)], &[("a\"b", 1)]];
        for gave in sides {
            for got in sides {
                let as_map = |v: &[(&str, u32)]| {
                    v.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>()
                };
                assert_eq!(trade_json(gave, got), json!({"gave": as_map(gave), "got": as_map(got)}).to_string());
            }
        }
        for delta_public in [0, -3, 12] {
            let row = Fact::Score { player: 0, reason: "x", delta: 1, delta_public, total: 1, public: 1 }.row(1, 1);
            assert_eq!(row.detail.unwrap(), json!({"delta_public": delta_public}).to_string());
        }
    }

    #[test]
    fn a_trades_cards_read_back_as_its_fact_wrote_them() {
        let fact = Fact::Traded {
            player: 1,
            partner: Partner::Player(2),
            gave: vec![("apples", 2), ("pears", 1)],
            got: vec![("plums", 3)],
        };
        let row = fact.row(7, 3);
        let cards = TradeCards::of(row.detail.as_deref()).expect("a trade's detail");
        let gave: Vec<(&str, i64)> = cards.gave.0.iter().map(|(item, n)| (item.as_str(), *n)).collect();
        assert_eq!(gave, vec![("apples", 2), ("pears", 1)]);
        assert_eq!((cards.gave.total(), cards.got.total()), (3, 3));
        assert_eq!(TradeCards::of(None), None);
        assert_eq!(TradeCards::of(Some("not json")), None);
        assert_eq!(TradeCards::of(Some(r#"{"got":{"pears":1}}"#)).unwrap().gave.total(), 0, "a side left out");
        let twice = TradeCards::of(Some(r#"{"gave":{"pears":1,"pears":3}}"#)).unwrap();
        assert_eq!(twice.gave.total(), 3, "an item written twice keeps its last count");
    }
}
