//! The state as `almanac state --json` and the API show it; a player's `vp` is their score.

use crate::state::{Placed, State, Step};
use crate::tiles::{catalogue, rotate_halves, rotate_sides, FeatureKind, GOODS, HALVES, SIDES};
use almanac_core::Seated;
use almanac_core::{OwnView, PlayerView, Seat, Viewed};
use serde::Serialize;
use std::collections::BTreeMap;

/// The tiles on the grid, the figures on them, and the pack.
#[derive(Serialize)]
pub struct GridView {
    tiles: Vec<TileView>,
    figures: Vec<FigureView>,
    tiles_left: u32,
}

#[derive(Serialize)]
struct TileView {
    tile: &'static str,
    at: [i32; 2],
    rotation: u32,
    features: Vec<FeatureView>,
}

/// A feature of a placed tile as it lies: kind, location (sides or half-edges, or `I`), pennant, good.
#[derive(Serialize)]
struct FeatureView {
    kind: &'static str,
    location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pennant: Option<bool>,
    /// Only cities carry goods (null when a city has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    good: Option<Option<&'static str>>,
}

#[derive(Serialize)]
struct FigureView {
    player: String,
    figure: &'static str,
    feature: &'static str,
    at: [i32; 2],
    location: String,
}

/// A player's figures at home and goods.
#[derive(Serialize)]
pub struct SupplyView {
    followers_left: u8,
    /// Builders and pigs on the board.
    builders_out: u8,
    pigs_out: u8,
    goods: BTreeMap<&'static str, u32>,
}

pub fn winner(s: &State) -> Option<Seat> {
    if s.step != Step::Over {
        return None;
    }
    let best = s.players.iter().map(|p| p.score).max()?;
    let top: Vec<usize> = (0..s.players.len()).filter(|&i| s.players[i].score == best).collect();
    (top.len() == 1).then(|| top[0] as Seat)
}

impl Viewed for State {
    type GameView = GridView;
    type PlayerView = SupplyView;

    fn view(&self) -> OwnView<GridView, SupplyView> {
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let goods: BTreeMap<&'static str, u32> = GOODS.iter().zip(p.goods).map(|(g, n)| (*g, n)).collect();
                let held: Vec<String> = goods.iter().filter(|(_, &n)| n > 0).map(|(g, n)| format!("{g} {n}")).collect();
                PlayerView {
                    name: self.name(i as Seat).to_string(),
                    color: self.table.color(i as Seat).map(String::from),
                    vp: p.score,
                    vp_public: p.score,
                    summary: format!("{} followers at home  {}", p.followers, held.join(" ")),
                    game: SupplyView {
                        followers_left: p.followers,
                        builders_out: self.options.builder.0 - p.builders_home,
                        pigs_out: self.options.pig.0 - p.pigs_home,
                        goods,
                    },
                }
            })
            .collect();
        let tiles = self
            .placed
            .iter()
            .map(|p| {
                let t = &catalogue().tiles[p.tile];
                TileView {
                    tile: &t.id,
                    at: [p.at.0, p.at.1],
                    rotation: p.rotation as u32 * 90,
                    features: (0..t.features.len()).map(|f| feature(p, f)).collect(),
                }
            })
            .collect();
        let mut figures = Vec::new();
        for g in self.groups.iter().flatten() {
            for f in &g.figures {
                let p = &self.placed[f.placed];
                figures.push(FigureView {
                    player: self.name(f.player).to_string(),
                    figure: f.kind.name(),
                    feature: g.kind.name(),
                    at: [p.at.0, p.at.1],
                    location: feature(p, f.feature).location,
                });
            }
        }
        let phase = match self.step {
            Step::Tile => "tile",
            Step::Figure { .. } => "figure",
            Step::Over => "over",
        };
        OwnView {
            phase,
            players,
            game: GridView { tiles, figures, tiles_left: self.supply.iter().map(|&n| n as u32).sum() },
        }
    }
}

/// A tile as it would lie turned `rotation` quarter turns clockwise: its features, for a recorder's
/// picture of a placement it offers (the renderer's `drawChoice`).
pub fn picture(tile: usize, rotation: u8) -> String {
    picture_with(tile, rotation, None)
}

/// The tile just placed, with the spot of its feature where a figure would stand (`kind`, `location` as
/// an event writes them): a recorder's picture to tap the feature on.
pub fn figure_picture(s: &State, kind: &str, location: &str) -> Option<String> {
    let last = s.placed.last()?;
    Some(picture_with(last.tile, last.rotation, Some(Spot { kind: kind.to_string(), location: location.to_string() })))
}

#[derive(Serialize)]
struct Spot {
    kind: String,
    location: String,
}

fn picture_with(tile: usize, rotation: u8, spot: Option<Spot>) -> String {
    #[derive(Serialize)]
    struct Picture {
        tile: &'static str,
        rotation: u32,
        features: Vec<FeatureView>,
        #[serde(skip_serializing_if = "Option::is_none")]
        spot: Option<Spot>,
    }
    let placed = Placed { tile, rotation, at: (0, 0), first_node: 0 };
    let t = &catalogue().tiles[tile];
    let picture = Picture {
        tile: &t.id,
        rotation: rotation as u32 * 90,
        features: (0..t.features.len()).map(|f| feature(&placed, f)).collect(),
        spot,
    };
    serde_json::to_string(&picture).expect("a picture is JSON")
}

fn feature(p: &Placed, f: usize) -> FeatureView {
    let feature = &catalogue().tiles[p.tile].features[f];
    let sides = rotate_sides(feature.sides, p.rotation);
    let halves = rotate_halves(feature.halves, p.rotation);
    let side_text: String = (0..4).filter(|i| sides & (1 << i) != 0).map(|i| SIDES[i]).collect();
    let half_text = (0..8).filter(|i| halves & (1 << i) != 0).map(|i| HALVES[i]).collect::<Vec<_>>().join(".");
    let plain = |kind, location| FeatureView { kind, location, pennant: None, good: None };
    match &feature.kind {
        FeatureKind::City { pennants, good } => FeatureView {
            kind: "city",
            location: side_text,
            pennant: Some(*pennants > 0),
            good: Some(good.map(|g| GOODS[g])),
        },
        FeatureKind::Road => plain("road", side_text),
        FeatureKind::Monastery => plain("monastery", "I".to_string()),
        FeatureKind::Field { .. } => plain("field", if halves == 0 { "I".to_string() } else { half_text }),
    }
}
