//! City improvements: level L of a track costs L of its commodity (one less after a Crane); the first to
//! reach level 4 takes the track's metropolis, which only a player reaching level 5 first takes away.

use crate::cards::{Card, Cards};
use crate::progress::{Track, MAX_LEVEL};
use crate::rules::build::{check_cost, pay};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::points::score;
use crate::state::State;
use crate::vocabulary::IMPROVEMENT;
use almanac_catan::board::VertexId;
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

pub fn improve_city(s: &mut State, p: Seat, t: Track, metropolis: Option<VertexId>, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "improving a city")?;
    let level = s.player(p).level(t) + 1;
    if level > MAX_LEVEL {
        return fail(format!("{} has all five {t} improvements already", s.name(p)));
    }
    if s.player(p).cities == 0 {
        return fail(format!("{} has no city: improvements are built only while the player has one", s.name(p)));
    }
    let holds = s.metropolis_holder(t) == Some(p);
    let plain = s.plain_cities(p);
    if level >= 4 && !holds && plain.is_empty() {
        return fail(format!(
            "{} reaches {t} level {level} only with a city that carries no metropolis (build another city first)",
            s.name(p)
        ));
    }
    // Who takes the metropolis with this level, if anybody.
    let takes = match (s.metropolis_holder(t), level) {
        (None, 4) => true,
        (Some(h), 5) if h != p && s.player(h).level(t) < MAX_LEVEL => true,
        _ => false,
    };
    let site = match (takes, metropolis) {
        (false, Some(_)) => return fail(format!("{t} level {level} brings {} no metropolis to place", s.name(p))),
        (false, None) => None,
        (true, Some(v)) if plain.contains(&v) => Some(v),
        (true, Some(v)) => {
            return fail(format!(
                "the {t} metropolis goes on one of {}'s cities without a metropolis, not on {}",
                s.name(p),
                s.board.vertex_label(v)
            ))
        }
        (true, None) if plain.len() == 1 => Some(plain[0]),
        (true, None) => {
            return fail(format!("{} takes the {t} metropolis: say on which city (`metropolis`)", s.name(p)))
        }
    };
    let commodity = Card::Commodity(t.commodity());
    let n = if s.crane { level - 1 } else { level };
    let price = Cards::of(commodity, n);
    check_cost(s, p, &price, &format!("{t} level {level} ({})", t.building(level)))?;
    pay(s, p, &price, facts);
    s.crane = false;
    s.players[p as usize].levels[t as usize] = level;
    facts.push(Fact::Built { player: p, piece: IMPROVEMENT[t as usize] });
    if let Some(v) = site {
        let from = s.metropolis_holder(t);
        s.metropolis[t as usize] = Some(v);
        facts.push(Fact::Award { award: t.metropolis(), from, to: Some(p) });
        if let Some(f) = from {
            score(s, f, t.metropolis(), -2, facts);
        }
        score(s, p, t.metropolis(), 2, facts);
    }
    Ok(())
}
