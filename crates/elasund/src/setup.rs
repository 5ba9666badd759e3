//! A new game from its header: the players in seat order with their colours, and the cards each was dealt
//! when the recorder saw them.

use crate::board::Colour;
use crate::cards::{self, Cards};
use crate::state::State;
use almanac_core::{PlayerEntry, Seated, SetupError, Sitter, Table};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The header as this game reads it.
#[derive(Deserialize)]
pub struct Header {
    players: Vec<PlayerEntry>,
    /// The cards each player was dealt, when the recorder saw them (`{"gold": 3, "blue": 1}`); else
    /// 3 gold and an unseen influence card.
    #[serde(default)]
    hands: BTreeMap<String, BTreeMap<String, u8>>,
}

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> Result<State, SetupError> {
        let mut free = Colour::ALL.to_vec();
        let mut colours = Vec::new();
        for p in &self.players {
            let colour = match p.color.as_deref() {
                Some(c) => Colour::parse(c).ok_or_else(|| {
                    SetupError(format!("{}: `{c}` is not a colour of the game (red, blue, yellow, green)", p.name))
                })?,
                None => *free.first().ok_or_else(|| SetupError("more than four players".into()))?,
            };
            if !free.contains(&colour) {
                return Err(SetupError(format!("{}: {} is another player's colour", p.name, colour.name())));
            }
            free.retain(|&c| c != colour);
            colours.push(colour);
        }
        let sitters = self.players.iter().zip(&colours);
        let table = Table::new(
            sitters.map(|(p, c)| Sitter { name: p.name.clone(), color: Some(c.name().to_string()) }).collect(),
        );
        let mut s = State::new(table, colours)?;
        for (name, cards) in &self.hands {
            let q = s.seat_of(name).ok_or_else(|| SetupError(format!("hands: `{name}` is not a player")))?;
            let dealt = Cards::parse(cards).map_err(|e| SetupError(format!("hands: {name}: {e}")))?;
            if dealt.gold != cards::STARTING_GOLD || dealt.influence_total() != cards::STARTING_INFLUENCE as u32 {
                return Err(SetupError(format!("hands: {name} is dealt 3 gold and 1 influence card, not {dealt}")));
            }
            s.players[q as usize].hand = dealt;
        }
        Ok(s)
    }
}
