//! The church: 7 gold a tile, drawn from the stack. The first builder draws two, keeps one and puts the
//! other under the stack; that first tile goes on the church site and fixes the church's 3 × 3 squares.
//! Later tiles go to their places there, removing any building and sending any permit home. Each tile
//! carries its builder's VP marker.

use crate::board::{ChurchTile, Square, CHURCH_SITE};
use crate::cards::Cards;
use crate::event::Huts;
use crate::rules::build::{count_build, need_build_step, rehouse, remove};
use crate::rules::markers::{pay, place};
use crate::state::State;
use crate::vocabulary::CHURCH;
use almanac_core::ruleset::{fail, Result};
use almanac_core::{Fact, Seat};

pub const CHURCH_COST: u8 = 7;

pub fn build_church(
    s: &mut State,
    p: Seat,
    tile: ChurchTile,
    returned: Option<Option<ChurchTile>>,
    huts: &Huts,
    facts: &mut Vec<Fact>,
) -> Result {
    need_build_step(s, p, "building the church")?;
    if s.church_stack.is_empty() {
        return fail("the church is complete: no tiles are left");
    }
    if !s.church_stack.contains(&tile) {
        return fail(format!("the church tile {} is on the board already", tile.name()));
    }
    let first = s.church.is_none();
    match (first, returned) {
        (true, None) if s.church_stack.len() > 1 => {
            return fail("the first church builder draws two tiles and puts one back (`returned`)")
        }
        (true, Some(Some(r))) if r == tile || !s.church_stack.contains(&r) => {
            return fail(format!("the tile put back, {}, is not the other tile drawn", r.name()))
        }
        (false, Some(_)) => return fail("only the first church builder draws two tiles"),
        _ => {}
    }
    pay(s, p, &Cards::gold(CHURCH_COST), "a church tile", facts)?;
    let (dx, dy) = tile.offset();
    let target = match s.church {
        None => {
            s.church = Some(Square::new(CHURCH_SITE.col - dx, CHURCH_SITE.row - dy));
            CHURCH_SITE
        }
        Some(nw) => Square::new(nw.col + dx, nw.row + dy),
    };
    s.church_stack.retain(|&t| t != tile);
    // What stands there goes: a permit home without compensation, a building whatever its size.
    if let Some((o, v)) = s.cell_mut(target).permit.take() {
        s.players[o as usize].permits_home[v as usize] = true;
    }
    let displaced: Vec<_> = s.cell(target).building.into_iter().filter_map(|i| remove(s, i, facts)).collect();
    let marker = (place(s, p, 1, CHURCH, facts) == 1).then_some(p);
    s.cell_mut(target).church = Some((tile, marker));
    facts.push(Fact::Built { player: p, piece: CHURCH });
    rehouse(s, p, displaced, huts)?;
    count_build(s);
    Ok(())
}
