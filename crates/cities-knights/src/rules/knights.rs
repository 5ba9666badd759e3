//! Knights: built basic and inactive by one of the owner's roads, promoted (strong; mighty only with the
//! Fortress), activated for grain, and acting once per turn when active since an earlier turn: moving along
//! the owner's roads, displacing a weaker opponent knight, chasing the robber back to the desert.

use crate::cards::{cost, Cards};
use crate::progress::Track;
use crate::rules::build::{check_cost, pay};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::points::update_longest_road;
use crate::state::{Knight, State, KNIGHTS_PER_LEVEL};
use crate::vocabulary::{KNIGHT, KNIGHT_ACTIVATION, KNIGHT_PROMOTION};
use almanac_catan::board::VertexId;
use almanac_catan::resources::Resource::{Grain, Ore, Wool};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

pub fn knight_cost() -> Cards {
    cost(&[(Wool, 1), (Ore, 1)])
}
pub fn activation_cost() -> Cards {
    cost(&[(Grain, 1)])
}

/// `p`'s knight on `v`, or why not.
pub fn own_knight(s: &State, p: Seat, v: VertexId) -> Result<Knight> {
    match s.knight(v) {
        Some(k) if k.owner == p => Ok(k),
        Some(k) => {
            fail(format!("the knight at {} is {}'s, not {}'s", s.board.vertex_label(v), s.name(k.owner), s.name(p)))
        }
        None => fail(format!("{} has no knight at {}", s.name(p), s.board.vertex_label(v))),
    }
}

/// Is `v` free for a knight to stand on (no building, no knight)?
pub fn free_for_knight(s: &State, v: VertexId) -> bool {
    s.building(v).is_none() && s.knight(v).is_none()
}

/// Does one of `p`'s roads touch `v`?
pub fn touches_road(s: &State, p: Seat, v: VertexId) -> bool {
    s.board.vertices[v as usize].edges.iter().any(|&e| s.road_owner(e) == Some(p))
}

/// The intersections reachable from `from` along `p`'s roads, passing only through intersections where no
/// other piece stands (own buildings excepted): where a knight of `p` may go.
pub fn reachable(s: &State, p: Seat, from: VertexId) -> Vec<VertexId> {
    let mut seen = vec![false; s.board.vertices.len()];
    seen[from as usize] = true;
    let mut stack = vec![from];
    let mut out = Vec::new();
    while let Some(v) = stack.pop() {
        for &e in &s.board.vertices[v as usize].edges {
            if s.road_owner(e) != Some(p) {
                continue;
            }
            let [a, b] = s.board.edges[e as usize].ends;
            let w = if a == v { b } else { a };
            if seen[w as usize] {
                continue;
            }
            seen[w as usize] = true;
            out.push(w);
            let open = s.knight(w).is_none() && s.building(w).is_none_or(|b| b.owner == p);
            if open {
                stack.push(w);
            }
        }
    }
    out
}

/// Places a knight (checked) of `level` for `p`.
pub fn place(s: &mut State, p: Seat, v: VertexId, level: u8, active: bool) {
    s.knights[v as usize] = Some(Knight { owner: p, level, active, activated: 0, promoted: 0 });
}

pub fn build_knight(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "building a knight")?;
    if s.knights_of(p, 1) >= KNIGHTS_PER_LEVEL {
        return fail(format!("{} has no basic knights left (both are on the board)", s.name(p)));
    }
    check_knight_site(s, p, v)?;
    check_cost(s, p, &knight_cost(), "a knight")?;
    pay(s, p, &knight_cost(), facts);
    place(s, p, v, 1, false);
    facts.push(Fact::Built { player: p, piece: KNIGHT });
    update_longest_road(s, facts);
    Ok(())
}

/// A new knight stands on a free intersection that one of its owner's roads touches.
pub fn check_knight_site(s: &State, p: Seat, v: VertexId) -> Result {
    if !free_for_knight(s, v) {
        return fail(format!("a knight needs a free intersection, and {} is taken", s.board.vertex_label(v)));
    }
    if !touches_road(s, p, v) {
        return fail(format!(
            "a knight stands by one of its owner's roads; none of {}'s roads touches {}",
            s.name(p),
            s.board.vertex_label(v)
        ));
    }
    Ok(())
}

/// Promotes `p`'s knight on `v` one level, once per turn; mighty knights need the Fortress (politics 3).
pub fn promote(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    let k = own_knight(s, p, v)?;
    let label = s.board.vertex_label(v);
    if k.level >= 3 {
        return fail(format!("the knight at {label} is mighty already"));
    }
    if k.promoted == s.turn {
        return fail(format!("the knight at {label} was promoted this turn already (once per turn)"));
    }
    if k.level == 2 && s.player(p).level(Track::Politics) < 3 {
        return fail(format!(
            "{} needs the Fortress (politics level 3) to promote a strong knight to a mighty one",
            s.name(p)
        ));
    }
    if s.knights_of(p, k.level + 1) >= KNIGHTS_PER_LEVEL {
        let word = if k.level == 1 { "strong" } else { "mighty" };
        return fail(format!("{} has no {word} knights left (both are on the board)", s.name(p)));
    }
    s.knights[v as usize] = Some(Knight { level: k.level + 1, promoted: s.turn, ..k });
    facts.push(Fact::Built { player: p, piece: KNIGHT_PROMOTION });
    Ok(())
}

pub fn promote_knight(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "promoting a knight")?;
    own_knight(s, p, v)?;
    check_cost(s, p, &knight_cost(), "promoting a knight")?;
    promote(s, p, v, facts)?;
    pay(s, p, &knight_cost(), facts);
    Ok(())
}

pub fn activate(s: &mut State, v: VertexId) {
    if let Some(k) = s.knights[v as usize].as_mut() {
        k.active = true;
        k.activated = s.turn;
    }
}

pub fn activate_knight(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "activating a knight")?;
    let k = own_knight(s, p, v)?;
    if k.active {
        return fail(format!("the knight at {} is active already", s.board.vertex_label(v)));
    }
    check_cost(s, p, &activation_cost(), "activating a knight")?;
    pay(s, p, &activation_cost(), facts);
    activate(s, v);
    facts.push(Fact::Built { player: p, piece: KNIGHT_ACTIVATION });
    Ok(())
}

/// A knight about to act: `p`'s, active, and not activated this turn.
fn ready(s: &State, p: Seat, v: VertexId) -> Result<Knight> {
    need_main(s, p, "a knight's action")?;
    let k = own_knight(s, p, v)?;
    let label = s.board.vertex_label(v);
    if !k.active {
        return fail(format!("the knight at {label} is not active: only an active knight acts"));
    }
    if k.activated == s.turn {
        return fail(format!("the knight at {label} was activated this turn: it acts from the next turn on"));
    }
    Ok(k)
}

pub fn move_knight(
    s: &mut State,
    p: Seat,
    from: VertexId,
    to: VertexId,
    displaced_to: Option<VertexId>,
    facts: &mut Vec<Fact>,
) -> Result {
    let k = ready(s, p, from)?;
    if !reachable(s, p, from).contains(&to) {
        return fail(format!(
            "the knight at {} cannot reach {}: a knight moves along its owner's connected roads",
            s.board.vertex_label(from),
            s.board.vertex_label(to)
        ));
    }
    if let Some(b) = s.building(to) {
        return fail(format!("{}'s {} stands at {}", s.name(b.owner), b.name(), s.board.vertex_label(to)));
    }
    let victim = s.knight(to);
    if let Some(other) = victim {
        if other.owner == p {
            return fail(format!("{} cannot displace their own knight at {}", s.name(p), s.board.vertex_label(to)));
        }
        if other.level >= k.level {
            return fail(format!(
                "only a weaker knight is displaced: {}'s {} at {} is as strong as {}'s {}",
                s.name(other.owner),
                other.name(),
                s.board.vertex_label(to),
                s.name(p),
                k.name()
            ));
        }
    } else if displaced_to.is_some() {
        return fail(format!("nobody's knight stands at {}: there is nothing to displace", s.board.vertex_label(to)));
    }
    s.knights[from as usize] = None;
    s.knights[to as usize] = Some(Knight { active: false, ..k });
    if let Some(other) = victim {
        displace(s, other, to, displaced_to)?;
    }
    update_longest_road(s, facts);
    Ok(())
}

/// `other`, pushed off `at`, goes where its owner chose: another free intersection on the roads it stood on,
/// keeping its level and state; with none, it leaves the board.
pub fn displace(s: &mut State, other: Knight, at: VertexId, to: Option<VertexId>) -> Result {
    let options: Vec<VertexId> =
        reachable(s, other.owner, at).into_iter().filter(|&v| v != at && free_for_knight(s, v)).collect();
    match to {
        Some(v) if options.contains(&v) => {
            s.knights[v as usize] = Some(other);
            Ok(())
        }
        Some(v) => fail(format!(
            "{}'s displaced knight cannot go to {}: it goes to a free intersection on the roads it stood on ({})",
            s.name(other.owner),
            s.board.vertex_label(v),
            labels(s, &options)
        )),
        None if options.is_empty() => Ok(()),
        None => fail(format!(
            "{} must place the displaced knight on a free intersection of the roads it stood on ({}): give `displaced_to`",
            s.name(other.owner),
            labels(s, &options)
        )),
    }
}

fn labels(s: &State, vs: &[VertexId]) -> String {
    if vs.is_empty() {
        return "none".into();
    }
    vs.iter().map(|&v| s.board.vertex_label(v)).collect::<Vec<_>>().join(", ")
}

/// The robber leaves a hex next to the knight for the desert ("Den fordrevne tyv placeres som ved spillets
/// start i ørkenen": in the desert, as at the start), even when a header started it elsewhere; a board
/// without a desert sends it back where it started.
pub fn chase_robber(s: &mut State, p: Seat, v: VertexId) -> Result {
    let k = ready(s, p, v)?;
    let desert = s.board.desert().unwrap_or(s.board.robber_start);
    if s.robber == desert {
        return fail("the robber is in the desert already: there is nothing to chase");
    }
    if !s.board.vertices[v as usize].hexes.contains(&s.robber) {
        return fail(format!(
            "the robber on {} is out of reach of the knight at {}: a knight chases it from a hex it borders",
            s.board.hex_label(s.robber),
            s.board.vertex_label(v)
        ));
    }
    s.robber = desert;
    s.knights[v as usize] = Some(Knight { active: false, ..k });
    Ok(())
}
