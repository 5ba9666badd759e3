//! The state as `almanac state --json` and the API show it.

use crate::board::HexId;
use crate::development::{DevCard, DevCounts};
use crate::helpers::HELPERS;
use crate::pieces::{MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS};
use crate::resources::{Resources, UNKNOWN};
use crate::state::{Phase, State};
use crate::vocabulary::{ID, LARGEST_ARMY, LONGEST_ROAD};
use almanac_core::Seated;
use almanac_core::{PlayerView, View};
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

pub fn view(s: &State) -> View<BoardView, HandView> {
    let name = |seat: Option<u8>| seat.map(|p| s.name(p).to_string());
    let players = s
        .seats()
        .map(|seat| {
            let i = seat as usize;
            let p = &s.players[i];
            let mut awards = Vec::new();
            if s.longest_road == Some(seat) {
                awards.push(LONGEST_ROAD);
            }
            if s.largest_army == Some(seat) {
                awards.push(LARGEST_ARMY);
            }
            let helper = s
                .helpers
                .as_ref()
                .and_then(|h| h.held[i])
                .map(|c| HelperView { name: HELPERS[c.helper], side: if c.b_side { "B" } else { "A" } });
            PlayerView {
                name: s.name(seat).to_string(),
                color: s.table.color(i as almanac_core::Seat).map(String::from),
                vp: s.vp(seat),
                vp_public: s.vp_public(seat),
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
    let buildings = s
        .buildings
        .iter()
        .enumerate()
        .filter_map(|(v, b)| {
            b.map(|b| BuildingView {
                at: s.board.vertices[v].name.to_string(),
                owner: s.name(b.owner).to_string(),
                kind: b.name(),
            })
        })
        .collect();
    let roads = s
        .roads
        .iter()
        .enumerate()
        .filter_map(|(e, o)| {
            o.map(|o| RoadView { at: s.board.edges[e].name.to_string(), owner: s.name(o).to_string() })
        })
        .collect();
    View {
        ruleset: ID,
        turn: s.turn,
        active: s.name(s.active).to_string(),
        phase: phase_name(s.phase),
        winner: name(s.winner),
        players,
        game: BoardView {
            bank: (!s.options.unlimited_bank).then(|| resources(&s.bank, None)),
            development_deck: s.deck_left,
            robber: s.robber,
            longest_road: name(s.longest_road),
            largest_army: name(s.largest_army),
            buildings,
            helpers_on_display: s.helpers.as_ref().map(|h| h.display.iter().map(|&d| HELPERS[d]).collect()),
            roads,
        },
    }
}
