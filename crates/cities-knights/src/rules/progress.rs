//! Playing progress cards: any number after the roll, the Alchemist only before it. A played card goes
//! back under its deck. Each card's effect is a function here, in the deck's order.

use crate::cards::{cost, Bundle, Card, Cards, Commodity};
use crate::event::{Offer, Play};
use crate::progress::{HeldCard, Progress};
use crate::rules::build::{build_city_for, build_wall, check_road, from_bank, place_road};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::knights::{activate, check_knight_site, displace, place, promote, touches_road};
use crate::rules::points::{score, update_longest_road};
use crate::rules::roll::{lose, place_robber, steal, victims};
use crate::state::{Phase, State, KNIGHTS_PER_LEVEL};
use crate::vocabulary::{MERCHANT, PROGRESS_CARD};
use almanac_catan::board::{EdgeId, HexId, VertexId};
use almanac_catan::resources::Resource::{self, Grain, Ore};
use almanac_catan::resources::Terrain;
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

pub fn play(s: &mut State, p: Seat, play: &Play, facts: &mut Vec<Fact>) -> Result {
    let card = play.card();
    match (card, s.phase) {
        (Progress::Alchemist, Phase::BeforeRoll) => {}
        (Progress::Alchemist, _) => return fail(format!("{} plays the Alchemist only before rolling", s.name(p))),
        _ => need_main(s, p, &format!("playing {card}"))?,
    }
    if !s.players[p as usize].progress.remove(card) {
        return fail(format!("{} holds no {card} card", s.name(p)));
    }
    s.decks[card.track() as usize] += 1;
    facts.push(Fact::CardPlayed { player: p, card: card.name() });
    match play {
        Play::Alchemist { dice } => s.alchemist = Some(*dice),
        Play::Crane => {
            if s.crane {
                return fail("one Crane per city improvement: a Crane is waiting already");
            }
            s.crane = true;
        }
        Play::Engineer { at } => build_wall(s, p, *at, true, facts)?,
        Play::Inventor { hexes } => inventor(s, *hexes)?,
        Play::Irrigation => harvest(s, p, Terrain::Fields, Grain, facts),
        Play::Mining => harvest(s, p, Terrain::Mountains, Ore, facts),
        Play::Medicine { at } => build_city_for(s, p, *at, &cost(&[(Ore, 2), (Grain, 1)]), facts)?,
        Play::RoadBuilding => s.free_roads = 2,
        Play::Smith { knights } => smith(s, p, knights, facts)?,
        Play::Bishop { hex, stolen } => bishop(s, p, *hex, stolen, facts)?,
        Play::Deserter { victim, removed, placed } => deserter(s, p, *victim, *removed, *placed, facts)?,
        Play::Diplomat { road, moved_to } => diplomat(s, p, *road, *moved_to, facts)?,
        Play::Intrigue { at, displaced_to } => intrigue(s, p, *at, *displaced_to, facts)?,
        Play::Saboteur { discards } => saboteur(s, p, discards, facts)?,
        Play::Spy { victim, taken } => spy(s, p, *victim, *taken, facts)?,
        Play::Warlord => {
            let mine: Vec<VertexId> = (0..s.knights.len() as VertexId)
                .filter(|&v| s.knight(v).is_some_and(|k| k.owner == p && !k.active))
                .collect();
            for v in mine {
                activate(s, v);
            }
        }
        Play::Wedding { given } => wedding(s, p, given, facts)?,
        Play::CommercialHarbor { offers } => commercial_harbor(s, p, offers, facts)?,
        Play::MasterMerchant { victim, taken } => master_merchant(s, p, *victim, taken, facts)?,
        Play::Merchant { hex } => merchant(s, p, *hex, facts)?,
        Play::MerchantFleet { card } => s.merchant_fleet = Some(*card),
        Play::ResourceMonopoly { resource, taken } => {
            monopoly(s, p, Card::Resource(*resource), 2, taken.as_deref(), facts)?
        }
        Play::TradeMonopoly { commodity, taken } => {
            monopoly(s, p, Card::Commodity(*commodity), 1, taken.as_deref(), facts)?
        }
    }
    Ok(())
}

/// Swaps two number tokens; never a 2, 12, 6 or 8.
fn inventor(s: &mut State, [a, b]: [HexId; 2]) -> Result {
    if a == b {
        return fail("the Inventor swaps the tokens of two different hexes");
    }
    for h in [a, b] {
        match s.numbers[h as usize] {
            None => return fail(format!("{} has no number token to swap", s.board.hex_label(h))),
            Some(n @ (2 | 12 | 6 | 8)) => {
                return fail(format!("the Inventor never moves a {n} ({} carries it)", s.board.hex_label(h)))
            }
            Some(_) => {}
        }
    }
    s.numbers.swap(a as usize, b as usize);
    Ok(())
}

/// Irrigation and Mining: two cards for each hex of the terrain next to any of the player's buildings.
fn harvest(s: &mut State, p: Seat, terrain: Terrain, r: Resource, facts: &mut Vec<Fact>) {
    let hexes = s
        .board
        .hexes
        .iter()
        .filter(|h| h.terrain == terrain && h.corners.iter().any(|&v| s.building(v).is_some_and(|b| b.owner == p)))
        .count() as u8;
    from_bank(s, p, Card::Resource(r), 2 * hexes, cause::CARD, facts);
}

/// Promotes one or two different knights for free.
fn smith(s: &mut State, p: Seat, knights: &[VertexId], facts: &mut Vec<Fact>) -> Result {
    match knights {
        [_] => {}
        [a, b] if a != b => {}
        [_, _] => return fail("the Smith promotes two different knights"),
        _ => return fail("the Smith promotes one or two knights"),
    }
    for &v in knights {
        promote(s, p, v, facts)?;
    }
    Ok(())
}

/// The robber moves; every other player with a building on its hex and cards loses one.
fn bishop(s: &mut State, p: Seat, hex: HexId, stolen: &[(Seat, Option<Card>)], facts: &mut Vec<Fact>) -> Result {
    place_robber(s, hex)?;
    let due = victims(s, p, hex);
    let named: Vec<Seat> = stolen.iter().map(|&(q, _)| q).collect();
    if named != due {
        let names = |v: &[Seat]| v.iter().map(|&q| s.name(q).to_string()).collect::<Vec<_>>().join(", ");
        return fail(format!(
            "the Bishop on {} takes a card from each of {}; the event names {}",
            s.board.hex_label(hex),
            if due.is_empty() { "nobody".into() } else { names(&due) },
            if named.is_empty() { "nobody".into() } else { names(&named) }
        ));
    }
    for &(q, c) in stolen {
        steal(s, p, q, c, facts)?;
    }
    Ok(())
}

/// The victim removes one of their knights; the player may place one of theirs of the same strength (or the
/// strongest weaker one left), in the same state, without the Fortress.
fn deserter(
    s: &mut State,
    p: Seat,
    victim: Seat,
    removed: VertexId,
    placed: Option<VertexId>,
    facts: &mut Vec<Fact>,
) -> Result {
    if victim == p {
        return fail("the Deserter takes an opponent's knight");
    }
    let Some(k) = s.knight(removed).filter(|k| k.owner == victim) else {
        return fail(format!("{} has no knight at {}", s.name(victim), s.board.vertex_label(removed)));
    };
    s.knights[removed as usize] = None;
    if let Some(v) = placed {
        let level = (1..=k.level).rev().find(|&l| s.knights_of(p, l) < KNIGHTS_PER_LEVEL);
        let Some(level) = level else {
            return fail(format!("{} has no knight of strength {} or less left to place", s.name(p), k.level));
        };
        check_knight_site(s, p, v)?;
        place(s, p, v, level, k.active);
    }
    update_longest_road(s, facts);
    Ok(())
}

/// An open road (one end touches nothing else of its owner's) is removed; the player's own may be laid
/// again for free.
fn diplomat(s: &mut State, p: Seat, road: EdgeId, moved_to: Option<EdgeId>, facts: &mut Vec<Fact>) -> Result {
    let Some(owner) = s.road_owner(road) else {
        return fail(format!("there is no road at {}", s.board.edge_label(road)));
    };
    let open_end = s.board.edges[road as usize].ends.iter().any(|&v| {
        s.building(v).is_none_or(|b| b.owner != owner)
            && s.knight(v).is_none_or(|k| k.owner != owner)
            && !s.board.vertices[v as usize].edges.iter().any(|&e| e != road && s.road_owner(e) == Some(owner))
    });
    if !open_end {
        return fail(format!(
            "the road at {} is not open: both its ends touch another piece of {}",
            s.board.edge_label(road),
            s.name(owner)
        ));
    }
    s.roads[road as usize] = None;
    s.players[owner as usize].roads -= 1;
    match moved_to {
        Some(_) if owner != p => return fail("only the player's own removed road is laid again"),
        Some(e) => {
            check_road(s, p, e)?;
            place_road(s, p, e, facts);
        }
        None => update_longest_road(s, facts),
    }
    Ok(())
}

/// Displaces an opponent's knight standing by one of the player's roads, without a knight of one's own.
fn intrigue(s: &mut State, p: Seat, at: VertexId, displaced_to: Option<VertexId>, facts: &mut Vec<Fact>) -> Result {
    let Some(k) = s.knight(at).filter(|k| k.owner != p) else {
        return fail(format!("no opponent's knight stands at {}", s.board.vertex_label(at)));
    };
    if !touches_road(s, p, at) {
        return fail(format!(
            "the Intrigue displaces a knight by one of {}'s roads; none touches {}",
            s.name(p),
            s.board.vertex_label(at)
        ));
    }
    s.knights[at as usize] = None;
    displace(s, k, at, displaced_to)?;
    update_longest_road(s, facts);
    Ok(())
}

/// Every player with at least as many points as the player discards half their cards, rounded down.
fn saboteur(s: &mut State, p: Seat, discards: &[(Seat, Bundle)], facts: &mut Vec<Fact>) -> Result {
    let mine = s.vp(p);
    let due: Vec<(Seat, u32)> = s
        .seats()
        .filter(|&q| q != p && s.vp(q) >= mine)
        .map(|q| (q, s.player(q).hand.total() / 2))
        .filter(|&(_, n)| n > 0)
        .collect();
    check_named(s, "the Saboteur", &due, discards)?;
    for (q, b) in discards {
        lose(s, *q, b, cause::CARD, None, facts);
    }
    Ok(())
}

/// The recorded cards of each player against what each owes: the same players, the right counts, cards
/// they hold.
fn check_named(s: &State, what: &str, due: &[(Seat, u32)], named: &[(Seat, Bundle)]) -> Result {
    let who: Vec<Seat> = named.iter().map(|(q, _)| *q).collect();
    let want: Vec<Seat> = due.iter().map(|(q, _)| *q).collect();
    if who != want {
        let names = |v: &[Seat]| v.iter().map(|&q| s.name(q).to_string()).collect::<Vec<_>>().join(", ");
        return fail(format!(
            "{what} takes cards from {}; the event names {}",
            if want.is_empty() { "nobody".into() } else { names(&want) },
            if who.is_empty() { "nobody".into() } else { names(&who) }
        ));
    }
    for ((q, n), (_, b)) in due.iter().zip(named) {
        if b.total() != *n {
            return fail(format!("{what}: {} gives {n} cards, not {}", s.name(*q), b.total()));
        }
        let hand = s.player(*q).hand;
        if !hand.can_give(b) {
            return fail(format!("{what}: {} cannot give {b}: the hand is {hand}", s.name(*q)));
        }
    }
    Ok(())
}

/// Takes one progress card (never a victory point card) from an opponent's hand.
fn spy(s: &mut State, p: Seat, victim: Seat, taken: HeldCard, facts: &mut Vec<Fact>) -> Result {
    if victim == p {
        return fail("the Spy takes a card from an opponent");
    }
    if !s.players[victim as usize].progress.remove_held(taken) {
        return fail(format!(
            "{} holds no {} for the Spy to take",
            s.name(victim),
            crate::rules::roll::held_words(taken)
        ));
    }
    s.players[p as usize].progress.cards.push(taken);
    facts.extend(Fact::passed(victim, p, PROGRESS_CARD[taken.track as usize], 1, cause::STEAL));
    Ok(())
}

/// Each player with more points gives the player two cards of their choice (all, if fewer).
fn wedding(s: &mut State, p: Seat, given: &[(Seat, Bundle)], facts: &mut Vec<Fact>) -> Result {
    let mine = s.vp(p);
    let due: Vec<(Seat, u32)> = s
        .seats()
        .filter(|&q| q != p && s.vp(q) > mine)
        .map(|q| (q, s.player(q).hand.total().min(2)))
        .filter(|&(_, n)| n > 0)
        .collect();
    check_named(s, "the Wedding", &due, given)?;
    for (q, b) in given {
        lose(s, *q, b, cause::CARD, Some(p), facts);
    }
    Ok(())
}

/// The player offers opponents a resource each; each gives back a commodity of their choice, if they have one.
fn commercial_harbor(s: &mut State, p: Seat, offers: &[Offer], facts: &mut Vec<Fact>) -> Result {
    for o in offers {
        if o.with == p {
            return fail("the Commercial Harbor trades with opponents");
        }
        if std::mem::replace(&mut s.harbor_offers[o.with as usize], true) {
            return fail(format!("{} was offered a trade by a Commercial Harbor this turn already", s.name(o.with)));
        }
        let give = Bundle::known(Cards::of(Card::Resource(o.give), 1));
        if !s.player(p).hand.can_give(&give) {
            return fail(format!("{} has no {} to offer", s.name(p), o.give));
        }
        let theirs = s.player(o.with).hand;
        match o.get {
            Some(c) => {
                let back = Bundle::known(Cards::of(Card::Commodity(c), 1));
                if !theirs.can_give(&back) {
                    return fail(format!("{} has no {} to give back: the hand is {theirs}", s.name(o.with), c.name()));
                }
                lose(s, p, &give, cause::TRADE, Some(o.with), facts);
                lose(s, o.with, &back, cause::TRADE, Some(p), facts);
            }
            None => {
                let has = Commodity::ALL.iter().any(|&c| theirs.known[Card::Commodity(c)] > 0);
                if has {
                    return fail(format!(
                        "{} holds a commodity and must give one back for the {}",
                        s.name(o.with),
                        o.give
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Two cards of the player's choice from an opponent with more points.
fn master_merchant(s: &mut State, p: Seat, victim: Seat, taken: &Bundle, facts: &mut Vec<Fact>) -> Result {
    if victim == p || s.vp(victim) <= s.vp(p) {
        return fail(format!("the Master Merchant takes from an opponent with more points than {}", s.name(p)));
    }
    let n = s.player(victim).hand.total().min(2);
    check_named(s, "the Master Merchant", &[(victim, n)], &[(victim, *taken)])?;
    lose(s, victim, taken, cause::CARD, Some(p), facts);
    Ok(())
}

/// The merchant goes on a land hex next to one of the player's buildings: 1 point, 2:1 for its resource.
fn merchant(s: &mut State, p: Seat, hex: HexId, facts: &mut Vec<Fact>) -> Result {
    let h = &s.board.hexes[hex as usize];
    if h.terrain.produces().is_none() {
        return fail(format!("the merchant goes on a hex that yields a resource, not on {}", s.board.hex_label(hex)));
    }
    if !h.corners.iter().any(|&v| s.building(v).is_some_and(|b| b.owner == p)) {
        return fail(format!(
            "the merchant goes next to one of {}'s settlements or cities, and {} has none",
            s.name(p),
            s.board.hex_label(hex)
        ));
    }
    let from = s.merchant.map(|(_, owner)| owner);
    s.merchant = Some((hex, p));
    if from != Some(p) {
        facts.push(Fact::Award { award: MERCHANT, from, to: Some(p) });
        if let Some(f) = from {
            score(s, f, MERCHANT, -1, facts);
        }
        score(s, p, MERCHANT, 1, facts);
    }
    Ok(())
}

/// Each opponent gives up to `limit` cards of `card`. Counts a record gives are checked against the
/// hands; without them, the hands must be known.
fn monopoly(
    s: &mut State,
    p: Seat,
    card: Card,
    limit: u8,
    taken: Option<&[(Seat, u8)]>,
    facts: &mut Vec<Fact>,
) -> Result {
    for q in s.seats().filter(|&q| q != p) {
        let hand = s.player(q).hand;
        let sure = hand.known[card].min(limit);
        let n = match taken.map(|t| t.iter().find(|(x, _)| *x == q).map_or(0, |&(_, n)| n)) {
            Some(n) if n > limit => return fail(format!("{} gives at most {limit} {card}, not {n}", s.name(q))),
            Some(n) if n < sure => {
                return fail(format!("{} holds {} {card} and gives {sure}, not {n}", s.name(q), hand.known[card]))
            }
            Some(n) if !hand.can_pay(card, n) => {
                return fail(format!("{} cannot give {n} {card}: the hand is {hand}", s.name(q)))
            }
            Some(n) => n,
            None if hand.unknown > 0 && sure < limit => {
                return fail(format!(
                    "{}'s hand is not all known: the event says how many {card} each gave (`taken`)",
                    s.name(q)
                ))
            }
            None => sure,
        };
        if n > 0 {
            lose(s, q, &Bundle::known(Cards::of(card, n)), cause::CARD, Some(p), facts);
        }
    }
    Ok(())
}
