//! The three city-improvement tracks and their progress cards: 54 cards, 18 of each colour, with the counts
//! of the reference's European deck.

use crate::cards::Commodity;
use std::fmt;

/// A city-improvement track, its commodity, and the colour of its progress cards and city gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Track {
    /// Yellow, paid in cloth; level 3 trades commodities 2:1.
    Trade,
    /// Blue, paid in coin; level 3 (the Fortress) promotes strong knights to mighty ones.
    Politics,
    /// Green, paid in paper; level 3 (the Aqueduct) gives a resource when a roll gave nothing.
    Science,
}

impl Track {
    pub const ALL: [Track; 3] = [Track::Trade, Track::Politics, Track::Science];

    pub fn name(self) -> &'static str {
        match self {
            Track::Trade => "trade",
            Track::Politics => "politics",
            Track::Science => "science",
        }
    }

    pub fn colour(self) -> &'static str {
        match self {
            Track::Trade => "yellow",
            Track::Politics => "blue",
            Track::Science => "green",
        }
    }

    pub fn parse(name: &str) -> Result<Track, String> {
        Track::ALL
            .into_iter()
            .find(|t| t.name() == name || t.colour() == name)
            .ok_or_else(|| format!("`{name}` is not a track (trade, politics, science)"))
    }

    pub fn commodity(self) -> Commodity {
        match self {
            Track::Trade => Commodity::Cloth,
            Track::Politics => Commodity::Coin,
            Track::Science => Commodity::Paper,
        }
    }

    /// The building of each level, 1 to 5 (English names).
    pub fn building(self, level: u8) -> &'static str {
        const TRADE: [&str; 5] = ["market", "trading house", "merchant guild", "bank", "great exchange"];
        const POLITICS: [&str; 5] = ["town hall", "church", "fortress", "cathedral", "high assembly"];
        const SCIENCE: [&str; 5] = ["abbey", "library", "aqueduct", "theater", "university"];
        let names = match self {
            Track::Trade => TRADE,
            Track::Politics => POLITICS,
            Track::Science => SCIENCE,
        };
        names[(level.clamp(1, 5) - 1) as usize]
    }

    /// The metropolis of the track, as facts name it.
    pub fn metropolis(self) -> &'static str {
        match self {
            Track::Trade => "metropolis_trade",
            Track::Politics => "metropolis_politics",
            Track::Science => "metropolis_science",
        }
    }
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The highest level of a track.
pub const MAX_LEVEL: u8 = 5;

/// Does a player at `level` of a track draw when the gate of its colour shows and the red die `red`?
/// Level 1 shows the red faces 1–2, each level one more (the seed: "ved første byudbygning fremkommer to
/// røde terninger, ved den anden tre").
pub fn draws(level: u8, red: u8) -> bool {
    level >= 1 && red <= level + 1
}

/// A progress card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Progress {
    // Science (green)
    Alchemist,
    Crane,
    Engineer,
    Inventor,
    Irrigation,
    Medicine,
    Mining,
    Printer,
    RoadBuilding,
    Smith,
    // Politics (blue)
    Bishop,
    Constitution,
    Deserter,
    Diplomat,
    Intrigue,
    Saboteur,
    Spy,
    Warlord,
    Wedding,
    // Trade (yellow)
    CommercialHarbor,
    MasterMerchant,
    Merchant,
    MerchantFleet,
    ResourceMonopoly,
    TradeMonopoly,
}

impl Progress {
    pub const ALL: [Progress; 25] = [
        Progress::Alchemist,
        Progress::Crane,
        Progress::Engineer,
        Progress::Inventor,
        Progress::Irrigation,
        Progress::Medicine,
        Progress::Mining,
        Progress::Printer,
        Progress::RoadBuilding,
        Progress::Smith,
        Progress::Bishop,
        Progress::Constitution,
        Progress::Deserter,
        Progress::Diplomat,
        Progress::Intrigue,
        Progress::Saboteur,
        Progress::Spy,
        Progress::Warlord,
        Progress::Wedding,
        Progress::CommercialHarbor,
        Progress::MasterMerchant,
        Progress::Merchant,
        Progress::MerchantFleet,
        Progress::ResourceMonopoly,
        Progress::TradeMonopoly,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Progress::Alchemist => "alchemist",
            Progress::Crane => "crane",
            Progress::Engineer => "engineer",
            Progress::Inventor => "inventor",
            Progress::Irrigation => "irrigation",
            Progress::Medicine => "medicine",
            Progress::Mining => "mining",
            Progress::Printer => "printer",
            Progress::RoadBuilding => "road_building",
            Progress::Smith => "smith",
            Progress::Bishop => "bishop",
            Progress::Constitution => "constitution",
            Progress::Deserter => "deserter",
            Progress::Diplomat => "diplomat",
            Progress::Intrigue => "intrigue",
            Progress::Saboteur => "saboteur",
            Progress::Spy => "spy",
            Progress::Warlord => "warlord",
            Progress::Wedding => "wedding",
            Progress::CommercialHarbor => "commercial_harbor",
            Progress::MasterMerchant => "master_merchant",
            Progress::Merchant => "merchant",
            Progress::MerchantFleet => "merchant_fleet",
            Progress::ResourceMonopoly => "resource_monopoly",
            Progress::TradeMonopoly => "trade_monopoly",
        }
    }

    pub fn parse(name: &str) -> Result<Progress, String> {
        Progress::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| format!("`{name}` is not a progress card"))
    }

    pub fn track(self) -> Track {
        match self as u8 {
            0..=9 => Track::Science,
            10..=18 => Track::Politics,
            _ => Track::Trade,
        }
    }

    /// Copies in the deck.
    pub fn count(self) -> u8 {
        match self {
            Progress::Engineer | Progress::Printer | Progress::Constitution => 1,
            Progress::Spy => 3,
            Progress::ResourceMonopoly => 4,
            Progress::Merchant => 6,
            _ => 2,
        }
    }

    /// A victory point card: shown at once when drawn, never in the hand, never stolen.
    pub fn is_victory_point(self) -> bool {
        matches!(self, Progress::Printer | Progress::Constitution)
    }

    /// The cards of a colour.
    pub fn of(track: Track) -> impl Iterator<Item = Progress> {
        Progress::ALL.into_iter().filter(move |p| p.track() == track)
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A progress card as a log records it: its kind, or only its colour when the recorder did not see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HeldCard {
    pub track: Track,
    pub card: Option<Progress>,
}

/// The progress cards in a player's hand (victory point cards are shown, not held).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProgressHand {
    pub cards: Vec<HeldCard>,
}

impl ProgressHand {
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Could the hand hold `card`? A known copy, or an unseen card of its colour.
    pub fn could_hold(&self, card: Progress) -> bool {
        self.cards.iter().any(|h| h.card == Some(card) || (h.card.is_none() && h.track == card.track()))
    }

    /// Removes `card` (a known copy first, else an unseen card of its colour); false if it cannot be there.
    pub fn remove(&mut self, card: Progress) -> bool {
        let at = self
            .cards
            .iter()
            .position(|h| h.card == Some(card))
            .or_else(|| self.cards.iter().position(|h| h.card.is_none() && h.track == card.track()));
        match at {
            Some(i) => {
                self.cards.remove(i);
                true
            }
            None => false,
        }
    }

    /// Removes a card as recorded: a known one by kind, an unseen one by colour (a known card of that colour
    /// may be the one, when no unseen one is held).
    pub fn remove_held(&mut self, held: HeldCard) -> bool {
        match held.card {
            Some(c) => self.remove(c),
            None => {
                let at = self
                    .cards
                    .iter()
                    .position(|h| h.card.is_none() && h.track == held.track)
                    .or_else(|| self.cards.iter().position(|h| h.track == held.track));
                match at {
                    Some(i) => {
                        self.cards.remove(i);
                        true
                    }
                    None => false,
                }
            }
        }
    }

    /// Copies of `card` surely held.
    pub fn known(&self, card: Progress) -> usize {
        self.cards.iter().filter(|h| h.card == Some(card)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_is_54_cards_18_of_each_colour() {
        for t in Track::ALL {
            let n: u32 = Progress::of(t).map(|p| p.count() as u32).sum();
            assert_eq!(n, 18, "{t}");
        }
    }

    #[test]
    fn each_level_adds_one_red_face() {
        assert!(!draws(0, 1));
        assert!(draws(1, 2) && !draws(1, 3));
        assert!(draws(2, 3) && !draws(2, 4));
        assert!(draws(5, 6));
    }
}
