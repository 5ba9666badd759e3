//! A random legal player for property tests and samples: it deals from shuffled decks (resources, building
//! cards, event cards), and at each step chooses among events it builds from the state. The randomness is a
//! small seeded generator, so a failing seed replays exactly.

#![allow(dead_code)]

use almanac_catan::resources::{Bundle, Resource, ResourceCard, Resources};
use almanac_catan_cards::cards::{road_trade_rate, Card};
use almanac_catan_cards::event::{Event, EventCard, RoadTrade, ROBBER};
use almanac_catan_cards::state::Phase;
use almanac_catan_cards::{CatanCards, State};
use almanac_core::Seated;
use almanac_core::{Ruleset, Seat};
use serde_json::{json, Value};

use almanac_core::testing::{self, SeededRng};

pub const NAMES: [&str; 4] = ["Ayşe", "Bora", "Cem", "Deniz"];

/// The decks the generated games declare: the resource deck of a published relative of the game, a
/// building deck and event cards (three Robbers, as the rules say, and two kinds of our own).
pub fn decks() -> Value {
    json!({
        "resources": {"lumber": 11, "brick": 11, "wool": 15, "grain": 14, "ore": 16},
        "buildings": {"road": 9, "settlement": 8, "city": 6, "knight": 5},
        "events": {"robber": 3, "good_harvest": 3, "thieves": 2}
    })
}

/// A game's header: `hands` are the two cards each player was dealt.
pub fn header(players: usize, row: &[Card], hands: &[Vec<Resource>], with_decks: bool) -> Value {
    let mut h = json!({
        "format": "almanac/1", "ruleset": "catan-cards",
        "players": NAMES[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "row": row.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "metropolis": "A",
        "hands": NAMES[..players].iter().zip(hands).map(|(n, cards)| {
            let mut b = serde_json::Map::new();
            for r in cards {
                *b.entry(r.name()).or_insert(json!(0)) = json!(b.get(r.name()).and_then(|v| v.as_u64()).unwrap_or(0) + 1);
            }
            (n.to_string(), Value::Object(b))
        }).collect::<serde_json::Map<_, _>>(),
    });
    if with_decks {
        h["decks"] = decks();
    }
    h
}

/// A generated game: the events as the players saw their own cards, and as an observer away from the table
/// logs them (every card drawn unknown).
pub struct Generated {
    pub header: Value,
    pub observer_header: Value,
    pub events: Vec<Event>,
    pub observer: Vec<Event>,
}

struct Decks {
    resources: Vec<Resource>,
    discards: Vec<Resource>,
    buildings: Vec<Card>,
    events: Vec<&'static str>,
    events_out: Vec<&'static str>,
}

impl Decks {
    /// The top card, the discard pile shuffled in when the deck runs out; none when both are spent.
    fn draw(&mut self, rng: &mut SeededRng) -> Option<Resource> {
        if self.resources.is_empty() {
            self.resources.append(&mut self.discards);
            rng.shuffle(&mut self.resources);
        }
        self.resources.pop()
    }

    fn event(&mut self, rng: &mut SeededRng) -> &'static str {
        if self.events.is_empty() {
            self.events.append(&mut self.events_out);
            rng.shuffle(&mut self.events);
        }
        let e = self.events.pop().expect("event cards");
        self.events_out.push(e);
        e
    }
}

fn cards(list: &[Resource]) -> Bundle {
    let mut b = Bundle::default();
    for &r in list {
        b.known[r] += 1;
    }
    b
}

fn unseen(b: &Bundle) -> Bundle {
    Bundle { known: Resources::NONE, unknown: b.total() as u8 }
}

/// The cards a player surely holds, one entry per card (the generator sees every hand).
fn hand_list(s: &State, p: Seat) -> Vec<Resource> {
    let mut v = Vec::new();
    for (r, n) in s.players[p as usize].hand.known.iter() {
        v.extend(std::iter::repeat_n(r, n as usize));
    }
    v
}

/// Plays a random legal game of `players` players, at most `max_events` events long.
pub fn play(seed: u64, players: usize, max_events: usize) -> Generated {
    let mut rng = SeededRng::new(seed);
    let spec = decks();
    let mut resources = Vec::new();
    for r in Resource::ALL {
        resources.extend(std::iter::repeat_n(r, spec["resources"][r.name()].as_u64().unwrap() as usize));
    }
    rng.shuffle(&mut resources);
    let mut buildings = Vec::new();
    for c in Card::ROW {
        buildings.extend(std::iter::repeat_n(c, spec["buildings"][c.name()].as_u64().unwrap() as usize));
    }
    // The first game's row, as the rules suggest, then the rest shuffled.
    let row = vec![Card::Settlement, Card::Settlement, Card::Knight, Card::Road, Card::City];
    for c in &row {
        let i = buildings.iter().position(|b| b == c).unwrap();
        buildings.remove(i);
    }
    rng.shuffle(&mut buildings);
    let mut events: Vec<&'static str> = Vec::new();
    for (name, n) in [(ROBBER, 3), ("good_harvest", 3), ("thieves", 2)] {
        events.extend(std::iter::repeat_n(name, n));
    }
    rng.shuffle(&mut events);
    let mut decks = Decks { resources, discards: Vec::new(), buildings, events, events_out: Vec::new() };
    let hands: Vec<Vec<Resource>> =
        (0..players).map(|_| (0..2).filter_map(|_| decks.draw(&mut rng)).collect()).collect();
    let header = header(players, &row, &hands, true);
    let mut observer_header = header.clone();
    observer_header["hands"] = json!({});
    let mut s = CatanCards::initial(&header.to_string()).unwrap();
    let mut events = Vec::new();
    let mut observer = Vec::new();
    while events.len() < max_events && s.winner.is_none() {
        let (ev, seen) = choose(&mut rng, &s, &mut decks);
        let t = testing::chosen(&s, &ev);
        // Every card neither in a hand nor in the deck lies on the discard pile.
        decks.discards.clear();
        for r in Resource::ALL {
            let held: usize = t.players.iter().map(|p| p.hand.known[r] as usize).sum();
            let in_deck = decks.resources.iter().filter(|&&c| c == r).count();
            let declared = spec["resources"][r.name()].as_u64().unwrap() as usize;
            decks.discards.extend(std::iter::repeat_n(r, declared - held - in_deck));
        }
        events.push(ev);
        observer.push(seen);
        s = t;
    }
    Generated { header, observer_header, events, observer }
}

/// The next event, and the same as an observer logs it.
fn choose(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> (Event, Event) {
    let me = s.active;
    let n = s.players.len() as Seat;
    match s.phase {
        Phase::Harvest => {
            // One card each from the player whose turn it is on, then that player's extra cards.
            let mut lists = vec![Vec::new(); n as usize];
            for k in 0..n {
                let seat = (me + k) % n;
                lists[seat as usize].extend(decks.draw(rng));
            }
            for _ in 1..s.harvest(me) {
                lists[me as usize].extend(decks.draw(rng));
            }
            let draws: Vec<Bundle> = lists.iter().map(|l| cards(l)).collect();
            let seen = draws.iter().map(unseen).collect();
            (Event::Harvest { player: me, draws }, Event::Harvest { player: me, draws: seen })
        }
        Phase::Discard => {
            let p = s.seats().find(|&p| s.must_discard[p as usize] > 0).unwrap();
            let mut hand = hand_list(s, p);
            rng.shuffle(&mut hand);
            let thrown = cards(&hand[..s.must_discard[p as usize] as usize]);
            let ev = Event::Discard { player: p, cards: thrown };
            (ev.clone(), ev)
        }
        Phase::Play => {
            if !s.traded && rng.chance(30) {
                if let Some(pair) = trade(rng, s, decks) {
                    return pair;
                }
            }
            if rng.chance(95) {
                if let Some(pair) = build(rng, s, decks) {
                    return pair;
                }
            }
            let ev = Event::EndTurn { player: me };
            (ev.clone(), ev)
        }
        Phase::Over => unreachable!("the generator stops at the winner"),
    }
}

fn trade(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Option<(Event, Event)> {
    let me = s.active;
    let n = s.players.len() as Seat;
    let with = (me + 1 + rng.below(n as usize - 1) as Seat) % n;
    let (mine, theirs) = (hand_list(s, me), hand_list(s, with));
    if mine.is_empty() || theirs.is_empty() {
        return None;
    }
    let give = mine[rng.below(mine.len())];
    let get = theirs[rng.below(theirs.len())];
    if give == get {
        return None;
    }
    let bonus = decks.draw(rng);
    let (give, get) = (cards(&[give]), cards(&[get]));
    Some((
        Event::Trade { player: me, with, give, get, bonus: bonus.map(ResourceCard::Known) },
        Event::Trade { player: me, with, give, get, bonus: bonus.map(|_| ResourceCard::Unknown) },
    ))
}

fn build(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Option<(Event, Event)> {
    let me = s.active;
    let p = &s.players[me as usize];
    let mut options: Vec<Card> = s.row.clone();
    if s.metropolises_left > 0 {
        options.push(Card::Metropolis);
    }
    rng.shuffle(&mut options);
    for card in options {
        if card.covers().is_some_and(|c| p.count(c) == 0) {
            continue;
        }
        let cost = card.cost();
        let road_trade = if p.hand.can_pay_all(&cost) {
            None
        } else if s.road_traded {
            continue;
        } else {
            // One missing resource, paid with others of one kind at the road rate.
            let rate = road_trade_rate(p.roads);
            let missing: Vec<Resource> = Resource::ALL.into_iter().filter(|&r| p.hand.known[r] < cost[r]).collect();
            let [instead_of] = missing.as_slice() else { continue };
            if cost[*instead_of] - p.hand.known[*instead_of] != 1 {
                continue;
            }
            let give = Resource::ALL.into_iter().find(|&r| r != *instead_of && p.hand.known[r] >= cost[r] + rate)?;
            Some(RoadTrade { give, instead_of: *instead_of })
        };
        let refill = if card == Card::Metropolis { None } else { decks.buildings.last().copied() };
        // Whether the purchase is legal does not depend on the event card it reveals.
        let trial = (card == Card::Settlement).then(|| EventCard { name: ROBBER.into(), effect: Vec::new() });
        if testing::tried(s, &Event::Build { player: me, card, road_trade, refill, event: trial }).is_none() {
            continue;
        }
        if refill.is_some() {
            decks.buildings.pop();
        }
        let event = (card == Card::Settlement).then(|| event_card(rng, s, decks));
        let seen_event = event.as_ref().map(|e| EventCard {
            name: e.name.clone(),
            effect: e.effect.iter().map(|(w, gain, lose)| (*w, unseen(gain), *lose)).collect(),
        });
        let ev = Event::Build { player: me, card, road_trade, refill, event };
        let seen = Event::Build { player: me, card, road_trade, refill, event: seen_event };
        return Some((ev, seen));
    }
    None
}

/// The next event card, with what it does: a good harvest gives each player a card, thieves take a card
/// from each player holding some.
fn event_card(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> EventCard {
    let name = decks.event(rng);
    let mut effect = Vec::new();
    match name {
        "good_harvest" => {
            for seat in s.seats() {
                if let Some(card) = decks.draw(rng) {
                    effect.push((seat, cards(&[card]), Resources::NONE));
                }
            }
        }
        "thieves" => {
            for seat in s.seats() {
                // The settlement's cost is paid first; the thieves take from what is left.
                let mut hand = hand_list(s, seat);
                if seat == s.active {
                    continue;
                }
                if !hand.is_empty() {
                    rng.shuffle(&mut hand);
                    effect.push((seat, Bundle::default(), Resources::of(hand[0], 1)));
                }
            }
        }
        _ => {}
    }
    EventCard { name: name.to_string(), effect }
}
