//! The state as `almanac state --json` and the API show it.

use crate::cards::Card;
use crate::state::{Phase, Side, State};
use crate::vocabulary::{LARGEST_ARMY, LONGEST_ROAD};
use almanac_catan::resources::{Resource, UNKNOWN};
use almanac_core::Seated;
use almanac_core::{OwnView, PlayerView, Viewed};
use serde::Serialize;
use std::collections::BTreeMap;

/// The open row, the stacks and the special cards.
#[derive(Serialize)]
pub struct TableView {
    /// The open building cards, by kind.
    row: Vec<&'static str>,
    /// Every kind of building card as printed (what the drawing shows on a card: from the rules' own numbers).
    cards: Vec<CardFace>,
    metropolises_left: u8,
    metropolis_side: &'static str,
    longest_road: Option<String>,
    largest_army: Option<String>,
}

/// A building card as printed: its kind, its cost (one resource per card paid, in the game's order of
/// resources) and the victory points it gives while uncovered.
#[derive(Serialize)]
pub struct CardFace {
    kind: &'static str,
    cost: Vec<&'static str>,
    points: i32,
}

fn faces() -> Vec<CardFace> {
    Card::ALL
        .iter()
        .map(|&c| {
            let cost = c.cost();
            let cost = Resource::ALL.iter().flat_map(|&r| std::iter::repeat_n(r.name(), cost[r] as usize)).collect();
            CardFace { kind: c.name(), cost, points: c.points() }
        })
        .collect()
}

/// A player's hand and tableau.
#[derive(Serialize)]
pub struct TableauView {
    hand: BTreeMap<&'static str, u8>,
    cards_in_hand: u32,
    /// Uncovered cards of each kind (a city covers a settlement, a metropolis a city).
    tableau: BTreeMap<&'static str, u8>,
    /// More resources than this and a Robber event makes the player discard half.
    robber_limit: u32,
    awards: Vec<&'static str>,
}

impl Viewed for State {
    type GameView = TableView;
    type PlayerView = TableauView;

    fn view(&self) -> OwnView<TableView, TableauView> {
        let players = self
            .seats()
            .map(|seat| {
                let p = &self.players[seat as usize];
                let mut hand: BTreeMap<&'static str, u8> =
                    Resource::ALL.iter().map(|&r| (r.name(), p.hand.known[r])).collect();
                hand.insert(UNKNOWN, p.hand.unknown);
                let tableau = Card::ALL.iter().map(|&c| (c.name(), p.count(c))).collect();
                let mut awards = Vec::new();
                if self.longest_road == Some(seat) {
                    awards.push(LONGEST_ROAD);
                }
                if self.largest_army == Some(seat) {
                    awards.push(LARGEST_ARMY);
                }
                let built: Vec<String> = Card::ALL
                    .iter()
                    .filter(|&&c| p.count(c) > 0)
                    .map(|&c| format!("{} {}", c.name(), p.count(c)))
                    .collect();
                PlayerView {
                    name: self.name(seat).to_string(),
                    color: self.table.color(seat).map(String::from),
                    vp: self.vp(seat),
                    vp_public: self.vp(seat),
                    summary: format!("cards {:>2}  {}  {}", p.hand.total(), built.join(" "), awards.join(" ")),
                    game: TableauView {
                        hand,
                        cards_in_hand: p.hand.total(),
                        tableau,
                        robber_limit: p.robber_limit(),
                        awards,
                    },
                }
            })
            .collect();
        let phase = match self.phase {
            Phase::Harvest => "harvest",
            Phase::Play => "play",
            Phase::Discard => "discard",
            Phase::Over => "over",
        };
        let mut row: Vec<&'static str> = self.row.iter().map(|c| c.name()).collect();
        row.sort();
        OwnView {
            phase,
            players,
            game: TableView {
                row,
                cards: faces(),
                metropolises_left: self.metropolises_left,
                metropolis_side: if self.side == Side::A { "A" } else { "B" },
                longest_road: self.name_of(self.longest_road),
                largest_army: self.name_of(self.largest_army),
            },
        }
    }
}
