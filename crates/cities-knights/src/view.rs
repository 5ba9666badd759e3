//! The state as `almanac state --json` and the API show it.

use crate::cards::Card;
use crate::progress::Track;
use crate::rules::roll::held_name;
use crate::state::{Phase, State, BARBARIAN_SPACES};
use almanac_catan::board::HexId;
use almanac_catan::pieces::placed;
use almanac_catan::resources::UNKNOWN;
use almanac_core::Seated;
use almanac_core::{OwnView, PlayerView, Viewed};
use serde::Serialize;
use std::collections::BTreeMap;

/// The board: pieces, the robber, the merchant, the barbarians, the bank.
#[derive(Serialize)]
pub struct BoardView {
    bank: BTreeMap<&'static str, u8>,
    /// Progress cards left per colour.
    decks: BTreeMap<&'static str, u8>,
    robber: HexId,
    merchant: Option<MerchantView>,
    /// The ship's spaces sailed, of `barbarian_spaces`.
    barbarians: u8,
    barbarian_spaces: u8,
    /// Catan's defence: active knights' strength, against the barbarians' (cities on the board).
    defence: u32,
    barbarian_strength: u32,
    attacks: u32,
    /// Number tokens by hex (the Inventor swaps them).
    numbers: Vec<Option<u8>>,
    buildings: Vec<BuildingView>,
    roads: Vec<RoadView>,
    knights: Vec<KnightView>,
    longest_road: Option<String>,
    metropolises: BTreeMap<&'static str, Option<String>>,
}

#[derive(Serialize)]
struct MerchantView {
    hex: HexId,
    owner: String,
}

#[derive(Serialize)]
struct BuildingView {
    at: String,
    owner: String,
    kind: &'static str,
    wall: bool,
    metropolis: Option<&'static str>,
}

#[derive(Serialize)]
struct RoadView {
    at: String,
    owner: String,
}

#[derive(Serialize)]
struct KnightView {
    at: String,
    owner: String,
    level: u8,
    active: bool,
}

/// A player's cards, improvements and pieces.
#[derive(Serialize)]
pub struct HandView {
    hand: BTreeMap<&'static str, u8>,
    cards_in_hand: u32,
    /// Improvement level per track (0–5).
    improvements: BTreeMap<&'static str, u8>,
    /// Progress cards held: names, or `unknown <colour>`.
    progress: Vec<String>,
    /// Victory point progress cards shown.
    progress_points: Vec<&'static str>,
    defenders: u8,
    walls: u8,
    /// Strength of the player's active knights.
    strength: u32,
    discard_limit: u32,
}

impl Viewed for State {
    type GameView = BoardView;
    type PlayerView = HandView;

    fn view(&self) -> OwnView<BoardView, HandView> {
        let v = |x: usize| self.board.vertices[x].name.to_string();
        let players = self
            .seats()
            .map(|seat| {
                let p = self.player(seat);
                let mut hand: BTreeMap<&'static str, u8> =
                    Card::ALL.iter().map(|&c| (c.name(), p.hand.known[c])).collect();
                hand.insert(UNKNOWN, p.hand.unknown);
                let improvements = Track::ALL.iter().map(|&t| (t.name(), p.level(t))).collect();
                let progress: Vec<String> = p.progress.cards.iter().map(|&h| held_name(h)).collect();
                PlayerView {
                    name: self.name(seat).to_string(),
                    color: self.table.color(seat).map(String::from),
                    vp: self.vp(seat),
                    vp_public: self.vp(seat),
                    summary: format!(
                        "cards {:>2}  progress {}  trade {} politics {} science {}  knights {}",
                        p.hand.total(),
                        progress.len(),
                        p.level(Track::Trade),
                        p.level(Track::Politics),
                        p.level(Track::Science),
                        self.active_strength(seat)
                    ),
                    game: HandView {
                        hand,
                        cards_in_hand: p.hand.total(),
                        improvements,
                        progress,
                        progress_points: p.shown.iter().map(|c| c.name()).collect(),
                        defenders: p.defenders,
                        walls: p.walls,
                        strength: self.active_strength(seat),
                        discard_limit: self.discard_limit(seat),
                    },
                }
            })
            .collect();
        let phase = match self.phase {
            Phase::Setup { .. } => "setup",
            Phase::BeforeRoll => "roll",
            Phase::Discard => "discard",
            Phase::MoveRobber => "robber",
            Phase::Main => "main",
            Phase::Over => "over",
        };
        let buildings = placed(&self.buildings, |i, b| BuildingView {
            at: v(i),
            owner: self.name(b.owner).to_string(),
            kind: b.name(),
            wall: self.walls[i],
            metropolis: self.metropolis_at(i as u16).map(|t| t.name()),
        });
        let roads = placed(&self.roads, |i, o| RoadView {
            at: self.board.edges[i].name.to_string(),
            owner: self.name(o).to_string(),
        });
        let knights = placed(&self.knights, |i, k| KnightView {
            at: v(i),
            owner: self.name(k.owner).to_string(),
            level: k.level,
            active: k.active,
        });
        OwnView {
            phase,
            players,
            game: BoardView {
                bank: Card::ALL.iter().map(|&c| (c.name(), self.bank[c])).collect(),
                decks: Track::ALL.iter().map(|&t| (t.colour(), self.decks[t as usize])).collect(),
                robber: self.robber,
                merchant: self.merchant.map(|(hex, o)| MerchantView { hex, owner: self.name(o).to_string() }),
                barbarians: self.barbarians,
                barbarian_spaces: BARBARIAN_SPACES,
                defence: self.seats().map(|q| self.active_strength(q)).sum(),
                barbarian_strength: self.cities_on_board(),
                attacks: self.attacks,
                numbers: self.numbers.clone(),
                buildings,
                roads,
                knights,
                longest_road: self.name_of(self.longest_road),
                metropolises: Track::ALL.iter().map(|&t| (t.name(), self.name_of(self.metropolis_holder(t)))).collect(),
            },
        }
    }
}
