//! The state as `almanac state --json` and the API show it.

use crate::board::HexId;
use crate::development::{DevCard, DevCounts};
use crate::helpers::HELPERS;
use crate::pieces::{placed, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS};
use crate::resources::{Resources, UNKNOWN};
use crate::state::{Phase, State};
use crate::vocabulary::{LARGEST_ARMY, LONGEST_ROAD};
use almanac_core::Seated;
use almanac_core::{OwnView, PlayerView, Viewed};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// Cards by name, in the game's order, with an optional count of unknown cards last.
struct Counts<'a> {
    names_and_counts: Vec<(&'a str, u8)>,
}

impl Serialize for Counts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.names_and_counts.len()))?;
        for (name, n) in &self.names_and_counts {
            m.serialize_entry(name, n)?;
        }
        m.end()
    }
}

fn resources(r: &Resources, unknown: Option<u8>) -> Counts<'static> {
    let mut names_and_counts: Vec<(&str, u8)> = r.iter().map(|(r, n)| (r.name(), n)).collect();
    if let Some(u) = unknown {
        names_and_counts.push((UNKNOWN, u));
    }
    Counts { names_and_counts }
}

fn dev_cards(c: &DevCounts, unknown: Option<u8>) -> Counts<'static> {
    let mut names_and_counts: Vec<(&str, u8)> = c.iter().map(|(c, n)| (c.name(), n)).collect();
    if let Some(u) = unknown {
        names_and_counts.push((UNKNOWN, u));
    }
    Counts { names_and_counts }
}

/// The board and the bank.
#[derive(Serialize)]
pub struct BoardView {
    /// `null` when the bank never runs out.
    bank: Option<Counts<'static>>,
    development_deck: u8,
    robber: HexId,
    longest_road: Option<String>,
    largest_army: Option<String>,
    buildings: Vec<BuildingView>,
    /// The helpers on display (the Helpers scenario), else null.
    helpers_on_display: Option<Vec<&'static str>>,
    roads: Vec<RoadView>,
}

#[derive(Serialize)]
struct BuildingView {
    at: String,
    owner: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct RoadView {
    at: String,
    owner: String,
}

/// A player's cards, pieces and special cards.
#[derive(Serialize)]
pub struct HandView {
    helper: Option<HelperView>,
    hand: Counts<'static>,
    cards_in_hand: u32,
    development: DevelopmentView,
    knights: u8,
    longest_road_length: u8,
    awards: Vec<&'static str>,
    pieces_left: PiecesLeft,
}

#[derive(Serialize)]
struct HelperView {
    name: &'static str,
    side: &'static str,
}

#[derive(Serialize)]
struct DevelopmentView {
    held: Counts<'static>,
    played: Counts<'static>,
}

#[derive(Serialize)]
struct PiecesLeft {
    roads: u8,
    settlements: u8,
    cities: u8,
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup { .. } => "setup",
        Phase::BeforeRoll => "roll",
        Phase::Discard => "discard",
        Phase::MoveRobber { .. } => "move_robber",
        Phase::Main => "main",
        Phase::SpecialBuilding { .. } => "special_building",
        Phase::Over => "over",
    }
}

impl Viewed for State {
    type GameView = BoardView;
    type PlayerView = HandView;

    fn view(&self) -> OwnView<BoardView, HandView> {
        let players = self
            .seats()
            .map(|seat| {
                let i = seat as usize;
                let p = &self.players[i];
                let mut awards = Vec::new();
                if self.longest_road == Some(seat) {
                    awards.push(LONGEST_ROAD);
                }
                if self.largest_army == Some(seat) {
                    awards.push(LARGEST_ARMY);
                }
                let helper = self
                    .helpers
                    .as_ref()
                    .and_then(|h| h.held[i])
                    .map(|c| HelperView { name: HELPERS[c.helper], side: if c.b_side { "B" } else { "A" } });
                PlayerView {
                    name: self.name(seat).to_string(),
                    color: self.table.color(i as almanac_core::Seat).map(String::from),
                    vp: self.vp(seat),
                    vp_public: self.vp_public(seat),
                    summary: format!("cards {:>2}  {}", p.hand.total(), awards.join(" ")),
                    game: HandView {
                        helper,
                        hand: resources(&p.hand.known, Some(p.hand.unknown)),
                        cards_in_hand: p.hand.total(),
                        development: DevelopmentView {
                            held: dev_cards(&p.dev.held, Some(p.dev.held_unknown)),
                            played: dev_cards(&p.dev.played, None),
                        },
                        knights: p.dev.played[DevCard::Knight],
                        longest_road_length: p.road_length,
                        awards,
                        pieces_left: PiecesLeft {
                            roads: MAX_ROADS - p.roads,
                            settlements: MAX_SETTLEMENTS - p.settlements,
                            cities: MAX_CITIES - p.cities,
                        },
                    },
                }
            })
            .collect();
        let buildings = placed(&self.buildings, |v, b| BuildingView {
            at: self.board.vertices[v].name.to_string(),
            owner: self.name(b.owner).to_string(),
            kind: b.name(),
        });
        let roads = placed(&self.roads, |e, o| RoadView {
            at: self.board.edges[e].name.to_string(),
            owner: self.name(o).to_string(),
        });
        OwnView {
            phase: phase_name(self.phase),
            players,
            game: BoardView {
                bank: (!self.options.unlimited_bank).then(|| resources(&self.bank, None)),
                development_deck: self.deck_left,
                robber: self.robber,
                longest_road: self.name_of(self.longest_road),
                largest_army: self.name_of(self.largest_army),
                buildings,
                helpers_on_display: self.helpers.as_ref().map(|h| h.display.iter().map(|&d| HELPERS[d]).collect()),
                roads,
            },
        }
    }
}
