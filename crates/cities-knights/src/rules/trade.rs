//! Trade: resources and commodities between the player whose turn it is and another player (the family's
//! exchange), and with the bank: 4:1, 3:1 at a generic harbour (commodities too), 2:1 for a harbour's
//! resource, for the merchant's hex, for the Merchant Fleet's card, and for commodities with the trade
//! track's level 3. Progress cards are never traded. A hand is the base game's pile of cards, so the
//! base game's exchange trades it.

use crate::cards::{Bundle, Card};
use crate::progress::Track;
use crate::rules::checks::{fail, need_main, Result};
use crate::state::State;
use crate::vocabulary::{BANK, HARBOUR_2, HARBOUR_3};
use almanac_catan::board::Harbour;
use almanac_catan::exchange::{exchange, Party};
use almanac_core::Seated;
use almanac_core::{Fact, Partner, Seat};

pub fn trade(s: &mut State, p: Seat, with: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    // The event is written from either side; make `a` the active player.
    let (a, b, give, get) = if p == s.active { (p, with, *give, *get) } else { (with, p, *get, *give) };
    need_main(s, a, "trading")?;
    if a == b {
        return fail(format!("{} cannot trade with themselves", s.name(a)));
    }
    let [pa, pb] = s.players.get_disjoint_mut([a as usize, b as usize]).expect("two players, checked above");
    let party = |seat: Seat, hand| Party { seat, name: s.table.name(seat), hand };
    exchange(party(a, &mut pa.hand), party(b, &mut pb.hand), &give, &get, facts).or_else(|e| fail(e.to_string()))
}

/// The best rate `p` has for giving `c` to the bank.
pub fn rate(s: &State, p: Seat, c: Card) -> u8 {
    let mut best = 4;
    for h in s.layout(&s.buildings).harbours_of(p) {
        match h {
            Harbour::Generic => best = best.min(3),
            Harbour::Special(r) if c == Card::Resource(r) => best = 2,
            Harbour::Special(_) => {}
        }
    }
    let merchant = s.merchant.is_some_and(|(hex, owner)| {
        owner == p && s.board.hexes[hex as usize].terrain.produces().map(Card::Resource) == Some(c)
    });
    let guild = c.is_commodity() && s.player(p).level(Track::Trade) >= 3;
    if merchant || guild || s.merchant_fleet == Some(c) {
        best = 2;
    }
    best
}

pub fn maritime_trade(s: &mut State, p: Seat, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "trading")?;
    if give.unknown > 0 || get.unknown > 0 {
        return fail("a trade with the bank must name its cards");
    }
    if give.is_empty() || get.is_empty() {
        return fail(format!("{}'s trade with the bank must give and get cards", s.name(p)));
    }
    let mut units = 0u32;
    let mut best = 4;
    for (c, n) in give.known.present() {
        if get.known[c] > 0 {
            return fail(format!("a trade with the bank cannot swap {c} for {c}"));
        }
        let r = rate(s, p, c);
        if n % r != 0 {
            return fail(format!(
                "{} gives {n} {c} to the bank, which is not a multiple of the {r}:1 {} has for it",
                s.name(p),
                s.name(p)
            ));
        }
        best = best.min(r);
        units += (n / r) as u32;
    }
    if units != get.total() {
        return fail(format!(
            "{} gives {give} to the bank, which buys {units} card(s), not {}",
            s.name(p),
            get.total()
        ));
    }
    let hand = s.player(p).hand;
    if !hand.can_pay_all(&give.known) {
        return fail(format!("{} cannot give {give}: the hand is {hand}", s.name(p)));
    }
    if let Some((c, _)) = get.known.present().find(|&(c, n)| s.bank[c] < n) {
        return fail(format!("the bank has only {} {c} left", s.bank[c]));
    }
    let hand = &mut s.players[p as usize].hand;
    hand.take_all(&give.known);
    hand.known.add(&get.known);
    s.bank.add(&give.known);
    for (c, n) in get.known.present() {
        s.bank[c] -= n;
    }
    let partner = Partner::Market(match best {
        4 => BANK,
        3 => HARBOUR_3,
        _ => HARBOUR_2,
    });
    facts.push(Fact::Traded { player: p, partner, gave: give.items(), got: get.items() });
    Ok(())
}
