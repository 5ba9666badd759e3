//! A hand as another player could count it. Every card that moves in Catan moves in sight of the table
//! (production, trades, builds, discards, a monopoly) except a stolen card, whose kind only the thief and
//! the victim see. The others can expect of it what the victim's hand held, kind by kind; so a player's
//! count of another's hand is the hand less, for each steal they were not in, the card taken and plus what
//! they could expect of it. The analysis offers a player no alternative whose worth turns on cards they could
//! not see (a Monopoly: `could_judge`).

use crate::event::Event;
use crate::resources::Resource;
use crate::state::State;
use almanac_core::{Seat, Seated};

/// `thief` takes a card of `r` from `victim` (before the card moves).
pub fn stolen(s: &mut State, thief: Seat, victim: Seat, r: Resource) {
    let hand = s.players[victim as usize].hand;
    let total = f32::from(hand.total() as u16);
    if total == 0.0 {
        return;
    }
    let row = &mut s.players[thief as usize].unseen_steals[victim as usize];
    for k in Resource::ALL {
        let taken = f32::from(u8::from(k == r));
        row[k as usize] += taken - f32::from(hand.known[k]) / total;
    }
}

/// A hand that is empty is known to everyone: what its steals hid is hidden no more.
pub fn forget_empty_hands(s: &mut State) {
    for q in 0..s.players.len() {
        if s.players[q].hand.total() == 0 {
            s.players[q].unseen_steals = Default::default();
            for t in s.players.iter_mut() {
                t.unseen_steals[q] = [0.0; 5];
            }
        }
    }
}

/// How many cards of `r` seat `q` holds as seat `by` could count them.
pub fn counted(s: &State, by: Seat, q: Seat, r: Resource) -> f64 {
    let mut n = f64::from(s.players[q as usize].hand.known[r]);
    for (other, player) in s.players.iter().enumerate() {
        let other = other as Seat;
        if other == by {
            continue;
        }
        // q's own steals from others than `by`: the card taken is what `by` could only expect.
        if other != q {
            n -= f64::from(s.players[q as usize].unseen_steals[other as usize][r as usize]);
            // Steals from q by others than `by`: q lost what `by` could only expect.
            n += f64::from(player.unseen_steals[q as usize][r as usize]);
        }
    }
    n.max(0.0)
}

/// Whether the player who would make `event` could judge what it leads to from what they saw: a Monopoly
/// takes what the others hold, and where a steal out of the player's sight makes their count of it differ
/// from the hands by half a card or more, the player could not have judged it as the record does.
pub fn could_judge(s: &State, event: &Event) -> bool {
    match *event {
        Event::PlayMonopoly { player, resource, taken: None } => {
            let others = || s.seats().filter(move |&q| q != player);
            let held: f64 = others().map(|q| f64::from(s.players[q as usize].hand.known[resource])).sum();
            let counted: f64 = others().map(|q| counted(s, player, q, resource)).sum();
            (held - counted).abs() < 0.5
        }
        _ => true,
    }
}
