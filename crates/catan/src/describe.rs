//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::event::{Event, Thrown};
use crate::helpers::{AfterUse, HELPERS};
use crate::state::State;
use almanac_core::Seated;

pub fn describe(s: &State, e: &Event) -> String {
    let board = &s.board;
    match e {
        Event::Roll { dice: Thrown::Dice([a, b]), .. } => format!("rolls {} ({a}+{b})", a + b),
        Event::Roll { dice: Thrown::Sum(sum), .. } => format!("rolls {sum}"),
        Event::BuildSettlement { at, .. } => format!("builds a settlement at {}", board.vertices[*at as usize].name),
        Event::BuildCity { at, .. } => format!("builds a city at {}", board.vertices[*at as usize].name),
        Event::BuildRoad { at, .. } => format!("builds a road at {}", board.edges[*at as usize].name),
        Event::Discard { cards, .. } => format!("discards {cards}"),
        Event::MoveRobber { hex, victim, stolen, .. } => {
            let mut words = format!("moves the robber to hex {hex}");
            if let Some(v) = victim {
                let card = stolen.map(|c| c.name()).unwrap_or("nothing");
                words.push_str(&format!(" and steals {card} from {}", s.name(*v)));
            }
            words
        }
        Event::Trade { with, give, get, .. } => format!("trades {give} with {} for {get}", s.name(*with)),
        Event::MaritimeTrade { give, get, .. } => format!("trades {give} with the bank for {get}"),
        Event::BuyDevelopment { card: Some(c), .. } => format!("buys a development card ({})", c.words()),
        Event::BuyDevelopment { card: None, .. } => "buys a development card".into(),
        Event::PlayKnight { .. } => "plays a knight".into(),
        Event::PlayRoadBuilding { .. } => "plays road building".into(),
        Event::PlayYearOfPlenty { take, .. } => format!("plays year of plenty: {take}"),
        Event::PlayMonopoly { resource, .. } => format!("plays monopoly on {resource}"),
        Event::RevealVictoryPoints { count: Some(0), .. } => "claims the win with the points on the board".into(),
        Event::RevealVictoryPoints { .. } => "reveals victory point cards".into(),
        Event::EndTurn { .. } => "ends the turn".into(),
        Event::UseHelper(u) => match u.after {
            AfterUse::Swap(other) => format!("uses {} and swaps it for {}", HELPERS[u.helper], HELPERS[other]),
            AfterUse::Flip => format!("uses {}, then turns it over", HELPERS[u.helper]),
        },
    }
}
