//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::board::ROWS;
use crate::event::Event;
use crate::state::State;
use almanac_core::Seated;

impl almanac_core::Described<State> for Event {
    fn describe(&self, s: &State) -> String {
        match self {
            Event::Roll { dice, ship, discards, .. } => {
                let sum = dice[0] + dice[1];
                if sum == 7 {
                    let row = ship.map_or(0, |r| ROWS[r as usize]);
                    let mut words = format!("rolls 7 ({}+{}): the pirate goes to row {row}", dice[0], dice[1]);
                    for (q, cards) in discards {
                        words.push_str(&format!("; {} discards {cards}", s.name(*q)));
                    }
                    words
                } else {
                    let row = ship.map_or(sum, |r| ROWS[r as usize]);
                    format!("rolls {sum} ({}+{}): the ship goes to row {row}", dice[0], dice[1])
                }
            }
            Event::Build { building, at, .. } => format!("builds a {building} at {at}"),
            Event::BuildWall { at, .. } => {
                let n = s.player(self.player()).walls + 1;
                format!("builds wall tile {n} on {at}")
            }
            Event::BuildChurch { tile, .. } => format!("builds the church tile {}", tile.name()),
            Event::PlacePermit { value, at, .. } => format!("places a permit of value {value} on {at}"),
            Event::TakeGold { reshuffle, .. } if !reshuffle.is_empty() => {
                "takes 2 gold, once everyone gave back half their gold to the empty bank".into()
            }
            Event::TakeGold { .. } => "takes 2 gold".into(),
            Event::MovePermit { from, to, .. } => format!("moves the permit on {from} to {to}"),
            Event::UpgradePermit { at, value, .. } => format!("upgrades the permit on {at} to value {value}"),
            Event::EndTurn { .. } => "ends the turn".into(),
        }
    }
}
