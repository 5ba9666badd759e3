//! How a table begins a game of Catan at the recorder: the rulebook's beginner board, or a variable board
//! drawn from a seed by the rulebook's variable set-up (terrains shuffled, harbour pieces shuffled on the
//! frame's harbour places, number tokens at random with no two red numbers, 6 and 8, side by side), for
//! 3–4 players or for the 5–6 player extension's larger island; or the table's own board, entered hex by
//! hex and held to the box's contents. With or without the Helpers.
//!
//! Pure: the seed is the only chance, and one seed always gives one board.

use crate::board::BoardSpec;
use crate::geometry::{self, Axial};
use crate::resources::{Resource, Terrain};
use almanac_core::next::{Begin, Beginning, HeaderFields, Laid, Layout, Opening, Piece, PieceKind, Place};
use almanac_core::SetupError;
use serde_json::{json, Map, Value};

/// The beginnings a recorder offers.
pub fn beginnings() -> Vec<Beginning> {
    let laid_by_hand = || vec![layout(&BASE, [3, 4]), layout(&EXTENSION, [5, 6])];
    let given = |id, words, seats, seeded| Beginning { id, words, seats, seeded, layouts: Vec::new() };
    vec![
        given("beginner", "The rulebook's beginner board", [3, 4], false),
        given(
            "beginner-pieces",
            "The rulebook's beginner set-up: its board with each player's two settlements and roads placed \
             (seats take red, blue, white and orange in turn; with three, red stays in the box)",
            [3, 4],
            false,
        ),
        given("variable", "A variable board drawn from a seed (the rulebook's variable set-up)", [3, 6], true),
        Beginning {
            id: "own",
            words: "The table's own board, entered hex by hex",
            seats: [3, 6],
            seeded: false,
            layouts: laid_by_hand(),
        },
        given("helpers-beginner", "Helpers of Catan, on the beginner board", [3, 4], false),
        given("helpers-variable", "Helpers of Catan, on a variable board drawn from a seed", [3, 6], true),
        Beginning {
            id: "helpers-own",
            words: "Helpers of Catan, on the table's own board",
            seats: [3, 6],
            seeded: false,
            layouts: laid_by_hand(),
        },
    ]
}

/// The header's board, options and helpers for a beginning.
pub fn begin(asked: &Begin) -> Result<HeaderFields, SetupError> {
    let Begin { beginning, seats, seed, laid } = *asked;
    let known = beginnings();
    let b = Beginning::chosen(&known, beginning, seats, "Catan")?;
    let contents = if seats > 4 { &EXTENSION } else { &BASE };
    let board = if b.seeded {
        variable(contents, seed)
    } else if !b.layouts.is_empty() {
        own(contents, laid)?
    } else {
        beginner()
    };
    let mut header = Map::new();
    header.insert("options".into(), json!({ "vp_target": 10 }));
    header.insert("board".into(), board);
    if beginning.starts_with("helpers") {
        header.insert("helpers".into(), json!({ "stack": HELPER_STACK }));
    }
    Ok(header)
}

/// The rulebook's beginner set-up (its picture A, again as picture R): per colour, a settlement and its
/// road, then the settlement marked with a white star and its road. Each player takes the resources of the
/// hexes around the starred one, so the starred ones are placed in the set-up's second round, where the
/// rules give exactly that.
const STARTING_PIECES: [(&str, [&str; 4]); 4] = [
    ("red", ["4:N", "4:NE", "12:N", "12:NE"]),
    ("blue", ["14:SE", "14:E", "13:SW", "13:SW"]),
    ("white", ["15:N", "10:E", "8:N", "8:NW"]),
    ("orange", ["5:NE", "5:NE", "13:SE", "14:SW"]),
];

/// What a beginning places before play: on the beginner set-up, every player's starting pieces, in the
/// set-up's own order (round one in seat order, round two back), and the colours the seats play.
pub fn opening(beginning: &str, players: &[&str]) -> Opening {
    if beginning != "beginner-pieces" {
        return Opening::default();
    }
    // With three players the red pieces stay in the box.
    let pieces = &STARTING_PIECES[STARTING_PIECES.len() - players.len().min(4)..];
    let line = |kind: &str, player: &str, at: &str| json!({ "type": kind, "player": player, "at": at }).to_string();
    let mut lines = Vec::new();
    for (seat, (_, at)) in pieces.iter().enumerate() {
        lines.push(line("build_settlement", players[seat], at[0]));
        lines.push(line("build_road", players[seat], at[1]));
    }
    for (seat, (_, at)) in pieces.iter().enumerate().rev() {
        lines.push(line("build_settlement", players[seat], at[2]));
        lines.push(line("build_road", players[seat], at[3]));
    }
    Opening { colors: pieces.iter().map(|(color, _)| *color).collect(), lines }
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

/// Where a table lays its own island: each hex, drawn at its place, and each harbour place of the frame,
/// drawn off its coastal side; the box's terrains, number tokens and harbour pieces to lay on them.
fn layout(contents: &BoxContents, seats: [u8; 2]) -> Layout {
    let corner = |(x, y): (f64, f64), k: usize| {
        let angle = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 90.0);
        [(x + angle.cos()) as f32, (y + angle.sin()) as f32]
    };
    let mut places: Vec<Place> = contents
        .hexes
        .iter()
        .enumerate()
        .map(|(i, at)| Place {
            id: format!("h{i}"),
            words: hex_words(contents, i),
            kind: "hex",
            outline: (0..6).map(|k| corner(geometry::centre((at[0], at[1])), k)).collect(),
        })
        .collect();
    for edge in contents.harbour_places {
        let (hex, side) = harbour_place(contents, edge);
        let (cx, cy) = geometry::centre(contents.hexes[hex].into());
        let [x1, y1] = corner((cx, cy), side);
        let [x2, y2] = corner((cx, cy), (side + 1) % 6);
        // A round place beyond the middle of the side, out in the sea, as large as a finger needs.
        let (mx, my) = ((x1 + x2) as f64 / 2.0, (y1 + y2) as f64 / 2.0);
        let (dx, dy) = (mx - cx, my - cy);
        let out = 1.0 + 0.85 / dx.hypot(dy);
        let centre = (cx + dx * out, cy + dy * out);
        let round = (0..12)
            .map(|k| {
                let a = std::f64::consts::PI / 6.0 * k as f64;
                [(centre.0 + 0.72 * a.cos()) as f32, (centre.1 + 0.72 * a.sin()) as f32]
            })
            .collect();
        places.push(Place {
            id: edge.to_string(),
            words: format!("the harbour off {} ({} side)", hex_words(contents, hex), geometry::SIDE_NAMES[side]),
            kind: "harbour",
            outline: round,
        });
    }
    let colour = |t: Terrain| match t {
        Terrain::Forest => "#3f8f3f",
        Terrain::Hills => "#c8643b",
        Terrain::Pasture => "#a5d46a",
        Terrain::Fields => "#f2cf4a",
        Terrain::Mountains => "#9aa5b1",
        Terrain::Desert => "#e9dbb0",
    };
    let terrains = contents
        .terrains
        .iter()
        .map(|&(t, n)| Piece {
            id: t.name().into(),
            words: t.name().into(),
            short: String::new(),
            count: n as u8,
            colour: Some(colour(t)),
        })
        .collect();
    let numbers = contents
        .numbers
        .iter()
        .map(|&(x, n)| Piece {
            id: x.to_string(),
            words: x.to_string(),
            short: x.to_string(),
            count: n as u8,
            // The red numbers, as the tokens print them.
            colour: matches!(x, 6 | 8).then_some("#b3261e"),
        })
        .collect();
    let mut harbours = vec![Piece {
        id: "3:1".into(),
        words: "3:1, any resource".into(),
        short: "3:1".into(),
        count: contents.generic_harbours as u8,
        colour: None,
    }];
    for r in Resource::ALL {
        let n = contents.special_harbours.iter().filter(|&&x| x == r).count();
        harbours.push(Piece {
            id: r.name().into(),
            words: format!("2:1 {}", r.name()),
            short: format!("2:1 {}", r.name()),
            count: n as u8,
            colour: None,
        });
    }
    Layout {
        seats,
        places,
        kinds: vec![
            PieceKind { id: "terrain", words: "Terrain", on: "hex", fills: true, pieces: terrains },
            PieceKind { id: "number", words: "Number token", on: "hex", fills: false, pieces: numbers },
            PieceKind { id: "harbour", words: "Harbour", on: "harbour", fills: false, pieces: harbours },
        ],
    }
}

/// A hex as a table finds it: its row from the top and its place in the row from the left.
fn hex_words(contents: &BoxContents, i: usize) -> String {
    let r = contents.hexes[i][1];
    let top = contents.hexes.iter().map(|h| h[1]).min().unwrap_or(0);
    let before = contents.hexes[..i].iter().filter(|h| h[1] == r).count();
    format!("row {}, hex {} from the left", r - top + 1, before + 1)
}

/// The hex and side of a frame's harbour place (`"<hex>:<side>"`).
fn harbour_place(contents: &BoxContents, edge: &str) -> (usize, usize) {
    let (hex, side) = edge.split_once(':').expect("a harbour place is <hex>:<side>");
    let hex: usize = hex.parse().expect("a harbour place's hex is a number");
    assert!(hex < contents.hexes.len(), "a harbour place off the island");
    (hex, geometry::SIDE_NAMES.iter().position(|&n| n == side).expect("a side's name"))
}

/// The table's own board from what it laid: every mistake in words (a place left empty, a token on the
/// desert, more pieces of a kind than the box holds), all at once. Red numbers side by side are the
/// table's choice, not a mistake: the variable set-up avoids them, but a table may lay its board as it
/// likes (the six-player sample has a 6 beside an 8), and the game it plays is the one to record.
fn own(contents: &BoxContents, laid: &Laid) -> Result<Value, SetupError> {
    let mut problems = Vec::new();
    let hex_count = contents.hexes.len();
    let known = |id: &str| {
        id.strip_prefix('h').and_then(|i| i.parse::<usize>().ok()).is_some_and(|i| i < hex_count)
            || contents.harbour_places.contains(&id)
    };
    for place in laid.keys().filter(|p| !known(p)) {
        problems.push(format!("this island has no place `{place}`"));
    }
    let piece = |place: &str, kind: &str| laid.get(place).and_then(|p| p.get(kind)).map(String::as_str);
    let mut layout = Vec::new();
    for i in 0..hex_count {
        let place = format!("h{i}");
        let words = hex_words(contents, i);
        let terrain = match piece(&place, "terrain") {
            None => {
                problems.push(format!("{words} has no terrain"));
                None
            }
            Some(t) => match Terrain::from_name(t) {
                Some(t) => Some(t),
                None => {
                    problems.push(format!("{words}: `{t}` is not a terrain"));
                    None
                }
            },
        };
        let number = match piece(&place, "number").map(|n| n.parse::<u8>()) {
            None => None,
            Some(Ok(n)) if contents.numbers.iter().any(|&(x, _)| x == n) => Some(n),
            Some(_) => {
                problems.push(format!("{words}: the box has no such number token"));
                None
            }
        };
        match (terrain, number) {
            (Some(Terrain::Desert), Some(n)) => {
                problems.push(format!("{words} is the desert: it takes no token ({n})"))
            }
            (Some(t), None) if t.produces().is_some() => {
                problems.push(format!("{words} ({}) has no number token", t.name()))
            }
            _ => {}
        }
        layout.push((terrain.unwrap_or(Terrain::Desert), number));
    }
    let mut harbours = Vec::new();
    for edge in contents.harbour_places {
        let (hex, side) = harbour_place(contents, edge);
        let words = format!("the harbour off {} ({} side)", hex_words(contents, hex), geometry::SIDE_NAMES[side]);
        harbours.push(match piece(edge, "harbour") {
            None => {
                problems.push(format!("{words} has no harbour piece"));
                None
            }
            Some("3:1") => None,
            Some(r) => match Resource::from_name(r) {
                Some(r) => Some(r),
                None => {
                    problems.push(format!("{words}: `{r}` is not a harbour piece"));
                    None
                }
            },
        });
    }
    let board = board_json(contents, &layout, &harbours);
    if problems.is_empty() {
        // Only a board with every place filled is counted against the box: a missing piece is said once.
        problems.extend(check_against_box(&serde_json::from_value(board.clone()).expect("a board we wrote")));
    }
    if problems.is_empty() {
        Ok(board)
    } else {
        Err(SetupError(format!("The board is not one the box lays out:\n{}", problems.join("\n"))))
    }
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
