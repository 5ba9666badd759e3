//! A random legal player for property tests: it plays whole games of the `catan` ruleset by choosing,
//! at each step, among events it builds from the state, keeping only those the rules accept.
//! The randomness is a small seeded generator, so a failing seed replays exactly.

#![allow(dead_code)]

use almanac_catan::board::{EdgeId, VertexId};
use almanac_catan::development::DevCard;
use almanac_catan::event::Event;
use almanac_catan::helpers::{self as helpers, AfterUse, HelperAction, HelperUse};
use almanac_catan::resources::{Bundle, Resource, ResourceCard, Resources};
use almanac_catan::state::Phase;
use almanac_catan::{Catan, State};
use almanac_core::{Ruleset, Seat};
use serde_json::{json, Value};

use almanac_core::testing::SeededRng;

/// The beginners' board for 2-4 players, the 30-hex board of the extension for 5-6.
pub fn board(players: usize) -> Value {
    let text = if players >= 5 { include_str!("../board-5-6.json") } else { include_str!("../beginner-board.json") };
    serde_json::from_str(text).unwrap()
}

pub fn header(players: usize, options: Value) -> Value {
    let board = board(players);
    let names = ["Ana", "Bo", "Cem", "Dilek", "Emre", "Fatma"];
    json!({
        "format": "almanac/1", "ruleset": "catan", "options": options,
        "players": names[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "board": board,
    })
}

/// A generated game: the events as the omniscient recorder saw them, and as an observer would log them
/// (steals and development card purchases of unknown type).
pub struct Generated {
    pub header: Value,
    pub events: Vec<Event>,
    pub observer: Vec<Event>,
}

fn try_apply(s: &State, ev: &Event) -> Option<State> {
    let mut t = s.clone();
    let mut facts = Vec::new();
    almanac_catan::rules::apply(&mut t, ev, &mut facts).ok().map(|_| t)
}

/// A random card of a hand the generator knows completely.
fn random_card(rng: &mut SeededRng, known: &Resources) -> Option<Resource> {
    rng.counted(known.iter().map(|(r, n)| (r, u32::from(n))))
}

/// A random resource.
fn any_resource(rng: &mut SeededRng) -> Resource {
    Resource::ALL[rng.below(5)]
}

/// Plays a random legal game of at most `max_events` events.
pub fn play(seed: u64, players: usize, max_events: usize) -> Generated {
    play_from(seed, header(players, json!({"vp_target": 8})), max_events)
}

/// Plays a random legal game from a given header.
pub fn play_from(seed: u64, header: Value, max_events: usize) -> Generated {
    let mut rng = SeededRng::new(seed);
    let mut s = Catan::initial(&header.to_string()).unwrap();
    // The truth: the state as the omniscient recorder sees it (no unknown cards).
    let mut events = Vec::new();
    let mut observer = Vec::new();
    let mut deck: Vec<DevCard> =
        s.equipment.deck.iter().flat_map(|(c, n)| std::iter::repeat_n(c, n as usize)).collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    while events.len() < max_events && s.winner.is_none() {
        let Some(ev) = choose(&mut rng, &s, &mut deck) else {
            break;
        };
        let t = try_apply(&s, &ev).unwrap_or_else(|| panic!("the generator chose an illegal event: {ev:?}"));
        observer.push(match &ev {
            Event::MoveRobber { player, hex, victim, stolen: Some(_) } => {
                Event::MoveRobber { player: *player, hex: *hex, victim: *victim, stolen: Some(ResourceCard::Unknown) }
            }
            Event::BuyDevelopment { player, .. } => Event::BuyDevelopment { player: *player, card: None },
            // What a monopoly takes is public: everyone hands the cards over openly.
            Event::PlayMonopoly { player, resource, .. } => Event::PlayMonopoly {
                player: *player,
                resource: *resource,
                taken: Some(
                    (0..s.players.len() as Seat)
                        .filter(|o| o != player)
                        .map(|o| (o, s.players[o as usize].hand.known[*resource]))
                        .collect(),
                ),
            },
            other => other.clone(),
        });
        events.push(ev);
        s = t;
    }
    // The winner shows the victory point cards that won the game.
    if let Some(w) = s.winner {
        let hidden = s.players[w as usize].dev.held[DevCard::VictoryPoint];
        if hidden > 0 {
            let reveal = Event::RevealVictoryPoints { player: w, count: Some(hidden) };
            events.push(reveal.clone());
            observer.push(reveal);
        }
    }
    Generated { header, events, observer }
}

/// The header of a game of the Helpers scenario.
pub fn header_with_helpers(players: usize) -> Value {
    let mut h = header(players, json!({"vp_target": 8}));
    h["helpers"] = json!({"stack": ["Nassir", "Jean", "Lin", "Hilde", "Louis", "William"]});
    h
}

fn choose(rng: &mut SeededRng, s: &State, deck: &mut Vec<DevCard>) -> Option<Event> {
    if s.helpers.is_some() && rng.chance(25) {
        if let Some(ev) = helper_use(rng, s, deck) {
            return Some(ev);
        }
    }
    let n = s.players.len() as Seat;
    let me = s.active;
    let nv = s.board.vertices.len() as VertexId;
    let ne = s.board.edges.len() as EdgeId;
    match s.phase {
        Phase::Setup { step, settlement } => {
            let p = s.setup_seat(step);
            match settlement {
                None => (0..200)
                    .map(|_| Event::BuildSettlement { player: p, at: rng.below(nv as usize) as VertexId })
                    .find(|e| try_apply(s, e).is_some()),
                // Now and then a program's server takes the settlement back before its road.
                Some(v) if step as usize >= s.players.len() && rng.chance(3) => {
                    Some(Event::TakeBack { player: p, at: v })
                }
                Some(v) => {
                    let edges = s.board.vertices[v as usize].edges;
                    let e = edges[rng.below(edges.len())];
                    Some(Event::BuildRoad { player: p, at: e })
                }
            }
        }
        Phase::BeforeRoll => {
            // Now and then a player's time runs out before the roll.
            if rng.chance(1) {
                return Some(Event::TimeOut { player: me });
            }
            if rng.chance(20) {
                let knight = Event::PlayKnight { player: me };
                if try_apply(s, &knight).is_some() {
                    return Some(knight);
                }
            }
            Some(Event::Roll {
                player: me,
                dice: [1 + rng.below(6) as u8, 1 + rng.below(6) as u8].into(),
                production: None,
            })
        }
        Phase::Discard => {
            let p = (0..n).find(|&p| s.must_discard[p as usize] > 0)?;
            let mut known = s.players[p as usize].hand.known;
            let mut cards = Bundle::default();
            for _ in 0..s.must_discard[p as usize] {
                let r = random_card(rng, &known)?;
                known[r] -= 1;
                cards.known[r] += 1;
            }
            Some(Event::Discard { player: p, cards })
        }
        Phase::MoveRobber { .. } => {
            for _ in 0..100 {
                let hex = rng.below(s.board.hexes.len()) as u8;
                if hex == s.robber {
                    continue;
                }
                let victims: Vec<Seat> = s.board.hexes[hex as usize]
                    .corners
                    .iter()
                    .filter_map(|&v| s.buildings[v as usize].map(|b| b.owner))
                    .filter(|&o| o != me && s.players[o as usize].hand.total() > 0)
                    .collect();
                if victims.is_empty() {
                    return Some(Event::MoveRobber { player: me, hex, victim: None, stolen: None });
                }
                let v = victims[rng.below(victims.len())];
                let card = random_card(rng, &s.players[v as usize].hand.known)?;
                return Some(Event::MoveRobber {
                    player: me,
                    hex,
                    victim: Some(v),
                    stolen: Some(ResourceCard::Known(card)),
                });
            }
            None
        }
        Phase::Main => {
            if s.free_roads > 0 {
                let start = rng.below(ne as usize);
                return (0..ne)
                    .map(|k| Event::BuildRoad { player: me, at: ((start + k as usize) % ne as usize) as EdgeId })
                    .find(|e| try_apply(s, e).is_some())
                    .or(Some(Event::EndTurn { player: me }));
            }
            let hand = s.players[me as usize].hand.known;
            for _ in 0..12 {
                let ev = match rng.below(12) {
                    0..=3 => match build(rng, s, me, deck) {
                        Some(ev) => ev,
                        None => continue,
                    },
                    4 => continue,
                    5 => match rng.below(4) {
                        0 => Event::PlayRoadBuilding { player: me },
                        1 => {
                            let mut take = Bundle::default();
                            take.known[any_resource(rng)] += 1;
                            take.known[any_resource(rng)] += 1;
                            Event::PlayYearOfPlenty { player: me, take }
                        }
                        2 => Event::PlayMonopoly { player: me, resource: any_resource(rng), taken: None },
                        _ => Event::PlayKnight { player: me },
                    },
                    6 => {
                        let Some(r) = random_card(rng, &hand) else {
                            continue;
                        };
                        let mut give = Bundle::default();
                        give.known[r] = [2, 3, 4][rng.below(3)];
                        let mut get = Bundle::default();
                        get.known[Resource::ALL[(r as usize + 1 + rng.below(4)) % 5]] = 1;
                        Event::MaritimeTrade { player: me, give, get }
                    }
                    7 => {
                        let with = (me + 1 + rng.below(n as usize - 1) as Seat) % n;
                        let (Some(a), Some(b)) =
                            (random_card(rng, &hand), random_card(rng, &s.players[with as usize].hand.known))
                        else {
                            continue;
                        };
                        if a == b {
                            continue;
                        }
                        let mut give = Bundle::default();
                        give.known[a] = 1;
                        let mut get = Bundle::default();
                        get.known[b] = 1;
                        Event::Trade { player: me, with, give, get }
                    }
                    8..=10 => continue,
                    _ => Event::EndTurn { player: me },
                };
                if try_apply(s, &ev).is_some() {
                    if let Event::BuyDevelopment { .. } = ev {
                        deck.pop();
                    }
                    return Some(ev);
                }
            }
            Some(Event::EndTurn { player: me })
        }
        Phase::SpecialBuilding { after, last } => {
            // Now and then a later player builds; otherwise the next player's turn begins.
            if rng.chance(35) {
                let later: Vec<Seat> = (1..n)
                    .map(|k| (after + k) % n)
                    .filter(|&x| (x + n - after) % n >= (last + n - after) % n)
                    .collect();
                let who = later[rng.below(later.len())];
                for _ in 0..4 {
                    if let Some(ev) = build(rng, s, who, deck) {
                        if try_apply(s, &ev).is_some() {
                            if let Event::BuyDevelopment { .. } = ev {
                                deck.pop();
                            }
                            return Some(ev);
                        }
                    }
                }
            }
            let next = (after + 1) % n;
            Some(Event::Roll {
                player: next,
                dice: [1 + rng.below(6) as u8, 1 + rng.below(6) as u8].into(),
                production: None,
            })
        }
        Phase::Over => None,
    }
}

/// A random build or purchase for `me` (a city on an own settlement, a settlement or road near the own
/// network, or the deck's next card); it may still be illegal (cost, pieces).
fn build(rng: &mut SeededRng, s: &State, me: Seat, deck: &[DevCard]) -> Option<Event> {
    let nv = s.board.vertices.len() as VertexId;
    let ne = s.board.edges.len() as EdgeId;
    match rng.below(4) {
        0 => {
            let mine: Vec<VertexId> =
                (0..nv).filter(|&v| s.buildings[v as usize].is_some_and(|b| b.owner == me && !b.city)).collect();
            (!mine.is_empty()).then(|| Event::BuildCity { player: me, at: mine[rng.below(mine.len())] })
        }
        1 => {
            let start = rng.below(nv as usize);
            (0..nv)
                .map(|k| ((start + k as usize) % nv as usize) as VertexId)
                .find(|&v| try_apply(s, &Event::BuildSettlement { player: me, at: v }).is_some())
                .map(|v| Event::BuildSettlement { player: me, at: v })
        }
        2 => {
            let near: Vec<EdgeId> = (0..ne)
                .filter(|&e| {
                    s.roads[e as usize].is_none()
                        && s.board.edges[e as usize].ends.iter().any(|&v| {
                            s.board.vertices[v as usize].edges.iter().any(|&o| s.roads[o as usize] == Some(me))
                        })
                })
                .collect();
            (!near.is_empty()).then(|| Event::BuildRoad { player: me, at: near[rng.below(near.len())] })
        }
        _ => deck.last().map(|&c| Event::BuyDevelopment { player: me, card: Some(c) }),
    }
}

/// A random use of a helper by the player whose turn it is, or by a holder of Marianne or Sean.
fn helper_use(rng: &mut SeededRng, s: &State, deck: &mut Vec<DevCard>) -> Option<Event> {
    let h = s.helpers.as_ref()?;
    let n = s.players.len() as Seat;
    let mut users: Vec<Seat> = vec![s.active];
    users.extend((0..n).filter(|&p| h.held[p as usize].is_some_and(|c| helpers::any_turn(c.helper))));
    let p = users[rng.below(users.len())];
    let card = h.held[p as usize]?;
    let hand = s.players[p as usize].hand.known;
    let r = any_resource(rng);
    let action = match card.helper {
        helpers::CANDAMIR => {
            let k = deck.len().min(3);
            let drawn: Vec<DevCard> = deck[deck.len() - k..].iter().rev().copied().collect();
            let keep = *drawn.get(rng.below(k.max(1)))?;
            let mut pay = Bundle::known([0, 0, 1, 1, 1].into());
            let out = Resource::ALL[2 + rng.below(3)];
            pay.known[out] -= 1;
            pay.known[r] += 1;
            HelperAction::Candamir { pay, drawn, card: keep }
        }
        helpers::HILDE => {
            let richer: Vec<Seat> = (0..n).filter(|&o| s.vp_public(o) > s.vp_public(p)).collect();
            let victim = *richer.get(rng.below(richer.len().max(1)))?;
            HelperAction::Hilde {
                victim,
                took: ResourceCard::Known(random_card(rng, &s.players[victim as usize].hand.known)?),
            }
        }
        helpers::JEAN => HelperAction::Jean { resource: r },
        helpers::LIN => HelperAction::Lin { hex: None },
        helpers::LOUIS => {
            let mine: Vec<u16> = (0..s.roads.len() as u16).filter(|&e| s.roads[e as usize] == Some(p)).collect();
            let from = *mine.get(rng.below(mine.len().max(1)))?;
            HelperAction::Louis { from, to: rng.below(s.board.edges.len()) as u16 }
        }
        helpers::MARIANNE => HelperAction::Marianne { resource: r },
        helpers::NASSIR => {
            let others: Vec<Seat> = (0..n).filter(|&o| o != p).collect();
            let mut opponents = vec![others[rng.below(others.len())]];
            if others.len() > 1 && rng.chance(50) {
                let second = others[rng.below(others.len())];
                if second != opponents[0] {
                    opponents.push(second);
                }
            }
            let mut mine = hand;
            let mut returned = Vec::new();
            for &o in &opponents {
                if s.players[o as usize].hand.known[r] > 0 {
                    mine[r] += 1;
                    let c = random_card(rng, &mine)?;
                    mine[c] -= 1;
                    returned.push((o, c));
                }
            }
            returned.sort();
            HelperAction::Nassir { resource: r, opponents, received: None, returned }
        }
        helpers::SEAN => HelperAction::Sean { resource: (s.must_discard[p as usize] == 0).then_some(r) },
        helpers::VINCENT => {
            let city = rng.chance(50);
            let at = rng.below(s.board.vertices.len()) as u16;
            let at = if city {
                (0..s.board.vertices.len() as u16)
                    .find(|&v| s.buildings[v as usize].is_some_and(|b| b.owner == p && !b.city))
                    .unwrap_or(at)
            } else {
                at
            };
            HelperAction::Vincent { city, at }
        }
        _ => {
            let mut pay = Bundle::default();
            pay.known[Resource::ALL[rng.below(2)]] = 1;
            pay.known[r] += 1;
            let near: Vec<u16> = (0..s.roads.len() as u16)
                .filter(|&e| {
                    s.roads[e as usize].is_none()
                        && s.board.edges[e as usize].ends.iter().any(|&v| {
                            s.board.vertices[v as usize].edges.iter().any(|&o| s.roads[o as usize] == Some(p))
                        })
                })
                .collect();
            HelperAction::William { at: *near.get(rng.below(near.len().max(1)))?, pay }
        }
    };
    let after = if !card.b_side && rng.chance(50) {
        AfterUse::Flip
    } else {
        AfterUse::Swap(h.display[rng.below(h.display.len())])
    };
    let ev = Event::UseHelper(Box::new(HelperUse { player: p, helper: card.helper, action: action.clone(), after }));
    try_apply(s, &ev)?;
    if let HelperAction::Candamir { card, .. } = action {
        // The kept card leaves the deck; the other two go back and the deck is shuffled.
        let i = deck.iter().rposition(|&c| c == card)?;
        deck.remove(i);
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.below(i + 1));
        }
    }
    Some(ev)
}
