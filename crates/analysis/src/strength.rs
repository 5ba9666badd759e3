//! Whether decision accuracy tells players of known strength apart: over games whose seats were played by
//! named programs, each program's mean accuracy with a game-level interval, its win rate, how often one
//! program's seat was the more accurate in the games with both, and, given the points at mid-game, what a
//! higher accuracy says of winning (a logistic regression with a game-level interval).

use crate::training::{interval, resamples};
use serde::Serialize;
use std::collections::BTreeMap;

/// One seat of one game, as the comparison reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatGame {
    pub game: usize,
    /// Who played the seat (a program's name).
    pub player: String,
    /// The mean accuracy of its decisions (see `decisions::accuracy`) and how many there were.
    pub accuracy: f64,
    pub decisions: usize,
    pub won: bool,
    /// The seat's points at the middle of the game, by its events.
    pub points_at_middle: f64,
}

/// One player's (program's) figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub player: String,
    pub seats: usize,
    pub games: usize,
    pub decisions: usize,
    /// The mean accuracy over its seats, with a 95 % interval from resampling whole games.
    pub accuracy: f64,
    pub low: f64,
    pub high: f64,
    /// The share of its seats that won, with a 95 % Wilson interval.
    pub won: f64,
    pub won_low: f64,
    pub won_high: f64,
}

/// Two players in the games with both: in how many the first's seat was the more accurate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub first: String,
    pub second: String,
    pub games: usize,
    pub first_more_accurate: usize,
}

/// What accuracy says of winning, given the points at mid-game: the logistic regression's coefficient of
/// accuracy (both standardised over the seats), with its 95 % interval from resampling whole games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coefficient {
    pub accuracy: f64,
    pub low: f64,
    pub high: f64,
    pub points: f64,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Strength {
    pub games: usize,
    pub standings: Vec<Standing>,
    pub pairs: Vec<Pair>,
    pub coefficient: Option<Coefficient>,
}

/// How many resamplings of the games make an interval.
const DRAWS: usize = 1000;

/// The 95 % Wilson interval of `k` successes in `n`.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, p) = (1.959964f64, n as f64, k as f64 / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Compares the players of `seats` (seat-games of `games` games, numbered from 0).
pub fn compare(seats: &[SeatGame], games: usize) -> Strength {
    let draws = resamples(games, DRAWS);
    let mut players: BTreeMap<&str, Vec<&SeatGame>> = BTreeMap::new();
    for s in seats {
        players.entry(s.player.as_str()).or_default().push(s);
    }
    let mut standings: Vec<Standing> = players
        .iter()
        .map(|(player, mine)| {
            // Per game: the sum of its seats' accuracies and how many.
            let mut by_game = vec![(0.0, 0usize); games];
            for s in mine {
                by_game[s.game].0 += s.accuracy;
                by_game[s.game].1 += 1;
            }
            let mean = |pick: &mut dyn Iterator<Item = usize>| {
                let (sum, n) = pick.fold((0.0, 0), |(a, b), g| (a + by_game[g].0, b + by_game[g].1));
                sum / n.max(1) as f64
            };
            let accuracy = mean(&mut (0..games));
            let drawn: Vec<f64> = draws
                .iter()
                .filter(|d| d.iter().any(|&g| by_game[g].1 > 0))
                .map(|d| mean(&mut d.iter().copied()))
                .collect();
            let (low, high) = interval(drawn, accuracy);
            let won = mine.iter().filter(|s| s.won).count();
            let (won_low, won_high) = wilson(won, mine.len());
            Standing {
                player: player.to_string(),
                seats: mine.len(),
                games: by_game.iter().filter(|g| g.1 > 0).count(),
                decisions: mine.iter().map(|s| s.decisions).sum(),
                accuracy,
                low,
                high,
                won: won as f64 / mine.len().max(1) as f64,
                won_low,
                won_high,
            }
        })
        .collect();
    standings.sort_by(|a, b| a.accuracy.total_cmp(&b.accuracy));
    let mut pairs = Vec::new();
    let names: Vec<&str> = players.keys().copied().collect();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let (mut games_with_both, mut a_more) = (0, 0);
            for g in 0..games {
                let of = |who: &str| {
                    let mine: Vec<f64> =
                        seats.iter().filter(|s| s.game == g && s.player == who).map(|s| s.accuracy).collect();
                    (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
                };
                if let (Some(x), Some(y)) = (of(a), of(b)) {
                    games_with_both += 1;
                    a_more += usize::from(x > y);
                }
            }
            if games_with_both > 0 {
                pairs.push(Pair {
                    first: a.to_string(),
                    second: b.to_string(),
                    games: games_with_both,
                    first_more_accurate: a_more,
                });
            }
        }
    }
    Strength { games, standings, pairs, coefficient: coefficient(seats, games, &draws) }
}

/// The logistic regression of winning on the points at mid-game and accuracy, standardised, and its
/// interval from the games resampled.
fn coefficient(seats: &[SeatGame], games: usize, draws: &[Vec<usize>]) -> Option<Coefficient> {
    let standardised = |f: fn(&SeatGame) -> f64| -> Vec<f64> {
        let n = seats.len().max(1) as f64;
        let mean = seats.iter().map(f).sum::<f64>() / n;
        let sd = (seats.iter().map(|s| (f(s) - mean).powi(2)).sum::<f64>() / n).sqrt().max(1e-9);
        seats.iter().map(|s| (f(s) - mean) / sd).collect()
    };
    let points = standardised(|s| s.points_at_middle);
    let accuracy = standardised(|s| s.accuracy);
    let rows: Vec<([f64; 3], bool)> =
        seats.iter().enumerate().map(|(i, s)| ([1.0, points[i], accuracy[i]], s.won)).collect();
    let mut by_game: Vec<Vec<usize>> = vec![Vec::new(); games];
    for (i, s) in seats.iter().enumerate() {
        by_game[s.game].push(i);
    }
    let fit_on = |pick: &mut dyn Iterator<Item = usize>| -> Option<[f64; 3]> {
        let chosen: Vec<&([f64; 3], bool)> = pick.flat_map(|g| by_game[g].iter().map(|&i| &rows[i])).collect();
        logistic(&chosen)
    };
    let whole = fit_on(&mut (0..games))?;
    let drawn: Vec<f64> = draws.iter().filter_map(|d| fit_on(&mut d.iter().copied())).map(|w| w[2]).collect();
    let (low, high) = interval(drawn, whole[2]);
    Some(Coefficient { accuracy: whole[2], low, high, points: whole[1] })
}

/// A logistic regression of three weights by Newton's method (a small ridge keeps it finite where the
/// rows separate); none where it does not settle.
fn logistic(rows: &[&([f64; 3], bool)]) -> Option<[f64; 3]> {
    let mut w = [0.0f64; 3];
    for _ in 0..50 {
        let mut g = [0.0f64; 3];
        let mut h = [[0.0f64; 3]; 3];
        for (x, y) in rows {
            let z: f64 = (0..3).map(|k| w[k] * x[k]).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let r = f64::from(u8::from(*y)) - p;
            for a in 0..3 {
                g[a] += r * x[a];
                for b in 0..3 {
                    h[a][b] += p * (1.0 - p) * x[a] * x[b];
                }
            }
        }
        for a in 0..3 {
            g[a] -= 1e-3 * w[a];
            h[a][a] += 1e-3;
        }
        let step = solve3(h, g)?;
        (0..3).for_each(|k| w[k] += step[k]);
        if step.iter().map(|s| s.abs()).sum::<f64>() < 1e-10 {
            return Some(w);
        }
    }
    w.iter().all(|x| x.is_finite()).then_some(w)
}

/// Solves a 3 × 3 system by Cramer's rule.
fn solve3(h: [[f64; 3]; 3], g: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(h);
    if d.abs() < 1e-12 {
        return None;
    }
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate() {
        let mut m = h;
        for r in 0..3 {
            m[r][k] = g[r];
        }
        *o = det(m) / d;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(game: usize, player: &str, accuracy: f64, won: bool, points: f64) -> SeatGame {
        SeatGame { game, player: player.into(), accuracy, decisions: 10, won, points_at_middle: points }
    }

    #[test]
    fn a_more_accurate_player_that_wins_more_is_told_apart() {
        // "strong" is more accurate and wins whatever its points at mid-game; "weak" the other way.
        let mut seats = Vec::new();
        for g in 0..60 {
            let wiggle = (g % 7) as f64;
            seats.push(seat(g, "strong", 90.0 + wiggle, g % 5 != 0, 4.0 + (g % 3) as f64));
            seats.push(seat(g, "weak", 70.0 + wiggle, g % 5 == 0, 4.0 + (g % 4) as f64));
        }
        let s = compare(&seats, 60);
        assert_eq!(s.standings.iter().map(|x| x.player.as_str()).collect::<Vec<_>>(), ["weak", "strong"]);
        let (weak, strong) = (&s.standings[0], &s.standings[1]);
        assert!(weak.high < strong.low, "{weak:?} {strong:?}");
        assert!((strong.won - 0.8).abs() < 1e-9 && strong.won_low < 0.8 && strong.won_high > 0.8);
        assert_eq!(
            s.pairs,
            [Pair { first: "strong".into(), second: "weak".into(), games: 60, first_more_accurate: 60 }]
        );
        let c = s.coefficient.unwrap();
        assert!(c.accuracy > 0.0 && c.low > 0.0, "{c:?}");
    }

    #[test]
    fn wilson_stays_within_zero_and_one() {
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (low, high) = wilson(0, 10);
        assert!(low == 0.0 && high > 0.2 && high < 0.35, "{high}");
        let (low, high) = wilson(10, 10);
        assert!(high > 0.999 && low > 0.65, "{low} {high}");
    }
}
