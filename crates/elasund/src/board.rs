//! The city grid: ten rows named by the dice sums 2–6 and 8–12 (north to south), nine columns from the sea
//! (column 1, the harbour) eastwards. A square is named `"<column>:<row>"`, e.g. `"3:8"`, the church site.
//!
//! How much of the grid is the city depends on the number of players (the gate tiles): columns 1–5 for
//! two, 1–7 for three, 1–9 for four. The city wall runs along the top and the bottom (columns 3 to the
//! gate) and down the east side (rows 3–11, beside the last column); walls are built outwards from the
//! two gates.

use std::fmt;

/// The rows, north to south, by the dice sum that names them.
pub const ROWS: [u8; 10] = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
pub const COLUMNS: u8 = 9;
/// The square where the first church tile goes (column 3, row 8).
pub const CHURCH_SITE: Square = Square { col: 3, row: 5 };

/// A square of the grid: its column (1–9) and its row's index in [`ROWS`] (0–9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl Square {
    pub fn new(col: u8, row: u8) -> Square {
        Square { col, row }
    }

    /// The square at column `col` of the row named `label` (2–6, 8–12).
    pub fn at(col: u8, label: u8) -> Square {
        Square { col, row: row_index(label).expect("a row's name") }
    }

    pub fn label(self) -> u8 {
        ROWS[self.row as usize]
    }

    pub fn index(self) -> usize {
        (self.row as usize) * COLUMNS as usize + (self.col as usize - 1)
    }

    pub fn parse(name: &str) -> Result<Square, String> {
        let (c, r) = name.split_once(':').ok_or_else(|| format!("`{name}` is not a square like `3:8` (column:row)"))?;
        let col: u8 = c.parse().map_err(|_| format!("`{name}`: `{c}` is not a column (1-9)"))?;
        let label: u8 = r.parse().map_err(|_| format!("`{name}`: `{r}` is not a row (2-6, 8-12)"))?;
        if !(1..=COLUMNS).contains(&col) {
            return Err(format!("`{name}`: there is no column {col} (1-9)"));
        }
        let row = row_index(label).ok_or_else(|| format!("`{name}`: there is no row {label} (2-6, 8-12)"))?;
        Ok(Square { col, row })
    }

    /// The squares of a `w` × `h` footprint whose north-west square is this one, if it fits the grid.
    pub fn footprint(self, w: u8, h: u8) -> Option<Vec<Square>> {
        if self.col + w - 1 > COLUMNS || self.row + h > ROWS.len() as u8 {
            return None;
        }
        Some((0..h).flat_map(|dy| (0..w).map(move |dx| Square { col: self.col + dx, row: self.row + dy })).collect())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.col, self.label())
    }
}

/// The index in [`ROWS`] of the row named `label`.
pub fn row_index(label: u8) -> Option<u8> {
    ROWS.iter().position(|&r| r == label).map(|i| i as u8)
}

/// Every square of the grid, north-west first.
pub fn squares() -> impl Iterator<Item = Square> {
    (0..ROWS.len() as u8).flat_map(|row| (1..=COLUMNS).map(move |col| Square { col, row }))
}

/// The city of a game: as wide as the gates make it (none wide by default: what a state read from a
/// checkpoint holds until it takes its game's city).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct City {
    /// The last column of the city (5, 7 or 9).
    pub last_col: u8,
}

impl City {
    pub fn for_players(players: usize) -> City {
        City { last_col: 2 * players as u8 + 1 }
    }

    pub fn contains(&self, s: Square) -> bool {
        s.col >= 1 && s.col <= self.last_col
    }

    /// Trade points for a building on `s` (windmills): 1 on the shore, 2 on the squares by the gates.
    pub fn windmills(&self, s: Square) -> u8 {
        if !self.contains(s) {
            return 0;
        }
        match (s.col, s.label()) {
            (1, _) => 1,
            (6 | 8, 2 | 12) => 2,
            _ => 0,
        }
    }

    /// Every wall site of this city, in the order they are built out from the gates: the north strip
    /// from the gate westwards, the east side from north to south, the south strip from the gate westwards.
    pub fn wall_sites(&self) -> Vec<WallSite> {
        let strip = 3..self.last_col;
        let mut sites: Vec<WallSite> = strip.clone().rev().map(WallSite::North).collect();
        sites.extend(ROWS[1..9].iter().map(|&r| WallSite::East(r)));
        sites.extend(strip.rev().map(WallSite::South));
        sites
    }

    /// The sites next to `site` along the wall, and whether it touches a gate.
    pub fn wall_neighbours(&self, site: WallSite) -> (Vec<WallSite>, bool) {
        let gate_col = self.last_col - 1;
        match site {
            WallSite::North(c) | WallSite::South(c) => {
                let same = |c| if matches!(site, WallSite::North(_)) { WallSite::North(c) } else { WallSite::South(c) };
                let mut n = Vec::new();
                if c > 3 {
                    n.push(same(c - 1));
                }
                if c < gate_col {
                    n.push(same(c + 1));
                }
                (n, c == gate_col)
            }
            WallSite::East(label) => {
                let i = ROWS.iter().position(|&r| r == label).expect("an east site's row");
                let mut n = Vec::new();
                if i > 1 {
                    n.push(WallSite::East(ROWS[i - 1]));
                }
                if i < 8 {
                    n.push(WallSite::East(ROWS[i + 1]));
                }
                (n, i == 1 || i == 8)
            }
        }
    }
}

/// Where a wall tile goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum WallSite {
    /// Above the city, at a column.
    North(u8),
    /// Beside the city's last column, at a row (its name).
    East(u8),
    /// Below the city, at a column.
    South(u8),
}

impl WallSite {
    /// Gold to build here: 2 towards the sea, 4 between the gates.
    pub fn cost(self) -> u8 {
        match self {
            WallSite::East(_) => 4,
            _ => 2,
        }
    }

    pub fn parse(name: &str) -> Result<WallSite, String> {
        let (side, n) = name
            .split_once(':')
            .ok_or_else(|| format!("`{name}` is not a wall site like `north:4`, `east:9` or `south:5`"))?;
        let n: u8 = n.parse().map_err(|_| format!("`{name}`: `{n}` is not a number"))?;
        match side {
            "north" => Ok(WallSite::North(n)),
            "south" => Ok(WallSite::South(n)),
            "east" => Ok(WallSite::East(n)),
            _ => Err(format!("`{name}`: a wall site is on the `north`, `east` or `south`")),
        }
    }
}

impl fmt::Display for WallSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WallSite::North(c) => write!(f, "north:{c}"),
            WallSite::East(r) => write!(f, "east:{r}"),
            WallSite::South(c) => write!(f, "south:{c}"),
        }
    }
}

/// A church tile: its place in the church's 3 × 3 squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct ChurchTile(pub u8);

impl ChurchTile {
    pub const NAMES: [&'static str; 9] = ["nw", "n", "ne", "w", "c", "e", "sw", "s", "se"];

    pub fn all() -> impl Iterator<Item = ChurchTile> {
        (0..9).map(ChurchTile)
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }

    pub fn parse(name: &str) -> Result<ChurchTile, String> {
        Self::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| ChurchTile(i as u8))
            .ok_or_else(|| format!("`{name}` is not a church tile (nw, n, ne, w, c, e, sw, s, se)"))
    }

    /// Columns east and rows south of the church's north-west square.
    pub fn offset(self) -> (u8, u8) {
        (self.0 % 3, self.0 / 3)
    }
}

/// The player colours of the game, and where each one's two start huts stand (a small 1 × 1 hut and a
/// large 1 × 2 one, by their north-west squares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    Red,
    Blue,
    Yellow,
    Green,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green];

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
        }
    }

    pub fn parse(name: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.name() == name)
    }

    /// (small hut, large hut).
    pub fn start_huts(self) -> (Square, Square) {
        match self {
            Colour::Blue => (Square::at(3, 4), Square::at(2, 8)),
            Colour::Red => (Square::at(4, 4), Square::at(5, 8)),
            Colour::Yellow => (Square::at(3, 10), Square::at(2, 5)),
            Colour::Green => (Square::at(4, 10), Square::at(5, 5)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_back_by_name_and_rows_skip_7() {
        for s in squares() {
            assert_eq!(Square::parse(&s.to_string()), Ok(s));
        }
        assert!(Square::parse("3:7").unwrap_err().contains("no row 7"));
        assert_eq!(CHURCH_SITE.to_string(), "3:8");
    }

    #[test]
    fn the_gates_set_the_city_and_its_walls() {
        let two = City::for_players(2);
        assert_eq!(two.last_col, 5);
        assert_eq!(two.wall_sites().len(), 2 + 8 + 2);
        assert_eq!(City::for_players(4).wall_sites().len(), 6 + 8 + 6);
        assert_eq!(two.windmills(Square::at(6, 2)), 0, "under the gate with two players");
        assert_eq!(City::for_players(3).windmills(Square::at(6, 2)), 2);
        assert_eq!(City::for_players(3).windmills(Square::at(8, 2)), 0);
        assert_eq!(two.windmills(Square::at(1, 9)), 1);
        let (n, gate) = two.wall_neighbours(WallSite::North(4));
        assert!(gate && n == vec![WallSite::North(3)]);
        let (_, gate) = two.wall_neighbours(WallSite::East(3));
        assert!(gate);
    }
}
