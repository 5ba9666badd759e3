//! The state of a Carcassonne game: the tiles on the grid, the features they form (merged across
//! edges with a union-find), the figures, the scores.

use crate::tiles::{catalogue, FeatureKind, TileType};
use almanac_core::{Seat, Seated, Table};
use serde::Deserialize;
use std::collections::BTreeMap;

pub type Pos = (i32, i32);

/// How many figures of a kind each player has: a count, or `true` (one) and `false` (none) as headers
/// without counts say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count(pub u8);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Yes(bool),
            Many(u8),
        }
        Ok(match Given::deserialize(d)? {
            Given::Yes(yes) => Count(yes as u8),
            Given::Many(n) => Count(n),
        })
    }
}

/// The header's options (JCloisterZone's `setup.elements` and `setup.rules` in our words).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Tile sets in the pack: `basic`, `traders-and-builders`.
    pub sets: Vec<String>,
    /// Followers per player.
    pub followers: u8,
    /// Followers may be placed in fields (farmers).
    pub farmers: bool,
    /// Traders & Builders parts, each usable alone: the goods, and each player's builders and pigs (`true` is
    /// one each, the rule book's; a save may give more, e.g. `"pig": 2`).
    pub goods: bool,
    pub builder: Count,
    pub pig: Count,
    /// Points of a completed city of two tiles: 4 (the modern rule) or 2 (the old "tiny city" rule).
    pub two_tile_city: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sets: vec!["basic".into()],
            followers: 7,
            farmers: true,
            goods: false,
            builder: Count(0),
            pig: Count(0),
            two_tile_city: 4,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FigureKind {
    Follower,
    Builder,
    Pig,
}

impl FigureKind {
    pub fn name(self) -> &'static str {
        match self {
            FigureKind::Follower => "follower",
            FigureKind::Builder => "builder",
            FigureKind::Pig => "pig",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Figure {
    pub player: Seat,
    pub kind: FigureKind,
    /// The placed tile (index into `State::placed`) the figure stands on, and the feature there.
    pub placed: usize,
    pub feature: usize,
}

/// A tile on the grid.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placed {
    pub tile: usize,
    pub rotation: u8,
    pub at: Pos,
    /// Index of the node of its feature 0; feature `f` is node `first_node + f`.
    pub first_node: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum GroupKind {
    City,
    Road,
    Monastery,
    Field,
}

impl GroupKind {
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::City => "city",
            GroupKind::Road => "road",
            GroupKind::Monastery => "monastery",
            GroupKind::Field => "field",
        }
    }

    pub fn from_name(name: &str) -> Option<GroupKind> {
        Some(match name.to_ascii_lowercase().as_str() {
            "city" => GroupKind::City,
            "road" => GroupKind::Road,
            "monastery" | "cloister" => GroupKind::Monastery,
            "field" | "farm" => GroupKind::Field,
            _ => return None,
        })
    }
}

/// A feature as it stands on the board (tiles merged), kept at the union-find root.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Group {
    pub kind: GroupKind,
    /// Edge ends not yet met by a neighbour (cities and roads): complete at 0.
    pub open: i32,
    /// The placed tiles it covers, each once.
    pub tiles: Vec<usize>,
    pub pennants: u32,
    pub goods: [u32; 3],
    pub figures: Vec<Figure>,
    /// For fields: the city nodes it touches.
    pub cities: Vec<usize>,
    /// Scored and closed.
    pub done: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub score: i32,
    pub followers: u8,
    /// Builders and pigs not on the board.
    pub builders_home: u8,
    pub pigs_home: u8,
    pub goods: [u32; 3],
}

/// Where in the turn the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// The active player places (or discards) the drawn tile.
    Tile,
    /// The tile lies (placed tile index); a figure may follow, then the end of the turn part.
    Figure {
        placed: usize,
        figure_done: bool,
    },
    Over,
}

/// The state of a game. What its header fixes (the options, the table) is `#[serde(skip)]`, and so is the
/// grid (an index of the placed tiles): a checkpoint is the rest, written whole (see `almanac_core::Rules`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct State {
    #[serde(skip)]
    pub options: Options,
    #[serde(skip)]
    pub table: Table,
    pub players: Vec<Player>,
    /// Where each placed tile lies (ordered, so that a state always reads the same).
    #[serde(skip)]
    pub grid: BTreeMap<Pos, usize>,
    pub placed: Vec<Placed>,
    /// Union-find over feature nodes; `groups[root]` holds the feature's data.
    pub parent: Vec<usize>,
    pub groups: Vec<Option<Group>>,
    /// Tiles left in the pack, by catalogue index.
    pub supply: Vec<u8>,
    pub turn: u32,
    pub active: Seat,
    pub step: Step,
    /// This turn part is a builder's extra one.
    pub second_part: bool,
    /// The tile just placed extended a feature holding the active player's builder.
    pub bonus_due: bool,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

impl State {
    pub fn find(&self, mut n: usize) -> usize {
        while self.parent[n] != n {
            n = self.parent[n];
        }
        n
    }

    pub fn group(&self, node: usize) -> &Group {
        self.groups[self.find(node)].as_ref().expect("a root has its group")
    }

    pub fn tile_type(&self, placed: usize) -> &'static TileType {
        &catalogue().tiles[self.placed[placed].tile]
    }

    /// Adds the nodes of a newly placed tile, each its own group.
    pub fn add_nodes(&mut self, placed: usize) {
        let t = self.tile_type(placed);
        let first = self.parent.len();
        for (f, feature) in t.features.iter().enumerate() {
            let kind = match feature.kind {
                FeatureKind::City { .. } => GroupKind::City,
                FeatureKind::Road => GroupKind::Road,
                FeatureKind::Monastery => GroupKind::Monastery,
                FeatureKind::Field { .. } => GroupKind::Field,
            };
            let (pennants, goods) = match feature.kind {
                FeatureKind::City { pennants, good } => {
                    let mut g = [0; 3];
                    if let Some(i) = good {
                        g[i] = 1;
                    }
                    (pennants as u32, g)
                }
                _ => (0, [0; 3]),
            };
            let cities = match &feature.kind {
                FeatureKind::Field { cities } => cities.iter().map(|&c| first + c).collect(),
                _ => Vec::new(),
            };
            self.parent.push(first + f);
            self.groups.push(Some(Group {
                kind,
                open: feature.sides.count_ones() as i32,
                tiles: vec![placed],
                pennants,
                goods,
                figures: Vec::new(),
                cities,
                done: false,
            }));
        }
        self.placed[placed].first_node = first;
    }

    /// Joins two nodes' groups (one shared edge between them for cities and roads).
    pub fn join(&mut self, a: usize, b: usize, edge: bool) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let gb = self.groups[rb].take().expect("root");
            self.parent[rb] = ra;
            let ga = self.groups[ra].as_mut().expect("root");
            ga.open += gb.open;
            for t in gb.tiles {
                if !ga.tiles.contains(&t) {
                    ga.tiles.push(t);
                }
            }
            ga.pennants += gb.pennants;
            for g in 0..3 {
                ga.goods[g] += gb.goods[g];
            }
            ga.figures.extend(gb.figures);
            ga.cities.extend(gb.cities);
            ga.done |= gb.done;
        }
        if edge {
            self.groups[ra].as_mut().expect("root").open -= 2;
        }
    }
}
