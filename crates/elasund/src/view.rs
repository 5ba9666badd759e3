//! The state as `almanac state --json` and the API show it.

use crate::board::{squares, ROWS};
use crate::buildings::{wall_reward, Kind, WallReward};
use crate::cards::Influence;
use crate::state::{Phase, State, TRACK_MARKS};
use almanac_core::Seated;
use almanac_core::{OwnView, PlayerView, Viewed};
use serde::Serialize;
use std::collections::BTreeMap;

/// The city: buildings, permits, walls, the church, the ship, the decks.
#[derive(Serialize)]
pub struct CityView {
    /// The city's last column (5, 7 or 9).
    last_col: u8,
    /// The ship's row (its dice sum), or null before the first roll.
    ship: Option<u8>,
    pirate: bool,
    buildings: Vec<BuildingView>,
    permits: Vec<PermitView>,
    walls: Vec<WallView>,
    church: Vec<ChurchView>,
    church_tiles_left: usize,
    /// Neutral buildings left in each stack.
    stacks: BTreeMap<&'static str, u8>,
    gold: u8,
    influence_deck: u8,
    influence_discards: u8,
    /// The trade track's marks: the square and the players whose marker is on it.
    track: Vec<MarkView>,
}

#[derive(Serialize)]
struct BuildingView {
    kind: &'static str,
    at: String,
    width: u8,
    height: u8,
    owner: String,
    markers: u8,
}

#[derive(Serialize)]
struct PermitView {
    at: String,
    owner: String,
    value: u8,
}

#[derive(Serialize)]
struct WallView {
    at: String,
    owner: String,
    number: u8,
    /// The tile has a tower (with its owner's VP marker).
    tower: bool,
}

#[derive(Serialize)]
struct ChurchView {
    at: String,
    tile: &'static str,
    marker: Option<String>,
}

#[derive(Serialize)]
struct MarkView {
    square: u8,
    room: u8,
    players: Vec<String>,
}

/// A player's cards, permits and markers.
#[derive(Serialize)]
pub struct HandView {
    colour: &'static str,
    gold: u8,
    influence: BTreeMap<&'static str, u8>,
    cards_in_hand: u32,
    /// Permit values not on the board.
    permits_at_home: Vec<u8>,
    markers_left: u8,
    trade: u8,
    walls_built: u8,
    towers: u8,
}

impl Viewed for State {
    type GameView = CityView;
    type PlayerView = HandView;

    fn view(&self) -> OwnView<CityView, HandView> {
        let name = |q: u8| self.name(q).to_string();
        let players = self
            .seats()
            .map(|q| {
                let p = self.player(q);
                let mut influence: BTreeMap<&'static str, u8> =
                    Influence::ALL.iter().map(|&c| (c.name(), p.hand.influence[c as usize])).collect();
                influence.insert("unknown", p.hand.unknown);
                let permits_at_home: Vec<u8> = (0..5).filter(|&v| p.permits_home[v as usize]).collect();
                PlayerView {
                    name: name(q),
                    color: Some(self.colours[q as usize].name().to_string()),
                    vp: self.vp(q),
                    vp_public: self.vp(q),
                    summary: format!(
                        "gold {:>2}  influence {}  permits {:?}  trade {}  markers left {}",
                        p.hand.gold,
                        p.hand.influence_total(),
                        permits_at_home,
                        p.trade,
                        p.markers_left
                    ),
                    game: HandView {
                        colour: self.colours[q as usize].name(),
                        gold: p.hand.gold,
                        influence,
                        cards_in_hand: p.hand.total(),
                        permits_at_home,
                        markers_left: p.markers_left,
                        trade: p.trade,
                        walls_built: p.walls,
                        towers: p.towers,
                    },
                }
            })
            .collect();
        let phase = match self.phase {
            Phase::Roll => "roll",
            Phase::Build { .. } => "build",
            Phase::Extra { .. } => "extra",
            Phase::Over => "over",
        };
        let buildings = self
            .buildings
            .iter()
            .flatten()
            .map(|b| {
                let (width, height) = b.kind.size();
                BuildingView {
                    kind: b.kind.name(),
                    at: b.at.to_string(),
                    width,
                    height,
                    owner: name(b.owner),
                    markers: b.markers,
                }
            })
            .collect();
        let permits = squares()
            .filter_map(|q| {
                self.cell(q).permit.map(|(o, v)| PermitView { at: q.to_string(), owner: name(o), value: v })
            })
            .collect();
        let church = squares()
            .filter_map(|q| {
                self.cell(q).church.map(|(t, m)| ChurchView { at: q.to_string(), tile: t.name(), marker: m.map(name) })
            })
            .collect();
        OwnView {
            phase,
            players,
            game: CityView {
                last_col: self.city.last_col,
                ship: self.ship.map(|r| ROWS[r as usize]),
                pirate: self.pirate,
                buildings,
                permits,
                walls: self
                    .walls
                    .iter()
                    .map(|(site, &(o, n))| WallView {
                        at: site.to_string(),
                        owner: name(o),
                        number: n,
                        tower: wall_reward(n) == WallReward::Tower,
                    })
                    .collect(),
                church,
                church_tiles_left: self.church_stack.len(),
                stacks: Kind::NEUTRAL.iter().zip(self.stacks).map(|(k, n)| (k.name(), n)).collect(),
                gold: self.gold,
                influence_deck: self.deck,
                influence_discards: self.discards,
                track: TRACK_MARKS
                    .iter()
                    .enumerate()
                    .map(|(k, &(square, room))| MarkView {
                        square,
                        room,
                        players: self.seats().filter(|&q| self.player(q).track_marks[k]).map(name).collect(),
                    })
                    .collect(),
            },
        }
    }
}
