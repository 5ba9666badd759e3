//! The rules of the base game, as one `apply` per event: this file says whose move it is and hands the
//! event to the rules of its concern. The variants (catanatron's, the Helpers, 5-6 players) meet these
//! rules only through `variants`, the hook layer.
//!
//! - `setup`: initial placement; `dice`: the roll, discards, the robber; `build`: roads, settlements,
//!   cities; `trade`; `development`: buying and playing cards; `turns`: the end of a turn and the Special
//!   Building Phase; `points`: scores and the special cards; `checks`: how a rule says no;
//!   `helpers`: using a helper of the Helpers scenario; `variants`: the hooks.
//!
//! A rejected event may leave the state half-changed: the timeline that called `apply` throws it away.

pub mod build;
pub mod checks;
pub mod development;
pub mod dice;
pub mod helpers;
pub mod points;
pub mod setup;
pub mod trade;
pub mod turns;
pub mod variants;

#[cfg(test)]
mod tests;

use crate::event::{Event, LoggedEvent};
use crate::helpers::any_turn;
use crate::rules::build::{build_city, build_road, build_settlement, can_place_any_road};
use crate::rules::checks::{fail, Result};
use crate::rules::development::{
    buy_development, play_knight, play_monopoly, play_road_building, play_year_of_plenty, reveal_victory_points,
};
use crate::rules::dice::{discard, move_robber, roll};
use crate::rules::helpers::use_helper;
use crate::rules::trade::{maritime_trade, trade};
use crate::rules::turns::{end_turn, is_special_build, special_building, start_next_turn, time_out};
use crate::seven;
use crate::state::{Phase, State};
use crate::vocabulary::WIN_WAITS;
use almanac_core::Seated;
use almanac_core::{CheckpointError, Fact, RuleViolation, Rules, Seat};

impl Rules for State {
    type Header = crate::header::Header;
    type Event = LoggedEvent;

    /// 2: a city's points replace its settlement's in the score facts (settlement −1, city +2).
    /// 3: a 7 and the robber hitting the leader are moments (key moments on the charts and the event list).
    /// 4: what each roll promises each player (`Fact::Promised`), so that luck can be read.
    /// 5: ending the turn is a decision; a position reads the robber's block, a hand's exposure to a 7, the
    /// builds a hand pays for and the set-up still to come; catanatron's records name each seat's bot.
    /// 6: a discard may be paid in parts; the state keeps what players not in a steal could not see of it.
    /// 7: a win that waits for its player's turn is marked once, when the points are reached (not again at
    /// every later event until that turn).
    /// 8: a catanatron record names each seat by the program that played it, not its colour (the records'
    /// content hashes changed); the edition names another map or discard limit.
    const VERSION: u32 = 8;

    /// The event by the rules, then what the record states about the result.
    fn apply(&mut self, event: &LoggedEvent, facts: &mut Vec<Fact>) -> Result {
        apply(self, &event.event, facts)?;
        match &event.stated {
            Some(stated) => stated.check(self).map_err(RuleViolation),
            None => Ok(()),
        }
    }

    fn fixed_from(&mut self, initial: &State) -> std::result::Result<(), CheckpointError> {
        if self.players.len() != initial.players.len() || self.buildings.len() != initial.buildings.len() {
            return Err(CheckpointError("the checkpoint is of another table or board".into()));
        }
        self.board = initial.board.clone();
        self.options = initial.options;
        self.equipment = initial.equipment;
        self.table = initial.table.clone();
        Ok(())
    }

    /// After a Special Building Phase, the next player's first event opens their turn.
    fn event_turn(&self, event: &LoggedEvent) -> u32 {
        match self.phase {
            Phase::SpecialBuilding { .. } if !is_special_build(&event.event) => self.turn + 1,
            _ => self.turn,
        }
    }

    fn edition(&self) -> String {
        let mut words = String::from("Catan");
        if self.players.len() >= 5 {
            words.push_str(" 5–6 players");
        }
        if self.helpers.is_some() {
            words.push_str(" + Helpers");
        }
        // What makes a game unlike the rulebook's in its numbers: another map, target or discard limit (a
        // player's numbers are set beside games of the same edition and table size).
        let usual = if self.players.len() >= 5 { 30 } else { 19 };
        if self.board.hexes.len() != usual {
            words.push_str(&format!(", a map of {} hexes", self.board.hexes.len()));
        }
        if self.options.vp_target != 10 {
            words.push_str(&format!(", {} VP", self.options.vp_target));
        }
        if self.options.discard_limit != 7 {
            words.push_str(&format!(", discard above {} cards", self.options.discard_limit));
        }
        words
    }
}

pub fn apply(s: &mut State, ev: &Event, facts: &mut Vec<Fact>) -> Result {
    // `facts` may hold the game's facts so far; this event's begin here.
    let first_fact = facts.len();
    if let Some(w) = s.winner {
        // At the end every player may show their victory point cards; nothing else happens.
        if let Event::RevealVictoryPoints { player, count } = ev {
            return reveal_victory_points(s, *player, *count, facts);
        }
        return fail(format!("the game is over: {} won in turn {}", s.name(w), s.turn));
    }
    match s.phase {
        Phase::Setup { step, settlement } => setup::setup(s, ev, step, settlement, facts)?,
        Phase::SpecialBuilding { after, last } if is_special_build(ev) => special_building(s, ev, after, last, facts)?,
        Phase::SpecialBuilding { after, .. } => {
            // Anything else must be the next player's first event: it ends the phase and begins their turn.
            let next = (after + 1) % s.players.len() as Seat;
            if ev.player() != next {
                return fail(format!(
                    "in the special building phase after {}'s turn only building and buying happen (not {}); {} plays next",
                    s.name(after),
                    ev.kind(),
                    s.name(next)
                ));
            }
            start_next_turn(s, facts);
            in_turn(s, ev, facts)?;
        }
        _ => in_turn(s, ev, facts)?,
    }
    if !matches!(s.phase, Phase::Setup { .. }) {
        if let Some(w) = variants::winner(s) {
            s.winner = Some(w);
            s.phase = Phase::Over;
            facts.push(Fact::GameOver { winner: Some(w) });
        } else {
            mark_waiting_wins(s, facts, first_fact);
        }
    }
    crate::seen::forget_empty_hands(s);
    Ok(())
}

/// A player who reaches the winning score now but has not won (it is not their turn: a build in the
/// Special Building Phase, an award moved by another player's build) waits for their own turn; the moment
/// is marked so that the replay says when the points were reached, apart from when the game was won. Only
/// this event's facts (from `first_fact`) are read: the moment is marked once, when the points are reached.
fn mark_waiting_wins(s: &State, facts: &mut Vec<Fact>, first_fact: usize) {
    let target = s.options.vp_target as i32;
    let reached: Vec<Seat> = facts[first_fact..]
        .iter()
        .filter_map(|f| match *f {
            Fact::Score { player, delta, total, .. } if total >= target && total - delta < target => Some(player),
            _ => None,
        })
        .collect();
    for p in reached {
        if s.vp(p) >= target {
            facts.push(Fact::Moment { moment: WIN_WAITS, player: Some(p) });
        }
    }
}

/// An event in the turn of `s.active` (after setup, outside the special building phase).
fn in_turn(s: &mut State, ev: &Event, facts: &mut Vec<Fact>) -> Result {
    let p = ev.player();
    check_turn(s, ev)?;
    check_free_roads(s, ev)?;
    match ev {
        Event::Roll { dice, production, .. } => roll(s, p, *dice, production.as_ref(), facts)?,
        Event::Discard { cards, .. } => discard(s, p, cards, facts)?,
        Event::MoveRobber { hex, victim, stolen, .. } => move_robber(s, p, *hex, *victim, *stolen, facts)?,
        Event::BuildRoad { at, .. } => build_road(s, p, *at, facts)?,
        Event::BuildSettlement { at, .. } => build_settlement(s, p, *at, facts)?,
        Event::BuildCity { at, .. } => build_city(s, p, *at, facts)?,
        Event::Trade { with, give, get, .. } => trade(s, p, *with, give, get, facts)?,
        Event::MaritimeTrade { give, get, .. } => maritime_trade(s, p, give, get, facts)?,
        Event::BuyDevelopment { card, .. } => buy_development(s, p, *card, facts)?,
        Event::PlayKnight { .. } => play_knight(s, p, facts)?,
        Event::PlayRoadBuilding { .. } => play_road_building(s, p, facts)?,
        Event::PlayYearOfPlenty { take, .. } => play_year_of_plenty(s, p, take, facts)?,
        Event::PlayMonopoly { resource, taken, .. } => play_monopoly(s, p, *resource, taken.as_deref(), facts)?,
        Event::RevealVictoryPoints { count, .. } => reveal_victory_points(s, p, *count, facts)?,
        Event::EndTurn { .. } => end_turn(s, p, facts)?,
        Event::TimeOut { .. } => time_out(s, p, facts)?,
        Event::TakeBack { .. } => {
            return fail(format!("{} takes back a settlement: only one just placed in setup goes back", s.name(p)))
        }
        Event::UseHelper(u) => use_helper(s, u, facts)?,
    }
    if !matches!(ev, Event::BuildRoad { .. } | Event::PlayRoadBuilding { .. }) {
        s.free_roads = 0;
    }
    Ok(())
}

/// Whose move is it?
fn check_turn(s: &State, ev: &Event) -> Result {
    let p = ev.player();
    // The player whose turn it is may show victory point cards to win at any moment of the turn.
    if matches!(ev, Event::RevealVictoryPoints { .. }) && p == s.active {
        return Ok(());
    }
    // A helper checks its own moment (Marianne and Sean work in anybody's turn).
    if let Event::UseHelper(u) = ev {
        if any_turn(u.helper) || p == s.active {
            return Ok(());
        }
    }
    match s.phase {
        Phase::Discard => {
            let Event::Discard { .. } = ev else {
                return seven::wait_for_discards(s, &s.must_discard, p, ev.kind(), "the 7");
            };
            if s.must_discard[p as usize] == 0 {
                let held = s.players[p as usize].hand.total();
                return seven::owes_no_discard(s, &s.must_discard, p, held, u32::from(s.options.discard_limit));
            }
            return Ok(());
        }
        Phase::MoveRobber { .. } => {
            return seven::robber_first(s, p, s.active, ev.kind(), matches!(ev, Event::MoveRobber { .. }));
        }
        _ => {}
    }
    if matches!(ev, Event::Discard { .. }) {
        return fail(format!("{} discards, but no 7 is waiting for discards", s.name(p)));
    }
    if matches!(ev, Event::MoveRobber { .. }) {
        return fail(format!("{} moves the robber without a 7 or a knight", s.name(p)));
    }
    if let Event::Trade { with, .. } = ev {
        // Only the player whose turn it is trades; the partner may be anybody else.
        if p != s.active && *with != s.active {
            return fail(format!(
                "{} and {} trade during {}'s turn; players may only trade with the player whose turn it is",
                s.name(p),
                s.name(*with),
                s.name(s.active)
            ));
        }
        return Ok(());
    }
    if p != s.active {
        return fail(format!("{} acts out of turn: it is {}'s turn", s.name(p), s.name(s.active)));
    }
    Ok(())
}

/// After Road Building, the free roads come before anything else (unless none can be placed).
/// Whether the active player may trade now, by the checks a trade meets in `apply` (the moment of the turn,
/// and no free road still to place): a trade's cards are the table's to say, so no trade can be tried whole.
/// Whether the active player may trade now: in the main part of their turn (not before the roll, nor in
/// the Special Building Phase, which is for building only).
pub(crate) fn may_trade_now(s: &State) -> bool {
    let p = s.active;
    if !matches!(s.phase, Phase::Main) {
        return false;
    }
    let trade = Event::MaritimeTrade { player: p, give: Default::default(), get: Default::default() };
    s.winner.is_none()
        && check_turn(s, &trade).is_ok()
        && check_free_roads(s, &trade).is_ok()
        && trade::check_trade_phase(s, p).is_ok()
}

fn check_free_roads(s: &State, ev: &Event) -> Result {
    // A time-out ends the turn whatever was left of the card.
    if s.free_roads == 0
        || matches!(ev, Event::BuildRoad { .. } | Event::RevealVictoryPoints { .. } | Event::TimeOut { .. })
    {
        return Ok(());
    }
    if can_place_any_road(s, s.active) {
        return fail(format!(
            "{} must first place the {} free road(s) of Road Building",
            s.name(s.active),
            s.free_roads
        ));
    }
    // No road can be placed: the rest of the card is lost once this event is applied (see `in_turn`).
    Ok(())
}
