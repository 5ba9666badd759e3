//! The Helpers of Catan scenario (the base rulebook's "YARDIMCI KURALLARI"): the ten helpers, the stack and
//! display, who holds which, and a helper's use as a log records it. The rules of a use are in
//! `rules/helpers.rs`.
//!
//! Ten two-sided helper cards. The six numbered ones form a stack (A1 on top, named in the header's
//! `helpers.stack`, since the rulebook names only A1: Nassir); each player takes the top one right after
//! placing the second settlement and road, and the rest join the display. A player always has exactly one
//! helper; it is not used in the turn it was taken, at most once per turn, never in the Special Building
//! Phase. After a use: flip an A side to B and keep it, or swap it for one of the display (a B side must
//! be swapped); a new helper comes A side up.

use crate::board::{EdgeId, HexId, VertexId};
use crate::development::DevCard;
use crate::resources::{Bundle, Resource, ResourceCard};
use almanac_core::{Seat, SetupError};

pub const HELPERS: [&str; 10] =
    ["Candamir", "Hilde", "Jean", "Lin", "Louis", "Marianne", "Nassir", "Sean", "Vincent", "William"];
pub const CANDAMIR: usize = 0;
pub const HILDE: usize = 1;
pub const JEAN: usize = 2;
pub const LIN: usize = 3;
pub const LOUIS: usize = 4;
pub const MARIANNE: usize = 5;
pub const NASSIR: usize = 6;
pub const SEAN: usize = 7;
pub const VINCENT: usize = 8;
pub const WILLIAM: usize = 9;

pub fn helper(name: &str) -> Option<usize> {
    HELPERS.iter().position(|h| *h == name)
}

/// Reads a helper's name, or says which names exist.
pub fn parse_helper(name: &str) -> Result<usize, String> {
    helper(name).ok_or_else(|| format!("`{name}` is not a helper ({})", HELPERS.join(", ")))
}

/// Marianne and Sean are used in anybody's turn; the others only in the user's own.
pub fn any_turn(helper: usize) -> bool {
    helper == MARIANNE || helper == SEAN
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HelperCard {
    pub helper: usize,
    pub b_side: bool,
    /// The turn the player took it (it cannot be used in that turn).
    pub taken_turn: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Helpers {
    /// The numbered helpers not yet taken, top first (empty once setup is over).
    pub stack: Vec<usize>,
    /// The helpers on display, A side up.
    pub display: Vec<usize>,
    pub held: Vec<Option<HelperCard>>,
    /// The turn in which each player last used their helper.
    pub used_turn: Vec<Option<u32>>,
    /// Jean's choice: (player, resource, turn) for 2:1 trades that turn.
    pub jean: Option<(Seat, Resource, u32)>,
    /// The last production roll: (turn, dice sum, players who received something, as a bit set).
    pub last_roll: Option<(u32, u8, u8)>,
}

impl Helpers {
    pub fn new(stack: &[String], players: usize) -> Result<Helpers, SetupError> {
        let mut ids = Vec::new();
        for name in stack {
            let h = helper(name).ok_or_else(|| {
                SetupError(format!("helpers: unknown helper `{name}` (the ten are {})", HELPERS.join(", ")))
            })?;
            if ids.contains(&h) {
                return Err(SetupError(format!("helpers: `{name}` is twice in the stack")));
            }
            ids.push(h);
        }
        if ids.len() != 6 {
            return Err(SetupError(format!(
                "helpers: the stack holds the six numbered helpers A1..A6, not {}",
                ids.len()
            )));
        }
        if players > 6 {
            return Err(SetupError("helpers: at most six players".into()));
        }
        let display = (0..HELPERS.len()).filter(|h| !ids.contains(h)).collect();
        Ok(Helpers {
            stack: ids,
            display,
            held: vec![None; players],
            used_turn: vec![None; players],
            jean: None,
            last_roll: None,
        })
    }

    /// In setup, right after the second road: the player takes the top of the stack; after the last
    /// player, the rest of the stack joins the display.
    pub fn take_starting(&mut self, p: Seat, turn: u32, last_placement: bool) {
        if !self.stack.is_empty() {
            let top = self.stack.remove(0);
            self.held[p as usize] = Some(HelperCard { helper: top, b_side: false, taken_turn: turn });
        }
        if last_placement {
            let rest: Vec<usize> = self.stack.drain(..).collect();
            self.display.extend(rest);
        }
    }

    /// Does Jean give player `p` a 2:1 rate for `r` in `turn`?
    pub fn jean_rate(&self, p: Seat, r: Resource, turn: u32) -> bool {
        self.jean.is_some_and(|(who, res, t)| who == p && res == r && t == turn)
    }
}

/// What a player does with a helper.
#[derive(Debug, Clone, PartialEq)]
pub enum HelperAction {
    /// Buys a development card paying one of wool, grain, ore with another resource, and keeps one of the
    /// top three cards (`drawn`).
    Candamir { pay: Bundle, drawn: Vec<DevCard>, card: DevCard },
    /// Takes a card of their choice from a player with more victory points on the board.
    Hilde { victim: Seat, took: ResourceCard },
    /// Trades this resource 2:1 with the bank for the rest of the turn.
    Jean { resource: Resource },
    /// Moves the robber from a land hex to the desert (`hex`, when there are several) and takes one card
    /// of what the vacated hex produces.
    Lin { hex: Option<HexId> },
    /// Moves one of the player's roads that is loose at one end to another place, free.
    Louis { from: EdgeId, to: EdgeId },
    /// After a roll other than 7 that paid the player nothing: one card of their choice.
    Marianne { resource: Resource },
    /// Names a resource; one or two opponents each give one of it (if they have one), and get one card of
    /// the player's choice for each card given.
    Nassir {
        resource: Resource,
        opponents: Vec<Seat>,
        received: Option<Vec<(Seat, u8)>>,
        returned: Vec<(Seat, Resource)>,
    },
    /// After a 7: keep all cards instead of discarding (`None`), or, holding 7 or fewer, take one card.
    Sean { resource: Option<Resource> },
    /// Discards a played knight to build a settlement for lumber + brick or a city for 2 ore + grain.
    Vincent { city: bool, at: VertexId },
    /// Builds a road paying lumber or brick with another resource.
    William { at: EdgeId, pay: Bundle },
}

/// After the use: keep the helper turned to its B side, or swap it for one on display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterUse {
    Flip,
    Swap(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub struct HelperUse {
    pub player: Seat,
    pub helper: usize,
    pub action: HelperAction,
    pub after: AfterUse,
}
