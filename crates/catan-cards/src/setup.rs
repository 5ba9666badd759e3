//! A new game from its header: the players in seat order (the first holds the starting settlement marked
//! "start player"), the open row, the Metropolis side, the starting hands and, when known, the decks.

use crate::cards::{Card, METROPOLISES, ROW_SIZE, STARTING_HAND};
use crate::state::{Decks, Phase, Player, Side, State};
use almanac_catan::resources::{Bundle, Hand, Resources};
use almanac_core::{PlayerEntry, SetupError, Table};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The header as this game reads it.
#[derive(Deserialize)]
pub struct Header {
    players: Vec<PlayerEntry>,
    /// The five open building cards.
    row: Vec<String>,
    /// `A` or `B`: the side all Metropolis cards show.
    #[serde(default = "side_a")]
    metropolis: String,
    /// The two resource cards each player was dealt, by name (`unknown` where not seen).
    #[serde(default)]
    hands: BTreeMap<String, Bundle>,
    #[serde(default)]
    decks: Option<DeckSpec>,
}

fn side_a() -> String {
    "A".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckSpec {
    #[serde(default)]
    resources: Option<Bundle>,
    #[serde(default)]
    buildings: Option<BTreeMap<String, u8>>,
    #[serde(default)]
    events: Option<BTreeMap<String, u8>>,
}

fn err<T>(msg: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError(msg.into()))
}

/// An event card's name: lower-case words joined by `_` (`robber`, `market_day`).
pub fn event_name(name: &str) -> Result<String, String> {
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(name.to_string())
    } else {
        Err(format!("`{name}` is not an event card's name (lower-case words joined by `_`, like `robber`)"))
    }
}

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> Result<State, SetupError> {
        let n = self.players.len();
        if !(2..=4).contains(&n) {
            return err(format!("the Catan card game is for 2 to 4 players, not {n}"));
        }
        let side = match self.metropolis.as_str() {
            "A" => Side::A,
            "B" => Side::B,
            other => return err(format!("metropolis: the Metropolis cards lie A or B side up, not `{other}`")),
        };
        let row = self.row.iter().map(|c| Card::parse(c)).collect::<Result<Vec<_>, _>>().map_err(SetupError)?;
        if row.len() != ROW_SIZE {
            return err(format!("row: the building row starts with {ROW_SIZE} open cards, not {}", row.len()));
        }
        if row.contains(&Card::Metropolis) {
            return err("row: the Metropolis cards lie in a stack of their own, not in the row");
        }
        let mut players = vec![
            Player {
                hand: Hand { known: Resources::NONE, unknown: STARTING_HAND as u8 },
                settlements: 1,
                roads: 1,
                ..Player::default()
            };
            n
        ];
        for (name, cards) in &self.hands {
            let seat = self
                .players
                .iter()
                .position(|p| &p.name == name)
                .ok_or_else(|| SetupError(format!("hands: there is no player named `{name}`")))?;
            let b = *cards;
            if b.total() != STARTING_HAND {
                return err(format!("hands: {name} is dealt {STARTING_HAND} resource cards, not {}", b.total()));
            }
            players[seat].hand = Hand { known: b.known, unknown: b.unknown };
        }
        let decks = read_decks(self.decks)?;
        let mut buildings_out = BTreeMap::new();
        for &c in &row {
            *buildings_out.entry(c).or_insert(0) += 1;
        }
        if let Some(declared) = &decks.buildings {
            for (c, &out) in &buildings_out {
                if out > declared.get(c).copied().unwrap_or(0) {
                    return err(format!(
                        "row: {out} {} cards, but the deck holds {}",
                        c.name(),
                        declared.get(c).copied().unwrap_or(0)
                    ));
                }
            }
        }
        let state = State {
            table: Table::of(&self.players),
            players,
            row,
            metropolises_left: METROPOLISES,
            side,
            decks: Arc::new(decks),
            buildings_out,
            events_out: BTreeMap::new(),
            turn: 1,
            active: 0,
            phase: Phase::Harvest,
            traded: false,
            road_traded: false,
            must_discard: vec![0; n],
            longest_road: None,
            largest_army: None,
            winner: None,
        };
        if let Some(problem) = state.too_many_resources() {
            return err(format!("hands: {problem}"));
        }
        Ok(state)
    }
}

fn read_decks(spec: Option<DeckSpec>) -> Result<Decks, SetupError> {
    let Some(spec) = spec else { return Ok(Decks::default()) };
    let resources = match spec.resources {
        None => None,
        Some(b) => {
            if b.unknown > 0 {
                return err("decks.resources: count the cards of each resource; `unknown` is not one");
            }
            Some(b.known)
        }
    };
    let buildings = match spec.buildings {
        None => None,
        Some(counts) => {
            let mut out = BTreeMap::new();
            for (name, n) in counts {
                let card = Card::parse(&name).map_err(|e| SetupError(format!("decks.buildings: {e}")))?;
                if card == Card::Metropolis {
                    return err("decks.buildings: the four Metropolis cards are not in the building deck");
                }
                out.insert(card, n);
            }
            Some(out)
        }
    };
    let events = match spec.events {
        None => None,
        Some(counts) => {
            for name in counts.keys() {
                event_name(name).map_err(|e| SetupError(format!("decks.events: {e}")))?;
            }
            Some(counts)
        }
    };
    Ok(Decks { resources, buildings, events })
}
