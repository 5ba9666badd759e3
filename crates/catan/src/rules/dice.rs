//! The roll (production, or a 7), discards, and the robber.

use crate::board::HexId;
use crate::event::{Thrown, MAX_PLAYERS};
use crate::resources::{Bundle, Resource, ResourceCard, Resources, UNKNOWN};
use crate::rules::checks::{fail, Result};
use crate::rules::variants;
use crate::state::{Phase, State};
use crate::vocabulary::{ROBBED_LEADER, SEVEN};
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

/// What a roll of `sum` pays each player (by seat), given the robber and the bank.
fn production(s: &State, sum: usize) -> [Resources; MAX_PLAYERS] {
    let n = s.players.len();
    let mut owed = [Resources::NONE; MAX_PLAYERS];
    for &h in &s.board.by_number[sum] {
        if h == s.robber {
            continue;
        }
        let hex = &s.board.hexes[h as usize];
        let Some(r) = hex.terrain.produces() else {
            continue;
        };
        for &v in &hex.corners {
            if let Some(b) = s.buildings[v as usize] {
                owed[b.owner as usize][r] += if b.city { 2 } else { 1 };
            }
        }
    }
    let mut pay = [Resources::NONE; MAX_PLAYERS];
    for r in Resource::ALL {
        let mut wanted = [0u8; MAX_PLAYERS];
        for i in 0..n {
            wanted[i] = owed[i][r];
        }
        let total: u32 = wanted.iter().map(|&w| w as u32).sum();
        let paid = if total <= s.bank[r] as u32 { wanted } else { variants::short_payment(s, &wanted, s.bank[r]) };
        for i in 0..n {
            pay[i][r] = paid[i];
        }
    }
    pay
}

/// Says what a roll promises each player, where it changed since it was last said: the chance of every sum
/// times what the board would pay on it, the robber and the bank as they stand (a 7 pays nothing).
fn promise(s: &mut State, facts: &mut Vec<Fact>) {
    let dice = almanac_core::DiceSpec { count: 2, faces: 6 };
    let n = s.players.len();
    let mut expected = [0f64; MAX_PLAYERS];
    // Where the bank could pay every sum at once, each hex pays in full whatever is rolled: one pass over
    // the hexes. Otherwise (a bank running short) each sum as the rules pay it.
    let mut owed = Resources::NONE;
    let mut by_hex = [0f64; MAX_PLAYERS];
    for (h, hex) in s.board.hexes.iter().enumerate() {
        let (Some(r), Some(number)) = (hex.terrain.produces(), hex.number) else { continue };
        if h as HexId == s.robber || number == 7 {
            continue;
        }
        let chance = dice_chance(number);
        for &v in &hex.corners {
            if let Some(b) = s.buildings[v as usize] {
                let k = if b.city { 2 } else { 1 };
                owed[r] = owed[r].saturating_add(k);
                by_hex[b.owner as usize] += chance * f64::from(k);
            }
        }
    }
    if Resource::ALL.iter().all(|&r| owed[r] <= s.bank[r]) {
        expected = by_hex;
    } else {
        for (sum, chance) in dice.chances().filter(|&(sum, _)| sum != 7) {
            let pay = production(s, sum as usize);
            for i in 0..n {
                expected[i] += chance * pay[i].total() as f64;
            }
        }
    }
    for (i, e) in expected.iter().enumerate().take(n) {
        let thousandths = (e * 1000.0).round() as u32;
        if thousandths != s.players[i].promised {
            s.players[i].promised = thousandths;
            facts.push(Fact::Promised { player: i as Seat, thousandths });
        }
    }
}

/// The chance of two dice summing to `sum`.
fn dice_chance(sum: u8) -> f64 {
    f64::from(6 - (i32::from(sum) - 7).abs().min(6)) / 36.0
}

pub fn roll(
    s: &mut State,
    p: Seat,
    dice: Thrown,
    claimed: Option<&[Bundle; MAX_PLAYERS]>,
    facts: &mut Vec<Fact>,
) -> Result {
    if s.phase != Phase::BeforeRoll {
        return fail(format!("{} already rolled this turn", s.name(p)));
    }
    let sum = dice.sum() as usize;
    let n = s.players.len();
    let pay = if sum == 7 { [Resources::NONE; MAX_PLAYERS] } else { production(s, sum) };
    let pay = &pay[..n];
    if let Some(claimed) = claimed {
        if sum == 7 && claimed.iter().any(|b| !b.is_empty()) {
            return fail("roll 7: nobody receives anything on a 7, but the log lists production");
        }
        for (i, paid) in pay.iter().enumerate() {
            let (stated, computed) = (claimed[i], Bundle::known(*paid));
            if stated != computed {
                return fail(format!(
                    "roll {sum}: the log says {} receives {stated}, but the board pays {computed}",
                    s.name(i as Seat)
                ));
            }
        }
    }

    promise(s, facts);
    facts.push(Fact::Rolled { player: p, dice: dice.dice() });
    if sum == 7 {
        facts.push(Fact::Moment { moment: SEVEN, player: Some(p) });
    }
    s.rolled = true;
    if sum == 7 {
        s.must_discard = variants::discards_due(s);
        let any = s.must_discard.iter().any(|&d| d > 0);
        s.phase = if any { Phase::Discard } else { Phase::MoveRobber { knight: false } };
    } else {
        for (i, paid) in pay.iter().enumerate() {
            for (r, amount) in paid.present() {
                s.bank[r] -= amount;
                s.players[i].hand.add(r, amount);
                facts.push(Fact::Gained {
                    player: i as Seat,
                    item: r.name(),
                    count: amount as u32,
                    cause: cause::PRODUCTION,
                    from: None,
                });
            }
        }
        s.phase = Phase::Main;
    }
    let paid = pay.iter().enumerate().filter(|(_, c)| !c.is_empty()).fold(0u8, |m, (i, _)| m | (1 << i));
    variants::rolled(s, sum as u8, paid);
    Ok(())
}

pub fn discard(s: &mut State, p: Seat, cards: &Bundle, facts: &mut Vec<Fact>) -> Result {
    // A discard may be paid in parts (catanatron's newest records discard one card at a time): each part is
    // checked against what is still owed.
    let due = s.must_discard[p as usize];
    let held = s.players[p as usize].hand.total();
    let count = cards.total();
    if count == 0 {
        return fail(format!("{}'s discard names no card; {due} still owed", s.name(p)));
    }
    if count > due as u32 {
        // Half the hand now is what was owed at the 7 unless part of it is paid already.
        let paid_in_part = variants::discards_due(s)[p as usize] != due;
        return fail(if paid_in_part {
            format!(
                "{} holds {held} cards and has {due} left to discard of the half owed after the 7, not {count}",
                s.name(p)
            )
        } else {
            format!("{} holds {held} cards and must discard {due} (half, rounded down), not {count}", s.name(p))
        });
    }
    if cards.unknown > 0 && !s.options.discards_face_down {
        return fail(format!("{}'s discard must name its cards: discards go face up to the bank", s.name(p)));
    }
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(&cards.known) {
        return fail(format!("{} cannot discard {cards}: the hand is {hand}", s.name(p)));
    }
    s.players[p as usize].hand.take_all(&cards.known);
    for (r, n) in cards.known.present() {
        s.bank[r] = s.bank[r].saturating_add(n);
        facts.push(Fact::Lost { player: p, item: r.name(), count: n as u32, cause: cause::DISCARD, to: None });
    }
    // Face-down discards: any card of the hand may have gone.
    for _ in 0..cards.unknown {
        s.players[p as usize].hand.take_unseen();
    }
    if cards.unknown > 0 {
        facts.push(Fact::Lost {
            player: p,
            item: UNKNOWN,
            count: cards.unknown as u32,
            cause: cause::DISCARD,
            to: None,
        });
    }
    s.must_discard[p as usize] = due - count as u8;
    if s.must_discard.iter().all(|&d| d == 0) {
        s.phase = Phase::MoveRobber { knight: false };
    }
    Ok(())
}

pub fn move_robber(
    s: &mut State,
    p: Seat,
    hex: HexId,
    victim: Option<Seat>,
    stolen: Option<ResourceCard>,
    facts: &mut Vec<Fact>,
) -> Result {
    let Phase::MoveRobber { knight } = s.phase else { unreachable!("checked by check_turn") };
    if hex == s.robber {
        return fail(format!("the robber must move to another hex; it already stands on {}", s.board.hex_label(hex)));
    }
    // Opponents with a settlement or city on the target hex, and of them those holding cards.
    let mut adjacent: Vec<Seat> = Vec::new();
    for &v in &s.board.hexes[hex as usize].corners {
        if let Some(b) = s.buildings[v as usize] {
            if b.owner != p && !adjacent.contains(&b.owner) {
                adjacent.push(b.owner);
            }
        }
    }
    let with_cards: Vec<Seat> = adjacent.iter().copied().filter(|&o| s.players[o as usize].hand.total() > 0).collect();
    match victim {
        None => {
            if !with_cards.is_empty() {
                let names: Vec<&str> = with_cards.iter().map(|&o| s.name(o)).collect();
                return fail(format!(
                    "{} moves the robber to {} and must steal from {}",
                    s.name(p),
                    s.board.hex_label(hex),
                    names.join(" or ")
                ));
            }
            if stolen.is_some() {
                return fail("move_robber: a stolen card without a victim");
            }
        }
        Some(v) => {
            if v == p {
                return fail(format!("{} cannot steal from themselves", s.name(p)));
            }
            if !adjacent.contains(&v) {
                return fail(format!(
                    "{} cannot steal from {}: {} has no settlement or city on {}",
                    s.name(p),
                    s.name(v),
                    s.name(v),
                    s.board.hex_label(hex)
                ));
            }
            let hand = s.players[v as usize].hand;
            match stolen {
                None if hand.total() > 0 => {
                    return fail(format!(
                        "{} steals from {}, who holds {} cards, but the log names no card",
                        s.name(p),
                        s.name(v),
                        hand.total()
                    ))
                }
                Some(_) if hand.total() == 0 => {
                    return fail(format!("{} steals from {}, who holds no cards", s.name(p), s.name(v)))
                }
                Some(ResourceCard::Known(r)) if !hand.can_pay(r, 1) => {
                    return fail(format!("{} steals {r} from {}, whose hand is {hand}", s.name(p), s.name(v)))
                }
                _ => {}
            }
        }
    }
    s.robber = hex;
    if let Some(v) = victim.filter(|&v| leads(s, v)) {
        facts.push(Fact::Moment { moment: ROBBED_LEADER, player: Some(v) });
    }
    if let (Some(v), Some(card)) = (victim, stolen) {
        steal(s, p, v, card, cause::STEAL, facts);
    }
    s.phase = if knight && !s.rolled { Phase::BeforeRoll } else { Phase::Main };
    Ok(())
}

/// Moves one card from `victim` to `thief` (the caller has checked the victim can give it).
pub fn steal(s: &mut State, thief: Seat, victim: Seat, card: ResourceCard, why: &'static str, facts: &mut Vec<Fact>) {
    let item = match card {
        ResourceCard::Known(r) => {
            crate::seen::stolen(s, thief, victim, r);
            s.players[victim as usize].hand.take(r, 1);
            s.players[thief as usize].hand.add(r, 1);
            r.name()
        }
        ResourceCard::Unknown => {
            s.players[victim as usize].hand.take_unseen();
            s.players[thief as usize].hand.unknown += 1;
            UNKNOWN
        }
    };
    facts.extend(Fact::passed(victim, thief, item, 1, why));
}

/// Does `p` lead on the points everyone can see (strictly ahead of every other player)?
fn leads(s: &State, p: Seat) -> bool {
    s.seats().all(|q| q == p || s.vp_public(q) < s.vp_public(p))
}
