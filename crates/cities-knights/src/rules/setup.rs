//! Initial placement: a settlement and a road each, then a city and a road each in reverse order; the
//! city brings one resource from each land it borders (the base game's starting resources: "hver spiller
//! modtager råstofudbytte fra de felter hans by grænser op til"). The last to place a city starts.

use crate::cards::Card;
use crate::event::Event;
use crate::rules::build::{check_free_vertex, place_road};
use crate::rules::checks::{fail, Result};
use crate::rules::points::score;
use crate::state::{Phase, State};
use crate::vocabulary::{CITY, SETTLEMENT};
use almanac_catan::board::VertexId;
use almanac_catan::pieces::Building;
use almanac_core::Seated;
use almanac_core::{cause, Fact};

pub fn setup(s: &mut State, ev: &Event, step: u8, placed: Option<VertexId>, facts: &mut Vec<Fact>) -> Result {
    let n = s.players.len() as u8;
    let who = s.setup_seat(step);
    if ev.player() != who {
        return fail(format!("setup: it is {}'s placement, not {}'s", s.name(who), s.name(ev.player())));
    }
    let second = step >= n;
    match (ev, placed) {
        (Event::BuildSettlement { at, .. }, None) if !second => {
            check_free_vertex(s, who, SETTLEMENT, *at)?;
            s.buildings[*at as usize] = Some(Building { owner: who, city: false });
            s.players[who as usize].settlements += 1;
            facts.push(Fact::Built { player: who, piece: SETTLEMENT });
            score(s, who, SETTLEMENT, 1, facts);
            s.phase = Phase::Setup { step, placed: Some(*at) };
        }
        (Event::BuildCity { at, .. }, None) if second => {
            check_free_vertex(s, who, CITY, *at)?;
            s.buildings[*at as usize] = Some(Building { owner: who, city: true });
            s.players[who as usize].cities += 1;
            facts.push(Fact::Built { player: who, piece: CITY });
            score(s, who, CITY, 2, facts);
            for &h in &s.board.vertices[*at as usize].hexes {
                if let Some(r) = s.board.hexes[h as usize].terrain.produces() {
                    let c = Card::Resource(r);
                    if s.bank[c] > 0 {
                        s.bank[c] -= 1;
                        s.players[who as usize].hand.add(c, 1);
                        facts.push(Fact::Gained {
                            player: who,
                            item: c.name(),
                            count: 1,
                            cause: cause::SETUP,
                            from: None,
                        });
                    }
                }
            }
            s.phase = Phase::Setup { step, placed: Some(*at) };
        }
        (Event::BuildRoad { at, .. }, Some(v)) => {
            if !s.board.edges[*at as usize].ends.contains(&v) {
                return fail(format!(
                    "setup: the road at {} must touch the building just placed at {}",
                    s.board.edge_label(*at),
                    s.board.vertex_label(v)
                ));
            }
            s.layout(&s.buildings).check_free_edge(&s.table, who, *at).or_else(fail)?;
            place_road(s, who, *at, facts);
            if step + 1 == 2 * n {
                s.turn = 1;
                s.active = 0;
                s.phase = Phase::BeforeRoll;
                facts.push(Fact::TurnStarted { turn: 1, player: 0 });
            } else {
                s.phase = Phase::Setup { step: step + 1, placed: None };
            }
        }
        _ => {
            let want = match (placed, second) {
                (Some(_), _) => "a road by the building just placed",
                (None, false) => "a settlement",
                (None, true) => "a city",
            };
            return fail(format!("setup: {} places {want} now, not {}", s.name(who), ev.kind()));
        }
    }
    Ok(())
}
