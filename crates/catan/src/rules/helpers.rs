//! The rules of using a helper: the common restrictions, then one function per helper.

use crate::board::{EdgeId, HexId, VertexId};
use crate::development::DevCard;
use crate::helpers::{any_turn, AfterUse, HelperAction, HelperCard, HelperUse, HELPERS};
use crate::resources::{Bundle, Resource, ResourceCard, Resources, DEV_CARD_COST};
use crate::rules::build::{build_city_for, build_road_for, build_settlement_for, road_connects};
use crate::rules::checks::{fail, Result};
use crate::rules::development::{buy_development_for, left_in_deck};
use crate::rules::dice::steal;
use crate::rules::points::{update_largest_army, update_longest_road};
use crate::state::{Phase, State};
use crate::vocabulary::HELPER;
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

pub fn use_helper(s: &mut State, u: &HelperUse, facts: &mut Vec<Fact>) -> Result {
    let p = u.player;
    let name = s.name(p).to_string();
    let Some(h) = s.helpers.as_ref() else {
        return fail("this game is played without helpers");
    };
    let Some(card) = h.held[p as usize] else {
        return fail(format!("{name} has no helper yet"));
    };
    if card.helper != u.helper {
        return fail(format!("{name}'s helper is {}, not {}", HELPERS[card.helper], HELPERS[u.helper]));
    }
    if card.taken_turn == s.turn {
        return fail(format!("{name} took {} this turn and cannot use it before the next", HELPERS[u.helper]));
    }
    if h.used_turn[p as usize] == Some(s.turn) {
        return fail(format!("{name} already used a helper this turn (once per turn)"));
    }
    match u.after {
        AfterUse::Flip if card.b_side => {
            return fail(format!(
                "{} is on its B side: after the use it must be swapped for one on display",
                HELPERS[u.helper]
            ))
        }
        AfterUse::Swap(other) if !h.display.contains(&other) => {
            let shown: Vec<&str> = h.display.iter().map(|&d| HELPERS[d]).collect();
            return fail(format!("{} is not on display (on display: {})", HELPERS[other], shown.join(", ")));
        }
        _ => {}
    }
    if !any_turn(u.helper) && p != s.active {
        return fail(format!("{name} uses {} out of turn: it is {}'s turn", HELPERS[u.helper], s.name(s.active)));
    }

    match &u.action {
        HelperAction::Candamir { pay, drawn, card } => candamir(s, p, pay, drawn, *card, facts)?,
        HelperAction::Hilde { victim, took } => hilde(s, p, *victim, *took, facts)?,
        HelperAction::Jean { resource } => {
            own_turn_phase(s, &name)?;
            let turn = s.turn;
            s.helpers.as_mut().expect("checked").jean = Some((p, *resource, turn));
        }
        HelperAction::Lin { hex } => lin(s, p, *hex, facts)?,
        HelperAction::Louis { from, to } => louis(s, p, *from, *to, facts)?,
        HelperAction::Marianne { resource } => marianne(s, p, *resource, facts)?,
        HelperAction::Nassir { resource, opponents, received, returned } => {
            nassir(s, p, *resource, opponents, received.as_deref(), returned, facts)?
        }
        HelperAction::Sean { resource } => sean(s, p, *resource, facts)?,
        HelperAction::Vincent { city, at } => vincent(s, p, *city, *at, facts)?,
        HelperAction::William { at, pay } => william(s, p, *at, pay, facts)?,
    }

    // The use is done: record it, then flip or swap.
    let turn = s.turn;
    let h = s.helpers.as_mut().expect("checked");
    h.used_turn[p as usize] = Some(turn);
    facts.push(Fact::CardPlayed { player: p, card: HELPERS[u.helper] });
    match u.after {
        AfterUse::Flip => h.held[p as usize] = Some(HelperCard { b_side: true, ..card }),
        AfterUse::Swap(other) => {
            h.display.retain(|&d| d != other);
            h.display.push(card.helper);
            h.held[p as usize] = Some(HelperCard { helper: other, b_side: false, taken_turn: turn });
        }
    }
    Ok(())
}

/// Helpers used in the user's own turn: before the roll or after it, not while a 7 or a knight is being
/// resolved.
fn own_turn_phase(s: &State, name: &str) -> Result {
    match s.phase {
        Phase::Main | Phase::BeforeRoll => Ok(()),
        _ => fail(format!("{name} cannot use a helper while the robber or a discard is pending")),
    }
}

/// One card from the bank for the helper's user.
fn gain(s: &mut State, p: Seat, r: Resource, facts: &mut Vec<Fact>) -> Result {
    if s.bank[r] == 0 {
        return fail(format!("the bank has no {r} left"));
    }
    s.bank[r] -= 1;
    s.players[p as usize].hand.add(r, 1);
    facts.push(Fact::Gained { player: p, item: r.name(), count: 1, cause: HELPER, from: None });
    Ok(())
}

fn candamir(s: &mut State, p: Seat, pay: &Bundle, drawn: &[DevCard], card: DevCard, facts: &mut Vec<Fact>) -> Result {
    if pay.unknown > 0 || pay.total() != 3 {
        return fail("Candamir: the card is paid with three named resource cards");
    }
    let replaced: u32 = DEV_CARD_COST.iter().map(|(r, n)| n.saturating_sub(pay.known[r]) as u32).sum();
    if replaced > 1 {
        return fail(format!("Candamir replaces one of wool, grain and ore, but {pay} is not such a payment"));
    }
    let expect = 3.min(s.deck_left as usize);
    if drawn.len() != expect {
        return fail(format!("Candamir draws the top {expect} development cards, not {}", drawn.len()));
    }
    let left = left_in_deck(s);
    for c in DevCard::ALL {
        let n = drawn.iter().filter(|&&d| d == c).count() as u8;
        if n > left[c] {
            return fail(format!("Candamir draws {n} {} but the deck cannot hold that many", c.name()));
        }
    }
    if !drawn.contains(&card) {
        return fail(format!("Candamir keeps one of the cards drawn, and {} is not among them", card.name()));
    }
    buy_development_for(s, p, Some(card), &pay.known, facts)
}

fn hilde(s: &mut State, p: Seat, victim: Seat, took: ResourceCard, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    if s.phase != Phase::Main {
        return fail(format!("{name} uses Hilde only after the production roll is resolved"));
    }
    if victim == p {
        return fail("Hilde takes from an opponent");
    }
    let (mine, theirs) = (s.vp_public(p), s.vp_public(victim));
    if theirs <= mine {
        return fail(format!(
            "Hilde takes only from a player with more victory points on the board: {} has {theirs}, {name} {mine}",
            s.name(victim)
        ));
    }
    let hand = s.players[victim as usize].hand;
    match took {
        ResourceCard::Known(r) if !hand.can_pay(r, 1) => {
            return fail(format!("Hilde takes {r} from {}, whose hand is {hand}", s.name(victim)))
        }
        ResourceCard::Unknown if hand.total() == 0 => {
            return fail(format!("{} has no cards for Hilde to take", s.name(victim)))
        }
        _ => {}
    }
    steal(s, p, victim, took, HELPER, facts);
    Ok(())
}

fn lin(s: &mut State, p: Seat, hex: Option<HexId>, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    own_turn_phase(s, &name)?;
    let from = s.robber;
    let Some(r) = s.board.hexes[from as usize].terrain.produces() else {
        return fail("Lin moves the robber from a land hex to the desert, and it already stands on the desert");
    };
    let deserts: Vec<HexId> =
        (0..s.board.hexes.len() as HexId).filter(|&h| s.board.hexes[h as usize].terrain.produces().is_none()).collect();
    let to = match (hex, deserts.as_slice()) {
        (_, []) => return fail("Lin needs a desert, and this board has none"),
        (None, [only]) => *only,
        (None, _) => return fail("Lin: there are several deserts; the event must say which `hex`"),
        (Some(h), _) if deserts.contains(&h) => h,
        (Some(h), _) => {
            return fail(format!("Lin moves the robber to the desert, and {} is not one", s.board.hex_label(h)))
        }
    };
    gain(s, p, r, facts)?;
    s.robber = to;
    Ok(())
}

fn louis(s: &mut State, p: Seat, from: EdgeId, to: EdgeId, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    own_turn_phase(s, &name)?;
    if s.roads[from as usize] != Some(p) {
        return fail(format!("Louis moves one of {name}'s roads, and {} is not one", s.board.edge_label(from)));
    }
    // An end is tied down by an own settlement or city, or another own road (opponents' pieces do not count).
    let tied = |v: VertexId| {
        s.buildings[v as usize].is_some_and(|b| b.owner == p)
            || s.board.vertices[v as usize].edges.iter().any(|&o| o != from && s.roads[o as usize] == Some(p))
    };
    if s.board.edges[from as usize].ends.iter().all(|&v| tied(v)) {
        return fail(format!("Louis moves only a road loose at one end; {} is tied at both", s.board.edge_label(from)));
    }
    // Lift the road, then place it as a new one would be placed.
    s.roads[from as usize] = None;
    if to != from {
        if let Some(o) = s.roads[to as usize] {
            return fail(format!("Louis: {} already has a road at {}", s.name(o), s.board.edge_label(to)));
        }
    }
    if !road_connects(s, p, to) {
        return fail(format!("Louis: a road at {} would not connect to {name}'s pieces", s.board.edge_label(to)));
    }
    s.roads[to as usize] = Some(p);
    let everyone: Vec<Seat> = s.seats().collect();
    update_longest_road(s, &everyone, facts);
    Ok(())
}

fn marianne(s: &mut State, p: Seat, r: Resource, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    let roll = s.helpers.as_ref().and_then(|h| h.last_roll);
    match roll {
        Some((turn, sum, paid)) if turn == s.turn && sum != 7 && s.phase == Phase::Main => {
            if paid & (1 << p) != 0 {
                return fail(format!("Marianne helps only a player the roll paid nothing, and it paid {name}"));
            }
        }
        Some((turn, 7, _)) if turn == s.turn => return fail("Marianne does not help after a 7"),
        _ => return fail("Marianne is used right after a production roll (in that turn)"),
    }
    gain(s, p, r, facts)
}

fn nassir(
    s: &mut State,
    p: Seat,
    r: Resource,
    opponents: &[Seat],
    received: Option<&[(Seat, u8)]>,
    returned: &[(Seat, Resource)],
    facts: &mut Vec<Fact>,
) -> Result {
    let name = s.name(p).to_string();
    // The rulebook sets no moment within the turn; not while a 7 or a knight is being resolved.
    own_turn_phase(s, &name)?;
    if opponents.is_empty() || opponents.len() > 2 {
        return fail("Nassir names one or two opponents");
    }
    if opponents.contains(&p) || (opponents.len() == 2 && opponents[0] == opponents[1]) {
        return fail("Nassir names one or two different opponents");
    }
    // Each opponent gives one card of the named resource if they have one.
    let mut given = Vec::new();
    for &o in opponents {
        let hand = s.players[o as usize].hand;
        let stated = received.map(|rc| rc.iter().find(|(seat, _)| *seat == o).map(|(_, n)| *n).unwrap_or(0));
        let n = match stated {
            Some(n) if n > 1 => return fail("Nassir: each opponent gives at most one card"),
            Some(n) if (n == 0 && hand.known[r] > 0) || (n == 1 && !hand.can_pay(r, 1)) => {
                return fail(format!("Nassir: the log says {} gives {n} {r}, but the hand is {hand}", s.name(o)))
            }
            Some(n) => n,
            None if hand.unknown > 0 && hand.known[r] == 0 => {
                return fail(format!(
                    "Nassir: {} holds unknown cards, so the event must say what was `received`",
                    s.name(o)
                ))
            }
            None => u8::from(hand.known[r] > 0),
        };
        given.push((o, n));
    }
    let mut after = s.players[p as usize].hand;
    after.add(r, given.iter().map(|(_, n)| n).sum());
    for &(o, n) in &given {
        let back: Vec<Resource> = returned.iter().filter(|(seat, _)| *seat == o).map(|(_, c)| *c).collect();
        if back.len() != n as usize {
            return fail(format!(
                "Nassir gives {} one card of choice for each card received ({n}), not {}",
                s.name(o),
                back.len()
            ));
        }
        for &c in &back {
            if !after.can_pay(c, 1) {
                return fail(format!("Nassir: {name} cannot give {c} back; the hand would be {after}"));
            }
            after.take(c, 1);
        }
    }
    for &(o, n) in &given {
        if n == 1 {
            give(s, o, p, r, facts);
        }
    }
    for &(o, c) in returned {
        give(s, p, o, c, facts);
    }
    Ok(())
}

/// One card of `r` from `from` to `to`, because of a helper.
fn give(s: &mut State, from: Seat, to: Seat, r: Resource, facts: &mut Vec<Fact>) {
    s.players[from as usize].hand.take(r, 1);
    s.players[to as usize].hand.add(r, 1);
    facts.extend(Fact::passed(from, to, r.name(), 1, HELPER));
}

fn sean(s: &mut State, p: Seat, resource: Option<Resource>, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    let after_seven = matches!(s.phase, Phase::Discard | Phase::MoveRobber { knight: false });
    if !after_seven {
        return fail("Sean is used right after a 7 is rolled, before the robber moves");
    }
    let cards = s.players[p as usize].hand.total();
    match resource {
        None => {
            if s.must_discard[p as usize] == 0 {
                return fail(format!("Sean spares a discard, but {name} has none to make"));
            }
            s.must_discard[p as usize] = 0;
            if s.must_discard.iter().all(|&d| d == 0) {
                s.phase = Phase::MoveRobber { knight: false };
            }
            Ok(())
        }
        Some(r) => {
            if cards > s.options.discard_limit as u32 {
                return fail(format!("Sean gives a card only to a player holding 7 or fewer; {name} holds {cards}"));
            }
            gain(s, p, r, facts)
        }
    }
}

/// Vincent's prices: lumber + brick for a settlement, 2 ore + grain for a city.
const VINCENT_SETTLEMENT: Resources = Resources::new(1, 1, 0, 0, 0);
const VINCENT_CITY: Resources = Resources::new(0, 0, 0, 1, 2);

fn vincent(s: &mut State, p: Seat, city: bool, at: VertexId, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    if s.players[p as usize].dev.played[DevCard::Knight] == 0 {
        return fail(format!("Vincent discards a played knight, and {name} has none"));
    }
    if city {
        build_city_for(s, p, at, &VINCENT_CITY, facts)?;
    } else {
        build_settlement_for(s, p, at, &VINCENT_SETTLEMENT, facts)?;
    }
    s.players[p as usize].dev.played[DevCard::Knight] -= 1;
    s.players[p as usize].dev.knights_discarded += 1;
    update_largest_army(s, facts);
    Ok(())
}

fn william(s: &mut State, p: Seat, at: EdgeId, pay: &Bundle, facts: &mut Vec<Fact>) -> Result {
    let wood_or_brick = pay.known[Resource::Lumber] > 0 || pay.known[Resource::Brick] > 0;
    if pay.unknown > 0 || pay.total() != 2 || !wood_or_brick {
        return fail(format!("William pays a road with lumber or brick and one other card, not {pay}"));
    }
    build_road_for(s, p, at, &pay.known, facts)
}

#[cfg(test)]
mod tests;
