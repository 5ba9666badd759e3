//! The shape of a ruleset (DESIGN §4): pure rules, no I/O, no clock, no randomness.

use crate::facts::Fact;
use serde_json::Value;

/// An event that the rules forbid here. The text is the rule in plain words and the state that broke it,
/// e.g. "settlement at 14:NE breaks the distance rule (neighbour 14:N holds Ana's settlement)".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

/// A header the ruleset cannot start a game from (bad board, wrong player count, ...).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// A game's rules. Every method is pure.
///
/// `apply` is the one primitive: it checks the event against the state and, only if it is legal,
/// applies it and pushes the facts that follow from it. On `Err` the state is left untouched.
/// `decide` and `evolve` are the Decider shape built on it.
pub trait Ruleset: 'static {
    /// The ruleset id in headers (`catan`, `carcassonne`, ...).
    const ID: &'static str;
    /// Bumped when a rule change could accept or reject different logs; stored with every game.
    const VERSION: u32;

    type State: Clone + Send + Sync;
    type Event: Clone + Send + Sync;

    /// The state before the first event, from the header line (as JSON).
    fn initial(header: &Value) -> Result<Self::State, SetupError>;

    /// Reads one event line. Player names are resolved against the state's players.
    /// The error is plain words (missing field, unknown event type, unknown player).
    fn parse_event(state: &Self::State, line: &str) -> Result<Self::Event, String>;

    /// Writes an event as one almanac/1 line (the inverse of `parse_event`).
    fn write_event(state: &Self::State, event: &Self::Event) -> String;

    /// Checks and applies one event; see the trait documentation.
    fn apply(state: &mut Self::State, event: &Self::Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation>;

    /// Is this event legal here, and what follows from it?
    fn decide(state: &Self::State, event: &Self::Event) -> Result<Vec<Fact>, RuleViolation> {
        let mut scratch = state.clone();
        let mut facts = Vec::new();
        Self::apply(&mut scratch, event, &mut facts)?;
        Ok(facts)
    }

    /// Applies an event already known to be legal.
    fn evolve(mut state: Self::State, event: &Self::Event) -> Self::State {
        let mut facts = Vec::new();
        // A rebuild of stored events: they were accepted by `apply` when stored.
        let _ = Self::apply(&mut state, event, &mut facts);
        state
    }

    /// Our turn number (0 = setup, then 1, 2, 3 ... one per player turn).
    fn turn(state: &Self::State) -> u32;

    /// The turn an event belongs to, given the state before it. Usually the state's turn; a ruleset whose
    /// turns begin with the next player's first event (rather than with an explicit end) says so here.
    fn event_turn(state: &Self::State, _event: &Self::Event) -> u32 {
        Self::turn(state)
    }

    /// The winner, once the game is over.
    fn winner(state: &Self::State) -> Option<usize>;

    /// The state as JSON for `almanac state --json` and the API. It has at least
    /// `"players": [{"name", "vp", "vp_public"}, ...]` in seat order.
    fn view(state: &Self::State) -> Value;
}
