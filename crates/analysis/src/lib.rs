//! Metrics over facts. Nothing here knows a game's state or rules: everything is read from fact rows
//! (see `almanac_core::FactRow`), so the same code serves every ruleset.

use almanac_core::FactRow;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One player's numbers over a game.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlayerStats {
    pub name: String,
    /// Cards gained from dice rolls, by item.
    pub production: BTreeMap<String, i64>,
    pub production_total: i64,
    /// Cards gained at setup (the second settlement's resources), by item.
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
    /// `[turn, vp, vp_public]` at the end of every turn from 0 (setup) to the last.
    pub vp_by_turn: Vec<[i64; 3]>,
    /// Final score by reason (settlement, city, longest_road, ...).
    pub vp_by_reason: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct TradeStats {
    /// Trades this player took part in.
    pub count: i64,
    /// Cards given and received in trades, by item.
    pub gave: BTreeMap<String, i64>,
    pub got: BTreeMap<String, i64>,
    /// Number of trades by partner: another player's name, `bank`, or `harbour:3:1` / `harbour:2:1`.
    pub partners: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GameStats {
    pub turns: u32,
    pub events: u64,
    /// How often each dice sum was rolled ("2" .. "12").
    pub dice: BTreeMap<String, i64>,
    /// Trades made in each turn (a trade between two players counts once), turn 0 first.
    pub trades_by_turn: Vec<i64>,
    pub players: Vec<PlayerStats>,
}

fn add(map: &mut BTreeMap<String, i64>, key: &str, n: i64) {
    *map.entry(key.to_string()).or_default() += n;
}

/// Computes a game's stats from its facts. `players` are the names in seat order.
pub fn game_stats(players: &[String], facts: &[FactRow]) -> GameStats {
    let mut stats: Vec<PlayerStats> =
        players.iter().map(|n| PlayerStats { name: n.clone(), ..Default::default() }).collect();
    let mut dice: BTreeMap<String, i64> = (2..=12).map(|n| (n.to_string(), 0)).collect();
    let last_turn = facts.iter().map(|f| f.turn).max().unwrap_or(0);
    let events = facts.iter().map(|f| f.seq).max().unwrap_or(0);
    // Score after each turn: carry the latest totals forward.
    let mut score = vec![(0i64, 0i64); players.len()];
    let mut by_turn: Vec<Vec<[i64; 3]>> = vec![Vec::new(); players.len()];
    let mut turn_open = 0u32;
    let mut trades_by_turn = vec![0i64; last_turn as usize + 1];
    let close_turns_until =
        |upto: u32, turn_open: &mut u32, score: &Vec<(i64, i64)>, by_turn: &mut Vec<Vec<[i64; 3]>>| {
            while *turn_open < upto {
                for (p, s) in score.iter().enumerate() {
                    by_turn[p].push([*turn_open as i64, s.0, s.1]);
                }
                *turn_open += 1;
            }
        };
    for f in facts {
        close_turns_until(f.turn, &mut turn_open, &score, &mut by_turn);
        let Some(p) = f.player.map(|p| p as usize).filter(|&p| p < stats.len()) else {
            continue;
        };
        let item = f.item.as_deref().unwrap_or("");
        let n = f.count.unwrap_or(0);
        match (f.kind.as_str(), f.cause.as_deref()) {
            ("rolled", _) => add(&mut dice, &n.to_string(), 1),
            ("gained", Some("production")) => {
                add(&mut stats[p].production, item, n);
                stats[p].production_total += n;
            }
            ("gained", Some("setup")) => add(&mut stats[p].setup, item, n),
            ("gained", Some("steal")) => stats[p].steals_made += n,
            ("gained", Some("purchase")) => add(&mut stats[p].built, item, n),
            ("lost", Some("steal")) => stats[p].steals_suffered += n,
            ("lost", Some("discard")) => stats[p].discarded += n,
            ("spent", _) => add(&mut stats[p].spent, item, n),
            ("built", _) => add(&mut stats[p].built, item, 1),
            ("card_played", _) => add(&mut stats[p].cards_played, item, 1),
            ("traded", _) => {
                if item != "player" || f.other.is_some_and(|o| (p as u32) < o) {
                    trades_by_turn[f.turn as usize] += 1;
                }
                let t = &mut stats[p].trades;
                t.count += 1;
                let partner = match (item, f.other) {
                    ("player", Some(o)) => players.get(o as usize).cloned().unwrap_or_else(|| format!("seat {o}")),
                    (other, _) => other.to_string(),
                };
                add(&mut t.partners, &partner, 1);
                if let Some(detail) = f.detail.as_deref().and_then(|d| serde_json::from_str::<Value>(d).ok()) {
                    for (side, into) in [("gave", &mut t.gave), ("got", &mut t.got)] {
                        for (k, v) in detail[side].as_object().into_iter().flatten() {
                            add(into, k, v.as_i64().unwrap_or(0));
                        }
                    }
                }
            }
            ("score", _) => {
                score[p] = (f.total.unwrap_or(score[p].0), f.public.unwrap_or(score[p].1));
                add(&mut stats[p].vp_by_reason, item, n);
            }
            _ => {}
        }
    }
    close_turns_until(last_turn + 1, &mut turn_open, &score, &mut by_turn);
    for (p, series) in by_turn.into_iter().enumerate() {
        stats[p].vp_by_turn = series;
    }
    GameStats { turns: last_turn, events, dice, trades_by_turn, players: stats }
}
