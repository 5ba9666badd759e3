//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::event::{Event, LoggedEvent, Thrown};
use crate::helpers::{AfterUse, HELPERS};
use crate::state::State;
use almanac_core::Seated;

impl almanac_core::Described<State> for LoggedEvent {
    fn describe(&self, s: &State) -> String {
        let e = &self.event;
        let board = &s.board;
        match e {
            Event::Roll { dice: Thrown::Dice([a, b]), .. } => format!("rolls {} ({a}+{b})", a + b),
            Event::Roll { dice: Thrown::Sum(sum), .. } => format!("rolls {sum}"),
            Event::BuildSettlement { at, .. } => {
                format!("builds a settlement at {}{}", board.vertices[*at as usize].name, corner_words(board, *at))
            }
            Event::BuildCity { at, .. } => {
                format!("builds a city at {}{}", board.vertices[*at as usize].name, corner_words(board, *at))
            }
            Event::BuildRoad { at, .. } => {
                format!("builds a road at {}{}", board.edges[*at as usize].name, side_words(board, *at))
            }
            Event::Discard { cards, .. } => format!("discards {cards}"),
            Event::MoveRobber { hex, victim, stolen, .. } => {
                // Named as the table names the hex ("the 6 grain hex"), its code after it as corners have.
                let mut words = format!("moves the robber to the {} hex ({hex})", hex_words(board, *hex));
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
            Event::TakeBack { at, .. } => {
                format!(
                    "takes back the settlement at {}: places again after the others",
                    board.vertices[*at as usize].name
                )
            }
            Event::TimeOut { .. } => "runs out of time: the turn ends".into(),
            Event::UseHelper(u) => match u.after {
                AfterUse::Swap(other) => format!("uses {} and swaps it for {}", HELPERS[u.helper], HELPERS[other]),
                AfterUse::Flip => format!("uses {}, then turns it over", HELPERS[u.helper]),
            },
        }
    }
}

/// A hex as a table names it: its number and what it yields ("6 grain"), or "desert".
fn hex_words(board: &crate::board::Board, h: crate::board::HexId) -> String {
    let hex = &board.hexes[h as usize];
    match (hex.number, hex.terrain.produces()) {
        (Some(n), Some(r)) => format!("{n} {r}"),
        _ => hex.terrain.name().to_string(),
    }
}

/// How likely a hex's number is rolled (its pips): a corner's best hexes are named first.
fn pips(board: &crate::board::Board, h: crate::board::HexId) -> u8 {
    board.hexes[h as usize].number.map_or(0, |n| 6 - (7i8 - n as i8).unsigned_abs())
}

/// A corner as a table names it, after its code: " (the 6 grain, 8 ore, 3 wool corner)", best first, and
/// its harbour; nothing for a corner on no land.
fn corner_words(board: &crate::board::Board, v: crate::board::VertexId) -> String {
    let vertex = &board.vertices[v as usize];
    let mut hexes: Vec<_> = vertex.hexes.iter().copied().collect();
    hexes.sort_by_key(|&h| std::cmp::Reverse(pips(board, h)));
    let words: Vec<String> = hexes.into_iter().map(|h| hex_words(board, h)).collect();
    if words.is_empty() {
        return String::new();
    }
    let harbour = vertex.harbour.map(|h| format!(", by the {} harbour", crate::board::Board::harbour_label(h)));
    format!(" (the {} corner{})", words.join(", "), harbour.unwrap_or_default())
}

/// An edge as a table names it, after its code: " (between the 6 grain and the 8 ore)", or " (by the 6
/// grain)" on the coast.
fn side_words(board: &crate::board::Board, e: crate::board::EdgeId) -> String {
    let hexes: Vec<String> = board.edges[e as usize].hexes.iter().map(|&h| hex_words(board, h)).collect();
    match hexes.as_slice() {
        [a, b] => format!(" (between the {a} and the {b})"),
        [a] => format!(" (by the {a})"),
        _ => String::new(),
    }
}
