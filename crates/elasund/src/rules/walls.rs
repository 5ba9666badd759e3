//! Walls: the top tile of the player's stack, next to a gate or to a wall tile already built; 2 gold
//! towards the sea, 4 between the gates; its reward is influence cards or a tower for a VP marker.

use crate::board::WallSite;
use crate::buildings::{wall_reward, WallReward};
use crate::cards::Cards;
use crate::event::Drawn;
use crate::rules::build::{count_build, need_build_step};
use crate::rules::income::draw;
use crate::rules::markers::{pay, place};
use crate::state::State;
use crate::vocabulary::{WALL, WALL_REWARD};
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

pub fn build_wall(s: &mut State, p: Seat, site: WallSite, drawn: &[Drawn], facts: &mut Vec<Fact>) -> Result {
    need_build_step(s, p, "building a wall")?;
    if !s.city.wall_sites().contains(&site) {
        return fail(format!("{site} is not a wall site of this city"));
    }
    if let Some(&(o, n)) = s.walls.get(&site) {
        return fail(format!("{}'s wall tile {n} stands on {site} already", s.name(o)));
    }
    let (neighbours, by_gate) = s.city.wall_neighbours(site);
    if !by_gate && !neighbours.iter().any(|n| s.walls.contains_key(n)) {
        return fail(format!(
            "a wall tile goes next to a gate or to a wall tile already built; {site} is next to neither"
        ));
    }
    let Some(number) = s.next_wall(p) else {
        return fail(format!("{} has built all nine wall tiles", s.name(p)));
    };
    pay(s, p, &Cards::gold(site.cost()), &format!("a wall on {site}"), facts)?;
    s.walls.insert(site, (p, number));
    s.players[p as usize].walls += 1;
    facts.push(Fact::Built { player: p, piece: WALL });
    match wall_reward(number) {
        WallReward::Tower => {
            if !drawn.is_empty() {
                return fail(format!("wall tile {number} has a tower: it draws no influence"));
            }
            if place(s, p, 1, WALL, facts) == 1 {
                s.players[p as usize].towers += 1;
            }
        }
        WallReward::Influence(k) => {
            if s.deck < k {
                s.deck += std::mem::take(&mut s.discards);
            }
            let k = k.min(s.deck) as usize;
            if drawn.len() != k {
                return fail(format!(
                    "wall tile {number} draws {k} influence card(s); the event names {}",
                    drawn.len()
                ));
            }
            for &d in drawn {
                draw(s, p, d, WALL_REWARD, facts);
            }
        }
    }
    count_build(s);
    Ok(())
}
