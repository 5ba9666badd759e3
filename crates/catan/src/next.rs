//! What may happen next in a game of Catan, for a table recorder: which seats may act in the state's phase
//! and with which event types, and the events to try for each (every corner, edge and hex for a placement).
//! Whether each is legal is the rules' own answer (`almanac_core::next`), not this file's.

use crate::development::DevCard;
use crate::event::{Event, LoggedEvent, Thrown};
use crate::resources::{Bundle, Resource, ResourceCard, Resources};
use crate::state::{Phase, SpecialBuildingRule, State};
use almanac_core::next::{Bound, Candidates, Count, Decision, Form};
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
    // What the rules would refuse at once is not tried: a build or a card the hand cannot pay for (its
    // unseen cards counted as any), a card the player does not hold, a second roll. The rules still judge
    // every event offered.
    let hand = &s.players[p as usize].hand;
    let affords = |cost: &Resources| Resource::ALL.into_iter().all(|r| hand.known[r] + hand.unknown >= cost[r]);
    let setup = matches!(s.phase, Phase::Setup { .. });
    let holds = |card: DevCard| dev.held[card] > 0 || dev.held_unknown > 0;
    let pointless = match kind {
        "build_road" => !setup && s.free_roads == 0 && !affords(&crate::resources::ROAD_COST),
        "build_settlement" => !setup && !affords(&crate::resources::SETTLEMENT_COST),
        "build_city" => !affords(&crate::resources::CITY_COST),
        "buy_development" => s.deck_left == 0 || !affords(&crate::resources::DEV_CARD_COST),
        "play_knight" => !holds(DevCard::Knight),
        "play_road_building" => !holds(DevCard::RoadBuilding),
        "play_year_of_plenty" => !holds(DevCard::YearOfPlenty),
        "play_monopoly" => !holds(DevCard::Monopoly),
        // (In the Special Building Phase the next player's roll is still to come.)
        "roll" => s.rolled && !matches!(s.phase, Phase::SpecialBuilding { .. }),
        _ => false,
    };
    if pointless {
        return closed();
    }
    match kind {
        // Only places the rules could take (a free corner touching the player's road after the set-up, a
        // settlement of theirs, a free edge touching their network): the rules still judge each, and the
        // search of a turn tries these thousands of times.
        "build_settlement" => each(
            vertices()
                .filter(|&v| {
                    s.building(v).is_none()
                        && (matches!(s.phase, Phase::Setup { .. })
                            || s.board.vertices[v as usize].edges.iter().any(|&e| s.road_owner(e) == Some(p)))
                })
                .map(|at| Event::BuildSettlement { player: p, at })
                .collect(),
        ),
        "build_city" => each(
            vertices()
                .filter(|&v| s.building(v).is_some_and(|b| b.owner == p && !b.city))
                .map(|at| Event::BuildCity { player: p, at })
                .collect(),
        ),
        "build_road" => each(
            (0..s.board.edges.len() as u16)
                .filter(|&e| s.road_owner(e).is_none() && crate::rules::build::road_connects(s, p, e))
                .map(|at| Event::BuildRoad { player: p, at })
                .collect(),
        ),
        // Every hex, with every other player who has a building there and each card they could lose
        // (`unknown` when the table did not see it; a card of theirs otherwise).
        "move_robber" => each(
            (0..s.board.hexes.len() as u8)
                .flat_map(|hex| {
                    let corners = &s.board.hexes[hex as usize].corners;
                    let robbed = s
                        .seats()
                        .filter(move |&v| {
                            v != p && corners.iter().any(|&c| s.building(c).is_some_and(|b| b.owner == v))
                        })
                        .flat_map(move |v| {
                            let hand = &s.players[v as usize].hand;
                            std::iter::once(ResourceCard::Unknown)
                                .chain(
                                    Resource::ALL
                                        .into_iter()
                                        .filter(move |&r| hand.known[r] > 0 || hand.unknown > 0)
                                        .map(ResourceCard::Known),
                                )
                                .map(move |card| Event::MoveRobber {
                                    player: p,
                                    hex,
                                    victim: Some(v),
                                    stolen: Some(card),
                                })
                        });
                    std::iter::once(Event::MoveRobber { player: p, hex, victim: None, stolen: None }).chain(robbed)
                })
                .collect(),
        ),
        // The total, which is what a table says (a pad of its keys, see `key`); or both dice, each pair of
        // faces once (which die showed which changes nothing in these rules).
        "roll" => {
            let sums = (2..=12u8).map(Thrown::Sum);
            let dice = (1..=6u8).flat_map(|a| (a..=6u8).map(move |b| Thrown::Dice([a, b])));
            each(sums.chain(dice).map(|dice| Event::Roll { player: p, dice, production: None }).collect())
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
        // Each resource: the rules count what the others hand over when every card is known; when some are
        // unseen, the table counts it out, each opponent at least what they are known to hold of it.
        "play_monopoly" => {
            let others = || s.seats().filter(move |&o| o != p);
            if others().all(|o| s.players[o as usize].hand.unknown == 0) {
                return each(
                    Resource::ALL.map(|resource| Event::PlayMonopoly { player: p, resource, taken: None }).to_vec(),
                );
            }
            let known = |r: Resource| others().map(|o| (o, s.players[o as usize].hand.known[r])).collect();
            let playable = |r: Resource| {
                let probe = Event::PlayMonopoly { player: p, resource: r, taken: Some(known(r)) };
                crate::rules::apply(&mut s.clone(), &probe, &mut Vec::new()).is_ok()
            };
            Candidates::Fill(
                Resource::ALL
                    .into_iter()
                    .filter(|&r| playable(r))
                    .map(|resource| {
                        let cards: Vec<Bound> = others()
                            .map(|o| {
                                let hand = &s.players[o as usize].hand;
                                let (least, most) =
                                    (hand.known[resource] as u32, (hand.known[resource] + hand.unknown) as u32);
                                Bound { card: s.name(o).to_string(), least, most }
                            })
                            .collect();
                        let (least, most) = (cards.iter().map(|c| c.least).sum(), cards.iter().map(|c| c.most).sum());
                        Form {
                            event: logged(Event::PlayMonopoly { player: p, resource, taken: Some(Vec::new()) }),
                            words: format!("plays monopoly on {resource}"),
                            counts: vec![Count { field: "taken", words: "hands over", cards, least, most }],
                            picks: Vec::new(),
                        }
                    })
                    .collect(),
            )
        }
        // Two resources of the bank's, alike or not.
        "play_year_of_plenty" => each(
            Resource::ALL
                .into_iter()
                .enumerate()
                .flat_map(|(i, a)| Resource::ALL[i..].iter().map(move |&b| (a, b)))
                .map(|(a, b)| {
                    let mut take = Resources::of(a, 1);
                    take[b] += 1;
                    take
                })
                // Fewer than two only from a short bank (the rules say when).
                .chain(Resource::ALL.into_iter().map(|a| Resources::of(a, 1)))
                .chain([Resources::default()])
                .map(|take| Event::PlayYearOfPlenty { player: p, take: Bundle::known(take) })
                .collect(),
        ),
        // Every card that could be one shown at once: refused unless that wins (or the game is over).
        "reveal_victory_points" => {
            let possible = dev.held[DevCard::VictoryPoint] + dev.held_unknown;
            one(Event::RevealVictoryPoints { player: p, count: Some(possible) })
        }
        "end_turn" => one(Event::EndTurn { player: p }),
        // A trade's cards are the table's to count out: one form per partner, each side bounded by what its
        // hand holds; open when the rules' checks of the moment pass. The active player trades with any
        // other; another player records a trade with the active one.
        "trade" if crate::rules::may_trade_now(s) => {
            let partners: Vec<Seat> =
                if p == s.active { s.seats().filter(|&o| o != p).collect() } else { vec![s.active] };
            Candidates::Fill(
                partners
                    .into_iter()
                    .map(|with| Form {
                        event: logged(Event::Trade {
                            player: p,
                            with,
                            give: Bundle::default(),
                            get: Bundle::default(),
                        }),
                        words: format!("trades with {}", s.name(with)),
                        counts: vec![hand_count(s, p, "give", "gives", 1), hand_count(s, with, "get", "gets", 1)],
                        picks: Vec::new(),
                    })
                    .collect(),
            )
        }
        // With the bank: each resource at each rate for one card of another (the rules keep the rates the
        // player's harbours give); and, when the hand holds enough for two cards at least, a form to count
        // out several at once.
        "maritime_trade" if crate::rules::may_trade_now(s) => Candidates::EachOrFill(
            Resource::ALL
                .into_iter()
                .flat_map(|give| {
                    // The rates the player's harbours give, for a hand that holds as many.
                    let hand = &s.players[p as usize].hand;
                    let held = hand.known[give] + hand.unknown;
                    let rates = crate::rules::trade::rates(s, p, give);
                    [2u8, 3, 4].into_iter().filter(move |r| rates.contains(r) && held >= *r).flat_map(move |rate| {
                        Resource::ALL.into_iter().filter(move |&get| get != give).map(move |get| Event::MaritimeTrade {
                            player: p,
                            give: Bundle::known(Resources::of(give, rate)),
                            get: Bundle::known(Resources::of(get, 1)),
                        })
                    })
                })
                .map(logged)
                .collect(),
            bank_form(s, p),
        ),
        "trade" | "maritime_trade" => closed(),
        // Half the hand, counted out by its holder.
        "discard" => match s.must_discard.get(p as usize) {
            Some(&k) if k > 0 && matches!(s.phase, Phase::Discard) => {
                let mut count = hand_count(s, p, "cards", "discards", k as u32);
                count.most = k as u32;
                Candidates::Fill(vec![Form {
                    event: logged(Event::Discard { player: p, cards: Bundle::default() }),
                    words: format!("discards {k} cards"),
                    counts: vec![count],
                    picks: Vec::new(),
                }])
            }
            _ => closed(),
        },
        "use_helper" => Candidates::Fill(crate::helper_uses::forms(s, p)),
        _ => Candidates::Untried,
    }
}

/// A roll's total is the key a table taps for it (see `almanac_core::next::Shown`).
pub fn key(_s: &State, event: &LoggedEvent) -> Option<String> {
    match event.event {
        Event::Roll { dice: Thrown::Sum(total), .. } => Some(total.to_string()),
        _ => None,
    }
}

/// Several cards from the bank in one trade: what the hand gives (a multiple of a rate for each resource,
/// which the rules check) and what the bank holds to get; offered when the hand buys two cards at least,
/// each resource at the best rate the rules give this player for it.
fn bank_form(s: &State, p: Seat) -> Vec<Form<LoggedEvent>> {
    let hand = &s.players[p as usize].hand;
    let buys: u32 =
        Resource::ALL.into_iter().map(|r| (hand.known[r] / crate::rules::trade::rates(s, p, r)[0]) as u32).sum();
    if buys < 2 {
        return Vec::new();
    }
    let mut give = hand_count(s, p, "give", "gives the bank", 4);
    for b in &mut give.cards {
        let r = Resource::from_name(&b.card).expect("a resource");
        b.most = hand.known[r] as u32;
    }
    give.most = hand.known.total();
    let cards: Vec<Bound> = Resource::ALL
        .into_iter()
        .map(|r| Bound { card: r.name().to_string(), least: 0, most: s.bank[r] as u32 })
        .collect();
    Vec::from([Form {
        event: logged(Event::MaritimeTrade { player: p, give: Bundle::default(), get: Bundle::default() }),
        words: "trades several cards with the bank".to_string(),
        counts: vec![give, Count { field: "get", words: "gets", cards, least: 2, most: buys }],
        picks: Vec::new(),
    }])
}

/// The cards of seat `p`'s hand as a field to count out: each resource up to what the hand may hold of it
/// (its known cards and any it holds unseen).
fn hand_count(s: &State, p: Seat, field: &'static str, words: &'static str, least: u32) -> Count {
    let hand = &s.players[p as usize].hand;
    let cards: Vec<Bound> = Resource::ALL
        .into_iter()
        .map(|r| Bound { card: r.name().to_string(), least: 0, most: (hand.known[r] + hand.unknown) as u32 })
        .collect();
    Count { field, words, cards, least, most: hand.total() }
}

fn logged(event: Event) -> LoggedEvent {
    LoggedEvent { event, stated: None }
}

/// The decision an event took: without what the record states of its result.
pub fn choice(event: &LoggedEvent) -> LoggedEvent {
    LoggedEvent { event: event.event.clone(), stated: None }
}

/// What a decision could have drawn, with the probabilities: the dice are each total by its chance (a throw
/// is never a choice); a development card bought is each card the
/// deck may still hold, by how many of it are left once the cards seen drawn are taken out (the face-down
/// purchase first, weighing nothing: it names the decision); a card stolen is face down, since what a
/// position is made of counts cards, not their kinds.
pub fn outcomes(s: &State, e: &LoggedEvent) -> Vec<(LoggedEvent, f64)> {
    match e.event {
        Event::BuyDevelopment { player, .. } => {
            let buy = |card| logged(Event::BuyDevelopment { player, card });
            let left = s
                .equipment
                .deck
                .iter()
                .zip(s.deck_drawn.iter())
                .map(|((card, all), (_, seen))| (buy(Some(card)), f64::from(all.saturating_sub(seen))));
            let mut all: Vec<(LoggedEvent, f64)> = std::iter::once((buy(None), 0.0)).chain(left).collect();
            if all.iter().all(|(_, w)| *w == 0.0) {
                all.truncate(1);
                all[0].1 = 1.0;
            }
            all
        }
        // The dice: every total by its chance, whichever throw the table saw.
        Event::Roll { player, .. } => (2..=12u8)
            .map(|sum| {
                let ways = 6 - (i32::from(sum) - 7).abs();
                (logged(Event::Roll { player, dice: Thrown::Sum(sum), production: None }), f64::from(ways) / 36.0)
            })
            .collect(),
        Event::MoveRobber { player, hex, victim: Some(victim), stolen: Some(_) } => vec![(
            logged(Event::MoveRobber { player, hex, victim: Some(victim), stolen: Some(ResourceCard::Unknown) }),
            1.0,
        )],
        _ => vec![(e.clone(), 1.0)],
    }
}
