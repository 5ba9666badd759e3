//! Roads, settlements, cities and city walls: where they may stand, what they cost, what they score.
//! Knights stand on intersections too: an opponent's knight cuts a road like a building.

use crate::cards::{cost, Bundle, Card, Cards};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::points::{score, score_swap, update_longest_road};
use crate::state::{State, MAX_WALLS};
use crate::vocabulary::{CITY, ROAD, SETTLEMENT, WALL};
use almanac_catan::board::{EdgeId, VertexId};
use almanac_catan::pieces::{Building, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS};
use almanac_catan::resources::Resource::{Brick, Grain, Lumber, Ore, Wool};
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

pub fn road_cost() -> Cards {
    cost(&[(Lumber, 1), (Brick, 1)])
}
pub fn settlement_cost() -> Cards {
    cost(&[(Lumber, 1), (Brick, 1), (Wool, 1), (Grain, 1)])
}
pub fn city_cost() -> Cards {
    cost(&[(Grain, 2), (Ore, 3)])
}
pub fn wall_cost() -> Cards {
    cost(&[(Brick, 2)])
}

/// Nothing stands on `v` and no neighbour holds a settlement or city (the distance rule).
pub fn check_free_vertex(s: &State, p: Seat, piece: &str, v: VertexId) -> Result {
    // A knight is no building, but nothing is built under it either. (Never both on one vertex.)
    if let Some(k) = s.knight(v) {
        return fail(format!("{}'s {} stands at {}", s.name(k.owner), k.name(), s.board.vertex_label(v)));
    }
    s.layout(&s.buildings).check_free_vertex(&s.table, p, piece, v).or_else(fail)
}

pub fn check_cost(s: &State, p: Seat, cost: &Cards, what: &str) -> Result {
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(cost) {
        return fail(format!("{} cannot pay for {what} ({}): the hand is {hand}", s.name(p), Bundle::known(*cost)));
    }
    Ok(())
}

/// Moves `cost` from the player's hand to the bank.
pub fn pay(s: &mut State, p: Seat, cost: &Cards, facts: &mut Vec<Fact>) {
    s.players[p as usize].hand.take_all(cost);
    for (c, n) in cost.present() {
        s.bank[c] += n;
        facts.push(Fact::Spent { player: p, item: c.name(), count: n as u32, cause: cause::PURCHASE });
    }
}

/// Does vertex `v` let `p`'s road network pass: not an opponent's building or knight?
pub fn passable(s: &State, p: Seat, v: VertexId) -> bool {
    s.building(v).is_none_or(|b| b.owner == p) && s.knight(v).is_none_or(|k| k.owner == p)
}

/// Could `p` build a road on edge `e`: it touches `p`'s building, or `p`'s road at an end nobody else holds?
pub fn road_connects(s: &State, p: Seat, e: EdgeId) -> bool {
    s.board.edges[e as usize].ends.iter().any(|&v| {
        s.building(v).is_some_and(|b| b.owner == p)
            || (passable(s, p, v)
                && s.board.vertices[v as usize].edges.iter().any(|&o| o != e && s.road_owner(o) == Some(p)))
    })
}

/// Puts a road down (checked) and measures the roads again.
pub fn place_road(s: &mut State, p: Seat, e: EdgeId, facts: &mut Vec<Fact>) {
    s.roads[e as usize] = Some(p);
    s.players[p as usize].roads += 1;
    facts.push(Fact::Built { player: p, piece: ROAD });
    update_longest_road(s, facts);
}

pub fn check_road(s: &State, p: Seat, e: EdgeId) -> Result {
    if s.players[p as usize].roads >= MAX_ROADS {
        return fail(format!("{} has no roads left (all {MAX_ROADS} are on the board)", s.name(p)));
    }
    s.layout(&s.buildings).check_free_edge(&s.table, p, e).or_else(fail)?;
    if !road_connects(s, p, e) {
        return fail(format!(
            "road at {} does not connect to {}'s roads, settlements or cities (an opponent's knight or building cuts a road)",
            s.board.edge_label(e),
            s.name(p)
        ));
    }
    Ok(())
}

pub fn build_road(s: &mut State, p: Seat, e: EdgeId, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a road")?;
    check_road(s, p, e)?;
    if s.free_roads > 0 {
        s.free_roads -= 1;
    } else {
        check_cost(s, p, &road_cost(), "a road")?;
        pay(s, p, &road_cost(), facts);
    }
    place_road(s, p, e, facts);
    Ok(())
}

pub fn build_settlement(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a settlement")?;
    if s.players[p as usize].settlements >= MAX_SETTLEMENTS {
        return fail(format!("{} has no settlements left (all {MAX_SETTLEMENTS} are on the board)", s.name(p)));
    }
    if s.knight(v).is_some_and(|k| k.owner == p) {
        return fail(format!(
            "{}'s own knight stands at {}: it must move away before a settlement is built there",
            s.name(p),
            s.board.vertex_label(v)
        ));
    }
    check_free_vertex(s, p, SETTLEMENT, v)?;
    if !s.board.vertices[v as usize].edges.iter().any(|&e| s.road_owner(e) == Some(p)) {
        return fail(format!("settlement at {} is not connected to a road of {}", s.board.vertex_label(v), s.name(p)));
    }
    check_cost(s, p, &settlement_cost(), "a settlement")?;
    pay(s, p, &settlement_cost(), facts);
    s.buildings[v as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].settlements += 1;
    facts.push(Fact::Built { player: p, piece: SETTLEMENT });
    score(s, p, SETTLEMENT, 1, facts);
    update_longest_road(s, facts);
    Ok(())
}

/// A city over one of `p`'s settlements, for `price` (the usual cost, or the Medicine's).
pub fn build_city_for(s: &mut State, p: Seat, v: VertexId, price: &Cards, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a city")?;
    s.layout(&s.buildings).check_city_site(&s.table, p, v).or_else(fail)?;
    if s.players[p as usize].cities >= MAX_CITIES {
        return fail(format!("{} has no cities left (all {MAX_CITIES} are on the board)", s.name(p)));
    }
    check_cost(s, p, price, "a city")?;
    pay(s, p, price, facts);
    s.buildings[v as usize] = Some(Building { owner: p, city: true });
    s.players[p as usize].settlements -= 1;
    s.players[p as usize].cities += 1;
    facts.push(Fact::Built { player: p, piece: CITY });
    score_swap(s, p, (SETTLEMENT, 1), (CITY, 2), facts);
    Ok(())
}

/// A wall under one of `p`'s cities: paid, or free (the Engineer).
pub fn build_wall(s: &mut State, p: Seat, v: VertexId, free: bool, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a city wall")?;
    if s.building(v) != Some(Building { owner: p, city: true }) {
        return fail(format!(
            "a city wall goes under one of {}'s cities, and {} holds none",
            s.name(p),
            s.board.vertex_label(v)
        ));
    }
    if s.walls[v as usize] {
        return fail(format!("the city at {} already has a wall", s.board.vertex_label(v)));
    }
    if s.players[p as usize].walls >= MAX_WALLS {
        return fail(format!("{} has no city walls left (all {MAX_WALLS} are built)", s.name(p)));
    }
    if !free {
        check_cost(s, p, &wall_cost(), "a city wall")?;
        pay(s, p, &wall_cost(), facts);
    }
    s.walls[v as usize] = true;
    s.players[p as usize].walls += 1;
    facts.push(Fact::Built { player: p, piece: WALL });
    Ok(())
}

/// The barbarians reduce a city to a settlement; its wall goes with it.
pub fn pillage(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) {
    s.buildings[v as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].cities -= 1;
    s.players[p as usize].settlements += 1;
    if std::mem::take(&mut s.walls[v as usize]) {
        s.players[p as usize].walls -= 1;
    }
    score_swap(s, p, (CITY, 2), (SETTLEMENT, 1), facts);
}

/// Gives `n` cards of kind `c` from the bank (as many as it has) with the fact; returns how many.
pub fn from_bank(s: &mut State, p: Seat, c: Card, n: u8, why: &'static str, facts: &mut Vec<Fact>) -> u8 {
    let n = n.min(s.bank[c]);
    if n > 0 {
        s.bank[c] -= n;
        s.players[p as usize].hand.add(c, n);
        facts.push(Fact::Gained { player: p, item: c.name(), count: n as u32, cause: why, from: None });
    }
    n
}
