//! Resources and terrains, counts of resource cards, and hands that may hold cards of unknown type.

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, IndexMut};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Resource {
    Lumber,
    Brick,
    Wool,
    Grain,
    Ore,
}

impl Resource {
    pub const ALL: [Resource; 5] = [Resource::Lumber, Resource::Brick, Resource::Wool, Resource::Grain, Resource::Ore];

    pub fn name(self) -> &'static str {
        match self {
            Resource::Lumber => "lumber",
            Resource::Brick => "brick",
            Resource::Wool => "wool",
            Resource::Grain => "grain",
            Resource::Ore => "ore",
        }
    }

    /// Reads a resource name; the common English aliases are accepted.
    pub fn from_name(name: &str) -> Option<Resource> {
        Some(match name {
            "lumber" | "wood" => Resource::Lumber,
            "brick" => Resource::Brick,
            "wool" | "sheep" => Resource::Wool,
            "grain" | "wheat" => Resource::Grain,
            "ore" => Resource::Ore,
            _ => return None,
        })
    }

    /// Reads a resource name, or says which names exist.
    pub fn parse(name: &str) -> Result<Resource, String> {
        Resource::from_name(name).ok_or_else(|| format!("`{name}` is not a resource (lumber, brick, wool, grain, ore)"))
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terrain {
    Forest,
    Hills,
    Pasture,
    Fields,
    Mountains,
    Desert,
}

impl Terrain {
    pub const ALL: [Terrain; 6] =
        [Terrain::Forest, Terrain::Hills, Terrain::Pasture, Terrain::Fields, Terrain::Mountains, Terrain::Desert];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Forest => "forest",
            Terrain::Hills => "hills",
            Terrain::Pasture => "pasture",
            Terrain::Fields => "fields",
            Terrain::Mountains => "mountains",
            Terrain::Desert => "desert",
        }
    }

    pub fn from_name(name: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The resource the terrain produces (none for the desert).
    pub fn produces(self) -> Option<Resource> {
        match self {
            Terrain::Forest => Some(Resource::Lumber),
            Terrain::Hills => Some(Resource::Brick),
            Terrain::Pasture => Some(Resource::Wool),
            Terrain::Fields => Some(Resource::Grain),
            Terrain::Mountains => Some(Resource::Ore),
            Terrain::Desert => None,
        }
    }
}

/// A count of cards of each resource (a bank, a cost, the known part of a hand).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Resources([u8; 5]);

impl Resources {
    pub const NONE: Resources = Resources([0; 5]);

    pub const fn new(lumber: u8, brick: u8, wool: u8, grain: u8, ore: u8) -> Resources {
        Resources([lumber, brick, wool, grain, ore])
    }

    /// `n` of every resource.
    pub const fn each(n: u8) -> Resources {
        Resources([n; 5])
    }

    /// `n` cards of one resource.
    pub fn of(r: Resource, n: u8) -> Resources {
        let mut c = Resources::NONE;
        c[r] = n;
        c
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Each resource with its count, zeros included.
    pub fn iter(&self) -> impl Iterator<Item = (Resource, u8)> + '_ {
        Resource::ALL.into_iter().map(|r| (r, self[r]))
    }

    /// The resources with a count above zero.
    pub fn present(&self) -> impl Iterator<Item = (Resource, u8)> + '_ {
        self.iter().filter(|&(_, n)| n > 0)
    }
}

impl Index<Resource> for Resources {
    type Output = u8;
    fn index(&self, r: Resource) -> &u8 {
        &self.0[r as usize]
    }
}

impl IndexMut<Resource> for Resources {
    fn index_mut(&mut self, r: Resource) -> &mut u8 {
        &mut self.0[r as usize]
    }
}

impl From<[u8; 5]> for Resources {
    /// Counts in the order lumber, brick, wool, grain, ore.
    fn from(counts: [u8; 5]) -> Resources {
        Resources(counts)
    }
}

impl PartialEq<[u8; 5]> for Resources {
    fn eq(&self, counts: &[u8; 5]) -> bool {
        self.0 == *counts
    }
}

/// What each piece and card costs.
pub const ROAD_COST: Resources = Resources::new(1, 1, 0, 0, 0);
pub const SETTLEMENT_COST: Resources = Resources::new(1, 1, 1, 1, 0);
pub const CITY_COST: Resources = Resources::new(0, 0, 0, 2, 3);
pub const DEV_CARD_COST: Resources = Resources::new(0, 0, 1, 1, 1);

/// A count of resource cards, some possibly of unknown type (a bundle in an event: discards, trades).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bundle {
    pub known: Resources,
    pub unknown: u8,
}

impl Bundle {
    pub fn known(known: Resources) -> Bundle {
        Bundle { known, unknown: 0 }
    }

    pub fn total(&self) -> u32 {
        self.known.total() + self.unknown as u32
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The cards by item name, `unknown` last: the words of facts.
    pub fn items(&self) -> Vec<(&'static str, u32)> {
        let mut v: Vec<(&'static str, u32)> = self.known.present().map(|(r, n)| (r.name(), n as u32)).collect();
        if self.unknown > 0 {
            v.push((UNKNOWN, self.unknown as u32));
        }
        v
    }
}

/// The item name of a card nobody saw.
pub const UNKNOWN: &str = "unknown";

/// A bundle as logs write it: `{"ore": 2, "unknown": 1}`, read without allocating (bundles are on every
/// roll of an imported record).
impl<'de> Deserialize<'de> for Bundle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A bundle's key: a resource's name or `unknown`.
        enum Item {
            Known(Resource),
            Unknown,
        }
        impl<'de> Deserialize<'de> for Item {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = Item;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a resource's name or `unknown`")
                    }
                    fn visit_str<E: de::Error>(self, name: &str) -> Result<Item, E> {
                        match name {
                            UNKNOWN => Ok(Item::Unknown),
                            _ => Resource::parse(name).map(Item::Known).map_err(E::custom),
                        }
                    }
                }
                d.deserialize_str(V)
            }
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bundle;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("cards as an object like {\"ore\": 2}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Bundle, A::Error> {
                let mut b = Bundle::default();
                while let Some(item) = map.next_key::<Item>()? {
                    let n: u8 = map.next_value()?;
                    match item {
                        Item::Unknown => b.unknown = b.unknown.saturating_add(n),
                        Item::Known(r) => b.known[r] = b.known[r].saturating_add(n),
                    }
                }
                Ok(b)
            }
        }
        d.deserialize_map(V)
    }
}

/// Written as read: the cards present by name, `unknown` last.
impl Serialize for Bundle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let items = self.items();
        let mut map = s.serialize_map(Some(items.len()))?;
        for (name, n) in items {
            map.serialize_entry(name, &n)?;
        }
        map.end()
    }
}

impl fmt::Display for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_items(f, &self.items())
    }
}

/// Cards by kind name in words: `2 wood, 1 ore`, or `nothing`.
fn write_items(f: &mut fmt::Formatter<'_>, items: &[(&str, u32)]) -> fmt::Result {
    if items.is_empty() {
        return write!(f, "nothing");
    }
    let parts: Vec<String> = items.iter().map(|(n, c)| format!("{c} {n}")).collect();
    write!(f, "{}", parts.join(", "))
}

/// What a count of cards counts: the kinds, by name. The five resources here; a game of the family with
/// more kinds (commodities) counts its own, and its hands are the same [`Pile`]s.
pub trait Tally: Copy + Default + PartialEq + fmt::Debug {
    type Kind: Copy + PartialEq + fmt::Display + 'static;
    /// Every kind, in the order counts keep them.
    fn kinds() -> &'static [Self::Kind];
    fn name(kind: Self::Kind) -> &'static str;
    fn count(&self, kind: Self::Kind) -> u8;
    fn count_mut(&mut self, kind: Self::Kind) -> &mut u8;
}

impl Tally for Resources {
    type Kind = Resource;
    fn kinds() -> &'static [Resource] {
        &Resource::ALL
    }
    fn name(kind: Resource) -> &'static str {
        kind.name()
    }
    fn count(&self, kind: Resource) -> u8 {
        self[kind]
    }
    fn count_mut(&mut self, kind: Resource) -> &mut u8 {
        &mut self[kind]
    }
}

/// Cards, some perhaps of a kind nobody recorded: a player's hand, or cards given and taken. `known` counts
/// cards surely of each kind; `unknown` more are of a kind nobody saw (a card stolen out of sight). The total
/// is always exact; `known` is a lower bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pile<T> {
    pub known: T,
    pub unknown: u8,
}

/// A player's resource cards.
pub type Hand = Pile<Resources>;

impl<T: Tally> Pile<T> {
    /// Cards every one of which was seen.
    pub fn known(known: T) -> Pile<T> {
        Pile { known, unknown: 0 }
    }

    pub fn total(&self) -> u32 {
        T::kinds().iter().map(|&k| self.known.count(k) as u32).sum::<u32>() + self.unknown as u32
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Could these cards include `n` of kind `k`?
    pub fn can_pay(&self, k: T::Kind, n: u8) -> bool {
        self.known.count(k) as u32 + self.unknown as u32 >= n as u32
    }

    pub fn can_pay_all(&self, cost: &T) -> bool {
        let missing: u32 = T::kinds().iter().map(|&k| cost.count(k).saturating_sub(self.known.count(k)) as u32).sum();
        missing <= self.unknown as u32
    }

    /// Removes `n` cards known to be of kind `k`; cards of unknown kind are resolved to `k` as needed.
    /// The caller has checked `can_pay`.
    pub fn take(&mut self, k: T::Kind, n: u8) {
        let known = self.known.count_mut(k);
        if *known >= n {
            *known -= n;
        } else {
            self.unknown -= n - *known;
            *known = 0;
        }
    }

    pub fn take_all(&mut self, cost: &T) {
        for &k in T::kinds() {
            let n = cost.count(k);
            if n > 0 {
                self.take(k, n);
            }
        }
    }

    /// Removes one card whose kind nobody saw. Any known card might have been the one, so each known
    /// count drops by one as a lower bound; the rest of the cards become unknown.
    pub fn take_unseen(&mut self) {
        let total = self.total();
        debug_assert!(total > 0);
        for &k in T::kinds() {
            let c = self.known.count_mut(k);
            *c = c.saturating_sub(1);
        }
        self.unknown = (total - 1 - (self.total() - self.unknown as u32)) as u8;
    }

    pub fn add(&mut self, k: T::Kind, n: u8) {
        *self.known.count_mut(k) += n;
    }

    pub fn add_all(&mut self, cards: &T) {
        for &k in T::kinds() {
            self.add(k, cards.count(k));
        }
    }

    /// Could these cards give `cards` (its unseen ones too)?
    pub fn can_give(&self, cards: &Pile<T>) -> bool {
        self.can_pay_all(&cards.known) && self.total() >= cards.total()
    }

    /// Gives `cards` (checked by `can_give`): the named ones by kind, the unseen ones unseen.
    pub fn give(&mut self, cards: &Pile<T>) {
        self.take_all(&cards.known);
        for _ in 0..cards.unknown {
            self.take_unseen();
        }
    }

    pub fn receive(&mut self, cards: &Pile<T>) {
        self.add_all(&cards.known);
        self.unknown += cards.unknown;
    }

    /// The cards by kind name, `unknown` last: the words of facts.
    pub fn items(&self) -> Vec<(&'static str, u32)> {
        let mut v: Vec<(&'static str, u32)> = T::kinds()
            .iter()
            .filter(|&&k| self.known.count(k) > 0)
            .map(|&k| (T::name(k), self.known.count(k) as u32))
            .collect();
        if self.unknown > 0 {
            v.push((UNKNOWN, self.unknown as u32));
        }
        v
    }
}

impl<T: Tally> fmt::Display for Pile<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_items(f, &self.items())
    }
}

/// One resource card as a log records it (a card stolen, drawn, given): its kind, or unseen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceCard {
    Known(Resource),
    /// The recorder did not see which card.
    Unknown,
}

impl ResourceCard {
    pub fn parse(name: &str) -> Result<ResourceCard, String> {
        match name {
            UNKNOWN => Ok(ResourceCard::Unknown),
            r => Ok(ResourceCard::Known(Resource::parse(r)?)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ResourceCard::Known(r) => r.name(),
            ResourceCard::Unknown => UNKNOWN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_cards_pay_for_what_is_missing() {
        let mut hand = Hand { known: Resources::new(1, 0, 0, 0, 0), unknown: 1 };
        assert!(hand.can_pay_all(&ROAD_COST));
        assert!(!hand.can_pay_all(&SETTLEMENT_COST));
        hand.take_all(&ROAD_COST);
        assert_eq!(hand, Hand::default());
    }

    #[test]
    fn a_card_taken_unseen_makes_every_known_count_a_lower_bound() {
        let mut hand = Hand { known: Resources::new(2, 1, 0, 0, 0), unknown: 0 };
        hand.take_unseen();
        assert_eq!(hand.total(), 2);
        assert_eq!(hand.known, Resources::new(1, 0, 0, 0, 0));
        assert_eq!(hand.unknown, 1);
    }
}
