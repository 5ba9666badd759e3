//! The `catan` ruleset: Catan, 5th edition base game (3-4 players; 2 as catanatron plays it), the 5-6
//! player extension and the Helpers scenario; the importer of catanatron's records; the replay drawing.
//!
//! Pure: no I/O, no clock, no randomness. The log format is documented in `docs/formats/catan.md`.
//!
//! - `geometry`, `board`: the hex grid and a board from a header, with names like `4:NE`.
//! - `resources`, `development`, `pieces`: what players hold and build.
//! - `state`, `event`, `rules`: the Decider parts; `rules/variants`: where catanatron's rules, the Helpers
//!   and the 5-6 player extension meet the base rules; `helpers`: the Helpers scenario's cards.
//! - `roads`, `catanatron_roads`: Longest Road, by the rulebook and as catanatron keeps it.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/board.js` (the hex
//!   board, shared by the family's games on it) and `web/replay.js`.
//! - `import`: catanatron dumps.

pub mod beginnings;
pub mod board;
pub mod catanatron_roads;
pub mod describe;
pub mod development;
pub mod event;
pub mod exchange;
pub mod geometry;
pub mod header;
pub mod helper_uses;
pub mod helpers;
pub mod import;
pub mod next;
pub mod pieces;
pub mod position;
pub mod resources;
pub mod roads;
pub mod rules;
pub mod seen;
pub mod seven;
pub mod state;
pub mod stated;
pub mod view;
pub mod vocabulary;

use almanac_core::next::{Begin, Beginning, Candidates, Decision, HeaderFields, Opening, Shown};
use almanac_core::{Importer, Seat, SetupError, Vocabulary};

pub use board::{Board, BoardSpec};
pub use event::{Event, LoggedEvent};
pub use state::{Options, State};

/// The game of Catan, as the registry knows it.
pub struct Catan;

impl almanac_core::Ruleset for Catan {
    type State = State;
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [Importer] = &[import::catanatron::CATANATRON, import::jsettlers::JSETTLERS];
    const REPLAY_SCRIPT: &'static str = concat!(include_str!("../web/board.js"), include_str!("../web/replay.js"));
    const RECORDER: bool = true;
    fn open(state: &State) -> Vec<Decision> {
        next::open(state)
    }
    fn candidates(state: &State, seat: Seat, kind: &str) -> Candidates<LoggedEvent> {
        next::candidates(state, seat, kind)
    }
    fn shown(state: &State, event: &LoggedEvent) -> Shown {
        Shown { key: next::key(state, event), ..Default::default() }
    }
    fn decision(event: &LoggedEvent) -> bool {
        event.event.is_decision()
    }
    fn choice(event: &LoggedEvent) -> LoggedEvent {
        next::choice(event)
    }
    fn outcomes(state: &State, event: &LoggedEvent) -> Vec<(LoggedEvent, f64)> {
        next::outcomes(state, event)
    }
    fn listed(state: &State, seat: Seat, kind: &str) -> Vec<LoggedEvent> {
        // A helper's uses and a trade between players are forms only (the recorder fills them in): none is
        // listed whole, and a helper's take long to make.
        match kind {
            "use_helper" | "trade" => Vec::new(),
            _ => match next::candidates(state, seat, kind) {
                Candidates::Each(events) | Candidates::EachOrFill(events, _) => events,
                _ => Vec::new(),
            },
        }
    }
    fn could_judge(state: &State, event: &LoggedEvent) -> bool {
        seen::could_judge(state, &event.event)
    }
    fn consented_by(state: &State, event: &LoggedEvent) -> Option<Seat> {
        // A trade between players is between the active player and one other, whichever the line names first.
        match event.event {
            crate::event::Event::Trade { player, with, .. } => Some(if player == state.active { with } else { player }),
            _ => None,
        }
    }
    fn undrawn_words(state: &State, first: &LoggedEvent) -> String {
        match first.event {
            crate::event::Event::Roll { .. } => "rolls the dice".to_string(),
            _ => <LoggedEvent as almanac_core::Described<State>>::describe(first, state),
        }
    }
    fn beginnings() -> Vec<Beginning> {
        beginnings::beginnings()
    }
    fn begin(asked: &Begin) -> Result<HeaderFields, SetupError> {
        beginnings::begin(asked)
    }
    fn opening(beginning: &str, players: &[&str]) -> Opening {
        beginnings::opening(beginning, players)
    }
}
