//! What may happen next in a game of Catan, for a table recorder: which seats may act in the state's phase
//! and with which event types, and the events to try for each (every corner, edge and hex for a placement).
//! Whether each is legal is the rules' own answer (`almanac_core::next`), not this file's.

use crate::development::DevCard;
use crate::event::{Event, LoggedEvent, Thrown};
use crate::resources::{Bundle, Resource, ResourceCard, Resources};
use crate::state::{Phase, SpecialBuildingRule, State};
use almanac_core::next::{Candidates, Decision};
use almanac_core::{Seat, Seated};

/// What a player may do in their own turn, once setup is over (the rules refuse what the moment does not
/// allow: a build before the roll, a second card played).
const IN_TURN: &[&str] = &[
    "roll",
    "play_knight",
    "build_road",
    "build_settlement",
    "build_city",
    "trade",
    "maritime_trade",
    "buy_development",
    "play_road_building",
    "play_year_of_plenty",
    "play_monopoly",
    "use_helper",
    "reveal_victory_points",
    "end_turn",
];

/// What the others may do in the Special Building Phase.
const SPECIAL_BUILDING: &[&str] = &["build_road", "build_settlement", "build_city", "buy_development"];

/// The decisions open in `s`.
pub fn open(s: &State) -> Vec<Decision> {
    let mut open = by_phase(s);
    // A helper may be used in another player's turn too (Marianne after a roll that paid its holder nothing):
    // whoever holds one may try.
    if let Some(helpers) = s.helpers.as_ref().filter(|_| s.winner.is_none() && !matches!(s.phase, Phase::Setup { .. }))
    {
        for p in s.seats().filter(|&p| helpers.held.get(p as usize).is_some_and(|c| c.is_some())) {
            match open.iter_mut().find(|d| d.seat == p) {
                Some(d) if !d.types.contains(&"use_helper") => d.types.push("use_helper"),
                Some(_) => {}
                None => open.push(Decision::new(p, &["use_helper"])),
            }
        }
    }
    open
}

/// The decisions the phase leaves open.
fn by_phase(s: &State) -> Vec<Decision> {
    let n = s.players.len() as Seat;
    if s.winner.is_some() {
        // After the end each player may still show their victory point cards.
        return s.seats().map(|p| Decision::new(p, &["reveal_victory_points"])).collect();
    }
    match s.phase {
        Phase::Setup { settlement: None, .. } => vec![Decision::new(s.active, &["build_settlement"])],
        Phase::Setup { settlement: Some(_), .. } => vec![Decision::new(s.active, &["build_road"])],
        Phase::Discard => s
            .seats()
            .filter(|&p| s.must_discard.get(p as usize).is_some_and(|&k| k > 0))
            .map(|p| Decision::new(p, &["discard"]))
            .collect(),
        Phase::MoveRobber { .. } => vec![Decision::new(s.active, &["move_robber", "use_helper"])],
        // The other side of a trade with the active player may record it too.
        Phase::Main => std::iter::once(Decision::new(s.active, IN_TURN))
            .chain(s.seats().filter(|&p| p != s.active).map(|p| Decision::new(p, &["trade"])))
            .collect(),
        Phase::BeforeRoll | Phase::Over => vec![Decision::new(s.active, IN_TURN)],
        Phase::SpecialBuilding { after, last } => {
            let order = |x: Seat| (x + n - after) % n;
            let next = (after + 1) % n;
            let jsettlers = s.options.special_building == SpecialBuildingRule::JSettlers;
            let mut open: Vec<Decision> = s
                .seats()
                .filter(|&p| jsettlers || (p != after && order(p) >= order(last)))
                .map(|p| Decision::new(p, SPECIAL_BUILDING))
                .collect();
            // The next player's first event of their own ends the phase.
            match open.iter_mut().find(|d| d.seat == next) {
                Some(d) => d.types.extend(IN_TURN.iter().filter(|t| !SPECIAL_BUILDING.contains(t))),
                None => open.push(Decision::new(next, IN_TURN)),
            }
            open
        }
    }
}

/// The events of type `kind` by `p` to try in `s`.
pub fn candidates(s: &State, p: Seat, kind: &str) -> Candidates<LoggedEvent> {
    let each = |events: Vec<Event>| Candidates::Each(events.into_iter().map(logged).collect());
    let one = |event: Event| each(vec![event]);
    let closed = || Candidates::Each(Vec::new());
    let vertices = || 0..s.board.vertices.len() as u16;
    let dev = s.players[p as usize].dev;
    match kind {
        "build_settlement" => each(vertices().map(|at| Event::BuildSettlement { player: p, at }).collect()),
        "build_city" => each(vertices().map(|at| Event::BuildCity { player: p, at }).collect()),
        "build_road" => each((0..s.board.edges.len() as u16).map(|at| Event::BuildRoad { player: p, at }).collect()),
        // Every hex, with every player who could be robbed there (the card taken is the recorder's to say:
        // `unknown` when it was not seen).
        "move_robber" => each(
            (0..s.board.hexes.len() as u8)
                .flat_map(|hex| {
                    let robbed = s.seats().map(move |v| Event::MoveRobber {
                        player: p,
                        hex,
                        victim: Some(v),
                        stolen: Some(ResourceCard::Unknown),
                    });
                    std::iter::once(Event::MoveRobber { player: p, hex, victim: None, stolen: None }).chain(robbed)
                })
                .collect(),
        ),
        // Both dice, each throw; or only the total, where the table says only that.
        "roll" => {
            let dice = (1..=6u8).flat_map(|a| (1..=6u8).map(move |b| Thrown::Dice([a, b])));
            let sums = (2..=12u8).map(Thrown::Sum);
            each(dice.chain(sums).map(|dice| Event::Roll { player: p, dice, production: None }).collect())
        }
        // The card drawn when the table saw it, or face down.
        "buy_development" => each(
            std::iter::once(None)
                .chain(DevCard::ALL.into_iter().map(Some))
                .map(|card| Event::BuyDevelopment { player: p, card })
                .collect(),
        ),
        "play_knight" => one(Event::PlayKnight { player: p }),
        "play_road_building" => one(Event::PlayRoadBuilding { player: p }),
        // Each resource; what each opponent is known to hold is what they hand over (with cards unseen, the
        // table says what it took).
        "play_monopoly" => each(
            Resource::ALL
                .into_iter()
                .map(|resource| {
                    let taken = s.seats().filter(|&o| o != p).map(|o| (o, s.players[o as usize].hand.known[resource]));
                    Event::PlayMonopoly { player: p, resource, taken: Some(taken.collect()) }
                })
                .collect(),
        ),
        // Two resources of the bank's, alike or not.
        "play_year_of_plenty" => each(
            Resource::ALL
                .into_iter()
                .enumerate()
                .flat_map(|(i, a)| Resource::ALL[i..].iter().map(move |&b| (a, b)))
                .map(|(a, b)| {
                    let mut take = Resources::of(a, 1);
                    take[b] += 1;
                    Event::PlayYearOfPlenty { player: p, take: Bundle::known(take) }
                })
                .collect(),
        ),
        // Every card that could be one shown at once: refused unless that wins (or the game is over).
        "reveal_victory_points" => {
            let possible = dev.held[DevCard::VictoryPoint] + dev.held_unknown;
            one(Event::RevealVictoryPoints { player: p, count: Some(possible) })
        }
        "end_turn" => one(Event::EndTurn { player: p }),
        // A trade's cards, a discard's cards and a helper's choices are the table's: nothing to try whole;
        // a trade is open when the rules' checks of its moment pass, a helper when one is held.
        "trade" | "maritime_trade" => {
            if crate::rules::may_trade_now(s) {
                Candidates::Untried
            } else {
                closed()
            }
        }
        "use_helper" => match &s.helpers {
            Some(h) if h.held.get(p as usize).is_some_and(|c| c.is_some()) => Candidates::Untried,
            _ => closed(),
        },
        _ => Candidates::Untried,
    }
}

fn logged(event: Event) -> LoggedEvent {
    LoggedEvent { event, stated: None }
}
