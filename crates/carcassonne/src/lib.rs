//! The `carcassonne` ruleset: the base game with Traders & Builders (goods, builder, pig), 2-6 players;
//! the importer of JCloisterZone's saved games; the replay drawing.
//! Pure: no I/O, no clock, no randomness (the log says which tile was drawn).
//!
//! - `tiles`: the catalogue (`tiles.txt`) and the geometry of sides and half-edges.
//! - `state`: the grid, the features merged across edges (union-find), figures and scores.
//! - `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.
//! - `import`: JCloisterZone saves.

mod checkpoint;
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

use almanac_core::{Declarations, EventError, Fact, Importer, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{View, Vocabulary};
use serde_json::Value;
use state::State;

pub use event::Event;

/// The game of Carcassonne, as the registry knows it.
pub struct Carcassonne;

impl Ruleset for Carcassonne {
    const ID: &'static str = vocabulary::ID;
    // 2: a follower placed is a piece built, by its feature (the opening questions ask about).
    // 3: a follower sent home by a scored feature is a piece returned (the coach table counts them).
    const VERSION: u32 = 3;
    type State = State;
    type Event = Event;
    type GameView = view::GridView;
    type PlayerView = view::SupplyView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        setup::new_state(header)
    }

    fn parse_event(state: &State, line: &str) -> Result<Event, EventError> {
        event::parse(state, line)
    }

    fn write_event(state: &State, event: &Event) -> String {
        event::write(state, event)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe::describe(state, event)
    }

    fn apply(state: &mut State, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, event, facts)
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn active(state: &State) -> Seat {
        state.active
    }

    fn edition(initial: &State) -> String {
        let mut words = String::from("Carcassonne");
        for set in initial.options.sets.iter().filter(|s| *s != "basic") {
            words.push_str(" + ");
            words.push_str(if set == "traders-and-builders" { "Traders & Builders" } else { set });
        }
        words
    }

    fn winner(state: &State) -> Option<Seat> {
        view::winner(state)
    }

    fn view(state: &State) -> View<view::GridView, view::SupplyView> {
        view::view(state)
    }
    fn write_state(state: &State) -> Vec<u8> {
        checkpoint::write(state)
    }
    fn read_state(initial: &State, bytes: &[u8]) -> Result<State, almanac_core::CheckpointError> {
        checkpoint::read(initial, bytes)
    }
}

impl Declarations for Carcassonne {
    const NAME: &'static str = "Carcassonne";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] = &[&import::jcz::JCloisterZoneSave];
    const EVENT_TYPES: &'static [&'static str] = &event::EVENT_TYPES;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
    const FEATURES: &'static [almanac_core::Feature] = &position::FEATURES;

    const RECORDER: bool = true;

    fn position(state: &State) -> Option<almanac_core::Position> {
        Some(position::position(state))
    }
    fn open(state: &State) -> Vec<almanac_core::next::Decision> {
        next::open(state)
    }
    /// A tile placed is asked by the tile drawn first, then where it went, each way it may lie a picture; a
    /// figure by the feature it stands on, tapped on a picture of the tile just placed.
    fn shown(state: &State, event: &event::Event) -> almanac_core::next::Shown {
        match event {
            event::Event::PlaceTile { tile, rotation, .. } => almanac_core::next::Shown {
                group: Some(describe::tile_group(*tile)),
                picture: Some(view::picture(*tile, *rotation)),
                ..Default::default()
            },
            event::Event::PlaceFigure { feature, location, .. } => almanac_core::next::Shown {
                picture: view::figure_picture(state, feature.name(), &location.text),
                ..Default::default()
            },
            _ => Default::default(),
        }
    }
    fn candidates(state: &State, seat: Seat, kind: &str) -> almanac_core::next::Candidates<event::Event> {
        next::candidates(state, seat, kind)
    }
    /// Where a tile goes and how it lies, a figure or none: not a tile set aside that fits nowhere, the end of
    /// a turn part, or of the game.
    fn decision(event: &event::Event) -> bool {
        matches!(event, event::Event::PlaceTile { .. } | event::Event::PlaceFigure { .. })
    }
    fn beginnings() -> Vec<almanac_core::next::Beginning> {
        setup::beginnings()
    }
    fn begin(
        beginning: &str,
        seats: usize,
        _seed: u64,
        _laid: &almanac_core::next::Laid,
    ) -> Result<serde_json::Map<String, Value>, SetupError> {
        setup::begin(beginning, seats)
    }
}
