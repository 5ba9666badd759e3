//! A player's decisions judged with a win-chance model, as plans: each decision and every alternative the
//! rules allowed then valued by the best the player could reach before the turn passed (`Game::weigh`,
//! see `almanac_core::plans`), a draw by its expectation; then a loss relative to what was at stake, an
//! accuracy, and a mark only where the loss is larger than the model can tell apart. Nothing here names a
//! game.
//!
//! **The loss.** A chance lost counts relative to the chance the best alternative kept: in a game of
//! several players a seat's chance is often a few percent, and losing half of it is as bad a decision as
//! losing half of an even two-player game's. The loss is told in the points of a two-player game at even
//! chances, where a chess site's formula was made: Δ = 50 · ln(best / chosen) (for small losses, the chance
//! lost over the best's, times 50; at 50 % it is the points lost). The accuracy of a decision is the chess
//! site's, 103.1668 · e^(−0.04354 · Δ) − 3.1669, kept to 0–100; a seat's accuracy in a game is the mean over
//! its decisions that had an alternative.
//!
//! **The marks.** Inaccuracy from Δ 5, mistake from 10, blunder from 15 (the chess site's 5, 10 and 15
//! points of winning chance), each only where Δ is more than twice its own standard error: the model's
//! uncertainty about the difference between the chosen plan's end and the best one's.

use crate::chances::Model;
use almanac_core::decisions::Weighed;
use almanac_core::{Game, JudgedDecision, Position, Seat};

/// A decision judged with a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub event: usize,
    pub seat: usize,
    /// The seat's chance from the best turn its decision began (the expectation over what it drew).
    pub chosen: f64,
    /// The best alternative's, and the alternative.
    pub best: f64,
    pub best_line: String,
    pub best_words: String,
    /// How many alternatives the rules allowed (the decision among them).
    pub alternatives: usize,
    /// The standard error of `best − chosen` from the model's weights (NaN where the model keeps none).
    pub spread: f64,
}

impl Judged {
    /// As the read model keeps it.
    pub fn kept(self) -> JudgedDecision {
        JudgedDecision {
            seq: self.event as u64 + 1,
            seat: self.seat as u32,
            chosen: self.chosen,
            best: self.best,
            alternatives: self.alternatives as u32,
            best_line: self.best_line,
            best_words: self.best_words,
            spread: self.spread,
        }
    }

    /// The chance lost against the best alternative (0 for the best decision).
    pub fn lost(&self) -> f64 {
        (self.best - self.chosen).max(0.0)
    }

    /// The loss relative to the stakes, in even two-player points (`points_lost`).
    pub fn points(&self) -> f64 {
        points_lost(self.chosen, self.best)
    }
}

/// The loss of a decision that kept `chosen` where the best kept `best`, in the points of an even
/// two-player game: 50 · ln(best / chosen), 0 for the best.
pub fn points_lost(chosen: f64, best: f64) -> f64 {
    if best <= 0.0 || chosen >= best {
        return 0.0;
    }
    // A chance of nothing is as far as a chance of one in a million: the loss stays a number.
    50.0 * (best / chosen.max(1e-6)).ln()
}

/// The standard error of `points_lost` from the standard error of the chance lost (the delta method at
/// the chosen chance).
pub fn points_spread(chosen: f64, spread: f64) -> f64 {
    50.0 * spread / chosen.max(1e-6)
}

/// A decision's accuracy, 0 to 100, from its loss in even two-player points (`points_lost`): 100 for the
/// best, 103.1668 · e^(−0.04354 · Δ) − 3.1669 kept to 0–100, as a chess site turns a move's loss of winning
/// chance into an accuracy.
pub fn accuracy(points: f64) -> f64 {
    (103.1668 * (-0.04354 * points.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The thresholds of the marks, in even two-player points: an inaccuracy from 5, a mistake from 10, a
/// blunder from 15.
pub const MARKS: [(f64, &str); 3] = [(15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy")];

/// A decision's mark from its loss in points and that loss's standard error: the heaviest whose threshold
/// it passes, where the loss is more than twice its error; `best` where it lost nothing worth a word
/// (under half a point), `good` otherwise.
pub fn mark(points: f64, spread: f64) -> &'static str {
    let told_apart = spread.is_nan() || points > 2.0 * spread;
    match MARKS.iter().find(|(from, _)| points >= *from) {
        Some((_, mark)) if told_apart => mark,
        _ if points < 0.5 => "best",
        _ => "good",
    }
}

/// The mark of a decision that kept `chosen` where the best kept `best`, the standard error of the
/// difference being `spread` (`mark` of the loss and its error in points).
pub fn marked(chosen: f64, best: f64, spread: f64) -> &'static str {
    mark(points_lost(chosen, best), points_spread(chosen, spread))
}

/// One weighed decision judged with `model`.
fn judged(model: &Model, w: Weighed) -> Option<Judged> {
    let seat = w.seat as usize;
    let chosen = w.chosen()?;
    let best = w.best()?;
    let spread = match (&chosen.reached, &best.reached) {
        (Some(a), Some(b)) if best.worth > chosen.worth => model.spread_of_difference(b, a, seat),
        _ => 0.0,
    };
    Some(Judged {
        event: w.event,
        seat,
        chosen: chosen.worth,
        best: best.worth,
        best_line: best.line.clone(),
        best_words: best.words.clone(),
        alternatives: w.alternatives.len(),
        spread,
    })
}

/// Every decision of `game` that `wanted` picks, judged with `model` as the plans they begin.
pub fn judge(model: &Model, game: &dyn Game, wanted: &dyn Fn(usize) -> bool) -> Vec<Judged> {
    let worth = |p: &Position, seat: Seat| model.chance_of(p, seat as usize);
    game.weigh(wanted, &worth).into_iter().filter_map(|w| judged(model, w)).collect()
}

/// The decisions a game's read model and its replay judge: a player's own, from position `from` on (where
/// chances are shown), after the set-up (turn 0, whose positions the model never learnt from), before the
/// last event (which only says who won).
pub fn judged_in_play(model: &Model, game: &dyn Game, from: usize) -> Vec<Judged> {
    let last = game.event_count().saturating_sub(1);
    let seats = game.envelope().players.len();
    judge(model, game, &|i| i >= from && game.event_turn(i) > 0 && i < last)
        .into_iter()
        .filter(|j| j.seat < seats)
        .collect()
}

/// The set-up's placements (the events before the first turn) judged with the model's set-up model, where
/// held-out games of the game's population and table showed it knowing more than equal chances; why not,
/// in words, otherwise.
pub fn judged_set_up(model: &Model, game: &dyn Game) -> Result<Vec<Judged>, String> {
    let Some(set_up) = &model.set_up else {
        return Err("the model learnt no set-up (it was trained before set-ups were learnt)".to_string());
    };
    let population = crate::chances::played_by(game);
    let seats = game.envelope().players.len();
    set_up.trained_on.knows_set_up(&population, seats)?;
    let set_up = set_up.for_population(&population, seats);
    Ok(judge(&set_up, game, &|i| game.event_turn(i) == 0).into_iter().filter(|j| j.seat < seats).collect())
}

/// Every decision of a game its read model and replay judge: the set-up's (`judged_set_up`, where its model
/// is shown to know them) and those in play from position `from` on (`judged_in_play`), in the game's order.
pub fn judged_all(model: &Model, game: &dyn Game, from: usize) -> Vec<Judged> {
    let mut all = judged_set_up(model, game).unwrap_or_default();
    all.extend(judged_in_play(model, game, from));
    all
}

/// A seat's accuracy over some decisions: the mean of their accuracies, and how many there were.
pub fn mean_accuracy<'a>(decisions: impl Iterator<Item = &'a Judged>) -> Option<(f64, usize)> {
    let (sum, n) = decisions.fold((0.0, 0usize), |(s, n), j| (s + accuracy(j.points()), n + 1));
    (n > 0).then(|| (sum / n as f64, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_is_relative_to_the_stakes_and_equals_points_at_an_even_two_player_game() {
        // At 50 %, a small loss is its points.
        assert!((points_lost(0.49, 0.50) - 1.0).abs() < 0.02);
        // Half of a seat's chance is as bad at 4 % as at 50 %.
        assert!((points_lost(0.02, 0.04) - points_lost(0.25, 0.50)).abs() < 1e-9);
        assert_eq!(points_lost(0.3, 0.3), 0.0);
        assert_eq!(points_lost(0.4, 0.3), 0.0);
        assert!(points_lost(0.0, 0.5).is_finite());
        // The chess site's accuracy: 100 for the best, about 65 for ten points.
        assert!((accuracy(0.0) - 100.0).abs() < 1e-3);
        assert!((accuracy(10.0) - 63.6).abs() < 0.5, "{}", accuracy(10.0));
        assert_eq!(accuracy(500.0), 0.0);
    }

    #[test]
    fn a_loss_is_marked_only_past_its_threshold_and_twice_its_error() {
        assert_eq!(mark(0.1, 0.0), "best");
        assert_eq!(mark(3.0, 0.0), "good");
        assert_eq!(mark(6.0, 1.0), "inaccuracy");
        assert_eq!(mark(11.0, 1.0), "mistake");
        assert_eq!(mark(20.0, 1.0), "blunder");
        // A blunder's size that the model cannot tell from its own uncertainty is no mark.
        assert_eq!(mark(20.0, 12.0), "good");
    }
}
