//! The shape of a ruleset: pure rules, no I/O, no clock, no randomness.

use crate::facts::{Fact, Seat};
use crate::view::OwnView;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// An event that the rules forbid here. The text is the rule in plain words and the state that broke it,
/// e.g. "settlement at 14:NE breaks the distance rule (neighbour 14:N holds Ana's settlement)".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

/// What a rule check gives: the rule kept (with what it yields), or broken ([`RuleViolation`]). A game's
/// rules write `Result` for it, as `std::io` writes its own.
pub type Result<T = (), E = RuleViolation> = std::result::Result<T, E>;

/// A rule broken, in plain words: "Ana cannot build now: it is Bo's turn".
pub fn fail<T>(words: impl Into<String>) -> Result<T> {
    Err(RuleViolation(words.into()))
}

/// A header the ruleset cannot start a game from (bad board, wrong player count, ...).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// An event line the ruleset cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// The line is not JSON at all.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// JSON, but not an event: unknown type, missing field, unknown player or place. Plain words.
    #[error("{0}")]
    Invalid(String),
}

impl EventError {
    /// A serde_json error reading an event line: `Json` for text that is not JSON, `Invalid` for a JSON
    /// value of the wrong shape.
    pub fn from_json(e: serde_json::Error) -> EventError {
        if e.is_syntax() || e.is_eof() {
            EventError::Json(json_reason(&e))
        } else {
            EventError::Invalid(format!("event: {}", json_reason(&e)))
        }
    }
}

/// A serde_json error about one line of a log, in the log's terms: serde counts lines within the text it
/// was given (always line 1 here), so "at line 1 column 9" becomes "at column 9" and the error's own line
/// number is the only one a reader sees.
pub fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) if e.column() > 0 => format!("{} at column {}", &text[..i], e.column()),
        _ => text,
    }
}

impl From<String> for EventError {
    fn from(reason: String) -> EventError {
        EventError::Invalid(reason)
    }
}

impl From<&str> for EventError {
    fn from(reason: &str) -> EventError {
        EventError::Invalid(reason.to_string())
    }
}

/// Where play stands, as every state says it ([`Played::standing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// 0 = setup, then 1, 2, 3 ... one per player turn.
    pub turn: u32,
    /// Whose turn it is.
    pub active: Seat,
    /// The winner, once the game is over.
    pub winner: Option<Seat>,
}

/// A game's state and the rules that move it: what a game must say. Every function is pure.
///
/// `apply` is the one primitive: it checks the event against the state and, if it is legal, applies it and
/// pushes the facts that follow from it. When it returns `Err`, its caller throws the state and the facts
/// pushed away: [`crate::Timeline`] restores both, so a game never writes its own undo.
///
/// A checkpoint is the state serialised whole, less the fields its header fixes (the table, a board, the
/// options): those are marked `#[serde(skip)]` and taken from the game's first state by
/// [`Rules::fixed_from`]. A field added to a state is in every checkpoint without a line written for it.
///
/// What the rules need not say stands apart: where play stands ([`Played`], mostly derived), what a viewer
/// sees ([`Viewed`], beside the game's view types) and what the win-chance model reads
/// ([`crate::Positioned`], beside the game's features).
pub trait Rules:
    Played
    + Viewed
    + crate::Positioned
    + crate::Seated
    + Clone
    + Debug
    + Send
    + Sync
    + Serialize
    + DeserializeOwned
    + 'static
{
    /// The header line as the game reads it (core reads the envelope apart); it makes the first state.
    type Header: Header<State = Self>;
    type Event: Line<State = Self> + Described<Self>;

    /// Bumped when a rule change could accept or reject different logs, or derive different facts from
    /// them; stored with every game (`almanac reproject` brings stored games up to date). It is the rules'
    /// own, so it stands beside them, where a rule is changed.
    const VERSION: u32;

    /// Checks and applies one event; see the trait's documentation.
    fn apply(&mut self, event: &Self::Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation>;

    /// A state read from a checkpoint takes the fields its header fixes (its `#[serde(skip)]` ones) from the
    /// game's first state; an error when the checkpoint cannot be of this game (another table).
    fn fixed_from(&mut self, initial: &Self) -> Result<(), crate::CheckpointError>;

    /// The turn an event belongs to, given the state before it. Usually the state's turn; a game whose
    /// turns begin with the next player's first event (rather than with an explicit end) says so here.
    fn event_turn(&self, _event: &Self::Event) -> u32 {
        self.turn()
    }

    /// The facts of a game's start that no event brings: what the header already gives (a starting
    /// settlement's point, dealt cards). They are reported with the first event's facts, before them. Most
    /// games have none: their setup is events.
    fn opening_facts(&self, _facts: &mut Vec<Fact>) {}

    /// The game as a list of games names it, with its expansions and variants ("a game for 5–6 players
    /// + an expansion"), from its first state; empty: the game's name is enough.
    fn edition(&self) -> String {
        String::new()
    }
}

/// Where play stands in a state. `#[derive(Played)]` reads it from the state's `turn`, `active` and `winner`
/// fields; a game that works one out (a winner by the final scores) says it by hand.
pub trait Played {
    /// The turn, whose it is, the winner.
    fn standing(&self) -> Standing;

    /// Our turn number (0 = setup, then 1, 2, 3 ... one per player turn).
    fn turn(&self) -> u32 {
        self.standing().turn
    }

    /// Whose turn it is.
    fn active(&self) -> Seat {
        self.standing().active
    }

    /// The winner, once the game is over.
    fn winner(&self) -> Option<Seat> {
        self.standing().winner
    }
}

/// A state as a viewer sees it (`almanac state --json`, the API and the replay): the game's own part of it;
/// core adds what every game shares (the ruleset, the turn, whose it is, the winner).
pub trait Viewed {
    /// The game's own part of the state view (board, bank, tiles ...).
    type GameView: Serialize + Send + 'static;
    /// The game's own part of a player's view (hand, figures ...).
    type PlayerView: Serialize + Send + 'static;

    fn view(&self) -> OwnView<Self::GameView, Self::PlayerView>;
}

/// An event as its log line says it: read against the state before it, written back, told in words.
pub trait Line: Clone + PartialEq + Send + Sync + Sized + 'static {
    type State;

    /// Every `type` an event line may have.
    const TYPES: &'static [&'static str];

    /// Reads one event line. Player names are resolved against the state's players.
    fn parse(state: &Self::State, line: &str) -> Result<Self, EventError>;

    /// Writes the event as one almanac/1 line (the inverse of `parse`).
    fn write(&self, state: &Self::State) -> String;
}

/// An event told in words after the acting player's name, given the state `S` before it: "builds a
/// settlement at 4:NE", "rolls 8 (3+5)". A game words its events where it keeps its words (`describe.rs`),
/// apart from reading and writing its lines ([`Line`]), so that neither file needs the other.
pub trait Described<S> {
    fn describe(&self, state: &S) -> String;
}

/// A game's header line, as the game reads it beside core's [`crate::Envelope`].
pub trait Header: DeserializeOwned + Send + Sync + 'static {
    /// The game's state, which this header begins.
    type State;

    /// The state before the first event.
    fn state(self) -> Result<Self::State, SetupError>;

    /// Which seats a program played (bots), in seat order: those the header marks `"bot": true`. A game
    /// may know more of records stored before the header could say it (by the program that wrote them).
    fn bots(&self, envelope: &crate::Envelope) -> Vec<bool> {
        envelope.players.iter().map(|p| p.bot).collect()
    }

    /// The program whose record this is, by its name, where the header says it (a program's own record of
    /// its games): a win-chance model's population is the program that played every seat. None: a record
    /// that names none.
    fn program(&self) -> Option<String> {
        None
    }
}
