//! The events of a `carcassonne` log (almanac/1). Positions are `[x, y]` with `y` growing south (the start
//! tile at `[0, 0]`), rotations in degrees clockwise, feature locations in board orientation as
//! JCloisterZone writes them: sides (`N`, `WE`, `NWSE`, `_N` = all but N), half-edges for fields
//! (`NL.NR.EL`), or `I` for an inner field or a monastery.

use crate::state::{FigureKind, GroupKind, Pos, State};
use crate::tiles::{catalogue, HALVES, SIDES};
use almanac_core::{field, EventError, Seat};
use serde::Deserialize;
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub sides: u8,
    pub halves: u8,
    pub inner: bool,
    /// As written.
    pub text: String,
}

impl Location {
    pub fn parse(text: &str) -> Result<Location, String> {
        let mut loc = Location { sides: 0, halves: 0, inner: false, text: text.to_string() };
        if text == "I" {
            loc.inner = true;
            return Ok(loc);
        }
        if let Some(except) = text.strip_prefix('_') {
            let s = SIDES
                .iter()
                .position(|x| *x == except)
                .ok_or_else(|| format!("location `{text}`: `{except}` is not a side"))?;
            loc.sides = 0b1111 & !(1 << s);
            return Ok(loc);
        }
        for token in text.split('.') {
            if token.ends_with('L') || token.ends_with('R') {
                let h = HALVES
                    .iter()
                    .position(|x| *x == token)
                    .ok_or_else(|| format!("location `{text}`: `{token}` is not a half-edge"))?;
                loc.halves |= 1 << h;
            } else {
                for c in token.chars() {
                    let s = SIDES
                        .iter()
                        .position(|x| x.starts_with(c))
                        .ok_or_else(|| format!("location `{text}`: `{c}` is not a side"))?;
                    loc.sides |= 1 << s;
                }
            }
        }
        Ok(loc)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    PlaceTile {
        player: Seat,
        tile: usize,
        at: Pos,
        rotation: u8,
    },
    /// The drawn tile fits nowhere and is set aside; the player draws again.
    DiscardTile {
        player: Seat,
        tile: usize,
    },
    PlaceFigure {
        player: Seat,
        figure: FigureKind,
        feature: GroupKind,
        location: Location,
    },
    /// The end of a turn part: completed features score now.
    EndTurn {
        player: Seat,
    },
    /// The pack is used up (or the players stop): final scoring.
    EndGame,
}

impl Event {
    pub fn player(&self) -> Option<Seat> {
        match *self {
            Event::PlaceTile { player, .. }
            | Event::DiscardTile { player, .. }
            | Event::PlaceFigure { player, .. }
            | Event::EndTurn { player } => Some(player),
            Event::EndGame => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Event::PlaceTile { .. } => "place_tile",
            Event::DiscardTile { .. } => "discard_tile",
            Event::PlaceFigure { .. } => "place_figure",
            Event::EndTurn { .. } => "end_turn",
            Event::EndGame => "end_game",
        }
    }
}

pub const EVENT_TYPES: [&str; 5] = ["place_tile", "discard_tile", "place_figure", "end_turn", "end_game"];

#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    kind: Option<String>,
    player: Option<String>,
    tile: Option<String>,
    at: Option<[i32; 2]>,
    rotation: Option<u32>,
    figure: Option<String>,
    feature: Option<String>,
    location: Option<String>,
}

pub fn parse(state: &State, line: &str) -> Result<Event, EventError> {
    let raw: Raw = serde_json::from_str(line).map_err(EventError::from_json)?;
    Ok(parse_raw(state, raw)?)
}

fn parse_raw(state: &State, raw: Raw) -> Result<Event, String> {
    let kind = raw.kind.as_deref().ok_or("the event has no `type`")?;
    if kind == "end_game" {
        return Ok(Event::EndGame);
    }
    let name = field::required(raw.player.as_deref(), kind, "player")?;
    let player = field::player(state.seating.iter().map(|s| s.name.as_str()), name, "player")?;
    let tile = |raw: &Raw| -> Result<usize, String> {
        let id = field::required(raw.tile.as_deref(), kind, "tile")?;
        catalogue().get(id).ok_or_else(|| format!("`{id}` is not a tile of the catalogue"))
    };
    Ok(match kind {
        "place_tile" => {
            let rotation = field::required(raw.rotation, kind, "rotation")?;
            if rotation % 90 != 0 || rotation >= 360 {
                return Err(format!("rotation {rotation} is not 0, 90, 180 or 270"));
            }
            let [x, y] = field::required(raw.at, kind, "at")?;
            Event::PlaceTile { player, tile: tile(&raw)?, at: (x, y), rotation: (rotation / 90) as u8 }
        }
        "discard_tile" => Event::DiscardTile { player, tile: tile(&raw)? },
        "place_figure" => {
            let figure = match field::required(raw.figure.as_deref(), kind, "figure")? {
                "follower" => FigureKind::Follower,
                "builder" => FigureKind::Builder,
                "pig" => FigureKind::Pig,
                other => return Err(format!("`{other}` is not a figure (follower, builder, pig)")),
            };
            let f = field::required(raw.feature.as_deref(), kind, "feature")?;
            let feature = GroupKind::from_name(f)
                .ok_or_else(|| format!("`{f}` is not a feature (city, road, monastery, field)"))?;
            let location = Location::parse(field::required(raw.location.as_deref(), kind, "location")?)?;
            Event::PlaceFigure { player, figure, feature, location }
        }
        "end_turn" => Event::EndTurn { player },
        other => return Err(format!("unknown event type `{other}` (known: {})", EVENT_TYPES.join(", "))),
    })
}

pub fn write(state: &State, ev: &Event) -> String {
    let mut m = Map::new();
    m.insert("type".into(), json!(ev.kind()));
    if let Some(p) = ev.player() {
        m.insert("player".into(), json!(state.name(p)));
    }
    match ev {
        Event::PlaceTile { tile, at, rotation, .. } => {
            m.insert("tile".into(), json!(catalogue().tiles[*tile].id));
            m.insert("at".into(), json!([at.0, at.1]));
            m.insert("rotation".into(), json!(*rotation as u32 * 90));
        }
        Event::DiscardTile { tile, .. } => {
            m.insert("tile".into(), json!(catalogue().tiles[*tile].id));
        }
        Event::PlaceFigure { figure, feature, location, .. } => {
            m.insert("figure".into(), json!(figure.name()));
            m.insert("feature".into(), json!(feature.name()));
            m.insert("location".into(), json!(location.text));
        }
        Event::EndTurn { .. } | Event::EndGame => {}
    }
    Value::Object(m).to_string()
}
