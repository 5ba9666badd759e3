//! What the questions across games read of one game: numbers per seat, derived from the game's facts when it
//! is stored (and again by `reproject`), kept beside the game as a read model so that a question over
//! thousands of games never replays or scans their facts.

/// The version of what is derived here; games derived by another are derived again (`reproject`).
/// 2: scores by turn kept to turn 100 and turns to reach a score to 20, what questions can ask; openings with
/// the pips the board promised at the first roll, or of the first pieces built.
pub const VERSION: u32 = 2;

/// One number about one seat of one game: `metric` with its `arg` (an item, a cause, a reason, a turn; empty
/// when the metric takes none).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatMetric {
    pub seat: u32,
    pub metric: &'static str,
    pub arg: String,
    pub value: f64,
}

/// A game's read model: its seats' numbers and each seat's opening in words (`None`: the game has none).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Insights {
    pub metrics: Vec<SeatMetric>,
    pub openings: Vec<Option<String>>,
}
