//! The events of a `catan-cards` log, read from and written to almanac/1 lines (docs/formats/catan-cards.md).
//!
//! Every event names its `player`. Cards are bundles like `{"ore": 2, "unknown": 1}`; what the rules leave
//! open (the cards drawn, the card that refills the row, the event card revealed and what it did) is in
//! the log.

use crate::cards::Card;
use crate::setup::event_name;
use crate::state::State;
use almanac_catan::resources::{Bundle, Resource, ResourceCard, Resources, UNKNOWN};
use almanac_core::field::{self, ByName};
use almanac_core::{EventError, Seat, Table};
use serde::{Deserialize, Serialize};
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

/// An event; its variant's name, in snake case, is its line's `type`.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr, strum::VariantNames, almanac_core::Acting)]
#[strum(serialize_all = "snake_case")]
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
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// An event line as written: players by name, cards by their words. Serde reads and writes it;
/// `Event` is what it says, checked against the table.
#[derive(Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Line {
    Harvest {
        player: String,
        draws: ByName<Bundle>,
    },
    Trade {
        player: String,
        with: String,
        give: Bundle,
        get: Bundle,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus: Option<String>,
    },
    Build {
        player: String,
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        road_trade: Option<RoadTradeLine>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refill: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        event: Option<String>,
        /// Per player touched: cards drawn (positive) and given up (negative).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<ByName<ByName<i16>>>,
    },
    Discard {
        player: String,
        cards: Bundle,
    },
    EndTurn {
        player: String,
    },
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RoadTradeLine {
    give: String,
    instead_of: String,
}

/// Why a type of the base game is no event here.
fn refused(kind: &str) -> Option<String> {
    matches!(kind, "bank_trade" | "maritime_trade" | "road_trade").then(|| {
        format!(
            "there is no `{kind}`: a road trade happens only while building, once a turn, and replaces one missing \
             resource of the card bought (`road_trade` in a `build` event)"
        )
    })
}

fn event_of(table: &Table, line: Line) -> Result<Event, String> {
    Ok(match line {
        Line::Harvest { player, draws } => {
            let mut by_seat = vec![Bundle::default(); table.len()];
            for (name, cards) in draws.0 {
                by_seat[table.seat(&name, "draws")? as usize] = cards;
            }
            Event::Harvest { player: table.seat(&player, "player")?, draws: by_seat }
        }
        Line::Trade { player, with, give, get, bonus } => Event::Trade {
            player: table.seat(&player, "player")?,
            with: table.seat(&with, "with")?,
            give,
            get,
            bonus: bonus.as_deref().map(ResourceCard::parse).transpose()?,
        },
        Line::Build { player, card, road_trade, refill, event, effect } => {
            let player = table.seat(&player, "player")?;
            let card = Card::parse(&card)?;
            let road_trade = match road_trade {
                None => None,
                Some(t) => {
                    Some(RoadTrade { give: Resource::parse(&t.give)?, instead_of: Resource::parse(&t.instead_of)? })
                }
            };
            let refill = refill.as_deref().map(Card::parse).transpose()?;
            let event = match event {
                None if effect.is_some() => return Err("build: an `effect` without the `event` that had it".into()),
                None => None,
                Some(name) => Some(EventCard { name: event_name(&name)?, effect: effect_of(table, effect)? }),
            };
            Event::Build { player, card, road_trade, refill, event }
        }
        Line::Discard { player, cards } => Event::Discard { player: table.seat(&player, "player")?, cards },
        Line::EndTurn { player } => Event::EndTurn { player: table.seat(&player, "player")? },
    })
}

/// What an event card did, by seat: a name written twice counts as written last, as JSON objects read.
fn effect_of(table: &Table, effect: Option<ByName<ByName<i16>>>) -> Result<Vec<(Seat, Bundle, Resources)>, String> {
    let by_name: BTreeMap<String, ByName<i16>> = effect.map(|e| e.0.into_iter().collect()).unwrap_or_default();
    let mut out = Vec::new();
    for (who, deltas) in by_name {
        let deltas: BTreeMap<String, i16> = deltas.0.into_iter().collect();
        let (mut gain, mut lose) = (Bundle::default(), Resources::NONE);
        for (item, &n) in &deltas {
            let count = n.unsigned_abs() as u8;
            match (item.as_str(), n > 0) {
                (UNKNOWN, true) => gain.unknown += count,
                (UNKNOWN, false) => return Err("effect: a card given up is seen; name it, not `unknown`".into()),
                (name, true) => gain.known[Resource::parse(name)?] += count,
                (name, false) => lose[Resource::parse(name)?] += count,
            }
        }
        out.push((table.seat(&who, "effect")?, gain, lose));
    }
    out.sort_by_key(|(who, _, _)| *who);
    Ok(out)
}

impl almanac_core::Line for Event {
    type State = State;
    const TYPES: &'static [&'static str] = <Event as strum::VariantNames>::VARIANTS;

    /// Reads one event line against the current state (for player names).
    fn parse(state: &State, line: &str) -> Result<Event, EventError> {
        let line: Line = field::read_line(line, <Event as strum::VariantNames>::VARIANTS, refused)?;
        Ok(event_of(&state.table, line)?)
    }

    /// Writes an event as one almanac/1 line.
    fn write(&self, state: &State) -> String {
        let table = &state.table;
        let name = |s: Seat| table.name(s).to_string();
        let line = match self {
            Event::Harvest { player, draws } => Line::Harvest {
                player: name(*player),
                draws: ByName(draws.iter().enumerate().map(|(s, b)| (name(s as Seat), *b)).collect()),
            },
            Event::Trade { player, with, give, get, bonus } => Line::Trade {
                player: name(*player),
                with: name(*with),
                give: *give,
                get: *get,
                bonus: bonus.map(|b| b.name().to_string()),
            },
            Event::Build { player, card, road_trade, refill, event } => Line::Build {
                player: name(*player),
                card: card.name().to_string(),
                road_trade: road_trade.map(|t| RoadTradeLine {
                    give: t.give.name().to_string(),
                    instead_of: t.instead_of.name().to_string(),
                }),
                refill: refill.map(|r| r.name().to_string()),
                event: event.as_ref().map(|e| e.name.clone()),
                effect: event.as_ref().filter(|e| !e.effect.is_empty()).map(|e| {
                    ByName(
                        e.effect
                            .iter()
                            .map(|(who, gain, lose)| {
                                let mut deltas: Vec<(String, i16)> =
                                    gain.items().into_iter().map(|(item, n)| (item.to_string(), n as i16)).collect();
                                deltas.extend(lose.present().map(|(r, n)| (r.name().to_string(), -(n as i16))));
                                (name(*who), ByName(deltas))
                            })
                            .collect(),
                    )
                }),
            },
            Event::Discard { player, cards } => Line::Discard { player: name(*player), cards: *cards },
            Event::EndTurn { player } => Line::EndTurn { player: name(*player) },
        };
        serde_json::to_string(&line).expect("an event line writes into memory")
    }
}
