//! A new game from its header: the players, the options, the pack of the tile sets and the start tile.

use crate::state::{self, Options, Player, State, Step};
use crate::tiles::{self, catalogue};
use almanac_core::next::HeaderFields;
use almanac_core::{PlayerEntry, SetupError, Table};
use serde::Deserialize;

/// The header as this game reads it.
#[derive(Deserialize)]
pub struct Header {
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

impl almanac_core::Header for Header {
    type State = State;

    fn state(self) -> Result<State, SetupError> {
        if !(2..=6).contains(&self.players.len()) && self.players.len() != 1 {
            return Err(SetupError(format!(
                "carcassonne is for 2 to 6 players (or 1 to try things out), not {}",
                self.players.len()
            )));
        }
        let cat = catalogue();
        let mut supply = vec![0u8; cat.tiles.len()];
        for set in &self.options.sets {
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
        let n = self.players.len();
        let players = vec![
            Player {
                score: 0,
                followers: self.options.followers,
                builders_home: self.options.builder.0,
                pigs_home: self.options.pig.0,
                goods: [0; 3]
            };
            n
        ];
        let mut s = State {
            options: self.options,
            table: Table::of(&self.players),
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
        let start = self.start.unwrap_or(Start { tile: tiles::START_TILE.into(), at: [0, 0], rotation: 0 });
        let tile = cat.get(&start.tile).ok_or_else(|| SetupError(format!("start: `{}` is not a tile", start.tile)))?;
        if s.supply[tile] == 0 {
            return Err(SetupError(format!("start: no {} in the tile sets", start.tile)));
        }
        if !start.rotation.is_multiple_of(90) {
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

/// How a table begins a game at the recorder: the start tile in the middle, the pack of the sets chosen;
/// the tiles are entered as they are drawn.
pub fn beginnings() -> Vec<almanac_core::next::Beginning> {
    use almanac_core::next::Beginning;
    vec![
        Beginning {
            id: "basic",
            words: "The basic game: the start tile, the basic pack",
            seats: [2, 5],
            seeded: false,
            layouts: Vec::new(),
        },
        Beginning {
            id: "traders-and-builders",
            words: "With Traders & Builders: its tiles, the goods, a builder and a pig each",
            seats: [2, 6],
            seeded: false,
            layouts: Vec::new(),
        },
    ]
}

/// The header's options for a beginning.
pub fn begin(beginning: &str, seats: usize) -> Result<HeaderFields, SetupError> {
    let known = beginnings();
    almanac_core::next::Beginning::chosen(&known, beginning, seats, "Carcassonne")?;
    let options = match beginning {
        "basic" => serde_json::json!({ "sets": ["basic"] }),
        _ => {
            serde_json::json!({ "sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true })
        }
    };
    let mut header = serde_json::Map::new();
    header.insert("options".into(), options);
    Ok(header)
}
