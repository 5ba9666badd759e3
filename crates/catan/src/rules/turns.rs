//! The end of a turn, the start of the next, and the Special Building Phase between them (5-6 players).

use crate::event::Event;
use crate::rules::build::{build_city, build_road, build_settlement};
use crate::rules::checks::{fail, Result};
use crate::rules::development::buy_development;
use crate::rules::variants;
use crate::state::{Phase, SpecialBuildingRule, State};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};

pub fn end_turn(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    match s.phase {
        Phase::Main => {}
        Phase::BeforeRoll => return fail(format!("{} ends the turn without rolling", s.name(p))),
        _ => return fail(format!("{} cannot end the turn now", s.name(p))),
    }
    // Cards bought this turn become playable in the player's next turn.
    s.players[p as usize].dev.age();
    if variants::special_building_follows(s) {
        // The others may now build, clockwise; the next turn begins with the next player's first event.
        s.phase = Phase::SpecialBuilding { after: p, last: p };
        s.free_roads = 0;
    } else {
        start_next_turn(s, facts);
    }
    Ok(())
}

/// The player's time ran out: the turn ends as `end_turn` ends it, and before the roll without one (nothing
/// is produced).
pub fn time_out(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    if s.phase == Phase::BeforeRoll {
        s.phase = Phase::Main;
    }
    end_turn(s, p, facts)
}

pub fn start_next_turn(s: &mut State, facts: &mut Vec<Fact>) {
    let n = s.players.len() as Seat;
    s.active = (s.active + 1) % n;
    s.turn += 1;
    s.phase = Phase::BeforeRoll;
    s.rolled = false;
    s.dev_played = false;
    s.built = false;
    s.free_roads = 0;
    facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
}

/// The events of the Special Building Phase: builds and purchases.
pub fn is_special_build(ev: &Event) -> bool {
    matches!(
        ev,
        Event::BuildRoad { .. }
            | Event::BuildSettlement { .. }
            | Event::BuildCity { .. }
            | Event::BuyDevelopment { .. }
    )
}

fn jsettlers(s: &State) -> bool {
    s.options.special_building == SpecialBuildingRule::JSettlers
}

/// The Special Building Phase (5-6 players): after `after`'s turn, every other player in clockwise order
/// may build and buy development cards with the cards in hand; no trade, no card play.
pub fn special_building(s: &mut State, ev: &Event, after: Seat, last: Seat, facts: &mut Vec<Fact>) -> Result {
    let p = ev.player();
    let n = s.players.len() as Seat;
    // Clockwise distance from the player who ended the turn.
    let order = |x: Seat| (x + n - after) % n;
    if jsettlers(s) {
        // Whoever asked, in the order asked, the player who ended the turn included.
    } else if p == after {
        return fail(format!("{} already ended the turn; the special building phase is for the others", s.name(p)));
    } else if order(p) < order(last) {
        return fail(format!(
            "the special building phase goes clockwise: {} has built already, so {}'s chance has passed",
            s.name(last),
            s.name(p)
        ));
    }
    match ev {
        Event::BuildRoad { at, .. } => build_road(s, p, *at, facts)?,
        Event::BuildSettlement { at, .. } => build_settlement(s, p, *at, facts)?,
        Event::BuildCity { at, .. } => build_city(s, p, *at, facts)?,
        Event::BuyDevelopment { card, .. } => buy_development(s, p, *card, facts)?,
        _ => unreachable!("only builds and purchases reach the special building phase"),
    }
    s.phase = Phase::SpecialBuilding { after, last: p };
    Ok(())
}
