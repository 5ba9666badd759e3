//! How each event reads in words, after the acting player's name (the replay's event list): what a tile
//! shows and where it went from the start tile, what a figure stands on and on which side — never a tile's
//! catalogue code.

use crate::event::{Event, Location};
use crate::state::State;
use crate::tiles::{catalogue, FeatureKind, TileType, GOODS};

impl almanac_core::Described<State> for Event {
    fn describe(&self, s: &State) -> String {
        match self {
            Event::PlaceTile { tile, at, rotation, .. } => {
                format!(
                    "places {} {}{}",
                    tile_words(&catalogue().tiles[*tile]),
                    place_words(s, *at),
                    turn_words(*rotation)
                )
            }
            Event::DiscardTile { tile, .. } => {
                format!("discards {} (it fits nowhere)", tile_words(&catalogue().tiles[*tile]))
            }
            Event::PlaceFigure { figure, feature, location, .. } => {
                let role = match (figure.name(), feature.name()) {
                    ("follower", "city") => "a knight".to_string(),
                    ("follower", "road") => "a thief".to_string(),
                    ("follower", "monastery") => "a monk".to_string(),
                    ("follower", "field") => "a farmer".to_string(),
                    (figure, _) => format!("the {figure}"),
                };
                format!("puts {role} on the {}{}", feature.name(), side_words(location))
            }
            Event::EndTurn { .. } => "ends the turn".into(),
            Event::EndGame => "final scoring".into(),
        }
    }
}

/// What a tile shows: "a city-and-road tile", "a monastery tile", "a curved-road tile", "a three-sided city
/// tile with a pennant".
pub fn tile_words(t: &TileType) -> String {
    let mut cities = 0;
    let mut city_sides = 0;
    let mut roads = Vec::new();
    let mut monastery = false;
    let mut pennants = 0;
    let mut goods = Vec::new();
    for f in &t.features {
        match &f.kind {
            FeatureKind::City { pennants: p, good } => {
                cities += 1;
                city_sides = city_sides.max(f.sides.count_ones());
                pennants += *p as u32;
                if let Some(g) = good {
                    goods.push(GOODS[*g]);
                }
            }
            FeatureKind::Road => roads.push(f.sides),
            FeatureKind::Monastery => monastery = true,
            FeatureKind::Field { .. } => {}
        }
    }
    let road = match roads.as_slice() {
        [] => None,
        [one] if one.count_ones() == 2 => {
            Some(if *one == 0b0101 || *one == 0b1010 { "straight-road" } else { "curved-road" })
        }
        [_] => Some("road-end"),
        [_, _] => Some("two-road"),
        _ => Some("crossroads"),
    };
    let city = match (cities, city_sides) {
        (0, _) => None,
        (1, 4) => Some("walled-city".to_string()),
        (1, n) if n >= 2 => Some(format!("{}-sided-city", ["", "one", "two", "three"][n as usize])),
        (1, _) => Some("city".to_string()),
        (n, _) => Some(format!("{}-city", ["", "one", "two", "three", "four"][n.min(4)])),
    };
    let mut kinds: Vec<String> = Vec::new();
    let mut with = Vec::new();
    if monastery {
        kinds.push("monastery".into());
        // A monastery's road leads away from it: "a monastery tile with a road".
        if road.is_some() {
            with.push("a road".to_string());
        }
    } else {
        kinds.extend(road.map(str::to_string));
    }
    kinds.extend(city);
    // A city first, as one says it: "a city-and-curved-road tile".
    kinds.sort_by_key(|k| !k.contains("city"));
    let kind = if kinds.is_empty() { "field".to_string() } else { kinds.join("-and-") };
    match pennants {
        0 => {}
        1 => with.push("a pennant".to_string()),
        n => with.push(format!("{n} pennants")),
    }
    with.extend(goods.iter().map(|g| g.to_string()));
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    if with.is_empty() {
        format!("{article} {kind} tile")
    } else {
        format!("{article} {kind} tile with {}", with.join(" and "))
    }
}

/// Where a tile goes, from the start tile: "north of the start", "2 east and 1 south of the start".
/// How a tile was turned from the way the catalogue draws it: the same tile at one place may lie four
/// ways, and each reads differently.
fn turn_words(rotation: u8) -> &'static str {
    match rotation % 4 {
        0 => "",
        1 => ", turned a quarter right",
        2 => ", turned upside down",
        _ => ", turned a quarter left",
    }
}

/// The words a recorder asks a drawn tile by ("which tile was drawn?"): what it shows, each kind of tile
/// in words of its own (two kinds that read alike are told apart by their number in the catalogue's
/// order among those alike).
pub fn tile_group(tile: usize) -> String {
    let tiles = &catalogue().tiles;
    let words = tile_words(&tiles[tile]);
    let alike: Vec<usize> = (0..tiles.len()).filter(|&t| tile_words(&tiles[t]) == words).collect();
    match alike.iter().position(|&t| t == tile) {
        Some(k) if alike.len() > 1 => format!("{words} (kind {})", k + 1),
        _ => words,
    }
}

fn place_words(s: &State, at: (i32, i32)) -> String {
    let Some(start) = s.placed.first().map(|p| p.at) else { return "as the start".to_string() };
    let (dx, dy) = (at.0 - start.0, at.1 - start.1);
    // Counted where a step is more than one ("2 north and 1 east"); a neighbour's words alone ("north and
    // east": the corner).
    let counted = dx.abs() > 1 || dy.abs() > 1;
    let part = |n: i32, plus: &str, minus: &str| {
        let way = if n > 0 { plus } else { minus };
        match n {
            0 => None,
            _ if counted => Some(format!("{} {way}", n.abs())),
            _ => Some(way.to_string()),
        }
    };
    // North is up: a smaller row.
    let parts: Vec<String> = [part(-dy, "north", "south"), part(dx, "east", "west")].into_iter().flatten().collect();
    match parts.as_slice() {
        [] => "on the start".to_string(),
        _ => format!("{} of the start", parts.join(" and ")),
    }
}

/// The side a figure stands on, in words (`(on the north side)`), when the feature says one.
fn side_words(l: &Location) -> String {
    const NAMES: [&str; 4] = ["north", "east", "south", "west"];
    let sides: Vec<&str> = (0..4).filter(|i| l.sides & (1 << i) != 0).map(|i| NAMES[i]).collect();
    let halves: Vec<&str> = (0..8).filter(|i| l.halves & (1 << i) != 0).map(|i| NAMES[i / 2]).collect();
    let mut named: Vec<&str> = if sides.is_empty() { halves } else { sides };
    named.dedup();
    match named.as_slice() {
        [] => String::new(),
        [one] => format!(", on the {one} side"),
        more if more.len() == 4 => String::new(),
        more => format!(", to the {}", more.join(" and ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(id: &str) -> String {
        tile_words(&catalogue().tiles[catalogue().get(id).unwrap()])
    }

    #[test]
    fn a_sample_game_reads_in_words_without_a_tile_code() {
        use almanac_core::Game;
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/samples/carcassonne-traders-builders.jsonl"
        ))
        .unwrap();
        let header = text.lines().next().unwrap();
        let game = almanac_core::read_events::<crate::Carcassonne>(
            almanac_core::Envelope::parse(header).unwrap(),
            header,
            &text,
        )
        .unwrap();
        let words = game.event_words(0, game.event_count());
        let codes: Vec<&String> =
            words.iter().filter(|w| w.contains("BA/") || w.contains("TB/") || w.contains('°')).collect();
        assert!(codes.is_empty(), "{codes:?}");
        assert!(words.iter().any(|w| w.starts_with("places a ") && w.ends_with(" of the start")), "{:?}", &words[..4]);
        assert!(words.iter().any(|w| w.starts_with("puts a knight on the city")), "{:?}", &words[..6]);
    }

    #[test]
    fn tiles_read_as_what_they_show() {
        assert_eq!(words("BA/RCr"), "a city-and-straight-road tile");
        assert_eq!(words("BA/L"), "a monastery tile");
        assert_eq!(words("BA/LR"), "a monastery tile with a road");
        assert_eq!(words("BA/RFr"), "a straight-road tile");
        assert_eq!(words("BA/Rr"), "a curved-road tile");
        assert_eq!(words("BA/CRRR"), "a city-and-crossroads tile");
        assert_eq!(words("BA/Cccc+"), "a walled-city tile with a pennant");
        assert_eq!(words("BA/CFC.2"), "a two-city tile");
        assert_eq!(words("BA/Ccc+"), "a three-sided-city tile with a pennant");
    }
}
