//! An event as its log line: the game's `Line`, read and written by `event`, told in words by `describe`.

use crate::event::Event;
use crate::state::State;
use almanac_core::EventError;

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = crate::event::EVENT_TYPES;

    fn parse(state: &State, line: &str) -> Result<Event, EventError> {
        crate::event::parse(state, line)
    }
    fn write(&self, state: &State) -> String {
        crate::event::write(state, self)
    }
    fn describe(&self, state: &State) -> String {
        crate::describe::describe(state, self)
    }
}
