//! The `carcassonne` ruleset: the base game with Traders & Builders (goods, builder, pig), 2-6 players;
//! the importer of JCloisterZone's saved games; the replay drawing.
//! Pure: no I/O, no clock, no randomness (the log says which tile was drawn).
//!
//! - `tiles`: the catalogue (`tiles.txt`) and the geometry of sides and half-edges.
//! - `state`: the grid, the features merged across edges (union-find), figures and scores.
//! - `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.
//! - `import`: JCloisterZone saves.

pub mod describe;
pub mod event;
pub mod import;
pub mod next;
pub mod position;
pub mod rules;
pub mod setup;
pub mod state;
pub mod tiles;
pub mod view;
pub mod vocabulary;

use almanac_core::next::{Begin, Beginning, Candidates, Decision, HeaderFields, Shown};
use almanac_core::{Importer, Seat, SetupError, Vocabulary};
use state::State;

pub use event::Event;

/// The game of Carcassonne, as the registry knows it.
pub struct Carcassonne;

impl almanac_core::Ruleset for Carcassonne {
    type State = State;
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [Importer] = &[import::jcz::JCLOISTERZONE];
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
    const RECORDER: bool = true;
    fn open(state: &State) -> Vec<Decision> {
        next::open(state)
    }
    fn shown(state: &State, event: &Event) -> Shown {
        next::shown(state, event)
    }
    fn candidates(state: &State, seat: Seat, kind: &str) -> Candidates<Event> {
        next::candidates(state, seat, kind)
    }
    fn decision(event: &Event) -> bool {
        event.is_decision()
    }
    fn dealt_alike(chosen: &Event, other: &Event) -> bool {
        chosen.tile_drawn() == other.tile_drawn()
    }
    fn beginnings() -> Vec<Beginning> {
        setup::beginnings()
    }
    fn begin(asked: &Begin) -> Result<HeaderFields, SetupError> {
        setup::begin(asked.beginning, asked.seats)
    }
}
