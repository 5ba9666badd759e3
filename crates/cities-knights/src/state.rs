//! The state of a Cities & Knights game at one moment.

use crate::cards::{Card, Cards, Hand};
use crate::progress::{Progress, ProgressHand, Track};
use almanac_catan::board::{Board, EdgeId, HexId, VertexId};
use almanac_catan::pieces::{Building, Layout};
use almanac_catan::state::snake_order;
use almanac_core::{Seat, Seated, SetupError, Table};
use std::sync::Arc;

/// Points to win.
pub const VP_TARGET: i32 = 13;
/// Spaces the barbarian ship sails before it lands: the seventh ship face attacks.
pub const BARBARIAN_SPACES: u8 = 7;
/// Resource cards of each kind in the bank, and commodity cards of each kind.
pub const BANK_RESOURCES: u8 = 19;
pub const BANK_COMMODITIES: u8 = 12;
/// Pieces per player.
pub const MAX_WALLS: u8 = 3;
pub const KNIGHTS_PER_LEVEL: u8 = 2;
/// Progress cards a player may keep (victory point cards are shown, not kept).
pub const MAX_PROGRESS: usize = 4;
/// A 7 makes a player discard half when they hold more than this (+2 per city wall).
pub const DISCARD_LIMIT: u32 = 7;

/// A knight on an intersection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Knight {
    pub owner: Seat,
    /// 1 basic, 2 strong, 3 mighty: its strength.
    pub level: u8,
    pub active: bool,
    /// The turn it was last activated in: a knight activated this turn does not act this turn.
    pub activated: u32,
    /// The turn it was last promoted in: one promotion per knight per turn.
    pub promoted: u32,
}

impl Knight {
    pub fn name(self) -> &'static str {
        match self.level {
            1 => "basic knight",
            2 => "strong knight",
            _ => "mighty knight",
        }
    }
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub hand: Hand,
    pub progress: ProgressHand,
    /// Victory point progress cards, shown when drawn.
    pub shown: Vec<Progress>,
    /// Defender of Catan cards.
    pub defenders: u8,
    /// Level of each track, by `Track as usize`.
    pub levels: [u8; 3],
    pub settlements: u8,
    pub cities: u8,
    pub roads: u8,
    pub walls: u8,
    pub road_length: u8,
    /// What one roll promised the player when it was last said (`Fact::Promised`), in thousandths of a card.
    pub promised: u32,
}

impl Player {
    pub fn level(&self, t: Track) -> u8 {
        self.levels[t as usize]
    }
}

/// What the roll's event die showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EventDie {
    Ship,
    Gate(Track),
}

impl EventDie {
    pub fn name(self) -> &'static str {
        match self {
            EventDie::Ship => "ship",
            EventDie::Gate(t) => t.name(),
        }
    }

    pub fn parse(name: &str) -> Result<EventDie, String> {
        match name {
            "ship" => Ok(EventDie::Ship),
            other => Track::parse(other)
                .map(EventDie::Gate)
                .map_err(|_| format!("`{other}` is not a face of the event die (ship, trade, politics, science)")),
        }
    }
}

/// Where in the turn the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// Initial placement, step `step` of `2 * players` (a settlement and a road, then a city and a road);
    /// `placed` is the building placed this step, whose road comes next.
    Setup {
        step: u8,
        placed: Option<VertexId>,
    },
    /// The active player has not rolled yet.
    BeforeRoll,
    /// A 7 was rolled; players in `must_discard` discard.
    Discard,
    /// The robber moves (after a 7, once the barbarians have attacked).
    MoveRobber,
    /// Trading, building, knights, progress cards.
    Main,
    Over,
}

/// The state of a game. What its header fixes (the board, the table) is `#[serde(skip)]`: a checkpoint is
/// the rest, written whole (see `almanac_core::Rules`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, almanac_core::Played)]
pub struct State {
    #[serde(skip)]
    pub board: Arc<Board>,
    /// The number token of each hex (the Inventor swaps them).
    pub numbers: Vec<Option<u8>>,
    #[serde(skip)]
    pub table: Table,
    pub players: Vec<Player>,
    pub buildings: Vec<Option<Building>>,
    pub roads: Vec<Option<Seat>>,
    pub knights: Vec<Option<Knight>>,
    /// A city wall under the city on this vertex.
    pub walls: Vec<bool>,
    /// The city carrying each track's metropolis, by `Track as usize`.
    pub metropolis: [Option<VertexId>; 3],
    /// The merchant's hex and the player who placed it.
    pub merchant: Option<(HexId, Seat)>,
    pub bank: Cards,
    /// Progress cards left in each colour's deck, by `Track as usize`.
    pub decks: [u8; 3],
    /// Spaces the barbarian ship has sailed (0 = the start).
    pub barbarians: u8,
    /// Attacks so far: the robber stays in the desert until the first.
    pub attacks: u32,
    pub robber: HexId,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    /// The production dice an Alchemist fixed for this turn's roll.
    pub alchemist: Option<[u8; 2]>,
    /// A Crane makes the next city improvement one commodity cheaper.
    pub crane: bool,
    /// The card a Merchant Fleet lets the player trade 2:1 this turn.
    pub merchant_fleet: Option<Card>,
    /// Free roads left from Road Building.
    pub free_roads: u8,
    /// Opponents already offered a resource by a Commercial Harbor this turn.
    pub harbor_offers: Vec<bool>,
    /// Cards each player still has to discard after a 7.
    pub must_discard: Vec<u8>,
    pub longest_road: Option<Seat>,
    pub winner: Option<Seat>,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

impl State {
    pub fn new(board: Board, table: Table) -> Result<State, SetupError> {
        if !(3..=4).contains(&table.len()) {
            return Err(SetupError(format!("cities-knights is for 3 or 4 players, not {}", table.len())));
        }
        let n = table.len();
        let mut bank = Cards::NONE;
        for c in Card::ALL {
            bank[c] = if c.is_commodity() { BANK_COMMODITIES } else { BANK_RESOURCES };
        }
        Ok(State {
            numbers: board.hexes.iter().map(|h| h.number).collect(),
            buildings: vec![None; board.vertices.len()],
            roads: vec![None; board.edges.len()],
            knights: vec![None; board.vertices.len()],
            walls: vec![false; board.vertices.len()],
            robber: board.robber_start,
            board: Arc::new(board),
            table,
            players: vec![Player::default(); n],
            metropolis: [None; 3],
            merchant: None,
            bank,
            decks: [18; 3],
            barbarians: 0,
            attacks: 0,
            turn: 0,
            active: 0,
            phase: Phase::Setup { step: 0, placed: None },
            alchemist: None,
            crane: false,
            merchant_fleet: None,
            free_roads: 0,
            harbor_offers: vec![false; n],
            must_discard: vec![0; n],
            longest_road: None,
            winner: None,
        })
    }

    /// Seats clockwise from `first`, `first` included.
    pub fn clockwise_from(&self, first: Seat) -> impl Iterator<Item = Seat> {
        let n = self.players.len() as Seat;
        (0..n).map(move |i| (first + i) % n)
    }

    pub fn player(&self, p: Seat) -> &Player {
        &self.players[p as usize]
    }

    pub fn building(&self, v: VertexId) -> Option<Building> {
        self.buildings[v as usize]
    }

    pub fn road_owner(&self, e: EdgeId) -> Option<Seat> {
        self.roads[e as usize]
    }

    pub fn knight(&self, v: VertexId) -> Option<Knight> {
        self.knights[v as usize]
    }

    /// The track whose metropolis stands on `v`.
    pub fn metropolis_at(&self, v: VertexId) -> Option<Track> {
        Track::ALL.into_iter().find(|&t| self.metropolis[t as usize] == Some(v))
    }

    /// The player holding a track's metropolis.
    pub fn metropolis_holder(&self, t: Track) -> Option<Seat> {
        self.metropolis[t as usize].and_then(|v| self.building(v)).map(|b| b.owner)
    }

    /// Victory points. Everything in this game is shown: no hidden points.
    pub fn vp(&self, p: Seat) -> i32 {
        let pl = self.player(p);
        let mut vp = pl.settlements as i32 + 2 * pl.cities as i32;
        vp += 2 * Track::ALL.iter().filter(|&&t| self.metropolis_holder(t) == Some(p)).count() as i32;
        vp += pl.defenders as i32 + pl.shown.len() as i32;
        if self.longest_road == Some(p) {
            vp += 2;
        }
        if self.merchant.is_some_and(|(_, owner)| owner == p) {
            vp += 1;
        }
        vp
    }

    /// Who places in setup step `step` (the base game's snake order).
    pub fn setup_seat(&self, step: u8) -> Seat {
        snake_order(self.players.len(), step)
    }

    /// What stands on the board for Longest Road: a knight cuts an opponent's road like a building does.
    pub fn road_blockers(&self) -> Vec<Option<Building>> {
        self.buildings
            .iter()
            .zip(&self.knights)
            .map(|(b, k)| b.or(k.map(|k| Building { owner: k.owner, city: false })))
            .collect()
    }

    pub fn layout<'a>(&'a self, blockers: &'a [Option<Building>]) -> Layout<'a> {
        Layout { board: &self.board, buildings: blockers, roads: &self.roads }
    }

    /// The hand limit on a 7.
    pub fn discard_limit(&self, p: Seat) -> u32 {
        DISCARD_LIMIT + 2 * self.player(p).walls as u32
    }

    /// Knights of a level a player has on the board.
    pub fn knights_of(&self, p: Seat, level: u8) -> u8 {
        self.knights.iter().flatten().filter(|k| k.owner == p && k.level == level).count() as u8
    }

    /// The strength of a player's active knights.
    pub fn active_strength(&self, p: Seat) -> u32 {
        self.knights.iter().flatten().filter(|k| k.owner == p && k.active).map(|k| k.level as u32).sum()
    }

    /// Cities on the board (with a metropolis or not): the barbarians' strength.
    pub fn cities_on_board(&self) -> u32 {
        self.players.iter().map(|p| p.cities as u32).sum()
    }

    /// Cities of `p` without a metropolis.
    pub fn plain_cities(&self, p: Seat) -> Vec<VertexId> {
        (0..self.buildings.len() as VertexId)
            .filter(|&v| self.building(v) == Some(Building { owner: p, city: true }) && self.metropolis_at(v).is_none())
            .collect()
    }

    /// Progress cards a player holds of a kind no one has shown: for checking a drawn card exists.
    pub fn known_copies(&self, card: Progress) -> usize {
        self.players.iter().map(|p| p.progress.known(card) + p.shown.iter().filter(|&&c| c == card).count()).sum()
    }
}
