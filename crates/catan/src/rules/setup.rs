//! Initial placement: a settlement and a road each, in snake order; the second settlement pays a card per
//! producing hex around it.

use crate::board::VertexId;
use crate::event::Event;
use crate::pieces::{ROAD, SETTLEMENT};
use crate::rules::build::{check_free_vertex, place_settlement};
use crate::rules::checks::{fail, Result};
use crate::rules::points::score;
use crate::rules::variants;
use crate::state::{Phase, State};
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

/// The second settlement at `v` goes back to `p`'s supply, and with it the cards it paid.
fn take_back(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) {
    s.buildings[v as usize] = None;
    s.players[p as usize].settlements -= 1;
    facts.push(Fact::Returned { player: p, piece: SETTLEMENT });
    score(s, p, SETTLEMENT, -1, -1, facts);
    let board = s.board.clone();
    for &h in &board.vertices[v as usize].hexes {
        if let Some(r) = board.hexes[h as usize].terrain.produces() {
            if s.players[p as usize].hand.known[r] > 0 {
                s.players[p as usize].hand.take(r, 1);
                s.bank[r] += 1;
                facts.push(Fact::Lost { player: p, item: r.name(), count: 1, cause: cause::SETUP, to: None });
            }
        }
    }
}

/// An event of setup step `step`; `settlement` is the one placed this step, whose road comes next.
pub fn setup(s: &mut State, ev: &Event, step: u8, settlement: Option<VertexId>, facts: &mut Vec<Fact>) -> Result {
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
            check_free_vertex(s, p, *at)?;
            place_settlement(s, p, *at, facts);
            variants::setup_settlement_placed(s, p, *at);
            if second {
                // The second settlement pays one card per adjacent producing hex.
                let board = s.board.clone();
                for &h in &board.vertices[*at as usize].hexes {
                    if let Some(r) = board.hexes[h as usize].terrain.produces() {
                        if s.bank[r] > 0 {
                            s.bank[r] -= 1;
                            s.players[p as usize].hand.add(r, 1);
                            facts.push(Fact::Gained {
                                player: p,
                                item: r.name(),
                                count: 1,
                                cause: cause::SETUP,
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
            s.layout().check_free_edge(&s.table, p, e).or_else(fail)?;
            if !s.board.edges[e as usize].ends.contains(&v) {
                return fail(format!(
                    "setup: the road at {} must touch the settlement just placed at {}",
                    s.board.edge_label(e),
                    s.board.vertex_label(v)
                ));
            }
            s.roads[e as usize] = Some(p);
            s.players[p as usize].roads += 1;
            facts.push(Fact::Built { player: p, piece: ROAD });
            let next = step + 1;
            let last = next as usize >= 2 * s.players.len() && s.setup_owed().is_none();
            variants::setup_road_placed(s, p, e, second, last, facts);
            if last {
                // Whoever placed last begins: the first player, unless a placement taken back came after.
                s.phase = Phase::BeforeRoll;
                s.turn = 1;
                s.active = p;
                facts.push(Fact::TurnStarted { turn: 1, player: p });
            } else {
                s.phase = Phase::Setup { step: next, settlement: None };
                s.active = s.setup_seat(next);
            }
            Ok(())
        }
        (Some(v), Event::TakeBack { at, .. }) => {
            if p != seat {
                return fail(format!("setup: {} cannot take back {}'s settlement", s.name(p), s.name(seat)));
            }
            if *at != v {
                return fail(format!(
                    "setup: only the settlement just placed ({}) can be taken back, not {}",
                    s.board.vertex_label(v),
                    s.board.vertex_label(*at)
                ));
            }
            if !second {
                // A first settlement taken back would make the order of the rest a guess: not read.
                return fail(format!(
                    "setup: only a second-round settlement can be taken back, and {}'s at {} is a first",
                    s.name(p),
                    s.board.vertex_label(v)
                ));
            }
            take_back(s, p, v, facts);
            let next = step + 1;
            s.phase = Phase::Setup { step: next, settlement: None };
            s.active = s.setup_seat(next);
            Ok(())
        }
        (None, _) if p != seat => fail(format!(
            "setup: it is {}'s turn to place a settlement, not {}'s {}",
            s.name(seat),
            s.name(p),
            ev.kind()
        )),
        (None, _) => fail(format!("setup: {} must place a settlement now, not {}", s.name(seat), ev.kind())),
        (Some(v), _) => fail(format!(
            "setup: {} must place a road next to {} now, not {}",
            s.name(seat),
            s.board.vertex_label(v),
            ev.kind()
        )),
    }
}
