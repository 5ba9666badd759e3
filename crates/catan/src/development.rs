//! Development cards: the kinds, the decks, and a player's cards (held, bought this turn, played).

use std::ops::{Index, IndexMut};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DevCard {
    Knight,
    RoadBuilding,
    YearOfPlenty,
    Monopoly,
    VictoryPoint,
}

impl DevCard {
    pub const ALL: [DevCard; 5] =
        [DevCard::Knight, DevCard::RoadBuilding, DevCard::YearOfPlenty, DevCard::Monopoly, DevCard::VictoryPoint];

    pub fn name(self) -> &'static str {
        match self {
            DevCard::Knight => "knight",
            DevCard::RoadBuilding => "road_building",
            DevCard::YearOfPlenty => "year_of_plenty",
            DevCard::Monopoly => "monopoly",
            DevCard::VictoryPoint => "victory_point",
        }
    }

    /// The card as a person says it ("year of plenty").
    pub fn words(self) -> &'static str {
        match self {
            DevCard::Knight => "knight",
            DevCard::RoadBuilding => "road building",
            DevCard::YearOfPlenty => "year of plenty",
            DevCard::Monopoly => "monopoly",
            DevCard::VictoryPoint => "victory point",
        }
    }

    pub fn from_name(name: &str) -> Option<DevCard> {
        DevCard::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Reads a card name, or says which names exist.
    pub fn parse(name: &str) -> Result<DevCard, String> {
        DevCard::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = DevCard::ALL.iter().map(|c| c.name()).collect();
            format!("`{name}` is not a development card ({})", names.join(", "))
        })
    }
}

/// The item name of a development card bought out of the recorder's sight.
pub const UNKNOWN_DEVELOPMENT: &str = "unknown_development";

/// A count of development cards of each kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DevCounts([u8; 5]);

impl DevCounts {
    pub const NONE: DevCounts = DevCounts([0; 5]);

    pub const fn new(knight: u8, road_building: u8, year_of_plenty: u8, monopoly: u8, victory_point: u8) -> Self {
        DevCounts([knight, road_building, year_of_plenty, monopoly, victory_point])
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = (DevCard, u8)> + '_ {
        DevCard::ALL.into_iter().map(|c| (c, self[c]))
    }
}

impl Index<DevCard> for DevCounts {
    type Output = u8;
    fn index(&self, c: DevCard) -> &u8 {
        &self.0[c as usize]
    }
}

impl IndexMut<DevCard> for DevCounts {
    fn index_mut(&mut self, c: DevCard) -> &mut u8 {
        &mut self.0[c as usize]
    }
}

/// The development deck of the base game: 14 knights, 2 road building, 2 year of plenty, 2 monopoly, 5 VP.
pub const DEV_DECK: DevCounts = DevCounts::new(14, 2, 2, 2, 5);
/// With the 5-6 player extension's 9 more cards: 6 knights, and one of each progress card.
pub const DEV_DECK_5_6: DevCounts = DevCounts::new(20, 3, 3, 3, 5);

/// A player's development cards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DevCards {
    /// Held cards known to be of each type.
    pub held: DevCounts,
    /// Held cards bought face down out of the recorder's sight.
    pub held_unknown: u8,
    /// Of the held cards, those bought this turn (they cannot be played this turn).
    pub new: DevCounts,
    pub new_unknown: u8,
    /// Played knights and progress cards, and revealed victory point cards.
    pub played: DevCounts,
    /// Played knights given up again (Vincent, in the Helpers scenario).
    pub knights_discarded: u8,
}

impl DevCards {
    pub fn held_total(&self) -> u32 {
        self.held.total() + self.held_unknown as u32
    }

    /// Can a card of type `c` bought before this turn be played now?
    pub fn can_play(&self, c: DevCard) -> bool {
        let old_known = self.held[c] - self.new[c];
        let old_unknown = self.held_unknown - self.new_unknown;
        old_known > 0 || old_unknown > 0
    }

    /// Plays (or reveals) one card of type `c` bought before this turn; an unknown card resolves to `c`.
    pub fn play(&mut self, c: DevCard) {
        if self.held[c] > self.new[c] {
            self.held[c] -= 1;
        } else {
            self.held_unknown -= 1;
        }
        self.played[c] += 1;
    }

    /// Cards bought this turn become playable in the player's next turn.
    pub fn age(&mut self) {
        self.new = DevCounts::NONE;
        self.new_unknown = 0;
    }
}
