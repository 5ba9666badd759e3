//! The header line as Catan reads it: the players, the options, the board, the Helpers' stack, and the
//! program whose record it is (`source`).

use crate::board::{Board, BoardSpec};
use crate::state::{Options, State};
use almanac_core::{Envelope, PlayerEntry, SetupError, Table};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Header {
    players: Vec<PlayerEntry>,
    #[serde(default)]
    options: Options,
    board: BoardSpec,
    /// The Helpers scenario: `{"stack": [the six numbered helpers, A1 first]}`.
    #[serde(default)]
    helpers: Option<HelperSpec>,
    /// Free metadata; a program's own record names the program (and its game) here.
    #[serde(default)]
    source: Option<SourceField>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelperSpec {
    stack: Vec<String>,
}

/// `source` as a program writes it; any other value is a note this game does not read.
#[derive(Deserialize)]
#[serde(untagged)]
enum SourceField {
    Program {
        program: Option<String>,
        game: Option<String>,
    },
    #[allow(dead_code)]
    Other(serde::de::IgnoredAny),
}

impl Header {
    fn source(&self) -> (Option<&str>, Option<&str>) {
        match &self.source {
            Some(SourceField::Program { program, game }) => (program.as_deref(), game.as_deref()),
            _ => (None, None),
        }
    }
}

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> Result<State, SetupError> {
        let board = Board::from_spec(&self.board)?;
        let helpers = self.helpers.as_ref().map(|x| x.stack.as_slice());
        State::with_helpers(board, self.options, Table::of(&self.players), helpers)
    }

    /// A record imported before headers could mark a bot (`"bot": true`) is known by its source: every seat
    /// of a catanatron game is one of its bots, and so is every seat of a JSettlers server's robots-only game
    /// (the server names those `~botsOnly~N`).
    fn bots(&self, envelope: &Envelope) -> Vec<bool> {
        let programs = match self.source() {
            (Some("catanatron"), _) => true,
            (Some("JSettlers2"), Some(game)) => game.starts_with("~botsOnly~"),
            _ => false,
        };
        envelope.players.iter().map(|p| p.bot || programs).collect()
    }

    /// catanatron's and JSettlers2's records name themselves (`source.program`).
    fn program(&self) -> Option<String> {
        self.source().0.map(str::to_string)
    }
}
