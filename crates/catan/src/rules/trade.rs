//! Trade: between the player whose turn it is and another player, or with the bank at 4:1 and at the
//! harbours the player has built on.

use crate::board::Harbour;
use crate::exchange::{exchange, Party};
use crate::resources::{Bundle, Resource};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::variants;
use crate::state::State;
use crate::vocabulary::{BANK, HARBOUR_2, HARBOUR_3};
use almanac_core::Seated;
use almanac_core::{Fact, Partner, Seat};

pub(crate) fn check_trade_phase(s: &State, p: Seat) -> Result {
    need_main(s, p, "trading")?;
    if !s.options.combined_trade_build && s.built {
        return fail(format!(
            "{} trades after building; this game keeps trading before building (combined_trade_build is off)",
            s.name(p)
        ));
    }
    Ok(())
}

pub fn trade(s: &mut State, p: Seat, with: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    // The event is written from either side; make `a` the active player.
    let (a, b, give, get) = if p == s.active { (p, with, *give, *get) } else { (with, p, *get, *give) };
    check_trade_phase(s, a)?;
    if a == b {
        return fail(format!("{} cannot trade with themselves", s.name(a)));
    }
    let [pa, pb] = s.players.get_disjoint_mut([a as usize, b as usize]).expect("two players, checked above");
    let party = |seat: Seat, hand| Party { seat, name: s.table.name(seat), hand };
    exchange(party(a, &mut pa.hand), party(b, &mut pb.hand), &give, &get, facts).or_else(|e| fail(e.to_string()))
}

/// The rates player `p` may use for resource `r`, best first (4:1 always; 3:1 and 2:1 at own harbours).
pub(crate) fn rates(s: &State, p: Seat, r: Resource) -> &'static [u8] {
    let mut special = variants::special_rate(s, p, r);
    let mut generic = false;
    for h in s.layout().harbours_of(p) {
        match h {
            Harbour::Generic => generic = true,
            Harbour::Special(hr) => special |= hr == r,
        }
    }
    match (special, generic) {
        (true, true) => &[2, 3, 4],
        (true, false) => &[2, 4],
        (false, true) => &[3, 4],
        (false, false) => &[4],
    }
}

pub fn maritime_trade(s: &mut State, p: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    check_trade_phase(s, p)?;
    if give.unknown > 0 || get.unknown > 0 {
        return fail("a maritime trade must name its cards");
    }
    if give.is_empty() || get.is_empty() {
        return fail(format!("{}'s maritime trade must give and get cards", s.name(p)));
    }
    let mut units = 0u32;
    let mut best_rate = 4;
    for (r, n) in give.known.present() {
        if get.known[r] > 0 {
            return fail(format!("a maritime trade cannot swap {r} for {r}"));
        }
        let rates = rates(s, p, r);
        let Some(&rate) = rates.iter().find(|&&rate| n.is_multiple_of(rate)) else {
            return fail(format!(
                "{} gives {n} {r} to the bank, which is not a multiple of any rate {} may use for it ({})",
                s.name(p),
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
    if let Some((r, _)) = get.known.present().find(|&(r, n)| s.bank[r] < n) {
        return fail(format!("the bank has only {} {r} left", s.bank[r]));
    }
    s.players[p as usize].hand.take_all(&give.known);
    for r in Resource::ALL {
        s.bank[r] = s.bank[r].saturating_add(give.known[r]);
        s.bank[r] -= get.known[r];
    }
    s.players[p as usize].hand.add_all(&get.known);
    let partner = Partner::Market(match best_rate {
        4 => BANK,
        3 => HARBOUR_3,
        _ => HARBOUR_2,
    });
    facts.push(Fact::Traded { player: p, partner, gave: give.items(), got: get.items() });
    Ok(())
}
