//! The `elasund` ruleset: Elasund, the first city of Catan, for 2-4 players, by the Finnish rule source and,
//! where it is silent, the reference's facts (the decisions are in `docs/formats/elasund.md`); its replay
//! drawing.
//!
//! Pure: no I/O, no clock, no randomness.
//!
//! - `board`: the grid, the city by number of players, trade squares, wall sites, church tiles, start huts.
//! - `buildings`, `cards`: the tiles and the gold and influence cards.
//! - `state`, `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.

pub mod board;
pub mod buildings;
pub mod cards;
mod checkpoint;
pub mod describe;
pub mod event;
pub mod position;
pub mod rules;
pub mod state;
pub mod view;
pub mod vocabulary;

use almanac_core::Seated;
use almanac_core::{Declarations, EventError, Fact, Importer, PlayerEntry, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{Sitter, Table, View, Vocabulary};
use board::Colour;
use cards::Cards;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

pub use event::Event;
pub use state::State;

/// The header as this ruleset reads it (the envelope's other fields are ignored here).
#[derive(Deserialize)]
struct Header {
    players: Vec<PlayerEntry>,
    /// The cards each player was dealt, when the recorder saw them (`{"gold": 3, "blue": 1}`); else
    /// 3 gold and an unseen influence card.
    #[serde(default)]
    hands: BTreeMap<String, BTreeMap<String, u8>>,
}

/// Elasund, as the registry knows it.
pub struct Elasund;

impl Ruleset for Elasund {
    const ID: &'static str = vocabulary::ID;
    /// 2: the tenth VP marker placed in its owner's turn ends the game at once (it waited for their next turn);
    /// `take_gold` from a bank short of 2 has everyone give back half their gold first (`reshuffle`).
    const VERSION: u32 = 2;
    type State = State;
    type Event = Event;
    type GameView = view::CityView;
    type PlayerView = view::HandView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        let h = Header::deserialize(header).map_err(|e| SetupError(format!("header: {e}")))?;
        let mut free = Colour::ALL.to_vec();
        let mut colours = Vec::new();
        for p in &h.players {
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
        let sitters = h.players.iter().zip(&colours);
        let table = Table::new(
            sitters.map(|(p, c)| Sitter { name: p.name.clone(), color: Some(c.name().to_string()) }).collect(),
        );
        let mut s = State::new(table, colours)?;
        for (name, cards) in &h.hands {
            let q = s.seat_of(name).ok_or_else(|| SetupError(format!("hands: `{name}` is not a player")))?;
            let dealt = Cards::parse(cards).map_err(|e| SetupError(format!("hands: {name}: {e}")))?;
            if dealt.gold != cards::STARTING_GOLD || dealt.influence_total() != cards::STARTING_INFLUENCE as u32 {
                return Err(SetupError(format!("hands: {name} is dealt 3 gold and 1 influence card, not {dealt}")));
            }
            s.players[q as usize].hand = dealt;
        }
        Ok(s)
    }

    fn parse_event(state: &State, line: &str) -> Result<Event, EventError> {
        event::parse(state, line)
    }

    fn write_event(state: &State, event: &Event) -> String {
        event::write(state, event)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe::describe(state, event)
    }

    fn apply(state: &mut State, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, event, facts)
    }

    fn opening_facts(initial: &State, facts: &mut Vec<Fact>) {
        rules::opening(initial, facts)
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn active(state: &State) -> Seat {
        state.active
    }

    fn winner(state: &State) -> Option<Seat> {
        state.winner
    }

    fn view(state: &State) -> View<view::CityView, view::HandView> {
        view::view(state)
    }
    fn write_state(state: &State) -> Vec<u8> {
        checkpoint::write(state)
    }
    fn read_state(initial: &State, bytes: &[u8]) -> Result<State, almanac_core::CheckpointError> {
        checkpoint::read(initial, bytes)
    }
}

impl Declarations for Elasund {
    const NAME: &'static str = "Elasund";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] = &[];
    const EVENT_TYPES: &'static [&'static str] = &event::EVENT_TYPES;
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
    const FEATURES: &'static [almanac_core::Feature] = &position::FEATURES;

    fn position(state: &State) -> Option<almanac_core::Position> {
        Some(position::position(state))
    }
}
