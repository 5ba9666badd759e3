//! The state of an Elasund game at one moment.

use crate::board::{squares, ChurchTile, City, Colour, Square, WallSite, CHURCH_SITE};
use crate::buildings::{Kind, WALLS};
use crate::cards::{Hand, GOLD_CARDS, INFLUENCE_CARDS, STARTING_GOLD, STARTING_INFLUENCE};
use almanac_core::{Seat, Seated, SetupError, Table};
use std::collections::BTreeMap;

/// VP markers per player: all ten on the board at the start of one's turn wins.
pub const MARKERS: u8 = 10;
/// Permits per player, valued 0 to 4.
pub const PERMITS: u8 = 5;
/// The trade track's squares with room for VP markers, and how many markers each holds (the board).
pub const TRACK_MARKS: [(u8, u8); 5] = [(3, 4), (5, 3), (7, 2), (9, 2), (11, 1)];
/// The trade track's last square.
pub const TRACK_END: u8 = 11;

/// A building on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placed {
    pub kind: Kind,
    /// Its north-west square.
    pub at: Square,
    /// Whose it is: the owner of a hut or a player's building, the builder of a neutral one (whose VP
    /// markers are on it).
    pub owner: Seat,
    /// VP markers on it.
    pub markers: u8,
}

impl Placed {
    pub fn squares(&self) -> Vec<Square> {
        let (w, h) = self.kind.size();
        self.at.footprint(w, h).expect("placed inside the grid")
    }

    pub fn covers_row(&self, row: u8) -> bool {
        let (_, h) = self.kind.size();
        row >= self.at.row && row < self.at.row + h
    }
}

/// What a square holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// The building covering it (an index into `buildings`).
    pub building: Option<usize>,
    /// A permit: its owner and value.
    pub permit: Option<(Seat, u8)>,
    /// A church tile, and the player whose VP marker is on it (none when the builder had none left).
    pub church: Option<(ChurchTile, Option<Seat>)>,
}

impl Cell {
    pub fn is_empty(&self) -> bool {
        self.building.is_none() && self.permit.is_none() && self.church.is_none()
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub hand: Hand,
    /// Permits not on the board, by value.
    pub permits_home: [bool; PERMITS as usize],
    /// VP markers not on the board.
    pub markers_left: u8,
    /// Position on the trade track (0 to 11).
    pub trade: u8,
    /// The marks of the trade track holding this player's VP marker, by index in [`TRACK_MARKS`].
    pub track_marks: [bool; 5],
    /// Wall tiles built so far: the next is numbered one more.
    pub walls: u8,
    /// Towers on the wall carrying this player's marker.
    pub towers: u8,
}

impl Default for Player {
    fn default() -> Player {
        Player {
            hand: Hand { gold: STARTING_GOLD, influence: [0; 3], unknown: STARTING_INFLUENCE },
            permits_home: [true; PERMITS as usize],
            markers_left: MARKERS,
            trade: 0,
            track_marks: [false; 5],
            walls: 0,
            towers: 0,
        }
    }
}

/// Where in the turn the game is: the rule source's four steps, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// 1. Roll and move the ship.
    Roll,
    /// 2. Build up to two things (`built` so far).
    Build {
        built: u8,
    },
    /// 4. The permit or the 2 gold of step 3 are done; one extra action may follow (`done`).
    Extra {
        done: bool,
    },
    Over,
}

/// The state of a game. What its header fixes (the table, the colours, the city) is `#[serde(skip)]`: a
/// checkpoint is the rest, written whole (see `almanac_core::Rules`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, almanac_core::Played)]
pub struct State {
    #[serde(skip)]
    pub table: Table,
    /// Each seat's colour (the start huts stand on its squares).
    #[serde(skip)]
    pub colours: Vec<Colour>,
    #[serde(skip)]
    pub city: City,
    pub players: Vec<Player>,
    /// Every square of the grid, by [`Square::index`].
    pub cells: Vec<Cell>,
    /// Buildings on the board (`None` once removed: indices stay stable).
    pub buildings: Vec<Option<Placed>>,
    /// Wall tiles: the owner and the tile's number.
    pub walls: BTreeMap<WallSite, (Seat, u8)>,
    /// The church's north-west square, once the first tile has fixed it.
    pub church: Option<Square>,
    /// Church tiles not yet on the board.
    pub church_stack: Vec<ChurchTile>,
    /// Neutral buildings left in each stack, by index in [`Kind::NEUTRAL`].
    pub stacks: [u8; 5],
    /// Gold cards in the bank.
    pub gold: u8,
    /// Influence cards in the face-down deck, and spent ones on the discard pile.
    pub deck: u8,
    pub discards: u8,
    /// The row (index) the ship is at; `None` before the first roll.
    pub ship: Option<u8>,
    /// The last roll was a 7: the ship is the pirate.
    pub pirate: bool,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    pub winner: Option<Seat>,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

impl State {
    /// A new game of the players at `table`, each of a colour (red, blue, yellow or green).
    pub fn new(table: Table, colours: Vec<Colour>) -> Result<State, SetupError> {
        if !(2..=4).contains(&table.len()) {
            return Err(SetupError(format!("elasund is for 2 to 4 players, not {}", table.len())));
        }
        let n = table.len();
        let mut s = State {
            city: City::for_players(n),
            players: vec![Player::default(); n],
            cells: vec![Cell::default(); squares().count()],
            buildings: Vec::new(),
            walls: BTreeMap::new(),
            church: None,
            church_stack: ChurchTile::all().collect(),
            stacks: Kind::NEUTRAL.map(|k| k.stack()),
            gold: GOLD_CARDS - STARTING_GOLD * n as u8,
            deck: INFLUENCE_CARDS - STARTING_INFLUENCE * n as u8,
            discards: 0,
            ship: None,
            pirate: false,
            turn: 1,
            active: 0,
            phase: Phase::Roll,
            winner: None,
            table,
            colours,
        };
        for p in 0..n {
            let (small, large) = s.colours[p].start_huts();
            s.place(Placed { kind: Kind::SmallHut, at: small, owner: p as Seat, markers: 0 });
            s.place(Placed { kind: Kind::LargeHut, at: large, owner: p as Seat, markers: 0 });
        }
        Ok(s)
    }

    /// Seats clockwise from `first`, `first` included.
    pub fn clockwise_from(&self, first: Seat) -> impl Iterator<Item = Seat> {
        let n = self.players.len() as Seat;
        (0..n).map(move |i| (first + i) % n)
    }

    pub fn player(&self, p: Seat) -> &Player {
        &self.players[p as usize]
    }

    pub fn cell(&self, s: Square) -> &Cell {
        &self.cells[s.index()]
    }

    pub fn cell_mut(&mut self, s: Square) -> &mut Cell {
        &mut self.cells[s.index()]
    }

    /// Puts a building on its squares (checked by the caller); returns its index.
    pub fn place(&mut self, b: Placed) -> usize {
        let i = self.buildings.len();
        for s in b.squares() {
            self.cell_mut(s).building = Some(i);
        }
        self.buildings.push(Some(b));
        i
    }

    /// Takes a building off the board.
    pub fn lift(&mut self, i: usize) -> Placed {
        let b = self.buildings[i].take().expect("a building on the board");
        for s in b.squares() {
            self.cell_mut(s).building = None;
        }
        b
    }

    /// Is this square a place a permit or a re-placed hut may go: in the city, empty, not the church site?
    pub fn is_free(&self, s: Square) -> bool {
        self.city.contains(s) && s != CHURCH_SITE && self.cell(s).is_empty()
    }

    /// Victory points: VP markers on the board.
    pub fn vp(&self, p: Seat) -> i32 {
        (MARKERS - self.player(p).markers_left) as i32
    }

    /// Is the player's own building of this kind on the board?
    pub fn built(&self, p: Seat, kind: Kind) -> bool {
        self.buildings.iter().flatten().any(|b| b.owner == p && b.kind == kind)
    }

    /// The next wall tile of the player's stack (1–9), if any is left.
    pub fn next_wall(&self, p: Seat) -> Option<u8> {
        let n = self.player(p).walls + 1;
        (n <= WALLS).then_some(n)
    }
}
