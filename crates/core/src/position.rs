//! What a position is made of, for the win-chance model: the features a game declares (as it declares its
//! vocabulary) and, after any event, each seat's value of each. The analysis layer learns from these and
//! names no game.
//!
//! A game declares its features as [`Reading`]s, each feature beside how a seat's value of it is read, in
//! one list: the values cannot come in another order than the features.

use crate::facts::Seat;
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

/// What the win-chance model reads of a game's state. A game without a model says nothing (the defaults).
pub trait Positioned {
    /// What a position is made of, in the order of [`Positioned::position`]'s values.
    const FEATURES: &'static [Feature] = &[];

    /// The position after this state: each seat's value of every feature, in order.
    fn position(&self) -> Option<Position> {
        None
    }
}

/// One feature and how a game reads a seat's value of it, from the state and from a tally of what several
/// features share, made once per position (`()` when there is none).
pub struct Reading<S, T = ()> {
    pub feature: Feature,
    pub value: fn(&S, &T, Seat) -> f64,
}

impl<S, T> Reading<S, T> {
    pub const fn new(id: &'static str, label: &'static str, value: fn(&S, &T, Seat) -> f64) -> Reading<S, T> {
        Reading { feature: Feature::new(id, label), value }
    }
}

/// The features of a list of readings, in its order (a game's [`Positioned::FEATURES`]).
pub const fn features<S, T, const N: usize>(readings: &[Reading<S, T>; N]) -> [Feature; N] {
    let mut out = [Feature::new("", ""); N];
    let mut i = 0;
    while i < N {
        out[i] = readings[i].feature;
        i += 1;
    }
    out
}

/// Each of `seats` seats' value of every reading, in the readings' order ([`Position::seats`]).
pub fn values<S, T>(readings: &[Reading<S, T>], state: &S, tally: &T, seats: usize) -> Vec<Vec<f64>> {
    (0..seats).map(|i| readings.iter().map(|r| (r.value)(state, tally, i as Seat)).collect()).collect()
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

impl Position {
    /// A position of a race to `target` points: its progress is the leader's points against the target.
    pub fn race(target: f64, scores: Vec<f64>, seats: Vec<Vec<f64>>) -> Position {
        let leader = scores.iter().copied().fold(0.0, f64::max);
        Position { progress: (leader / target).min(1.0), scores, seats }
    }
}
