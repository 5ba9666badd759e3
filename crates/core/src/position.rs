//! What a position is made of, for the win-chance model: the features a game declares (as it declares its
//! vocabulary) and, after any event, each seat's value of each. The analysis layer learns from these and
//! names no game.

use serde::Serialize;

/// One thing a position is made of, for every seat alike ("victory points", "cards a roll promises").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Feature {
    pub id: &'static str,
    pub label: &'static str,
}

impl Feature {
    pub const fn new(id: &'static str, label: &'static str) -> Feature {
        Feature { id, label }
    }
}

/// A position as a model reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    /// How far the game has come: 0 at the start, 1 when somebody has what winning takes (the leader's
    /// points against the target, the tiles drawn ...), as the game measures it.
    pub progress: f64,
    /// Each seat's score as the game shows it.
    pub scores: Vec<f64>,
    /// Each seat's value of every declared feature, in the declared order.
    pub seats: Vec<Vec<f64>>,
}
