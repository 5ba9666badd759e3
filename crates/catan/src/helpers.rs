//! The Helpers of Catan scenario (seed `000_bb058c3a180c4e81.txt`, "YARDIMCI KURALLARI").
//!
//! Ten two-sided helper cards. The six numbered ones form a stack (A1 on top, named in the header's
//! `helpers.stack`, since the rulebook names only A1: Nassir); each player takes the top one right after
//! placing the second settlement and road, and the rest join the display. A player always has exactly one
//! helper; it is not used in the turn it was taken, at most once per turn, never in the Special Building
//! Phase. After a use: flip an A side to B and keep it, or swap it for one of the display (a B side must
//! be swapped); a new helper comes A side up.

use crate::board::{EdgeId, HexId, VertexId};
use crate::cards::*;
use crate::event::Stolen;
use crate::rules::{self, fail, Result};
use crate::state::{Phase, State};
use almanac_core::{Cause, Fact, Seat, SetupError};

pub const HELPERS: [&str; 10] =
    ["Candamir", "Hilde", "Jean", "Lin", "Louis", "Marianne", "Nassir", "Sean", "Vincent", "William"];
pub const CANDAMIR: usize = 0;
pub const HILDE: usize = 1;
pub const JEAN: usize = 2;
pub const LIN: usize = 3;
pub const LOUIS: usize = 4;
pub const MARIANNE: usize = 5;
pub const NASSIR: usize = 6;
pub const SEAN: usize = 7;
pub const VINCENT: usize = 8;
pub const WILLIAM: usize = 9;

pub fn helper(name: &str) -> Option<usize> {
    HELPERS.iter().position(|h| *h == name)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelperCard {
    pub helper: usize,
    pub b_side: bool,
    /// The turn the player took it (it cannot be used in that turn).
    pub taken_turn: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Helpers {
    /// The numbered helpers not yet taken, top first (empty once setup is over).
    pub stack: Vec<usize>,
    /// The helpers on display, A side up.
    pub display: Vec<usize>,
    pub held: Vec<Option<HelperCard>>,
    /// The turn in which each player last used their helper.
    pub used_turn: Vec<Option<u32>>,
    /// Jean's choice: (player, resource, turn) for 2:1 trades that turn.
    pub jean: Option<(Seat, usize, u32)>,
    /// The last production roll: (turn, dice sum, players who received something, as a bit set).
    pub last_roll: Option<(u32, u8, u8)>,
}

impl Helpers {
    pub fn new(stack: &[String], players: usize) -> std::result::Result<Helpers, SetupError> {
        let mut ids = Vec::new();
        for name in stack {
            let h = helper(name).ok_or_else(|| {
                SetupError(format!("helpers: unknown helper `{name}` (the ten are {})", HELPERS.join(", ")))
            })?;
            if ids.contains(&h) {
                return Err(SetupError(format!("helpers: `{name}` is twice in the stack")));
            }
            ids.push(h);
        }
        if ids.len() != 6 {
            return Err(SetupError(format!(
                "helpers: the stack holds the six numbered helpers A1..A6, not {}",
                ids.len()
            )));
        }
        if players > 6 {
            return Err(SetupError("helpers: at most six players".into()));
        }
        let display = (0..HELPERS.len()).filter(|h| !ids.contains(h)).collect();
        Ok(Helpers {
            stack: ids,
            display,
            held: vec![None; players],
            used_turn: vec![None; players],
            jean: None,
            last_roll: None,
        })
    }
}

/// What a player does with a helper.
#[derive(Debug, Clone, PartialEq)]
pub enum HelperAction {
    /// Buys a development card paying one of wool, grain, ore with another resource, and keeps one of the
    /// top three cards (`drawn`).
    Candamir { pay: Bundle, drawn: Vec<usize>, card: usize },
    /// Takes a card of their choice from a player with more victory points on the board.
    Hilde { victim: Seat, took: Stolen },
    /// Trades this resource 2:1 with the bank for the rest of the turn.
    Jean { resource: usize },
    /// Moves the robber from a land hex to the desert (`hex`, when there are several) and takes one card
    /// of what the vacated hex produces.
    Lin { hex: Option<HexId> },
    /// Moves one of the player's roads that is loose at one end to another place, free.
    Louis { from: EdgeId, to: EdgeId },
    /// After a roll other than 7 that paid the player nothing: one card of their choice.
    Marianne { resource: usize },
    /// Names a resource; one or two opponents each give one of it (if they have one), and get one card of
    /// the player's choice for each card given.
    Nassir { resource: usize, opponents: Vec<Seat>, received: Option<Vec<(Seat, u8)>>, returned: Vec<(Seat, usize)> },
    /// After a 7: keep all cards instead of discarding (`None`), or, holding 7 or fewer, take one card.
    Sean { resource: Option<usize> },
    /// Discards a played knight to build a settlement for lumber + brick or a city for 2 ore + grain.
    Vincent { city: bool, at: VertexId },
    /// Builds a road paying lumber or brick with another resource.
    William { at: EdgeId, pay: Bundle },
}

/// After the use: keep the helper turned to its B side, or swap it for one on display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterUse {
    Flip,
    Swap(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub struct HelperUse {
    pub player: Seat,
    pub helper: usize,
    pub action: HelperAction,
    pub after: AfterUse,
}

/// In setup, right after the second road: the player takes the top of the stack; after the last player,
/// the rest of the stack joins the display.
pub fn take_starting_helper(s: &mut State, p: Seat, last_placement: bool) {
    let turn = s.turn;
    let Some(h) = s.helpers.as_mut() else { return };
    if !h.stack.is_empty() {
        let top = h.stack.remove(0);
        h.held[p as usize] = Some(HelperCard { helper: top, b_side: false, taken_turn: turn });
    }
    if last_placement {
        let rest: Vec<usize> = h.stack.drain(..).collect();
        h.display.extend(rest);
    }
}

/// Jean's 2:1 resource for player `p` this turn, if any.
pub fn jean_rate(s: &State, p: Seat, r: usize) -> bool {
    s.helpers.as_ref().and_then(|h| h.jean).is_some_and(|(who, res, turn)| who == p && res == r && turn == s.turn)
}

/// Remembers who a production roll paid (for Marianne).
pub fn note_roll(s: &mut State, sum: u8, paid: u8) {
    let turn = s.turn;
    if let Some(h) = s.helpers.as_mut() {
        h.last_roll = Some((turn, sum, paid));
    }
}

/// Marianne and Sean are used in anybody's turn; the others only in the user's own.
pub fn any_turn(helper: usize) -> bool {
    helper == MARIANNE || helper == SEAN
}

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

fn gain(s: &mut State, p: Seat, r: usize, facts: &mut Vec<Fact>) -> Result {
    if s.bank[r] == 0 {
        return fail(format!("the bank has no {} left", RESOURCES[r]));
    }
    s.bank[r] -= 1;
    s.players[p as usize].hand.add(r, 1);
    facts.push(Fact::Gained { player: p, item: RESOURCES[r], count: 1, cause: Cause::Helper, from: None });
    Ok(())
}

fn candamir(s: &mut State, p: Seat, pay: &Bundle, drawn: &[usize], card: usize, facts: &mut Vec<Fact>) -> Result {
    if pay.unknown > 0 || pay.total() != 3 {
        return fail("Candamir: the card is paid with three named resource cards");
    }
    let replaced: u32 = (0..5).map(|r| DEV_CARD_COST[r].saturating_sub(pay.known[r]) as u32).sum();
    if replaced > 1 {
        return fail(format!("Candamir replaces one of wool, grain and ore, but {} is not such a payment", pay));
    }
    let expect = 3.min(s.deck_left as usize);
    if drawn.len() != expect {
        return fail(format!("Candamir draws the top {expect} development cards, not {}", drawn.len()));
    }
    for c in 0..5 {
        let n = drawn.iter().filter(|&&d| d == c).count() as u8;
        if n > s.equipment.deck[c] - s.deck_drawn[c] {
            return fail(format!("Candamir draws {n} {} but the deck cannot hold that many", DEV_CARDS[c]));
        }
    }
    if !drawn.contains(&card) {
        return fail(format!("Candamir keeps one of the cards drawn, and {} is not among them", DEV_CARDS[card]));
    }
    rules::buy_development_for(s, p, Some(card), &pay.known, facts)
}

fn hilde(s: &mut State, p: Seat, victim: Seat, took: Stolen, facts: &mut Vec<Fact>) -> Result {
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
    let item = match took {
        Stolen::Known(r) => {
            if !hand.can_pay(r, 1) {
                return fail(format!("Hilde takes {} from {}, whose hand is {hand}", RESOURCES[r], s.name(victim)));
            }
            s.players[victim as usize].hand.take(r, 1);
            s.players[p as usize].hand.add(r, 1);
            RESOURCES[r]
        }
        Stolen::Unknown => {
            if hand.total() == 0 {
                return fail(format!("{} has no cards for Hilde to take", s.name(victim)));
            }
            s.players[victim as usize].hand.take_unseen();
            s.players[p as usize].hand.unknown += 1;
            "unknown"
        }
    };
    facts.push(Fact::Lost { player: victim, item, count: 1, cause: Cause::Helper, to: Some(p) });
    facts.push(Fact::Gained { player: p, item, count: 1, cause: Cause::Helper, from: Some(victim) });
    Ok(())
}

fn lin(s: &mut State, p: Seat, hex: Option<HexId>, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    own_turn_phase(s, &name)?;
    let from = s.robber;
    let Some(r) = produces(s.board.hexes[from as usize].terrain) else {
        return fail("Lin moves the robber from a land hex to the desert, and it already stands on the desert");
    };
    let deserts: Vec<HexId> =
        (0..s.board.hexes.len() as HexId).filter(|&h| s.board.hexes[h as usize].terrain == 5).collect();
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
    let mut moved = s.clone();
    moved.roads[from as usize] = None;
    moved.players[p as usize].roads -= 1;
    if to != from {
        if let Some(o) = moved.roads[to as usize] {
            return fail(format!("Louis: {} already has a road at {}", s.name(o), s.board.edge_label(to)));
        }
    }
    if !rules::road_connects(&moved, p, to) {
        return fail(format!("Louis: a road at {} would not connect to {name}'s pieces", s.board.edge_label(to)));
    }
    s.roads[from as usize] = None;
    s.roads[to as usize] = Some(p);
    let everyone: Vec<Seat> = (0..s.players.len() as Seat).collect();
    rules::update_longest_road(s, &everyone, facts);
    Ok(())
}

fn marianne(s: &mut State, p: Seat, r: usize, facts: &mut Vec<Fact>) -> Result {
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
    r: usize,
    opponents: &[Seat],
    received: Option<&[(Seat, u8)]>,
    returned: &[(Seat, usize)],
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
                return fail(format!(
                    "Nassir: the log says {} gives {n} {}, but the hand is {hand}",
                    s.name(o),
                    RESOURCES[r]
                ))
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
        let back: Vec<usize> = returned.iter().filter(|(seat, _)| *seat == o).map(|(_, c)| *c).collect();
        if back.len() != n as usize {
            return fail(format!(
                "Nassir gives {} one card of choice for each card received ({n}), not {}",
                s.name(o),
                back.len()
            ));
        }
        for &c in &back {
            if !after.can_pay(c, 1) {
                return fail(format!("Nassir: {name} cannot give {} back; the hand would be {after}", RESOURCES[c]));
            }
            after.take(c, 1);
        }
    }
    for &(o, n) in &given {
        if n == 1 {
            s.players[o as usize].hand.take(r, 1);
            s.players[p as usize].hand.add(r, 1);
            facts.push(Fact::Lost { player: o, item: RESOURCES[r], count: 1, cause: Cause::Helper, to: Some(p) });
            facts.push(Fact::Gained { player: p, item: RESOURCES[r], count: 1, cause: Cause::Helper, from: Some(o) });
        }
    }
    for &(o, c) in returned {
        s.players[p as usize].hand.take(c, 1);
        s.players[o as usize].hand.add(c, 1);
        facts.push(Fact::Lost { player: p, item: RESOURCES[c], count: 1, cause: Cause::Helper, to: Some(o) });
        facts.push(Fact::Gained { player: o, item: RESOURCES[c], count: 1, cause: Cause::Helper, from: Some(p) });
    }
    Ok(())
}

fn sean(s: &mut State, p: Seat, resource: Option<usize>, facts: &mut Vec<Fact>) -> Result {
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

fn vincent(s: &mut State, p: Seat, city: bool, at: VertexId, facts: &mut Vec<Fact>) -> Result {
    let name = s.name(p).to_string();
    if s.players[p as usize].dev.played[KNIGHT] == 0 {
        return fail(format!("Vincent discards a played knight, and {name} has none"));
    }
    if city {
        rules::build_city_for(s, p, at, &[0, 0, 0, 1, 2], facts)?;
    } else {
        rules::build_settlement_for(s, p, at, &[1, 1, 0, 0, 0], facts)?;
    }
    s.players[p as usize].dev.played[KNIGHT] -= 1;
    s.players[p as usize].dev.knights_discarded += 1;
    rules::update_largest_army(s, facts);
    Ok(())
}

fn william(s: &mut State, p: Seat, at: EdgeId, pay: &Bundle, facts: &mut Vec<Fact>) -> Result {
    if pay.unknown > 0 || pay.total() != 2 || (pay.known[0] == 0 && pay.known[1] == 0) {
        return fail(format!("William pays a road with lumber or brick and one other card, not {pay}"));
    }
    rules::build_road_for(s, p, at, &pay.known, facts)
}

#[cfg(test)]
mod tests {
    //! One test per helper, legal and illegal, plus the common restrictions.
    use super::*;
    use crate::board::{Board, BoardSpec};
    use crate::event::Event;
    use crate::rules::apply;
    use crate::state::{Building, Options, Seating};

    const STACK: [&str; 6] = ["Nassir", "Jean", "Lin", "Hilde", "Louis", "William"];

    /// Three players on the beginners' board, set up as in `tests/rules.rs`: turn 1, Ana to roll.
    fn game() -> State {
        let spec: BoardSpec = serde_json::from_str(include_str!("../tests/beginner-board.json")).unwrap();
        let seating = ["Ana", "Bo", "Cem"].iter().map(|n| Seating { name: n.to_string(), color: None }).collect();
        let stack: Vec<String> = STACK.iter().map(|s| s.to_string()).collect();
        let mut s =
            State::with_helpers(Board::from_spec(&spec).unwrap(), Options::default(), seating, Some(&stack)).unwrap();
        let b = s.board.clone();
        let v = |h: usize, c: usize| b.hexes[h].corners[c];
        let e = |h: usize, side: usize| b.hexes[h].sides[side];
        let setup = [
            (0, v(4, 0), e(4, 0)),
            (1, v(8, 0), e(8, 0)),
            (2, v(11, 3), e(11, 2)),
            (2, v(17, 0), e(17, 0)),
            (1, v(14, 0), e(14, 5)),
            (0, v(10, 0), e(10, 5)),
        ];
        let mut facts = Vec::new();
        for (p, at, road) in setup {
            apply(&mut s, &Event::BuildSettlement { player: p, at }, &mut facts).unwrap();
            apply(&mut s, &Event::BuildRoad { player: p, at: road }, &mut facts).unwrap();
        }
        s
    }

    fn held(s: &State, p: Seat) -> HelperCard {
        s.helpers.as_ref().unwrap().held[p as usize].unwrap()
    }

    fn give(s: &mut State, p: Seat, helper: usize) {
        let h = s.helpers.as_mut().unwrap();
        h.display.retain(|&d| d != helper);
        h.held[p as usize] = Some(HelperCard { helper, b_side: false, taken_turn: 0 });
    }

    fn using(p: Seat, helper: usize, action: HelperAction) -> Event {
        Event::UseHelper(Box::new(HelperUse { player: p, helper, action, after: AfterUse::Flip }))
    }

    fn ok(s: &mut State, ev: Event) -> Vec<Fact> {
        let mut facts = Vec::new();
        apply(s, &ev, &mut facts).unwrap_or_else(|e| panic!("{ev:?}: {e}"));
        facts
    }

    fn rejected(s: &State, ev: Event, needle: &str) {
        let mut t = s.clone();
        let err = apply(&mut t, &ev, &mut Vec::new()).expect_err("accepted");
        assert!(err.0.contains(needle), "`{err}` lacks `{needle}`");
    }

    fn roll(s: &mut State, p: Seat, dice: [u8; 2]) {
        ok(s, Event::Roll { player: p, dice, production: None });
    }

    fn cards(known: [u8; 5]) -> Bundle {
        Bundle { known, unknown: 0 }
    }

    #[test]
    fn the_stack_goes_out_in_reverse_seat_order_so_the_last_seat_gets_nassir() {
        let s = game();
        assert_eq!(HELPERS[held(&s, 2).helper], "Nassir");
        assert_eq!(HELPERS[held(&s, 1).helper], "Jean");
        assert_eq!(HELPERS[held(&s, 0).helper], "Lin");
        let display: Vec<&str> = s.helpers.as_ref().unwrap().display.iter().map(|&d| HELPERS[d]).collect();
        assert_eq!(display.len(), 7, "the four unnumbered and the three left of the stack: {display:?}");
        assert!(display.contains(&"Hilde") && display.contains(&"Marianne"));
    }

    #[test]
    fn once_per_turn_not_the_turn_taken_and_a_b_side_must_be_swapped() {
        let mut s = game();
        give(&mut s, 0, JEAN);
        ok(&mut s, using(0, JEAN, HelperAction::Jean { resource: 0 }));
        assert!(held(&s, 0).b_side);
        rejected(&s, using(0, JEAN, HelperAction::Jean { resource: 1 }), "already used a helper this turn");
        // Next turn of Ana: B side, so a flip is refused; a swap for a helper on display works.
        s.turn += 3;
        let flip = using(0, JEAN, HelperAction::Jean { resource: 1 });
        rejected(&s, flip, "on its B side");
        let swap = |to: usize| {
            Event::UseHelper(Box::new(HelperUse {
                player: 0,
                helper: JEAN,
                action: HelperAction::Jean { resource: 1 },
                after: AfterUse::Swap(to),
            }))
        };
        rejected(&s, swap(NASSIR), "Nassir is not on display");
        ok(&mut s, swap(MARIANNE));
        assert_eq!(held(&s, 0), HelperCard { helper: MARIANNE, b_side: false, taken_turn: s.turn });
        assert!(s.helpers.as_ref().unwrap().display.contains(&JEAN));
        // The new helper waits for the next turn.
        s.phase = Phase::Main;
        rejected(&s, using(0, MARIANNE, HelperAction::Marianne { resource: 0 }), "took Marianne this turn");
    }

    #[test]
    fn a_helper_is_used_in_its_owners_turn_unless_it_is_marianne_or_sean() {
        let s = game();
        rejected(&s, using(1, JEAN, HelperAction::Jean { resource: 0 }), "out of turn");
        rejected(&s, using(0, NASSIR, HelperAction::Jean { resource: 0 }), "Ana's helper is Lin, not Nassir");
    }

    #[test]
    fn candamir_swaps_one_resource_and_keeps_one_of_three_cards() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]);
        give(&mut s, 0, CANDAMIR);
        s.players[0].hand.known = [1, 0, 1, 1, 0];
        let buy = |pay: [u8; 5], card: usize| {
            using(
                0,
                CANDAMIR,
                HelperAction::Candamir { pay: cards(pay), drawn: vec![KNIGHT, MONOPOLY, VICTORY_POINT], card },
            )
        };
        rejected(&s, buy([1, 1, 1, 0, 0], MONOPOLY), "replaces one of wool, grain and ore");
        rejected(&s, buy([1, 0, 1, 1, 0], ROAD_BUILDING), "not among them");
        ok(&mut s, buy([1, 0, 1, 1, 0], MONOPOLY));
        assert_eq!(s.players[0].dev.held[MONOPOLY], 1);
        assert_eq!(s.players[0].hand.total(), 0);
        assert_eq!(s.deck_left, 24);
    }

    #[test]
    fn hilde_takes_a_chosen_card_from_a_player_with_more_points() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]);
        give(&mut s, 0, HILDE);
        rejected(&s, using(0, HILDE, HelperAction::Hilde { victim: 2, took: Stolen::Known(4) }), "more victory points");
        let v = s.board.hexes[18].corners[3];
        s.buildings[v as usize] = Some(Building { owner: 2, city: false });
        s.players[2].settlements += 1;
        let facts = ok(&mut s, using(0, HILDE, HelperAction::Hilde { victim: 2, took: Stolen::Known(4) }));
        assert_eq!(s.players[0].hand.known[4], 1);
        assert!(facts.iter().any(|f| matches!(f, Fact::Gained { player: 0, item: "ore", cause: Cause::Helper, .. })));
    }

    #[test]
    fn jean_trades_one_resource_two_for_one_all_turn() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]); // Ana: 2 lumber
        give(&mut s, 0, JEAN);
        let trade = Event::MaritimeTrade { player: 0, give: cards([2, 0, 0, 0, 0]), get: cards([0, 0, 0, 1, 0]) };
        rejected(&s, trade.clone(), "not a multiple of any rate");
        ok(&mut s, using(0, JEAN, HelperAction::Jean { resource: 0 }));
        ok(&mut s, trade);
        assert_eq!(s.players[0].hand.known[3], 1);
    }

    #[test]
    fn lin_sends_the_robber_to_the_desert_for_a_card_of_the_hex_it_left() {
        let mut s = game();
        give(&mut s, 0, LIN);
        rejected(&s, using(0, LIN, HelperAction::Lin { hex: None }), "already stands on the desert");
        s.robber = 4; // hills
        ok(&mut s, using(0, LIN, HelperAction::Lin { hex: None }));
        assert_eq!(s.robber, 9);
        assert_eq!(s.players[0].hand.known[1], 2, "a brick from the hills, on top of the setup brick");
    }

    #[test]
    fn louis_moves_a_road_loose_at_one_end() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]);
        give(&mut s, 0, LOUIS);
        // Ana's road 4:NE runs from her settlement (4:N) to a loose end: it may move to 4:NW.
        let (from, to) = (s.board.hexes[4].sides[0], s.board.hexes[4].sides[5]);
        ok(&mut s, using(0, LOUIS, HelperAction::Louis { from, to }));
        assert_eq!((s.roads[from as usize], s.roads[to as usize]), (None, Some(0)));
        // A road tied at both ends stays: with a road on 4:E, 4:NE has Ana's pieces at both of its ends.
        let mut t = game();
        give(&mut t, 0, LOUIS);
        let east = t.board.hexes[4].sides[1];
        t.roads[east as usize] = Some(0);
        t.players[0].roads += 1;
        let (from, to) = (t.board.hexes[4].sides[0], t.board.hexes[4].sides[5]);
        rejected(&t, using(0, LOUIS, HelperAction::Louis { from, to }), "tied at both");
    }

    #[test]
    fn marianne_pays_a_card_after_a_roll_that_paid_nothing_but_not_after_a_seven() {
        let mut s = game();
        give(&mut s, 1, MARIANNE);
        roll(&mut s, 0, [4, 6]); // 10: mountains 10 (hex 0) touches only Ana; hills 10 pays Ana too
        ok(&mut s, using(1, MARIANNE, HelperAction::Marianne { resource: 4 }));
        assert_eq!(s.players[1].hand.known[4], 1);
        let mut t = game();
        give(&mut t, 0, MARIANNE);
        t.active = 0;
        roll(&mut t, 0, [1, 2]);
        rejected(&t, using(0, MARIANNE, HelperAction::Marianne { resource: 4 }), "it paid Ana");
        let mut u = game();
        give(&mut u, 1, MARIANNE);
        roll(&mut u, 0, [3, 4]);
        rejected(&u, using(1, MARIANNE, HelperAction::Marianne { resource: 4 }), "not help after a 7");
    }

    #[test]
    fn nassir_takes_a_named_resource_and_gives_a_card_back_for_each() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]);
        give(&mut s, 0, NASSIR);
        let ask = |returned: Vec<(Seat, usize)>| {
            using(0, NASSIR, HelperAction::Nassir { resource: 3, opponents: vec![1, 2], received: None, returned })
        };
        rejected(&s, ask(vec![(2, 0)]), "one card of choice for each card received (1), not 0");
        ok(&mut s, ask(vec![(1, 0), (2, 2)]));
        assert_eq!(s.players[0].hand.known, [1, 1, 0, 2, 0]);
        assert_eq!(s.players[1].hand.known[0], 3);
        assert_eq!(s.players[2].hand.known[2], 1);
    }

    #[test]
    fn sean_spares_a_discard_or_pays_a_small_hand_after_a_seven() {
        let mut s = game();
        give(&mut s, 2, SEAN);
        rejected(&s, using(2, SEAN, HelperAction::Sean { resource: Some(0) }), "right after a 7");
        s.players[2].hand.known = [2, 2, 2, 2, 0];
        roll(&mut s, 0, [3, 4]);
        assert_eq!(s.phase, Phase::Discard);
        rejected(&s, using(2, SEAN, HelperAction::Sean { resource: Some(0) }), "holding 7 or fewer");
        ok(&mut s, using(2, SEAN, HelperAction::Sean { resource: None }));
        assert_eq!(s.phase, Phase::MoveRobber { knight: false }, "nobody else had to discard");
        let mut t = game();
        give(&mut t, 1, SEAN);
        roll(&mut t, 0, [3, 4]);
        ok(&mut t, using(1, SEAN, HelperAction::Sean { resource: Some(2) }));
        assert_eq!(t.players[1].hand.known[2], 1);
    }

    #[test]
    fn vincent_discards_a_played_knight_for_a_cheaper_settlement() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]); // Ana: lumber 2, brick 1, wool 1
        give(&mut s, 0, VINCENT);
        // Ana's roads 4:NE (from setup) and 4:E lead to 9:N, a free spot.
        let east = s.board.hexes[4].sides[1];
        s.roads[east as usize] = Some(0);
        s.players[0].roads += 1;
        let at = s.board.hexes[9].corners[0];
        let build = using(0, VINCENT, HelperAction::Vincent { city: false, at });
        rejected(&s, build.clone(), "has none");
        s.players[0].dev.played[KNIGHT] = 3;
        s.largest_army = Some(0);
        ok(&mut s, build);
        assert_eq!(s.players[0].hand.known, [1, 0, 1, 0, 0], "lumber and brick only");
        assert_eq!(s.players[0].dev.played[KNIGHT], 2);
        assert_eq!(s.largest_army, None, "2 knights no longer hold Largest Army");
        assert_eq!(s.buildings[at as usize], Some(Building { owner: 0, city: false }));
    }

    #[test]
    fn no_helper_in_the_special_building_phase() {
        let mut s = game();
        s.equipment.extension_5_6 = true;
        give(&mut s, 2, MARIANNE);
        roll(&mut s, 0, [1, 2]);
        ok(&mut s, Event::EndTurn { player: 0 });
        assert!(matches!(s.phase, Phase::SpecialBuilding { .. }));
        rejected(&s, using(2, MARIANNE, HelperAction::Marianne { resource: 0 }), "only building and buying happen");
    }

    #[test]
    fn william_pays_a_road_with_one_other_card() {
        let mut s = game();
        roll(&mut s, 0, [1, 2]); // Ana: lumber 2, brick 1, wool 1
        give(&mut s, 0, WILLIAM);
        let at = s.board.hexes[4].sides[5];
        rejected(&s, using(0, WILLIAM, HelperAction::William { at, pay: cards([0, 0, 2, 0, 0]) }), "lumber or brick");
        ok(&mut s, using(0, WILLIAM, HelperAction::William { at, pay: cards([1, 0, 1, 0, 0]) }));
        assert_eq!(s.players[0].hand.known, [1, 1, 0, 0, 0]);
        assert_eq!(s.roads[at as usize], Some(0));
    }
}
