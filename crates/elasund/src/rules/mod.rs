//! The rules of Elasund, as one `apply` per event: this file says whose move it is, runs the turn's four
//! steps in order and decides the winner.
//!
//! - `income`: step 1, the roll, the ship, income and the pirate; `build`, `walls`, `church`: step 2;
//!   `permits`: steps 3 and 4; `markers`: VP markers and the trade track.
//!
//! A rejected event may leave the state half-changed: the timeline that called `apply` throws it away.

pub mod build;
pub mod church;
pub mod income;
pub mod markers;
pub mod permits;
pub mod walls;

#[cfg(test)]
pub mod tests;

use crate::event::Event;
use crate::state::{Phase, State};
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{cause, CheckpointError, Fact, Rules, Seat};

impl Rules for State {
    type Header = crate::setup::Header;
    type Event = Event;

    /// 2: the tenth VP marker placed in its owner's turn ends the game at once (it waited for their next turn);
    /// `take_gold` from a bank short of 2 has everyone give back half their gold first (`reshuffle`).
    const VERSION: u32 = 2;

    fn apply(&mut self, ev: &Event, facts: &mut Vec<Fact>) -> Result {
        if let Some(w) = self.winner {
            return fail(format!("the game is over: {} won in turn {}", self.name(w), self.turn));
        }
        let p = ev.player();
        if p != self.active {
            return fail(format!("{} acts out of turn: it is {}'s turn", self.name(p), self.name(self.active)));
        }
        match ev {
            Event::Roll { dice, ship, influence, discards, took, reshuffle, .. } => {
                let recorded = income::Recorded { ship: *ship, influence, discards, took, reshuffle };
                income::roll(self, p, *dice, recorded, facts)?
            }
            Event::Build { building, at, influence, huts, .. } => {
                build::build(self, p, *building, *at, *influence, huts, facts)?
            }
            Event::BuildWall { at, influence, .. } => walls::build_wall(self, p, *at, influence, facts)?,
            Event::BuildChurch { tile, returned, huts, .. } => {
                church::build_church(self, p, *tile, *returned, huts, facts)?
            }
            Event::PlacePermit { value, at, influence, .. } => {
                permits::place_permit(self, p, *value, *at, *influence, facts)?
            }
            Event::TakeGold { reshuffle, .. } => permits::take_gold(self, p, reshuffle, facts)?,
            Event::MovePermit { from, to, influence, .. } => {
                permits::move_permit(self, p, *from, *to, *influence, facts)?
            }
            Event::UpgradePermit { at, value, influence, .. } => {
                permits::upgrade_permit(self, p, *at, *value, *influence, facts)?
            }
            Event::EndTurn { .. } => end_turn(self, p, facts)?,
        }
        // "Jos on sinun vuorosi ja kaikki 10 voittopistemerkkiäsi ovat pelilaudalla, peli päättyy ja sinä olet
        // voittaja!": the tenth marker placed in one's own turn ends the game at once. (One placed in another's
        // turn counts when one's own begins: `end_turn`.)
        if self.winner.is_none() && self.player(self.active).markers_left == 0 {
            win(self, facts);
        }
        Ok(())
    }

    /// The cards dealt at the start: 3 gold and 1 influence each.
    fn opening_facts(&self, facts: &mut Vec<Fact>) {
        for q in self.seats() {
            for (item, count) in self.player(q).hand.items() {
                facts.push(Fact::Gained { player: q, item, count, cause: cause::SETUP, from: None });
            }
        }
    }

    fn fixed_from(&mut self, initial: &State) -> std::result::Result<(), CheckpointError> {
        if self.players.len() != initial.players.len() || self.cells.len() != initial.cells.len() {
            return Err(CheckpointError("the checkpoint is of another table or city".into()));
        }
        self.table = initial.table.clone();
        self.colours = initial.colours.clone();
        self.city = initial.city;
        Ok(())
    }
}

/// The active player has all ten markers on the board: the game ends, theirs.
fn win(s: &mut State, facts: &mut Vec<Fact>) {
    s.winner = Some(s.active);
    s.phase = Phase::Over;
    facts.push(Fact::GameOver { winner: Some(s.active) });
}

fn end_turn(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    if !matches!(s.phase, Phase::Extra { .. }) {
        return fail(format!("{} places a permit or takes 2 gold (step 3) before the turn ends", s.name(p)));
    }
    s.active = (s.active + 1) % s.players.len() as Seat;
    s.turn += 1;
    s.phase = Phase::Roll;
    s.pirate = false;
    facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
    // All ten markers on the board when one's own turn begins (the tenth placed in another's turn) win.
    if s.player(s.active).markers_left == 0 {
        win(s, facts);
    }
    Ok(())
}
