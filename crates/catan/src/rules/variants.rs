//! Where the rule variants meet the base game. The base rules (`rules/`) call these hooks at fixed points
//! and never test a variant's option themselves:
//! - catanatron 3.2.1's departures from the rulebook (options its importer sets): who the bank pays when
//!   it runs short, who discards, its Longest Road bookkeeping, playing a card the turn it was bought,
//!   winning on anybody's turn;
//! - the Helpers scenario: the starting helpers, Jean's 2:1 rate, the roll Marianne looks back at;
//! - the 5-6 player extension: the Special Building Phase after each turn.

use crate::board::{EdgeId, VertexId};
use crate::event::MAX_PLAYERS;
use crate::resources::Resource;
use crate::rules::points::{catanatron_award, update_longest_road};
use crate::state::{BankShortage, DiscardRule, Phase, State};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

/// A settlement was placed in setup.
pub fn setup_settlement_placed(s: &mut State, p: Seat, v: VertexId) {
    if let Some(roads) = s.catanatron_roads.as_mut() {
        roads.setup_settlement(p, v);
    }
}

/// A road was placed in setup; `second` when it was the player's second, `last` when setup is over.
pub fn setup_road_placed(s: &mut State, p: Seat, e: EdgeId, second: bool, last: bool, facts: &mut Vec<Fact>) {
    if let Some(mut roads) = s.catanatron_roads.take() {
        // catanatron does not move the card during setup.
        roads.road_built(s.layout(), p, e);
        s.players[p as usize].road_length = roads.length(p);
        s.catanatron_roads = Some(roads);
    } else {
        update_longest_road(s, &[p], facts);
    }
    if second {
        let turn = s.turn;
        if let Some(h) = s.helpers.as_mut() {
            h.take_starting(p, turn, last);
        }
    }
}

/// A road was built (it is on the board): the Longest Road card may move.
pub fn road_built(s: &mut State, p: Seat, e: EdgeId, facts: &mut Vec<Fact>) {
    if let Some(mut roads) = s.catanatron_roads.take() {
        roads.road_built(s.layout(), p, e);
        s.catanatron_roads = Some(roads);
        catanatron_award(s, facts);
    } else {
        update_longest_road(s, &[p], facts);
    }
}

/// A settlement was built after setup: it can cut an opponent's road.
pub fn settlement_built(s: &mut State, p: Seat, v: VertexId, facts: &mut Vec<Fact>) {
    if let Some(mut roads) = s.catanatron_roads.take() {
        roads.settlement_built(s.layout(), p, v);
        s.catanatron_roads = Some(roads);
        catanatron_award(s, facts);
    } else {
        let everyone: Vec<Seat> = s.seats().collect();
        update_longest_road(s, &everyone, facts);
    }
}

/// What the bank pays of a resource it cannot pay everyone in full: `owed` by seat, `supply` in the bank.
/// The rulebook: nothing, unless only one player is owed it, who gets what is left.
pub fn short_payment(s: &State, owed: &[u8; MAX_PLAYERS], supply: u8) -> [u8; MAX_PLAYERS] {
    let mut pay = [0; MAX_PLAYERS];
    let owed_players: Vec<usize> = (0..owed.len()).filter(|&i| owed[i] > 0).collect();
    if owed_players.len() == 1 && s.options.bank_shortage == BankShortage::Rulebook {
        pay[owed_players[0]] = supply;
    }
    pay
}

/// How many cards each player must discard after a 7.
pub fn discards_due(s: &State) -> Vec<u8> {
    let mut limit = s.options.discard_limit as u32;
    let mut due = vec![0; s.players.len()];
    for (i, p) in s.players.iter().enumerate() {
        let total = p.hand.total();
        due[i] = if total > limit { (total / 2) as u8 } else { 0 };
        if due[i] > 0 && s.options.discard_rule == DiscardRule::Catanatron321 {
            // catanatron judges the players after the first discarder by a fixed 7.
            limit = 7;
        }
    }
    due
}

/// A roll was resolved; `paid` is the set of seats (bits) that received something.
pub fn rolled(s: &mut State, sum: u8, paid: u8) {
    let turn = s.turn;
    if let Some(h) = s.helpers.as_mut() {
        h.last_roll = Some((turn, sum, paid));
    }
}

/// A 2:1 rate for `r` that `p` has without a harbour (Jean).
pub fn special_rate(s: &State, p: Seat, r: Resource) -> bool {
    s.helpers.as_ref().is_some_and(|h| h.jean_rate(p, r, s.turn))
}

/// Must a development card wait until the turn after it was bought?
pub fn new_cards_wait(s: &State) -> bool {
    s.options.new_cards_wait_a_turn
}

/// Is a card bought now new in its buyer's next turn? Not when bought in another player's turn (the
/// Special Building Phase): that card is playable in the buyer's own turn.
pub fn bought_card_is_new(s: &State) -> bool {
    !matches!(s.phase, Phase::SpecialBuilding { .. })
}

/// Does the Special Building Phase follow the end of a turn?
pub fn special_building_follows(s: &State) -> bool {
    s.equipment.extension_5_6
}

/// Who has won now, if anyone (checked after every event once setup is over).
pub fn winner(s: &State) -> Option<Seat> {
    let target = s.options.vp_target as i32;
    if s.options.win_waits_for_robber && matches!(s.phase, Phase::MoveRobber { .. }) {
        return None;
    }
    if s.options.win_on_any_turn {
        // catanatron names the last player in seat order who has reached the target.
        s.seats().rev().find(|&p| s.vp(p) >= target)
    } else if matches!(s.phase, Phase::SpecialBuilding { .. }) {
        // The rulebook (5-6 players): the Special Building Phase is nobody's own turn, not even that of the
        // player whose turn just ended (JSettlers lets them build in it); ten points reached there wait.
        None
    } else {
        // The rulebook: a win only counts on the winner's own turn.
        Some(s.active).filter(|&p| s.vp(p) >= target)
    }
}
