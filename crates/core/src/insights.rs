//! What the questions across games read of one game: numbers per seat, derived from the game's facts when it
//! is stored (and again by `reproject`), kept beside the game as a read model so that a question over
//! thousands of games never replays or scans their facts.

/// The version of what is derived here; games derived by another are derived again (`reproject`).
/// 2: scores by turn kept to turn 100 and turns to reach a score to 20, what questions can ask; openings with
/// the pips the board promised at the first roll, or of the first pieces built.
/// 3: each seat's decision accuracy, where its ruleset has a win-chance model.
/// 4: each decision judged against the best alternative the rules allowed, where chances are shown.
/// 5: each decision judged as the plan it begins (the rest of its turn searched), its loss relative to the
/// stakes and with the model's uncertainty of it.
/// 6: the chance a seat gained in its own turns (it was the chance lost, negative for nearly everyone).
/// 7: a game's edition names what makes its numbers unlike the rulebook game's (another map, another discard
/// limit): a seat's field is games like its own.
pub const VERSION: u32 = 7;

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
    /// The game's decisions judged with that model (a player's own, where its chances are shown), in the
    /// game's order: what its replay marks and its turns to study are made of.
    pub decisions: Vec<JudgedDecision>,
}

/// One decision of a game against the best alternative the rules allowed then, as a win-chance model
/// valued them: the seat's chance after the decision (the expectation over what it could draw) and after
/// the best alternative.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedDecision {
    /// The position after the decision (its event's number, from 1).
    pub seq: u64,
    pub seat: u32,
    pub chosen: f64,
    pub best: f64,
    /// How many alternatives the rules allowed, the decision among them.
    pub alternatives: u32,
    /// The best alternative as its log line, and in words after its player's name.
    pub best_line: String,
    pub best_words: String,
    /// The standard error of `best − chosen` from the model's weights (NaN: unknown).
    pub spread: f64,
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
