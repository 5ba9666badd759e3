//! Hex grid geometry, independent of any board.
//!
//! Hexes are pointy-top, in axial coordinates `(q, r)`: `q` grows to the east, `r` to the south-east.
//! The six neighbours of `(q, r)` are E `(q+1, r)`, W `(q-1, r)`, NE `(q+1, r-1)`, NW `(q, r-1)`,
//! SE `(q, r+1)` and SW `(q-1, r+1)`.
//!
//! A hex has six corners (N, NE, SE, S, SW, NW) and six sides (NE, E, SE, SW, W, NW); side `i` runs from
//! corner `i` to corner `i + 1`. Every corner of the grid is the N or the S corner of exactly one hex and
//! every side is the NE, E or SE side of exactly one hex: that is the canonical key of a vertex or edge.

/// A hex in axial coordinates.
pub type Axial = (i32, i32);

pub const CORNER_NAMES: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];
pub const SIDE_NAMES: [&str; 6] = ["NE", "E", "SE", "SW", "W", "NW"];

/// The hex across side `side` (indexed as in [`SIDE_NAMES`]).
pub fn neighbour(hex: Axial, side: usize) -> Axial {
    let (q, r) = hex;
    match side {
        0 => (q + 1, r - 1),
        1 => (q + 1, r),
        2 => (q, r + 1),
        3 => (q - 1, r + 1),
        4 => (q - 1, r),
        _ => (q, r - 1),
    }
}

/// The canonical key of a corner: `(q, r, is_north)` of the hex whose N or S corner it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexKey(pub i32, pub i32, pub bool);

/// The canonical key of a side: `(q, r, side)` with side 0 (NE), 1 (E) or 2 (SE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeKey(pub i32, pub i32, pub u8);

pub fn corner_key(hex: Axial, corner: usize) -> VertexKey {
    let (q, r) = hex;
    match corner {
        0 => VertexKey(q, r, true),
        1 => VertexKey(q + 1, r - 1, false),
        2 => VertexKey(q, r + 1, true),
        3 => VertexKey(q, r, false),
        4 => VertexKey(q - 1, r + 1, true),
        _ => VertexKey(q, r - 1, false),
    }
}

pub fn side_key(hex: Axial, side: usize) -> EdgeKey {
    let (q, r) = hex;
    match side {
        0..=2 => EdgeKey(q, r, side as u8),
        3 => EdgeKey(q - 1, r + 1, 0),
        4 => EdgeKey(q - 1, r, 1),
        _ => EdgeKey(q, r - 1, 2),
    }
}

/// The centre of a hex in a plane where hexes have circumradius 1 (x to the east, y to the south).
pub fn centre(hex: Axial) -> (f64, f64) {
    let (q, r) = hex;
    (3f64.sqrt() * (q as f64 + r as f64 / 2.0), 1.5 * r as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner_point(hex: Axial, corner: usize) -> (i64, i64) {
        let (x, y) = centre(hex);
        let angle = std::f64::consts::PI / 180.0 * (-90.0 + 60.0 * corner as f64);
        // Rounded so that equal points compare equal.
        (((x + angle.cos()) * 1000.0).round() as i64, ((y + angle.sin()) * 1000.0).round() as i64)
    }

    #[test]
    fn corners_with_the_same_key_are_the_same_point() {
        let hexes: Vec<Axial> = (-3..=3).flat_map(|q| (-3..=3).map(move |r| (q, r))).collect();
        let mut by_key = std::collections::HashMap::new();
        let mut by_point = std::collections::HashMap::new();
        for &h in &hexes {
            for c in 0..6 {
                let k = corner_key(h, c);
                let p = corner_point(h, c);
                assert_eq!(*by_key.entry(k).or_insert(p), p, "key {k:?} names two points");
                assert_eq!(*by_point.entry(p).or_insert(k), k, "point {p:?} has two keys");
            }
        }
    }

    #[test]
    fn sides_join_consecutive_corners_and_are_shared_with_the_neighbour() {
        for c in 0..6 {
            let h = (1, -2);
            let n = neighbour(h, c);
            let opposite = (c + 3) % 6;
            assert_eq!(side_key(h, c), side_key(n, opposite));
            // The side's ends, seen from both hexes, are the same two corners.
            let mut a = [corner_key(h, c), corner_key(h, (c + 1) % 6)];
            let mut b = [corner_key(n, opposite), corner_key(n, (opposite + 1) % 6)];
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
}
