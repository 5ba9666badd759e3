//! The cards of a hand: the base game's five resources and the three commodities a city makes on
//! mountains (coin), forest (paper) and pasture (cloth). Progress cards are not part of a hand (`progress`).

use almanac_catan::resources::{Pile, Resource, Tally, Terrain, UNKNOWN};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Index, IndexMut};

/// A commodity, and the city-improvement track it pays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Commodity {
    Cloth,
    Coin,
    Paper,
}

impl Commodity {
    pub const ALL: [Commodity; 3] = [Commodity::Cloth, Commodity::Coin, Commodity::Paper];

    pub fn name(self) -> &'static str {
        match self {
            Commodity::Cloth => "cloth",
            Commodity::Coin => "coin",
            Commodity::Paper => "paper",
        }
    }

    /// What a city on `terrain` makes besides its one resource (hills and fields give two resources).
    pub fn of_terrain(terrain: Terrain) -> Option<Commodity> {
        match terrain {
            Terrain::Pasture => Some(Commodity::Cloth),
            Terrain::Mountains => Some(Commodity::Coin),
            Terrain::Forest => Some(Commodity::Paper),
            _ => None,
        }
    }
}

/// One kind of card a hand holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Card {
    Resource(Resource),
    Commodity(Commodity),
}

impl Card {
    pub const ALL: [Card; 8] = [
        Card::Resource(Resource::Lumber),
        Card::Resource(Resource::Brick),
        Card::Resource(Resource::Wool),
        Card::Resource(Resource::Grain),
        Card::Resource(Resource::Ore),
        Card::Commodity(Commodity::Cloth),
        Card::Commodity(Commodity::Coin),
        Card::Commodity(Commodity::Paper),
    ];

    pub fn name(self) -> &'static str {
        match self {
            Card::Resource(r) => r.name(),
            Card::Commodity(c) => c.name(),
        }
    }

    fn index(self) -> usize {
        match self {
            Card::Resource(r) => r as usize,
            Card::Commodity(c) => 5 + c as usize,
        }
    }

    /// Reads a card's name, or says which names exist.
    pub fn parse(name: &str) -> Result<Card, String> {
        if let Some(r) = Resource::from_name(name) {
            return Ok(Card::Resource(r));
        }
        Commodity::ALL.into_iter().find(|c| c.name() == name).map(Card::Commodity).ok_or_else(|| {
            format!("`{name}` is not a resource or commodity (lumber, brick, wool, grain, ore, cloth, coin, paper)")
        })
    }

    pub fn is_commodity(self) -> bool {
        matches!(self, Card::Commodity(_))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A count of cards of each kind (a bank, a cost, the known part of a hand).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cards([u8; 8]);

impl Cards {
    pub const NONE: Cards = Cards([0; 8]);

    /// `n` cards of one kind.
    pub fn of(card: Card, n: u8) -> Cards {
        let mut c = Cards::NONE;
        c[card] = n;
        c
    }

    /// From (card, count) pairs.
    pub fn from_pairs(pairs: &[(Card, u8)]) -> Cards {
        let mut c = Cards::NONE;
        for &(card, n) in pairs {
            c[card] += n;
        }
        c
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The kinds with a count above zero.
    pub fn present(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        Card::ALL.into_iter().map(|c| (c, self[c])).filter(|&(_, n)| n > 0)
    }

    pub fn add(&mut self, other: &Cards) {
        for (c, n) in other.present() {
            self[c] += n;
        }
    }

    /// The cards by name: the words of facts.
    pub fn items(&self) -> Vec<(&'static str, u32)> {
        self.present().map(|(c, n)| (c.name(), n as u32)).collect()
    }
}

impl Index<Card> for Cards {
    type Output = u8;
    fn index(&self, c: Card) -> &u8 {
        &self.0[c.index()]
    }
}

impl IndexMut<Card> for Cards {
    fn index_mut(&mut self, c: Card) -> &mut u8 {
        &mut self.0[c.index()]
    }
}

impl Tally for Cards {
    type Kind = Card;
    fn kinds() -> &'static [Card] {
        &Card::ALL
    }
    fn name(kind: Card) -> &'static str {
        kind.name()
    }
    fn count(&self, kind: Card) -> u8 {
        self[kind]
    }
    fn count_mut(&mut self, kind: Card) -> &mut u8 {
        &mut self[kind]
    }
}

/// A player's resources and commodities: the base game's pile of cards (lower bounds and unseen cards),
/// counting eight kinds.
pub type Hand = Pile<Cards>;

/// Cards as an event names them: known kinds, and perhaps some nobody saw.
pub type Bundle = Pile<Cards>;

/// Reads `{"ore": 2, "coin": 1, "unknown": 1}`.
pub fn bundle(map: &BTreeMap<String, u8>) -> Result<Bundle, String> {
    let mut b = Bundle::default();
    for (name, &n) in map {
        if name == UNKNOWN {
            b.unknown = b.unknown.saturating_add(n);
        } else {
            let c = Card::parse(name)?;
            b.known[c] = b.known[c].saturating_add(n);
        }
    }
    Ok(b)
}

/// Writes a bundle as it is read.
pub fn bundle_json(b: &Bundle) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> =
        b.items().into_iter().map(|(n, c)| (n.to_string(), c.into())).collect();
    serde_json::Value::Object(map)
}

/// Costs.
pub fn cost(pairs: &[(Resource, u8)]) -> Cards {
    let mut c = Cards::NONE;
    for &(r, n) in pairs {
        c[Card::Resource(r)] += n;
    }
    c
}

pub const LUMBER: Card = Card::Resource(Resource::Lumber);
pub const BRICK: Card = Card::Resource(Resource::Brick);
pub const WOOL: Card = Card::Resource(Resource::Wool);
pub const GRAIN: Card = Card::Resource(Resource::Grain);
pub const ORE: Card = Card::Resource(Resource::Ore);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_cards_pay_for_commodities_too() {
        let mut hand = Hand { known: Cards::of(Card::Commodity(Commodity::Coin), 1), unknown: 1 };
        assert!(hand.can_pay_all(&Cards::of(Card::Commodity(Commodity::Coin), 2)));
        assert!(!hand.can_pay_all(&Cards::of(Card::Commodity(Commodity::Coin), 3)));
        hand.take(Card::Commodity(Commodity::Coin), 2);
        assert_eq!(hand, Hand::default());
    }

    #[test]
    fn every_card_reads_back_by_its_name() {
        for c in Card::ALL {
            assert_eq!(Card::parse(c.name()), Ok(c));
        }
        assert!(Card::parse("gold").unwrap_err().contains("cloth"));
    }
}
