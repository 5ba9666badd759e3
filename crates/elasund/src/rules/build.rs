//! Step 2: buildings. The footprint must hold as many permits as the building needs, and the builder's
//! permits there must be worth strictly more than any other player's; the builder pays the bank and each
//! other permit owner the value of their permits, and every permit goes home. A building displaces smaller
//! ones, and ones of its own size for 3 influence cards of one colour; never the church. Start huts
//! displaced are put back at once by their owners, elsewhere.

use crate::board::{Square, CHURCH_SITE};
use crate::buildings::{Kind, Owner};
use crate::cards::{Cards, Influence, GOLD};
use crate::event::{HutMove, Huts};
use crate::rules::markers::{gain_trade, give_back, lose_trade, pay, place, windmills};
use crate::state::{Phase, Placed, State};
use crate::vocabulary::{BUILDING, COMPENSATION};
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// Building needs step 2, and room for one more of its two builds.
pub fn need_build_step(s: &State, p: Seat, what: &str) -> Result {
    match s.phase {
        Phase::Build { built } if built < 2 => Ok(()),
        Phase::Build { .. } => fail(format!("{} has built twice this turn already", s.name(p))),
        Phase::Roll => fail(format!("{} must roll before {what}", s.name(p))),
        _ => fail(format!("{} is past building this turn (the permit or the 2 gold come after it)", s.name(p))),
    }
}

pub fn build(
    s: &mut State,
    p: Seat,
    kind: Kind,
    at: Square,
    colour: Option<Influence>,
    huts: &Huts,
    facts: &mut Vec<Fact>,
) -> Result {
    need_build_step(s, p, "building")?;
    match kind.owner() {
        Owner::Hut => return fail("start huts are never built: they stand on the board from the start"),
        Owner::Player if s.built(p, kind) => return fail(format!("{}'s {kind} is on the board already", s.name(p))),
        Owner::Neutral if stack(s, kind) == 0 => return fail(format!("no {kind} is left in its stack")),
        _ => {}
    }
    let (w, h) = kind.size();
    let Some(footprint) = at.footprint(w, h) else {
        return fail(format!("a {kind} at {at} does not fit the grid"));
    };
    if let Some(q) = footprint.iter().find(|&&q| !s.city.contains(q)) {
        return fail(format!("a {kind} at {at} reaches {q}, outside the city walls"));
    }
    if footprint.contains(&CHURCH_SITE) {
        return fail(format!("a {kind} at {at} covers the church site {CHURCH_SITE}"));
    }
    if let Some(q) = footprint.iter().find(|&&q| s.cell(q).church.is_some()) {
        return fail(format!("a {kind} at {at} covers the church tile on {q}: church tiles are never built over"));
    }
    // The permits on the footprint, and whose are worth most.
    let permits: Vec<(Square, Seat, u8)> =
        footprint.iter().filter_map(|&q| s.cell(q).permit.map(|(o, v)| (q, o, v))).collect();
    if permits.len() < kind.permits() as usize {
        return fail(format!(
            "{} cannot build {} at {at}: it needs {} permit(s) on its squares, and its footprint holds {}",
            s.name(p),
            kind.with_article(),
            kind.permits(),
            permits.len()
        ));
    }
    let n = s.players.len();
    let mut worth = vec![None::<u8>; n];
    for &(_, o, v) in &permits {
        *worth[o as usize].get_or_insert(0) += v;
    }
    let Some(mine) = worth[p as usize] else {
        return fail(format!("{} has no permit on the squares of a {kind} at {at}", s.name(p)));
    };
    if let Some(q) = s.seats().find(|&q| q != p && worth[q as usize].is_some_and(|v| v >= mine)) {
        return fail(format!(
            "{}'s permits there are worth {}, {}'s {mine}: only the most valuable permits build (a tie, nobody)",
            s.name(q),
            worth[q as usize].unwrap_or(0),
            s.name(p)
        ));
    }
    // What it displaces.
    let mut covered: Vec<usize> = footprint.iter().filter_map(|&q| s.cell(q).building).collect();
    covered.sort();
    covered.dedup();
    let mut same_size = false;
    for &i in &covered {
        let b = s.buildings[i].expect("a building on the board");
        if b.kind.area() > kind.area() {
            return fail(format!("a {kind} cannot displace the larger {} at {}", b.kind, b.at));
        }
        same_size |= b.kind.area() == kind.area();
    }
    let influence = match (same_size, colour) {
        (true, Some(c)) => Cards::of(c, 3),
        (true, None) => {
            return fail(format!(
                "a {kind} displaces a building of its own size only for 3 influence cards of one colour (`influence`)"
            ))
        }
        (false, Some(_)) => {
            return fail(format!("a {kind} at {at} displaces nothing of its size: no influence is paid"))
        }
        (false, None) => Cards::default(),
    };
    let compensation: Vec<(Seat, u8)> =
        s.seats().filter(|&q| q != p).filter_map(|q| worth[q as usize].map(|v| (q, v))).collect();
    let owed: u8 = compensation.iter().map(|&(_, v)| v).sum();
    let total = Cards { gold: kind.cost() + owed, ..influence };
    let hand = s.player(p).hand;
    if !hand.can_pay(&total) {
        return fail(format!(
            "{} cannot pay {total} for a {kind} ({} to the bank, {owed} to the other permits' owners): the hand is {hand}",
            s.name(p),
            kind.cost()
        ));
    }
    pay(s, p, &Cards { gold: kind.cost(), ..influence }, &format!("a {kind}"), facts)?;
    for (q, v) in compensation {
        if v > 0 {
            s.players[p as usize].hand.gold -= v;
            s.players[q as usize].hand.gold += v;
            facts.extend(Fact::passed(p, q, GOLD, v as u32, COMPENSATION));
        }
    }
    for (q, o, v) in permits {
        s.cell_mut(q).permit = None;
        s.players[o as usize].permits_home[v as usize] = true;
    }
    let mut displaced = Vec::new();
    for i in covered {
        displaced.extend(remove(s, i, facts));
    }
    let mut placed = Placed { kind, at, owner: p, markers: 0 };
    if kind.owner() == Owner::Neutral {
        s.stacks[stack_index(kind)] -= 1;
        placed.markers = place(s, p, kind.flags(), BUILDING, facts);
    }
    s.place(placed);
    facts.push(Fact::Built { player: p, piece: kind.name() });
    gain_trade(s, p, windmills(s, &footprint), facts);
    rehouse(s, p, displaced, huts)?;
    count_build(s);
    Ok(())
}

/// One of the turn's two builds is done.
pub fn count_build(s: &mut State) {
    if let Phase::Build { built } = s.phase {
        s.phase = Phase::Build { built: built + 1 };
    }
}

pub fn stack_index(kind: Kind) -> usize {
    Kind::NEUTRAL.iter().position(|&k| k == kind).expect("a neutral kind")
}

fn stack(s: &State, kind: Kind) -> u8 {
    s.stacks[stack_index(kind)]
}

/// Takes a building off the board: a neutral one back to its stack with its markers to their owner, a
/// player's back to its owner; its trade points are lost. Returns a start hut that must be put back.
pub fn remove(s: &mut State, i: usize, facts: &mut Vec<Fact>) -> Option<(Seat, Kind)> {
    let b = s.lift(i);
    if b.kind.owner() != Owner::Hut {
        lose_trade(s, b.owner, windmills(s, &b.squares()), facts);
    }
    match b.kind.owner() {
        Owner::Neutral => {
            s.stacks[stack_index(b.kind)] += 1;
            give_back(s, b.owner, b.markers, BUILDING, facts);
            None
        }
        Owner::Player => None,
        Owner::Hut => Some((b.owner, b.kind)),
    }
}

/// Start huts displaced by `builder`'s move go back on the board, the builder's own first, then clockwise:
/// each on free squares (not trade squares, not permits), or out of the game when there are none.
pub fn rehouse(s: &mut State, builder: Seat, mut displaced: Vec<(Seat, Kind)>, named: &Huts) -> Result {
    let order: Vec<Seat> = s.clockwise_from(builder).collect();
    displaced.sort_by_key(|&(q, k)| (order.iter().position(|&o| o == q), k));
    let expected: Vec<(Seat, Kind)> = named.iter().map(|h| (h.player, h.hut)).collect();
    let mut given = expected.clone();
    given.sort_by_key(|&(q, k)| (order.iter().position(|&o| o == q), k));
    if given != displaced {
        let words = |v: &[(Seat, Kind)]| {
            if v.is_empty() {
                return "none".to_string();
            }
            v.iter().map(|&(q, k)| format!("{}'s {k}", s.name(q))).collect::<Vec<_>>().join(", ")
        };
        return fail(format!("start huts displaced: {}; the event moves {}", words(&displaced), words(&expected)));
    }
    for (q, kind) in displaced {
        let mv = named.iter().find(|h| h.player == q && h.hut == kind).copied().expect("matched above");
        rehouse_one(s, mv)?;
    }
    Ok(())
}

fn hut_fits(s: &State, kind: Kind, at: Square) -> bool {
    let (w, h) = kind.size();
    at.footprint(w, h).is_some_and(|f| f.iter().all(|&q| s.is_free(q) && s.city.windmills(q) == 0))
}

fn rehouse_one(s: &mut State, mv: HutMove) -> Result {
    let room = crate::board::squares().any(|q| hut_fits(s, mv.hut, q));
    match mv.at {
        Some(at) if hut_fits(s, mv.hut, at) => {
            s.place(Placed { kind: mv.hut, at, owner: mv.player, markers: 0 });
            Ok(())
        }
        Some(at) => fail(format!(
            "{}'s {} cannot go to {at}: a displaced start hut goes on free squares, never a trade square or a permit",
            s.name(mv.player),
            mv.hut
        )),
        None if room => {
            fail(format!("{} must put the displaced {} back on free squares (`at`)", s.name(mv.player), mv.hut))
        }
        None => Ok(()),
    }
}
