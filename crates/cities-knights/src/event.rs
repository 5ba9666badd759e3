//! The events of a `cities-knights` log, read from and written to almanac/1 lines.
//!
//! Every event names its `player`. Positions are the base game's board names (`"4:NE"`); cards are
//! bundles like `{"ore": 2, "coin": 1, "unknown": 1}`; a progress card is its name, or `"unknown"` with its
//! `colour` when the recorder did not see it. What the rules derive (production, who draws, the attack's
//! result, metropolis moves, points) is never written; the choices and chance outcomes are.

use crate::cards::{bundle_json, Bundle, Card, Commodity};
use crate::progress::{HeldCard, Progress, Track};
use crate::state::{EventDie, State};
use almanac_catan::board::{EdgeId, HexId, VertexId};
use almanac_catan::resources::{Resource, UNKNOWN};
use almanac_core::Seated;
use almanac_core::{field, EventError, Seat};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A progress card drawn in a roll: at a city gate, or by a tied defender of Catan.
#[derive(Debug, Clone, PartialEq)]
pub struct Draw {
    pub player: Seat,
    pub card: HeldCard,
    /// The card put back at once: a fifth card drawn outside the player's turn.
    pub returned: Option<HeldCard>,
}

/// A resource offered by a Commercial Harbor and the commodity returned for it (none: the opponent had none).
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub with: Seat,
    pub give: Resource,
    pub get: Option<Commodity>,
}

/// What a progress card is played with.
#[derive(Debug, Clone, PartialEq)]
pub enum Play {
    Alchemist { dice: [u8; 2] },
    Crane,
    Engineer { at: VertexId },
    Inventor { hexes: [HexId; 2] },
    Irrigation,
    Medicine { at: VertexId },
    Mining,
    RoadBuilding,
    Smith { knights: Vec<VertexId> },
    Bishop { hex: HexId, stolen: Vec<(Seat, Option<Card>)> },
    Deserter { victim: Seat, removed: VertexId, placed: Option<VertexId> },
    Diplomat { road: EdgeId, moved_to: Option<EdgeId> },
    Intrigue { at: VertexId, displaced_to: Option<VertexId> },
    Saboteur { discards: Vec<(Seat, Bundle)> },
    Spy { victim: Seat, taken: HeldCard },
    Warlord,
    Wedding { given: Vec<(Seat, Bundle)> },
    CommercialHarbor { offers: Vec<Offer> },
    MasterMerchant { victim: Seat, taken: Bundle },
    Merchant { hex: HexId },
    MerchantFleet { card: Card },
    ResourceMonopoly { resource: Resource, taken: Option<Vec<(Seat, u8)>> },
    TradeMonopoly { commodity: Commodity, taken: Option<Vec<(Seat, u8)>> },
}

impl Play {
    pub fn card(&self) -> Progress {
        match self {
            Play::Alchemist { .. } => Progress::Alchemist,
            Play::Crane => Progress::Crane,
            Play::Engineer { .. } => Progress::Engineer,
            Play::Inventor { .. } => Progress::Inventor,
            Play::Irrigation => Progress::Irrigation,
            Play::Medicine { .. } => Progress::Medicine,
            Play::Mining => Progress::Mining,
            Play::RoadBuilding => Progress::RoadBuilding,
            Play::Smith { .. } => Progress::Smith,
            Play::Bishop { .. } => Progress::Bishop,
            Play::Deserter { .. } => Progress::Deserter,
            Play::Diplomat { .. } => Progress::Diplomat,
            Play::Intrigue { .. } => Progress::Intrigue,
            Play::Saboteur { .. } => Progress::Saboteur,
            Play::Spy { .. } => Progress::Spy,
            Play::Warlord => Progress::Warlord,
            Play::Wedding { .. } => Progress::Wedding,
            Play::CommercialHarbor { .. } => Progress::CommercialHarbor,
            Play::MasterMerchant { .. } => Progress::MasterMerchant,
            Play::Merchant { .. } => Progress::Merchant,
            Play::MerchantFleet { .. } => Progress::MerchantFleet,
            Play::ResourceMonopoly { .. } => Progress::ResourceMonopoly,
            Play::TradeMonopoly { .. } => Progress::TradeMonopoly,
        }
    }
}

/// An event; its variant's name, in snake case, is its line's `type` (`Kind`).
#[derive(Debug, Clone, PartialEq, strum::IntoStaticStr, strum::EnumDiscriminants, almanac_core::Acting)]
#[strum(serialize_all = "snake_case")]
#[strum_discriminants(name(Kind), derive(strum::EnumString, strum::VariantNames))]
#[strum_discriminants(strum(serialize_all = "snake_case"))]
pub enum Event {
    BuildSettlement {
        player: Seat,
        at: VertexId,
    },
    BuildCity {
        player: Seat,
        at: VertexId,
    },
    BuildRoad {
        player: Seat,
        at: EdgeId,
    },
    BuildWall {
        player: Seat,
        at: VertexId,
    },
    BuildKnight {
        player: Seat,
        at: VertexId,
    },
    PromoteKnight {
        player: Seat,
        at: VertexId,
    },
    ActivateKnight {
        player: Seat,
        at: VertexId,
    },
    /// Along the player's roads; onto a weaker opponent knight, which its owner moves to `displaced_to`
    /// (absent: no free place on its roads, and it leaves the board).
    MoveKnight {
        player: Seat,
        from: VertexId,
        to: VertexId,
        displaced_to: Option<VertexId>,
    },
    /// The knight on `knight` sends the robber from an adjacent hex back to the desert.
    ChaseRobber {
        player: Seat,
        knight: VertexId,
    },
    /// `metropolis`: the city that takes the track's metropolis, when the player must choose.
    ImproveCity {
        player: Seat,
        track: Track,
        metropolis: Option<VertexId>,
    },
    Roll {
        player: Seat,
        event: EventDie,
        /// The red and the white die.
        dice: [u8; 2],
        drawn: Vec<Draw>,
        /// The city each loser of a barbarian attack gives up.
        pillaged: Vec<(Seat, VertexId)>,
        /// The resource each Aqueduct owner takes after a roll that gave them nothing.
        aqueduct: Vec<(Seat, Resource)>,
    },
    Discard {
        player: Seat,
        cards: Bundle,
    },
    MoveRobber {
        player: Seat,
        hex: HexId,
        victim: Option<Seat>,
        stolen: Option<Option<Card>>,
    },
    Trade {
        player: Seat,
        with: Seat,
        give: Bundle,
        get: Bundle,
    },
    MaritimeTrade {
        player: Seat,
        give: Bundle,
        get: Bundle,
    },
    PlayProgress {
        player: Seat,
        play: Play,
    },
    /// A fifth progress card goes back under its deck.
    ReturnProgress {
        player: Seat,
        card: HeldCard,
    },
    EndTurn {
        player: Seat,
    },
}

/// Every `type` of an event line.
pub const EVENT_TYPES: &[&str] = <Kind as strum::VariantNames>::VARIANTS;

impl Event {
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// A line as written; every field a type may use.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(rename = "type")]
    kind: String,
    player: String,
    at: Option<String>,
    from: Option<String>,
    to: Option<String>,
    displaced_to: Option<String>,
    knight: Option<String>,
    knights: Option<Vec<String>>,
    track: Option<String>,
    metropolis: Option<String>,
    event: Option<String>,
    dice: Option<[u8; 2]>,
    drawn: Option<Vec<RawDraw>>,
    pillaged: Option<BTreeMap<String, String>>,
    aqueduct: Option<BTreeMap<String, String>>,
    cards: Option<BTreeMap<String, u8>>,
    hex: Option<HexId>,
    hexes: Option<[HexId; 2]>,
    victim: Option<String>,
    stolen: Option<Value>,
    with: Option<String>,
    give: Option<Value>,
    get: Option<Value>,
    card: Option<String>,
    colour: Option<String>,
    removed: Option<String>,
    placed: Option<String>,
    road: Option<String>,
    moved_to: Option<String>,
    discards: Option<BTreeMap<String, BTreeMap<String, u8>>>,
    given: Option<BTreeMap<String, BTreeMap<String, u8>>>,
    taken: Option<Value>,
    offers: Option<Vec<RawOffer>>,
    resource: Option<String>,
    commodity: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDraw {
    player: String,
    card: String,
    colour: Option<String>,
    returned: Option<String>,
    returned_colour: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOffer {
    with: String,
    give: String,
    get: Option<String>,
}

/// The seat of the player a field names.
fn seat(s: &State, name: &str, field: &str) -> Result<Seat, String> {
    s.table.seat(name, field)
}

fn vertex(s: &State, name: &str) -> Result<VertexId, String> {
    s.board.vertex(name)
}

fn hex(s: &State, h: HexId) -> Result<HexId, String> {
    if (h as usize) < s.board.hexes.len() {
        Ok(h)
    } else {
        Err(format!("there is no hex {h} (the board has {})", s.board.hexes.len()))
    }
}

/// A progress card as recorded: a name, or `unknown` with its colour.
fn held(card: &str, colour: Option<&str>) -> Result<HeldCard, String> {
    if card == UNKNOWN {
        let colour = colour.ok_or("an unknown progress card needs its `colour` (trade, politics, science)")?;
        return Ok(HeldCard { track: Track::parse(colour)?, card: None });
    }
    let c = Progress::parse(card)?;
    if let Some(colour) = colour {
        let t = Track::parse(colour)?;
        if t != c.track() {
            return Err(format!("{c} is a {} card, not {}", c.track().colour(), t.colour()));
        }
    }
    Ok(HeldCard { track: c.track(), card: Some(c) })
}

fn bundle(v: &Value, field: &str) -> Result<Bundle, String> {
    let map: BTreeMap<String, u8> =
        serde_json::from_value(v.clone()).map_err(|e| format!("`{field}`: cards like {{\"ore\": 1}}: {e}"))?;
    crate::cards::bundle(&map)
}

fn seen_card(name: &str) -> Result<Option<Card>, String> {
    if name == UNKNOWN {
        Ok(None)
    } else {
        Card::parse(name).map(Some)
    }
}

fn resource(name: &str) -> Result<Resource, String> {
    Resource::parse(name)
}

fn commodity(name: &str) -> Result<Commodity, String> {
    match Card::parse(name)? {
        Card::Commodity(c) => Ok(c),
        Card::Resource(r) => Err(format!("{r} is a resource, not a commodity (cloth, coin, paper)")),
    }
}

fn by_seat<T>(
    s: &State,
    map: &BTreeMap<String, T>,
    field: &str,
    mut read: impl FnMut(&T) -> Result<Bundle, String>,
) -> Result<Vec<(Seat, Bundle)>, String> {
    let mut out = Vec::new();
    for (name, v) in map {
        out.push((seat(s, name, field)?, read(v)?));
    }
    out.sort_by_key(|(p, _)| *p);
    Ok(out)
}

fn counts(s: &State, v: &Value) -> Result<Vec<(Seat, u8)>, String> {
    let map: BTreeMap<String, u8> =
        serde_json::from_value(v.clone()).map_err(|e| format!("`taken`: counts by player: {e}"))?;
    let mut out = Vec::new();
    for (name, n) in map {
        out.push((seat(s, &name, "taken")?, n));
    }
    out.sort_by_key(|(p, _)| *p);
    Ok(out)
}

fn parse_raw(s: &State, r: Raw) -> Result<Event, String> {
    let player = seat(s, &r.player, "player")?;
    let k = r.kind.as_str();
    let Ok(known) = k.parse::<Kind>() else {
        return Err(format!("unknown event type `{k}` (one of {})", EVENT_TYPES.join(", ")));
    };
    let at = |r: &Raw| -> Result<VertexId, String> { vertex(s, field::required(r.at.as_deref(), k, "at")?) };
    Ok(match known {
        Kind::BuildSettlement => Event::BuildSettlement { player, at: at(&r)? },
        Kind::BuildCity => Event::BuildCity { player, at: at(&r)? },
        Kind::BuildRoad => Event::BuildRoad { player, at: s.board.edge(field::required(r.at.as_deref(), k, "at")?)? },
        Kind::BuildWall => Event::BuildWall { player, at: at(&r)? },
        Kind::BuildKnight => Event::BuildKnight { player, at: at(&r)? },
        Kind::PromoteKnight => Event::PromoteKnight { player, at: at(&r)? },
        Kind::ActivateKnight => Event::ActivateKnight { player, at: at(&r)? },
        Kind::MoveKnight => Event::MoveKnight {
            player,
            from: vertex(s, field::required(r.from.as_deref(), k, "from")?)?,
            to: vertex(s, field::required(r.to.as_deref(), k, "to")?)?,
            displaced_to: r.displaced_to.as_deref().map(|v| vertex(s, v)).transpose()?,
        },
        Kind::ChaseRobber => {
            Event::ChaseRobber { player, knight: vertex(s, field::required(r.knight.as_deref(), k, "knight")?)? }
        }
        Kind::ImproveCity => Event::ImproveCity {
            player,
            track: Track::parse(field::required(r.track.as_deref(), k, "track")?)?,
            metropolis: r.metropolis.as_deref().map(|v| vertex(s, v)).transpose()?,
        },
        Kind::Roll => {
            let dice = field::required(r.dice, k, "dice")?;
            if let Some(d) = dice.iter().find(|&&d| !(1..=6).contains(&d)) {
                return Err(format!("roll: a die shows 1 to 6, not {d}"));
            }
            let mut drawn = Vec::new();
            for d in r.drawn.unwrap_or_default() {
                let card = held(&d.card, d.colour.as_deref())?;
                let returned = match d.returned.as_deref() {
                    Some(c) => Some(held(c, d.returned_colour.as_deref())?),
                    None => None,
                };
                drawn.push(Draw { player: seat(s, &d.player, "drawn")?, card, returned });
            }
            let mut pillaged = Vec::new();
            for (name, v) in r.pillaged.unwrap_or_default() {
                pillaged.push((seat(s, &name, "pillaged")?, vertex(s, &v)?));
            }
            pillaged.sort_by_key(|(p, _)| *p);
            let mut aqueduct = Vec::new();
            for (name, res) in r.aqueduct.unwrap_or_default() {
                aqueduct.push((seat(s, &name, "aqueduct")?, resource(&res)?));
            }
            aqueduct.sort_by_key(|(p, _)| *p);
            Event::Roll {
                player,
                event: EventDie::parse(field::required(r.event.as_deref(), k, "event")?)?,
                dice,
                drawn,
                pillaged,
                aqueduct,
            }
        }
        Kind::Discard => {
            Event::Discard { player, cards: crate::cards::bundle(field::required(r.cards.as_ref(), k, "cards")?)? }
        }
        Kind::MoveRobber => Event::MoveRobber {
            player,
            hex: hex(s, field::required(r.hex, k, "hex")?)?,
            victim: r.victim.as_deref().map(|v| seat(s, v, "victim")).transpose()?,
            stolen: match &r.stolen {
                Some(Value::String(c)) => Some(seen_card(c)?),
                Some(_) => return Err("`stolen`: a card's name or \"unknown\"".into()),
                None => None,
            },
        },
        Kind::Trade => Event::Trade {
            player,
            with: seat(s, field::required(r.with.as_deref(), k, "with")?, "with")?,
            give: bundle(field::required(r.give.as_ref(), k, "give")?, "give")?,
            get: bundle(field::required(r.get.as_ref(), k, "get")?, "get")?,
        },
        Kind::MaritimeTrade => Event::MaritimeTrade {
            player,
            give: bundle(field::required(r.give.as_ref(), k, "give")?, "give")?,
            get: bundle(field::required(r.get.as_ref(), k, "get")?, "get")?,
        },
        Kind::ReturnProgress => Event::ReturnProgress {
            player,
            card: held(field::required(r.card.as_deref(), k, "card")?, r.colour.as_deref())?,
        },
        Kind::PlayProgress => Event::PlayProgress { player, play: parse_play(s, &r)? },
        Kind::EndTurn => Event::EndTurn { player },
    })
}

fn parse_play(s: &State, r: &Raw) -> Result<Play, String> {
    let card = Progress::parse(field::required(r.card.as_deref(), "play_progress", "card")?)?;
    let k = card.name();
    let at = || -> Result<VertexId, String> { vertex(s, field::required(r.at.as_deref(), k, "at")?) };
    let victim = || -> Result<Seat, String> { seat(s, field::required(r.victim.as_deref(), k, "victim")?, "victim") };
    let opt_vertex = |v: &Option<String>| v.as_deref().map(|v| vertex(s, v)).transpose();
    Ok(match card {
        Progress::Alchemist => Play::Alchemist {
            dice: {
                let d = field::required(r.dice, k, "dice")?;
                if let Some(x) = d.iter().find(|&&x| !(1..=6).contains(&x)) {
                    return Err(format!("alchemist: a die shows 1 to 6, not {x}"));
                }
                d
            },
        },
        Progress::Crane => Play::Crane,
        Progress::Engineer => Play::Engineer { at: at()? },
        Progress::Inventor => {
            let [a, b] = field::required(r.hexes, k, "hexes")?;
            Play::Inventor { hexes: [hex(s, a)?, hex(s, b)?] }
        }
        Progress::Irrigation => Play::Irrigation,
        Progress::Medicine => Play::Medicine { at: at()? },
        Progress::Mining => Play::Mining,
        Progress::RoadBuilding => Play::RoadBuilding,
        Progress::Smith => Play::Smith {
            knights: field::required(r.knights.as_ref(), k, "knights")?
                .iter()
                .map(|v| vertex(s, v))
                .collect::<Result<_, _>>()?,
        },
        Progress::Bishop => {
            let mut stolen = Vec::new();
            if let Some(v) = &r.stolen {
                let map: BTreeMap<String, String> = serde_json::from_value(v.clone())
                    .map_err(|e| format!("bishop: `stolen` is a card by player: {e}"))?;
                for (name, c) in map {
                    stolen.push((seat(s, &name, "stolen")?, seen_card(&c)?));
                }
            }
            stolen.sort_by_key(|(p, _)| *p);
            Play::Bishop { hex: hex(s, field::required(r.hex, k, "hex")?)?, stolen }
        }
        Progress::Deserter => Play::Deserter {
            victim: victim()?,
            removed: vertex(s, field::required(r.removed.as_deref(), k, "removed")?)?,
            placed: opt_vertex(&r.placed)?,
        },
        Progress::Diplomat => Play::Diplomat {
            road: s.board.edge(field::required(r.road.as_deref(), k, "road")?)?,
            moved_to: r.moved_to.as_deref().map(|e| s.board.edge(e)).transpose()?,
        },
        Progress::Intrigue => Play::Intrigue { at: at()?, displaced_to: opt_vertex(&r.displaced_to)? },
        Progress::Saboteur => Play::Saboteur {
            discards: by_seat(s, r.discards.as_ref().unwrap_or(&BTreeMap::new()), "discards", crate::cards::bundle)?,
        },
        Progress::Spy => Play::Spy {
            victim: victim()?,
            taken: match &r.taken {
                Some(Value::String(c)) => held(c, r.colour.as_deref())?,
                _ => return Err("spy needs `taken`: the progress card taken, or \"unknown\" with its `colour`".into()),
            },
        },
        Progress::Warlord => Play::Warlord,
        Progress::Wedding => Play::Wedding {
            given: by_seat(s, r.given.as_ref().unwrap_or(&BTreeMap::new()), "given", crate::cards::bundle)?,
        },
        Progress::CommercialHarbor => {
            let mut offers = Vec::new();
            for o in field::required(r.offers.as_ref(), k, "offers")? {
                offers.push(Offer {
                    with: seat(s, &o.with, "offers")?,
                    give: resource(&o.give)?,
                    get: o.get.as_deref().map(commodity).transpose()?,
                });
            }
            Play::CommercialHarbor { offers }
        }
        Progress::MasterMerchant => Play::MasterMerchant {
            victim: victim()?,
            taken: bundle(field::required(r.taken.as_ref(), k, "taken")?, "taken")?,
        },
        Progress::Merchant => Play::Merchant { hex: hex(s, field::required(r.hex, k, "hex")?)? },
        Progress::MerchantFleet => {
            Play::MerchantFleet { card: Card::parse(field::required(r.resource.as_deref(), k, "resource")?)? }
        }
        Progress::ResourceMonopoly => Play::ResourceMonopoly {
            resource: resource(field::required(r.resource.as_deref(), k, "resource")?)?,
            taken: r.taken.as_ref().map(|v| counts(s, v)).transpose()?,
        },
        Progress::TradeMonopoly => Play::TradeMonopoly {
            commodity: commodity(field::required(r.commodity.as_deref(), k, "commodity")?)?,
            taken: r.taken.as_ref().map(|v| counts(s, v)).transpose()?,
        },
        Progress::Printer | Progress::Constitution => {
            return Err(format!("{card} is a victory point card: it is shown when drawn, never played"))
        }
    })
}

fn held_json(m: &mut Map<String, Value>, key: &str, colour_key: &str, h: HeldCard) {
    match h.card {
        Some(c) => {
            m.insert(key.into(), json!(c.name()));
        }
        None => {
            m.insert(key.into(), json!(UNKNOWN));
            m.insert(colour_key.into(), json!(h.track.name()));
        }
    }
}

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = EVENT_TYPES;

    fn parse(state: &State, line: &str) -> Result<Event, EventError> {
        let raw: Raw = serde_json::from_str(line).map_err(EventError::from_json)?;
        parse_raw(state, raw).map_err(EventError::Invalid)
    }

    fn write(&self, s: &State) -> String {
        let mut m = Map::new();
        m.insert("type".into(), json!(self.kind()));
        m.insert("player".into(), json!(s.name(self.player())));
        let v = |x: VertexId| json!(s.board.vertices[x as usize].name);
        let name = |p: Seat| s.name(p).to_string();
        match self {
            Event::BuildSettlement { at, .. }
            | Event::BuildCity { at, .. }
            | Event::BuildWall { at, .. }
            | Event::BuildKnight { at, .. }
            | Event::PromoteKnight { at, .. }
            | Event::ActivateKnight { at, .. } => {
                m.insert("at".into(), v(*at));
            }
            Event::BuildRoad { at, .. } => {
                m.insert("at".into(), json!(s.board.edges[*at as usize].name));
            }
            Event::MoveKnight { from, to, displaced_to, .. } => {
                m.insert("from".into(), v(*from));
                m.insert("to".into(), v(*to));
                if let Some(d) = displaced_to {
                    m.insert("displaced_to".into(), v(*d));
                }
            }
            Event::ChaseRobber { knight, .. } => {
                m.insert("knight".into(), v(*knight));
            }
            Event::ImproveCity { track, metropolis, .. } => {
                m.insert("track".into(), json!(track.name()));
                if let Some(x) = metropolis {
                    m.insert("metropolis".into(), v(*x));
                }
            }
            Event::Roll { event, dice, drawn, pillaged, aqueduct, .. } => {
                m.insert("event".into(), json!(event.name()));
                m.insert("dice".into(), json!(dice));
                if !drawn.is_empty() {
                    let list: Vec<Value> = drawn
                        .iter()
                        .map(|d| {
                            let mut o = Map::new();
                            o.insert("player".into(), json!(name(d.player)));
                            held_json(&mut o, "card", "colour", d.card);
                            if d.card.card.is_some() {
                                o.insert("colour".into(), json!(d.card.track.name()));
                            }
                            if let Some(r) = d.returned {
                                held_json(&mut o, "returned", "returned_colour", r);
                            }
                            Value::Object(o)
                        })
                        .collect();
                    m.insert("drawn".into(), Value::Array(list));
                }
                if !pillaged.is_empty() {
                    let o: Map<String, Value> = pillaged.iter().map(|&(p, x)| (name(p), v(x))).collect();
                    m.insert("pillaged".into(), Value::Object(o));
                }
                if !aqueduct.is_empty() {
                    let o: Map<String, Value> = aqueduct.iter().map(|&(p, r)| (name(p), json!(r.name()))).collect();
                    m.insert("aqueduct".into(), Value::Object(o));
                }
            }
            Event::Discard { cards, .. } => {
                m.insert("cards".into(), bundle_json(cards));
            }
            Event::MoveRobber { hex, victim, stolen, .. } => {
                m.insert("hex".into(), json!(hex));
                if let Some(p) = victim {
                    m.insert("victim".into(), json!(name(*p)));
                }
                if let Some(c) = stolen {
                    m.insert("stolen".into(), json!(c.map_or(UNKNOWN, |c| c.name())));
                }
            }
            Event::Trade { with, give, get, .. } => {
                m.insert("with".into(), json!(name(*with)));
                m.insert("give".into(), bundle_json(give));
                m.insert("get".into(), bundle_json(get));
            }
            Event::MaritimeTrade { give, get, .. } => {
                m.insert("give".into(), bundle_json(give));
                m.insert("get".into(), bundle_json(get));
            }
            Event::ReturnProgress { card, .. } => held_json(&mut m, "card", "colour", *card),
            Event::PlayProgress { play, .. } => write_play(s, play, &mut m),
            Event::EndTurn { .. } => {}
        }
        Value::Object(m).to_string()
    }
}

fn write_play(s: &State, play: &Play, m: &mut Map<String, Value>) {
    let v = |x: VertexId| json!(s.board.vertices[x as usize].name);
    let name = |p: Seat| s.name(p).to_string();
    let bundles = |list: &[(Seat, Bundle)]| -> Value {
        Value::Object(list.iter().map(|(p, b)| (name(*p), bundle_json(b))).collect())
    };
    let taken_counts = |t: &Option<Vec<(Seat, u8)>>, m: &mut Map<String, Value>| {
        if let Some(t) = t {
            m.insert("taken".into(), Value::Object(t.iter().map(|&(p, n)| (name(p), json!(n))).collect()));
        }
    };
    m.insert("card".into(), json!(play.card().name()));
    match play {
        Play::Alchemist { dice } => {
            m.insert("dice".into(), json!(dice));
        }
        Play::Engineer { at } | Play::Medicine { at } => {
            m.insert("at".into(), v(*at));
        }
        Play::Inventor { hexes } => {
            m.insert("hexes".into(), json!(hexes));
        }
        Play::Smith { knights } => {
            m.insert("knights".into(), Value::Array(knights.iter().map(|&k| v(k)).collect()));
        }
        Play::Bishop { hex, stolen } => {
            m.insert("hex".into(), json!(hex));
            if !stolen.is_empty() {
                let o: Map<String, Value> =
                    stolen.iter().map(|&(p, c)| (name(p), json!(c.map_or(UNKNOWN, |c| c.name())))).collect();
                m.insert("stolen".into(), Value::Object(o));
            }
        }
        Play::Deserter { victim, removed, placed } => {
            m.insert("victim".into(), json!(name(*victim)));
            m.insert("removed".into(), v(*removed));
            if let Some(p) = placed {
                m.insert("placed".into(), v(*p));
            }
        }
        Play::Diplomat { road, moved_to } => {
            m.insert("road".into(), json!(s.board.edges[*road as usize].name));
            if let Some(e) = moved_to {
                m.insert("moved_to".into(), json!(s.board.edges[*e as usize].name));
            }
        }
        Play::Intrigue { at, displaced_to } => {
            m.insert("at".into(), v(*at));
            if let Some(d) = displaced_to {
                m.insert("displaced_to".into(), v(*d));
            }
        }
        Play::Saboteur { discards } => {
            m.insert("discards".into(), bundles(discards));
        }
        Play::Spy { victim, taken } => {
            m.insert("victim".into(), json!(name(*victim)));
            held_json(m, "taken", "colour", *taken);
        }
        Play::Wedding { given } => {
            m.insert("given".into(), bundles(given));
        }
        Play::CommercialHarbor { offers } => {
            let list: Vec<Value> = offers
                .iter()
                .map(|o| {
                    let mut x = Map::new();
                    x.insert("with".into(), json!(name(o.with)));
                    x.insert("give".into(), json!(o.give.name()));
                    if let Some(c) = o.get {
                        x.insert("get".into(), json!(c.name()));
                    }
                    Value::Object(x)
                })
                .collect();
            m.insert("offers".into(), Value::Array(list));
        }
        Play::MasterMerchant { victim, taken } => {
            m.insert("victim".into(), json!(name(*victim)));
            m.insert("taken".into(), bundle_json(taken));
        }
        Play::Merchant { hex } => {
            m.insert("hex".into(), json!(hex));
        }
        Play::MerchantFleet { card } => {
            m.insert("resource".into(), json!(card.name()));
        }
        Play::ResourceMonopoly { resource, taken } => {
            m.insert("resource".into(), json!(resource.name()));
            taken_counts(taken, m);
        }
        Play::TradeMonopoly { commodity, taken } => {
            m.insert("commodity".into(), json!(commodity.name()));
            taken_counts(taken, m);
        }
        Play::Crane | Play::Irrigation | Play::Mining | Play::RoadBuilding | Play::Warlord => {}
    }
}
