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
mod checkpoint;
pub mod describe;
pub mod development;
pub mod event;
pub mod exchange;
pub mod geometry;
pub mod helper_uses;
pub mod helpers;
pub mod import;
pub mod next;
pub mod pieces;
pub mod position;
pub mod resources;
pub mod roads;
pub mod rules;
pub mod state;
pub mod stated;
pub mod view;
pub mod vocabulary;

use almanac_core::{Declarations, EventError, Fact, Importer, PlayerEntry, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{Table, View, Vocabulary};
use serde::Deserialize;
use serde_json::Value;

pub use board::{Board, BoardSpec};
pub use event::{Event, LoggedEvent};
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

impl Header {
    fn state(self) -> Result<State, SetupError> {
        let board = Board::from_spec(&self.board)?;
        let helpers = self.helpers.as_ref().map(|x| x.stack.as_slice());
        State::with_helpers(board, self.options, Table::of(&self.players), helpers)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelperSpec {
    stack: Vec<String>,
}

/// The game of Catan, as the registry knows it.
pub struct Catan;

impl Ruleset for Catan {
    const ID: &'static str = vocabulary::ID;
    /// 2: a city's points replace its settlement's in the score facts (settlement −1, city +2).
    /// 3: a 7 and the robber hitting the leader are moments (key moments on the charts and the event list).
    /// 4: what each roll promises each player (`Fact::Promised`), so that luck can be read.
    const VERSION: u32 = 4;
    type State = State;
    type Event = LoggedEvent;
    type GameView = view::BoardView;
    type PlayerView = view::HandView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        Header::deserialize(header).map_err(|e| SetupError(format!("header: {e}")))?.state()
    }

    /// Straight into the header's types: the board's hexes are most of a header, and a JSON value of them
    /// took longer to make than the board. Text the typed reading refuses (a key given twice, which a
    /// value keeps the last of) is read as `initial` reads it, so both say the same.
    fn initial_text(header: &str) -> Result<State, SetupError> {
        match serde_json::from_str::<Header>(header) {
            Ok(h) => h.state(),
            Err(_) => {
                let value: Value = serde_json::from_str(header).map_err(|e| SetupError(format!("header: {e}")))?;
                Self::initial(&value)
            }
        }
    }

    fn parse_event(state: &State, line: &str) -> Result<LoggedEvent, EventError> {
        event::parse_logged(state, line)
    }

    fn write_event(state: &State, event: &LoggedEvent) -> String {
        event::write_logged(state, event)
    }

    fn describe(state: &State, event: &LoggedEvent) -> String {
        describe::describe(state, &event.event)
    }

    /// The event by the rules, then what the record states about the result.
    fn apply(state: &mut State, event: &LoggedEvent, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, &event.event, facts)?;
        match &event.stated {
            Some(stated) => stated.check(state).map_err(RuleViolation),
            None => Ok(()),
        }
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn active(state: &State) -> Seat {
        state.active
    }

    /// After a Special Building Phase, the next player's first event opens their turn.
    fn event_turn(state: &State, event: &LoggedEvent) -> u32 {
        match state.phase {
            state::Phase::SpecialBuilding { .. } if !rules::turns::is_special_build(&event.event) => state.turn + 1,
            _ => state.turn,
        }
    }

    /// A record imported before headers could mark a bot (`"bot": true`) is known by its source: every seat
    /// of a catanatron game is one of its bots, and so is every seat of a JSettlers server's robots-only game
    /// (the server names those `~botsOnly~N`).
    fn bots(envelope: &almanac_core::Envelope, header: &serde_json::Value) -> Vec<bool> {
        let source = &header["source"];
        let programs = source["program"] == "catanatron"
            || (source["program"] == "JSettlers2"
                && source["game"].as_str().is_some_and(|g| g.starts_with("~botsOnly~")));
        envelope.players.iter().map(|p| p.bot || programs).collect()
    }

    /// catanatron's and JSettlers2's records name themselves (`source.program`).
    fn program(header: &serde_json::Value) -> Option<String> {
        header["source"]["program"].as_str().map(str::to_string)
    }

    fn edition(initial: &State) -> String {
        let mut words = String::from("Catan");
        if initial.players.len() >= 5 {
            words.push_str(" 5–6 players");
        }
        if initial.helpers.is_some() {
            words.push_str(" + Helpers");
        }
        if initial.options.vp_target != 10 {
            words.push_str(&format!(", {} VP", initial.options.vp_target));
        }
        words
    }

    fn winner(state: &State) -> Option<Seat> {
        state.winner
    }

    fn view(state: &State) -> View<view::BoardView, view::HandView> {
        view::view(state)
    }
    fn write_state(state: &State) -> Vec<u8> {
        checkpoint::write(state)
    }
    fn read_state(initial: &State, bytes: &[u8]) -> Result<State, almanac_core::CheckpointError> {
        checkpoint::read(initial, bytes)
    }
}

impl Declarations for Catan {
    const NAME: &'static str = "Catan";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] =
        &[&import::catanatron::CatanatronDump, &import::jsettlers::JSettlersLog];
    const EVENT_TYPES: &'static [&'static str] = &event::EVENT_TYPES;
    const REPLAY_SCRIPT: &'static str = concat!(include_str!("../web/board.js"), include_str!("../web/replay.js"));
    const FEATURES: &'static [almanac_core::Feature] = &position::FEATURES;

    const RECORDER: bool = true;

    fn position(state: &State) -> Option<almanac_core::Position> {
        Some(position::position(state))
    }
    fn open(state: &State) -> Vec<almanac_core::next::Decision> {
        next::open(state)
    }
    fn candidates(state: &State, seat: Seat, kind: &str) -> almanac_core::next::Candidates<LoggedEvent> {
        next::candidates(state, seat, kind)
    }
    fn shown(state: &State, event: &LoggedEvent) -> almanac_core::next::Shown {
        almanac_core::next::Shown { key: next::key(state, event), ..Default::default() }
    }
    /// Placements, builds, the robber and its victim, cards bought and played, trades: not the roll, a
    /// discard the 7 forces, the end of a turn, cards shown, nor what a program's server did.
    fn decision(event: &LoggedEvent) -> bool {
        !matches!(
            event.event,
            Event::Roll { .. }
                | Event::Discard { .. }
                | Event::EndTurn { .. }
                | Event::RevealVictoryPoints { .. }
                | Event::TakeBack { .. }
                | Event::TimeOut { .. }
        )
    }
    fn beginnings() -> Vec<almanac_core::next::Beginning> {
        beginnings::beginnings()
    }
    fn begin(
        beginning: &str,
        seats: usize,
        seed: u64,
        laid: &almanac_core::next::Laid,
    ) -> Result<serde_json::Map<String, Value>, SetupError> {
        beginnings::begin(beginning, seats, seed, laid)
    }
    fn opening(beginning: &str, players: &[&str]) -> almanac_core::next::Opening {
        beginnings::opening(beginning, players)
    }
}
