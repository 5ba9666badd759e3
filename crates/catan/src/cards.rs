//! Resources, development cards, and hands that may hold cards of unknown type.

use std::fmt;

pub const RESOURCES: [&str; 5] = ["lumber", "brick", "wool", "grain", "ore"];
pub const TERRAINS: [&str; 6] = ["forest", "hills", "pasture", "fields", "mountains", "desert"];
pub const DEV_CARDS: [&str; 5] = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];

pub const KNIGHT: usize = 0;
pub const ROAD_BUILDING: usize = 1;
pub const YEAR_OF_PLENTY: usize = 2;
pub const MONOPOLY: usize = 3;
pub const VICTORY_POINT: usize = 4;

/// The development deck of the base game: 14 knights, 2 road building, 2 year of plenty, 2 monopoly, 5 VP.
pub const DEV_DECK: [u8; 5] = [14, 2, 2, 2, 5];
/// With the 5-6 player extension's 9 more cards: 6 knights, and one of each progress card.
pub const DEV_DECK_5_6: [u8; 5] = [20, 3, 3, 3, 5];

/// What each piece costs, as [lumber, brick, wool, grain, ore].
pub const ROAD_COST: [u8; 5] = [1, 1, 0, 0, 0];
pub const SETTLEMENT_COST: [u8; 5] = [1, 1, 1, 1, 0];
pub const CITY_COST: [u8; 5] = [0, 0, 0, 2, 3];
pub const DEV_CARD_COST: [u8; 5] = [0, 0, 1, 1, 1];

/// Reads a resource name; the common English aliases are accepted.
pub fn resource(name: &str) -> Option<usize> {
    Some(match name {
        "lumber" | "wood" => 0,
        "brick" => 1,
        "wool" | "sheep" => 2,
        "grain" | "wheat" => 3,
        "ore" => 4,
        _ => return None,
    })
}

pub fn dev_card(name: &str) -> Option<usize> {
    DEV_CARDS.iter().position(|c| *c == name)
}

pub fn terrain(name: &str) -> Option<usize> {
    TERRAINS.iter().position(|t| *t == name)
}

/// The resource a terrain produces (`None` for the desert).
pub fn produces(terrain: usize) -> Option<usize> {
    (terrain < 5).then_some(terrain)
}

/// A count of resource cards, some possibly of unknown type (a bundle in an event: discards, trades).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bundle {
    pub known: [u8; 5],
    pub unknown: u8,
}

impl Bundle {
    pub fn total(&self) -> u32 {
        self.known.iter().map(|&n| n as u32).sum::<u32>() + self.unknown as u32
    }
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
    pub fn items(&self) -> Vec<(&'static str, u32)> {
        let mut v: Vec<(&'static str, u32)> =
            (0..5).filter(|&r| self.known[r] > 0).map(|r| (RESOURCES[r], self.known[r] as u32)).collect();
        if self.unknown > 0 {
            v.push(("unknown", self.unknown as u32));
        }
        v
    }
}

impl fmt::Display for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = self.items();
        if items.is_empty() {
            return write!(f, "nothing");
        }
        let parts: Vec<String> = items.iter().map(|(n, c)| format!("{c} {n}")).collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// A player's resource cards. `known[r]` cards are surely of type `r`; `unknown` more are of a type
/// nobody recorded (a card stolen out of sight). The total is always exact; `known` is a lower bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hand {
    pub known: [u8; 5],
    pub unknown: u8,
}

impl Hand {
    pub fn total(&self) -> u32 {
        self.known.iter().map(|&n| n as u32).sum::<u32>() + self.unknown as u32
    }

    /// Could this hand hold `n` cards of resource `r`?
    pub fn can_pay(&self, r: usize, n: u8) -> bool {
        self.known[r] as u32 + self.unknown as u32 >= n as u32
    }

    pub fn can_pay_all(&self, cost: &[u8; 5]) -> bool {
        let missing: u32 = (0..5).map(|r| cost[r].saturating_sub(self.known[r]) as u32).sum();
        missing <= self.unknown as u32
    }

    /// Removes cards known to be of type `r`; cards of unknown type are resolved to `r` as needed.
    /// The caller has checked `can_pay`.
    pub fn take(&mut self, r: usize, n: u8) {
        if self.known[r] >= n {
            self.known[r] -= n;
        } else {
            self.unknown -= n - self.known[r];
            self.known[r] = 0;
        }
    }

    pub fn take_all(&mut self, cost: &[u8; 5]) {
        for r in 0..5 {
            if cost[r] > 0 {
                self.take(r, cost[r]);
            }
        }
    }

    /// Removes one card whose type nobody saw. Any known card might have been the one, so each known
    /// count drops by one as a lower bound; the rest of the hand becomes unknown.
    pub fn take_unseen(&mut self) {
        let total = self.total();
        debug_assert!(total > 0);
        for r in 0..5 {
            self.known[r] = self.known[r].saturating_sub(1);
        }
        let known: u32 = self.known.iter().map(|&n| n as u32).sum();
        self.unknown = (total - 1 - known) as u8;
    }

    pub fn add(&mut self, r: usize, n: u8) {
        self.known[r] += n;
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Bundle { known: self.known, unknown: self.unknown }.fmt(f)
    }
}

/// A player's development cards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DevCards {
    /// Held cards known to be of each type.
    pub held: [u8; 5],
    /// Held cards bought face down out of the recorder's sight.
    pub held_unknown: u8,
    /// Of the held cards, those bought this turn (they cannot be played this turn).
    pub new: [u8; 5],
    pub new_unknown: u8,
    /// Played knights and progress cards, and revealed victory point cards.
    pub played: [u8; 5],
    /// Played knights given up again (Vincent, in the Helpers scenario).
    pub knights_discarded: u8,
}

impl DevCards {
    pub fn held_total(&self) -> u32 {
        self.held.iter().map(|&n| n as u32).sum::<u32>() + self.held_unknown as u32
    }

    /// Can a card of type `c` bought before this turn be played now?
    pub fn can_play(&self, c: usize) -> bool {
        let old_known = self.held[c] - self.new[c];
        let old_unknown = self.held_unknown - self.new_unknown;
        old_known > 0 || old_unknown > 0
    }

    /// Plays (or reveals) one card of type `c` bought before this turn; an unknown card resolves to `c`.
    pub fn play(&mut self, c: usize) {
        if self.held[c] > self.new[c] {
            self.held[c] -= 1;
        } else {
            self.held_unknown -= 1;
        }
        self.played[c] += 1;
    }
}
