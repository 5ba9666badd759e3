//! Development cards: buying, playing (one knight or progress card a turn, not the turn bought), and
//! showing victory point cards to win.

use crate::development::{DevCard, DevCounts, UNKNOWN_DEVELOPMENT};
use crate::pieces::MAX_ROADS;
use crate::resources::{Bundle, Resource, Resources, DEV_CARD_COST};
use crate::rules::build::{check_cost, pay};
use crate::rules::checks::{fail, need_main, Result};
use crate::rules::points::{score, update_largest_army};
use crate::rules::variants;
use crate::state::{Phase, State};
use crate::vocabulary::VP_CARD;
use almanac_core::Seated;
use almanac_core::{cause, Fact, Seat};

pub fn buy_development(s: &mut State, p: Seat, card: Option<DevCard>, facts: &mut Vec<Fact>) -> Result {
    buy_development_for(s, p, card, &DEV_CARD_COST, facts)
}

/// A development card paid with `cost` (the usual one, or a helper's); `card` is `None` when bought out of
/// the recorder's sight.
pub fn buy_development_for(
    s: &mut State,
    p: Seat,
    card: Option<DevCard>,
    cost: &Resources,
    facts: &mut Vec<Fact>,
) -> Result {
    need_main(s, p, "buying a development card")?;
    if s.deck_left == 0 {
        return fail("the development deck is empty");
    }
    if let Some(c) = card {
        if s.deck_drawn[c] >= s.equipment.deck[c] {
            return fail(format!("all {} {} cards are already out of the deck", s.equipment.deck[c], c.name()));
        }
    }
    check_cost(s, p, cost, "a development card")?;
    pay(s, p, cost, facts);
    s.deck_left -= 1;
    let new = u8::from(variants::bought_card_is_new(s));
    let dev = &mut s.players[p as usize].dev;
    match card {
        Some(c) => {
            s.deck_drawn[c] += 1;
            dev.held[c] += 1;
            dev.new[c] += new;
        }
        None => {
            dev.held_unknown += 1;
            dev.new_unknown += new;
        }
    }
    let item = card.map(DevCard::name).unwrap_or(UNKNOWN_DEVELOPMENT);
    facts.push(Fact::Gained { player: p, item, count: 1, cause: cause::PURCHASE, from: None });
    if card == Some(DevCard::VictoryPoint) {
        score(s, p, VP_CARD, 1, 0, facts);
    }
    Ok(())
}

/// Checks that `p` may play a card of type `c` now, then plays it.
fn play_card(s: &mut State, p: Seat, c: DevCard, facts: &mut Vec<Fact>) -> Result {
    if !matches!(s.phase, Phase::BeforeRoll | Phase::Main) {
        return fail(format!("{} cannot play a development card now", s.name(p)));
    }
    if s.dev_played {
        return fail(format!(
            "{} already played a development card this turn (one knight or progress card per turn)",
            s.name(p)
        ));
    }
    if !variants::new_cards_wait(s) {
        // Every held card counts as playable.
        s.players[p as usize].dev.age();
    }
    let dev = s.players[p as usize].dev;
    if !dev.can_play(c) {
        let bought_now = dev.new[c] + dev.new_unknown;
        return if bought_now > 0 && dev.held[c] + dev.held_unknown > 0 {
            fail(format!("{} cannot play a {} bought this turn", s.name(p), c.name()))
        } else {
            fail(format!("{} has no {} card to play", s.name(p), c.name()))
        };
    }
    if dev.held[c] == dev.new[c] {
        // An unknown card turns out to be this one: check the deck could have held it.
        if s.deck_drawn[c] >= s.equipment.deck[c] {
            return fail(format!("all {} {} cards are already accounted for", s.equipment.deck[c], c.name()));
        }
        s.deck_drawn[c] += 1;
    }
    s.players[p as usize].dev.play(c);
    s.dev_played = true;
    facts.push(Fact::CardPlayed { player: p, card: c.name() });
    Ok(())
}

pub fn play_knight(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    play_card(s, p, DevCard::Knight, facts)?;
    s.phase = Phase::MoveRobber { knight: true };
    update_largest_army(s, facts);
    Ok(())
}

pub fn play_road_building(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    play_card(s, p, DevCard::RoadBuilding, facts)?;
    s.free_roads = 2.min(MAX_ROADS - s.players[p as usize].roads);
    Ok(())
}

pub fn play_year_of_plenty(s: &mut State, p: Seat, take: &Bundle, facts: &mut Vec<Fact>) -> Result {
    if take.unknown > 0 {
        return fail("year of plenty must name the two resources taken");
    }
    // The rulebook is silent on a bank too short for the card. Decided as the production rule decides for
    // one player owed: the player gets what is left. So a card may take fewer than 2 only when the bank
    // could not give what was asked: one card when the bank holds fewer than 2 of its kind or none of
    // another kind (a pair it could not give), none when the bank is empty.
    let short = match take.total() {
        2 => false,
        1 => take.known.present().any(|(r, _)| s.bank[r] < 2) || s.bank.present().count() < 5,
        0 => s.bank.total() == 0,
        _ => false,
    };
    if take.total() != 2 && !short {
        return fail(format!(
            "year of plenty takes 2 resource cards from the bank, not {} (fewer only when the bank cannot give two)",
            take.total()
        ));
    }
    if let Some((r, _)) = take.known.present().find(|&(r, n)| s.bank[r] < n) {
        return fail(format!("the bank has only {} {r} left", s.bank[r]));
    }
    play_card(s, p, DevCard::YearOfPlenty, facts)?;
    for (r, n) in take.known.present() {
        s.bank[r] -= n;
        s.players[p as usize].hand.add(r, n);
        facts.push(Fact::Gained { player: p, item: r.name(), count: n as u32, cause: cause::CARD, from: None });
    }
    Ok(())
}

pub fn play_monopoly(
    s: &mut State,
    p: Seat,
    r: Resource,
    taken: Option<&[(Seat, u8)]>,
    facts: &mut Vec<Fact>,
) -> Result {
    let n = s.players.len();
    let mut amounts = vec![0u8; n];
    for o in 0..n {
        if o == p as usize {
            continue;
        }
        let hand = s.players[o].hand;
        let stated = taken.map(|t| t.iter().find(|(seat, _)| *seat as usize == o).map(|(_, c)| *c).unwrap_or(0));
        amounts[o] = match stated {
            Some(c) => {
                if c < hand.known[r] || !hand.can_pay(r, c) {
                    return fail(format!(
                        "monopoly on {r}: the log says {} hands over {c}, but the hand is {hand}",
                        s.name(o as Seat)
                    ));
                }
                c
            }
            None if hand.unknown > 0 => {
                return fail(format!(
                    "monopoly on {r}: {} holds {} unknown card(s), so the event must say what was `taken`",
                    s.name(o as Seat),
                    hand.unknown
                ))
            }
            None => hand.known[r],
        };
    }
    if taken.is_some_and(|t| t.iter().any(|(seat, c)| *seat == p && *c > 0)) {
        return fail("monopoly: the player does not take from themselves");
    }
    play_card(s, p, DevCard::Monopoly, facts)?;
    for (o, &amount) in amounts.iter().enumerate() {
        if amount > 0 {
            s.players[o].hand.take(r, amount);
            s.players[p as usize].hand.add(r, amount);
            let count = amount as u32;
            facts.extend(Fact::passed(o as Seat, p, r.name(), count, cause::CARD));
        }
    }
    Ok(())
}

pub fn reveal_victory_points(s: &mut State, p: Seat, count: Option<u8>, facts: &mut Vec<Fact>) -> Result {
    let vp = DevCard::VictoryPoint;
    let dev = s.players[p as usize].dev;
    let possible = dev.held[vp] + dev.held_unknown;
    let count = count.unwrap_or(dev.held[vp]);
    // Showing no card claims the win with the points on the board (a server that logs the win at the
    // start of the winner's turn).
    if count == 0 && s.vp(p) >= s.options.vp_target as i32 {
        return Ok(());
    }
    if count == 0 || count > possible {
        return fail(format!("{} reveals {count} victory point card(s) but holds {possible} that could be", s.name(p)));
    }
    // During the game the cards are shown only to win (on the player's own turn); after it, by anyone.
    if s.winner.is_none() {
        let resolved = count.saturating_sub(dev.held[vp]) as i32;
        let after = s.vp(p) + resolved;
        if after < s.options.vp_target as i32 {
            return fail(format!(
                "victory point cards are shown only to win: {} would have {after} of {} VP",
                s.name(p),
                s.options.vp_target
            ));
        }
    }
    for _ in 0..count {
        let dev = &mut s.players[p as usize].dev;
        if dev.held[vp] > 0 {
            dev.held[vp] -= 1;
            dev.new[vp] = dev.new[vp].min(dev.held[vp]);
            dev.played[vp] += 1;
            score(s, p, VP_CARD, 0, 1, facts);
        } else {
            if s.deck_drawn[vp] >= s.equipment.deck[vp] {
                return fail(format!("all {} victory point cards are already accounted for", s.equipment.deck[vp]));
            }
            s.deck_drawn[vp] += 1;
            // Whether the revealed card was bought this turn is unknown; assume it was, so that no
            // legal play of the remaining cards is rejected.
            let dev = &mut s.players[p as usize].dev;
            dev.held_unknown -= 1;
            dev.new_unknown = dev.new_unknown.saturating_sub(1);
            dev.played[vp] += 1;
            score(s, p, VP_CARD, 1, 1, facts);
        }
    }
    Ok(())
}

/// The development cards a player could still hold (for checks of a drawn card): the deck minus what is
/// known to be out.
pub fn left_in_deck(s: &State) -> DevCounts {
    let mut left = s.equipment.deck;
    for c in DevCard::ALL {
        left[c] -= s.deck_drawn[c];
    }
    left
}
