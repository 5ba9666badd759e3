//! Gold and influence cards. Gold is taken and paid in the open, so a player's gold is always known;
//! influence cards (red, blue, green) are drawn face down, so a spectator may know only how many.

use std::collections::BTreeMap;
use std::fmt;

/// The cards of the game: 51 gold, 39 influence (the rule source's numbers), 13 of each colour.
pub const GOLD_CARDS: u8 = 51;
pub const INFLUENCE_CARDS: u8 = 39;
pub const STARTING_GOLD: u8 = 3;
pub const STARTING_INFLUENCE: u8 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Influence {
    Red,
    Blue,
    Green,
}

impl Influence {
    pub const ALL: [Influence; 3] = [Influence::Red, Influence::Blue, Influence::Green];

    pub fn name(self) -> &'static str {
        match self {
            Influence::Red => "red",
            Influence::Blue => "blue",
            Influence::Green => "green",
        }
    }

    /// The item facts use.
    pub fn item(self) -> &'static str {
        match self {
            Influence::Red => "influence_red",
            Influence::Blue => "influence_blue",
            Influence::Green => "influence_green",
        }
    }

    pub fn parse(name: &str) -> Result<Influence, String> {
        almanac_core::field::one_of(&Influence::ALL, name, Influence::name, "an influence colour")
    }
}

pub const GOLD: &str = "gold";
pub const UNKNOWN: &str = "unknown";

/// Cards named in an event: gold, influence by colour, influence nobody saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cards {
    pub gold: u8,
    pub influence: [u8; 3],
    pub unknown: u8,
}

impl Cards {
    pub fn gold(n: u8) -> Cards {
        Cards { gold: n, ..Cards::default() }
    }

    pub fn of(c: Influence, n: u8) -> Cards {
        let mut cards = Cards::default();
        cards.influence[c as usize] = n;
        cards
    }

    /// One influence card of each colour.
    pub fn one_of_each() -> Cards {
        Cards { influence: [1, 1, 1], ..Cards::default() }
    }

    pub fn influence_total(&self) -> u32 {
        self.influence.iter().map(|&n| n as u32).sum::<u32>() + self.unknown as u32
    }

    pub fn total(&self) -> u32 {
        self.gold as u32 + self.influence_total()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Reads `{"gold": 2, "red": 1, "unknown": 1}`.
    pub fn parse(map: &BTreeMap<String, u8>) -> Result<Cards, String> {
        let mut c = Cards::default();
        for (name, &n) in map {
            match name.as_str() {
                GOLD => c.gold = c.gold.saturating_add(n),
                UNKNOWN => c.unknown = c.unknown.saturating_add(n),
                other => {
                    let i = Influence::parse(other)
                        .map_err(|_| format!("`{other}` is not a card (gold, red, blue, green, unknown)"))?;
                    c.influence[i as usize] = c.influence[i as usize].saturating_add(n);
                }
            }
        }
        Ok(c)
    }

    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        if self.gold > 0 {
            m.insert(GOLD.into(), self.gold.into());
        }
        for c in Influence::ALL {
            if self.influence[c as usize] > 0 {
                m.insert(c.name().into(), self.influence[c as usize].into());
            }
        }
        if self.unknown > 0 {
            m.insert(UNKNOWN.into(), self.unknown.into());
        }
        serde_json::Value::Object(m)
    }

    /// The cards by fact item.
    pub fn items(&self) -> Vec<(&'static str, u32)> {
        let mut v = Vec::new();
        if self.gold > 0 {
            v.push((GOLD, self.gold as u32));
        }
        for c in Influence::ALL {
            if self.influence[c as usize] > 0 {
                v.push((c.item(), self.influence[c as usize] as u32));
            }
        }
        if self.unknown > 0 {
            v.push((UNKNOWN, self.unknown as u32));
        }
        v
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.gold > 0 {
            parts.push(format!("{} gold", self.gold));
        }
        for c in Influence::ALL {
            if self.influence[c as usize] > 0 {
                parts.push(format!("{} {}", self.influence[c as usize], c.name()));
            }
        }
        if self.unknown > 0 {
            parts.push(format!("{} unseen influence", self.unknown));
        }
        if parts.is_empty() {
            return f.write_str("nothing");
        }
        f.write_str(&parts.join(", "))
    }
}

/// A player's hand: the same shape, where `influence` is a lower bound per colour and `unknown` the
/// influence cards of a colour nobody saw.
pub type Hand = Cards;

impl Hand {
    /// Could the hand pay `cost`: the gold, the named colours (unseen cards standing in), the unseen?
    pub fn can_pay(&self, cost: &Cards) -> bool {
        let missing: u32 = (0..3).map(|i| cost.influence[i].saturating_sub(self.influence[i]) as u32).sum::<u32>();
        self.gold >= cost.gold
            && missing <= self.unknown as u32
            && missing + cost.unknown as u32 <= self.unknown as u32 + self.spare_known(cost)
    }

    /// Known influence cards beyond what `cost` names by colour: they may pay for unseen ones.
    fn spare_known(&self, cost: &Cards) -> u32 {
        (0..3).map(|i| self.influence[i].saturating_sub(cost.influence[i]) as u32).sum()
    }

    /// Pays `cost` (checked by `can_pay`): named colours from known cards first, then unseen ones; unseen
    /// cards in the cost from unseen cards first, then known ones (which become lower bounds).
    pub fn pay(&mut self, cost: &Cards) {
        self.gold -= cost.gold;
        for i in 0..3 {
            let n = cost.influence[i];
            if self.influence[i] >= n {
                self.influence[i] -= n;
            } else {
                self.unknown -= n - self.influence[i];
                self.influence[i] = 0;
            }
        }
        for _ in 0..cost.unknown {
            if self.unknown > 0 {
                self.unknown -= 1;
            } else {
                // A known card went unseen: any colour may have been it.
                let total: u8 = self.influence.iter().sum();
                for c in self.influence.iter_mut() {
                    *c = c.saturating_sub(1);
                }
                self.unknown = total - 1 - self.influence.iter().sum::<u8>();
            }
        }
    }

    pub fn receive(&mut self, cards: &Cards) {
        self.gold += cards.gold;
        for i in 0..3 {
            self.influence[i] += cards.influence[i];
        }
        self.unknown += cards.unknown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unseen_influence_pays_for_a_colour_and_known_cards_for_the_unseen() {
        let hand = Cards { gold: 2, influence: [1, 0, 0], unknown: 2 };
        assert!(hand.can_pay(&Cards::of(Influence::Blue, 2)));
        assert!(!hand.can_pay(&Cards::of(Influence::Blue, 3)));
        assert!(hand.can_pay(&Cards::one_of_each()));
        let mut h = hand;
        h.pay(&Cards { gold: 1, influence: [0, 0, 0], unknown: 3 });
        assert_eq!(h.total(), 1);
        assert!(!hand.can_pay(&Cards::gold(3)));
    }
}
