//! The building cards: what each costs, what it is worth, where it lies.

use almanac_catan::resources::Resources;

/// A card a player builds: from the open row (road, settlement, city, knight) or the Metropolis stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Card {
    Road,
    Settlement,
    City,
    Knight,
    Metropolis,
}

impl Card {
    pub const ALL: [Card; 5] = [Card::Road, Card::Settlement, Card::City, Card::Knight, Card::Metropolis];
    /// The cards of the open row (the Metropolis cards lie in a stack of their own).
    pub const ROW: [Card; 4] = [Card::Road, Card::Settlement, Card::City, Card::Knight];

    pub fn name(self) -> &'static str {
        match self {
            Card::Road => "road",
            Card::Settlement => "settlement",
            Card::City => "city",
            Card::Knight => "knight",
            Card::Metropolis => "metropolis",
        }
    }

    /// More than one, in words ("cities").
    pub fn plural(self) -> &'static str {
        match self {
            Card::Road => "roads",
            Card::Settlement => "settlements",
            Card::City => "cities",
            Card::Knight => "knights",
            Card::Metropolis => "metropolises",
        }
    }

    pub fn parse(name: &str) -> Result<Card, String> {
        almanac_core::field::one_of(&Card::ALL, name, Card::name, "a building card")
    }

    /// What it costs, in the order lumber, brick, wool, grain, ore.
    pub fn cost(self) -> Resources {
        match self {
            Card::Road => Resources::new(1, 1, 0, 0, 0),
            Card::Settlement => Resources::new(1, 1, 1, 1, 0),
            Card::City => Resources::new(0, 0, 0, 2, 3),
            Card::Metropolis => Resources::new(0, 0, 3, 0, 1),
            Card::Knight => Resources::new(0, 0, 1, 1, 1),
        }
    }

    /// Victory points while it lies uncovered.
    pub fn points(self) -> i32 {
        match self {
            Card::Settlement => 1,
            Card::City => 2,
            Card::Metropolis => 3,
            Card::Road | Card::Knight => 0,
        }
    }

    /// The card it is laid on (and covers), if any.
    pub fn covers(self) -> Option<Card> {
        match self {
            Card::City => Some(Card::Settlement),
            Card::Metropolis => Some(Card::City),
            _ => None,
        }
    }
}

/// The rule source's numbers, not the base game's.
pub const VP_TO_WIN: i32 = 7;
pub const LONGEST_ROAD_ROADS: u8 = 3;
pub const LARGEST_ARMY_KNIGHTS: u8 = 2;
/// A Robber event makes a player holding more than this (plus one per knight) discard half.
pub const ROBBER_LIMIT: u32 = 7;
/// The open building row holds this many cards while the deck lasts.
pub const ROW_SIZE: usize = 5;
/// The Metropolis cards beside the row.
pub const METROPOLISES: u8 = 4;
/// Resource cards each player is dealt at the start.
pub const STARTING_HAND: u32 = 2;

/// How many cards of one kind a road trade gives for one missing resource, by the roads a player has.
pub fn road_trade_rate(roads: u8) -> u8 {
    match roads {
        0 | 1 => 4,
        2 => 3,
        3 => 2,
        _ => 1,
    }
}
