//! What a finished game's chances give the read model, kept with the game when it is derived: its judged
//! decisions and each seat's numbers (chance gained per own turn, decision accuracy, chance by turn).

use crate::chances::{settle, withheld, Model};
use crate::decisions::{judged_all, mean_accuracy, Judged};
use crate::questions::{CHANCE_AT_TURN, CHANCE_GAINED, DECISION_ACCURACY, TURNS_KEPT, TURN_STEP};
use almanac_core::{Fact, Game, JudgedDecision, SeatMetric};

/// Whose each turn is, by its number: the seat its `TurnStarted` fact names (a turn's events are its
/// player's decisions and whatever others did in it).
pub fn turn_owners(game: &dyn Game) -> std::collections::BTreeMap<u32, usize> {
    let mut owner = std::collections::BTreeMap::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            if let Fact::TurnStarted { turn, player } = f {
                owner.insert(*turn, *player as usize);
            }
        }
    }
    owner
}

/// What a finished game's chances give the read model: its judged decisions (`JudgedDecision`: a player's
/// own, where chances are shown), and per seat the chance gained in its own turns on average
/// (`CHANCE_GAINED`: its chance after each of its turns' events less before them, a turn's events being those of its number,
/// whoever made them; the setup, turn 0, left out), its decision accuracy (`DECISION_ACCURACY`) and the
/// chance at the end of every fifth turn (`CHANCE_AT_TURN`); only where chances are shown (`withheld`). None
/// for a game without a winner: such a game counts nowhere as a result.
pub fn numbers(model: &Model, game: &dyn Game) -> (Vec<SeatMetric>, Vec<JudgedDecision>) {
    if game.winner().is_none() || game.event_count() == 0 {
        return (Vec::new(), Vec::new());
    }
    let positions = game.positions();
    let from = withheld(game, model, &positions).map_or(0, |w| w.until);
    if from >= positions.len() {
        return (Vec::new(), Vec::new());
    }
    let mut by_event: Vec<Vec<f64>> = positions.iter().map(|p| model.chances(p)).collect();
    settle(game, &mut by_event, |s, w| if s == w { 1.0 } else { 0.0 });
    let seats = game.envelope().players.len();
    let owner = turn_owners(game);
    // A turn's events are those of its number; its gain runs from the position before the first to the one
    // after the last.
    let mut gained = vec![(0.0f64, 0usize); seats];
    let mut first = 0;
    while first < game.event_count() {
        let turn = game.event_turn(first);
        let mut last = first;
        while last + 1 < game.event_count() && game.event_turn(last + 1) == turn {
            last += 1;
        }
        if let Some(&seat) = owner.get(&turn).filter(|&&s| turn > 0 && s < seats && first >= from) {
            gained[seat].0 += by_event[last + 1][seat] - by_event[first][seat];
            gained[seat].1 += 1;
        }
        first = last + 1;
    }
    let mut out = Vec::new();
    for (s, (sum, turns)) in gained.iter().enumerate() {
        if *turns > 0 {
            out.push(SeatMetric {
                seat: s as u32,
                metric: CHANCE_GAINED,
                arg: String::new(),
                value: sum / *turns as f64,
            });
        }
    }
    // Each seat's decision accuracy: the mean of its decisions' (see `decisions::accuracy`).
    let judged: Vec<Judged> = judged_all(model, game, from);
    for s in 0..seats {
        if let Some((value, _)) = mean_accuracy(judged.iter().filter(|j| j.seat == s)) {
            out.push(SeatMetric { seat: s as u32, metric: DECISION_ACCURACY, arg: String::new(), value });
        }
    }
    let last = game.current_turn() as usize;
    for k in 1..=TURNS_KEPT {
        let t = k * TURN_STEP;
        if t > last {
            break;
        }
        let at = game.events_through_turn(t as u32).min(by_event.len() - 1);
        if at < from {
            continue;
        }
        for s in 0..seats {
            out.push(SeatMetric { seat: s as u32, metric: CHANCE_AT_TURN, arg: t.to_string(), value: by_event[at][s] });
        }
    }
    (out, judged.into_iter().map(Judged::kept).collect())
}

/// A game's decisions judged as its read model keeps them: a player's own (of a seat at the table), those
/// of the set-up where the set-up model knows them, and from position `from` on (where chances are shown),
/// before the last event.
pub fn judged_decisions(model: &Model, game: &dyn Game, from: usize) -> Vec<JudgedDecision> {
    judged_all(model, game, from).into_iter().map(Judged::kept).collect()
}
