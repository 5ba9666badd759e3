//! A random legal player for property tests and samples: it plays whole games of `elasund` by choosing, at
//! each step, among events it builds from the state, keeping only those the rules accept. It holds the real
//! influence deck and church stack (shuffled by a seeded generator, so a failing seed replays exactly).

#![allow(dead_code)]

use almanac_core::testing::{self, SeededRng};
use almanac_core::Seated;
use almanac_core::{Ruleset, Seat};
use almanac_elasund::board::{squares, ChurchTile, Square, ROWS};
use almanac_elasund::buildings::{Kind, Owner};
use almanac_elasund::cards::{Cards, Influence};
use almanac_elasund::event::{Drawn, Event, HutMove};
use almanac_elasund::rules::income::markers_in_row;
use almanac_elasund::state::{Phase, State};
use almanac_elasund::Elasund;
use serde_json::{json, Value};

pub const NAMES: [&str; 4] = ["Aino", "Eero", "Helmi", "Veikko"];
pub const COLOURS: [&str; 4] = ["red", "blue", "yellow", "green"];

/// A generated game: as the omniscient recorder saw it (with the dealt cards in its header), and as a
/// spectator logs it (influence cards drawn unseen).
pub struct Generated {
    pub header: Value,
    pub observer_header: Value,
    pub events: Vec<Event>,
    pub observer: Vec<Event>,
}

pub fn header(players: usize) -> Value {
    json!({
        "format": "almanac/1", "ruleset": "elasund",
        "players": (0..players).map(|i| json!({"name": NAMES[i], "color": COLOURS[i]})).collect::<Vec<_>>(),
    })
}

fn pick<T: Copy>(rng: &mut SeededRng, v: &[T]) -> Option<T> {
    (!v.is_empty()).then(|| v[rng.below(v.len())])
}

/// The cards the generator knows are where.
struct Decks {
    influence: Vec<Influence>,
    discards: Vec<Influence>,
    church: Vec<ChurchTile>,
}

impl Decks {
    fn draw(&mut self, rng: &mut SeededRng) -> Influence {
        if self.influence.is_empty() {
            self.influence = std::mem::take(&mut self.discards);
            rng.shuffle(&mut self.influence);
        }
        self.influence.remove(0)
    }
}

pub fn play(seed: u64, players: usize, max_events: usize) -> Generated {
    play_from(seed, header(players), max_events)
}

pub fn play_from(seed: u64, observer_header: Value, max_events: usize) -> Generated {
    let mut rng = SeededRng::new(seed);
    let mut influence: Vec<Influence> = Influence::ALL.iter().flat_map(|&c| std::iter::repeat_n(c, 13)).collect();
    rng.shuffle(&mut influence);
    let mut church: Vec<ChurchTile> = ChurchTile::all().collect();
    rng.shuffle(&mut church);
    let mut decks = Decks { influence, discards: Vec::new(), church };
    let players = observer_header["players"].as_array().unwrap().len();
    let mut header = observer_header.clone();
    let mut hands = serde_json::Map::new();
    for i in 0..players {
        let c = decks.influence.remove(0);
        hands.insert(observer_header["players"][i]["name"].as_str().unwrap().into(), json!({"gold": 3, c.name(): 1}));
    }
    header["hands"] = Value::Object(hands);
    let mut s = Elasund::initial(&header.to_string()).unwrap();
    let mut events = Vec::new();
    let mut observer = Vec::new();
    while events.len() < max_events && s.winner.is_none() {
        let Some(ev) = choose(&mut rng, &s, &mut decks) else { break };
        let t = testing::chosen(&s, &ev);
        spent(&s, &t, &ev, &mut decks);
        observer.push(as_observer(&ev));
        events.push(ev);
        s = t;
    }
    Generated { header, observer_header, events, observer }
}

/// Influence cards that left hands for the discard pile in this event (the generator's copy of the pile).
/// A roll's reshuffle is the roll's own affair (see `roll`).
fn spent(before: &State, after: &State, ev: &Event, decks: &mut Decks) {
    if let Event::Roll { discards, took, .. } = ev {
        for (_, c) in discards {
            for col in Influence::ALL {
                (0..c.influence[col as usize]).for_each(|_| decks.discards.push(col));
            }
        }
        for col in Influence::ALL {
            for _ in 0..took.influence[col as usize] {
                let i = decks.discards.iter().position(|&d| d == col).expect("taken from the discards");
                decks.discards.remove(i);
            }
        }
        return;
    }
    for q in before.seats() {
        let (a, b) = (before.player(q).hand, after.player(q).hand);
        for c in Influence::ALL {
            let lost = a.influence[c as usize].saturating_sub(b.influence[c as usize]);
            (0..lost).for_each(|_| decks.discards.push(c));
        }
    }
}

fn as_observer(ev: &Event) -> Event {
    let hide = |v: &[Drawn]| v.iter().map(|_| None).collect::<Vec<Drawn>>();
    match ev.clone() {
        Event::Roll { player, dice, ship, influence, discards, took, reshuffle } => Event::Roll {
            player,
            dice,
            ship,
            influence: influence.iter().map(|(q, d)| (*q, hide(d))).collect(),
            discards,
            took,
            reshuffle,
        },
        Event::BuildWall { player, at, influence } => Event::BuildWall { player, at, influence: hide(&influence) },
        Event::BuildChurch { player, tile, returned, huts } => {
            Event::BuildChurch { player, tile, returned: returned.map(|_| None), huts }
        }
        other => other,
    }
}

fn choose(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Option<Event> {
    let me = s.active;
    match s.phase {
        Phase::Roll => Some(roll(rng, s, decks)),
        Phase::Build { built } => {
            if built < 2 && rng.chance(85) {
                if let Some(ev) = build_something(rng, s, decks) {
                    return Some(ev);
                }
            }
            step_three(rng, s)
        }
        Phase::Extra { done: false } if rng.chance(25) => extra(rng, s).or(Some(Event::EndTurn { player: me })),
        Phase::Extra { .. } => Some(Event::EndTurn { player: me }),
        Phase::Over => None,
    }
}

fn random_cards(rng: &mut SeededRng, hand: &Cards, n: u32) -> Cards {
    let mut left = *hand;
    let mut out = Cards::default();
    for _ in 0..n {
        // Gold, then the three influence colours.
        let counts = [left.gold, left.influence[0], left.influence[1], left.influence[2]];
        let Some(k) = rng.counted(counts.into_iter().map(u32::from).enumerate()) else { break };
        if k == 0 {
            left.gold -= 1;
            out.gold += 1;
        } else {
            left.influence[k - 1] -= 1;
            out.influence[k - 1] += 1;
        }
    }
    out
}

fn roll(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Event {
    let me = s.active;
    let dice = [1 + rng.below(6) as u8, 1 + rng.below(6) as u8];
    let sum = dice[0] + dice[1];
    let target = almanac_elasund::board::row_index(sum);
    let ship = match target {
        None => {
            let rows: Vec<u8> = (0..ROWS.len() as u8).filter(|&r| Some(r) != s.ship).collect();
            pick(rng, &rows)
        }
        Some(t) if s.ship == Some(t) => {
            let rows: Vec<u8> =
                [t.checked_sub(2), Some(t + 2).filter(|&r| (r as usize) < ROWS.len())].into_iter().flatten().collect();
            pick(rng, &rows)
        }
        Some(_) => None,
    };
    let row = ship.or(target).unwrap();
    if sum == 7 {
        let mut discards = Vec::new();
        let mut pool = Cards::default();
        for q in s.seats() {
            let n = (markers_in_row(s, q, row) as u32).min(s.player(q).hand.total());
            if n > 0 {
                let c = random_cards(rng, &s.player(q).hand, n);
                pool.gold += c.gold;
                for i in 0..3 {
                    pool.influence[i] += c.influence[i];
                }
                discards.push((q, c));
            }
        }
        let took = random_cards(rng, &pool, s.player(me).towers as u32);
        return Event::Roll { player: me, dice, ship, influence: vec![], discards, took, reshuffle: vec![] };
    }
    // Income: who is owed how many influence cards, and whether a deck runs short.
    let n = s.players.len();
    let (mut gold, mut owed) = (0u32, vec![0usize; n]);
    for b in s.buildings.iter().flatten().filter(|b| b.covers_row(row)) {
        match b.kind.income() {
            Some(almanac_elasund::buildings::Income::Gold) => gold += 1,
            Some(almanac_elasund::buildings::Income::Influence) => owed[b.owner as usize] += 1,
            None => {}
        }
    }
    let total: usize = owed.iter().sum();
    let influence_short = total > s.deck as usize + s.discards as usize;
    let gold_short = gold > s.gold as u32;
    let mut influence = Vec::new();
    if !influence_short {
        for q in s.seats() {
            if owed[q as usize] > 0 {
                influence.push((q, (0..owed[q as usize]).map(|_| Some(decks.draw(rng))).collect()));
            }
        }
    }
    let mut reshuffle = Vec::new();
    if influence_short || gold_short {
        for q in s.seats() {
            let h = s.player(q).hand;
            let mut c = Cards::default();
            if gold_short {
                c.gold = h.gold / 2;
            }
            if influence_short {
                let only = Cards { gold: 0, ..h };
                let picked = random_cards(rng, &only, h.influence_total() / 2);
                c.influence = picked.influence;
            }
            if !c.is_empty() {
                reshuffle.push((q, c));
            }
        }
    }
    let ev = Event::Roll { player: me, dice, ship, influence, discards: vec![], took: Cards::default(), reshuffle };
    if influence_short {
        // The pile and the halves given back become the deck.
        for (_, c) in match &ev {
            Event::Roll { reshuffle, .. } => reshuffle.clone(),
            _ => vec![],
        } {
            for col in Influence::ALL {
                for _ in 0..c.influence[col as usize] {
                    decks.discards.push(col);
                }
            }
        }
        let mut pile = std::mem::take(&mut decks.discards);
        rng.shuffle(&mut pile);
        decks.influence.append(&mut pile);
    }
    ev
}

/// Where displaced huts may go after a building covers `footprint`, and where each goes (builder first).
fn rehouse(rng: &mut SeededRng, s: &State, footprint: &[Square]) -> Vec<HutMove> {
    let covered: Vec<usize> = footprint.iter().filter_map(|&q| s.cell(q).building).collect();
    let order: Vec<Seat> = s.clockwise_from(s.active).collect();
    let mut huts: Vec<(Seat, Kind)> = covered
        .iter()
        .filter_map(|&i| s.buildings[i])
        .filter(|b| b.kind.owner() == Owner::Hut)
        .map(|b| (b.owner, b.kind))
        .collect();
    huts.sort_by_key(|&(q, k)| (order.iter().position(|&o| o == q), k));
    huts.dedup();
    let mut taken: Vec<Square> = footprint.to_vec();
    let free = |q: Square, taken: &[Square]| {
        !taken.contains(&q)
            && s.city.contains(q)
            && q != almanac_elasund::board::CHURCH_SITE
            && s.city.windmills(q) == 0
            && s.cell(q).permit.is_none()
            && s.cell(q).church.is_none()
            && s.cell(q).building.is_none_or(|i| covered.contains(&i))
    };
    let mut moves = Vec::new();
    for (q, kind) in huts {
        let (w, h) = kind.size();
        let spots: Vec<Square> =
            squares().filter(|&at| at.footprint(w, h).is_some_and(|f| f.iter().all(|&x| free(x, &taken)))).collect();
        let at = pick(rng, &spots);
        if let Some(at) = at {
            taken.extend(at.footprint(w, h).unwrap());
        }
        moves.push(HutMove { player: q, hut: kind, at });
    }
    moves
}

fn build_something(rng: &mut SeededRng, s: &State, decks: &mut Decks) -> Option<Event> {
    let me = s.active;
    let mine: Vec<Square> = squares().filter(|&q| s.cell(q).permit.is_some_and(|(o, _)| o == me)).collect();
    let mut candidates = Vec::new();
    // Buildings over the player's permits.
    let mut kinds =
        vec![Kind::House, Kind::Workshop, Kind::Well, Kind::MarketStalls, Kind::Inn, Kind::Shop, Kind::Hall];
    rng.shuffle(&mut kinds);
    for kind in kinds {
        let (w, h) = kind.size();
        for &q in &mine {
            for dx in 0..w {
                for dy in 0..h {
                    let (Some(col), Some(row)) = (q.col.checked_sub(dx), q.row.checked_sub(dy)) else { continue };
                    if col == 0 {
                        continue;
                    }
                    let at = Square::new(col, row);
                    let Some(footprint) = at.footprint(w, h) else { continue };
                    let huts = rehouse(rng, s, &footprint);
                    let colour = pick(rng, &Influence::ALL);
                    for influence in [None, colour] {
                        candidates.push(Event::Build { player: me, building: kind, at, influence, huts: huts.clone() });
                    }
                }
            }
        }
    }
    if let Some(ev) = candidates.into_iter().find(|e| testing::tried(s, e).is_some()) {
        return Some(ev);
    }
    if rng.chance(60) {
        let sites = s.city.wall_sites();
        let mut sites: Vec<_> = sites.into_iter().filter(|site| !s.walls.contains_key(site)).collect();
        rng.shuffle(&mut sites);
        for at in sites {
            let probe = Event::BuildWall { player: me, at, influence: vec![] };
            let needs = match almanac_elasund::buildings::wall_reward(s.player(me).walls + 1) {
                almanac_elasund::buildings::WallReward::Influence(k) => k.min(s.deck + s.discards) as usize,
                almanac_elasund::buildings::WallReward::Tower => 0,
            };
            let mut t = s.clone();
            let ok = {
                let mut ev = probe.clone();
                if let Event::BuildWall { influence, .. } = &mut ev {
                    *influence = vec![None; needs];
                }
                almanac_core::Rules::apply(&mut t, &ev, &mut Vec::new()).is_ok()
            };
            if ok {
                let drawn = (0..needs).map(|_| Some(decks.draw(rng))).collect();
                return Some(Event::BuildWall { player: me, at, influence: drawn });
            }
        }
    }
    if s.player(me).hand.gold >= 7 && !decks.church.is_empty() && rng.chance(70) {
        let first = s.church.is_none();
        let (tile, returned) = if first && decks.church.len() > 1 {
            let (a, b) = (decks.church[0], decks.church[1]);
            if rng.chance(50) {
                (a, Some(Some(b)))
            } else {
                (b, Some(Some(a)))
            }
        } else {
            (decks.church[0], None)
        };
        let target = match s.church {
            None => almanac_elasund::board::CHURCH_SITE,
            Some(nw) => {
                let (dx, dy) = tile.offset();
                Square::new(nw.col + dx, nw.row + dy)
            }
        };
        let huts = rehouse(rng, s, &[target]);
        let ev = Event::BuildChurch { player: me, tile, returned, huts };
        if testing::tried(s, &ev).is_some() {
            // The kept tile leaves the stack; the other goes under it.
            decks.church.retain(|&t| t != tile);
            if let Some(Some(r)) = returned {
                decks.church.retain(|&t| t != r);
                decks.church.push(r);
            }
            return Some(ev);
        }
    }
    None
}

fn step_three(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let values: Vec<u8> = (0..5).filter(|&v| s.player(me).permits_home[v as usize]).collect();
    if rng.chance(70) {
        if let Some(value) = pick(rng, &values) {
            let mut spots: Vec<Square> = squares().filter(|&q| s.is_free(q)).collect();
            rng.shuffle(&mut spots);
            let found = spots
                .into_iter()
                .map(|at| Event::PlacePermit { player: me, value, at, influence: None })
                .find(|e| testing::tried(s, e).is_some());
            if found.is_some() {
                return found;
            }
        }
    }
    Some(take_gold(s, me))
}

/// Taking 2 gold, with everyone's half given back first when the bank holds fewer.
fn take_gold(s: &State, me: Seat) -> Event {
    let reshuffle = if s.gold < 2 {
        s.seats()
            .filter(|&q| s.player(q).hand.gold >= 2)
            .map(|q| (q, Cards { gold: s.player(q).hand.gold / 2, ..Cards::default() }))
            .collect()
    } else {
        Vec::new()
    };
    Event::TakeGold { player: me, reshuffle }
}

fn extra(rng: &mut SeededRng, s: &State) -> Option<Event> {
    let me = s.active;
    let colour = pick(rng, &Influence::ALL)?;
    let mine: Vec<Square> = squares().filter(|&q| s.cell(q).permit.is_some_and(|(o, _)| o == me)).collect();
    let free: Vec<Square> = squares().filter(|&q| s.is_free(q)).collect();
    let home: Vec<u8> = (0..5).filter(|&v| s.player(me).permits_home[v as usize]).collect();
    let candidates = [
        take_gold(s, me),
        Event::MovePermit { player: me, from: pick(rng, &mine)?, to: pick(rng, &free)?, influence: colour },
        Event::UpgradePermit { player: me, at: pick(rng, &mine)?, value: pick(rng, &home)?, influence: colour },
        Event::PlacePermit { player: me, value: pick(rng, &home)?, at: pick(rng, &free)?, influence: None },
    ];
    let k = rng.below(candidates.len());
    candidates.into_iter().cycle().skip(k).take(4).find(|e| testing::tried(s, e).is_some())
}
