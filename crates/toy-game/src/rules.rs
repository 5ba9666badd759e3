//! The rules of the race: a step of one to three squares by the player whose turn it is; the first on the
//! goal wins.

use crate::event::Event;
use crate::state::{Header, Square, State, Track, GOAL};
use crate::vocabulary::STEP;
use almanac_core::{CheckpointError, Fact, OwnView, PlayerView, RuleViolation, Rules, Seat, Seated, Viewed};

impl Rules for State {
    type Header = Header;
    type Event = Event;
    const VERSION: u32 = 1;

    fn apply(&mut self, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        let Event::Step { player, by } = *event;
        if let Some(w) = self.winner {
            return Err(RuleViolation(format!("the race is over: {} won", self.name(w))));
        }
        if player != self.active {
            return Err(RuleViolation(format!("it is {}'s turn, not {}'s", self.name(self.active), self.name(player))));
        }
        if !(1..=3).contains(&by) {
            return Err(RuleViolation(format!("a step is 1 to 3 squares, not {by}")));
        }
        let square = &mut self.squares[player as usize];
        *square += by;
        let total = *square as i32;
        facts.push(Fact::Score {
            player,
            reason: STEP,
            delta: by as i32,
            delta_public: by as i32,
            total,
            public: total,
        });
        if *square >= GOAL {
            self.winner = Some(player);
            facts.push(Fact::GameOver { winner: Some(player) });
        } else {
            self.turn += 1;
            self.active = ((player as usize + 1) % self.squares.len()) as Seat;
            facts.push(Fact::TurnStarted { turn: self.turn, player: self.active });
        }
        Ok(())
    }

    fn fixed_from(&mut self, initial: &State) -> Result<(), CheckpointError> {
        if self.squares.len() != initial.squares.len() {
            return Err(CheckpointError("the checkpoint is of another table".into()));
        }
        self.table = initial.table.clone();
        Ok(())
    }
}

impl Viewed for State {
    type GameView = Track;
    type PlayerView = Square;

    fn view(&self) -> OwnView<Track, Square> {
        let players = self
            .seats()
            .map(|seat| {
                let square = self.squares[seat as usize];
                PlayerView {
                    name: self.name(seat).to_string(),
                    color: self.table.color(seat).map(str::to_string),
                    vp: square as i32,
                    vp_public: square as i32,
                    summary: format!("square {square}"),
                    game: Square { square },
                }
            })
            .collect();
        OwnView { phase: if self.winner.is_some() { "over" } else { "step" }, players, game: Track { goal: GOAL } }
    }
}
