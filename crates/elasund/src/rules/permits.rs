//! Steps 3 and 4: a permit on a free square of the ship's row for its value in gold (the nearest row
//! above or below when that row is full; any row for 2 influence cards of one colour), or 2 gold; then one
//! extra action for influence: move a permit, upgrade one, place one anywhere, or take 2 gold.

use crate::board::{Square, COLUMNS};
use crate::cards::{Cards, Influence, GOLD};
use crate::rules::markers::{pay, two_of};
use crate::state::{Phase, State};
use crate::vocabulary::{BANK, PERMIT};
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// Which step a permit or 2 gold are: step 3, or the extra action after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Third,
    Extra,
}

fn step(s: &State, p: Seat, what: &str) -> Result<Step> {
    match s.phase {
        Phase::Build { .. } => Ok(Step::Third),
        Phase::Extra { done: false } => Ok(Step::Extra),
        Phase::Extra { done: true } => fail(format!("{} has taken the turn's one extra action already", s.name(p))),
        Phase::Roll => fail(format!("{} must roll before {what}", s.name(p))),
        Phase::Over => fail("the game is over"),
    }
}

fn extra_only(s: &State, p: Seat, what: &str) -> Result {
    match step(s, p, what)? {
        Step::Extra => Ok(()),
        Step::Third => fail(format!("{what} is an extra action: it comes after the permit or the 2 gold of step 3")),
    }
}

fn done(s: &mut State, st: Step) {
    s.phase = Phase::Extra { done: st == Step::Extra };
}

fn has_free_square(s: &State, row: u8) -> bool {
    (1..=COLUMNS).any(|col| s.is_free(Square::new(col, row)))
}

fn own_permit(s: &State, p: Seat, at: Square) -> Result<u8> {
    match s.cell(at).permit {
        Some((o, v)) if o == p => Ok(v),
        Some((o, _)) => fail(format!("the permit on {at} is {}'s, not {}'s", s.name(o), s.name(p))),
        None => fail(format!("there is no permit on {at}")),
    }
}

fn check_free(s: &State, at: Square) -> Result {
    if !s.is_free(at) {
        return fail(format!(
            "{at} is not a free square of the city (a permit goes where nothing is, never on the church site)"
        ));
    }
    Ok(())
}

pub fn place_permit(
    s: &mut State,
    p: Seat,
    value: u8,
    at: Square,
    colour: Option<Influence>,
    facts: &mut Vec<Fact>,
) -> Result {
    let st = step(s, p, "placing a permit")?;
    if !s.player(p).permits_home[value as usize] {
        return fail(format!("{}'s permit of value {value} is on the board already", s.name(p)));
    }
    check_free(s, at)?;
    let mut price = Cards::gold(value);
    match (st, colour) {
        (Step::Extra, Some(_)) => {
            return fail("a permit placed as the extra action costs one influence card of each colour")
        }
        (Step::Extra, None) => price.influence = [1, 1, 1],
        (Step::Third, Some(c)) => price.influence = two_of(c).influence,
        (Step::Third, None) => {
            let ship = s.ship.expect("rolled before step 3");
            let near = at.row.abs_diff(ship) == 1 && !has_free_square(s, ship);
            if at.row != ship && !near {
                return fail(format!(
                    "a permit goes on the ship's row {} (the next row when that one is full), not on {at}; any row costs 2 influence cards of one colour",
                    crate::board::ROWS[ship as usize]
                ));
            }
        }
    }
    pay(s, p, &price, &format!("a permit of value {value}"), facts)?;
    s.cell_mut(at).permit = Some((p, value));
    s.players[p as usize].permits_home[value as usize] = false;
    facts.push(Fact::Built { player: p, piece: PERMIT });
    done(s, st);
    Ok(())
}

pub fn take_gold(s: &mut State, p: Seat, reshuffle: &[(Seat, Cards)], facts: &mut Vec<Fact>) -> Result {
    let st = step(s, p, "taking 2 gold")?;
    if st == Step::Extra {
        pay(s, p, &Cards::one_of_each(), "2 gold", facts)?;
    }
    // "Näin toimitaan myös silloin, jos jollakin kierroksella ei ole tarpeeksi kultakortteja": a bank short of
    // the 2 gold is refilled by everyone giving back half their gold, rounded down; then the 2 are taken.
    if s.gold < 2 {
        crate::rules::income::give_back_half(s, true, false, reshuffle, facts)?;
    } else if !reshuffle.is_empty() {
        return fail(format!("the bank holds {} gold: nobody gives any back (`reshuffle`)", s.gold));
    }
    let n = s.gold.min(2);
    s.gold -= n;
    s.players[p as usize].hand.gold += n;
    if n > 0 {
        facts.push(Fact::Gained { player: p, item: GOLD, count: n as u32, cause: BANK, from: None });
    }
    done(s, st);
    Ok(())
}

pub fn move_permit(
    s: &mut State,
    p: Seat,
    from: Square,
    to: Square,
    colour: Influence,
    facts: &mut Vec<Fact>,
) -> Result {
    extra_only(s, p, "moving a permit")?;
    let value = own_permit(s, p, from)?;
    check_free(s, to)?;
    pay(s, p, &two_of(colour), "moving a permit", facts)?;
    s.cell_mut(from).permit = None;
    s.cell_mut(to).permit = Some((p, value));
    done(s, Step::Extra);
    Ok(())
}

pub fn upgrade_permit(
    s: &mut State,
    p: Seat,
    at: Square,
    value: u8,
    colour: Influence,
    facts: &mut Vec<Fact>,
) -> Result {
    extra_only(s, p, "upgrading a permit")?;
    let old = own_permit(s, p, at)?;
    if value <= old {
        return fail(format!("a permit is replaced by a more valuable one: {value} is not more than {old}"));
    }
    if !s.player(p).permits_home[value as usize] {
        return fail(format!("{}'s permit of value {value} is on the board already", s.name(p)));
    }
    let price = Cards { gold: value - old, ..two_of(colour) };
    pay(s, p, &price, "upgrading a permit", facts)?;
    s.cell_mut(at).permit = Some((p, value));
    let home = &mut s.players[p as usize].permits_home;
    home[old as usize] = true;
    home[value as usize] = false;
    done(s, Step::Extra);
    Ok(())
}
