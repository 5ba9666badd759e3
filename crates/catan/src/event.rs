//! The events of a `catan` log, read from and written to almanac/1 lines.
//!
//! Every event names its `player`. Positions are board names (`"4:NE"`, see `board`); cards are bundles
//! like `{"ore": 2, "unknown": 1}`. Fields the rules derive (production of a roll, what a monopoly took)
//! may be given; the engine then checks them.

use crate::board::{EdgeId, HexId, VertexId};
use crate::development::DevCard;
use crate::helpers::{self as helpers, parse_helper, AfterUse, HelperAction, HelperUse, HELPERS};
use crate::resources::{Bundle, Resource, ResourceCard, UNKNOWN};
use crate::state::State;
use crate::stated::{Stated, StatedSpec};
use almanac_core::Seated;
use almanac_core::{field, EventError, Seat};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// The most players any catan log may name (room for the 5-6 player extension).
pub const MAX_PLAYERS: usize = 6;

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
    BuildRoad {
        player: Seat,
        at: EdgeId,
    },
    BuildCity {
        player: Seat,
        at: VertexId,
    },
    /// `production`, when given, is checked against what the rules pay.
    Roll {
        player: Seat,
        dice: Thrown,
        /// By seat; `None` when the record does not say.
        production: Option<[Bundle; MAX_PLAYERS]>,
    },
    Discard {
        player: Seat,
        cards: Bundle,
    },
    MoveRobber {
        player: Seat,
        hex: HexId,
        victim: Option<Seat>,
        stolen: Option<ResourceCard>,
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
    /// `card` is `None` when bought out of the recorder's sight.
    BuyDevelopment {
        player: Seat,
        card: Option<DevCard>,
    },
    PlayKnight {
        player: Seat,
    },
    PlayRoadBuilding {
        player: Seat,
    },
    PlayYearOfPlenty {
        player: Seat,
        take: Bundle,
    },
    /// `taken`, when given, says how many cards each opponent handed over.
    PlayMonopoly {
        player: Seat,
        resource: Resource,
        taken: Option<Vec<(Seat, u8)>>,
    },
    /// Reveals `count` hidden victory point cards (all of them when `None`).
    RevealVictoryPoints {
        player: Seat,
        count: Option<u8>,
    },
    EndTurn {
        player: Seat,
    },
    /// The settlement just placed in setup taken back before its road (a program's server did it when the
    /// road could not be placed): it goes back with the cards it paid, and the player places again after
    /// everyone else's placements.
    TakeBack {
        player: Seat,
        at: VertexId,
    },
    /// The player's time ran out and the turn ended for them (a program's server does it after a timeout),
    /// before the roll if it came then: nothing is rolled or produced.
    TimeOut {
        player: Seat,
    },
    /// A helper's advantage (the Helpers scenario), with its choices and outcomes.
    UseHelper(Box<HelperUse>),
}

/// What a roll showed: both dice, or only their sum when that is all the recorder kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thrown {
    Dice([u8; 2]),
    Sum(u8),
}

impl Thrown {
    pub fn sum(self) -> u8 {
        match self {
            Thrown::Dice([a, b]) => a + b,
            Thrown::Sum(s) => s,
        }
    }

    /// The roll as a fact.
    pub fn dice(self) -> almanac_core::Dice {
        match self {
            Thrown::Dice(d) => almanac_core::Dice::new(&d),
            Thrown::Sum(s) => almanac_core::Dice::sum_only(s),
        }
    }
}

impl From<[u8; 2]> for Thrown {
    fn from(d: [u8; 2]) -> Thrown {
        Thrown::Dice(d)
    }
}

impl Event {
    pub fn kind(&self) -> &'static str {
        self.into()
    }

    /// Placements, builds, the robber and its victim, cards bought and played, trades: not the roll, a
    /// discard the 7 forces, the end of a turn, cards shown, nor what a program's server did.
    pub fn is_decision(&self) -> bool {
        !matches!(
            self,
            Event::Roll { .. }
                | Event::Discard { .. }
                | Event::RevealVictoryPoints { .. }
                | Event::TakeBack { .. }
                | Event::TimeOut { .. }
        )
    }
}

/// Every `type` of an event line.
pub const EVENT_TYPES: &[&str] = <Kind as strum::VariantNames>::VARIANTS;

/// A string from the line: borrowed when it has no escapes (the usual case), owned otherwise.
/// (serde's own `Cow<str>` always allocates inside an `Option` or as a map key.)
pub(crate) struct Text<'a>(pub(crate) Cow<'a, str>);

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

impl std::ops::Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// `{"Ana": {"ore": 1}, ...}` read without allocating (it is on every roll of an imported record).
#[derive(Default)]
pub(crate) struct NamedBundles<'a> {
    pub(crate) names: [Option<Text<'a>>; MAX_PLAYERS],
    pub(crate) bundles: [Bundle; MAX_PLAYERS],
}

impl Serialize for NamedBundles<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (name, bundle) in self.names.iter().zip(&self.bundles) {
            if let Some(name) = name {
                map.serialize_entry(name, bundle)?;
            }
        }
        map.end()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for NamedBundles<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = NamedBundles<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("cards by player, like {\"Ana\": {\"ore\": 1}}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NamedBundles<'a>, A::Error> {
                let mut out = NamedBundles { names: Default::default(), bundles: [Bundle::default(); MAX_PLAYERS] };
                let mut n = 0;
                while let Some(key) = map.next_key::<Text<'a>>()? {
                    let b: Bundle = map.next_value()?;
                    if n == MAX_PLAYERS {
                        return Err(de::Error::custom(format!("more than {MAX_PLAYERS} players")));
                    }
                    out.names[n] = Some(key);
                    out.bundles[n] = b;
                    n += 1;
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Every field any event may carry; fields an event does not use are ignored (a recorder's notes, `src`).
/// An importer that makes its events typed fills one in and writes it as the line (`Raw::write_line`), so
/// that the line and the event are made by the same words.
#[derive(Default, Deserialize, Serialize)]
pub(crate) struct Raw<'a> {
    #[serde(rename = "type", borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) player: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<Text<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dice: Option<[u8; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) sum: Option<u8>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) production: Option<NamedBundles<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cards: Option<Bundle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) give: Option<Bundle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) get: Option<Bundle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) take: Option<Bundle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hex: Option<u8>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) victim: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) stolen: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) with: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) card: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) resource: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) taken: Option<BTreeMap<Cow<'a, str>, u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) count: Option<u8>,
    // The Helpers scenario.
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) helper: Option<Text<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) flip: Option<bool>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) swap: Option<Text<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pay: Option<Bundle>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) drawn: Option<Vec<Text<'a>>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) took: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) to: Option<Text<'a>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) opponents: Option<Vec<Text<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) received: Option<BTreeMap<String, u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) returned: Option<BTreeMap<String, String>>,
    #[serde(borrow, skip_serializing_if = "Option::is_none")]
    pub(crate) build: Option<Text<'a>>,
    /// What the recorder says the game looks like after the event (checked). Never written: an importer
    /// states nothing.
    #[serde(skip_serializing)]
    pub(crate) stated: Option<StatedSpec>,
    /// Where the event is in the record it was translated from (catanatron's turn): written, never read.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub(crate) src_turn: Option<u64>,
}

impl Raw<'_> {
    /// The event as its log line, with its newline.
    pub(crate) fn write_line(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("an event's fields are written to memory");
        out.push(b'\n');
    }
}

fn seat(state: &State, name: &str, field: &str) -> Result<Seat, String> {
    state.table.seat(name, field)
}

fn resource(name: &str) -> Result<Resource, String> {
    Resource::parse(name)
}

/// An event as the log has it: the event, and what the recorder states about the game after it.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEvent {
    pub event: Event,
    pub stated: Option<Box<Stated>>,
}

impl From<Event> for LoggedEvent {
    fn from(event: Event) -> LoggedEvent {
        LoggedEvent { event, stated: None }
    }
}

impl LoggedEvent {
    /// The event a line's fields say, against the current state (for player names and board positions).
    pub(crate) fn from_raw(state: &State, mut raw: Raw) -> Result<LoggedEvent, String> {
        let stated = match raw.stated.take() {
            None => None,
            Some(spec) => Some(Box::new(Stated::parse(state, spec)?)),
        };
        Ok(LoggedEvent { event: parse_raw(state, raw)?, stated })
    }
}

/// Reads one event line against the current state (for player names and board positions).
pub fn parse(state: &State, line: &str) -> Result<Event, EventError> {
    Ok(<LoggedEvent as almanac_core::Line>::parse(state, line)?.event)
}

fn parse_raw(state: &State, raw: Raw) -> Result<Event, String> {
    let kind = raw.kind.as_deref().ok_or("the event has no `type`")?;
    let Ok(known) = kind.parse::<Kind>() else {
        return Err(format!("unknown event type `{kind}` (known: {})", EVENT_TYPES.join(", ")));
    };
    let player_name = field::required(raw.player.as_deref(), kind, "player")?;
    let player = seat(state, player_name, "player")?;
    let board = &state.board;
    Ok(match known {
        Kind::BuildSettlement => {
            Event::BuildSettlement { player, at: board.vertex(field::required(raw.at.as_deref(), kind, "at")?)? }
        }
        Kind::BuildCity => {
            Event::BuildCity { player, at: board.vertex(field::required(raw.at.as_deref(), kind, "at")?)? }
        }
        Kind::BuildRoad => {
            Event::BuildRoad { player, at: board.edge(field::required(raw.at.as_deref(), kind, "at")?)? }
        }
        Kind::Roll => {
            let dice = match (raw.dice, raw.sum) {
                (Some(dice), None) if dice.iter().all(|d| (1..=6).contains(d)) => Thrown::Dice(dice),
                (Some(dice), None) => return Err(format!("roll: dice {dice:?} are not two numbers from 1 to 6")),
                (None, Some(sum)) if (2..=12).contains(&sum) => Thrown::Sum(sum),
                (None, Some(sum)) => return Err(format!("roll: a sum of {sum} is not what two dice show (2 to 12)")),
                (Some(_), Some(_)) => {
                    return Err("roll: give `dice` or, when only the total is known, `sum`; not both".into())
                }
                (None, None) => return Err("roll needs `dice` (or `sum`, when only the total is known)".into()),
            };
            let production = match raw.production {
                None => None,
                Some(named) => {
                    let mut by_seat = [Bundle::default(); MAX_PLAYERS];
                    for (name, b) in named.names.iter().zip(named.bundles) {
                        if let Some(name) = name {
                            by_seat[seat(state, name, "production")? as usize] = b;
                        }
                    }
                    Some(by_seat)
                }
            };
            Event::Roll { player, dice, production }
        }
        Kind::Discard => Event::Discard { player, cards: *field::required(raw.cards.as_ref(), kind, "cards")? },
        Kind::MoveRobber => {
            let hex = field::required(raw.hex, kind, "hex")?;
            if hex as usize >= board.hexes.len() {
                return Err(format!("move_robber: there is no hex {hex}"));
            }
            let victim = match raw.victim.as_deref() {
                Some(v) => Some(seat(state, v, "victim")?),
                None => None,
            };
            let stolen = match raw.stolen.as_deref() {
                None => None,
                Some(card) => Some(ResourceCard::parse(card)?),
            };
            Event::MoveRobber { player, hex, victim, stolen }
        }
        Kind::Trade => Event::Trade {
            player,
            with: seat(state, field::required(raw.with.as_deref(), kind, "with")?, "with")?,
            give: *field::required(raw.give.as_ref(), kind, "give")?,
            get: *field::required(raw.get.as_ref(), kind, "get")?,
        },
        Kind::MaritimeTrade => Event::MaritimeTrade {
            player,
            give: *field::required(raw.give.as_ref(), kind, "give")?,
            get: *field::required(raw.get.as_ref(), kind, "get")?,
        },
        Kind::BuyDevelopment => {
            let card = match field::required(raw.card.as_deref(), kind, "card")? {
                UNKNOWN => None,
                c => Some(DevCard::parse(c).map_err(|e| format!("buy_development: {e}, or unknown"))?),
            };
            Event::BuyDevelopment { player, card }
        }
        Kind::PlayKnight => Event::PlayKnight { player },
        Kind::PlayRoadBuilding => Event::PlayRoadBuilding { player },
        Kind::PlayYearOfPlenty => {
            Event::PlayYearOfPlenty { player, take: *field::required(raw.take.as_ref(), kind, "take")? }
        }
        Kind::PlayMonopoly => {
            let resource = resource(field::required(raw.resource.as_deref(), kind, "resource")?)?;
            let taken = match &raw.taken {
                None => None,
                Some(map) => Some(
                    map.iter().map(|(n, &c)| Ok((seat(state, n, "taken")?, c))).collect::<Result<Vec<_>, String>>()?,
                ),
            };
            Event::PlayMonopoly { player, resource, taken }
        }
        Kind::RevealVictoryPoints => Event::RevealVictoryPoints { player, count: raw.count },
        Kind::EndTurn => Event::EndTurn { player },
        Kind::TakeBack => {
            Event::TakeBack { player, at: board.vertex(field::required(raw.at.as_deref(), kind, "at")?)? }
        }
        Kind::TimeOut => Event::TimeOut { player },
        Kind::UseHelper => Event::UseHelper(Box::new(parse_helper_use(state, &raw, player)?)),
    })
}

fn parse_helper_use(state: &State, raw: &Raw, player: Seat) -> Result<HelperUse, String> {
    let kind = "use_helper";
    let helper = parse_helper(field::required(raw.helper.as_deref(), kind, "helper")?)?;
    let after = match (raw.flip, raw.swap.as_deref()) {
        (Some(true), None) => AfterUse::Flip,
        (None | Some(false), Some(other)) => AfterUse::Swap(parse_helper(other)?),
        _ => return Err("use_helper: say what follows the use: `\"flip\": true` or `\"swap\": \"<helper>\"`".into()),
    };
    let res = |field: &str, v: Option<&str>| -> Result<Resource, String> { resource(field::required(v, kind, field)?) };
    let board = &state.board;
    let action = match helper {
        helpers::CANDAMIR => HelperAction::Candamir {
            pay: *field::required(raw.pay.as_ref(), kind, "pay")?,
            drawn: field::required(raw.drawn.as_ref(), kind, "drawn")?
                .iter()
                .map(|c| DevCard::parse(c))
                .collect::<Result<_, _>>()?,
            card: DevCard::parse(field::required(raw.card.as_deref(), kind, "card")?)?,
        },
        helpers::HILDE => HelperAction::Hilde {
            victim: seat(state, field::required(raw.victim.as_deref(), kind, "victim")?, "victim")?,
            took: ResourceCard::parse(field::required(raw.took.as_deref(), kind, "took")?)?,
        },
        helpers::JEAN => HelperAction::Jean { resource: res("resource", raw.resource.as_deref())? },
        helpers::LIN => HelperAction::Lin { hex: raw.hex },
        helpers::LOUIS => HelperAction::Louis {
            from: board.edge(field::required(raw.at.as_deref(), kind, "at")?)?,
            to: board.edge(field::required(raw.to.as_deref(), kind, "to")?)?,
        },
        helpers::MARIANNE => HelperAction::Marianne { resource: res("resource", raw.resource.as_deref())? },
        helpers::NASSIR => HelperAction::Nassir {
            resource: res("resource", raw.resource.as_deref())?,
            opponents: field::required(raw.opponents.as_ref(), kind, "opponents")?
                .iter()
                .map(|n| seat(state, n, "opponents"))
                .collect::<Result<_, _>>()?,
            received: match &raw.received {
                None => None,
                Some(m) => {
                    let mut v = m
                        .iter()
                        .map(|(n, c)| Ok((seat(state, n, "received")?, *c)))
                        .collect::<Result<Vec<_>, String>>()?;
                    v.sort();
                    Some(v)
                }
            },
            returned: {
                let mut v = raw
                    .returned
                    .iter()
                    .flatten()
                    .map(|(n, r)| Ok((seat(state, n, "returned")?, resource(r)?)))
                    .collect::<Result<Vec<_>, String>>()?;
                v.sort();
                v
            },
        },
        helpers::SEAN => HelperAction::Sean {
            resource: match raw.resource.as_deref() {
                None => None,
                Some(r) => Some(resource(r)?),
            },
        },
        helpers::VINCENT => HelperAction::Vincent {
            city: match field::required(raw.build.as_deref(), kind, "build")? {
                "city" => true,
                "settlement" => false,
                other => return Err(format!("Vincent builds a `settlement` or a `city`, not `{other}`")),
            },
            at: board.vertex(field::required(raw.at.as_deref(), kind, "at")?)?,
        },
        _ => HelperAction::William {
            at: board.edge(field::required(raw.at.as_deref(), kind, "at")?)?,
            pay: *field::required(raw.pay.as_ref(), kind, "pay")?,
        },
    };
    Ok(HelperUse { player, helper, action, after })
}

/// Writes an event as one almanac/1 line.
pub fn write(state: &State, event: &Event) -> String {
    Value::Object(write_map(state, event)).to_string()
}

impl almanac_core::Line for LoggedEvent {
    type State = State;
    const TYPES: &'static [&'static str] = EVENT_TYPES;

    /// Reads one event line with its statements.
    fn parse(state: &State, line: &str) -> Result<LoggedEvent, EventError> {
        let raw: Raw = serde_json::from_str(line).map_err(EventError::from_json)?;
        Ok(LoggedEvent::from_raw(state, raw)?)
    }

    /// Writes an event and its statements as one almanac/1 line.
    fn write(&self, state: &State) -> String {
        let mut m = write_map(state, &self.event);
        if let Some(stated) = &self.stated {
            m.insert("stated".into(), stated.write(state));
        }
        Value::Object(m).to_string()
    }
}

fn write_map(state: &State, event: &Event) -> Map<String, Value> {
    let name = |s: Seat| Value::String(state.name(s).to_string());
    let board = &state.board;
    let mut m = Map::new();
    m.insert("type".into(), json!(event.kind()));
    m.insert("player".into(), name(event.player()));
    match event {
        Event::BuildSettlement { at, .. } | Event::BuildCity { at, .. } | Event::TakeBack { at, .. } => {
            m.insert("at".into(), json!(board.vertices[*at as usize].name));
        }
        Event::BuildRoad { at, .. } => {
            m.insert("at".into(), json!(board.edges[*at as usize].name));
        }
        Event::Roll { dice, production, .. } => {
            match dice {
                Thrown::Dice(d) => m.insert("dice".into(), json!(d)),
                Thrown::Sum(s) => m.insert("sum".into(), json!(s)),
            };
            if let Some(p) = production {
                let mut pm = Map::new();
                for (s, b) in p.iter().enumerate().take(state.players.len()) {
                    if !b.is_empty() {
                        pm.insert(state.name(s as Seat).to_string(), json!(b));
                    }
                }
                m.insert("production".into(), Value::Object(pm));
            }
        }
        Event::Discard { cards, .. } => {
            m.insert("cards".into(), json!(cards));
        }
        Event::MoveRobber { hex, victim, stolen, .. } => {
            m.insert("hex".into(), json!(hex));
            if let Some(v) = victim {
                m.insert("victim".into(), name(*v));
            }
            if let Some(card) = stolen {
                m.insert("stolen".into(), json!(card.name()));
            }
        }
        Event::Trade { with, give, get, .. } => {
            m.insert("with".into(), name(*with));
            m.insert("give".into(), json!(give));
            m.insert("get".into(), json!(get));
        }
        Event::MaritimeTrade { give, get, .. } => {
            m.insert("give".into(), json!(give));
            m.insert("get".into(), json!(get));
        }
        Event::BuyDevelopment { card, .. } => {
            m.insert("card".into(), json!(card.map(DevCard::name).unwrap_or(UNKNOWN)));
        }
        Event::PlayYearOfPlenty { take, .. } => {
            m.insert("take".into(), json!(take));
        }
        Event::PlayMonopoly { resource, taken, .. } => {
            m.insert("resource".into(), json!(resource.name()));
            if let Some(t) = taken {
                let mut tm = Map::new();
                for (s, n) in t {
                    tm.insert(state.name(*s).to_string(), json!(n));
                }
                m.insert("taken".into(), Value::Object(tm));
            }
        }
        Event::RevealVictoryPoints { count, .. } => {
            if let Some(c) = count {
                m.insert("count".into(), json!(c));
            }
        }
        Event::PlayKnight { .. } | Event::PlayRoadBuilding { .. } | Event::EndTurn { .. } | Event::TimeOut { .. } => {}
        Event::UseHelper(u) => write_helper(state, u, &mut m),
    }
    m
}

fn write_helper(state: &State, u: &HelperUse, m: &mut Map<String, Value>) {
    let board = &state.board;
    let name = |s: Seat| Value::String(state.name(s).to_string());
    m.insert("helper".into(), json!(HELPERS[u.helper]));
    match &u.action {
        HelperAction::Candamir { pay, drawn, card } => {
            m.insert("pay".into(), json!(pay));
            m.insert("drawn".into(), json!(drawn.iter().map(|c| c.name()).collect::<Vec<_>>()));
            m.insert("card".into(), json!(card.name()));
        }
        HelperAction::Hilde { victim, took } => {
            m.insert("victim".into(), name(*victim));
            m.insert("took".into(), json!(took.name()));
        }
        HelperAction::Jean { resource } | HelperAction::Marianne { resource } => {
            m.insert("resource".into(), json!(resource.name()));
        }
        HelperAction::Lin { hex } => {
            if let Some(h) = hex {
                m.insert("hex".into(), json!(h));
            }
        }
        HelperAction::Louis { from, to } => {
            m.insert("at".into(), json!(board.edges[*from as usize].name));
            m.insert("to".into(), json!(board.edges[*to as usize].name));
        }
        HelperAction::Nassir { resource, opponents, received, returned } => {
            m.insert("resource".into(), json!(resource.name()));
            m.insert("opponents".into(), Value::Array(opponents.iter().map(|&o| name(o)).collect()));
            if let Some(rc) = received {
                m.insert(
                    "received".into(),
                    Value::Object(rc.iter().map(|&(o, n)| (state.name(o).to_string(), json!(n))).collect()),
                );
            }
            if !returned.is_empty() {
                m.insert(
                    "returned".into(),
                    Value::Object(
                        returned.iter().map(|&(o, r)| (state.name(o).to_string(), json!(r.name()))).collect(),
                    ),
                );
            }
        }
        HelperAction::Sean { resource } => {
            if let Some(r) = resource {
                m.insert("resource".into(), json!(r.name()));
            }
        }
        HelperAction::Vincent { city, at } => {
            m.insert("build".into(), json!(if *city { "city" } else { "settlement" }));
            m.insert("at".into(), json!(board.vertices[*at as usize].name));
        }
        HelperAction::William { at, pay } => {
            m.insert("at".into(), json!(board.edges[*at as usize].name));
            m.insert("pay".into(), json!(pay));
        }
    }
    match u.after {
        AfterUse::Flip => m.insert("flip".into(), json!(true)),
        AfterUse::Swap(h) => m.insert("swap".into(), json!(HELPERS[h])),
    };
}
