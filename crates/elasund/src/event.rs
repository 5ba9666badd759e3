//! The events of an `elasund` log, read from and written to almanac/1 lines.
//!
//! Every event names its `player`. Squares are `"<column>:<row>"` (`"3:8"`), wall sites `"north:4"`,
//! `"east:9"`, `"south:5"`; cards are bundles like `{"gold": 2, "red": 1, "unknown": 1}`. Influence cards
//! drawn are named by colour, or `"unknown"` when the recorder did not see them. What the rules derive
//! (income, compensation, displaced buildings, trade points, VP markers) is never written.

use crate::board::{ChurchTile, Square, WallSite};
use crate::buildings::Kind;
use crate::cards::{Cards, Influence, UNKNOWN};
use crate::state::State;
use almanac_core::{field, EventError, Seat};
use serde::Deserialize;
use serde_json::{json, Map, Value};
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

#[derive(Debug, Clone, PartialEq)]
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
    /// Step 3, or the extra action "2 gold for one influence card of each colour".
    TakeGold {
        player: Seat,
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

pub const EVENT_TYPES: [&str; 9] = [
    "roll",
    "build",
    "build_wall",
    "build_church",
    "place_permit",
    "take_gold",
    "move_permit",
    "upgrade_permit",
    "end_turn",
];

impl Event {
    pub fn player(&self) -> Seat {
        match *self {
            Event::Roll { player, .. }
            | Event::Build { player, .. }
            | Event::BuildWall { player, .. }
            | Event::BuildChurch { player, .. }
            | Event::PlacePermit { player, .. }
            | Event::TakeGold { player }
            | Event::MovePermit { player, .. }
            | Event::UpgradePermit { player, .. }
            | Event::EndTurn { player } => player,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Event::Roll { .. } => "roll",
            Event::Build { .. } => "build",
            Event::BuildWall { .. } => "build_wall",
            Event::BuildChurch { .. } => "build_church",
            Event::PlacePermit { .. } => "place_permit",
            Event::TakeGold { .. } => "take_gold",
            Event::MovePermit { .. } => "move_permit",
            Event::UpgradePermit { .. } => "upgrade_permit",
            Event::EndTurn { .. } => "end_turn",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(rename = "type")]
    kind: String,
    player: String,
    dice: Option<[u8; 2]>,
    ship: Option<u8>,
    influence: Option<Value>,
    discards: Option<BTreeMap<String, BTreeMap<String, u8>>>,
    took: Option<BTreeMap<String, u8>>,
    reshuffle: Option<BTreeMap<String, BTreeMap<String, u8>>>,
    building: Option<String>,
    at: Option<String>,
    huts: Option<Vec<RawHut>>,
    tile: Option<String>,
    returned: Option<String>,
    value: Option<u8>,
    from: Option<String>,
    to: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHut {
    player: String,
    hut: String,
    at: Option<String>,
}

pub fn parse(s: &State, line: &str) -> Result<Event, EventError> {
    let raw: Raw = serde_json::from_str(line).map_err(EventError::from_json)?;
    parse_raw(s, raw).map_err(EventError::Invalid)
}

/// The seat of the player a field names.
fn seat(s: &State, name: &str, field: &str) -> Result<Seat, String> {
    field::player(s.seating.iter().map(|p| p.name.as_str()), name, field)
}

fn drawn(name: &str) -> Result<Drawn, String> {
    match name {
        UNKNOWN => Ok(None),
        c => Influence::parse(c).map(Some),
    }
}

fn by_seat(
    s: &State,
    map: Option<BTreeMap<String, BTreeMap<String, u8>>>,
    field: &str,
) -> Result<Vec<(Seat, Cards)>, String> {
    let mut out = Vec::new();
    for (name, cards) in map.unwrap_or_default() {
        out.push((seat(s, &name, field)?, Cards::parse(&cards)?));
    }
    out.sort_by_key(|(p, _)| *p);
    Ok(out)
}

fn huts(s: &State, list: Option<Vec<RawHut>>) -> Result<Huts, String> {
    let mut out = Vec::new();
    for h in list.unwrap_or_default() {
        let hut = Kind::parse(&h.hut)?;
        if hut.owner() != crate::buildings::Owner::Hut {
            return Err(format!("huts: a {hut} is not a start hut (small_hut, large_hut)"));
        }
        out.push(HutMove {
            player: seat(s, &h.player, "huts")?,
            hut,
            at: h.at.as_deref().map(Square::parse).transpose()?,
        });
    }
    Ok(out)
}

fn permit_value(v: Option<u8>, kind: &str) -> Result<u8, String> {
    let v = field::required(v, kind, "value")?;
    if v > 4 {
        return Err(format!("{kind}: permits are valued 0 to 4, not {v}"));
    }
    Ok(v)
}

fn colour(v: &Option<Value>, kind: &str) -> Result<Option<Influence>, String> {
    match v {
        None => Ok(None),
        Some(Value::String(c)) => Influence::parse(c).map(Some),
        Some(_) => Err(format!("{kind}: `influence` is the colour of the cards paid (red, blue, green)")),
    }
}

fn parse_raw(s: &State, r: Raw) -> Result<Event, String> {
    let player = seat(s, &r.player, "player")?;
    let k = r.kind.as_str();
    let square = |v: &Option<String>, name: &str| -> Result<Square, String> {
        Square::parse(field::required(v.as_deref(), k, name)?)
    };
    Ok(match k {
        "roll" => {
            let dice = field::required(r.dice, k, "dice")?;
            if let Some(d) = dice.iter().find(|&&d| !(1..=6).contains(&d)) {
                return Err(format!("roll: a die shows 1 to 6, not {d}"));
            }
            let ship = r
                .ship
                .map(|row| {
                    crate::board::row_index(row).ok_or_else(|| format!("roll: there is no row {row} for the ship"))
                })
                .transpose()?;
            let mut influence = Vec::new();
            if let Some(v) = &r.influence {
                let map: BTreeMap<String, Vec<String>> = serde_json::from_value(v.clone())
                    .map_err(|e| format!("roll: `influence` lists the colours each player drew: {e}"))?;
                for (name, cards) in map {
                    let cards = cards.iter().map(|c| drawn(c)).collect::<Result<Vec<_>, _>>()?;
                    influence.push((seat(s, &name, "influence")?, cards));
                }
                influence.sort_by_key(|(p, _)| *p);
            }
            Event::Roll {
                player,
                dice,
                ship,
                influence,
                discards: by_seat(s, r.discards, "discards")?,
                took: Cards::parse(&r.took.unwrap_or_default())?,
                reshuffle: by_seat(s, r.reshuffle, "reshuffle")?,
            }
        }
        "build" => Event::Build {
            player,
            building: Kind::parse(field::required(r.building.as_deref(), k, "building")?)?,
            at: square(&r.at, "at")?,
            influence: colour(&r.influence, k)?,
            huts: huts(s, r.huts)?,
        },
        "build_wall" => {
            let influence = match &r.influence {
                None => Vec::new(),
                Some(v) => {
                    let list: Vec<String> = serde_json::from_value(v.clone())
                        .map_err(|e| format!("build_wall: `influence` lists the cards drawn: {e}"))?;
                    list.iter().map(|c| drawn(c)).collect::<Result<_, _>>()?
                }
            };
            Event::BuildWall { player, at: WallSite::parse(field::required(r.at.as_deref(), k, "at")?)?, influence }
        }
        "build_church" => Event::BuildChurch {
            player,
            tile: ChurchTile::parse(field::required(r.tile.as_deref(), k, "tile")?)?,
            returned: match r.returned.as_deref() {
                None => None,
                Some(UNKNOWN) => Some(None),
                Some(t) => Some(Some(ChurchTile::parse(t)?)),
            },
            huts: huts(s, r.huts)?,
        },
        "place_permit" => Event::PlacePermit {
            player,
            value: permit_value(r.value, k)?,
            at: square(&r.at, "at")?,
            influence: colour(&r.influence, k)?,
        },
        "take_gold" => Event::TakeGold { player },
        "move_permit" => Event::MovePermit {
            player,
            from: square(&r.from, "from")?,
            to: square(&r.to, "to")?,
            influence: field::required(colour(&r.influence, k)?, k, "influence")?,
        },
        "upgrade_permit" => Event::UpgradePermit {
            player,
            at: square(&r.at, "at")?,
            value: permit_value(r.value, k)?,
            influence: field::required(colour(&r.influence, k)?, k, "influence")?,
        },
        "end_turn" => Event::EndTurn { player },
        other => return Err(format!("unknown event type `{other}` (one of {})", EVENT_TYPES.join(", "))),
    })
}

fn drawn_name(d: Drawn) -> &'static str {
    d.map_or(UNKNOWN, |c| c.name())
}

fn huts_json(s: &State, huts: &Huts) -> Value {
    let list = huts.iter().map(|h| {
        let mut o = Map::new();
        o.insert("player".into(), json!(s.name(h.player)));
        o.insert("hut".into(), json!(h.hut.name()));
        if let Some(at) = h.at {
            o.insert("at".into(), json!(at.to_string()));
        }
        Value::Object(o)
    });
    Value::Array(list.collect())
}

pub fn write(s: &State, e: &Event) -> String {
    let mut m = Map::new();
    m.insert("type".into(), json!(e.kind()));
    m.insert("player".into(), json!(s.name(e.player())));
    let by_seat = |list: &[(Seat, Cards)]| -> Value {
        Value::Object(list.iter().map(|(p, c)| (s.name(*p).to_string(), c.to_json())).collect())
    };
    match e {
        Event::Roll { dice, ship, influence, discards, took, reshuffle, .. } => {
            m.insert("dice".into(), json!(dice));
            if let Some(row) = ship {
                m.insert("ship".into(), json!(crate::board::ROWS[*row as usize]));
            }
            if !influence.is_empty() {
                let o: Map<String, Value> = influence
                    .iter()
                    .map(|(p, cards)| {
                        (s.name(*p).to_string(), json!(cards.iter().map(|&d| drawn_name(d)).collect::<Vec<_>>()))
                    })
                    .collect();
                m.insert("influence".into(), Value::Object(o));
            }
            if !discards.is_empty() {
                m.insert("discards".into(), by_seat(discards));
            }
            if !took.is_empty() {
                m.insert("took".into(), took.to_json());
            }
            if !reshuffle.is_empty() {
                m.insert("reshuffle".into(), by_seat(reshuffle));
            }
        }
        Event::Build { building, at, influence, huts, .. } => {
            m.insert("building".into(), json!(building.name()));
            m.insert("at".into(), json!(at.to_string()));
            if let Some(c) = influence {
                m.insert("influence".into(), json!(c.name()));
            }
            if !huts.is_empty() {
                m.insert("huts".into(), huts_json(s, huts));
            }
        }
        Event::BuildWall { at, influence, .. } => {
            m.insert("at".into(), json!(at.to_string()));
            if !influence.is_empty() {
                m.insert("influence".into(), json!(influence.iter().map(|&d| drawn_name(d)).collect::<Vec<_>>()));
            }
        }
        Event::BuildChurch { tile, returned, huts, .. } => {
            m.insert("tile".into(), json!(tile.name()));
            if let Some(r) = returned {
                m.insert("returned".into(), json!(r.map_or(UNKNOWN, |t| t.name())));
            }
            if !huts.is_empty() {
                m.insert("huts".into(), huts_json(s, huts));
            }
        }
        Event::PlacePermit { value, at, influence, .. } => {
            m.insert("value".into(), json!(value));
            m.insert("at".into(), json!(at.to_string()));
            if let Some(c) = influence {
                m.insert("influence".into(), json!(c.name()));
            }
        }
        Event::MovePermit { from, to, influence, .. } => {
            m.insert("from".into(), json!(from.to_string()));
            m.insert("to".into(), json!(to.to_string()));
            m.insert("influence".into(), json!(influence.name()));
        }
        Event::UpgradePermit { at, value, influence, .. } => {
            m.insert("at".into(), json!(at.to_string()));
            m.insert("value".into(), json!(value));
            m.insert("influence".into(), json!(influence.name()));
        }
        Event::TakeGold { .. } | Event::EndTurn { .. } => {}
    }
    Value::Object(m).to_string()
}
