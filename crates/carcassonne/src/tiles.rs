//! The tile catalogue, read once from `tiles.txt`: the facts of the tile sets (edges, features, pennants,
//! goods) in JCloisterZone's conventions and ids, so that its records need no mapping table.
//!
//! Geometry: a tile has four sides N E S W (0..4) and eight half-edges NL NR EL ER SL SR WL WR (0..8),
//! clockwise. A rotation by `r` quarter turns clockwise moves side `s` to `s + r` and half `h` to `h + 2r`.

use std::collections::HashMap;
use std::sync::OnceLock;

pub const SIDES: [&str; 4] = ["N", "E", "S", "W"];
pub const HALVES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
pub const GOODS: [&str; 3] = ["wine", "grain", "cloth"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    City,
    Road,
    Field,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureKind {
    City {
        pennants: u8,
        good: Option<usize>,
    },
    Road,
    Monastery,
    /// A field and the city features (indices into the tile's features) it touches.
    Field {
        cities: Vec<usize>,
    },
}

/// One feature of a tile, unrotated: the sides it reaches (cities, roads) or the half-edges (fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    pub kind: FeatureKind,
    /// Bit `s` set: the feature reaches side `s`.
    pub sides: u8,
    /// Bit `h` set: the field reaches half-edge `h`.
    pub halves: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileType {
    pub id: String,
    pub count: u8,
    pub edges: [EdgeKind; 4],
    pub features: Vec<Feature>,
    /// From Traders & Builders.
    pub traders: bool,
}

pub struct Catalogue {
    pub tiles: Vec<TileType>,
    by_id: HashMap<String, usize>,
}

impl Catalogue {
    pub fn get(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }
}

/// The tile every game starts with (a city north, a road west to east).
pub const START_TILE: &str = "BA/RCr";

pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| parse(include_str!("tiles.txt")).expect("tiles.txt is valid"))
}

fn side(name: &str) -> Result<usize, String> {
    SIDES.iter().position(|s| *s == name).ok_or_else(|| format!("`{name}` is not a side"))
}

fn half(name: &str) -> Result<usize, String> {
    HALVES.iter().position(|s| *s == name).ok_or_else(|| format!("`{name}` is not a half-edge"))
}

fn parse(text: &str) -> Result<Catalogue, String> {
    let mut tiles = Vec::new();
    let mut traders = false;
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("# Traders") {
            traders = true;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: String| format!("tiles.txt:{}: {m}", no + 1);
        let mut words = line.split_whitespace();
        let (Some(id), Some(count), Some(edges)) = (words.next(), words.next(), words.next()) else {
            return Err(err("expected: id count edges features".into()));
        };
        let rest = words.collect::<Vec<_>>().join(" ");
        let count: u8 = count.parse().map_err(|_| err(format!("bad count `{count}`")))?;
        let mut kinds = [EdgeKind::Field; 4];
        for (i, c) in edges.chars().enumerate().take(4) {
            kinds[i] = match c {
                'C' => EdgeKind::City,
                'R' => EdgeKind::Road,
                'F' => EdgeKind::Field,
                _ => return Err(err(format!("bad edge `{c}`"))),
            };
        }
        let mut features = Vec::new();
        // City numbers (C1, C2 ...) to feature indices, for the fields that touch them.
        let mut city_index: HashMap<String, usize> = HashMap::new();
        let mut fields: Vec<(u8, Vec<String>)> = Vec::new();
        for f in rest.trim().split(';').map(str::trim) {
            if f == "M" {
                features.push(Feature { kind: FeatureKind::Monastery, sides: 0, halves: 0 });
            } else if let Some(body) = f.strip_prefix('C') {
                let (name, rest) = body.split_once(':').ok_or_else(|| err(format!("bad city `{f}`")))?;
                let mut words = rest.split_whitespace();
                let mut sides = 0u8;
                for s in words.next().unwrap_or("").split(',') {
                    sides |= 1 << side(s).map_err(err)?;
                }
                let (mut pennants, mut good) = (0, None);
                for w in words {
                    match w {
                        "+1" => pennants = 1,
                        g => {
                            good =
                                Some(GOODS.iter().position(|x| *x == g).ok_or_else(|| err(format!("bad good `{g}`")))?)
                        }
                    }
                }
                city_index.insert(format!("C{name}"), features.len());
                features.push(Feature { kind: FeatureKind::City { pennants, good }, sides, halves: 0 });
            } else if let Some(body) = f.strip_prefix('R') {
                let (_, rest) = body.split_once(':').ok_or_else(|| err(format!("bad road `{f}`")))?;
                let mut sides = 0u8;
                for s in rest.split(',') {
                    sides |= 1 << side(s).map_err(err)?;
                }
                features.push(Feature { kind: FeatureKind::Road, sides, halves: 0 });
            } else if let Some(body) = f.strip_prefix("F:") {
                let (halves_text, cities) = match body.split_once('>') {
                    Some((h, c)) => (h, c.split(',').map(str::to_string).collect()),
                    None => (body, Vec::new()),
                };
                let mut halves = 0u8;
                if halves_text != "I" {
                    for h in halves_text.split(',') {
                        halves |= 1 << half(h).map_err(err)?;
                    }
                }
                fields.push((halves, cities));
            } else {
                return Err(err(format!("unknown feature `{f}`")));
            }
        }
        for (halves, cities) in fields {
            let cities = cities
                .iter()
                .map(|c| city_index.get(c).copied().ok_or_else(|| err(format!("field touches unknown `{c}`"))))
                .collect::<Result<_, _>>()?;
            features.push(Feature { kind: FeatureKind::Field { cities }, sides: 0, halves });
        }
        tiles.push(TileType { id: id.to_string(), count, edges: kinds, features, traders });
    }
    let by_id = tiles.iter().enumerate().map(|(i, t)| (t.id.clone(), i)).collect();
    Ok(Catalogue { tiles, by_id })
}

/// Side `s` after turning the tile `r` quarter turns clockwise.
pub fn rotate_side(s: usize, r: u8) -> usize {
    (s + r as usize) % 4
}

/// Half-edge `h` after turning the tile `r` quarter turns clockwise.
pub fn rotate_half(h: usize, r: u8) -> usize {
    (h + 2 * r as usize) % 8
}

/// A set of sides (bits) after the rotation.
pub fn rotate_sides(mask: u8, r: u8) -> u8 {
    (0..4).filter(|s| mask & (1 << s) != 0).fold(0, |m, s| m | (1 << rotate_side(s, r)))
}

/// A set of half-edges (bits) after the rotation.
pub fn rotate_halves(mask: u8, r: u8) -> u8 {
    (0..8).filter(|h| mask & (1 << h) != 0).fold(0, |m, h| m | (1 << rotate_half(h, r)))
}

/// The side across from `s`, and the half-edge that meets half `h` on the neighbouring tile
/// (NL↔SR, NR↔SL, EL↔WR, ER↔WL).
pub fn opposite_side(s: usize) -> usize {
    (s + 2) % 4
}

pub fn opposite_half(h: usize) -> usize {
    // NL(0)↔SR(5), NR(1)↔SL(4), EL(2)↔WR(7), ER(3)↔WL(6)
    [5, 4, 7, 6, 1, 0, 3, 2][h]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Vec<&'static TileType> {
        catalogue().tiles.iter().filter(|t| !t.traders).collect()
    }

    #[test]
    fn the_base_game_has_72_tiles_10_pennants_and_6_monasteries() {
        let b = base();
        assert_eq!(b.len(), 24, "24 tile types A..X");
        assert_eq!(b.iter().map(|t| t.count as u32).sum::<u32>(), 72);
        let pennants: u32 = b
            .iter()
            .map(|t| {
                t.count as u32
                    * t.features
                        .iter()
                        .map(|f| if let FeatureKind::City { pennants, .. } = f.kind { pennants as u32 } else { 0 })
                        .sum::<u32>()
            })
            .sum();
        assert_eq!(pennants, 10);
        let monasteries: u32 = b
            .iter()
            .map(|t| t.count as u32 * t.features.iter().filter(|f| f.kind == FeatureKind::Monastery).count() as u32)
            .sum();
        assert_eq!(monasteries, 6);
        assert!(catalogue().get(START_TILE).is_some());
    }

    #[test]
    fn traders_and_builders_has_24_tiles_with_9_wine_6_grain_5_cloth() {
        let tb: Vec<&TileType> = catalogue().tiles.iter().filter(|t| t.traders).collect();
        assert_eq!(tb.iter().map(|t| t.count as u32).sum::<u32>(), 24);
        let mut goods = [0; 3];
        for t in &tb {
            for f in &t.features {
                if let FeatureKind::City { good: Some(g), .. } = f.kind {
                    goods[g] += 1;
                }
            }
        }
        assert_eq!(goods, [9, 6, 5]);
    }

    #[test]
    fn features_cover_every_edge_as_its_kind_says() {
        for t in &catalogue().tiles {
            for s in 0..4 {
                let cities = t
                    .features
                    .iter()
                    .filter(|f| matches!(f.kind, FeatureKind::City { .. }) && f.sides & (1 << s) != 0)
                    .count();
                let roads =
                    t.features.iter().filter(|f| f.kind == FeatureKind::Road && f.sides & (1 << s) != 0).count();
                let halves: Vec<usize> = [2 * s, 2 * s + 1]
                    .iter()
                    .map(|&h| t.features.iter().filter(|f| f.halves & (1 << h) != 0).count())
                    .collect();
                match t.edges[s] {
                    EdgeKind::City => assert!(cities == 1 && roads == 0 && halves == [0, 0], "{} side {s}", t.id),
                    EdgeKind::Road => assert!(cities == 0 && roads == 1 && halves == [1, 1], "{} side {s}", t.id),
                    EdgeKind::Field => assert!(cities == 0 && roads == 0 && halves == [1, 1], "{} side {s}", t.id),
                }
            }
        }
    }

    #[test]
    fn rotation_turns_sides_and_halves_clockwise() {
        assert_eq!(rotate_side(0, 1), 1); // N -> E
        assert_eq!(rotate_half(0, 1), 2); // NL -> EL
        assert_eq!(rotate_half(7, 1), 1); // WR -> NR
        for h in 0..8 {
            assert_eq!(opposite_half(opposite_half(h)), h);
            // The meeting half lies on the opposite side.
            assert_eq!(opposite_half(h) / 2, opposite_side(h / 2));
        }
    }
}
