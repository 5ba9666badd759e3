//! What the questions across games read of one game: numbers per seat, derived from the game's facts when it
//! is stored (and again by `reproject`), kept beside the game as a read model so that a question over
//! thousands of games never replays or scans their facts.

/// The version of what is derived here; games derived by another are derived again (`reproject`).
/// 2: scores by turn kept to turn 100 and turns to reach a score to 20, what questions can ask; openings with
/// the pips the board promised at the first roll, or of the first pieces built.
/// 3: each seat's decision accuracy, where its ruleset has a win-chance model.
pub const VERSION: u32 = 3;

/// One number about one seat of one game: `metric` with its `arg` (an item, a cause, a reason, a turn; empty
/// when the metric takes none).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatMetric {
    pub seat: u32,
    pub metric: &'static str,
    pub arg: String,
    pub value: f64,
}

/// The partner a trade number is about (the `arg` of `trades_with`, `cards_given`, `cards_got`): another seat
/// of the game, or a market the game declares (the bank, a harbour). Spelled `seat:N` or the market's id,
/// written by analysis and read by the store through this one type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TradePartner<'a> {
    Seat(u32),
    Market(&'a str),
}

impl<'a> TradePartner<'a> {
    /// The partner an argument names.
    pub fn of(arg: &'a str) -> TradePartner<'a> {
        match arg.strip_prefix("seat:").and_then(|n| n.parse().ok()) {
            Some(seat) => TradePartner::Seat(seat),
            None => TradePartner::Market(arg),
        }
    }

    /// The argument that names it.
    pub fn arg(self) -> String {
        match self {
            TradePartner::Seat(seat) => format!("seat:{seat}"),
            TradePartner::Market(id) => id.to_string(),
        }
    }
}

/// A game's read model: its seats' numbers and each seat's opening in words (`None`: the game has none).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Insights {
    pub metrics: Vec<SeatMetric>,
    pub openings: Vec<Option<String>>,
    /// The store's id of the win-chance model of the game's ruleset when these numbers were derived (the
    /// newest stored, whether it read back or not; `None`: there was none, or the game is not over and has
    /// no chance numbers yet). A finished game whose numbers name another model than its ruleset's newest is
    /// derived again.
    pub chances_model: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trade_partner_reads_back_from_its_argument() {
        for partner in [TradePartner::Seat(0), TradePartner::Seat(5), TradePartner::Market("bank")] {
            assert_eq!(TradePartner::of(&partner.arg()), partner);
        }
        assert_eq!(TradePartner::of("seat:x"), TradePartner::Market("seat:x"));
    }
}
