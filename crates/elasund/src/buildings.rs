//! The building tiles: each player's two start huts and two buildings of their own, and the neutral
//! buildings anyone may build. Sizes are width × height in squares (tiles always face north).

use std::fmt;

/// What a building pays when the ship's row crosses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Income {
    Gold,
    Influence,
}

/// Who may build a kind of building.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// A start hut: on the board from the start, never built; re-placed when displaced.
    Hut,
    /// Each player's own, one each, built only by its owner.
    Player,
    /// From the common stacks, with VP markers on its flags.
    Neutral,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    SmallHut,
    LargeHut,
    House,
    Workshop,
    Well,
    MarketStalls,
    Inn,
    Shop,
    Hall,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::SmallHut,
        Kind::LargeHut,
        Kind::House,
        Kind::Workshop,
        Kind::Well,
        Kind::MarketStalls,
        Kind::Inn,
        Kind::Shop,
        Kind::Hall,
    ];

    /// The neutral kinds, in the order of their stacks.
    pub const NEUTRAL: [Kind; 5] = [Kind::Well, Kind::MarketStalls, Kind::Inn, Kind::Shop, Kind::Hall];

    pub fn name(self) -> &'static str {
        match self {
            Kind::SmallHut => "small_hut",
            Kind::LargeHut => "large_hut",
            Kind::House => "house",
            Kind::Workshop => "workshop",
            Kind::Well => "well",
            Kind::MarketStalls => "market_stalls",
            Kind::Inn => "inn",
            Kind::Shop => "shop",
            Kind::Hall => "hall",
        }
    }

    pub fn parse(name: &str) -> Result<Kind, String> {
        Kind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            format!("`{name}` is not a building (house, workshop, well, market_stalls, inn, shop, hall)")
        })
    }

    pub fn owner(self) -> Owner {
        match self {
            Kind::SmallHut | Kind::LargeHut => Owner::Hut,
            Kind::House | Kind::Workshop => Owner::Player,
            _ => Owner::Neutral,
        }
    }

    /// Width and height in squares.
    pub fn size(self) -> (u8, u8) {
        match self {
            Kind::SmallHut | Kind::Well => (1, 1),
            Kind::LargeHut | Kind::Workshop => (1, 2),
            Kind::House | Kind::MarketStalls => (2, 1),
            Kind::Inn | Kind::Shop => (2, 2),
            Kind::Hall => (2, 3),
        }
    }

    /// Squares covered: what "larger" means when one building displaces another.
    pub fn area(self) -> u8 {
        let (w, h) = self.size();
        w * h
    }

    /// Gold to the bank. The player's own buildings cost 2 (the rule source: "Omien rakennustesi
    /// (kauppiaat) rakentaminen vaatii ainoastaan 2 kultakorttia").
    pub fn cost(self) -> u8 {
        match self {
            Kind::SmallHut | Kind::LargeHut => 0,
            Kind::House | Kind::Workshop => 2,
            Kind::Inn | Kind::Shop => 3,
            Kind::Well | Kind::MarketStalls | Kind::Hall => 5,
        }
    }

    /// Permits its squares must hold.
    pub fn permits(self) -> u8 {
        match self {
            Kind::SmallHut | Kind::LargeHut => 0,
            Kind::Inn | Kind::Shop => 2,
            Kind::Hall => 3,
            _ => 1,
        }
    }

    pub fn income(self) -> Option<Income> {
        match self {
            Kind::SmallHut | Kind::House | Kind::Inn => Some(Income::Influence),
            Kind::LargeHut | Kind::Workshop | Kind::Shop => Some(Income::Gold),
            Kind::Well | Kind::MarketStalls | Kind::Hall => None,
        }
    }

    /// VP markers a neutral building carries.
    pub fn flags(self) -> u8 {
        match self {
            Kind::Hall => 2,
            k if k.owner() == Owner::Neutral => 1,
            _ => 0,
        }
    }

    /// Tiles in a neutral stack.
    pub fn stack(self) -> u8 {
        match self {
            Kind::Well | Kind::MarketStalls => 4,
            Kind::Inn | Kind::Shop => 5,
            Kind::Hall => 3,
            _ => 0,
        }
    }
}

impl Kind {
    /// The building with its article, in words ("an inn", "a shop").
    pub fn with_article(self) -> String {
        let words = self.to_string();
        let an = words.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {words}", if an { "an" } else { "a" })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
}

/// What the wall tile numbered `n` (1–9, the order of a player's stack) brings: influence cards, or a
/// tower for a VP marker. The rule source's example fixes tiles 1 (one card) and 2 (a tower); the rest
/// keep the reference's mix of three towers, three single and three double cards (see the format
/// document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallReward {
    Influence(u8),
    Tower,
}

pub fn wall_reward(n: u8) -> WallReward {
    match n {
        2 | 5 | 8 => WallReward::Tower,
        1 | 3 | 4 => WallReward::Influence(1),
        _ => WallReward::Influence(2),
    }
}

/// Walls in each player's stack.
pub const WALLS: u8 = 9;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_sources_components_add_up() {
        let neutral: u8 = Kind::NEUTRAL.iter().map(|k| k.stack()).sum();
        assert_eq!(neutral, 21, "21 neutral buildings");
        assert_eq!(Kind::ALL.iter().filter(|k| k.owner() != Owner::Neutral).count() * 4, 16, "16 in players' colours");
        let areas: std::collections::BTreeSet<u8> = Kind::ALL.iter().map(|k| k.area()).collect();
        assert_eq!(areas.into_iter().collect::<Vec<_>>(), vec![1, 2, 4, 6], "buildings cover 1, 2, 4 or 6 squares");
        let towers = (1..=WALLS).filter(|&n| wall_reward(n) == WallReward::Tower).count();
        assert_eq!(towers, 3);
        assert_eq!((wall_reward(1), wall_reward(2)), (WallReward::Influence(1), WallReward::Tower));
    }
}
