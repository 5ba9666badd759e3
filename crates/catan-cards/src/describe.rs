//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::event::{Event, ROBBER};
use crate::state::State;
use almanac_core::Seated;

impl almanac_core::Described<State> for Event {
    fn describe(&self, s: &State) -> String {
        match self {
            Event::Harvest { draws, .. } => {
                let mine = draws[s.active as usize];
                format!("harvests: draws {mine}; everyone else draws 1")
            }
            Event::Trade { with, give, get, bonus, .. } => {
                let partner = s.name(*with);
                match bonus {
                    Some(card) => format!("trades {give} with {partner} for {get}; {partner} draws {}", card.name()),
                    None => {
                        format!("trades {give} with {partner} for {get}; the deck is spent, {partner} draws nothing")
                    }
                }
            }
            Event::Build { card, road_trade, event, .. } => {
                let mut words = format!("builds a {}", card.name());
                if let Some(t) = road_trade {
                    words.push_str(&format!(" (road trade: {} for the {})", t.give, t.instead_of));
                }
                match event {
                    Some(e) if e.name == ROBBER => words.push_str("; the Robber comes"),
                    Some(e) => words.push_str(&format!("; event: {}", e.name.replace('_', " "))),
                    None => {}
                }
                words
            }
            Event::Discard { cards, .. } => format!("discards {cards}"),
            Event::EndTurn { .. } => "ends the turn".into(),
        }
    }
}
