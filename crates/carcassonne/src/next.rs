//! What may happen next in a game of Carcassonne, for a table recorder: the active player places the tile
//! drawn (any tile still in the pack, at each place and rotation where it fits) or sets aside one that fits
//! nowhere; then a figure on a feature of that tile, or none; then the end of the turn part. Whether each is
//! legal is the rules' own answer (`almanac_core::next`), not this file's.

use crate::event::{Event, Location};
use crate::rules::legal_placements;
use crate::state::{FigureKind, GroupKind, State, Step};
use crate::tiles::{catalogue, rotate_halves, rotate_sides, FeatureKind, HALVES, SIDES};
use almanac_core::next::{Candidates, Decision, Shown};
use almanac_core::Seat;

/// The decisions open in `s`: always the active player's.
pub fn open(s: &State) -> Vec<Decision> {
    match s.step {
        Step::Tile => vec![Decision::new(s.active, &["place_tile", "discard_tile", "end_game"])],
        Step::Figure { figure_done: false, .. } => vec![Decision::new(s.active, &["place_figure", "end_turn"])],
        Step::Figure { figure_done: true, .. } => vec![Decision::new(s.active, &["end_turn"])],
        Step::Over => Vec::new(),
    }
}

/// The events of type `kind` by `p` to try in `s`.
pub fn candidates(s: &State, p: Seat, kind: &str) -> Candidates<Event> {
    let in_pack = || (0..s.supply.len()).filter(|&t| s.supply[t] > 0);
    match kind {
        // Each tile still in the pack, where it fits: the recorder says which was drawn, then where it went.
        "place_tile" => Candidates::Each(
            in_pack()
                .flat_map(|tile| {
                    legal_placements(s, tile).into_iter().map(move |(at, rotation)| Event::PlaceTile {
                        player: p,
                        tile,
                        at,
                        rotation,
                    })
                })
                .collect(),
        ),
        "discard_tile" => Candidates::Each(in_pack().map(|tile| Event::DiscardTile { player: p, tile }).collect()),
        "place_figure" => Candidates::Each(figures(s, p)),
        "end_turn" => Candidates::Each(vec![Event::EndTurn { player: p }]),
        "end_game" => Candidates::Each(vec![Event::EndGame]),
        _ => Candidates::Untried,
    }
}

/// Every figure on every feature of the tile just placed.
fn figures(s: &State, p: Seat) -> Vec<Event> {
    let Step::Figure { placed, .. } = s.step else { return Vec::new() };
    let r = s.placed[placed].rotation;
    let mut out = Vec::new();
    for feature in &catalogue().tiles[s.placed[placed].tile].features {
        let (group, text) = match feature.kind {
            FeatureKind::City { .. } => (GroupKind::City, sides(rotate_sides(feature.sides, r))),
            FeatureKind::Road => (GroupKind::Road, sides(rotate_sides(feature.sides, r))),
            FeatureKind::Monastery => (GroupKind::Monastery, "I".to_string()),
            FeatureKind::Field { .. } if feature.halves == 0 => (GroupKind::Field, "I".to_string()),
            FeatureKind::Field { .. } => (GroupKind::Field, halves(rotate_halves(feature.halves, r))),
        };
        let location = Location::parse(&text).expect("a location spelt from the tile reads back");
        for figure in [FigureKind::Follower, FigureKind::Builder, FigureKind::Pig] {
            out.push(Event::PlaceFigure { player: p, figure, feature: group, location: location.clone() });
        }
    }
    out
}

/// Sides as a location names them: `N`, `E`, `S`, `W` in that order (`NW`: the north and west sides).
fn sides(mask: u8) -> String {
    (0..4).filter(|s| mask & (1 << s) != 0).map(|s| SIDES[s]).collect()
}

/// Half-edges as a location names them, in their order, joined by dots (`NL.SR`).
fn halves(mask: u8) -> String {
    (0..8).filter(|h| mask & (1 << h) != 0).map(|h| HALVES[h]).collect::<Vec<_>>().join(".")
}

/// A tile placed is asked by the tile drawn first, then where it went, each way it may lie a picture; a
/// figure by the feature it stands on, tapped on a picture of the tile just placed.
pub fn shown(state: &State, event: &Event) -> Shown {
    match event {
        Event::PlaceTile { tile, rotation, .. } => Shown {
            group: Some(crate::describe::tile_group(*tile)),
            picture: Some(crate::view::picture(*tile, *rotation)),
            ..Default::default()
        },
        Event::PlaceFigure { feature, location, .. } => {
            Shown { picture: crate::view::figure_picture(state, feature.name(), &location.text), ..Default::default() }
        }
        _ => Default::default(),
    }
}
