//! Metrics over facts. Nothing here knows a game's state or rules: everything is read from fact rows (see
//! `almanac_core::FactRow`) in the words a game declares in its `Vocabulary`, so the same code serves every
//! ruleset.

pub mod chances;
pub mod coach;
pub mod decisions;
pub mod evaluation;
pub mod insights;
pub mod intervals;
#[cfg(test)]
mod made_up;
pub mod questions;
pub mod ratings;
pub mod read_model;
pub mod strength;
pub mod training;

use almanac_core::facts::PLAYER_PARTNER;
use almanac_core::{cause, FactKind, FactRow, Measure, Vocabulary};
use serde::Serialize;
use std::collections::BTreeMap;

/// One player's numbers over a game.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlayerStats {
    pub name: String,
    /// Items gained from production, by item.
    pub production: BTreeMap<String, i64>,
    pub production_total: i64,
    /// Items gained at setup, by item.
    pub setup: BTreeMap<String, i64>,
    pub trades: TradeStats,
    pub steals_made: i64,
    pub steals_suffered: i64,
    pub discarded: i64,
    /// Items spent on purchases, by item.
    pub spent: BTreeMap<String, i64>,
    /// Pieces built and cards bought, by kind.
    pub built: BTreeMap<String, i64>,
    pub cards_played: BTreeMap<String, i64>,
    /// `[turn, vp, vp_public]` at the end of every turn from 0 to the last.
    pub vp_by_turn: Vec<[i64; 3]>,
    /// `[turn, items gained from production so far]` at the end of every turn from 0 to the last.
    pub production_by_turn: Vec<[i64; 2]>,
    /// Final score by reason (settlement, city, longest_road, ...).
    pub vp_by_reason: BTreeMap<String, i64>,
    /// The statistics the game declares, in its order.
    pub declared: Vec<DeclaredStat>,
}

/// A value of a statistic the game declares (`Vocabulary::player_stats`).
#[derive(Debug, Clone, Serialize)]
pub struct DeclaredStat {
    pub id: &'static str,
    pub label: &'static str,
    pub value: i64,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct TradeStats {
    /// Trades this player took part in.
    pub count: i64,
    /// Cards given and received in trades, by item.
    pub gave: BTreeMap<String, i64>,
    pub got: BTreeMap<String, i64>,
    /// Number of trades by partner: another player's name, or a market's id (`bank`, `harbour:3:1` ...).
    pub partners: BTreeMap<String, i64>,
}

/// One of the game's gauges by turn (`Vocabulary::gauges`).
#[derive(Debug, Clone, Serialize)]
pub struct GaugeSeries {
    pub id: &'static str,
    pub label: &'static str,
    /// `[turn, value]` at the end of every turn from 0 to the last (0 before its first fact).
    pub by_turn: Vec<[i64; 2]>,
}

/// A moment the game marked (`Vocabulary::moments`).
#[derive(Debug, Clone, Serialize)]
pub struct MomentMark {
    pub id: &'static str,
    pub label: &'static str,
    pub turn: u32,
    pub player: Option<String>,
}

/// A turn worth a coach's look, as lichess marks a blunder: a moment the game declares (a 7, a battle),
/// an award changing hands, the turn the winner pulled ahead for good.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyMoment {
    pub turn: u32,
    /// The moment's id (`lead` for the winner pulling ahead), or the award's.
    pub id: String,
    pub label: String,
    /// Whose moment it is (the award's new holder, the winner).
    pub player: Option<String>,
}

/// The id of the key moment when the winner pulls ahead for good.
pub const LEAD: &str = "lead";

#[derive(Debug, Clone, Serialize)]
pub struct GameStats {
    pub turns: u32,
    pub events: u64,
    /// How often each dice sum was rolled (every sum the game's dice can show, as text keys).
    pub dice: BTreeMap<String, i64>,
    /// Trades made in each turn (a trade between two players counts once), turn 0 first.
    pub trades_by_turn: Vec<i64>,
    pub players: Vec<PlayerStats>,
    /// The game's gauges, in the order it declares them.
    pub gauges: Vec<GaugeSeries>,
    /// Points by what scored them (all players together) at the end of every turn: the reasons the game
    /// declares, in its order, then any other, each `[turn, points]` from turn 0.
    pub score_by_reason: Vec<(String, Vec<[i64; 2]>)>,
    pub moments: Vec<MomentMark>,
    /// The turns worth a coach's look, in order.
    pub key_moments: Vec<KeyMoment>,
}

fn add(map: &mut BTreeMap<String, i64>, key: &str, n: i64) {
    *map.entry(key.to_string()).or_default() += n;
}

/// Computes a game's stats from its facts. `players` are the names in seat order; `vocabulary` is the
/// game's (for its dice and its declared statistics).
pub fn game_stats(players: &[String], facts: &[FactRow], vocabulary: &Vocabulary) -> GameStats {
    let mut stats: Vec<PlayerStats> =
        players.iter().map(|n| PlayerStats { name: n.clone(), ..Default::default() }).collect();
    let mut dice: BTreeMap<String, i64> =
        vocabulary.dice.iter().flat_map(|d| d.sums()).map(|n| (n.to_string(), 0)).collect();
    let last_turn = facts.iter().map(|f| f.turn).max().unwrap_or(0);
    let events = facts.iter().map(|f| f.seq).max().unwrap_or(0);
    // Score and production after each turn: carry the latest totals forward.
    let mut running = vec![Running::default(); players.len()];
    let mut by_turn: Vec<Vec<Running>> = vec![Vec::new(); players.len()];
    let mut turn_open = 0;
    let mut trades_by_turn = vec![0i64; last_turn as usize + 1];
    let mut declared = vec![vec![0i64; vocabulary.player_stats.len()]; players.len()];
    let mut gauge_changes: Vec<(u32, usize, i64)> = Vec::new();
    let mut score_changes: Vec<(u32, String, i64)> = Vec::new();
    let mut moments = Vec::new();
    let mut key_moments = Vec::new();
    let mut winner: Option<usize> = None;
    let close_turns_until = |upto: u32, turn_open: &mut u32, running: &[Running], by_turn: &mut [Vec<Running>]| {
        while *turn_open < upto {
            for (p, r) in running.iter().enumerate() {
                by_turn[p].push(*r);
            }
            *turn_open += 1;
        }
    };
    for f in facts {
        close_turns_until(f.turn, &mut turn_open, &running, &mut by_turn);
        let item = f.item.as_deref().unwrap_or("");
        // The game's own facts first; then a player's.
        match f.kind {
            FactKind::Rolled => {
                if let Some(sum) = f.count {
                    add(&mut dice, &sum.to_string(), 1);
                }
                continue;
            }
            FactKind::Gauge => {
                if let Some(k) = vocabulary.gauges.iter().position(|t| t.id == item) {
                    gauge_changes.push((f.turn, k, f.count.unwrap_or(0)));
                }
                continue;
            }
            FactKind::Moment => {
                if let Some(t) = vocabulary.moments.iter().find(|t| t.id == item) {
                    let player = f.player.and_then(|p| players.get(p as usize)).cloned();
                    moments.push(MomentMark { id: t.id, label: t.label, turn: f.turn, player: player.clone() });
                    key_moments.push(KeyMoment {
                        turn: f.turn,
                        id: t.id.to_string(),
                        label: t.label.to_string(),
                        player,
                    });
                }
                continue;
            }
            FactKind::Award => {
                // A holder's change (stored: player = the new holder); a card set aside is no one's moment.
                if let Some(to) = f.player.and_then(|p| players.get(p as usize)) {
                    let label = vocabulary.awards.iter().find(|t| t.id == item).map_or(item, |t| t.label);
                    key_moments.push(KeyMoment {
                        turn: f.turn,
                        id: item.to_string(),
                        label: format!("takes the {label}"),
                        player: Some(to.clone()),
                    });
                }
                continue;
            }
            FactKind::GameOver => {
                winner = f.player.map(|p| p as usize);
                continue;
            }
            FactKind::TurnStarted
            | FactKind::Gained
            | FactKind::Spent
            | FactKind::Lost
            | FactKind::Traded
            | FactKind::Built
            | FactKind::Returned
            | FactKind::CardPlayed
            | FactKind::Score
            | FactKind::Promised => {}
        }
        let Some(p) = f.player.map(|p| p as usize).filter(|&p| p < stats.len()) else {
            continue;
        };
        let n = f.count.unwrap_or(0);
        for (k, stat) in vocabulary.player_stats.iter().enumerate() {
            declared[p][k] += measure(&stat.measure, f);
        }
        match f.kind {
            FactKind::Gained => match f.cause.as_deref() {
                Some(cause::PRODUCTION) => {
                    add(&mut stats[p].production, item, n);
                    stats[p].production_total += n;
                    running[p].produced += n;
                }
                Some(cause::SETUP) => add(&mut stats[p].setup, item, n),
                Some(cause::STEAL) => stats[p].steals_made += n,
                Some(cause::PURCHASE) => add(&mut stats[p].built, item, n),
                _ => {}
            },
            FactKind::Lost => match f.cause.as_deref() {
                Some(cause::STEAL) => stats[p].steals_suffered += n,
                Some(cause::DISCARD) => stats[p].discarded += n,
                _ => {}
            },
            FactKind::Spent => add(&mut stats[p].spent, item, n),
            FactKind::Built => add(&mut stats[p].built, item, 1),
            FactKind::CardPlayed => add(&mut stats[p].cards_played, item, 1),
            FactKind::Traded => {
                if item != PLAYER_PARTNER || f.other.is_some_and(|o| (p as u32) < o) {
                    trades_by_turn[f.turn as usize] += 1;
                }
                let t = &mut stats[p].trades;
                t.count += 1;
                let partner = match (item, f.other) {
                    (PLAYER_PARTNER, Some(o)) => {
                        players.get(o as usize).cloned().unwrap_or_else(|| format!("seat {o}"))
                    }
                    (market, _) => market.to_string(),
                };
                add(&mut t.partners, &partner, 1);
                if let Some(cards) = almanac_core::facts::TradeCards::of(f.detail.as_deref()) {
                    for (side, into) in [(&cards.gave, &mut t.gave), (&cards.got, &mut t.got)] {
                        for (item, n) in &side.0 {
                            add(into, item, *n);
                        }
                    }
                }
            }
            FactKind::Score => {
                let r = &mut running[p];
                (r.vp, r.vp_public) = (f.total.unwrap_or(r.vp), f.public.unwrap_or(r.vp_public));
                add(&mut stats[p].vp_by_reason, item, n);
                score_changes.push((f.turn, item.to_string(), n));
            }
            FactKind::TurnStarted
            | FactKind::Returned
            | FactKind::Promised
            | FactKind::Rolled
            | FactKind::Gauge
            | FactKind::Moment
            | FactKind::Award
            | FactKind::GameOver => {}
        }
    }
    close_turns_until(last_turn + 1, &mut turn_open, &running, &mut by_turn);
    for p in &mut stats {
        // A reason whose points came and went (an award lost) says nothing about the end.
        p.vp_by_reason.retain(|_, points| *points != 0);
    }
    // The turn from which the winner led every other player to the end.
    if let Some(w) = winner.filter(|&w| w < by_turn.len()) {
        let ahead = |t: usize| (0..by_turn.len()).all(|q| q == w || by_turn[q][t].vp < by_turn[w][t].vp);
        let turns = by_turn[w].len();
        if let Some(from) = (0..turns).rev().take_while(|&t| ahead(t)).last() {
            key_moments.push(KeyMoment {
                turn: from as u32,
                id: LEAD.into(),
                label: "pulls ahead for good".into(),
                player: players.get(w).cloned(),
            });
        }
    }
    key_moments.sort_by_key(|k| k.turn);
    for (p, series) in by_turn.into_iter().enumerate() {
        let turn = |t: usize| t as i64;
        stats[p].vp_by_turn = series.iter().enumerate().map(|(t, r)| [turn(t), r.vp, r.vp_public]).collect();
        stats[p].production_by_turn = series.iter().enumerate().map(|(t, r)| [turn(t), r.produced]).collect();
        stats[p].declared = vocabulary
            .player_stats
            .iter()
            .zip(&declared[p])
            .map(|(s, &value)| DeclaredStat { id: s.id, label: s.label, value })
            .collect();
    }
    let gauges = vocabulary
        .gauges
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let mut value = 0;
            let mut changes = gauge_changes.iter().filter(|c| c.1 == k).peekable();
            let by_turn = (0..=last_turn)
                .map(|turn| {
                    while let Some(&(_, _, v)) = changes.next_if(|c| c.0 <= turn) {
                        value = v;
                    }
                    [turn as i64, value]
                })
                .collect();
            GaugeSeries { id: t.id, label: t.label, by_turn }
        })
        .collect();
    let mut reasons: Vec<String> = vocabulary.score_reasons.iter().map(|t| t.id.to_string()).collect();
    for (_, r, _) in &score_changes {
        if !reasons.contains(r) {
            reasons.push(r.clone());
        }
    }
    let score_by_reason = reasons
        .into_iter()
        .filter(|r| score_changes.iter().any(|c| &c.1 == r))
        .map(|r| {
            let mut total = 0;
            let mut changes = score_changes.iter().filter(|c| c.1 == r).peekable();
            let by_turn = (0..=last_turn)
                .map(|turn| {
                    while let Some(c) = changes.next_if(|c| c.0 <= turn) {
                        total += c.2;
                    }
                    [turn as i64, total]
                })
                .collect();
            (r, by_turn)
        })
        .collect();
    GameStats {
        turns: last_turn,
        events,
        dice,
        trades_by_turn,
        players: stats,
        gauges,
        moments,
        key_moments,
        score_by_reason,
    }
}

/// A player's totals so far, as the facts are read in order.
#[derive(Debug, Clone, Copy, Default)]
struct Running {
    vp: i64,
    vp_public: i64,
    produced: i64,
}

/// What one fact adds to a declared statistic.
pub(crate) fn measure(m: &Measure, f: &FactRow) -> i64 {
    let n = f.count.unwrap_or(0);
    let item = f.item.as_deref();
    let cause = f.cause.as_deref();
    match (m, f.kind) {
        (Measure::Gained(c), FactKind::Gained) if cause == Some(*c) => n,
        (Measure::Lost(c), FactKind::Lost) if cause == Some(*c) => n,
        (Measure::Trades, FactKind::Traded) => 1,
        (Measure::Built(piece), FactKind::Built) if item == Some(*piece) => 1,
        (Measure::CardsPlayed, FactKind::CardPlayed) => 1,
        (Measure::Points(reason), FactKind::Score) if item == Some(*reason) => n,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    //! A made-up game with eight resources and three dice: analysis needs no line of its own for it.
    use super::*;
    use almanac_core::{Chart, Dice, DiceSpec, Fact, PlayerStat, Term};

    /// An item named by its id.
    const fn item(id: &'static str) -> Term {
        Term::new(id, id)
    }

    const EIGHT: Vocabulary = Vocabulary {
        id: "eight",
        name: "Eight resources",
        score: Term::new("VP", "victory points"),
        items: &[item("a"), item("b"), item("c"), item("d"), item("e"), item("f"), item("g"), item("h")],
        causes: &[Term::new(cause::PRODUCTION, "production")],
        score_reasons: &[Term::new("tower", "towers")],
        dice: Some(DiceSpec { count: 3, faces: 6 }),
        charts: &[Chart::Score, Chart::Production, Chart::Dice],
        player_stats: &[
            PlayerStat { id: "made", label: "made", measure: Measure::Gained(cause::PRODUCTION) },
            PlayerStat { id: "towers", label: "tower points", measure: Measure::Points("tower") },
        ],
        items_are: "cards",
        ..Vocabulary::NONE
    };

    fn rows(facts: &[(u32, Fact)]) -> Vec<FactRow> {
        facts.iter().enumerate().map(|(i, (turn, f))| f.row(i as u64 + 1, *turn)).collect()
    }

    #[test]
    fn eight_resources_three_dice_and_declared_stats() {
        let gained = |player, item, count| Fact::Gained { player, item, count, cause: cause::PRODUCTION, from: None };
        let facts = rows(&[
            (1, Fact::TurnStarted { turn: 1, player: 0 }),
            (1, Fact::Rolled { player: 0, dice: Dice::new(&[6, 6, 5]) }),
            (1, gained(0, "h", 2)),
            (1, gained(1, "g", 1)),
            (2, Fact::Rolled { player: 1, dice: Dice::new(&[1, 1, 1]) }),
            (2, Fact::Score { player: 1, reason: "tower", delta: 3, delta_public: 3, total: 3, public: 3 }),
        ]);
        let s = game_stats(&["A".into(), "B".into()], &facts, &EIGHT);
        assert_eq!(s.dice.len(), 16, "sums 3 to 18");
        assert_eq!((s.dice["17"], s.dice["3"], s.dice["10"]), (1, 1, 0));
        assert_eq!(s.players[0].production["h"], 2);
        assert_eq!(s.players[1].production["g"], 1);
        let declared = |p: usize, id: &str| s.players[p].declared.iter().find(|d| d.id == id).unwrap().value;
        assert_eq!((declared(0, "made"), declared(1, "made"), declared(1, "towers")), (2, 1, 3));
        assert_eq!(s.players[1].vp_by_turn, vec![[0, 0, 0], [1, 0, 0], [2, 3, 3]]);
        assert_eq!(s.players[0].production_by_turn, vec![[0, 0], [1, 2], [2, 2]]);
    }

    #[test]
    fn key_moments_are_awards_changing_hands_and_the_turn_the_winner_pulled_ahead_for_good() {
        let score =
            |player, total| Fact::Score { player, reason: "tower", delta: 1, delta_public: 1, total, public: total };
        let facts = rows(&[
            (1, score(0, 2)),
            (2, score(1, 3)),
            (2, Fact::Award { award: "road", from: None, to: Some(1) }),
            (3, score(0, 3)),
            (4, score(0, 4)),
            (5, Fact::Award { award: "road", from: Some(1), to: None }),
            (5, Fact::GameOver { winner: Some(0) }),
        ]);
        let s = game_stats(&["A".into(), "B".into()], &facts, &EIGHT);
        let ids: Vec<(u32, &str, Option<&str>)> =
            s.key_moments.iter().map(|k| (k.turn, k.id.as_str(), k.player.as_deref())).collect();
        // A led at turn 1, B at 2, level at 3; A ahead from 4 to the end. A card set aside is no moment.
        assert_eq!(ids, vec![(2, "road", Some("B")), (4, LEAD, Some("A"))]);
        assert_eq!(s.key_moments[0].label, "takes the road");
    }
}
