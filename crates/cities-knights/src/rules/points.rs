//! Victory points: the score facts, Longest Road (which knights cut, too) and the winner.

use crate::state::{State, VP_TARGET};
use crate::vocabulary::LONGEST_ROAD;
use almanac_catan::roads::longest_road;
use almanac_catan::rules::points::award_holder;
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// Records a score change of `p` (the total after it is read from the state). Every point is public.
pub fn score(s: &State, p: Seat, reason: &'static str, delta: i32, facts: &mut Vec<Fact>) {
    let total = s.vp(p);
    facts.push(Fact::Score { player: p, reason, delta, delta_public: delta, total, public: total });
}

/// A city's two points replace a settlement's one (or the other way round, when the barbarians pillage).
pub fn score_swap(s: &State, p: Seat, lost: (&'static str, i32), gained: (&'static str, i32), facts: &mut Vec<Fact>) {
    let total = s.vp(p);
    let before = total - gained.1;
    facts.push(Fact::Score {
        player: p,
        reason: lost.0,
        delta: -lost.1,
        delta_public: -lost.1,
        total: before,
        public: before,
    });
    facts.push(Fact::Score {
        player: p,
        reason: gained.0,
        delta: gained.1,
        delta_public: gained.1,
        total,
        public: total,
    });
}

/// Measures every road again (a road, a building or a knight changed the board) and moves the card by the
/// base game's rule: at least 5, the holder keeps it while tied for the longest.
pub fn update_longest_road(s: &mut State, facts: &mut Vec<Fact>) {
    let blockers = s.road_blockers();
    let lengths: Vec<u8> = s.seats().map(|p| longest_road(s.layout(&blockers), p)).collect();
    for (p, &len) in lengths.iter().enumerate() {
        s.players[p].road_length = len;
    }
    let to = award_holder(s.longest_road, &lengths, 5);
    if to == s.longest_road {
        return;
    }
    let from = std::mem::replace(&mut s.longest_road, to);
    facts.push(Fact::Award { award: LONGEST_ROAD, from, to });
    if let Some(f) = from {
        score(s, f, LONGEST_ROAD, -2, facts);
    }
    if let Some(t) = to {
        score(s, t, LONGEST_ROAD, 2, facts);
    }
}

/// The player whose turn it is wins on reaching 13 points.
pub fn winner(s: &State) -> Option<Seat> {
    (s.vp(s.active) >= VP_TARGET).then_some(s.active)
}
