//! Building roads, settlements and cities: where they may stand, what they cost, what they score.

use crate::board::{EdgeId, VertexId};
use crate::pieces::{Building, CITY, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, ROAD, SETTLEMENT};
use crate::resources::{Bundle, Resources, CITY_COST, ROAD_COST, SETTLEMENT_COST};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::points::{score, score_replacing};
use crate::rules::variants;
use crate::state::State;
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

/// The vertex is empty and no neighbour holds a settlement or city (the distance rule).
pub fn check_free_vertex(s: &State, p: Seat, v: VertexId) -> Result {
    s.layout().check_free_vertex(&s.table, p, SETTLEMENT, v).or_else(fail)
}

pub fn check_cost(s: &State, p: Seat, cost: &Resources, what: &str) -> Result {
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(cost) {
        let need = Bundle::known(*cost);
        return fail(format!("{} cannot pay for {what} ({need}): the hand is {hand}", s.name(p)));
    }
    Ok(())
}

/// Moves `cost` from the player's hand to the bank.
pub fn pay(s: &mut State, p: Seat, cost: &Resources, facts: &mut Vec<Fact>) {
    s.players[p as usize].hand.take_all(cost);
    for (r, n) in cost.present() {
        // An unlimited bank (a JSettlers game's) holds as many as its type does: it never overflows.
        s.bank[r] = s.bank[r].saturating_add(n);
        facts.push(Fact::Spent { player: p, item: r.name(), count: n as u32, cause: cause::PURCHASE });
    }
    s.built = true;
}

/// Puts a settlement on `v` (already checked) and scores it.
pub fn place_settlement(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) {
    s.buildings[v as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].settlements += 1;
    facts.push(Fact::Built { player: p, piece: SETTLEMENT });
    score(s, p, SETTLEMENT, 1, 1, facts);
}

/// Can player `p` build a road on edge `e` (connected, not through an opponent's building)?
pub fn road_connects(s: &State, p: Seat, e: EdgeId) -> bool {
    s.board.edges[e as usize].ends.iter().any(|&v| match s.building(v) {
        Some(b) => b.owner == p,
        // An opponent's settlement or city cuts the road network at this vertex.
        None => s.board.vertices[v as usize].edges.iter().any(|&o| o != e && s.road_owner(o) == Some(p)),
    })
}

/// Is there any edge where `p` could build a road now?
pub fn can_place_any_road(s: &State, p: Seat) -> bool {
    s.players[p as usize].roads < MAX_ROADS
        && (0..s.board.edges.len() as EdgeId).any(|e| s.road_owner(e).is_none() && road_connects(s, p, e))
}

pub fn build_road(s: &mut State, p: Seat, e: EdgeId, facts: &mut Vec<Fact>) -> Result {
    build_road_for(s, p, e, &ROAD_COST, facts)
}

/// A road paid with `cost` (the usual one, or a helper's); free while Road Building's roads last.
pub fn build_road_for(s: &mut State, p: Seat, e: EdgeId, cost: &Resources, facts: &mut Vec<Fact>) -> Result {
    let free = s.free_roads > 0;
    if !free {
        need_main(s, p, "building a road")?;
    }
    if s.players[p as usize].roads >= MAX_ROADS {
        return fail(format!("{} has no roads left (all {MAX_ROADS} are on the board)", s.name(p)));
    }
    s.layout().check_free_edge(&s.table, p, e).or_else(fail)?;
    if !road_connects(s, p, e) {
        return fail(format!(
            "road at {} does not connect to {}'s roads, settlements or cities",
            s.board.edge_label(e),
            s.name(p)
        ));
    }
    if free {
        s.free_roads -= 1;
    } else {
        check_cost(s, p, cost, "a road")?;
        pay(s, p, cost, facts);
    }
    s.roads[e as usize] = Some(p);
    s.players[p as usize].roads += 1;
    facts.push(Fact::Built { player: p, piece: ROAD });
    variants::road_built(s, p, e, facts);
    Ok(())
}

pub fn build_settlement(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    build_settlement_for(s, p, v, &SETTLEMENT_COST, facts)
}

/// A settlement paid with `cost` (the usual one, or a helper's).
pub fn build_settlement_for(s: &mut State, p: Seat, v: VertexId, cost: &Resources, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a settlement")?;
    if s.players[p as usize].settlements >= MAX_SETTLEMENTS {
        return fail(format!("{} has no settlements left (all {MAX_SETTLEMENTS} are on the board)", s.name(p)));
    }
    check_free_vertex(s, p, v)?;
    if !s.board.vertices[v as usize].edges.iter().any(|&e| s.road_owner(e) == Some(p)) {
        return fail(format!("settlement at {} is not connected to a road of {}", s.board.vertex_label(v), s.name(p)));
    }
    check_cost(s, p, cost, "a settlement")?;
    pay(s, p, cost, facts);
    place_settlement(s, p, v, facts);
    variants::settlement_built(s, p, v, facts);
    Ok(())
}

pub fn build_city(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    build_city_for(s, p, v, &CITY_COST, facts)
}

/// A city paid with `cost` (the usual one, or a helper's).
pub fn build_city_for(s: &mut State, p: Seat, v: VertexId, cost: &Resources, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a city")?;
    s.layout().check_city_site(&s.table, p, v).or_else(fail)?;
    if s.players[p as usize].cities >= MAX_CITIES {
        return fail(format!("{} has no cities left (all {MAX_CITIES} are on the board)", s.name(p)));
    }
    check_cost(s, p, cost, "a city")?;
    pay(s, p, cost, facts);
    s.buildings[v as usize] = Some(Building { owner: p, city: true });
    s.players[p as usize].settlements -= 1;
    s.players[p as usize].cities += 1;
    facts.push(Fact::Built { player: p, piece: CITY });
    score_replacing(s, p, (SETTLEMENT, 1), (CITY, 2), facts);
    Ok(())
}
