//! A decision against the alternatives the rules allowed: for an event that was its player's own choice,
//! every other event the rules would have accepted from that player at that moment, each with the
//! positions it could lead to. The analysis layer reads them with a win-chance model (what each would have
//! been worth) and names no game.
//!
//! An alternative whose outcome is drawn (a card bought from a face-down deck, a card stolen) leads to several
//! positions, one per outcome, each with its probability (`Ruleset::outcomes`): it is worth their
//! expectation, so a decision is judged apart from the luck of its draw.

use crate::position::Position;
use crate::Seat;

/// One thing a player could have done.
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    /// Its log line (for a drawn outcome, the first outcome's).
    pub line: String,
    /// In words, after the player's name ("builds a settlement at 4:NE").
    pub words: String,
    /// The positions it leads to, each with its probability (they sum to 1).
    pub outcomes: Vec<Outcome>,
    /// Whether this is what the player did.
    pub chosen: bool,
}

/// A position an alternative leads to.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub probability: f64,
    pub position: Position,
    /// Whoever it made the winner (the game is over).
    pub winner: Option<crate::Seat>,
}

/// A decision made, and its alternatives (the chosen one among them). (Not `next::Decision`, which is a
/// seat and the event types open to it, before anything is decided.)
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The event's index (0-based).
    pub event: usize,
    /// Who decided.
    pub seat: crate::Seat,
    pub alternatives: Vec<Alternative>,
}

/// What a position is worth to a seat: its chance to win from there.
pub type Worth<'a> = &'a dyn Fn(&Position, Seat) -> f64;

/// A decision made, and what it and each alternative were worth as plans.
#[derive(Debug, Clone, PartialEq)]
pub struct Weighed {
    /// The event's index (0-based).
    pub event: usize,
    pub seat: Seat,
    pub alternatives: Vec<Plan>,
}

impl Weighed {
    /// The alternative chosen.
    pub fn chosen(&self) -> Option<&Plan> {
        self.alternatives.iter().find(|a| a.chosen)
    }

    /// The alternative worth most (the first of equals).
    pub fn best(&self) -> Option<&Plan> {
        self.alternatives.iter().fold(None, |best: Option<&Plan>, a| match best {
            Some(b) if b.worth >= a.worth => Some(b),
            _ => Some(a),
        })
    }
}

/// One thing the player could have done, valued as the best turn it begins.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Its log line (for a draw, the decision's own line: the card bought face down, the dice not yet read).
    pub line: String,
    /// In words, after the player's name.
    pub words: String,
    /// The seat's chance from the best turn it begins (the expectation over its draws).
    pub worth: f64,
    /// Whether this is what the player did.
    pub chosen: bool,
    /// The position the best turn it begins ends in, along its likeliest draws: what its worth stands on.
    pub reached: Option<Position>,
}
