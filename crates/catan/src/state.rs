//! The state of a Catan game at one moment.

use crate::board::{Board, EdgeId, HexId, VertexId};
use crate::catanatron_roads::CatanatronRoads;
use crate::development::{DevCard, DevCards, DevCounts, DEV_DECK, DEV_DECK_5_6};
use crate::helpers::Helpers;
use crate::pieces::{Building, Layout};
use crate::resources::{Hand, Resources};
use almanac_core::{Seat, Seated, SetupError, Table};
use serde::Deserialize;
use std::sync::Arc;

/// What to do when the bank cannot pay everyone a resource after a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankShortage {
    /// The rulebook: nobody gets it, unless only one player is owed it, who then gets what is left.
    Rulebook,
    /// Nobody gets a resource the bank cannot pay in full (catanatron's rule).
    NobodyPaid,
}

/// The ruleset options a header may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Victory points to win (10 in the rulebook).
    pub vp_target: u8,
    /// Trade and build in any order after the roll (the Almanac's recommended variant). When false,
    /// all trading comes before the first build or purchase of a turn.
    pub combined_trade_build: bool,
    pub bank_shortage: BankShortage,
    /// A 7 makes every player holding more than this many cards discard half.
    pub discard_limit: u8,
    /// The 5-6 player extension: 24 cards of each resource, 34 development cards and the Special Building
    /// Phase. On by default with 5 or 6 players.
    pub extension_5_6: Option<bool>,
    /// Cards of each resource in the bank at the start (default 19; 24 with the extension).
    pub bank_per_resource: Option<u8>,
    /// A development card bought this turn cannot be played before the next turn (the rulebook).
    /// catanatron 3.2.1 lets it be played at once; its importer turns this off.
    pub new_cards_wait_a_turn: bool,
    /// How the longest road meets an opponent's settlement or city standing on it.
    pub longest_road: LongestRoadRule,
    /// Who must discard after a 7.
    pub discard_rule: DiscardRule,
    /// The game ends as soon as any player reaches `vp_target`, on anybody's turn (catanatron). The
    /// rulebook: only on the player's own turn.
    pub win_on_any_turn: bool,
    /// Who may build in the Special Building Phase.
    pub special_building: SpecialBuildingRule,
    /// Discards go to the bank face down: the table sees only how many (JSettlers). The bank then counts
    /// only the discarded cards that were seen.
    pub discards_face_down: bool,
    /// A knight that brings its player to the target still moves the robber, and the game ends after
    /// that (JSettlers); the rulebook ends it at once.
    pub win_waits_for_robber: bool,
    /// The bank never runs out (JSettlers keeps no count of its cards).
    pub unlimited_bank: bool,
}

/// What the options and the number of players make of the game's equipment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Equipment {
    pub extension_5_6: bool,
    pub bank_per_resource: u8,
    pub deck: DevCounts,
}

impl Options {
    pub fn equipment(&self, players: usize) -> Equipment {
        let extension_5_6 = self.extension_5_6.unwrap_or(players >= 5);
        Equipment {
            extension_5_6,
            // An unlimited bank starts with more cards than any table can hold, so it never runs short.
            bank_per_resource: match self.unlimited_bank {
                true => u8::MAX,
                false => self.bank_per_resource.unwrap_or(if extension_5_6 { 24 } else { 19 }),
            },
            deck: if extension_5_6 { DEV_DECK_5_6 } else { DEV_DECK },
        }
    }
}

/// Who may build in the Special Building Phase (5-6 players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialBuildingRule {
    /// The others, clockwise from the next player.
    Rulebook,
    /// JSettlers: whoever asks, in the order they ask, the player whose turn it was included. (Its
    /// special build of the next player before their roll is one of these: it comes before the roll.)
    #[serde(rename = "jsettlers")]
    JSettlers,
}

/// Who must discard after a 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardRule {
    /// Every player holding more than `discard_limit` cards.
    Rulebook,
    /// catanatron 3.2.1: the first player in seat order holding more than `discard_limit`, then the
    /// players after them in seat order holding more than 7 (it checks the later ones against a fixed 7).
    /// The same as the rulebook when `discard_limit` is 7.
    #[serde(rename = "catanatron_3_2_1")]
    Catanatron321,
}

/// How a settlement or city of an opponent cuts a road for the Longest Road award.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LongestRoadRule {
    /// The rulebook: the road is split at the building; the segments on both sides still count.
    Rulebook,
    /// As catanatron 3.2.1 keeps it; see `catanatron_roads`.
    #[serde(rename = "catanatron_3_2_1")]
    Catanatron321,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            vp_target: 10,
            combined_trade_build: true,
            bank_shortage: BankShortage::Rulebook,
            discard_limit: 7,
            extension_5_6: None,
            bank_per_resource: None,
            new_cards_wait_a_turn: true,
            longest_road: LongestRoadRule::Rulebook,
            discard_rule: DiscardRule::Rulebook,
            win_on_any_turn: false,
            special_building: SpecialBuildingRule::Rulebook,
            discards_face_down: false,
            win_waits_for_robber: false,
            unlimited_bank: false,
        }
    }
}

/// Who places in step `step` of a setup of two rounds among `players`: 0, 1, ... n-1, then n-1, ... 0.
pub fn snake_order(players: usize, step: u8) -> Seat {
    let n = players as u8;
    if step < n {
        step
    } else {
        2 * n - 1 - step
    }
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub hand: Hand,
    pub dev: DevCards,
    pub settlements: u8,
    pub cities: u8,
    pub roads: u8,
    /// Length of the player's longest single road (for the Longest Road award).
    pub road_length: u8,
    /// What one roll promised the player when it was last said (`Fact::Promised`), in thousandths of a card.
    pub promised: u32,
    /// The player's steals as the players not in them saw them: per victim, by resource, the cards taken
    /// less what the table could expect of them (the victim's hand by kinds then). A hand as another
    /// player could count it is in `seen.rs`. Cleared where a hand empties (then everyone knows it).
    #[serde(default)]
    pub unseen_steals: [[f32; 5]; 6],
}

/// Where in the turn the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// Initial placement, step `step` of `2 * players`; `settlement` is the one placed this step, whose road comes next.
    Setup { step: u8, settlement: Option<VertexId> },
    /// The active player has not rolled yet.
    BeforeRoll,
    /// A 7 was rolled; players in `must_discard` discard before the robber moves.
    Discard,
    /// The robber must move (after a 7, or a knight).
    MoveRobber { knight: bool },
    /// Trading and building.
    Main,
    /// After `after` ended the turn (5-6 players): the others may build and buy, clockwise; `last` is the
    /// latest of them to have built (`after` while nobody has).
    SpecialBuilding { after: Seat, last: Seat },
    /// Somebody won.
    Over,
}

/// The state of a game. What its header fixes (the board, the options, the equipment, the table) is
/// `#[serde(skip)]`: a checkpoint is the rest, written whole (see `almanac_core::Rules`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, almanac_core::Played)]
pub struct State {
    #[serde(skip)]
    pub board: Arc<Board>,
    #[serde(skip)]
    pub options: Options,
    #[serde(skip)]
    pub equipment: Equipment,
    #[serde(skip)]
    pub table: Table,
    pub players: Vec<Player>,
    pub buildings: Vec<Option<Building>>,
    pub roads: Vec<Option<Seat>>,
    pub bank: Resources,
    /// Development cards left in the deck, and of them how many of each type are already known to be drawn.
    pub deck_left: u8,
    pub deck_drawn: DevCounts,
    pub robber: HexId,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    pub rolled: bool,
    /// A knight or progress card was played this turn.
    pub dev_played: bool,
    /// Something was built or bought this turn (matters when trade and build are separate phases).
    pub built: bool,
    /// Free roads left from a Road Building card.
    pub free_roads: u8,
    /// Cards each player still has to discard after a 7.
    pub must_discard: Vec<u8>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub winner: Option<Seat>,
    /// The helpers, when the game plays the Helpers scenario.
    pub helpers: Option<Box<Helpers>>,
    /// catanatron's road bookkeeping, in that mode only.
    pub catanatron_roads: Option<Box<CatanatronRoads>>,
}

impl Seated for State {
    fn table(&self) -> &Table {
        &self.table
    }
}

impl State {
    pub fn new(board: Board, options: Options, table: Table) -> Result<State, SetupError> {
        Self::with_helpers(board, options, table, None)
    }

    /// A new game; `helper_stack` (the numbered helpers, A1 first) plays the Helpers scenario.
    pub fn with_helpers(
        board: Board,
        options: Options,
        table: Table,
        helper_stack: Option<&[String]>,
    ) -> Result<State, SetupError> {
        if !(2..=6).contains(&table.len()) {
            return Err(SetupError(format!(
                "catan is for 2 to 6 players (3-4, 5-6 with the extension; 2 as catanatron plays it), not {}",
                table.len()
            )));
        }
        if options.vp_target < 3 {
            return Err(SetupError(format!("options: vp_target {} is too small to be a game", options.vp_target)));
        }
        let n = table.len();
        let equipment = options.equipment(n);
        Ok(State {
            equipment,
            buildings: vec![None; board.vertices.len()],
            roads: vec![None; board.edges.len()],
            robber: board.robber_start,
            board: Arc::new(board),
            bank: Resources::each(equipment.bank_per_resource),
            options,
            table,
            players: vec![Player::default(); n],
            deck_left: equipment.deck.total() as u8,
            deck_drawn: DevCounts::NONE,
            turn: 0,
            active: 0,
            phase: Phase::Setup { step: 0, settlement: None },
            rolled: false,
            dev_played: false,
            built: false,
            free_roads: 0,
            must_discard: vec![0; n],
            longest_road: None,
            largest_army: None,
            winner: None,
            helpers: match helper_stack {
                Some(stack) => Some(Box::new(Helpers::new(stack, n)?)),
                None => None,
            },
            catanatron_roads: (options.longest_road == LongestRoadRule::Catanatron321)
                .then(|| Box::new(CatanatronRoads::new(n))),
        })
    }

    /// Victory points, hidden victory point cards included.
    pub fn vp(&self, seat: Seat) -> i32 {
        self.vp_public(seat) + self.players[seat as usize].dev.held[DevCard::VictoryPoint] as i32
    }

    /// Victory points everyone can see.
    pub fn vp_public(&self, seat: Seat) -> i32 {
        let p = &self.players[seat as usize];
        let mut vp = p.settlements as i32 + 2 * p.cities as i32 + p.dev.played[DevCard::VictoryPoint] as i32;
        if self.longest_road == Some(seat) {
            vp += 2;
        }
        if self.largest_army == Some(seat) {
            vp += 2;
        }
        vp
    }

    /// Who places in setup step `step`: the snake order, then whoever still owes a placement (one taken
    /// back).
    pub fn setup_seat(&self, step: u8) -> Seat {
        let n = self.players.len();
        if (step as usize) < 2 * n {
            snake_order(n, step)
        } else {
            self.setup_owed().unwrap_or(0)
        }
    }

    /// A player who still owes a setup placement after the snake order (theirs was taken back), the last
    /// of the second round's order first: a placement is whole with its road.
    pub fn setup_owed(&self) -> Option<Seat> {
        self.seats().rev().find(|&p| self.players[p as usize].roads < 2)
    }

    pub fn road_owner(&self, e: EdgeId) -> Option<Seat> {
        self.roads[e as usize]
    }

    pub fn building(&self, v: VertexId) -> Option<Building> {
        self.buildings[v as usize]
    }

    /// What stands on the board.
    pub fn layout(&self) -> Layout<'_> {
        Layout { board: &self.board, buildings: &self.buildings, roads: &self.roads }
    }
}
