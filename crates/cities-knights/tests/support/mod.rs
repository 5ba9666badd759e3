//! A random legal player for property tests and samples: it plays whole games of `cities-knights` by
//! choosing, at each step, among events it builds from the state, keeping only those the rules accept. It
//! holds the real progress decks (shuffled by a seeded generator, so a failing seed replays exactly).

#![allow(dead_code)]

use almanac_catan::board::{EdgeId, HexId, VertexId};
use almanac_catan::pieces::Building;
use almanac_catan::resources::Resource;
use almanac_cities_knights::cards::{Bundle, Card, Cards, Commodity};
use almanac_cities_knights::event::{Draw, Event, Offer, Play};
use almanac_cities_knights::progress::{draws, HeldCard, Progress, Track};
use almanac_cities_knights::state::{EventDie, Phase, State, BARBARIAN_SPACES, MAX_PROGRESS};
use almanac_cities_knights::CitiesKnights;
use almanac_core::testing::{self, SeededRng};
use almanac_core::Seated;
use almanac_core::{Ruleset, Seat};
use serde_json::{json, Value};

pub fn board() -> Value {
    serde_json::from_str(include_str!("../../../catan/tests/beginner-board.json")).unwrap()
}

pub fn header(players: usize) -> Value {
    let names = ["Hanne", "Gitte", "CD", "Carsten"];
    json!({
        "format": "almanac/1", "ruleset": "cities-knights",
        "players": names[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "board": board(),
    })
}

/// A generated game: as the omniscient recorder saw it, and as an observer logs it (cards drawn,
/// stolen and spied unseen).
pub struct Generated {
    pub header: Value,
    pub events: Vec<Event>,
    pub observer: Vec<Event>,
}

/// The three progress decks, top card first.
struct Decks([Vec<Progress>; 3]);

impl Decks {
    fn new(rng: &mut SeededRng) -> Decks {
        let mut decks: [Vec<Progress>; 3] = Default::default();
        for t in Track::ALL {
            let d = &mut decks[t as usize];
            d.extend(Progress::of(t).flat_map(|p| std::iter::repeat_n(p, p.count() as usize)));
            rng.shuffle(d);
        }
        Decks(decks)
    }

    fn top(&mut self, t: Track) -> Option<Progress> {
        let d = &mut self.0[t as usize];
        (!d.is_empty()).then(|| d.remove(0))
    }

    fn under(&mut self, c: Progress) {
        self.0[c.track() as usize].push(c);
    }
}

fn known(c: Progress) -> HeldCard {
    HeldCard { track: c.track(), card: Some(c) }
}

fn random_card(rng: &mut SeededRng, hand: &Cards) -> Option<Card> {
    rng.counted(hand.present().map(|(c, n)| (c, u32::from(n))))
}

fn random_cards(rng: &mut SeededRng, hand: &Cards, n: u32) -> Bundle {
    let mut left = *hand;
    let mut b = Bundle::default();
    for _ in 0..n {
        let Some(c) = random_card(rng, &left) else { break };
        left[c] -= 1;
        b.known[c] += 1;
    }
    b
}

fn pick<T: Copy>(rng: &mut SeededRng, v: &[T]) -> Option<T> {
    (!v.is_empty()).then(|| v[rng.below(v.len())])
}

pub fn play(seed: u64, players: usize, max_events: usize) -> Generated {
    play_from(seed, header(players), max_events)
}

pub fn play_from(seed: u64, header: Value, max_events: usize) -> Generated {
    let mut rng = SeededRng::new(seed);
    let mut s = CitiesKnights::initial(&header.to_string()).unwrap();
    let mut decks = Decks::new(&mut rng);
    let mut events = Vec::new();
    let mut observer = Vec::new();
    while events.len() < max_events && s.winner.is_none() {
        let Some(ev) = choose(&mut rng, &s, &mut decks) else { break };
        let t = testing::chosen(&s, &ev);
        observer.push(as_observer(&ev));
        // Played and returned cards go under their decks.
        match &ev {
            Event::PlayProgress { play, .. } => decks.under(play.card()),
            Event::ReturnProgress { card, .. } => decks.under(card.card.unwrap()),
            _ => {}
        }
        s = t;
        for t in Track::ALL {
            assert_eq!(decks.0[t as usize].len(), s.decks[t as usize] as usize, "the {} deck after {ev:?}", t.colour());
        }
        events.push(ev);
    }
    Generated { header, events, observer }
}

/// What a spectator sees of an event: progress cards drawn, returned, spied face down (their colour
/// shows); stolen cards unseen.
fn as_observer(ev: &Event) -> Event {
    let hide = |h: HeldCard| match h.card {
        Some(c) if c.is_victory_point() => h,
        _ => HeldCard { track: h.track, card: None },
    };
    match ev.clone() {
        Event::Roll { player, event, dice, drawn, pillaged, aqueduct } => Event::Roll {
            player,
            event,
            dice,
            drawn: drawn
                .into_iter()
                .map(|d| Draw { card: hide(d.card), returned: d.returned.map(hide), ..d })
                .collect(),
            pillaged,
            aqueduct,
        },
        Event::ReturnProgress { player, card } => Event::ReturnProgress { player, card: hide(card) },
        Event::MoveRobber { player, hex, victim, stolen } => {
            Event::MoveRobber { player, hex, victim, stolen: stolen.map(|_| None) }
        }
        Event::PlayProgress { player, play } => Event::PlayProgress {
            player,
            play: match play {
                Play::Bishop { hex, stolen } => {
                    Play::Bishop { hex, stolen: stolen.into_iter().map(|(q, _)| (q, None)).collect() }
                }
                Play::Spy { victim, taken } => Play::Spy { victim, taken: hide(taken) },
                Play::MasterMerchant { victim, taken } => {
                    Play::MasterMerchant { victim, taken: Bundle { known: Cards::NONE, unknown: taken.total() as u8 } }
                }
                other => other,
            },
        },
        other => other,
    }
}

fn choose(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Option<Event> {
    let me = s.active;
    let nv = s.board.vertices.len();
    match s.phase {
        Phase::Setup { step, placed } => {
            let p = s.setup_seat(step);
            let second = step as usize >= s.players.len();
            match placed {
                None => (0..400)
                    .map(|_| {
                        let at = rng.below(nv) as VertexId;
                        if second {
                            Event::BuildCity { player: p, at }
                        } else {
                            Event::BuildSettlement { player: p, at }
                        }
                    })
                    .find(|e| testing::tried(s, e).is_some()),
                Some(v) => {
                    let edges = s.board.vertices[v as usize].edges;
                    Some(Event::BuildRoad { player: p, at: edges[rng.below(edges.len())] })
                }
            }
        }
        Phase::BeforeRoll => {
            if s.players[me as usize].progress.could_hold(Progress::Alchemist) && rng.chance(50) {
                let ev = Event::PlayProgress {
                    player: me,
                    play: Play::Alchemist { dice: [1 + rng.below(6) as u8, 1 + rng.below(6) as u8] },
                };
                if testing::tried(s, &ev).is_some() {
                    return Some(ev);
                }
            }
            Some(roll(rng, s, decks))
        }
        Phase::Discard => {
            let p = s.seats().find(|&p| s.must_discard[p as usize] > 0)?;
            let cards = random_cards(rng, &s.players[p as usize].hand.known, s.must_discard[p as usize] as u32);
            Some(Event::Discard { player: p, cards })
        }
        Phase::MoveRobber => (0..100).find_map(|_| {
            let hex = rng.below(s.board.hexes.len()) as HexId;
            let victims = almanac_cities_knights::rules::roll::victims(s, me, hex);
            let victim = pick(rng, &victims);
            let stolen = victim.map(|q| random_card(rng, &s.players[q as usize].hand.known));
            let ev = Event::MoveRobber { player: me, hex, victim, stolen };
            testing::tried(s, &ev).map(|_| ev)
        }),
        Phase::Main => main(rng, s),
        Phase::Over => None,
    }
}

/// A roll with everything it brings, drawn from the real decks.
fn roll(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Event {
    let me = s.active;
    let dice = s.alchemist.unwrap_or([1 + rng.below(6) as u8, 1 + rng.below(6) as u8]);
    let event = match rng.below(6) {
        0..=2 => EventDie::Ship,
        3 => EventDie::Gate(Track::Trade),
        4 => EventDie::Gate(Track::Politics),
        _ => EventDie::Gate(Track::Science),
    };
    let order: Vec<Seat> = s.clockwise_from(me).collect();
    let mut owed: Vec<(Seat, Track)> = Vec::new();
    let mut pillaged = Vec::new();
    match event {
        EventDie::Gate(t) => {
            owed.extend(order.iter().filter(|&&q| draws(s.player(q).level(t), dice[0])).map(|&q| (q, t)));
        }
        EventDie::Ship if s.barbarians + 1 >= BARBARIAN_SPACES => {
            let strength: Vec<u32> = s.seats().map(|q| s.active_strength(q)).collect();
            if s.cities_on_board() > strength.iter().sum() {
                let exposed: Vec<Seat> = s.seats().filter(|&q| !s.plain_cities(q).is_empty()).collect();
                if let Some(low) = exposed.iter().map(|&q| strength[q as usize]).min() {
                    for q in exposed.into_iter().filter(|&q| strength[q as usize] == low) {
                        pillaged.push((q, pick(rng, &s.plain_cities(q)).unwrap()));
                    }
                }
            } else {
                let high = strength.iter().copied().max().unwrap_or(0);
                let top: Vec<Seat> =
                    order.iter().copied().filter(|&q| high > 0 && strength[q as usize] == high).collect();
                if top.len() > 1 {
                    owed.extend(top.into_iter().map(|q| (q, Track::ALL[rng.below(3)])));
                }
            }
        }
        EventDie::Ship => {}
    }
    let mut drawn = Vec::new();
    let mut held: Vec<Vec<HeldCard>> = s.players.iter().map(|p| p.progress.cards.clone()).collect();
    for (q, t) in owed {
        let Some(c) = decks.top(t) else { continue };
        let mut returned = None;
        if !c.is_victory_point() {
            held[q as usize].push(known(c));
            if held[q as usize].len() > MAX_PROGRESS && q != me {
                let i = rng.below(held[q as usize].len());
                let r = held[q as usize].remove(i);
                // Back under its deck at once: a later draw of this roll may reach it.
                decks.under(r.card.unwrap());
                returned = Some(r);
            }
        }
        drawn.push(Draw { player: q, card: known(c), returned });
    }
    // The Aqueduct: its owners who get nothing choose a resource; which ones get nothing, the rules know.
    let owners: Vec<Seat> = s.seats().filter(|&q| s.player(q).level(Track::Science) >= 3).collect();
    let base =
        Event::Roll { player: me, event, dice, drawn: drawn.clone(), pillaged: pillaged.clone(), aqueduct: vec![] };
    for mask in 0..(1usize << owners.len()) {
        let aqueduct: Vec<(Seat, Resource)> = owners
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &q)| (q, Resource::ALL[rng.below(5)]))
            .collect();
        let ev = Event::Roll { player: me, event, dice, drawn: drawn.clone(), pillaged: pillaged.clone(), aqueduct };
        if testing::tried(s, &ev).is_some() {
            return ev;
        }
    }
    base
}

fn own_vertices(s: &State, p: Seat, f: impl Fn(Option<Building>) -> bool) -> Vec<VertexId> {
    (0..s.board.vertices.len() as VertexId)
        .filter(|&v| s.building(v).is_some_and(|b| b.owner == p) && f(s.building(v)))
        .collect()
}

fn own_knights(s: &State, p: Seat) -> Vec<VertexId> {
    (0..s.board.vertices.len() as VertexId).filter(|&v| s.knight(v).is_some_and(|k| k.owner == p)).collect()
}

/// The first of `candidates` the rules accept.
fn first_legal(s: &State, candidates: impl IntoIterator<Item = Event>) -> Option<Event> {
    candidates.into_iter().find(|e| testing::tried(s, e).is_some())
}

fn main(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let p = s.player(me);
    let nv = s.board.vertices.len() as VertexId;
    let ne = s.board.edges.len() as EdgeId;
    // Road Building's roads first.
    if s.free_roads > 0 {
        if let Some(e) =
            first_legal(s, (0..60).map(|_| Event::BuildRoad { player: me, at: rng.below(ne as usize) as EdgeId }))
        {
            return Some(e);
        }
    }
    let mut tries: Vec<u8> = (0..14).collect();
    rng.shuffle(&mut tries);
    // Building what scores comes first, most of the time.
    if rng.chance(80) {
        tries.insert(0, 0);
        tries.insert(1, 1);
        tries.insert(2, 2);
    }
    for t in tries {
        let ev = match t {
            0 => first_legal(
                s,
                own_vertices(s, me, |b| b.is_some_and(|b| !b.city))
                    .into_iter()
                    .map(|at| Event::BuildCity { player: me, at }),
            ),
            1 => first_legal(
                s,
                (0..60).map(|_| Event::BuildSettlement { player: me, at: rng.below(nv as usize) as VertexId }),
            ),
            2 => {
                let mut tracks = Track::ALL;
                rng.shuffle(&mut tracks);
                let plain = s.plain_cities(me);
                first_legal(
                    s,
                    tracks.into_iter().flat_map(|track| {
                        [None, pick(rng, &plain)].into_iter().map(move |metropolis| Event::ImproveCity {
                            player: me,
                            track,
                            metropolis,
                        })
                    }),
                )
            }
            3 if s.barbarians >= 3 || rng.chance(30) => first_legal(
                s,
                (0..40).map(|_| Event::BuildKnight { player: me, at: rng.below(nv as usize) as VertexId }),
            ),
            4 => first_legal(s, own_knights(s, me).into_iter().map(|at| Event::ActivateKnight { player: me, at })),
            5 if rng.chance(40) => {
                first_legal(s, own_knights(s, me).into_iter().map(|at| Event::PromoteKnight { player: me, at }))
            }
            6 => first_legal(
                s,
                own_vertices(s, me, |b| b.is_some_and(|b| b.city))
                    .into_iter()
                    .map(|at| Event::BuildWall { player: me, at }),
            ),
            7 if rng.chance(50) => {
                first_legal(s, (0..40).map(|_| Event::BuildRoad { player: me, at: rng.below(ne as usize) as EdgeId }))
            }
            8 if rng.chance(30) => knight_action(rng, s),
            9 => maritime(rng, s),
            10 if rng.chance(20) => player_trade(rng, s),
            11 if rng.chance(40) || p.progress.len() > MAX_PROGRESS => progress_card(rng, s),
            _ => None,
        };
        if ev.is_some() {
            return ev;
        }
    }
    if p.progress.len() > MAX_PROGRESS {
        let card = p.progress.cards[rng.below(p.progress.len())];
        return Some(Event::ReturnProgress { player: me, card });
    }
    Some(Event::EndTurn { player: me })
}

fn knight_action(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let nv = s.board.vertices.len() as VertexId;
    let mine = own_knights(s, me);
    let from = pick(rng, &mine)?;
    if rng.chance(30) {
        let chase = Event::ChaseRobber { player: me, knight: from };
        if testing::tried(s, &chase).is_some() {
            return Some(chase);
        }
    }
    first_legal(
        s,
        (0..30).flat_map(|_| {
            let to = rng.below(nv as usize) as VertexId;
            let d = rng.below(nv as usize) as VertexId;
            [
                Event::MoveKnight { player: me, from, to, displaced_to: None },
                Event::MoveKnight { player: me, from, to, displaced_to: Some(d) },
            ]
        }),
    )
}

/// Trades what the player holds most of for what they lack, at their best rate.
fn maritime(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let hand = s.player(me).hand.known;
    let (give, n) = hand.present().max_by_key(|&(_, n)| n)?;
    let rate = almanac_cities_knights::rules::trade::rate(s, me, give);
    if n < rate {
        return None;
    }
    let want = Card::ALL[rng.below(8)];
    if want == give {
        return None;
    }
    first_legal(
        s,
        [Event::MaritimeTrade {
            player: me,
            give: Bundle::known(Cards::of(give, rate)),
            get: Bundle::known(Cards::of(want, 1)),
        }],
    )
}

fn player_trade(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let with = pick(rng, &s.seats().filter(|&q| q != me).collect::<Vec<_>>())?;
    let give = random_card(rng, &s.player(me).hand.known)?;
    let get = random_card(rng, &s.player(with).hand.known)?;
    first_legal(
        s,
        [Event::Trade {
            player: me,
            with,
            give: Bundle::known(Cards::of(give, 1)),
            get: Bundle::known(Cards::of(get, 1)),
        }],
    )
}

/// Plays one of the held progress cards with plausible choices.
fn progress_card(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let nv = s.board.vertices.len();
    let nh = s.board.hexes.len();
    let others: Vec<Seat> = s.seats().filter(|&q| q != me).collect();
    let held: Vec<Progress> = s.player(me).progress.cards.iter().filter_map(|h| h.card).collect();
    let card = pick(rng, &held)?;
    let hand = |q: Seat| s.player(q).hand.known;
    let vertex = |rng: &mut SeededRng| rng.below(nv) as VertexId;
    let mut candidates: Vec<Play> = Vec::new();
    for _ in 0..20 {
        let play = match card {
            Progress::Alchemist | Progress::Printer | Progress::Constitution => return None,
            Progress::Crane => Play::Crane,
            Progress::Engineer => {
                Play::Engineer { at: pick(rng, &own_vertices(s, me, |b| b.is_some_and(|b| b.city)))? }
            }
            Progress::Inventor => Play::Inventor { hexes: [rng.below(nh) as HexId, rng.below(nh) as HexId] },
            Progress::Irrigation => Play::Irrigation,
            Progress::Mining => Play::Mining,
            Progress::Medicine => {
                Play::Medicine { at: pick(rng, &own_vertices(s, me, |b| b.is_some_and(|b| !b.city)))? }
            }
            Progress::RoadBuilding => Play::RoadBuilding,
            Progress::Smith => {
                let k = own_knights(s, me);
                Play::Smith {
                    knights: if k.len() >= 2 && rng.chance(50) { k[..2].to_vec() } else { vec![pick(rng, &k)?] },
                }
            }
            Progress::Bishop => {
                let hex = rng.below(nh) as HexId;
                let stolen = almanac_cities_knights::rules::roll::victims(s, me, hex)
                    .into_iter()
                    .map(|q| (q, random_card(rng, &hand(q))))
                    .collect();
                Play::Bishop { hex, stolen }
            }
            Progress::Deserter => {
                let victim = pick(rng, &others)?;
                Play::Deserter { victim, removed: pick(rng, &own_knights(s, victim))?, placed: Some(vertex(rng)) }
            }
            Progress::Diplomat => Play::Diplomat { road: rng.below(s.board.edges.len()) as EdgeId, moved_to: None },
            Progress::Intrigue => Play::Intrigue { at: vertex(rng), displaced_to: Some(vertex(rng)) },
            Progress::Saboteur => {
                let mine = s.vp(me);
                let discards = others
                    .iter()
                    .filter(|&&q| s.vp(q) >= mine && hand(q).total() >= 2)
                    .map(|&q| (q, random_cards(rng, &hand(q), hand(q).total() / 2)))
                    .collect();
                Play::Saboteur { discards }
            }
            Progress::Spy => {
                let victim = pick(rng, &others)?;
                Play::Spy { victim, taken: pick(rng, &s.player(victim).progress.cards)? }
            }
            Progress::Warlord => Play::Warlord,
            Progress::Wedding => {
                let mine = s.vp(me);
                let given = others
                    .iter()
                    .filter(|&&q| s.vp(q) > mine && hand(q).total() > 0)
                    .map(|&q| (q, random_cards(rng, &hand(q), 2)))
                    .collect();
                Play::Wedding { given }
            }
            Progress::CommercialHarbor => {
                let mut left = hand(me);
                let mut offers = Vec::new();
                for &q in &others {
                    let Some(Card::Resource(r)) = random_card(rng, &left).filter(|c| !c.is_commodity()) else {
                        continue;
                    };
                    left[Card::Resource(r)] -= 1;
                    let theirs: Vec<Commodity> =
                        Commodity::ALL.into_iter().filter(|&c| hand(q)[Card::Commodity(c)] > 0).collect();
                    offers.push(Offer { with: q, give: r, get: pick(rng, &theirs) });
                }
                Play::CommercialHarbor { offers }
            }
            Progress::MasterMerchant => {
                let victim = pick(rng, &others)?;
                Play::MasterMerchant { victim, taken: random_cards(rng, &hand(victim), 2) }
            }
            Progress::Merchant => Play::Merchant { hex: rng.below(nh) as HexId },
            Progress::MerchantFleet => Play::MerchantFleet { card: Card::ALL[rng.below(8)] },
            Progress::ResourceMonopoly => {
                let r = Resource::ALL[rng.below(5)];
                let taken = others.iter().map(|&q| (q, hand(q)[Card::Resource(r)].min(2))).collect();
                Play::ResourceMonopoly { resource: r, taken: Some(taken) }
            }
            Progress::TradeMonopoly => {
                let c = Commodity::ALL[rng.below(3)];
                let taken = others.iter().map(|&q| (q, hand(q)[Card::Commodity(c)].min(1))).collect();
                Play::TradeMonopoly { commodity: c, taken: Some(taken) }
            }
        };
        candidates.push(play);
    }
    first_legal(s, candidates.into_iter().map(|play| Event::PlayProgress { player: me, play }))
}
