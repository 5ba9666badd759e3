//! The events of an `elasund` log, read from and written to almanac/1 lines.
//!
//! Every event names its `player`. Squares are `"<column>:<row>"` (`"3:8"`), wall sites `"north:4"`,
//! `"east:9"`, `"south:5"`; cards are bundles like `{"gold": 2, "red": 1, "unknown": 1}`. Influence cards
//! drawn are named by colour, or `"unknown"` when the recorder did not see them. What the rules derive
//! (income, compensation, displaced buildings, trade points, VP markers) is never written.

use crate::board::{ChurchTile, Square, WallSite};
use crate::buildings::Kind;
use crate::cards::{Cards, Influence, GOLD, UNKNOWN};
use crate::state::State;
use almanac_core::field::{self, ByName};
use almanac_core::{EventError, Seat, Table};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An influence card drawn: its colour, or `None` when unseen.
pub type Drawn = Option<Influence>;

/// Where a displaced start hut went: a square, or nowhere (no room left: out of the game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HutMove {
    pub player: Seat,
    pub hut: Kind,
    pub at: Option<Square>,
}

pub type Huts = Vec<HutMove>;

/// An event; its variant's name, in snake case, is its line's `type`.
#[derive(Debug, Clone, PartialEq, strum::IntoStaticStr, strum::VariantNames, almanac_core::Acting)]
#[strum(serialize_all = "snake_case")]
pub enum Event {
    Roll {
        player: Seat,
        dice: [u8; 2],
        /// The row the ship goes to when the roller chooses (a 7, or the ship's own row rolled).
        ship: Option<u8>,
        /// The influence cards each player drew as income.
        influence: Vec<(Seat, Vec<Drawn>)>,
        /// After a 7: the cards each player discarded to the pirate, and those the roller took back.
        discards: Vec<(Seat, Cards)>,
        took: Cards,
        /// When a deck ran out: the half of their cards of that kind each player gave back.
        reshuffle: Vec<(Seat, Cards)>,
    },
    Build {
        player: Seat,
        building: Kind,
        at: Square,
        /// The colour of the 3 influence cards paid to displace buildings as large as this one.
        influence: Option<Influence>,
        huts: Huts,
    },
    BuildWall {
        player: Seat,
        at: WallSite,
        /// The influence cards the tile's reward drew.
        influence: Vec<Drawn>,
    },
    BuildChurch {
        player: Seat,
        tile: ChurchTile,
        /// The first builder draws two tiles and puts one back under the stack (`None`: unseen).
        returned: Option<Option<ChurchTile>>,
        huts: Huts,
    },
    /// Step 3, or the extra action "a permit anywhere" once step 3 is done. `influence`: the colour of
    /// the 2 cards paid to place it in any row (step 3).
    PlacePermit {
        player: Seat,
        value: u8,
        at: Square,
        influence: Option<Influence>,
    },
    /// Step 3, or the extra action "2 gold for one influence card of each colour". When the bank holds fewer
    /// than 2, every player first gives back half their gold (`reshuffle`), which refills it.
    TakeGold {
        player: Seat,
        reshuffle: Vec<(Seat, Cards)>,
    },
    MovePermit {
        player: Seat,
        from: Square,
        to: Square,
        influence: Influence,
    },
    UpgradePermit {
        player: Seat,
        at: Square,
        value: u8,
        influence: Influence,
    },
    EndTurn {
        player: Seat,
    },
}

/// Every `type` of an event line.
pub const EVENT_TYPES: &[&str] = <Event as strum::VariantNames>::VARIANTS;

impl Event {
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// An event line as written: players by name, squares and cards in words. Serde reads and writes it; a field
/// no event of its type takes is refused (a misspelt optional field would otherwise go unseen).
#[derive(Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Line {
    Roll {
        player: String,
        dice: [u8; 2],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ship: Option<u8>,
        /// The colours each player drew.
        #[serde(default, skip_serializing_if = "ByName::is_empty")]
        influence: ByName<Vec<String>>,
        #[serde(default, skip_serializing_if = "ByName::is_empty")]
        discards: ByName<ByName<u8>>,
        #[serde(default, skip_serializing_if = "ByName::is_empty")]
        took: ByName<u8>,
        #[serde(default, skip_serializing_if = "ByName::is_empty")]
        reshuffle: ByName<ByName<u8>>,
    },
    Build {
        player: String,
        building: String,
        at: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        influence: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        huts: Vec<HutLine>,
    },
    BuildWall {
        player: String,
        at: String,
        /// The cards the tile's reward drew.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        influence: Vec<String>,
    },
    BuildChurch {
        player: String,
        tile: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        returned: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        huts: Vec<HutLine>,
    },
    PlacePermit {
        player: String,
        value: u8,
        at: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        influence: Option<String>,
    },
    TakeGold {
        player: String,
        /// When the bank could not pay: the gold each player gave back to refill it.
        #[serde(default, skip_serializing_if = "ByName::is_empty")]
        reshuffle: ByName<ByName<u8>>,
    },
    MovePermit {
        player: String,
        from: String,
        to: String,
        influence: String,
    },
    UpgradePermit {
        player: String,
        at: String,
        value: u8,
        influence: String,
    },
    EndTurn {
        player: String,
    },
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct HutLine {
    player: String,
    hut: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
}

fn drawn(name: &str) -> Result<Drawn, String> {
    match name {
        UNKNOWN => Ok(None),
        c => Influence::parse(c).map(Some),
    }
}

/// Cards as a line names them (a name written twice counts as written last, as JSON objects read).
fn cards(items: ByName<u8>) -> Result<Cards, String> {
    Cards::parse(&items.0.into_iter().collect())
}

fn by_seat(table: &Table, map: ByName<ByName<u8>>, field: &str) -> Result<Vec<(Seat, Cards)>, String> {
    let last: BTreeMap<String, ByName<u8>> = map.0.into_iter().collect();
    let mut out = Vec::new();
    for (name, items) in last {
        out.push((table.seat(&name, field)?, cards(items)?));
    }
    out.sort_by_key(|(p, _)| *p);
    Ok(out)
}

fn huts(table: &Table, list: Vec<HutLine>) -> Result<Huts, String> {
    let mut out = Vec::new();
    for h in list {
        let hut = Kind::parse(&h.hut)?;
        if hut.owner() != crate::buildings::Owner::Hut {
            return Err(format!("huts: a {hut} is not a start hut (small_hut, large_hut)"));
        }
        out.push(HutMove {
            player: table.seat(&h.player, "huts")?,
            hut,
            at: h.at.as_deref().map(Square::parse).transpose()?,
        });
    }
    Ok(out)
}

fn permit_value(v: u8, kind: &str) -> Result<u8, String> {
    if v > 4 {
        return Err(format!("{kind}: permits are valued 0 to 4, not {v}"));
    }
    Ok(v)
}

fn event_of(table: &Table, line: Line) -> Result<Event, String> {
    let seat = |name: &str| table.seat(name, "player");
    let colour = |c: Option<String>| c.as_deref().map(Influence::parse).transpose();
    Ok(match line {
        Line::Roll { player, dice, ship, influence, discards, took, reshuffle } => {
            let player = seat(&player)?;
            if let Some(d) = dice.iter().find(|&&d| !(1..=6).contains(&d)) {
                return Err(format!("roll: a die shows 1 to 6, not {d}"));
            }
            let ship = ship
                .map(|row| {
                    crate::board::row_index(row).ok_or_else(|| format!("roll: there is no row {row} for the ship"))
                })
                .transpose()?;
            let last: BTreeMap<String, Vec<String>> = influence.0.into_iter().collect();
            let mut drew = Vec::new();
            for (name, cards) in last {
                let cards = cards.iter().map(|c| drawn(c)).collect::<Result<Vec<_>, _>>()?;
                drew.push((table.seat(&name, "influence")?, cards));
            }
            drew.sort_by_key(|(p, _)| *p);
            Event::Roll {
                player,
                dice,
                ship,
                influence: drew,
                discards: by_seat(table, discards, "discards")?,
                took: cards(took)?,
                reshuffle: by_seat(table, reshuffle, "reshuffle")?,
            }
        }
        Line::Build { player, building, at, influence, huts: moved } => Event::Build {
            player: seat(&player)?,
            building: Kind::parse(&building)?,
            at: Square::parse(&at)?,
            influence: colour(influence)?,
            huts: huts(table, moved)?,
        },
        Line::BuildWall { player, at, influence } => Event::BuildWall {
            player: seat(&player)?,
            at: WallSite::parse(&at)?,
            influence: influence.iter().map(|c| drawn(c)).collect::<Result<_, _>>()?,
        },
        Line::BuildChurch { player, tile, returned, huts: moved } => Event::BuildChurch {
            player: seat(&player)?,
            tile: ChurchTile::parse(&tile)?,
            returned: match returned.as_deref() {
                None => None,
                Some(UNKNOWN) => Some(None),
                Some(t) => Some(Some(ChurchTile::parse(t)?)),
            },
            huts: huts(table, moved)?,
        },
        Line::PlacePermit { player, value, at, influence } => Event::PlacePermit {
            player: seat(&player)?,
            value: permit_value(value, "place_permit")?,
            at: Square::parse(&at)?,
            influence: colour(influence)?,
        },
        Line::TakeGold { player, reshuffle } => {
            Event::TakeGold { player: seat(&player)?, reshuffle: by_seat(table, reshuffle, "reshuffle")? }
        }
        Line::MovePermit { player, from, to, influence } => Event::MovePermit {
            player: seat(&player)?,
            from: Square::parse(&from)?,
            to: Square::parse(&to)?,
            influence: Influence::parse(&influence)?,
        },
        Line::UpgradePermit { player, at, value, influence } => Event::UpgradePermit {
            player: seat(&player)?,
            at: Square::parse(&at)?,
            value: permit_value(value, "upgrade_permit")?,
            influence: Influence::parse(&influence)?,
        },
        Line::EndTurn { player } => Event::EndTurn { player: seat(&player)? },
    })
}

fn drawn_name(d: Drawn) -> String {
    d.map_or(UNKNOWN, |c| c.name()).to_string()
}

/// Cards in the order the log spells them: gold, the colours, unknown.
fn cards_line(c: &Cards) -> ByName<u8> {
    let mut items = Vec::new();
    if c.gold > 0 {
        items.push((GOLD.to_string(), c.gold));
    }
    for colour in Influence::ALL {
        if c.influence[colour as usize] > 0 {
            items.push((colour.name().to_string(), c.influence[colour as usize]));
        }
    }
    if c.unknown > 0 {
        items.push((UNKNOWN.to_string(), c.unknown));
    }
    ByName(items)
}

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = EVENT_TYPES;

    fn parse(s: &State, line: &str) -> Result<Event, EventError> {
        let line: Line = field::read_line(line, EVENT_TYPES, |_| None)?;
        event_of(&s.table, line).map_err(EventError::Invalid)
    }

    fn write(&self, s: &State) -> String {
        let table = &s.table;
        let name = |p: Seat| table.name(p).to_string();
        let by_seat = |list: &[(Seat, Cards)]| ByName(list.iter().map(|(p, c)| (name(*p), cards_line(c))).collect());
        let huts_line = |huts: &Huts| -> Vec<HutLine> {
            huts.iter()
                .map(|h| HutLine {
                    player: name(h.player),
                    hut: h.hut.name().to_string(),
                    at: h.at.map(|a| a.to_string()),
                })
                .collect()
        };
        let line = match self {
            Event::Roll { player, dice, ship, influence, discards, took, reshuffle } => Line::Roll {
                player: name(*player),
                dice: *dice,
                ship: ship.map(|row| crate::board::ROWS[row as usize]),
                influence: ByName(
                    influence
                        .iter()
                        .map(|(p, cards)| (name(*p), cards.iter().map(|&d| drawn_name(d)).collect()))
                        .collect(),
                ),
                discards: by_seat(discards),
                took: cards_line(took),
                reshuffle: by_seat(reshuffle),
            },
            Event::Build { player, building, at, influence, huts } => Line::Build {
                player: name(*player),
                building: building.name().to_string(),
                at: at.to_string(),
                influence: influence.map(|c| c.name().to_string()),
                huts: huts_line(huts),
            },
            Event::BuildWall { player, at, influence } => Line::BuildWall {
                player: name(*player),
                at: at.to_string(),
                influence: influence.iter().map(|&d| drawn_name(d)).collect(),
            },
            Event::BuildChurch { player, tile, returned, huts } => Line::BuildChurch {
                player: name(*player),
                tile: tile.name().to_string(),
                returned: returned.map(|r| r.map_or(UNKNOWN, |t| t.name()).to_string()),
                huts: huts_line(huts),
            },
            Event::PlacePermit { player, value, at, influence } => Line::PlacePermit {
                player: name(*player),
                value: *value,
                at: at.to_string(),
                influence: influence.map(|c| c.name().to_string()),
            },
            Event::TakeGold { player, reshuffle } => {
                Line::TakeGold { player: name(*player), reshuffle: by_seat(reshuffle) }
            }
            Event::MovePermit { player, from, to, influence } => Line::MovePermit {
                player: name(*player),
                from: from.to_string(),
                to: to.to_string(),
                influence: influence.name().to_string(),
            },
            Event::UpgradePermit { player, at, value, influence } => Line::UpgradePermit {
                player: name(*player),
                at: at.to_string(),
                value: *value,
                influence: influence.name().to_string(),
            },
            Event::EndTurn { player } => Line::EndTurn { player: name(*player) },
        };
        serde_json::to_string(&line).expect("an event line writes into memory")
    }
}
