//! A Catan board: the land hexes from the header, and the vertices and edges they make, with adjacency.
//!
//! Names in logs: a hex is its index in the header's `board.hexes` list; a vertex is `"<hex>:<corner>"`
//! (corner N, NE, SE, S, SW, NW) and an edge `"<hex>:<side>"` (side NE, E, SE, SW, W, NW). A vertex shared
//! by three hexes has three names; all are accepted, and we write the one with the lowest hex index.

use crate::geometry::{self, Axial, EdgeKey, VertexKey, CORNER_NAMES, SIDE_NAMES};
use crate::resources::{Resource, Terrain};
use almanac_core::SetupError;
use serde::Deserialize;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for the few small integer keys of a board's making (hex, corner and side positions): a board is
/// made for every state read from a checkpoint, and SipHash's resistance to chosen keys buys nothing there.
#[derive(Default)]
struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_i32(&mut self, n: i32) {
        self.write_u64(n as u32 as u64);
    }
    fn write_u64(&mut self, n: u64) {
        // Multiply-and-rotate, as rustc's own maps of small keys do.
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type PositionMap<K, V> = HashMap<K, V, BuildHasherDefault<PositionHasher>>;

/// A vertex's or an edge's name, `"<hex>:<direction>"`, held in place: a board names every vertex and edge,
/// and is made for every state read from a checkpoint, where a string of its own for each was a third of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PositionName {
    bytes: [u8; 7],
    len: u8,
}

impl PositionName {
    /// `hex` is below 250 (`Board::from_spec` refuses more) and `direction` one of two letters at most.
    fn new(hex: usize, direction: &str) -> PositionName {
        let mut name = PositionName { bytes: [0; 7], len: 0 };
        let mut push = |b: u8| {
            name.bytes[name.len as usize] = b;
            name.len += 1;
        };
        if hex >= 100 {
            push(b'0' + (hex / 100) as u8);
        }
        if hex >= 10 {
            push(b'0' + (hex / 10 % 10) as u8);
        }
        push(b'0' + (hex % 10) as u8);
        push(b':');
        direction.bytes().for_each(push);
        name
    }
}

impl std::ops::Deref for PositionName {
    type Target = str;
    fn deref(&self) -> &str {
        // Only ASCII digits, a colon and a direction's letters are ever written.
        std::str::from_utf8(&self.bytes[..self.len as usize]).expect("a position's name is ASCII")
    }
}

impl std::fmt::Display for PositionName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::fmt::Debug for PositionName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq<&str> for PositionName {
    fn eq(&self, other: &&str) -> bool {
        &**self == *other
    }
}

impl serde::Serialize for PositionName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

pub type VertexId = u16;
pub type EdgeId = u16;
pub type HexId = u8;

#[derive(Debug, Clone)]
pub struct Hex {
    pub at: Axial,
    pub terrain: Terrain,
    pub number: Option<u8>,
    pub corners: [VertexId; 6],
    pub sides: [EdgeId; 6],
}

/// A harbour's trade: 3:1 for any resource, or 2:1 for one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Harbour {
    Generic,
    Special(Resource),
}

#[derive(Debug, Clone)]
pub struct Vertex {
    pub name: PositionName,
    pub hexes: Few<HexId, 3>,
    pub neighbours: Few<VertexId, 3>,
    pub edges: Few<EdgeId, 3>,
    pub harbour: Option<Harbour>,
}

#[derive(Debug, Clone)]
pub struct Edge {
    pub name: PositionName,
    pub ends: [VertexId; 2],
    pub hexes: Few<HexId, 2>,
}

/// At most `N` ids, held in place: a corner touches three hexes at most, an edge two. A board is made for
/// every state read from a checkpoint, and a list of its own for each corner and edge was most of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Few<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy + Default, const N: usize> Few<T, N> {
    pub fn new() -> Self {
        Few { items: [T::default(); N], len: 0 }
    }

    /// Adds `item`; a board's geometry never gives more than `N`.
    fn push(&mut self, item: T) {
        assert!((self.len as usize) < N, "more than {N} on a corner or an edge");
        self.items[self.len as usize] = item;
        self.len += 1;
    }
}

impl<T: Copy + Default, const N: usize> Default for Few<T, N> {
    fn default() -> Self {
        Few::new()
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Few<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Few<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A board (the default one has no hexes: what a state read from a checkpoint holds until it takes its
/// game's board).
#[derive(Debug, Clone, Default)]
pub struct Board {
    pub hexes: Vec<Hex>,
    pub vertices: Vec<Vertex>,
    pub edges: Vec<Edge>,
    /// For each dice number, the hexes that carry it.
    pub by_number: [Vec<HexId>; 13],
    pub robber_start: HexId,
    /// The harbours as given, by edge.
    pub harbours: Vec<(EdgeId, Harbour)>,
}

/// The board as written in a header.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    pub hexes: Vec<HexSpec>,
    #[serde(default)]
    pub harbours: Vec<HarbourSpec>,
    /// The hex the robber starts on; the (first) desert if absent.
    #[serde(default)]
    pub robber: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexSpec {
    pub at: [i32; 2],
    pub terrain: String,
    #[serde(default)]
    pub number: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HarbourSpec {
    /// A coastal edge, `"<hex>:<side>"`.
    pub edge: String,
    /// 3 (any resource) or 2 (the named resource).
    pub ratio: u8,
    #[serde(default)]
    pub resource: Option<String>,
}

fn err(msg: String) -> SetupError {
    SetupError(format!("board: {msg}"))
}

impl Board {
    pub fn from_spec(spec: &BoardSpec) -> Result<Board, SetupError> {
        if spec.hexes.is_empty() {
            return Err(err("no hexes".into()));
        }
        if spec.hexes.len() > 250 {
            return Err(err(format!("{} hexes is more than any Catan board has", spec.hexes.len())));
        }
        let mut hexes = Vec::with_capacity(spec.hexes.len());
        let mut at_index: PositionMap<Axial, usize> = PositionMap::default();
        for (i, h) in spec.hexes.iter().enumerate() {
            let at = (h.at[0], h.at[1]);
            if let Some(j) = at_index.insert(at, i) {
                return Err(err(format!("hexes {j} and {i} are both at {:?}", h.at)));
            }
            let terrain = Terrain::from_name(&h.terrain).ok_or_else(|| {
                let names: Vec<&str> = Terrain::ALL.iter().map(|t| t.name()).collect();
                err(format!("hex {i}: unknown terrain `{}` (one of {})", h.terrain, names.join(", ")))
            })?;
            match (terrain.produces(), h.number) {
                (None, Some(n)) => {
                    return Err(err(format!("hex {i}: the desert carries no number token, but has {n}")))
                }
                (Some(_), None) => return Err(err(format!("hex {i}: {} needs a number token", h.terrain))),
                (Some(_), Some(n)) if !(2..=12).contains(&n) || n == 7 => {
                    return Err(err(format!("hex {i}: number token {n} does not exist (2-6, 8-12)")))
                }
                _ => {}
            }
            hexes.push(Hex { at, terrain, number: h.number, corners: [0; 6], sides: [0; 6] });
        }
        // The land must be one island.
        let mut seen = vec![false; hexes.len()];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for s in 0..6 {
                if let Some(&j) = at_index.get(&geometry::neighbour(hexes[i].at, s)) {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(err(format!("hex {i} at {:?} is not connected to hex 0", hexes[i].at)));
        }

        // Sized for an island (about 2 corners and 3 sides a hex).
        let mut vertices: Vec<Vertex> = Vec::with_capacity(hexes.len() * 3 + 6);
        let mut edges: Vec<Edge> = Vec::with_capacity(hexes.len() * 4 + 6);
        let mut vertex_index: PositionMap<VertexKey, VertexId> = PositionMap::default();
        let mut edge_index: PositionMap<EdgeKey, EdgeId> = PositionMap::default();
        vertex_index.reserve(vertices.capacity());
        edge_index.reserve(edges.capacity());
        for i in 0..hexes.len() {
            let at = hexes[i].at;
            for c in 0..6 {
                let key = geometry::corner_key(at, c);
                let id = *vertex_index.entry(key).or_insert_with(|| {
                    vertices.push(Vertex {
                        name: PositionName::new(i, CORNER_NAMES[c]),
                        hexes: Few::new(),
                        neighbours: Few::new(),
                        edges: Few::new(),
                        harbour: None,
                    });
                    (vertices.len() - 1) as VertexId
                });
                vertices[id as usize].hexes.push(i as HexId);
                hexes[i].corners[c] = id;
            }
            for s in 0..6 {
                let key = geometry::side_key(at, s);
                let ends = [hexes[i].corners[s], hexes[i].corners[(s + 1) % 6]];
                let id = *edge_index.entry(key).or_insert_with(|| {
                    edges.push(Edge { name: PositionName::new(i, SIDE_NAMES[s]), ends, hexes: Few::new() });
                    (edges.len() - 1) as EdgeId
                });
                edges[id as usize].hexes.push(i as HexId);
                hexes[i].sides[s] = id;
            }
        }
        for (e, edge) in edges.iter().enumerate() {
            let [a, b] = edge.ends;
            vertices[a as usize].neighbours.push(b);
            vertices[b as usize].neighbours.push(a);
            vertices[a as usize].edges.push(e as EdgeId);
            vertices[b as usize].edges.push(e as EdgeId);
        }
        let mut by_number: [Vec<HexId>; 13] = Default::default();
        for (i, h) in hexes.iter().enumerate() {
            if let Some(n) = h.number {
                by_number[n as usize].push(i as HexId);
            }
        }
        let robber_start = match spec.robber {
            Some(r) if (r as usize) < hexes.len() => r,
            Some(r) => return Err(err(format!("robber: there is no hex {r} (the board has {})", hexes.len()))),
            None => hexes
                .iter()
                .position(|h| h.terrain == Terrain::Desert)
                .ok_or_else(|| err("no desert for the robber to start on; give `robber`".into()))?
                as HexId,
        };
        let mut board = Board { hexes, vertices, edges, by_number, robber_start, harbours: Vec::new() };
        for (k, h) in spec.harbours.iter().enumerate() {
            let e = board.edge(&h.edge).map_err(|m| err(format!("harbour {k}: {m}")))?;
            if board.edges[e as usize].hexes.len() != 1 {
                return Err(err(format!("harbour {k}: edge {} is not on the coast", h.edge)));
            }
            let trade = match (h.ratio, h.resource.as_deref()) {
                (3, None) => Harbour::Generic,
                (2, Some(r)) => Harbour::Special(
                    Resource::from_name(r).ok_or_else(|| err(format!("harbour {k}: unknown resource `{r}`")))?,
                ),
                (3, Some(_)) => {
                    return Err(err(format!("harbour {k}: a 3:1 harbour takes any resource; drop `resource`")))
                }
                (2, None) => return Err(err(format!("harbour {k}: a 2:1 harbour needs its `resource`"))),
                (n, _) => return Err(err(format!("harbour {k}: ratio {n} does not exist (3 or 2)"))),
            };
            for v in board.edges[e as usize].ends {
                if board.vertices[v as usize].harbour.is_some() {
                    return Err(err(format!(
                        "harbour {k}: vertex {} already belongs to a harbour",
                        board.vertices[v as usize].name
                    )));
                }
                board.vertices[v as usize].harbour = Some(trade);
            }
            board.harbours.push((e, trade));
        }
        Ok(board)
    }

    fn split(name: &str) -> Result<(usize, &str), String> {
        let (h, dir) = name.split_once(':').ok_or_else(|| format!("`{name}` is not a position like `4:NE`"))?;
        let h: usize = h.parse().map_err(|_| format!("`{name}`: `{h}` is not a hex number"))?;
        Ok((h, dir))
    }

    /// Reads a vertex name such as `"4:NE"`.
    pub fn vertex(&self, name: &str) -> Result<VertexId, String> {
        let (hex, c) = self.place(name, "vertex", &CORNER_NAMES, "a corner (N, NE, SE, S, SW, NW)")?;
        Ok(hex.corners[c])
    }

    /// Reads an edge name such as `"4:E"`.
    pub fn edge(&self, name: &str) -> Result<EdgeId, String> {
        let (hex, s) = self.place(name, "edge", &SIDE_NAMES, "a side (NE, E, SE, SW, W, NW)")?;
        Ok(hex.sides[s])
    }

    /// The hex of a place's name and the place's index among `names` (a hex's corners or sides), or what is
    /// wrong with the name, in the words of `what` it names and `one_of` its directions.
    fn place(&self, name: &str, what: &str, names: &[&str], one_of: &str) -> Result<(&Hex, usize), String> {
        let (h, dir) = Self::split(name)?;
        let hex = self.hexes.get(h).ok_or_else(|| format!("{what} `{name}`: there is no hex {h}"))?;
        let i =
            names.iter().position(|n| *n == dir).ok_or_else(|| format!("{what} `{name}`: `{dir}` is not {one_of}"))?;
        Ok((hex, i))
    }

    /// The edge between two vertices, if they are neighbours.
    pub fn edge_between(&self, a: VertexId, b: VertexId) -> Option<EdgeId> {
        self.vertices[a as usize].edges.iter().copied().find(|&e| self.edges[e as usize].ends.contains(&b))
    }

    /// The desert, where a game's robber stands at the start unless the header says otherwise.
    pub fn desert(&self) -> Option<HexId> {
        self.hexes.iter().position(|h| h.terrain == Terrain::Desert).map(|i| i as HexId)
    }

    /// Every name of a vertex, for messages: `0:SE/1:SW/4:N`.
    pub fn vertex_label(&self, v: VertexId) -> String {
        self.label(&self.vertices[v as usize].hexes, |hex| {
            CORNER_NAMES[hex.corners.iter().position(|&x| x == v).expect("a corner of its hex")]
        })
    }

    /// Every name of an edge, for messages: `4:E/5:W`.
    pub fn edge_label(&self, e: EdgeId) -> String {
        self.label(&self.edges[e as usize].hexes, |hex| {
            SIDE_NAMES[hex.sides.iter().position(|&x| x == e).expect("a side of its hex")]
        })
    }

    /// `hex:place` for each hex a vertex or an edge touches, joined by `/`.
    fn label(&self, hexes: &[HexId], place: impl Fn(&Hex) -> &'static str) -> String {
        let names: Vec<String> = hexes.iter().map(|&h| format!("{h}:{}", place(&self.hexes[h as usize]))).collect();
        names.join("/")
    }

    pub fn hex_label(&self, h: HexId) -> String {
        let hex = &self.hexes[h as usize];
        match hex.number {
            Some(n) => format!("hex {h} ({} {n})", hex.terrain.name()),
            None => format!("hex {h} ({})", hex.terrain.name()),
        }
    }

    pub fn harbour_label(h: Harbour) -> String {
        match h {
            Harbour::Generic => "3:1".into(),
            Harbour::Special(r) => format!("2:1 {r}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_name_reads_as_formatting_would_write_it() {
        for hex in [0, 7, 10, 42, 99, 100, 101, 249] {
            for direction in CORNER_NAMES.iter().chain(&SIDE_NAMES) {
                let name = PositionName::new(hex, direction);
                assert_eq!(&*name, format!("{hex}:{direction}"));
                assert_eq!(serde_json::to_string(&name).unwrap(), format!("\"{hex}:{direction}\""));
            }
        }
    }
}
