//! The events of a `catan-cards` log, read from and written to almanac/1 lines (docs/formats/catan-cards.md).
//!
//! Every event names its `player`. Cards are bundles like `{"ore": 2, "unknown": 1}`; what the rules leave
//! open (the cards drawn, the card that refills the row, the event card revealed and what it did) is in
//! the log.

use crate::cards::Card;
use crate::setup::event_name;
use crate::state::State;
use almanac_catan::resources::{Bundle, Resource, ResourceCard, Resources, UNKNOWN};
use almanac_core::{field, EventError, Seat};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// One missing resource of a purchase paid with other cards of one kind, at the player's road rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoadTrade {
    pub give: Resource,
    pub instead_of: Resource,
}

/// An event card revealed by a settlement, with what it did to each player's hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventCard {
    pub name: String,
    /// For each player it touched: the cards drawn from the deck and the cards given up.
    pub effect: Vec<(Seat, Bundle, Resources)>,
}

/// The name of the event cards that make big hands discard half.
pub const ROBBER: &str = "robber";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The start of a turn: the cards each player drew (by seat).
    Harvest {
        player: Seat,
        draws: Vec<Bundle>,
    },
    /// The one trade of a turn, and the card the partner drew for free (none when the resource deck and its
    /// discard pile are both spent).
    Trade {
        player: Seat,
        with: Seat,
        give: Bundle,
        get: Bundle,
        bonus: Option<ResourceCard>,
    },
    /// A card bought from the row (with the card that refilled it) or the Metropolis stack.
    Build {
        player: Seat,
        card: Card,
        road_trade: Option<RoadTrade>,
        refill: Option<Card>,
        event: Option<EventCard>,
    },
    /// Half a big hand given up after a Robber event.
    Discard {
        player: Seat,
        cards: Bundle,
    },
    EndTurn {
        player: Seat,
    },
}

impl Event {
    pub fn player(&self) -> Seat {
        match *self {
            Event::Harvest { player, .. }
            | Event::Trade { player, .. }
            | Event::Build { player, .. }
            | Event::Discard { player, .. }
            | Event::EndTurn { player } => player,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Event::Harvest { .. } => "harvest",
            Event::Trade { .. } => "trade",
            Event::Build { .. } => "build",
            Event::Discard { .. } => "discard",
            Event::EndTurn { .. } => "end_turn",
        }
    }
}

pub const EVENT_TYPES: [&str; 5] = ["harvest", "trade", "build", "discard", "end_turn"];

/// Every field any event may carry; fields an event does not use are ignored.
#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    kind: Option<String>,
    player: Option<String>,
    draws: Option<BTreeMap<String, Bundle>>,
    with: Option<String>,
    give: Option<Bundle>,
    get: Option<Bundle>,
    bonus: Option<String>,
    card: Option<String>,
    road_trade: Option<RawRoadTrade>,
    refill: Option<String>,
    event: Option<String>,
    effect: Option<BTreeMap<String, BTreeMap<String, i16>>>,
    cards: Option<Bundle>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoadTrade {
    give: String,
    instead_of: String,
}

fn seat(state: &State, name: &str, field: &str) -> Result<Seat, String> {
    field::player(state.seating.iter().map(|s| s.name.as_str()), name, field)
}

/// Reads one event line against the current state (for player names).
pub fn parse(state: &State, line: &str) -> Result<Event, EventError> {
    let raw: Raw = serde_json::from_str(line).map_err(EventError::from_json)?;
    Ok(parse_raw(state, raw)?)
}

fn parse_raw(state: &State, raw: Raw) -> Result<Event, String> {
    let kind = raw.kind.as_deref().ok_or("the event has no `type`")?;
    let player = seat(state, field::required(raw.player.as_deref(), kind, "player")?, "player")?;
    Ok(match kind {
        "harvest" => {
            let mut draws = vec![Bundle::default(); state.players.len()];
            for (name, cards) in field::required(raw.draws.as_ref(), kind, "draws")? {
                draws[seat(state, name, "draws")? as usize] = *cards;
            }
            Event::Harvest { player, draws }
        }
        "trade" => Event::Trade {
            player,
            with: seat(state, field::required(raw.with.as_deref(), kind, "with")?, "with")?,
            give: field::required(raw.give, kind, "give")?,
            get: field::required(raw.get, kind, "get")?,
            bonus: raw.bonus.as_deref().map(ResourceCard::parse).transpose()?,
        },
        "build" => {
            let card = Card::parse(field::required(raw.card.as_deref(), kind, "card")?)?;
            let road_trade = match &raw.road_trade {
                None => None,
                Some(t) => {
                    Some(RoadTrade { give: Resource::parse(&t.give)?, instead_of: Resource::parse(&t.instead_of)? })
                }
            };
            let refill = match raw.refill.as_deref() {
                None => None,
                Some(c) => Some(Card::parse(c)?),
            };
            let event = match raw.event.as_deref() {
                None if raw.effect.is_some() => return Err("build: an `effect` without the `event` that had it".into()),
                None => None,
                Some(name) => {
                    let mut effect = Vec::new();
                    for (who, deltas) in raw.effect.iter().flatten() {
                        let (mut gain, mut lose) = (Bundle::default(), Resources::NONE);
                        for (item, &n) in deltas {
                            let count = n.unsigned_abs() as u8;
                            match (item.as_str(), n > 0) {
                                (UNKNOWN, true) => gain.unknown += count,
                                (UNKNOWN, false) => {
                                    return Err("effect: a card given up is seen; name it, not `unknown`".into())
                                }
                                (name, true) => gain.known[Resource::parse(name)?] += count,
                                (name, false) => lose[Resource::parse(name)?] += count,
                            }
                        }
                        effect.push((seat(state, who, "effect")?, gain, lose));
                    }
                    effect.sort_by_key(|(who, _, _)| *who);
                    Some(EventCard { name: event_name(name)?, effect })
                }
            };
            Event::Build { player, card, road_trade, refill, event }
        }
        "discard" => Event::Discard { player, cards: field::required(raw.cards, kind, "cards")? },
        "end_turn" => Event::EndTurn { player },
        "bank_trade" | "maritime_trade" | "road_trade" => {
            return Err(format!(
                "there is no `{kind}`: a road trade happens only while building, once a turn, and replaces one missing \
                 resource of the card bought (`road_trade` in a `build` event)"
            ))
        }
        other => return Err(format!("unknown event type `{other}` (known: {})", EVENT_TYPES.join(", "))),
    })
}

/// Writes an event as one almanac/1 line.
pub fn write(state: &State, event: &Event) -> String {
    let name = |s: Seat| Value::String(state.name(s).to_string());
    let mut m = Map::new();
    m.insert("type".into(), json!(event.kind()));
    m.insert("player".into(), name(event.player()));
    match event {
        Event::Harvest { draws, .. } => {
            let by_player = draws.iter().enumerate().map(|(s, b)| (state.name(s as Seat).to_string(), json!(b)));
            m.insert("draws".into(), Value::Object(by_player.collect()));
        }
        Event::Trade { with, give, get, bonus, .. } => {
            m.insert("with".into(), name(*with));
            m.insert("give".into(), json!(give));
            m.insert("get".into(), json!(get));
            if let Some(b) = bonus {
                m.insert("bonus".into(), json!(b.name()));
            }
        }
        Event::Build { card, road_trade, refill, event, .. } => {
            m.insert("card".into(), json!(card.name()));
            if let Some(t) = road_trade {
                m.insert("road_trade".into(), json!({"give": t.give.name(), "instead_of": t.instead_of.name()}));
            }
            if let Some(r) = refill {
                m.insert("refill".into(), json!(r.name()));
            }
            if let Some(e) = event {
                m.insert("event".into(), json!(e.name));
                if !e.effect.is_empty() {
                    let mut effect = Map::new();
                    for (who, gain, lose) in &e.effect {
                        let mut deltas = Map::new();
                        for (item, n) in gain.items() {
                            deltas.insert(item.to_string(), json!(n));
                        }
                        for (r, n) in lose.present() {
                            deltas.insert(r.name().to_string(), json!(-(n as i32)));
                        }
                        effect.insert(state.name(*who).to_string(), Value::Object(deltas));
                    }
                    m.insert("effect".into(), Value::Object(effect));
                }
            }
        }
        Event::Discard { cards, .. } => {
            m.insert("cards".into(), json!(cards));
        }
        Event::EndTurn { .. } => {}
    }
    Value::Object(m).to_string()
}
