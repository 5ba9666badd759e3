//! How each event reads in words, after the acting player's name (the replay's event list).

use crate::event::{Event, Play};
use crate::rules::roll::held_words;
use crate::state::State;
use almanac_core::Seated;

impl almanac_core::Described<State> for Event {
    fn describe(&self, s: &State) -> String {
        let v = |x: u16| s.board.vertex_label(x);
        match self {
            Event::BuildSettlement { at, .. } => format!("builds a settlement at {}", v(*at)),
            Event::BuildCity { at, .. } => format!("builds a city at {}", v(*at)),
            Event::BuildRoad { at, .. } => format!("builds a road at {}", s.board.edge_label(*at)),
            Event::BuildWall { at, .. } => format!("builds a city wall at {}", v(*at)),
            Event::BuildKnight { at, .. } => format!("builds a basic knight at {}", v(*at)),
            Event::PromoteKnight { at, .. } => format!("promotes the knight at {}", v(*at)),
            Event::ActivateKnight { at, .. } => format!("activates the knight at {}", v(*at)),
            Event::MoveKnight { from, to, displaced_to, .. } => {
                let mut words = format!("moves the knight at {} to {}", v(*from), v(*to));
                if let Some(k) = s.knight(*to) {
                    match displaced_to {
                        Some(d) => words.push_str(&format!(", displacing {}'s knight to {}", s.name(k.owner), v(*d))),
                        None => words.push_str(&format!(", displacing {}'s knight off the board", s.name(k.owner))),
                    }
                }
                words
            }
            Event::ChaseRobber { knight, .. } => {
                format!("chases the robber back to the desert with the knight at {}", v(*knight))
            }
            Event::ImproveCity { track, .. } => {
                let level = s.player(self.player()).level(*track) + 1;
                format!("builds {} level {level} ({})", track, track.building(level))
            }
            Event::Roll { event, dice, drawn, pillaged, .. } => {
                let mut words = format!(
                    "rolls {} ({} red, {} white), event die: {}",
                    dice[0] + dice[1],
                    dice[0],
                    dice[1],
                    event.name()
                );
                for d in drawn {
                    words.push_str(&format!("; {} draws {}", s.name(d.player), held_words(d.card)));
                }
                for (q, at) in pillaged {
                    words.push_str(&format!("; the barbarians pillage {}'s city at {}", s.name(*q), v(*at)));
                }
                words
            }
            Event::Discard { cards, .. } => format!("discards {cards}"),
            Event::MoveRobber { hex, victim, .. } => match victim {
                Some(q) => format!("moves the robber to {} and robs {}", s.board.hex_label(*hex), s.name(*q)),
                None => format!("moves the robber to {}", s.board.hex_label(*hex)),
            },
            Event::Trade { with, give, get, .. } => format!("trades {give} with {} for {get}", s.name(*with)),
            Event::MaritimeTrade { give, get, .. } => format!("trades {give} with the bank for {get}"),
            Event::PlayProgress { play, .. } => match play {
                Play::Alchemist { dice } => format!("plays the Alchemist: red {}, white {}", dice[0], dice[1]),
                Play::Merchant { hex } => format!("plays a Merchant on {}", s.board.hex_label(*hex)),
                Play::Bishop { hex, .. } => format!("plays the Bishop: the robber goes to {}", s.board.hex_label(*hex)),
                other => format!("plays {}", other.card().name().replace('_', " ")),
            },
            Event::ReturnProgress { card, .. } => format!("puts back a {}", held_words(*card)),
            Event::EndTurn { .. } => "ends the turn".into(),
        }
    }
}
