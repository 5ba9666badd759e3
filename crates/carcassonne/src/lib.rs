//! The `carcassonne` ruleset: the base game with Traders & Builders (goods, builder, pig), 2-6 players;
//! the importer of JCloisterZone's saved games; the replay drawing.
//! Pure: no I/O, no clock, no randomness (the log says which tile was drawn).
//!
//! - `tiles`: the catalogue (`tiles.txt`) and the geometry of sides and half-edges.
//! - `state`: the grid, the features merged across edges (union-find), figures and scores.
//! - `event`, `rules`: the Decider parts.
//! - `view`, `describe`, `vocabulary`: the state, the events and the facts in words; `web/replay.js`.
//! - `import`: JCloisterZone saves.

pub mod describe;
pub mod event;
pub mod import;
pub mod rules;
pub mod state;
pub mod tiles;
pub mod view;
pub mod vocabulary;

use almanac_core::{Declarations, EventError, Fact, Importer, PlayerEntry, RuleViolation, Ruleset, Seat, SetupError};
use almanac_core::{View, Vocabulary};
use serde::Deserialize;
use serde_json::Value;
use state::{Options, Player, Seating, State, Step};
use tiles::catalogue;

pub use event::Event;

#[derive(Deserialize)]
struct Header {
    players: Vec<PlayerEntry>,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    start: Option<Start>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Start {
    tile: String,
    #[serde(default)]
    at: [i32; 2],
    #[serde(default)]
    rotation: u32,
}

pub struct Carcassonne;

impl Carcassonne {
    pub fn new_state(header: &Value) -> Result<State, SetupError> {
        let h = Header::deserialize(header).map_err(|e| SetupError(format!("header: {e}")))?;
        if !(2..=6).contains(&h.players.len()) && h.players.len() != 1 {
            return Err(SetupError(format!(
                "carcassonne is for 2 to 6 players (or 1 to try things out), not {}",
                h.players.len()
            )));
        }
        let cat = catalogue();
        let mut supply = vec![0u8; cat.tiles.len()];
        for set in &h.options.sets {
            let traders = match set.as_str() {
                "basic" => false,
                "traders-and-builders" => true,
                other => {
                    return Err(SetupError(format!(
                        "options: unknown tile set `{other}` (basic, traders-and-builders)"
                    )))
                }
            };
            for (i, t) in cat.tiles.iter().enumerate() {
                if t.traders == traders {
                    supply[i] += t.count;
                }
            }
        }
        let n = h.players.len();
        let players = vec![
            Player {
                score: 0,
                followers: h.options.followers,
                builder_home: h.options.builder,
                pig_home: h.options.pig,
                goods: [0; 3]
            };
            n
        ];
        let mut s = State {
            options: h.options,
            seating: std::sync::Arc::new(
                h.players.into_iter().map(|p| Seating { name: p.name, color: p.color }).collect(),
            ),
            players,
            grid: Default::default(),
            placed: Vec::new(),
            parent: Vec::new(),
            groups: Vec::new(),
            supply,
            turn: 1,
            active: 0,
            step: Step::Tile,
            second_part: false,
            bonus_due: false,
        };
        let start = h.start.unwrap_or(Start { tile: tiles::START_TILE.into(), at: [0, 0], rotation: 0 });
        let tile = cat.get(&start.tile).ok_or_else(|| SetupError(format!("start: `{}` is not a tile", start.tile)))?;
        if s.supply[tile] == 0 {
            return Err(SetupError(format!("start: no {} in the tile sets", start.tile)));
        }
        if start.rotation % 90 != 0 {
            return Err(SetupError(format!("start: rotation {} is not a quarter turn", start.rotation)));
        }
        s.supply[tile] -= 1;
        let at = (start.at[0], start.at[1]);
        s.placed.push(state::Placed { tile, rotation: ((start.rotation / 90) % 4) as u8, at, first_node: 0 });
        s.grid.insert(at, 0);
        s.add_nodes(0);
        Ok(s)
    }
}

impl Ruleset for Carcassonne {
    const ID: &'static str = vocabulary::ID;
    const VERSION: u32 = 1;
    type State = State;
    type Event = Event;
    type GameView = view::GridView;
    type PlayerView = view::SupplyView;

    fn initial(header: &Value) -> Result<State, SetupError> {
        Carcassonne::new_state(header)
    }

    fn parse_event(state: &State, line: &str) -> Result<Event, EventError> {
        event::parse(state, line)
    }

    fn write_event(state: &State, event: &Event) -> String {
        event::write(state, event)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe::describe(state, event)
    }

    fn apply(state: &mut State, event: &Event, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        rules::apply(state, event, facts)
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn active(state: &State) -> Seat {
        state.active
    }

    fn winner(state: &State) -> Option<Seat> {
        view::winner(state)
    }

    fn view(state: &State) -> View<view::GridView, view::SupplyView> {
        view::view(state)
    }
}

impl Declarations for Carcassonne {
    const NAME: &'static str = "Carcassonne";
    const VOCABULARY: &'static Vocabulary = &vocabulary::VOCABULARY;
    const IMPORTERS: &'static [&'static dyn Importer] = &[&import::jcz::JCloisterZoneSave];
    const REPLAY_SCRIPT: &'static str = include_str!("../web/replay.js");
}
