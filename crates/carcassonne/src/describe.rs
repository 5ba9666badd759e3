//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::event::Event;
use crate::state::State;
use crate::tiles::catalogue;

pub fn describe(_: &State, e: &Event) -> String {
    match e {
        Event::PlaceTile { tile, at, rotation, .. } => {
            format!("places {} at {},{} turned {}°", catalogue().tiles[*tile].id, at.0, at.1, *rotation as u32 * 90)
        }
        Event::DiscardTile { tile, .. } => format!("discards {} (it fits nowhere)", catalogue().tiles[*tile].id),
        Event::PlaceFigure { figure, feature, location, .. } => {
            format!("puts a {} on the {} ({})", figure.name(), feature.name(), location.text)
        }
        Event::EndTurn { .. } => "ends the turn".into(),
        Event::EndGame => "final scoring".into(),
    }
}
