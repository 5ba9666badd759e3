//! The `catan` ruleset: Catan, 5th edition base game (3-4 players; 2 as catanatron plays it).
//!
//! Pure: no I/O, no clock, no randomness. The log format is documented in `docs/formats/catan.md`.
//!
//! - `geometry`: the hex grid (axial coordinates, canonical vertex and edge keys).
//! - `board`: a board from a header, with adjacency and names like `4:NE`.
//! - `cards`: resources, development cards, hands with unknown cards.
//! - `state`, `event`, `rules`: the Decider parts; `roads`: longest road; `view`: state as JSON.

pub mod board;
pub mod cards;
pub mod catanatron_roads;
pub mod event;
pub mod geometry;
pub mod helpers;
pub mod roads;
pub mod rules;
pub mod state;
pub mod view;

use almanac_core::{Fact, PlayerEntry, RuleViolation, Ruleset, SetupError};
use serde::Deserialize;
use serde_json::Value;

pub use board::{Board, BoardSpec};
pub use event::Event;
pub use state::{Options, State};

/// The header as this ruleset reads it (the envelope's other fields are ignored here).
#[derive(Deserialize)]
struct Header {
    players: Vec<PlayerEntry>,
    #[serde(default)]
    options: Options,
    board: BoardSpec,
    /// The Helpers scenario: `{"stack": [the six numbered helpers, A1 first]}`.
    #[serde(default)]
    helpers: Option<HelperSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelperSpec {
    stack: Vec<String>,
}

pub struct Catan;

impl Ruleset for Catan {
    const ID: &'static str = "catan";
    const VERSION: u32 = 1;
    type State = State;
    type Event = Event;

    fn initial(header: &Value) -> Result<State, SetupError> {
        let h = Header::deserialize(header).map_err(|e| SetupError(format!("header: {e}")))?;
        let board = Board::from_spec(&h.board)?;
        let seating = h.players.into_iter().map(|p| state::Seating { name: p.name, color: p.color }).collect();
        State::with_helpers(board, h.options, seating, h.helpers.as_ref().map(|x| x.stack.as_slice()))
    }

    fn parse_event(state: &State, line: &str) -> Result<Event, String> {
        event::parse(state, line)
    }

    fn write_event(state: &State, event: &Event) -> String {
        event::write(state, event)
    }

    fn apply(state: &mut State, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, event, facts)
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    /// After a Special Building Phase, the next player's first event opens their turn.
    fn event_turn(state: &State, event: &Event) -> u32 {
        match state.phase {
            state::Phase::SpecialBuilding { .. } if !rules::is_special_build(event) => state.turn + 1,
            _ => state.turn,
        }
    }

    fn winner(state: &State) -> Option<usize> {
        state.winner.map(|w| w as usize)
    }

    fn view(state: &State) -> Value {
        view::view(state)
    }
}
