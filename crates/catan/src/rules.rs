//! The rules of the base game for 3-4 players (seed `000_bb058c3a180c4e81.txt`), as one `apply` per event.
//!
//! Each handler first checks everything that could make the event illegal, then changes the state, so a
//! rejected event leaves the state as it was.

use crate::board::{Board, EdgeId, Harbour, HexId, VertexId};
use crate::cards::*;
use crate::event::{Event, Stolen};
use crate::roads::longest_road;
use crate::state::*;
use almanac_core::{Cause, Fact, Partner, RuleViolation, Seat};

pub(crate) type Result<T = ()> = std::result::Result<T, RuleViolation>;

pub(crate) fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(RuleViolation(msg.into()))
}

pub fn apply(s: &mut State, ev: &Event, facts: &mut Vec<Fact>) -> Result {
    if let Some(w) = s.winner {
        // At the end every player may show their victory point cards; nothing else happens.
        if let Event::RevealVictoryPoints { player, count } = ev {
            let mark = facts.len();
            let result = reveal_victory_points(s, *player, *count, facts);
            if result.is_err() {
                facts.truncate(mark);
            } else {
                s.events += 1;
            }
            return result;
        }
        return fail(format!("the game is over: {} won in turn {}", s.name(w), s.turn));
    }
    let mark = facts.len();
    if s.events == 0 {
        facts.push(Fact::TurnStarted { turn: 0, player: 0 });
    }
    let result = step(s, ev, facts);
    if result.is_err() {
        facts.truncate(mark);
    }
    result
}

fn step(s: &mut State, ev: &Event, facts: &mut Vec<Fact>) -> Result {
    match s.phase {
        Phase::Setup { step, settlement } => setup(s, ev, step, settlement, facts)?,
        Phase::SpecialBuilding { after, last } if is_special_build(ev) => special_building(s, ev, after, last, facts)?,
        Phase::SpecialBuilding { after, .. } => {
            // Anything else must be the next player's first event: it ends the phase and begins their turn.
            let next = (after + 1) % s.players.len() as Seat;
            if ev.player() != next {
                return fail(format!(
                    "in the special building phase after {}'s turn only building and buying happen (not {}); {} plays next",
                    s.name(after),
                    ev.kind(),
                    s.name(next)
                ));
            }
            let before = s.clone();
            let mark = facts.len();
            start_next_turn(s, facts);
            if let Err(e) = in_turn(s, ev, facts) {
                *s = before;
                facts.truncate(mark);
                return Err(e);
            }
        }
        _ => in_turn(s, ev, facts)?,
    }
    s.events += 1;
    // A win only counts on the winner's own turn (DESIGN: "a win only on the player's own turn").
    if !matches!(s.phase, Phase::Setup { .. }) {
        let target = s.options.vp_target as i32;
        let winner = if s.options.win_on_any_turn {
            // catanatron names the last player in seat order who has reached the target.
            (0..s.players.len() as Seat).rev().find(|&p| s.vp(p) >= target)
        } else {
            Some(s.active).filter(|&p| s.vp(p) >= target)
        };
        if let Some(w) = winner {
            s.winner = Some(w);
            s.phase = Phase::Over;
            facts.push(Fact::GameOver { winner: Some(w) });
        }
    }
    Ok(())
}

/// An event in the turn of `s.active` (after setup, outside the special building phase).
fn in_turn(s: &mut State, ev: &Event, facts: &mut Vec<Fact>) -> Result {
    let p = ev.player();
    check_turn(s, ev)?;
    check_free_roads(s, ev)?;
    match ev {
        Event::Roll { dice, production, .. } => roll(s, p, *dice, production.as_ref(), facts)?,
        Event::Discard { cards, .. } => discard(s, p, cards, facts)?,
        Event::MoveRobber { hex, victim, stolen, .. } => move_robber(s, p, *hex, *victim, *stolen, facts)?,
        Event::BuildRoad { at, .. } => build_road(s, p, *at, facts)?,
        Event::BuildSettlement { at, .. } => build_settlement(s, p, *at, facts)?,
        Event::BuildCity { at, .. } => build_city(s, p, *at, facts)?,
        Event::Trade { with, give, get, .. } => trade(s, p, *with, give, get, facts)?,
        Event::MaritimeTrade { give, get, .. } => maritime_trade(s, p, give, get, facts)?,
        Event::BuyDevelopment { card, .. } => buy_development(s, p, *card, facts)?,
        Event::PlayKnight { .. } => play_knight(s, p, facts)?,
        Event::PlayRoadBuilding { .. } => play_road_building(s, p, facts)?,
        Event::PlayYearOfPlenty { take, .. } => play_year_of_plenty(s, p, take, facts)?,
        Event::PlayMonopoly { resource, taken, .. } => play_monopoly(s, p, *resource, taken.as_deref(), facts)?,
        Event::RevealVictoryPoints { count, .. } => reveal_victory_points(s, p, *count, facts)?,
        Event::EndTurn { .. } => end_turn(s, p, facts)?,
        Event::UseHelper(u) => crate::helpers::use_helper(s, u, facts)?,
    }
    if !matches!(ev, Event::BuildRoad { .. } | Event::PlayRoadBuilding { .. }) {
        s.free_roads = 0;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Whose move is it?

fn check_turn(s: &State, ev: &Event) -> Result {
    let p = ev.player();
    // The player whose turn it is may show victory point cards to win at any moment of the turn.
    if matches!(ev, Event::RevealVictoryPoints { .. }) && p == s.active {
        return Ok(());
    }
    // A helper checks its own moment (Marianne and Sean work in anybody's turn).
    if let Event::UseHelper(u) = ev {
        if crate::helpers::any_turn(u.helper) || p == s.active {
            return Ok(());
        }
    }
    match s.phase {
        Phase::Discard => {
            let Event::Discard { .. } = ev else {
                return fail(format!("after the 7, {} must discard first", waiting_discards(s)));
            };
            if s.must_discard[p as usize] == 0 {
                return fail(format!(
                    "{} has nothing to discard ({} cards, limit {}); waiting for {}",
                    s.name(p),
                    s.players[p as usize].hand.total(),
                    s.options.discard_limit,
                    waiting_discards(s)
                ));
            }
            return Ok(());
        }
        Phase::MoveRobber { .. } => {
            if !matches!(ev, Event::MoveRobber { .. }) || p != s.active {
                return fail(format!("{} must move the robber now", s.name(s.active)));
            }
            return Ok(());
        }
        _ => {}
    }
    if matches!(ev, Event::Discard { .. }) {
        return fail(format!("{} discards, but no 7 is waiting for discards", s.name(p)));
    }
    if matches!(ev, Event::MoveRobber { .. }) {
        return fail(format!("{} moves the robber without a 7 or a knight", s.name(p)));
    }
    if let Event::Trade { with, .. } = ev {
        // Only the player whose turn it is trades; the partner may be anybody else.
        if p != s.active && *with != s.active {
            return fail(format!(
                "{} and {} trade during {}'s turn; players may only trade with the player whose turn it is",
                s.name(p),
                s.name(*with),
                s.name(s.active)
            ));
        }
        return Ok(());
    }
    if p != s.active {
        return fail(format!("{} acts out of turn: it is {}'s turn", s.name(p), s.name(s.active)));
    }
    Ok(())
}

fn waiting_discards(s: &State) -> String {
    let waiting: Vec<String> = (0..s.players.len())
        .filter(|&i| s.must_discard[i] > 0)
        .map(|i| format!("{} ({} cards)", s.name(i as Seat), s.must_discard[i]))
        .collect();
    waiting.join(", ")
}

/// After Road Building, the free roads come before anything else (unless none can be placed).
fn check_free_roads(s: &State, ev: &Event) -> Result {
    if s.free_roads == 0 || matches!(ev, Event::BuildRoad { .. } | Event::RevealVictoryPoints { .. }) {
        return Ok(());
    }
    if can_place_any_road(s, s.active) {
        return fail(format!(
            "{} must first place the {} free road(s) of Road Building",
            s.name(s.active),
            s.free_roads
        ));
    }
    // No road can be placed: the rest of the card is lost once this event is applied (see `step`).
    Ok(())
}

fn need_main(s: &State, p: Seat, what: &str) -> Result {
    match s.phase {
        // Only builds and purchases reach a handler during the special building phase.
        Phase::Main | Phase::SpecialBuilding { .. } => Ok(()),
        Phase::BeforeRoll => fail(format!("{} must roll before {what}", s.name(p))),
        _ => fail(format!("{} cannot {what} now", s.name(p))),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Setup

fn setup(s: &mut State, ev: &Event, step: u8, settlement: Option<VertexId>, facts: &mut Vec<Fact>) -> Result {
    let seat = s.setup_seat(step);
    let p = ev.player();
    let second = step as usize >= s.players.len();
    match (settlement, ev) {
        (None, Event::BuildSettlement { at, .. }) => {
            if p != seat {
                return fail(format!(
                    "setup: it is {}'s turn to place a settlement, not {}'s",
                    s.name(seat),
                    s.name(p)
                ));
            }
            check_free_vertex(s, *at)?;
            place_settlement(s, p, *at, facts);
            if s.catanatron_roads.is_some() {
                crate::catanatron_roads::setup_settlement(s, p, *at);
            }
            if second {
                // The second settlement pays one card per adjacent producing hex.
                let board = s.board.clone();
                for &h in &board.vertices[*at as usize].hexes {
                    if let Some(r) = produces(board.hexes[h as usize].terrain) {
                        if s.bank[r] > 0 {
                            s.bank[r] -= 1;
                            s.players[p as usize].hand.add(r, 1);
                            facts.push(Fact::Gained {
                                player: p,
                                item: RESOURCES[r],
                                count: 1,
                                cause: Cause::Setup,
                                from: None,
                            });
                        }
                    }
                }
            }
            s.phase = Phase::Setup { step, settlement: Some(*at) };
            Ok(())
        }
        (Some(v), Event::BuildRoad { at, .. }) => {
            if p != seat {
                return fail(format!("setup: it is {}'s turn to place a road, not {}'s", s.name(seat), s.name(p)));
            }
            let e = *at;
            if let Some(o) = s.road_owner(e) {
                return fail(format!("road at {}: {} already has a road there", edge_name(s, e), s.name(o)));
            }
            if !s.board.edges[e as usize].ends.contains(&v) {
                return fail(format!(
                    "setup: the road at {} must touch the settlement just placed at {}",
                    edge_name(s, e),
                    vertex_name(s, v)
                ));
            }
            s.roads[e as usize] = Some(p);
            s.players[p as usize].roads += 1;
            facts.push(Fact::Built { player: p, piece: "road" });
            if s.catanatron_roads.is_some() {
                // catanatron does not move the card during setup.
                crate::catanatron_roads::road_built(s, p, e);
                s.players[p as usize].road_length = s.catanatron_roads.as_ref().map_or(0, |r| r.length(p));
            } else {
                update_longest_road(s, &[p], facts);
            }
            let next = step + 1;
            if second {
                crate::helpers::take_starting_helper(s, p, next as usize == 2 * s.players.len());
            }
            if next as usize == 2 * s.players.len() {
                s.phase = Phase::BeforeRoll;
                s.turn = 1;
                s.active = 0;
                facts.push(Fact::TurnStarted { turn: 1, player: 0 });
            } else {
                s.phase = Phase::Setup { step: next, settlement: None };
                s.active = s.setup_seat(next);
            }
            Ok(())
        }
        (None, _) => fail(format!("setup: {} must place a settlement now, not {}", s.name(seat), ev.kind())),
        (Some(v), _) => fail(format!(
            "setup: {} must place a road next to {} now, not {}",
            s.name(seat),
            vertex_name(s, v),
            ev.kind()
        )),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Dice, discards, robber

fn roll(
    s: &mut State,
    p: Seat,
    dice: [u8; 2],
    claimed: Option<&[Bundle; crate::event::MAX_PLAYERS]>,
    facts: &mut Vec<Fact>,
) -> Result {
    if s.phase != Phase::BeforeRoll {
        return fail(format!("{} already rolled this turn", s.name(p)));
    }
    let sum = (dice[0] + dice[1]) as usize;
    let n = s.players.len();
    let mut pay = [[0u8; 5]; 6];
    if sum != 7 {
        let board = s.board.clone();
        let mut owed = [[0u8; 5]; 6];
        for &h in &board.by_number[sum] {
            if h == s.robber {
                continue;
            }
            let hex = &board.hexes[h as usize];
            let Some(r) = produces(hex.terrain) else {
                continue;
            };
            for &v in &hex.corners {
                if let Some(b) = s.buildings[v as usize] {
                    owed[b.owner as usize][r] += if b.city { 2 } else { 1 };
                }
            }
        }
        for r in 0..5 {
            let total: u32 = (0..n).map(|i| owed[i][r] as u32).sum();
            if total == 0 {
                continue;
            }
            if total <= s.bank[r] as u32 {
                for i in 0..n {
                    pay[i][r] = owed[i][r];
                }
            } else {
                let owed_players: Vec<usize> = (0..n).filter(|&i| owed[i][r] > 0).collect();
                if owed_players.len() == 1 && s.options.bank_shortage == BankShortage::Rulebook {
                    pay[owed_players[0]][r] = s.bank[r];
                }
            }
        }
        if let Some(claimed) = claimed {
            for i in 0..n {
                let stated = claimed[i];
                let computed = Bundle { known: pay[i], unknown: 0 };
                if stated != computed {
                    return fail(format!(
                        "roll {sum}: the log says {} receives {stated}, but the board pays {computed}",
                        s.name(i as Seat)
                    ));
                }
            }
        }
    } else if claimed.is_some_and(|c| c.iter().any(|b| !b.is_empty())) {
        return fail("roll 7: nobody receives anything on a 7, but the log lists production");
    }

    facts.push(Fact::Rolled { player: p, dice });
    s.rolled = true;
    if sum == 7 {
        let mut any = false;
        let mut limit = s.options.discard_limit as u32;
        for i in 0..n {
            let total = s.players[i].hand.total();
            s.must_discard[i] = if total > limit { (total / 2) as u8 } else { 0 };
            if s.must_discard[i] > 0 && s.options.discard_rule == DiscardRule::Catanatron321 {
                limit = 7;
            }
            any |= s.must_discard[i] > 0;
        }
        s.phase = if any { Phase::Discard } else { Phase::MoveRobber { knight: false } };
    } else {
        for i in 0..n {
            for r in 0..5 {
                if pay[i][r] > 0 {
                    s.bank[r] -= pay[i][r];
                    s.players[i].hand.add(r, pay[i][r]);
                    facts.push(Fact::Gained {
                        player: i as Seat,
                        item: RESOURCES[r],
                        count: pay[i][r] as u32,
                        cause: Cause::Production,
                        from: None,
                    });
                }
            }
        }
        s.phase = Phase::Main;
    }
    if s.helpers.is_some() {
        let paid = (0..n).filter(|&i| pay[i].iter().any(|&c| c > 0)).fold(0u8, |m, i| m | (1 << i));
        crate::helpers::note_roll(s, sum as u8, paid);
    }
    Ok(())
}

fn discard(s: &mut State, p: Seat, cards: &Bundle, facts: &mut Vec<Fact>) -> Result {
    let due = s.must_discard[p as usize];
    if cards.total() != due as u32 {
        return fail(format!(
            "{} holds {} cards and must discard {} (half, rounded down), not {}",
            s.name(p),
            s.players[p as usize].hand.total(),
            due,
            cards.total()
        ));
    }
    if cards.unknown > 0 {
        return fail(format!("{}'s discard must name its cards: discards go face up to the bank", s.name(p)));
    }
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(&cards.known) {
        return fail(format!("{} cannot discard {cards}: the hand is {hand}", s.name(p)));
    }
    s.players[p as usize].hand.take_all(&cards.known);
    for r in 0..5 {
        s.bank[r] += cards.known[r];
        if cards.known[r] > 0 {
            facts.push(Fact::Lost {
                player: p,
                item: RESOURCES[r],
                count: cards.known[r] as u32,
                cause: Cause::Discard,
                to: None,
            });
        }
    }
    s.must_discard[p as usize] = 0;
    if s.must_discard.iter().all(|&d| d == 0) {
        s.phase = Phase::MoveRobber { knight: false };
    }
    Ok(())
}

fn move_robber(
    s: &mut State,
    p: Seat,
    hex: HexId,
    victim: Option<Seat>,
    stolen: Option<Stolen>,
    facts: &mut Vec<Fact>,
) -> Result {
    let Phase::MoveRobber { knight } = s.phase else { unreachable!("checked by check_turn") };
    if hex == s.robber {
        return fail(format!("the robber must move to another hex; it already stands on {}", s.board.hex_label(hex)));
    }
    // Opponents with a settlement or city on the target hex, and of them those holding cards.
    let board = s.board.clone();
    let mut adjacent: Vec<Seat> = Vec::new();
    for &v in &board.hexes[hex as usize].corners {
        if let Some(b) = s.buildings[v as usize] {
            if b.owner != p && !adjacent.contains(&b.owner) {
                adjacent.push(b.owner);
            }
        }
    }
    let with_cards: Vec<Seat> = adjacent.iter().copied().filter(|&o| s.players[o as usize].hand.total() > 0).collect();
    match victim {
        None => {
            if !with_cards.is_empty() {
                let names: Vec<&str> = with_cards.iter().map(|&o| s.name(o)).collect();
                return fail(format!(
                    "{} moves the robber to {} and must steal from {}",
                    s.name(p),
                    board.hex_label(hex),
                    names.join(" or ")
                ));
            }
            if stolen.is_some() {
                return fail("move_robber: a stolen card without a victim");
            }
        }
        Some(v) => {
            if v == p {
                return fail(format!("{} cannot steal from themselves", s.name(p)));
            }
            if !adjacent.contains(&v) {
                return fail(format!(
                    "{} cannot steal from {}: {} has no settlement or city on {}",
                    s.name(p),
                    s.name(v),
                    s.name(v),
                    board.hex_label(hex)
                ));
            }
            let hand = s.players[v as usize].hand;
            match stolen {
                None if hand.total() > 0 => {
                    return fail(format!(
                        "{} steals from {}, who holds {} cards, but the log names no card",
                        s.name(p),
                        s.name(v),
                        hand.total()
                    ))
                }
                Some(_) if hand.total() == 0 => {
                    return fail(format!("{} steals from {}, who holds no cards", s.name(p), s.name(v)))
                }
                Some(Stolen::Known(r)) if !hand.can_pay(r, 1) => {
                    return fail(format!(
                        "{} steals {} from {}, whose hand is {hand}",
                        s.name(p),
                        RESOURCES[r],
                        s.name(v)
                    ))
                }
                _ => {}
            }
        }
    }
    s.robber = hex;
    if let (Some(v), Some(card)) = (victim, stolen) {
        let item = match card {
            Stolen::Known(r) => {
                s.players[v as usize].hand.take(r, 1);
                s.players[p as usize].hand.add(r, 1);
                RESOURCES[r]
            }
            Stolen::Unknown => {
                s.players[v as usize].hand.take_unseen();
                s.players[p as usize].hand.unknown += 1;
                "unknown"
            }
        };
        facts.push(Fact::Lost { player: v, item, count: 1, cause: Cause::Steal, to: Some(p) });
        facts.push(Fact::Gained { player: p, item, count: 1, cause: Cause::Steal, from: Some(v) });
    }
    s.phase = if knight && !s.rolled { Phase::BeforeRoll } else { Phase::Main };
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Building

fn vertex_name(s: &State, v: VertexId) -> String {
    s.board.vertex_label(v)
}

fn edge_name(s: &State, e: EdgeId) -> String {
    s.board.edge_label(e)
}

fn piece_name(b: Building) -> &'static str {
    if b.city {
        "city"
    } else {
        "settlement"
    }
}

/// The vertex is empty and no neighbour holds a settlement or city (the distance rule).
fn check_free_vertex(s: &State, v: VertexId) -> Result {
    if let Some(b) = s.building(v) {
        return fail(format!("{} already has a {} at {}", s.name(b.owner), piece_name(b), vertex_name(s, v)));
    }
    for &n in &s.board.vertices[v as usize].neighbours {
        if let Some(b) = s.building(n) {
            return fail(format!(
                "settlement at {} breaks the distance rule (neighbour {} holds {}'s {})",
                vertex_name(s, v),
                vertex_name(s, n),
                s.name(b.owner),
                piece_name(b)
            ));
        }
    }
    Ok(())
}

fn check_cost(s: &State, p: Seat, cost: &[u8; 5], what: &str) -> Result {
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(cost) {
        let need = Bundle { known: *cost, unknown: 0 };
        return fail(format!("{} cannot pay for {what} ({need}): the hand is {hand}", s.name(p)));
    }
    Ok(())
}

fn pay(s: &mut State, p: Seat, cost: &[u8; 5], facts: &mut Vec<Fact>) {
    s.players[p as usize].hand.take_all(cost);
    for r in 0..5 {
        if cost[r] > 0 {
            s.bank[r] += cost[r];
            facts.push(Fact::Spent { player: p, item: RESOURCES[r], count: cost[r] as u32, cause: Cause::Purchase });
        }
    }
    s.built = true;
}

pub(crate) fn score(s: &State, p: Seat, reason: &'static str, delta: i32, delta_public: i32, facts: &mut Vec<Fact>) {
    facts.push(Fact::Score { player: p, reason, delta, delta_public, total: s.vp(p), public: s.vp_public(p) });
}

fn place_settlement(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) {
    s.buildings[v as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].settlements += 1;
    facts.push(Fact::Built { player: p, piece: "settlement" });
    score(s, p, "settlement", 1, 1, facts);
}

/// Can player `p` build a road on edge `e` (free, connected, not through an opponent's building)?
pub(crate) fn road_connects(s: &State, p: Seat, e: EdgeId) -> bool {
    let board: &Board = &s.board;
    board.edges[e as usize].ends.iter().any(|&v| match s.building(v) {
        Some(b) => b.owner == p,
        // An opponent's settlement or city cuts the road network at this vertex.
        None => board.vertices[v as usize].edges.iter().any(|&o| o != e && s.road_owner(o) == Some(p)),
    })
}

fn can_place_any_road(s: &State, p: Seat) -> bool {
    s.players[p as usize].roads < MAX_ROADS
        && (0..s.board.edges.len() as EdgeId).any(|e| s.road_owner(e).is_none() && road_connects(s, p, e))
}

fn build_road(s: &mut State, p: Seat, e: EdgeId, facts: &mut Vec<Fact>) -> Result {
    build_road_for(s, p, e, &ROAD_COST, facts)
}

/// A road paid with `cost` (the usual one, or a helper's).
pub(crate) fn build_road_for(s: &mut State, p: Seat, e: EdgeId, cost: &[u8; 5], facts: &mut Vec<Fact>) -> Result {
    let free = s.free_roads > 0;
    if !free {
        need_main(s, p, "building a road")?;
    }
    if s.players[p as usize].roads >= MAX_ROADS {
        return fail(format!("{} has no roads left (all {MAX_ROADS} are on the board)", s.name(p)));
    }
    if let Some(o) = s.road_owner(e) {
        return fail(format!("road at {}: {} already has a road there", edge_name(s, e), s.name(o)));
    }
    if !road_connects(s, p, e) {
        return fail(format!(
            "road at {} does not connect to {}'s roads, settlements or cities",
            edge_name(s, e),
            s.name(p)
        ));
    }
    if !free {
        check_cost(s, p, cost, "a road")?;
        pay(s, p, cost, facts);
    } else {
        s.free_roads -= 1;
    }
    s.roads[e as usize] = Some(p);
    s.players[p as usize].roads += 1;
    facts.push(Fact::Built { player: p, piece: "road" });
    if s.catanatron_roads.is_some() {
        crate::catanatron_roads::road_built(s, p, e);
        catanatron_award(s, facts);
    } else {
        update_longest_road(s, &[p], facts);
    }
    Ok(())
}

fn build_settlement(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    build_settlement_for(s, p, v, &SETTLEMENT_COST, facts)
}

pub(crate) fn build_settlement_for(
    s: &mut State,
    p: Seat,
    v: VertexId,
    cost: &[u8; 5],
    facts: &mut Vec<Fact>,
) -> Result {
    need_main(s, p, "building a settlement")?;
    if s.players[p as usize].settlements >= MAX_SETTLEMENTS {
        return fail(format!("{} has no settlements left (all {MAX_SETTLEMENTS} are on the board)", s.name(p)));
    }
    check_free_vertex(s, v)?;
    if !s.board.vertices[v as usize].edges.iter().any(|&e| s.road_owner(e) == Some(p)) {
        return fail(format!("settlement at {} is not connected to a road of {}", vertex_name(s, v), s.name(p)));
    }
    check_cost(s, p, cost, "a settlement")?;
    pay(s, p, cost, facts);
    place_settlement(s, p, v, facts);
    // A settlement can cut an opponent's road.
    if s.catanatron_roads.is_some() {
        crate::catanatron_roads::settlement_built(s, p, v);
        catanatron_award(s, facts);
    } else {
        let everyone: Vec<Seat> = (0..s.players.len() as Seat).collect();
        update_longest_road(s, &everyone, facts);
    }
    Ok(())
}

fn build_city(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    build_city_for(s, p, v, &CITY_COST, facts)
}

pub(crate) fn build_city_for(s: &mut State, p: Seat, v: VertexId, cost: &[u8; 5], facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a city")?;
    match s.building(v) {
        Some(Building { owner, city: false }) if owner == p => {}
        Some(b) => {
            return fail(format!(
                "a city replaces one of your own settlements, but {} holds {}'s {}",
                vertex_name(s, v),
                s.name(b.owner),
                piece_name(b)
            ))
        }
        None => return fail(format!("a city replaces a settlement, but {} is empty", vertex_name(s, v))),
    }
    if s.players[p as usize].cities >= MAX_CITIES {
        return fail(format!("{} has no cities left (all {MAX_CITIES} are on the board)", s.name(p)));
    }
    check_cost(s, p, cost, "a city")?;
    pay(s, p, cost, facts);
    s.buildings[v as usize] = Some(Building { owner: p, city: true });
    s.players[p as usize].settlements -= 1;
    s.players[p as usize].cities += 1;
    facts.push(Fact::Built { player: p, piece: "city" });
    score(s, p, "city", 1, 1, facts);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Trade

fn check_trade_phase(s: &State, p: Seat) -> Result {
    need_main(s, p, "trading")?;
    if !s.options.combined_trade_build && s.built {
        return fail(format!(
            "{} trades after building; this game keeps trading before building (combined_trade_build is off)",
            s.name(p)
        ));
    }
    Ok(())
}

fn trade(s: &mut State, p: Seat, with: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    // The event is written from either side; make `p` the active player.
    let (a, b, give, get) = if p == s.active { (p, with, *give, *get) } else { (with, p, *get, *give) };
    check_trade_phase(s, a)?;
    if a == b {
        return fail(format!("{} cannot trade with themselves", s.name(a)));
    }
    if give.is_empty() || get.is_empty() {
        return fail(format!(
            "{} and {}: a trade gives something for something; gifts are not allowed",
            s.name(a),
            s.name(b)
        ));
    }
    if give.unknown > 0 || get.unknown > 0 {
        return fail("a trade must name its cards");
    }
    if let Some(r) = (0..5).find(|&r| give.known[r] > 0 && get.known[r] > 0) {
        return fail(format!("a trade cannot swap like for like ({} on both sides)", RESOURCES[r]));
    }
    for (who, cards) in [(a, give), (b, get)] {
        let hand = s.players[who as usize].hand;
        if !hand.can_pay_all(&cards.known) {
            return fail(format!("{} cannot give {cards}: the hand is {hand}", s.name(who)));
        }
    }
    s.players[a as usize].hand.take_all(&give.known);
    s.players[b as usize].hand.take_all(&get.known);
    for r in 0..5 {
        s.players[a as usize].hand.add(r, get.known[r]);
        s.players[b as usize].hand.add(r, give.known[r]);
    }
    facts.push(Fact::Traded { player: a, partner: Partner::Player(b), gave: give.items(), got: get.items() });
    facts.push(Fact::Traded { player: b, partner: Partner::Player(a), gave: get.items(), got: give.items() });
    Ok(())
}

/// The rates player `p` may use for resource `r`, best first (4:1 always; 3:1 and 2:1 at own harbours).
fn rates(s: &State, p: Seat, r: usize) -> &'static [u8] {
    let mut special = crate::helpers::jean_rate(s, p, r);
    let mut generic = false;
    for &(e, h) in &s.board.harbours {
        let owned =
            s.board.edges[e as usize].ends.iter().any(|&v| s.buildings[v as usize].is_some_and(|b| b.owner == p));
        if owned {
            match h {
                Harbour::Generic => generic = true,
                Harbour::Special(hr) => special |= hr == r,
            }
        }
    }
    match (special, generic) {
        (true, true) => &[2, 3, 4],
        (true, false) => &[2, 4],
        (false, true) => &[3, 4],
        (false, false) => &[4],
    }
}

fn maritime_trade(s: &mut State, p: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    check_trade_phase(s, p)?;
    if give.unknown > 0 || get.unknown > 0 {
        return fail("a maritime trade must name its cards");
    }
    if give.is_empty() || get.is_empty() {
        return fail(format!("{}'s maritime trade must give and get cards", s.name(p)));
    }
    let mut units = 0u32;
    let mut best_rate = 4;
    for r in 0..5 {
        let n = give.known[r];
        if n == 0 {
            continue;
        }
        if get.known[r] > 0 {
            return fail(format!("a maritime trade cannot swap {} for {}", RESOURCES[r], RESOURCES[r]));
        }
        let rates = rates(s, p, r);
        let Some(&rate) = rates.iter().find(|&&rate| n.is_multiple_of(rate)) else {
            return fail(format!(
                "{} gives {n} {} to the bank, which is not a multiple of any rate {} may use for it ({})",
                s.name(p),
                RESOURCES[r],
                s.name(p),
                rates.iter().map(|r| format!("{r}:1")).collect::<Vec<_>>().join(", ")
            ));
        };
        best_rate = best_rate.min(rate);
        units += (n / rate) as u32;
    }
    if units != get.total() {
        return fail(format!(
            "{} gives {give} to the bank, which buys {units} card(s), not {}",
            s.name(p),
            get.total()
        ));
    }
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(&give.known) {
        return fail(format!("{} cannot give {give}: the hand is {hand}", s.name(p)));
    }
    if let Some(r) = (0..5).find(|&r| s.bank[r] < get.known[r]) {
        return fail(format!("the bank has only {} {} left", s.bank[r], RESOURCES[r]));
    }
    s.players[p as usize].hand.take_all(&give.known);
    for r in 0..5 {
        s.bank[r] += give.known[r];
        s.bank[r] -= get.known[r];
        s.players[p as usize].hand.add(r, get.known[r]);
    }
    let partner = if best_rate == 4 { Partner::Bank } else { Partner::Harbour(best_rate) };
    facts.push(Fact::Traded { player: p, partner, gave: give.items(), got: get.items() });
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Development cards

fn buy_development(s: &mut State, p: Seat, card: Option<usize>, facts: &mut Vec<Fact>) -> Result {
    buy_development_for(s, p, card, &DEV_CARD_COST, facts)
}

pub(crate) fn buy_development_for(
    s: &mut State,
    p: Seat,
    card: Option<usize>,
    cost: &[u8; 5],
    facts: &mut Vec<Fact>,
) -> Result {
    need_main(s, p, "buying a development card")?;
    if s.deck_left == 0 {
        return fail("the development deck is empty");
    }
    if let Some(c) = card {
        if s.deck_drawn[c] >= s.equipment.deck[c] {
            return fail(format!("all {} {} cards are already out of the deck", s.equipment.deck[c], DEV_CARDS[c]));
        }
    }
    check_cost(s, p, cost, "a development card")?;
    pay(s, p, cost, facts);
    s.deck_left -= 1;
    // Bought in someone else's turn (special building), a card is playable in the buyer's next turn.
    let new = u8::from(!matches!(s.phase, Phase::SpecialBuilding { .. }));
    let dev = &mut s.players[p as usize].dev;
    match card {
        Some(c) => {
            s.deck_drawn[c] += 1;
            dev.held[c] += 1;
            dev.new[c] += new;
        }
        None => {
            dev.held_unknown += 1;
            dev.new_unknown += new;
        }
    }
    let item = card.map(|c| DEV_CARDS[c]).unwrap_or("unknown_development");
    facts.push(Fact::Gained { player: p, item, count: 1, cause: Cause::Purchase, from: None });
    if card == Some(VICTORY_POINT) {
        score(s, p, "victory_point_card", 1, 0, facts);
    }
    Ok(())
}

/// Checks that `p` may play a card of type `c` now, then plays it.
fn play_card(s: &mut State, p: Seat, c: usize, facts: &mut Vec<Fact>) -> Result {
    if !matches!(s.phase, Phase::BeforeRoll | Phase::Main) {
        return fail(format!("{} cannot play a development card now", s.name(p)));
    }
    if s.dev_played {
        return fail(format!(
            "{} already played a development card this turn (one knight or progress card per turn)",
            s.name(p)
        ));
    }
    let mut dev = s.players[p as usize].dev;
    if !s.options.new_cards_wait_a_turn {
        // Every held card counts as playable.
        dev.new = [0; 5];
        dev.new_unknown = 0;
        s.players[p as usize].dev = dev;
    }
    if !dev.can_play(c) {
        let bought_now = dev.new[c] + dev.new_unknown;
        return if bought_now > 0 && dev.held[c] + dev.held_unknown > 0 {
            fail(format!("{} cannot play a {} bought this turn", s.name(p), DEV_CARDS[c]))
        } else {
            fail(format!("{} has no {} card to play", s.name(p), DEV_CARDS[c]))
        };
    }
    if dev.held[c] == dev.new[c] {
        // An unknown card turns out to be this one: check the deck could have held it.
        if s.deck_drawn[c] >= s.equipment.deck[c] {
            return fail(format!("all {} {} cards are already accounted for", s.equipment.deck[c], DEV_CARDS[c]));
        }
        s.deck_drawn[c] += 1;
    }
    s.players[p as usize].dev.play(c);
    s.dev_played = true;
    facts.push(Fact::CardPlayed { player: p, card: DEV_CARDS[c] });
    Ok(())
}

fn play_knight(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    play_card(s, p, KNIGHT, facts)?;
    s.phase = Phase::MoveRobber { knight: true };
    update_largest_army(s, facts);
    Ok(())
}

fn play_road_building(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    play_card(s, p, ROAD_BUILDING, facts)?;
    s.free_roads = 2.min(MAX_ROADS - s.players[p as usize].roads);
    Ok(())
}

fn play_year_of_plenty(s: &mut State, p: Seat, take: &Bundle, facts: &mut Vec<Fact>) -> Result {
    if take.unknown > 0 {
        return fail("year of plenty must name the two resources taken");
    }
    let bank_total: u32 = s.bank.iter().map(|&n| n as u32).sum();
    if take.total() != 2 && !(take.total() < 2 && take.total() == bank_total) {
        return fail(format!("year of plenty takes 2 resource cards from the bank, not {}", take.total()));
    }
    if let Some(r) = (0..5).find(|&r| s.bank[r] < take.known[r]) {
        return fail(format!("the bank has only {} {} left", s.bank[r], RESOURCES[r]));
    }
    play_card(s, p, YEAR_OF_PLENTY, facts)?;
    for r in 0..5 {
        if take.known[r] > 0 {
            s.bank[r] -= take.known[r];
            s.players[p as usize].hand.add(r, take.known[r]);
            facts.push(Fact::Gained {
                player: p,
                item: RESOURCES[r],
                count: take.known[r] as u32,
                cause: Cause::Card,
                from: None,
            });
        }
    }
    Ok(())
}

fn play_monopoly(s: &mut State, p: Seat, r: usize, taken: Option<&[(Seat, u8)]>, facts: &mut Vec<Fact>) -> Result {
    let n = s.players.len();
    let mut amounts = vec![0u8; n];
    for o in 0..n {
        if o == p as usize {
            continue;
        }
        let hand = s.players[o].hand;
        let stated = taken.map(|t| t.iter().find(|(seat, _)| *seat as usize == o).map(|(_, c)| *c).unwrap_or(0));
        amounts[o] = match stated {
            Some(c) => {
                if c < hand.known[r] || !hand.can_pay(r, c) {
                    return fail(format!(
                        "monopoly on {}: the log says {} hands over {c}, but the hand is {hand}",
                        RESOURCES[r],
                        s.name(o as Seat)
                    ));
                }
                c
            }
            None if hand.unknown > 0 => {
                return fail(format!(
                    "monopoly on {}: {} holds {} unknown card(s), so the event must say what was `taken`",
                    RESOURCES[r],
                    s.name(o as Seat),
                    hand.unknown
                ))
            }
            None => hand.known[r],
        };
    }
    if taken.is_some_and(|t| t.iter().any(|(seat, c)| *seat == p && *c > 0)) {
        return fail("monopoly: the player does not take from themselves");
    }
    play_card(s, p, MONOPOLY, facts)?;
    for o in 0..n {
        if amounts[o] > 0 {
            s.players[o].hand.take(r, amounts[o]);
            s.players[p as usize].hand.add(r, amounts[o]);
            facts.push(Fact::Lost {
                player: o as Seat,
                item: RESOURCES[r],
                count: amounts[o] as u32,
                cause: Cause::Card,
                to: Some(p),
            });
            facts.push(Fact::Gained {
                player: p,
                item: RESOURCES[r],
                count: amounts[o] as u32,
                cause: Cause::Card,
                from: Some(o as Seat),
            });
        }
    }
    Ok(())
}

fn reveal_victory_points(s: &mut State, p: Seat, count: Option<u8>, facts: &mut Vec<Fact>) -> Result {
    let dev = s.players[p as usize].dev;
    let possible = dev.held[VICTORY_POINT] + dev.held_unknown;
    let count = count.unwrap_or(dev.held[VICTORY_POINT]);
    if count == 0 || count > possible {
        return fail(format!("{} reveals {count} victory point card(s) but holds {possible} that could be", s.name(p)));
    }
    // During the game the cards are shown only to win (on the player's own turn); after it, by anyone.
    if s.winner.is_none() {
        let resolved = count.saturating_sub(dev.held[VICTORY_POINT]) as i32;
        let after = s.vp(p) + resolved;
        if after < s.options.vp_target as i32 {
            return fail(format!(
                "victory point cards are shown only to win: {} would have {after} of {} VP",
                s.name(p),
                s.options.vp_target
            ));
        }
    }
    for _ in 0..count {
        let dev = &mut s.players[p as usize].dev;
        if dev.held[VICTORY_POINT] > 0 {
            dev.held[VICTORY_POINT] -= 1;
            dev.new[VICTORY_POINT] = dev.new[VICTORY_POINT].min(dev.held[VICTORY_POINT]);
            dev.played[VICTORY_POINT] += 1;
            score(s, p, "victory_point_card", 0, 1, facts);
        } else {
            if s.deck_drawn[VICTORY_POINT] >= s.equipment.deck[VICTORY_POINT] {
                return fail(format!(
                    "all {} victory point cards are already accounted for",
                    s.equipment.deck[VICTORY_POINT]
                ));
            }
            s.deck_drawn[VICTORY_POINT] += 1;
            // Whether the revealed card was bought this turn is unknown; assume it was, so that no
            // legal play of the remaining cards is rejected.
            dev.held_unknown -= 1;
            dev.new_unknown = dev.new_unknown.saturating_sub(1);
            dev.played[VICTORY_POINT] += 1;
            score(s, p, "victory_point_card", 1, 1, facts);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Turns and awards

fn end_turn(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    match s.phase {
        Phase::Main => {}
        Phase::BeforeRoll => return fail(format!("{} ends the turn without rolling", s.name(p))),
        _ => return fail(format!("{} cannot end the turn now", s.name(p))),
    }
    // Cards bought this turn become playable in the player's next turn.
    s.players[p as usize].dev.new = [0; 5];
    s.players[p as usize].dev.new_unknown = 0;
    if s.equipment.extension_5_6 {
        // The others may now build, clockwise; the next turn begins with the next player's first event.
        s.phase = Phase::SpecialBuilding { after: p, last: p };
        s.free_roads = 0;
    } else {
        start_next_turn(s, facts);
    }
    Ok(())
}

fn start_next_turn(s: &mut State, facts: &mut Vec<Fact>) {
    let n = s.players.len() as Seat;
    s.active = (s.active + 1) % n;
    s.turn += 1;
    s.phase = Phase::BeforeRoll;
    s.rolled = false;
    s.dev_played = false;
    s.built = false;
    s.free_roads = 0;
    facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
}

pub fn is_special_build(ev: &Event) -> bool {
    matches!(
        ev,
        Event::BuildRoad { .. }
            | Event::BuildSettlement { .. }
            | Event::BuildCity { .. }
            | Event::BuyDevelopment { .. }
    )
}

/// The Special Building Phase (5-6 players): after `after`'s turn, every other player in clockwise order
/// may build and buy development cards with the cards in hand; no trade, no card play.
fn special_building(s: &mut State, ev: &Event, after: Seat, last: Seat, facts: &mut Vec<Fact>) -> Result {
    let p = ev.player();
    let n = s.players.len() as Seat;
    // Clockwise distance from the player who ended the turn.
    let order = |x: Seat| (x + n - after) % n;
    if p == after {
        return fail(format!("{} already ended the turn; the special building phase is for the others", s.name(p)));
    }
    if order(p) < order(last) {
        return fail(format!(
            "the special building phase goes clockwise: {} has built already, so {}'s chance has passed",
            s.name(last),
            s.name(p)
        ));
    }
    match ev {
        Event::BuildRoad { at, .. } => build_road(s, p, *at, facts)?,
        Event::BuildSettlement { at, .. } => build_settlement(s, p, *at, facts)?,
        Event::BuildCity { at, .. } => build_city(s, p, *at, facts)?,
        Event::BuyDevelopment { card, .. } => buy_development(s, p, *card, facts)?,
        _ => unreachable!("checked above"),
    }
    s.phase = Phase::SpecialBuilding { after, last: p };
    Ok(())
}

/// Recomputes the road lengths of `changed` players and moves the Longest Road card by the rulebook:
/// 5 segments at least; another player takes it only with a strictly longer road; a holder whose road
/// was cut keeps it while tied for longest; otherwise it goes to the single longest player, or is set
/// aside when the longest are tied or nobody has 5.
pub(crate) fn update_longest_road(s: &mut State, changed: &[Seat], facts: &mut Vec<Fact>) {
    for &p in changed {
        s.players[p as usize].road_length = longest_road(s, p);
    }
    let lengths: Vec<u8> = s.players.iter().map(|p| p.road_length).collect();
    let holder = award_holder(s.longest_road, &lengths, 5);
    move_award(s, Award::LongestRoad, holder, facts);
}

/// The two special cards.
#[derive(Clone, Copy)]
enum Award {
    LongestRoad,
    LargestArmy,
}

/// Who holds a special card given each player's count (road length, knights) and the minimum: the holder
/// keeps it while at the minimum and tied for the most (another player takes it only with strictly
/// more); otherwise the single player with the most takes it, or it is set aside when the most are tied
/// or below the minimum.
fn award_holder(holder: Option<Seat>, counts: &[u8], minimum: u8) -> Option<Seat> {
    let max = *counts.iter().max().unwrap_or(&0);
    match holder {
        Some(h) if counts[h as usize] >= minimum && counts[h as usize] == max => Some(h),
        _ => {
            let top: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == max).collect();
            (max >= minimum && top.len() == 1).then(|| top[0] as Seat)
        }
    }
}

/// Gives a special card to `to` (or sets it aside), with its facts and the 2 VP moving along.
fn move_award(s: &mut State, award: Award, to: Option<Seat>, facts: &mut Vec<Fact>) {
    let (slot, name) = match award {
        Award::LongestRoad => (&mut s.longest_road, "longest_road"),
        Award::LargestArmy => (&mut s.largest_army, "largest_army"),
    };
    if *slot == to {
        return;
    }
    let from = std::mem::replace(slot, to);
    facts.push(Fact::Award { award: name, from, to });
    if let Some(f) = from {
        score(s, f, name, -2, -2, facts);
    }
    if let Some(t) = to {
        score(s, t, name, 2, 2, facts);
    }
}

/// Largest Army after a knight is played (or given up, with Vincent): at least 3 knights.
pub(crate) fn update_largest_army(s: &mut State, facts: &mut Vec<Fact>) {
    let knights: Vec<u8> = s.players.iter().map(|p| p.dev.played[KNIGHT]).collect();
    let holder = award_holder(s.largest_army, &knights, 3);
    move_award(s, Award::LargestArmy, holder, facts);
}

/// Moves the Longest Road card to where catanatron's bookkeeping says it is.
fn catanatron_award(s: &mut State, facts: &mut Vec<Fact>) {
    let roads = s.catanatron_roads.as_ref().expect("catanatron mode");
    let holder = roads.holder();
    let lengths: Vec<u8> = (0..s.players.len() as Seat).map(|p| roads.length(p)).collect();
    for (p, len) in lengths.into_iter().enumerate() {
        s.players[p].road_length = len;
    }
    // catanatron never sets the card aside.
    if holder.is_some() {
        move_award(s, Award::LongestRoad, holder, facts);
    }
}

#[cfg(test)]
mod tests {
    //! Rules that are easiest to check on a state built by hand: longest road, largest army, the bank.
    use super::*;
    use crate::board::BoardSpec;
    use crate::state::{Options, Seating};

    fn state(options: Options) -> State {
        let spec: BoardSpec = serde_json::from_str(include_str!("../tests/beginner-board.json")).unwrap();
        let seating = ["Ana", "Bo", "Cem"].iter().map(|n| Seating { name: n.to_string(), color: None }).collect();
        let mut s = State::new(Board::from_spec(&spec).unwrap(), options, seating).unwrap();
        s.phase = Phase::Main;
        s.turn = 1;
        s
    }

    /// Gives player `p` roads on sides `sides` of hex `hex`.
    fn roads(s: &mut State, p: Seat, hex: usize, sides: &[usize]) {
        for &side in sides {
            let e = s.board.hexes[hex].sides[side];
            s.roads[e as usize] = Some(p);
            s.players[p as usize].roads += 1;
        }
    }

    fn award(s: &mut State) -> Vec<Fact> {
        let mut facts = Vec::new();
        update_longest_road(s, &[0, 1, 2], &mut facts);
        facts
    }

    #[test]
    fn longest_road_needs_five_and_a_rival_needs_strictly_more() {
        let mut s = state(Options::default());
        roads(&mut s, 0, 0, &[0, 1, 2, 3]);
        award(&mut s);
        assert_eq!(s.longest_road, None, "4 segments are not enough");
        roads(&mut s, 0, 0, &[4]);
        let facts = award(&mut s);
        assert_eq!(s.longest_road, Some(0));
        assert!(facts.contains(&Fact::Award { award: "longest_road", from: None, to: Some(0) }));
        assert_eq!(s.vp_public(0), 2);
        roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]);
        award(&mut s);
        assert_eq!(s.longest_road, Some(0), "a tie keeps the holder");
        roads(&mut s, 1, 18, &[5]);
        award(&mut s);
        assert_eq!(s.players[1].road_length, 6);
        assert_eq!(s.longest_road, Some(1), "6 beats 5");
        assert_eq!(s.vp_public(0), 0);
        assert_eq!(s.vp_public(1), 2);
    }

    #[test]
    fn a_branch_counts_only_its_longest_single_line() {
        let mut s = state(Options::default());
        // 9:N -> 9:NE -> 9:SE -> 9:S -> 13:N is a line of 4 ...
        roads(&mut s, 0, 9, &[0, 1, 2]);
        roads(&mut s, 0, 13, &[0]);
        award(&mut s);
        assert_eq!(s.players[0].road_length, 4);
        // ... and a spur at 9:NE (10:NW) makes 5 roads but no longer line.
        roads(&mut s, 0, 10, &[5]);
        award(&mut s);
        assert_eq!(s.players[0].roads, 5);
        assert_eq!(s.players[0].road_length, 4);
        assert_eq!(s.longest_road, None);
    }

    #[test]
    fn a_settlement_cuts_a_road_and_the_card_moves_or_is_set_aside() {
        let mut s = state(Options::default());
        roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]); // Bo: a line of 5 around hex 18, from 18:N to 18:NW
        award(&mut s);
        assert_eq!(s.longest_road, Some(1));
        roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]); // Ana: 5, a tie: Bo keeps it
        award(&mut s);
        assert_eq!(s.longest_road, Some(1));
        // Cem settles at 18:S, the middle of Bo's line: Bo has 3 and 2 left; Ana is the single longest.
        let v = s.board.hexes[18].corners[3];
        s.buildings[v as usize] = Some(Building { owner: 2, city: false });
        award(&mut s);
        assert_eq!(s.players[1].road_length, 3);
        assert_eq!(s.longest_road, Some(0));

        // Again with Cem tied with Ana at 5: nobody single-longest, the card is set aside.
        let mut s = state(Options::default());
        roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]);
        award(&mut s);
        roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]);
        roads(&mut s, 2, 2, &[0, 1, 2, 3, 4]);
        award(&mut s);
        let v = s.board.hexes[18].corners[3];
        s.buildings[v as usize] = Some(Building { owner: 2, city: false });
        let facts = award(&mut s);
        assert_eq!(s.longest_road, None);
        assert!(facts.contains(&Fact::Award { award: "longest_road", from: Some(1), to: None }));
    }

    #[test]
    fn a_holder_cut_but_still_tied_for_longest_keeps_the_card() {
        let mut s = state(Options::default());
        roads(&mut s, 1, 18, &[0, 1, 2, 3, 4, 5]); // Bo: the ring of hex 18, 6
        roads(&mut s, 1, 17, &[0]); // and one more out of 18:NW... (17:NE is 18:W? no: a spur)
        award(&mut s);
        assert_eq!(s.longest_road, Some(1));
        roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]);
        award(&mut s);
        // A settlement of Cem on Bo's ring leaves Bo at least 5: tied or longer, Bo keeps it.
        let v = s.board.hexes[18].corners[1];
        s.buildings[v as usize] = Some(Building { owner: 2, city: false });
        award(&mut s);
        assert!(s.players[1].road_length >= 5);
        assert_eq!(s.longest_road, Some(1));
    }

    fn roll(s: &mut State, p: Seat, dice: [u8; 2]) -> Vec<Fact> {
        s.phase = Phase::BeforeRoll;
        s.active = p;
        let mut facts = Vec::new();
        apply(s, &Event::Roll { player: p, dice, production: None }, &mut facts).unwrap();
        facts
    }

    #[test]
    fn the_bank_pays_nobody_a_resource_it_cannot_pay_everyone() {
        // Ana and Bo both sit on forest 3 (hex 10); the bank has one lumber left.
        let settle = |s: &mut State| {
            let ana = s.board.hexes[10].corners[0];
            let bo = s.board.hexes[10].corners[4];
            s.buildings[ana as usize] = Some(Building { owner: 0, city: false });
            s.buildings[bo as usize] = Some(Building { owner: 1, city: false });
            s.bank[0] = 1;
        };
        let mut s = state(Options::default());
        settle(&mut s);
        roll(&mut s, 0, [1, 2]);
        assert_eq!((s.players[0].hand.known[0], s.players[1].hand.known[0], s.bank[0]), (0, 0, 1));
    }

    #[test]
    fn a_single_player_owed_gets_what_is_left_unless_the_option_says_nobody() {
        let setup = |options: Options| {
            let mut s = state(options);
            let ana = s.board.hexes[10].corners[0];
            s.buildings[ana as usize] = Some(Building { owner: 0, city: true }); // owed 2
            s.bank[0] = 1;
            s
        };
        let mut s = setup(Options::default());
        roll(&mut s, 0, [1, 2]);
        assert_eq!((s.players[0].hand.known[0], s.bank[0]), (1, 0));
        let mut s = setup(Options { bank_shortage: BankShortage::NobodyPaid, ..Options::default() });
        roll(&mut s, 0, [1, 2]);
        assert_eq!((s.players[0].hand.known[0], s.bank[0]), (0, 1));
    }

    #[test]
    fn largest_army_at_three_knights_taken_only_by_more() {
        let mut s = state(Options::default());
        let mut facts = Vec::new();
        let mut knight = |s: &mut State, p: Seat| {
            s.active = p;
            s.phase = Phase::Main;
            s.dev_played = false;
            s.players[p as usize].dev.held[KNIGHT] += 1;
            apply(s, &Event::PlayKnight { player: p }, &mut facts).unwrap();
        };
        for _ in 0..2 {
            knight(&mut s, 0);
        }
        assert_eq!(s.largest_army, None);
        knight(&mut s, 0);
        assert_eq!(s.largest_army, Some(0));
        for _ in 0..3 {
            knight(&mut s, 1);
        }
        assert_eq!(s.largest_army, Some(0), "3 against 3 keeps the holder");
        knight(&mut s, 1);
        assert_eq!(s.largest_army, Some(1));
        assert_eq!(s.vp_public(1), 2);
        assert_eq!(s.vp_public(0), 0);
    }

    #[test]
    fn monopoly_takes_every_card_of_a_kind_and_needs_the_count_for_unknown_hands() {
        let mut s = state(Options::default());
        s.players[0].dev.held[MONOPOLY] = 1;
        s.players[1].hand.known = [2, 0, 0, 0, 0];
        s.players[2].hand.known = [1, 0, 1, 0, 0];
        let mut facts = Vec::new();
        let mut t = s.clone();
        apply(&mut t, &Event::PlayMonopoly { player: 0, resource: 0, taken: None }, &mut facts).unwrap();
        assert_eq!(t.players[0].hand.known[0], 3);
        assert_eq!(t.players[1].hand.total() + t.players[2].hand.total(), 1);
        // Bo holds an unknown card: the event must say what was taken.
        s.players[1].hand.unknown = 1;
        let err = apply(&mut s.clone(), &Event::PlayMonopoly { player: 0, resource: 0, taken: None }, &mut facts)
            .unwrap_err();
        assert!(err.0.contains("must say what was `taken`"), "{err}");
        let mut t = s.clone();
        apply(&mut t, &Event::PlayMonopoly { player: 0, resource: 0, taken: Some(vec![(1, 3), (2, 1)]) }, &mut facts)
            .unwrap();
        assert_eq!(t.players[0].hand.known[0], 4);
        assert_eq!(t.players[1].hand.total(), 0);
        let err = apply(
            &mut s.clone(),
            &Event::PlayMonopoly { player: 0, resource: 0, taken: Some(vec![(1, 4), (2, 1)]) },
            &mut facts,
        )
        .unwrap_err();
        assert!(err.0.contains("hands over 4"), "{err}");
    }

    #[test]
    fn road_building_gives_two_free_roads_first() {
        let mut s = state(Options::default());
        let v = s.board.hexes[0].corners[0];
        s.buildings[v as usize] = Some(Building { owner: 0, city: false });
        s.players[0].settlements = 1;
        s.players[0].dev.held[ROAD_BUILDING] = 1;
        let mut facts = Vec::new();
        apply(&mut s, &Event::PlayRoadBuilding { player: 0 }, &mut facts).unwrap();
        let err = apply(&mut s.clone(), &Event::EndTurn { player: 0 }, &mut facts).unwrap_err();
        assert!(err.0.contains("free road"), "{err}");
        for side in [0, 5] {
            let e = s.board.hexes[0].sides[side];
            apply(&mut s, &Event::BuildRoad { player: 0, at: e }, &mut facts).unwrap();
        }
        assert_eq!(s.players[0].hand.total(), 0, "the two roads were free");
        assert_eq!(s.players[0].roads, 2);
        let e = s.board.hexes[0].sides[1];
        let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: e }, &mut facts).unwrap_err();
        assert!(err.0.contains("cannot pay for a road"), "{err}");
    }

    #[test]
    fn year_of_plenty_takes_two_from_the_bank() {
        let mut s = state(Options::default());
        s.players[0].dev.held[YEAR_OF_PLENTY] = 1;
        let mut facts = Vec::new();
        let three = Bundle { known: [3, 0, 0, 0, 0], unknown: 0 };
        assert!(apply(&mut s.clone(), &Event::PlayYearOfPlenty { player: 0, take: three }, &mut facts).is_err());
        let two = Bundle { known: [1, 0, 0, 0, 1], unknown: 0 };
        apply(&mut s, &Event::PlayYearOfPlenty { player: 0, take: two }, &mut facts).unwrap();
        assert_eq!(s.players[0].hand.known, [1, 0, 0, 0, 1]);
        assert_eq!(s.bank[4], 18);
    }

    #[test]
    fn victory_point_cards_count_hidden_until_revealed_and_win_only_on_your_turn() {
        let mut s = state(Options { vp_target: 4, ..Options::default() });
        for (p, corner) in [(1u8, 0usize), (1, 3)] {
            let v = s.board.hexes[18].corners[corner];
            s.buildings[v as usize] = Some(Building { owner: p, city: false });
            s.players[p as usize].settlements += 1;
        }
        s.players[1].dev.held[VICTORY_POINT] = 2;
        assert_eq!((s.vp(1), s.vp_public(1)), (4, 2));
        // Bo has 4 during Ana's turn: no win yet.
        s.active = 0;
        s.rolled = true;
        let mut facts = Vec::new();
        apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
        // The turn passes to Bo, who has 4: Bo wins at once.
        assert_eq!(s.winner, Some(1));
        assert!(facts.contains(&Fact::GameOver { winner: Some(1) }));
    }

    #[test]
    fn after_the_win_players_may_only_reveal_victory_points() {
        let mut s = state(Options { vp_target: 3, ..Options::default() });
        s.winner = Some(0);
        s.phase = Phase::Over;
        s.players[2].dev.held[VICTORY_POINT] = 1;
        let mut facts = Vec::new();
        apply(&mut s, &Event::RevealVictoryPoints { player: 2, count: None }, &mut facts).unwrap();
        assert_eq!(s.vp_public(2), 1);
        let err = apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap_err();
        assert!(err.0.contains("the game is over: Ana won"), "{err}");
    }

    #[test]
    fn victory_point_cards_are_shown_only_to_win() {
        let mut s = state(Options { vp_target: 4, ..Options::default() });
        s.players[0].dev.held[VICTORY_POINT] = 1;
        s.players[0].settlements = 2;
        let mut facts = Vec::new();
        let err =
            apply(&mut s.clone(), &Event::RevealVictoryPoints { player: 0, count: None }, &mut facts).unwrap_err();
        assert!(err.0.contains("shown only to win: Ana would have 3 of 4 VP"), "{err}");
        s.players[0].dev.held[VICTORY_POINT] = 2;
        apply(&mut s, &Event::RevealVictoryPoints { player: 0, count: None }, &mut facts).unwrap();
        assert_eq!(s.winner, Some(0));
    }

    fn state6() -> State {
        let spec: BoardSpec = serde_json::from_str(include_str!("../tests/board-5-6.json")).unwrap();
        let seating = ["Ana", "Bo", "Cem", "Dilek", "Emre", "Fatma"]
            .iter()
            .map(|n| Seating { name: n.to_string(), color: None })
            .collect();
        let mut s = State::new(Board::from_spec(&spec).unwrap(), Options::default(), seating).unwrap();
        s.phase = Phase::Main;
        s.turn = 1;
        s.rolled = true;
        s
    }

    /// Gives `p` a settlement on a corner of `hex` and the cards for a road.
    fn ready_to_build(s: &mut State, p: Seat, hex: usize) -> EdgeId {
        let v = s.board.hexes[hex].corners[0];
        s.buildings[v as usize] = Some(Building { owner: p, city: false });
        s.players[p as usize].settlements += 1;
        s.players[p as usize].hand.known = [1, 1, 0, 0, 0];
        s.board.hexes[hex].sides[0]
    }

    #[test]
    fn five_or_six_players_bring_the_extensions_bank_and_deck() {
        let s = state6();
        assert_eq!(s.bank, [24; 5]);
        assert_eq!(s.deck_left, 34);
        let s4 = state(Options::default());
        assert_eq!((s4.bank, s4.deck_left), ([19; 5], 25));
        assert!(!s4.equipment.extension_5_6);
    }

    #[test]
    fn the_special_building_phase_goes_clockwise_with_builds_only() {
        let mut s = state6();
        // Ana (seat 0) ends her turn; Cem (2) and Emre (4) want to build.
        let cem_road = ready_to_build(&mut s, 2, 0);
        let emre_road = ready_to_build(&mut s, 4, 29);
        let bo_road = ready_to_build(&mut s, 1, 14);
        let mut facts = Vec::new();
        apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
        assert_eq!(s.phase, Phase::SpecialBuilding { after: 0, last: 0 });
        assert_eq!(s.turn, 1, "the special building phase belongs to Ana's turn");
        // No trading, no card play, not the player who just ended the turn.
        let trade = Event::MaritimeTrade {
            player: 2,
            give: Bundle { known: [4, 0, 0, 0, 0], unknown: 0 },
            get: Bundle { known: [0, 0, 0, 0, 1], unknown: 0 },
        };
        let err = apply(&mut s.clone(), &trade, &mut facts).unwrap_err();
        assert!(err.0.contains("only building and buying happen"), "{err}");
        let err = apply(&mut s.clone(), &Event::PlayKnight { player: 3 }, &mut facts).unwrap_err();
        assert!(err.0.contains("only building and buying happen"), "{err}");
        let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: cem_road }, &mut facts).unwrap_err();
        assert!(err.0.contains("already ended the turn"), "{err}");
        // Cem builds, then Emre; Bo's chance has passed.
        apply(&mut s, &Event::BuildRoad { player: 2, at: cem_road }, &mut facts).unwrap();
        apply(&mut s, &Event::BuildRoad { player: 4, at: emre_road }, &mut facts).unwrap();
        let err = apply(&mut s.clone(), &Event::BuildRoad { player: 1, at: bo_road }, &mut facts).unwrap_err();
        assert!(err.0.contains("goes clockwise: Emre has built already, so Bo's chance has passed"), "{err}");
        // Only Bo, the next player, can end the phase: his roll begins turn 2.
        let err =
            apply(&mut s.clone(), &Event::Roll { player: 3, dice: [1, 2], production: None }, &mut facts).unwrap_err();
        assert!(err.0.contains("Bo plays next"), "{err}");
        apply(&mut s, &Event::Roll { player: 1, dice: [1, 2], production: None }, &mut facts).unwrap();
        assert_eq!((s.turn, s.active, s.phase), (2, 1, Phase::Main));
        assert!(facts.contains(&Fact::TurnStarted { turn: 2, player: 1 }));
    }

    #[test]
    fn a_failed_first_event_of_the_next_turn_leaves_the_special_building_phase_as_it_was() {
        let mut s = state6();
        let mut facts = Vec::new();
        apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
        let before = format!("{:?}", (s.phase, s.turn, s.active));
        // Bo trades before rolling: illegal, and the phase must not have moved on.
        let trade = Event::Trade {
            player: 1,
            with: 2,
            give: Bundle { known: [1, 0, 0, 0, 0], unknown: 0 },
            get: Bundle { known: [0, 1, 0, 0, 0], unknown: 0 },
        };
        assert!(apply(&mut s, &trade, &mut facts).is_err());
        assert_eq!(before, format!("{:?}", (s.phase, s.turn, s.active)));
    }

    #[test]
    fn without_the_extension_nobody_builds_after_the_turn() {
        let mut s = state(Options::default());
        s.rolled = true;
        let road = ready_to_build(&mut s, 2, 0);
        let mut facts = Vec::new();
        apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
        let err = apply(&mut s, &Event::BuildRoad { player: 2, at: road }, &mut facts).unwrap_err();
        assert!(err.0.contains("out of turn"), "{err}");
    }

    #[test]
    fn a_card_bought_in_the_special_building_phase_is_playable_in_the_buyers_turn() {
        let mut s = state6();
        s.players[1].hand.known = [0, 0, 1, 1, 1];
        let mut facts = Vec::new();
        apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
        apply(&mut s, &Event::BuyDevelopment { player: 1, card: Some(KNIGHT) }, &mut facts).unwrap();
        apply(&mut s, &Event::PlayKnight { player: 1 }, &mut facts).unwrap();
        assert_eq!(s.phase, Phase::MoveRobber { knight: true });
    }

    #[test]
    fn pieces_run_out_and_so_does_the_deck() {
        let mut s = state(Options::default());
        s.players[0].hand.known = [5, 5, 5, 5, 5];
        let mut facts = Vec::new();
        // Settlements: 5 on the board, none left.
        let v = s.board.hexes[0].corners[0];
        s.buildings[v as usize] = Some(Building { owner: 0, city: false });
        let e = s.board.hexes[0].sides[0];
        s.roads[e as usize] = Some(0);
        let target = s.board.edges[e as usize].ends[1];
        let road2 = s.board.hexes[0].sides[1];
        s.roads[road2 as usize] = Some(0);
        let far = s.board.edges[road2 as usize].ends[1];
        s.players[0].settlements = 5;
        let err = apply(&mut s.clone(), &Event::BuildSettlement { player: 0, at: far }, &mut facts).unwrap_err();
        assert!(err.0.contains("no settlements left"), "{err}");
        // Cities: 4 on the board, none left.
        s.players[0].cities = 4;
        let err = apply(&mut s.clone(), &Event::BuildCity { player: 0, at: v }, &mut facts).unwrap_err();
        assert!(err.0.contains("no cities left"), "{err}");
        // Roads: 15 on the board, none left.
        s.players[0].roads = 15;
        let next =
            s.board.vertices[target as usize].edges.iter().copied().find(|&x| s.roads[x as usize].is_none()).unwrap();
        let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: next }, &mut facts).unwrap_err();
        assert!(err.0.contains("no roads left"), "{err}");
        // The development deck.
        s.deck_left = 0;
        let err = apply(&mut s.clone(), &Event::BuyDevelopment { player: 0, card: None }, &mut facts).unwrap_err();
        assert!(err.0.contains("deck is empty"), "{err}");
    }

    #[test]
    fn harbours_trade_at_their_rate_for_whoever_builds_on_them() {
        let mut s = state(Options::default());
        s.players[0].hand.known = [0, 0, 6, 0, 0];
        let mut facts = Vec::new();
        let three_for_one = Event::MaritimeTrade {
            player: 0,
            give: Bundle { known: [0, 0, 3, 0, 0], unknown: 0 },
            get: Bundle { known: [0, 0, 0, 0, 1], unknown: 0 },
        };
        let two_for_one = Event::MaritimeTrade {
            player: 0,
            give: Bundle { known: [0, 0, 2, 0, 0], unknown: 0 },
            get: Bundle { known: [0, 0, 0, 0, 1], unknown: 0 },
        };
        assert!(apply(&mut s.clone(), &three_for_one, &mut facts).is_err());
        // The 2:1 wool harbour is on 1:NE; a settlement on one of its vertices.
        let (edge, _) = *s.board.harbours.iter().find(|(_, h)| *h == Harbour::Special(2)).unwrap();
        let v = s.board.edges[edge as usize].ends[0];
        s.buildings[v as usize] = Some(Building { owner: 0, city: false });
        let mut t = s.clone();
        apply(&mut t, &two_for_one, &mut facts).unwrap();
        assert_eq!(t.players[0].hand.known, [0, 0, 4, 0, 1]);
        assert!(facts.iter().any(|f| matches!(f, Fact::Traded { partner: Partner::Harbour(2), .. })));
        // The wool harbour does not trade ore 2:1.
        s.players[0].hand.known = [0, 0, 0, 0, 2];
        let ore = Event::MaritimeTrade {
            player: 0,
            give: Bundle { known: [0, 0, 0, 0, 2], unknown: 0 },
            get: Bundle { known: [1, 0, 0, 0, 0], unknown: 0 },
        };
        assert!(apply(&mut s, &ore, &mut facts).is_err());
    }

    #[test]
    fn a_rejected_event_leaves_the_state_untouched() {
        let mut s = state(Options::default());
        s.players[0].hand.known = [1, 1, 0, 0, 0];
        let before = format!("{:?}", (s.players.clone(), s.bank, s.roads.clone(), s.phase));
        let e = s.board.hexes[5].sides[0];
        let mut facts = Vec::new();
        assert!(apply(&mut s, &Event::BuildRoad { player: 0, at: e }, &mut facts).is_err());
        assert_eq!(before, format!("{:?}", (s.players.clone(), s.bank, s.roads.clone(), s.phase)));
        assert!(facts.is_empty());
    }
}
