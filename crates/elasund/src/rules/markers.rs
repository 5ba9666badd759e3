//! VP markers (the score) and the trade track. A player's points are the markers on the board; each comes
//! from a neutral building's flag, a church tile, a wall's tower or a mark of the trade track.

use crate::board::Square;
use crate::cards::{Cards, Influence};
use crate::state::{State, TRACK_END, TRACK_MARKS};
use crate::vocabulary::TRADE_TRACK;
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// Puts up to `n` of `p`'s markers on the board (as many as are left); returns how many.
pub fn place(s: &mut State, p: Seat, n: u8, reason: &'static str, facts: &mut Vec<Fact>) -> u8 {
    let n = n.min(s.players[p as usize].markers_left);
    if n > 0 {
        s.players[p as usize].markers_left -= n;
        score(s, p, reason, n as i32, facts);
    }
    n
}

/// Gives `n` markers back to `p`.
pub fn give_back(s: &mut State, p: Seat, n: u8, reason: &'static str, facts: &mut Vec<Fact>) {
    if n > 0 {
        s.players[p as usize].markers_left += n;
        score(s, p, reason, -(n as i32), facts);
    }
}

fn score(s: &State, p: Seat, reason: &'static str, delta: i32, facts: &mut Vec<Fact>) {
    let total = s.vp(p);
    facts.push(Fact::Score { player: p, reason, delta, delta_public: delta, total, public: total });
}

/// Trade points: the marker moves on (to 11 at most); each mark reached or passed that still has room
/// takes one of the player's VP markers.
pub fn gain_trade(s: &mut State, p: Seat, points: u8, facts: &mut Vec<Fact>) {
    if points == 0 {
        return;
    }
    let old = s.player(p).trade;
    let new = (old + points).min(TRACK_END);
    s.players[p as usize].trade = new;
    for (k, &(mark, room)) in TRACK_MARKS.iter().enumerate() {
        let taken = s.players.iter().filter(|q| q.track_marks[k]).count() as u8;
        if old < mark
            && mark <= new
            && !s.player(p).track_marks[k]
            && taken < room
            && place(s, p, 1, TRADE_TRACK, facts) == 1
        {
            s.players[p as usize].track_marks[k] = true;
        }
    }
}

/// A building on trade squares is lost: the marker moves back as many points, and every mark it falls
/// back past gives its VP marker back.
pub fn lose_trade(s: &mut State, p: Seat, points: u8, facts: &mut Vec<Fact>) {
    if points == 0 {
        return;
    }
    let new = s.player(p).trade.saturating_sub(points);
    s.players[p as usize].trade = new;
    for (k, &(mark, _)) in TRACK_MARKS.iter().enumerate() {
        if s.player(p).track_marks[k] && mark > new {
            s.players[p as usize].track_marks[k] = false;
            give_back(s, p, 1, TRADE_TRACK, facts);
        }
    }
}

/// The windmills under a footprint.
pub fn windmills(s: &State, squares: &[Square]) -> u8 {
    squares.iter().map(|&q| s.city.windmills(q)).sum()
}

/// Pays `cost` from `p`'s hand (see [`from_hand`]).
pub fn pay(s: &mut State, p: Seat, cost: &Cards, what: &str, facts: &mut Vec<Fact>) -> Result {
    from_hand(s, p, cost, || format!("pay {cost} for {what}"))?;
    for (item, count) in cost.items() {
        facts.push(Fact::Spent { player: p, item, count, cause: almanac_core::cause::PURCHASE });
    }
    Ok(())
}

/// Two influence cards of one colour.
pub fn two_of(c: Influence) -> Cards {
    Cards::of(c, 2)
}

/// Takes `cards` from `p`'s hand, gold to the bank and influence to the discard pile; refused when the hand
/// does not hold them, in the words of the `deed` it cannot do ("pay 2 gold for a house").
pub fn from_hand(s: &mut State, p: Seat, cards: &Cards, deed: impl FnOnce() -> String) -> Result {
    let hand = s.player(p).hand;
    if !hand.can_pay(cards) {
        return fail(format!("{} cannot {}: the hand is {hand}", s.name(p), deed()));
    }
    s.players[p as usize].hand.pay(cards);
    s.gold += cards.gold;
    s.discards += cards.influence_total() as u8;
    Ok(())
}
