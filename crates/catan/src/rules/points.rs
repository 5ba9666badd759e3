//! Victory points: the score facts, and the two special cards (Longest Road, Largest Army).

use crate::development::DevCard;
use crate::roads::longest_road;
use crate::state::State;
use crate::vocabulary::{LARGEST_ARMY, LONGEST_ROAD};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// Records a score change of `p` (the totals after it are read from the state).
pub fn score(s: &State, p: Seat, reason: &'static str, delta: i32, delta_public: i32, facts: &mut Vec<Fact>) {
    facts.push(Fact::Score { player: p, reason, delta, delta_public, total: s.vp(p), public: s.vp_public(p) });
}

/// Records that `gained` points of `new` replaced `lost` points of `old` (a city over a settlement), as two
/// score changes, so that the points by reason say what stands on the board.
pub fn score_replacing(s: &State, p: Seat, old: (&'static str, i32), new: (&'static str, i32), facts: &mut Vec<Fact>) {
    let (total, public) = (s.vp(p), s.vp_public(p));
    let (reason, lost) = old;
    let gained = new.1;
    facts.push(Fact::Score {
        player: p,
        reason,
        delta: -lost,
        delta_public: -lost,
        total: total - gained,
        public: public - gained,
    });
    facts.push(Fact::Score { player: p, reason: new.0, delta: gained, delta_public: gained, total, public });
}

/// Recomputes the road lengths of `changed` players and moves the Longest Road card by the rulebook:
/// 5 segments at least; another player takes it only with a strictly longer road; a holder whose road
/// was cut keeps it while tied for longest; otherwise it goes to the single longest player, or is set
/// aside when the longest are tied or nobody has 5.
pub fn update_longest_road(s: &mut State, changed: &[Seat], facts: &mut Vec<Fact>) {
    for &p in changed {
        s.players[p as usize].road_length = longest_road(s.layout(), p);
    }
    let lengths: Vec<u8> = s.players.iter().map(|p| p.road_length).collect();
    let holder = award_holder(s.longest_road, &lengths, 5);
    move_award(s, Award::LongestRoad, holder, facts);
}

/// Largest Army after a knight is played (or given up, with Vincent): at least 3 knights.
pub fn update_largest_army(s: &mut State, facts: &mut Vec<Fact>) {
    let knights: Vec<u8> = s.players.iter().map(|p| p.dev.played[DevCard::Knight]).collect();
    let holder = award_holder(s.largest_army, &knights, 3);
    move_award(s, Award::LargestArmy, holder, facts);
}

/// Moves the Longest Road card to where catanatron's bookkeeping says it is.
pub fn catanatron_award(s: &mut State, facts: &mut Vec<Fact>) {
    let roads = s.catanatron_roads.as_ref().expect("catanatron mode");
    let holder = roads.holder();
    let lengths: Vec<u8> = s.seats().map(|p| roads.length(p)).collect();
    for (p, len) in lengths.into_iter().enumerate() {
        s.players[p].road_length = len;
    }
    // catanatron never sets the card aside.
    if holder.is_some() {
        move_award(s, Award::LongestRoad, holder, facts);
    }
}

/// The two special cards.
#[derive(Clone, Copy)]
enum Award {
    LongestRoad,
    LargestArmy,
}

/// Who holds a special card given each player's count (road length, knights) and the minimum: the holder
/// keeps it while at the minimum and tied for the most (another player takes it only with strictly
/// more); otherwise the single player with the most takes it, or it is set aside when the most are tied
/// or below the minimum.
pub fn award_holder(holder: Option<Seat>, counts: &[u8], minimum: u8) -> Option<Seat> {
    let max = *counts.iter().max().unwrap_or(&0);
    match holder {
        Some(h) if counts[h as usize] >= minimum && counts[h as usize] == max => Some(h),
        _ => {
            let top: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == max).collect();
            (max >= minimum && top.len() == 1).then(|| top[0] as Seat)
        }
    }
}

/// Gives a special card to `to` (or sets it aside), with its facts and the 2 VP moving along.
fn move_award(s: &mut State, award: Award, to: Option<Seat>, facts: &mut Vec<Fact>) {
    let (slot, name) = match award {
        Award::LongestRoad => (&mut s.longest_road, LONGEST_ROAD),
        Award::LargestArmy => (&mut s.largest_army, LARGEST_ARMY),
    };
    if *slot == to {
        return;
    }
    let from = std::mem::replace(slot, to);
    facts.push(Fact::Award { award: name, from, to });
    if let Some(f) = from {
        score(s, f, name, -2, -2, facts);
    }
    if let Some(t) = to {
        score(s, t, name, 2, 2, facts);
    }
}
