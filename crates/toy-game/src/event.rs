//! The race's one event, `{"type": "step", "player": "Ana", "by": 2}`.

use crate::state::State;
use almanac_core::field;
use almanac_core::{EventError, Seat, Seated};
use serde::{Deserialize, Serialize};

/// An event; its variant's name, in snake case, is its line's `type`.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Event {
    /// The player whose turn it is moves `by` squares.
    Step { player: Seat, by: u32 },
}

/// The line as written: the player by name.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Line {
    Step { player: String, by: u32 },
}

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = <Event as strum::VariantNames>::VARIANTS;

    fn parse(state: &State, line: &str) -> Result<Event, EventError> {
        let Line::Step { player, by } = field::read_line(line, Self::TYPES, |_| None)?;
        Ok(Event::Step { player: state.table.seat(&player, "player")?, by })
    }

    fn write(&self, state: &State) -> String {
        let Event::Step { player, by } = *self;
        serde_json::to_string(&Line::Step { player: state.name(player).to_string(), by }).expect("a line serialises")
    }
}

impl almanac_core::Described<State> for Event {
    fn describe(&self, _state: &State) -> String {
        let Event::Step { by, .. } = *self;
        format!("moves {by} square{}", if by == 1 { "" } else { "s" })
    }
}
