//! The `race` ruleset: players take turns moving one to three squares; whoever reaches square ten first
//! wins. The smallest game there is, kept to show what adding a game takes (ARCHITECTURE.md, "Adding a
//! game"): registered only when the engine's `toy-game` feature is on (`make test` runs the server with it).
//! `state`: the header and the state; `rules`: its rules; `event`: the line; `vocabulary`: the words;
//! `web/replay.js`.

pub mod event;
pub mod rules;
pub mod state;
pub mod vocabulary;

pub use event::Event;
pub use state::State;

/// The race, as the registry knows it.
pub struct Race;

impl almanac_core::Ruleset for Race {
    const ID: &'static str = vocabulary::ID;
    const VERSION: u32 = 1;
    type State = State;
    type Event = Event;
}

impl almanac_core::Declarations for Race {
    const NAME: &'static str = "Race to ten";
    const VOCABULARY: &'static almanac_core::Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn almanac_core::Importer] = &[];
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");

    fn describe(_state: &State, event: &Event) -> String {
        let Event::Step { by, .. } = *event;
        format!("moves {by} square{}", if by == 1 { "" } else { "s" })
    }
}
