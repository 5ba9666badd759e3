//! JSettlers' classic boards (layout encodings v1 for 4 players and v2 for 6) and its coordinates, as
//! Almanac's board and names.
//!
//! A JSettlers coordinate is two hex digits `a b`. A hex has both digits odd; it is axial `q = (b - 7) / 2`,
//! `r = (a - b) / 2`. The corners of hex H are N `H+01`, NE `H+12`, SE `H+21`, S `H+10`, SW `H-01`, NW
//! `H-10`; its sides NE `H+01`, E `H+11`, SE `H+10`, SW `H-01`, W `H-11`, NW `H-10`. So a node or an edge
//! is named from any land hex it touches.

use crate::geometry::{CORNER_NAMES, SIDE_NAMES};
use crate::resources::Resource;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A coordinate as its two digits (kept apart so that stepping never borrows across them).
pub type Coord = (i32, i32);

/// Offsets of a hex's corners, in Almanac's corner order (N NE SE S SW NW).
const CORNERS: [Coord; 6] = [(0, 1), (1, 2), (2, 1), (1, 0), (0, -1), (-1, 0)];
/// Offsets of a hex's sides, in Almanac's side order (NE E SE SW W NW).
const SIDES: [Coord; 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// The 37 hexes of both encodings, in the order of `hexLayout` / `HL`.
const HEXES: [u8; 37] = [
    0x17, 0x39, 0x5B, 0x7D, 0x15, 0x37, 0x59, 0x7B, 0x9D, 0x13, 0x35, 0x57, 0x79, 0x9B, 0xBD, 0x11, 0x33, 0x55, 0x77,
    0x99, 0xBB, 0xDD, 0x31, 0x53, 0x75, 0x97, 0xB9, 0xDB, 0x51, 0x73, 0x95, 0xB7, 0xD9, 0x71, 0x93, 0xB5, 0xD7,
];
/// The 6-player board's harbour edges, in the order of `PL`.
const PORT_EDGES_V2: [u8; 11] = [0x07, 0x3A, 0x7C, 0xAC, 0xCA, 0xC7, 0xA3, 0x70, 0x30, 0x00, 0x03];
/// `numberLayout` (v1) holds an index into these.
const NUMBERS_V1: [u8; 10] = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];

pub fn coord(byte: u32) -> Coord {
    ((byte >> 4) as i32, (byte & 0xF) as i32)
}

fn add(a: Coord, b: Coord) -> Coord {
    (a.0 + b.0, a.1 + b.1)
}

fn sub(a: Coord, b: Coord) -> Coord {
    (a.0 - b.0, a.1 - b.1)
}

fn is_hex(c: Coord) -> bool {
    c.0 % 2 != 0 && c.1 % 2 != 0
}

fn terrain(value: i32) -> Option<&'static str> {
    Some(match value {
        0 => "desert",
        1 => "hills",
        2 => "mountains",
        3 => "pasture",
        4 => "fields",
        5 => "forest",
        _ => return None,
    })
}

/// JSettlers' resource codes (1 clay ... 5 wood).
pub fn resource(code: u32) -> Option<Resource> {
    Some(match code {
        1 => Resource::Brick,
        2 => Resource::Ore,
        3 => Resource::Wool,
        4 => Resource::Grain,
        5 => Resource::Lumber,
        _ => return None,
    })
}

/// A harbour on an edge: 3:1, or 2:1 for one resource.
struct Harbour {
    edge: Coord,
    resource: Option<Resource>,
}

/// A board read from a layout message.
pub struct Layout {
    /// Land hexes in Almanac's order: (JSettlers coordinate, terrain, number).
    land: Vec<(Coord, &'static str, Option<u8>)>,
    index: HashMap<Coord, usize>,
    harbours: Vec<Harbour>,
    robber: Coord,
}

impl Layout {
    /// `SOCBoardLayout` (4 players): `hexLayout`, `numberLayout` (indices), `robberHex` (hex digits).
    pub fn v1(hexes: &[i32], numbers: &[i32], robber: Coord) -> Result<Layout, String> {
        let mut harbours = Vec::new();
        for (i, &v) in hexes.iter().enumerate() {
            let at = coord(HEXES[i] as u32);
            // 7-12: 3:1 facing v-6; 16 and above: 2:1, facing in the high nibble, resource in the low.
            let (facing, res) = match v {
                7..=12 => (v - 6, None),
                16.. => (v >> 4, Some(resource((v & 0xF) as u32).ok_or(format!("hex {i}: harbour code {v}"))?)),
                _ => continue,
            };
            let side = SIDES.get((facing - 1) as usize).ok_or(format!("hex {i}: harbour facing {facing}"))?;
            harbours.push(Harbour { edge: add(at, *side), resource: res });
        }
        let number = |i: usize| match numbers.get(i) {
            Some(&n) if n >= 0 => NUMBERS_V1.get(n as usize).copied(),
            _ => None,
        };
        Layout::build(hexes, number, harbours, robber)
    }

    /// `SOCBoardLayout2` (6 players): `HL`, `NL` (dice numbers), `PL` (harbour types), `RH` (decimal).
    pub fn v2(hexes: &[i32], numbers: &[i32], ports: &[i32], robber: Coord) -> Result<Layout, String> {
        if ports.len() > PORT_EDGES_V2.len() {
            return Err(format!("{} harbours; the 6-player board has {}", ports.len(), PORT_EDGES_V2.len()));
        }
        let mut harbours = Vec::new();
        for (i, &kind) in ports.iter().enumerate() {
            let res = match kind {
                0 => None,
                r => Some(resource(r as u32).ok_or(format!("harbour {i}: type {r}"))?),
            };
            harbours.push(Harbour { edge: coord(PORT_EDGES_V2[i] as u32), resource: res });
        }
        let number = |i: usize| numbers.get(i).filter(|&&n| (2..=12).contains(&n) && n != 7).map(|&n| n as u8);
        Layout::build(hexes, number, harbours, robber)
    }

    fn build(
        hexes: &[i32],
        number: impl Fn(usize) -> Option<u8>,
        harbours: Vec<Harbour>,
        robber: Coord,
    ) -> Result<Layout, String> {
        if hexes.len() != HEXES.len() {
            return Err(format!("the hex layout has {} hexes; a classic board has {}", hexes.len(), HEXES.len()));
        }
        let mut land: Vec<(Coord, &'static str, Option<u8>)> = hexes
            .iter()
            .enumerate()
            .filter_map(|(i, &v)| terrain(v).map(|t| (coord(HEXES[i] as u32), t, number(i))))
            .collect();
        if land.is_empty() {
            return Err("the board has no land".into());
        }
        // Reading order: row by row (r), west to east (q).
        land.sort_by_key(|&(c, ..)| {
            let (q, r) = axial(c);
            (r, q)
        });
        let index = land.iter().enumerate().map(|(i, &(c, ..))| (c, i)).collect();
        Ok(Layout { land, index, harbours, robber })
    }

    /// The board as an almanac/1 header's `board`.
    pub fn spec(&self) -> Result<Value, String> {
        let hexes: Vec<Value> = self
            .land
            .iter()
            .map(|&(c, terrain, number)| {
                let (q, r) = axial(c);
                match number {
                    Some(n) => json!({"at": [q, r], "terrain": terrain, "number": n}),
                    None => json!({"at": [q, r], "terrain": terrain}),
                }
            })
            .collect();
        let mut harbours = Vec::new();
        for h in &self.harbours {
            let edge = self.edge_name(h.edge).map_err(|e| format!("a harbour: {e}"))?;
            harbours.push(match h.resource {
                None => json!({"edge": edge, "ratio": 3}),
                Some(r) => json!({"edge": edge, "ratio": 2, "resource": r.name()}),
            });
        }
        Ok(json!({"hexes": hexes, "harbours": harbours, "robber": self.hex_index(self.robber)?}))
    }

    /// The index of a land hex.
    pub fn hex_index(&self, c: Coord) -> Result<usize, String> {
        self.index.get(&c).copied().ok_or_else(|| format!("hex {} is not a land hex", show(c)))
    }

    /// A node as `"<hex>:<corner>"`, from the land hex with the lowest index.
    pub fn node_name(&self, n: Coord) -> Result<String, String> {
        self.name_from(n, &CORNERS, &CORNER_NAMES).ok_or_else(|| format!("node {} touches no land hex", show(n)))
    }

    /// An edge as `"<hex>:<side>"`, from the land hex with the lowest index.
    pub fn edge_name(&self, e: Coord) -> Result<String, String> {
        self.name_from(e, &SIDES, &SIDE_NAMES).ok_or_else(|| format!("edge {} touches no land hex", show(e)))
    }

    fn name_from(&self, at: Coord, offsets: &[Coord; 6], names: &[&str; 6]) -> Option<String> {
        (0..6)
            .filter_map(|k| {
                let hex = sub(at, offsets[k]);
                is_hex(hex).then(|| self.index.get(&hex).map(|&i| (i, k))).flatten()
            })
            .min()
            .map(|(i, k)| format!("{i}:{}", names[k]))
    }
}

fn axial((a, b): Coord) -> (i32, i32) {
    ((b - 7) / 2, (a - b) / 2)
}

/// A coordinate as JSettlers writes it.
fn show((a, b): Coord) -> String {
    if (0..16).contains(&a) && (0..16).contains(&b) {
        format!("{:x}", a * 16 + b)
    } else {
        format!("({a},{b})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_hex_is_the_origin_and_its_neighbours_are_axial_ones() {
        assert_eq!(axial(coord(0x77)), (0, 0));
        assert_eq!(axial(coord(0x99)), (1, 0), "E adds 0x22");
        assert_eq!(axial(coord(0x79)), (1, -1), "NE adds 0x02");
        assert_eq!(axial(coord(0x97)), (0, 1), "SE adds 0x20");
    }

    #[test]
    fn a_node_and_an_edge_get_names_from_a_land_hex() {
        // Only the centre hex is land: node 0x78 is its N corner, 0x87 its S, 0x89 its NE; edge 0x78 its NE side.
        let mut hexes = vec![6; 37];
        hexes[18] = 4;
        let l = Layout::v1(&hexes, &[-1; 37], coord(0x77)).unwrap();
        assert_eq!(l.node_name(coord(0x78)).unwrap(), "0:N");
        assert_eq!(l.node_name(coord(0x87)).unwrap(), "0:S");
        assert_eq!(l.node_name(coord(0x89)).unwrap(), "0:NE");
        assert_eq!(l.edge_name(coord(0x78)).unwrap(), "0:NE");
        assert_eq!(l.edge_name(coord(0x88)).unwrap(), "0:E");
        assert_eq!(l.edge_name(coord(0x66)).unwrap(), "0:W");
        assert!(l.node_name(coord(0x23)).is_err());
    }
}
