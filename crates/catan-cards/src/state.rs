//! The state of a game of the Catan card game at one moment.

use crate::cards::{Card, ROBBER_LIMIT};
use almanac_catan::resources::{Hand, Resource, Resources};
use almanac_core::{Seat, Seated, Table};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A player's cards: the hand, and the tableau of built cards (covered cards no longer count).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub hand: Hand,
    /// Settlements not covered by a city (the starting settlement included).
    pub settlements: u8,
    /// Cities not covered by a metropolis.
    pub cities: u8,
    pub metropolises: u8,
    /// Roads, the starting road included.
    pub roads: u8,
    pub knights: u8,
}

impl Player {
    /// How many cards of a kind lie uncovered in the tableau.
    pub fn count(&self, card: Card) -> u8 {
        match card {
            Card::Road => self.roads,
            Card::Settlement => self.settlements,
            Card::City => self.cities,
            Card::Metropolis => self.metropolises,
            Card::Knight => self.knights,
        }
    }

    pub fn count_mut(&mut self, card: Card) -> &mut u8 {
        match card {
            Card::Road => &mut self.roads,
            Card::Settlement => &mut self.settlements,
            Card::City => &mut self.cities,
            Card::Metropolis => &mut self.metropolises,
            Card::Knight => &mut self.knights,
        }
    }

    /// More resources than this and a Robber event makes the player discard half.
    pub fn robber_limit(&self) -> u32 {
        ROBBER_LIMIT + self.knights as u32
    }
}

/// Which side of the Metropolis cards lies up (all four the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// Each gives its owner two more cards at the harvest of their turn.
    A,
    /// The rule source does not say what the B side does; it gives no harvest bonus here.
    B,
}

/// The compositions of the decks, when a header declares them; the draws are then checked against them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decks {
    /// Resource cards of each kind in the game.
    pub resources: Option<Resources>,
    /// Building cards of each kind of the row (the five first laid out included).
    pub buildings: Option<BTreeMap<Card, u8>>,
    /// Event cards by name.
    pub events: Option<BTreeMap<String, u8>>,
}

/// Where in the turn the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// The turn begins with the harvest.
    Harvest,
    /// Trading and building, in any order.
    Play,
    /// A Robber event was revealed; the players in `must_discard` discard before the turn goes on.
    Discard,
    Over,
}

/// The state of a game. What its header fixes (the table, the decks) is `#[serde(skip)]`: a checkpoint is the
/// rest, written whole (see `almanac_core::Rules`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, almanac_core::Played)]
pub struct State {
    #[serde(skip)]
    pub table: Table,
    pub players: Vec<Player>,
    /// The open building row (in no order: cards of a kind are alike).
    pub row: Vec<Card>,
    /// Metropolis cards left in their stack.
    pub metropolises_left: u8,
    pub side: Side,
    #[serde(skip)]
    pub decks: Arc<Decks>,
    /// Building cards of each kind that have left the deck (the first row included).
    pub buildings_out: BTreeMap<Card, u8>,
    /// Event cards revealed since the event deck was last shuffled.
    pub events_out: BTreeMap<String, u8>,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    /// The one trade of the turn happened.
    pub traded: bool,
    /// The one road trade of the turn happened.
    pub road_traded: bool,
    /// Cards each player still has to discard after a Robber event.
    pub must_discard: Vec<u8>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub winner: Option<Seat>,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

impl State {
    /// Victory points: uncovered settlements, cities and metropolises, and the special cards. All are visible.
    pub fn vp(&self, seat: Seat) -> i32 {
        let p = &self.players[seat as usize];
        let mut vp = Card::ALL.iter().map(|&c| p.count(c) as i32 * c.points()).sum::<i32>();
        if self.longest_road == Some(seat) {
            vp += 2;
        }
        if self.largest_army == Some(seat) {
            vp += 2;
        }
        vp
    }

    /// How many cards the harvest gives each player at the start of `active`'s turn.
    pub fn harvest(&self, seat: Seat) -> u32 {
        if seat != self.active {
            return 1;
        }
        let p = &self.players[seat as usize];
        let metropolis_bonus = if self.side == Side::A { 2 * p.metropolises as u32 } else { 0 };
        1 + p.cities as u32 + metropolis_bonus
    }

    /// Who holds a special card after a change: the first to reach `minimum` takes it; it changes hands only
    /// when another player has strictly more than the holder.
    pub fn special_holder(&self, holder: Option<Seat>, counts: &[u8], minimum: u8) -> Option<Seat> {
        let best = |exclude: Option<Seat>| {
            self.seats().filter(|&s| Some(s) != exclude).max_by_key(|&s| (counts[s as usize], std::cmp::Reverse(s)))
        };
        match holder {
            Some(h) => match best(Some(h)) {
                Some(o) if counts[o as usize] > counts[h as usize] => Some(o),
                _ => Some(h),
            },
            None => best(None).filter(|&s| counts[s as usize] >= minimum),
        }
    }

    /// When the header declares the resource deck: more cards of a kind in hands than the deck holds.
    pub fn too_many_resources(&self) -> Option<String> {
        let declared = self.decks.resources?;
        for r in Resource::ALL {
            let held: u32 = self.players.iter().map(|p| p.hand.known[r] as u32).sum();
            if held > declared[r] as u32 {
                return Some(format!("{held} {r} cards are in hands, but the deck holds {}", declared[r]));
            }
        }
        let held: u32 = self.players.iter().map(|p| p.hand.total()).sum();
        (held > declared.total())
            .then(|| format!("{held} resource cards are in hands, but the deck holds {}", declared.total()))
    }

    /// Resource cards in no hand: the deck and its discard pile, which is shuffled into a new deck when the
    /// deck runs out. Known only when the header declares the resource deck.
    pub fn cards_left(&self) -> Option<u32> {
        let declared = self.decks.resources?;
        let held: u32 = self.players.iter().map(|p| p.hand.total()).sum();
        Some(declared.total().saturating_sub(held))
    }

    pub fn road_counts(&self) -> Vec<u8> {
        self.players.iter().map(|p| p.roads).collect()
    }

    pub fn knight_counts(&self) -> Vec<u8> {
        self.players.iter().map(|p| p.knights).collect()
    }
}
