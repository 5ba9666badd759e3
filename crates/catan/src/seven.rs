//! What a 7 asks of the table in every game of the family (and the card game's Robber event): the players
//! over their limit discard half their cards first, then the player whose turn it is moves the robber. The
//! checks of whose move it is meanwhile, and their words, are one here.

use almanac_core::ruleset::{fail, Result};
use almanac_core::{Seat, Seated};

/// Who still owes a discard, in words: `Ana (4 cards), Cem (5 cards)`.
pub fn owed(s: &impl Seated, must_discard: &[u8]) -> String {
    let owing: Vec<String> = s
        .seats()
        .filter(|&i| must_discard[i as usize] > 0)
        .map(|i| format!("{} ({} cards)", s.name(i), must_discard[i as usize]))
        .collect();
    owing.join(", ")
}

/// Any event but a discard, while discards are owed: it waits for them (`what` names it, `after` what
/// asked for the discards: "the 7").
pub fn wait_for_discards(s: &impl Seated, must_discard: &[u8], p: Seat, what: &str, after: &str) -> Result {
    fail(format!("{}'s {what} must wait: after {after}, {} must discard first", s.name(p), owed(s, must_discard)))
}

/// A discard by a player who owes none: `held` cards in hand, `limit` the most kept without discarding.
pub fn owes_no_discard(s: &impl Seated, must_discard: &[u8], p: Seat, held: u32, limit: u32) -> Result {
    let owing = owed(s, must_discard);
    fail(format!("{} has nothing to discard ({held} cards, limit {limit}); waiting for {owing}", s.name(p)))
}

/// While the robber is to be moved: only the player whose turn it is (`active`), moving it.
pub fn robber_first(s: &impl Seated, p: Seat, active: Seat, what: &str, moves_robber: bool) -> Result {
    match (moves_robber && p == active, p == active) {
        (true, _) => Ok(()),
        (false, true) => fail(format!("{} must move the robber now, not {what}", s.name(p))),
        (false, false) => {
            fail(format!("{}'s {what} must wait: {} must move the robber now", s.name(p), s.name(active)))
        }
    }
}
