//! How a table begins a game of Catan at the recorder: the rulebook's beginner board, or a variable board
//! drawn from a seed by the rulebook's variable set-up (terrains shuffled, harbour pieces shuffled on the
//! frame's harbour places, number tokens at random with no two red numbers, 6 and 8, side by side), for
//! 3–4 players or for the 5–6 player extension's larger island. With or without the Helpers.
//!
//! Pure: the seed is the only chance, and one seed always gives one board.

use crate::board::BoardSpec;
use crate::geometry::{self, Axial};
use crate::resources::{Resource, Terrain};
use almanac_core::next::Beginning;
use almanac_core::SetupError;
use serde_json::{json, Map, Value};

/// The beginnings a recorder offers.
pub fn beginnings() -> Vec<Beginning> {
    vec![
        Beginning { id: "beginner", words: "The rulebook's beginner board", seats: [3, 4], seeded: false },
        Beginning {
            id: "variable",
            words: "A variable board drawn from a seed (the rulebook's variable set-up)",
            seats: [3, 6],
            seeded: true,
        },
        Beginning {
            id: "helpers-beginner",
            words: "Helpers of Catan, on the beginner board",
            seats: [3, 4],
            seeded: false,
        },
        Beginning {
            id: "helpers-variable",
            words: "Helpers of Catan, on a variable board drawn from a seed",
            seats: [3, 6],
            seeded: true,
        },
    ]
}

/// The header's board, options and helpers for a beginning.
pub fn begin(beginning: &str, seats: usize, seed: u64) -> Result<Map<String, Value>, SetupError> {
    let known = beginnings();
    let b = Beginning::chosen(&known, beginning, seats, "Catan")?;
    let board = if b.seeded { variable(if seats > 4 { &EXTENSION } else { &BASE }, seed) } else { beginner() };
    let mut header = Map::new();
    header.insert("options".into(), json!({ "vp_target": 10 }));
    header.insert("board".into(), board);
    if beginning.starts_with("helpers") {
        header.insert("helpers".into(), json!({ "stack": HELPER_STACK }));
    }
    Ok(header)
}

/// The numbered helpers, A1 on top. The rulebook names A1 (Nassir); the others in the order the club's
/// box numbers them.
const HELPER_STACK: [&str; 6] = ["Nassir", "Jean", "Lin", "Hilde", "Louis", "William"];

/// What a box holds for one island: where its hexes lie (rows from the top), its terrains, number tokens
/// and harbour pieces, and the frame's harbour places (an edge of a coastal hex, by hex index and side).
pub struct BoxContents {
    pub hexes: &'static [[i32; 2]],
    pub terrains: &'static [(Terrain, usize)],
    pub numbers: &'static [(u8, usize)],
    /// Generic (3:1) pieces, then one 2:1 piece per resource listed (a resource twice: two pieces).
    pub generic_harbours: usize,
    pub special_harbours: &'static [Resource],
    pub harbour_places: &'static [&'static str],
}

/// The base game: 19 hexes.
pub const BASE: BoxContents = BoxContents {
    hexes: &[
        [0, -2],
        [1, -2],
        [2, -2],
        [-1, -1],
        [0, -1],
        [1, -1],
        [2, -1],
        [-2, 0],
        [-1, 0],
        [0, 0],
        [1, 0],
        [2, 0],
        [-2, 1],
        [-1, 1],
        [0, 1],
        [1, 1],
        [-2, 2],
        [-1, 2],
        [0, 2],
    ],
    terrains: &[
        (Terrain::Forest, 4),
        (Terrain::Hills, 3),
        (Terrain::Pasture, 4),
        (Terrain::Fields, 4),
        (Terrain::Mountains, 3),
        (Terrain::Desert, 1),
    ],
    numbers: &[(2, 1), (3, 2), (4, 2), (5, 2), (6, 2), (8, 2), (9, 2), (10, 2), (11, 2), (12, 1)],
    generic_harbours: 4,
    special_harbours: &[Resource::Lumber, Resource::Brick, Resource::Wool, Resource::Grain, Resource::Ore],
    harbour_places: &["0:NW", "1:NE", "6:NE", "11:E", "15:SE", "18:SE", "16:SW", "12:W", "3:W"],
};

/// The 5–6 player extension: 30 hexes, two deserts, 28 tokens and two more harbours (3:1 and wool).
pub const EXTENSION: BoxContents = BoxContents {
    hexes: &[
        [0, -3],
        [1, -3],
        [2, -3],
        [-1, -2],
        [0, -2],
        [1, -2],
        [2, -2],
        [-2, -1],
        [-1, -1],
        [0, -1],
        [1, -1],
        [2, -1],
        [-3, 0],
        [-2, 0],
        [-1, 0],
        [0, 0],
        [1, 0],
        [2, 0],
        [-3, 1],
        [-2, 1],
        [-1, 1],
        [0, 1],
        [1, 1],
        [-3, 2],
        [-2, 2],
        [-1, 2],
        [0, 2],
        [-3, 3],
        [-2, 3],
        [-1, 3],
    ],
    terrains: &[
        (Terrain::Forest, 6),
        (Terrain::Hills, 5),
        (Terrain::Pasture, 6),
        (Terrain::Fields, 6),
        (Terrain::Mountains, 5),
        (Terrain::Desert, 2),
    ],
    numbers: &[(2, 2), (3, 3), (4, 3), (5, 3), (6, 3), (8, 3), (9, 3), (10, 3), (11, 3), (12, 2)],
    generic_harbours: 5,
    special_harbours: &[
        Resource::Lumber,
        Resource::Brick,
        Resource::Wool,
        Resource::Wool,
        Resource::Grain,
        Resource::Ore,
    ],
    harbour_places: &["12:NW", "3:W", "0:NW", "2:NW", "6:NE", "17:NE", "22:E", "29:E", "28:SE", "27:W", "18:SW"],
};

/// The rulebook's beginner board (its picture A): terrains and numbers row by row, and its harbours.
pub fn beginner() -> Value {
    use Terrain::*;
    let layout: [(Terrain, Option<u8>); 19] = [
        (Mountains, Some(10)),
        (Pasture, Some(2)),
        (Forest, Some(9)),
        (Fields, Some(12)),
        (Hills, Some(6)),
        (Pasture, Some(4)),
        (Hills, Some(10)),
        (Fields, Some(9)),
        (Forest, Some(11)),
        (Desert, None),
        (Forest, Some(3)),
        (Mountains, Some(8)),
        (Forest, Some(8)),
        (Mountains, Some(3)),
        (Fields, Some(4)),
        (Pasture, Some(5)),
        (Hills, Some(5)),
        (Fields, Some(6)),
        (Pasture, Some(11)),
    ];
    use Resource::*;
    let harbours: [Option<Resource>; 9] =
        [None, Some(Wool), None, None, Some(Brick), Some(Lumber), None, Some(Grain), Some(Ore)];
    board_json(&BASE, &layout, &harbours)
}

/// A variable board from `seed`: terrains and harbour pieces shuffled, tokens shuffled until no two red
/// numbers touch.
pub fn variable(contents: &BoxContents, seed: u64) -> Value {
    let mut chance = SplitMix(seed);
    let mut terrains: Vec<Terrain> = contents.terrains.iter().flat_map(|&(t, n)| std::iter::repeat_n(t, n)).collect();
    chance.shuffle(&mut terrains);
    let mut numbers: Vec<u8> = contents.numbers.iter().flat_map(|&(x, n)| std::iter::repeat_n(x, n)).collect();
    let layout = loop {
        chance.shuffle(&mut numbers);
        let mut tokens = numbers.iter();
        let layout: Vec<(Terrain, Option<u8>)> =
            terrains.iter().map(|&t| (t, if t.produces().is_some() { tokens.next().copied() } else { None })).collect();
        if red_neighbours(contents.hexes, &layout).is_none() {
            break layout;
        }
    };
    let mut harbours: Vec<Option<Resource>> = std::iter::repeat_n(None, contents.generic_harbours)
        .chain(contents.special_harbours.iter().map(|&r| Some(r)))
        .collect();
    chance.shuffle(&mut harbours);
    board_json(contents, &layout, &harbours)
}

/// Two hexes side by side that both carry a red number (6 or 8), by index, if any do.
pub fn red_neighbours(hexes: &[[i32; 2]], layout: &[(Terrain, Option<u8>)]) -> Option<(usize, usize)> {
    let red = |i: usize| matches!(layout[i].1, Some(6 | 8));
    let at: Vec<Axial> = hexes.iter().map(|h| (h[0], h[1])).collect();
    for i in (0..at.len()).filter(|&i| red(i)) {
        for side in 0..6 {
            let n = geometry::neighbour(at[i], side);
            if let Some(j) = at.iter().position(|&a| a == n).filter(|&j| j > i && red(j)) {
                return Some((i, j));
            }
        }
    }
    None
}

fn board_json(contents: &BoxContents, layout: &[(Terrain, Option<u8>)], harbours: &[Option<Resource>]) -> Value {
    let hexes: Vec<Value> = contents
        .hexes
        .iter()
        .zip(layout)
        .map(|(at, &(terrain, number))| match number {
            Some(n) => json!({ "at": at, "terrain": terrain.name(), "number": n }),
            None => json!({ "at": at, "terrain": terrain.name() }),
        })
        .collect();
    let harbours: Vec<Value> = contents
        .harbour_places
        .iter()
        .zip(harbours)
        .map(|(edge, piece)| match piece {
            Some(r) => json!({ "edge": edge, "ratio": 2, "resource": r.name() }),
            None => json!({ "edge": edge, "ratio": 3 }),
        })
        .collect();
    json!({ "hexes": hexes, "harbours": harbours })
}

/// Whether a board is one the box could lay out: its terrains, tokens and harbour pieces those of the base
/// game or the extension. Each mistake in words.
pub fn check_against_box(spec: &BoardSpec) -> Vec<String> {
    let contents = if spec.hexes.len() > BASE.hexes.len() { &EXTENSION } else { &BASE };
    let mut problems = Vec::new();
    if spec.hexes.len() != contents.hexes.len() {
        problems.push(format!("the box's island has {} hexes, not {}", contents.hexes.len(), spec.hexes.len()));
    }
    for &(terrain, n) in contents.terrains {
        let laid = spec.hexes.iter().filter(|h| h.terrain == terrain.name()).count();
        if laid != n {
            problems.push(format!("the box holds {n} {} hexes; the board has {laid}", terrain.name()));
        }
    }
    for &(number, n) in contents.numbers {
        let laid = spec.hexes.iter().filter(|h| h.number == Some(number)).count();
        if laid != n {
            problems.push(format!("the box holds {n} number token(s) {number}; the board has {laid}"));
        }
    }
    let generic = spec.harbours.iter().filter(|h| h.ratio == 3).count();
    if generic != contents.generic_harbours {
        problems.push(format!("the box holds {} 3:1 harbours; the board has {generic}", contents.generic_harbours));
    }
    for r in Resource::ALL {
        let n = contents.special_harbours.iter().filter(|&&x| x == r).count();
        let laid = spec.harbours.iter().filter(|h| h.ratio == 2 && h.resource.as_deref() == Some(r.name())).count();
        if laid != n {
            problems.push(format!("the box holds {n} 2:1 {} harbour(s); the board has {laid}", r.name()));
        }
    }
    problems
}

/// A small, well-known generator (SplitMix64): enough to shuffle a board, and the same on every machine.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher–Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}
