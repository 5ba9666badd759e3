//! The events of a `carcassonne` log (almanac/1). Positions are `[x, y]` with `y` growing south (the start
//! tile at `[0, 0]`), rotations in degrees clockwise, feature locations in board orientation as
//! JCloisterZone writes them: sides (`N`, `WE`, `NWSE`, `_N` = all but N), half-edges for fields
//! (`NL.NR.EL`), or `I` for an inner field or a monastery.

use crate::state::{FigureKind, GroupKind, Pos, State};
use crate::tiles::{catalogue, HALVES, SIDES};
use almanac_core::{field, EventError, Seat, Table};
use serde::{Deserialize, Serialize};

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

/// An event; its variant's name, in snake case, is its line's `type`.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
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
    /// The tile the event's player had drawn, where the event says it (chance's part of a placement).
    pub fn tile_drawn(&self) -> Option<usize> {
        match *self {
            Event::PlaceTile { tile, .. } | Event::DiscardTile { tile, .. } => Some(tile),
            _ => None,
        }
    }

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
        self.into()
    }

    /// Where a tile goes and how it lies, a figure or none: not a tile set aside that fits nowhere, the end
    /// of a turn part, or of the game.
    pub fn is_decision(&self) -> bool {
        matches!(self, Event::PlaceTile { .. } | Event::PlaceFigure { .. })
    }
}

/// Every `type` of an event line.
pub const EVENT_TYPES: &[&str] = <Event as strum::VariantNames>::VARIANTS;

/// An event line as written: the player by name, the tile by its catalogue id. Serde reads and writes it.
#[derive(Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Line {
    PlaceTile { player: String, tile: String, at: [i32; 2], rotation: u32 },
    DiscardTile { player: String, tile: String },
    PlaceFigure { player: String, figure: String, feature: String, location: String },
    EndTurn { player: String },
    EndGame,
}

fn tile(id: &str) -> Result<usize, String> {
    catalogue().get(id).ok_or_else(|| format!("`{id}` is not a tile of the catalogue"))
}

fn event_of(table: &Table, line: Line) -> Result<Event, String> {
    let seat = |name: &str| table.seat(name, "player");
    Ok(match line {
        Line::PlaceTile { player, tile: id, at: [x, y], rotation } => {
            if rotation % 90 != 0 || rotation >= 360 {
                return Err(format!("rotation {rotation} is not 0, 90, 180 or 270"));
            }
            Event::PlaceTile { player: seat(&player)?, tile: tile(&id)?, at: (x, y), rotation: (rotation / 90) as u8 }
        }
        Line::DiscardTile { player, tile: id } => Event::DiscardTile { player: seat(&player)?, tile: tile(&id)? },
        Line::PlaceFigure { player, figure, feature, location } => {
            let figure = match figure.as_str() {
                "follower" => FigureKind::Follower,
                "builder" => FigureKind::Builder,
                "pig" => FigureKind::Pig,
                other => return Err(format!("`{other}` is not a figure (follower, builder, pig)")),
            };
            let feature = GroupKind::from_name(&feature)
                .ok_or_else(|| format!("`{feature}` is not a feature (city, road, monastery, field)"))?;
            Event::PlaceFigure { player: seat(&player)?, figure, feature, location: Location::parse(&location)? }
        }
        Line::EndTurn { player } => Event::EndTurn { player: seat(&player)? },
        Line::EndGame => Event::EndGame,
    })
}

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = EVENT_TYPES;

    fn parse(state: &State, line: &str) -> Result<Event, EventError> {
        let line: Line = field::read_line(line, EVENT_TYPES, |_| None)?;
        Ok(event_of(&state.table, line)?)
    }

    fn write(&self, state: &State) -> String {
        let name = |p: Seat| state.table.name(p).to_string();
        let tile_id = |t: usize| catalogue().tiles[t].id.to_string();
        let line = match self {
            Event::PlaceTile { player, tile, at, rotation } => Line::PlaceTile {
                player: name(*player),
                tile: tile_id(*tile),
                at: [at.0, at.1],
                rotation: *rotation as u32 * 90,
            },
            Event::DiscardTile { player, tile } => Line::DiscardTile { player: name(*player), tile: tile_id(*tile) },
            Event::PlaceFigure { player, figure, feature, location } => Line::PlaceFigure {
                player: name(*player),
                figure: figure.name().to_string(),
                feature: feature.name().to_string(),
                location: location.text.clone(),
            },
            Event::EndTurn { player } => Line::EndTurn { player: name(*player) },
            Event::EndGame => Line::EndGame,
        };
        serde_json::to_string(&line).expect("an event line writes into memory")
    }
}
