//! The rules of Cities & Knights, as one `apply` per event: this file says whose move it is and hands the
//! event to the rules of its concern.
//!
//! - `setup`; `roll`: the three dice, the barbarians, progress-card draws, production, the 7 and the
//!   robber; `build`: roads, settlements, cities, walls; `knights`; `improve`: city improvements and
//!   metropolises; `trade`; `progress`: playing progress cards; `points`; `checks`.
//!
//! A rejected event may leave the state half-changed: the timeline that called `apply` throws it away.

pub mod build;
pub mod checks;
pub mod improve;
pub mod knights;
pub mod points;
pub mod progress;
pub mod roll;
pub mod setup;
pub mod trade;

#[cfg(test)]
mod progress_tests;
#[cfg(test)]
pub mod tests;

use crate::event::Event;
use crate::progress::HeldCard;
use crate::rules::checks::{fail, need_main, Result};
use crate::state::{Phase, State, MAX_PROGRESS};
use crate::vocabulary::{GAUGE_BARBARIANS, GAUGE_KNIGHTS};
use almanac_catan::seven;
use almanac_core::Seated;
use almanac_core::{CheckpointError, Fact, Rules, Seat, SetupError};

/// The header as this game reads it.
#[derive(serde::Deserialize)]
pub struct Header {
    players: Vec<almanac_core::PlayerEntry>,
    board: almanac_catan::board::BoardSpec,
}

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> std::result::Result<State, SetupError> {
        let board = almanac_catan::board::Board::from_spec(&self.board)?;
        State::new(board, almanac_core::Table::of(&self.players))
    }
}

impl Rules for State {
    type Header = Header;
    type Event = Event;

    /// 2: what each roll promises each player (`Fact::Promised`), so that luck can be read.
    const VERSION: u32 = 2;

    fn apply(&mut self, ev: &Event, facts: &mut Vec<Fact>) -> Result {
        if let Some(w) = self.winner {
            return fail(format!("the game is over: {} won in turn {}", self.name(w), self.turn));
        }
        let before = gauges(self);
        if let Phase::Setup { step, placed } = self.phase {
            setup::setup(self, ev, step, placed, facts)?;
            follow_gauges(self, before, facts);
            return Ok(());
        }
        let p = ev.player();
        check_turn(self, ev)?;
        let free_roads = self.free_roads;
        match ev {
            Event::BuildSettlement { at, .. } => build::build_settlement(self, p, *at, facts)?,
            Event::BuildCity { at, .. } => build::build_city_for(self, p, *at, &build::city_cost(), facts)?,
            Event::BuildRoad { at, .. } => build::build_road(self, p, *at, facts)?,
            Event::BuildWall { at, .. } => build::build_wall(self, p, *at, false, facts)?,
            Event::BuildKnight { at, .. } => knights::build_knight(self, p, *at, facts)?,
            Event::PromoteKnight { at, .. } => knights::promote_knight(self, p, *at, facts)?,
            Event::ActivateKnight { at, .. } => knights::activate_knight(self, p, *at, facts)?,
            Event::MoveKnight { from, to, displaced_to, .. } => {
                knights::move_knight(self, p, *from, *to, *displaced_to, facts)?
            }
            Event::ChaseRobber { knight, .. } => knights::chase_robber(self, p, *knight)?,
            Event::ImproveCity { track, metropolis, .. } => improve::improve_city(self, p, *track, *metropolis, facts)?,
            Event::Roll { event, dice, drawn, pillaged, aqueduct, .. } => {
                roll::roll(self, p, *event, *dice, roll::Recorded { drawn, pillaged, aqueduct }, facts)?
            }
            Event::Discard { cards, .. } => roll::discard(self, p, cards, facts)?,
            Event::MoveRobber { hex, victim, stolen, .. } => roll::move_robber(self, p, *hex, *victim, *stolen, facts)?,
            Event::Trade { with, give, get, .. } => trade::trade(self, p, *with, give, get, facts)?,
            Event::MaritimeTrade { give, get, .. } => trade::maritime_trade(self, p, give, get, facts)?,
            Event::PlayProgress { play, .. } => progress::play(self, p, play, facts)?,
            Event::ReturnProgress { card, .. } => return_progress(self, p, *card)?,
            Event::EndTurn { .. } => end_turn(self, p, facts)?,
        }
        // Road Building's free roads are laid first; anything else gives up the rest.
        if free_roads > 0 && !matches!(ev, Event::BuildRoad { .. }) {
            self.free_roads = 0;
        }
        follow_gauges(self, before, facts);
        if let Some(w) = points::winner(self) {
            self.winner = Some(w);
            self.phase = Phase::Over;
            facts.push(Fact::GameOver { winner: Some(w) });
        }
        Ok(())
    }

    fn fixed_from(&mut self, initial: &State) -> std::result::Result<(), CheckpointError> {
        if self.players.len() != initial.players.len() || self.buildings.len() != initial.buildings.len() {
            return Err(CheckpointError("the checkpoint is of another table or board".into()));
        }
        self.board = initial.board.clone();
        self.table = initial.table.clone();
        Ok(())
    }
}

/// The barbarians' strength (cities on the board) and the knights' (active knights).
fn gauges(s: &State) -> [i32; 2] {
    [s.cities_on_board() as i32, s.seats().map(|q| s.active_strength(q)).sum::<u32>() as i32]
}

/// The gauges that an event changed, as facts.
fn follow_gauges(s: &State, before: [i32; 2], facts: &mut Vec<Fact>) {
    let now = gauges(s);
    for (k, gauge) in [GAUGE_BARBARIANS, GAUGE_KNIGHTS].into_iter().enumerate() {
        if now[k] != before[k] {
            facts.push(Fact::Gauge { gauge, value: now[k] });
        }
    }
}

/// Whose move is it?
fn check_turn(s: &State, ev: &Event) -> Result {
    let p = ev.player();
    match s.phase {
        Phase::Discard => {
            if !matches!(ev, Event::Discard { .. }) {
                return seven::wait_for_discards(s, &s.must_discard, p, ev.kind(), "the 7");
            }
            if s.must_discard[p as usize] == 0 {
                let held = s.players[p as usize].hand.total();
                return seven::owes_no_discard(s, &s.must_discard, p, held, s.discard_limit(p));
            }
            return Ok(());
        }
        Phase::MoveRobber => {
            return seven::robber_first(s, p, s.active, ev.kind(), matches!(ev, Event::MoveRobber { .. }));
        }
        _ => {}
    }
    match ev {
        Event::Discard { .. } => fail(format!("{} discards, but no 7 is waiting for discards", s.name(p))),
        // Before the first attack a 7 leaves the robber where it is: say that rather than "no 7".
        Event::MoveRobber { .. } if s.attacks == 0 => fail(format!(
            "{} moves the robber, but the robber stays in the desert until the barbarians have attacked once \
             (a 7 before that makes big hands discard and moves nothing)",
            s.name(p)
        )),
        Event::MoveRobber { .. } => fail(format!("{} moves the robber without a 7", s.name(p))),
        // Only the player whose turn it is trades; the partner may be anybody else.
        Event::Trade { with, .. } if p != s.active && *with != s.active => fail(format!(
            "{} and {} trade during {}'s turn; players trade only with the player whose turn it is",
            s.name(p),
            s.name(*with),
            s.name(s.active)
        )),
        Event::Trade { .. } => Ok(()),
        _ if p != s.active => fail(format!("{} acts out of turn: it is {}'s turn", s.name(p), s.name(s.active))),
        _ => Ok(()),
    }
}

/// The player whose turn it is puts a fifth progress card back under its deck.
fn return_progress(s: &mut State, p: Seat, card: HeldCard) -> Result {
    if s.player(p).progress.len() <= MAX_PROGRESS {
        return fail(format!("{} holds no more than {MAX_PROGRESS} progress cards: nothing goes back", s.name(p)));
    }
    if !s.players[p as usize].progress.remove_held(card) {
        return fail(format!("{} holds no {}", s.name(p), roll::held_words(card)));
    }
    s.decks[card.track as usize] += 1;
    Ok(())
}

fn end_turn(s: &mut State, p: Seat, facts: &mut Vec<Fact>) -> Result {
    need_main(s, p, "ending the turn")?;
    if s.player(p).progress.len() > MAX_PROGRESS {
        return fail(format!(
            "{} holds {} progress cards: play or put back one before the turn ends (at most {MAX_PROGRESS})",
            s.name(p),
            s.player(p).progress.len()
        ));
    }
    s.active = (s.active + 1) % s.players.len() as Seat;
    s.turn += 1;
    s.phase = Phase::BeforeRoll;
    s.alchemist = None;
    s.crane = false;
    s.merchant_fleet = None;
    s.free_roads = 0;
    s.harbor_offers.iter_mut().for_each(|o| *o = false);
    facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
    Ok(())
}
