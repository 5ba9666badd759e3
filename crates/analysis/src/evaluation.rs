//! How well win chances did on games their model did not learn from: log loss and Brier score by thirds of
//! the game against equal chances and a softmax of the points, the gain over equal chances with a
//! game-level interval, and calibration by tenths, each tenth with its interval. Everything is read from
//! [`Read`] games, so that the held-out games of several models (one per part of a cross-validation) are
//! scored as one set.

use crate::chances::{softmax, third, Model, FEWEST_HELD_OUT, THIRDS};
use crate::training::{bootstrap, fit, interval, resamples, Sample};
use serde::Serialize;

/// One held-out position as a model and the points baseline read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The model's chance for each seat.
    pub chances: Vec<f64>,
    /// The points baseline's.
    pub points: Vec<f64>,
    pub winner: usize,
    /// Where in its game the position is, by its events (0 to 1).
    pub stage: f64,
    /// How near the leader is to winning (0 to 1).
    pub progress: f64,
}

/// A game's positions read by `model` and by the points baseline of weight `points_weight`.
pub fn read(model: &Model, points_weight: f64, game: &[Sample]) -> Vec<Read> {
    game.iter()
        .map(|s| Read {
            chances: model.chances(&s.position),
            points: softmax(&s.position.scores.iter().map(|v| points_weight * v).collect::<Vec<_>>()),
            winner: s.winner,
            stage: s.stage,
            progress: s.position.progress,
        })
        .collect()
}

/// How well chances fit what happened over some positions.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Fit {
    /// Mean of −ln(the winner's chance): lower is better, ln(n) for equal chances.
    pub log_loss: f64,
    /// Mean of Σ over seats of (chance − won)²: lower is better.
    pub brier: f64,
}

/// One third of the games (early, middle, late): the model against the two baselines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageFit {
    pub stage: &'static str,
    pub positions: usize,
    pub model: Fit,
    /// Every seat alike.
    pub equal: Fit,
    /// A softmax of the scores shown, its one weight fitted on the training positions.
    pub points: Fit,
}

/// Seats' chances in one tenth of [0, 1], against how often those seats won: the difference with its 95 %
/// interval from resampling whole games (a game's positions share one winner, so its seats in a tenth are
/// far from independent).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Bin {
    pub from: f64,
    pub to: f64,
    pub seats: usize,
    /// How many games have a seat in the tenth.
    pub games: usize,
    pub predicted: f64,
    pub observed: f64,
    /// The interval of `observed − predicted`.
    pub low: f64,
    pub high: f64,
}

impl Bin {
    /// Whether what happened is shown to be off what the chances said: the interval leaves out 0, over
    /// enough games for an interval from resampling them to mean something.
    pub fn shown_off(&self) -> bool {
        self.games >= FEWEST_HELD_OUT && (self.low > 0.0 || self.high < 0.0)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    pub stages: Vec<StageFit>,
    pub calibration: Vec<Bin>,
}

/// The weight of the points baseline: the one-feature conditional logit on the scores shown.
pub fn points_weight(samples: &[Sample]) -> f64 {
    let design = |i: usize, rows: &mut Vec<Vec<f64>>| {
        rows.clear();
        rows.extend(samples[i].position.scores.iter().map(|&v| vec![v]));
    };
    let mut w = vec![0.0];
    let _ = fit(&mut w, &design, &samples.iter().map(|s| s.winner).collect::<Vec<_>>(), 1e-6);
    w[0]
}

/// The third of a game a position is in by its events.
fn third_by_events(r: &Read) -> usize {
    ((r.stage * 3.0) as usize).min(2)
}

/// Scores the read `games` by thirds of their events against equal chances and the points baseline, with
/// the calibration in tenths.
pub fn evaluate(games: &[Vec<Read>]) -> Evaluation {
    let add = |fit: &mut Fit, p: &[f64], winner: usize| {
        fit.log_loss -= p[winner].max(1e-12).ln();
        fit.brier += p.iter().enumerate().map(|(s, &c)| (c - f64::from(u8::from(s == winner))).powi(2)).sum::<f64>();
    };
    let mut stages: Vec<StageFit> = THIRDS
        .into_iter()
        .map(|stage| StageFit {
            stage,
            positions: 0,
            model: Fit::default(),
            equal: Fit::default(),
            points: Fit::default(),
        })
        .collect();
    // Per game and tenth: the seats, their chances summed and their wins.
    let mut tenths: Vec<[(usize, f64, f64); 10]> = Vec::with_capacity(games.len());
    for game in games {
        let mut own = [(0usize, 0.0f64, 0.0f64); 10];
        for r in game {
            let n = r.chances.len();
            let st = &mut stages[third_by_events(r)];
            st.positions += 1;
            add(&mut st.model, &r.chances, r.winner);
            add(&mut st.equal, &vec![1.0 / n as f64; n], r.winner);
            add(&mut st.points, &r.points, r.winner);
            for (seat, &c) in r.chances.iter().enumerate() {
                let bin = &mut own[((c * 10.0) as usize).min(9)];
                bin.0 += 1;
                bin.1 += c;
                bin.2 += f64::from(u8::from(seat == r.winner));
            }
        }
        tenths.push(own);
    }
    for st in &mut stages {
        let n = st.positions.max(1) as f64;
        for fit in [&mut st.model, &mut st.equal, &mut st.points] {
            fit.log_loss /= n;
            fit.brier /= n;
        }
    }
    let drawn_games = resamples(games.len(), 2000);
    let calibration = (0..10)
        .map(|k| {
            let over = |pick: &mut dyn Iterator<Item = usize>| {
                let (seats, predicted, won) = pick.fold((0usize, 0.0, 0.0), |(a, b, c), g| {
                    let t = tenths[g][k];
                    (a + t.0, b + t.1, c + t.2)
                });
                (seats, predicted / seats.max(1) as f64, won / seats.max(1) as f64)
            };
            let (seats, predicted, observed) = over(&mut (0..games.len()));
            let drawn: Vec<f64> = drawn_games
                .iter()
                .map(|d| over(&mut d.iter().copied()))
                .filter(|(seats, _, _)| *seats > 0)
                .map(|(_, p, o)| o - p)
                .collect();
            let (low, high) = interval(drawn, observed - predicted);
            Bin {
                from: k as f64 / 10.0,
                to: (k + 1) as f64 / 10.0,
                seats,
                games: tenths.iter().filter(|t| t[k].0 > 0).count(),
                predicted,
                observed,
                low,
                high,
            }
        })
        .collect();
    Evaluation { stages, calibration }
}

/// How much better than equal chances a model did in one third of held-out games: equal chances' log loss
/// less the model's, per position, with a 95 % interval from a game-level bootstrap (games drawn whole, with
/// replacement: a game's positions are far from independent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gain {
    pub stage: &'static str,
    pub games: usize,
    pub gain: f64,
    pub low: f64,
    pub high: f64,
}

/// Which thirds a game's positions are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thirds {
    /// By its events.
    Events,
    /// By the game's progress (how near the leader is to winning): the thirds the chances shown are decided
    /// by (`TrainedOn::shown_from`).
    Progress,
}

/// The gain over equal chances in each third of the read `games`, with its interval from `draws`
/// resamplings.
pub fn gain_over_equal(games: &[Vec<Read>], thirds: Thirds, draws: usize) -> Vec<Gain> {
    let per_game: Vec<[(f64, usize); 3]> = games
        .iter()
        .map(|g| {
            let mut t = [(0.0, 0usize); 3];
            for r in g {
                let k = match thirds {
                    Thirds::Events => third_by_events(r),
                    Thirds::Progress => third(r.progress),
                };
                t[k].0 += (r.chances.len() as f64).ln() + r.chances[r.winner].max(1e-12).ln();
                t[k].1 += 1;
            }
            t
        })
        .collect();
    bootstrap(&per_game, draws)
        .into_iter()
        .zip(THIRDS)
        .map(|((gain, low, high, games), stage)| Gain { stage, games, gain, low, high })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::train;
    use almanac_core::Position;

    fn sample(scores: &[f64], progress: f64, winner: usize) -> Sample {
        Sample {
            position: Position { progress, scores: scores.to_vec(), seats: scores.iter().map(|&v| vec![v]).collect() },
            stage: progress,
            winner,
        }
    }

    /// Games of two players where the higher score wins, nine positions each.
    fn led_games() -> Vec<Vec<Sample>> {
        (0..60)
            .map(|g| {
                let winner = g % 2;
                (0..9)
                    .map(|i| {
                        let lead = 1.0 + i as f64 / 3.0;
                        let scores = if winner == 0 { [lead, 0.0] } else { [0.0, lead] };
                        sample(&scores, (i as f64 + 0.5) / 9.0, winner)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_gain_over_equal_chances_has_a_game_level_interval() {
        let games = led_games();
        let all: Vec<Sample> = games.iter().flatten().cloned().collect();
        let model = train("test", 1, &["points"], games.len(), &all).unwrap();
        let read_all = |m: &Model| games.iter().map(|g| read(m, 0.0, g)).collect::<Vec<_>>();
        let gains = gain_over_equal(&read_all(&model), Thirds::Events, 500);
        assert_eq!(gains.iter().map(|g| g.stage).collect::<Vec<_>>(), ["early", "middle", "late"]);
        for g in &gains {
            assert_eq!(g.games, 60);
            assert!(g.gain > 0.0 && g.low > 0.0 && g.low <= g.gain && g.gain <= g.high, "{g:?}");
        }
        // A model that knows nothing (every weight 0) gains nothing, and its interval is nothing either.
        let blank = Model { weights: vec![0.0; model.weights.len()], ..model };
        for g in gain_over_equal(&read_all(&blank), Thirds::Progress, 500) {
            assert!(g.gain.abs() < 1e-12 && g.low.abs() < 1e-12 && g.high.abs() < 1e-12, "{g:?}");
        }
    }

    #[test]
    fn calibration_counts_what_happened_against_what_was_said_with_a_game_level_interval() {
        // Chances of 0.25 and 0.75, and the 0.75 seat wins in three games of four: calibrated.
        let said = |winner: usize| Read {
            chances: vec![0.75, 0.25],
            points: vec![0.5, 0.5],
            winner,
            stage: 0.5,
            progress: 0.5,
        };
        let games: Vec<Vec<Read>> = (0..80).map(|g| vec![said(usize::from(g % 4 == 3)); 5]).collect();
        let e = evaluate(&games);
        let high = e.calibration[7];
        assert_eq!((high.seats, high.games), (400, 80));
        assert!((high.predicted - 0.75).abs() < 1e-12 && (high.observed - 0.75).abs() < 1e-12, "{high:?}");
        assert!(high.low < 0.0 && high.high > 0.0 && !high.shown_off(), "{high:?}");
        // Five positions of one game are one game's worth: the interval is as wide as 80 games make it
        // (a binomial's sd at 3/4 over 80 is 0.048), not as narrow as 400 independent seats would.
        assert!(high.high - high.low > 0.12, "{high:?}");
        // Had the 0.75 seat won every time, the tenth is shown off, by a quarter.
        let off: Vec<Vec<Read>> = (0..80).map(|_| vec![said(0); 5]).collect();
        let e = evaluate(&off);
        assert!((e.calibration[7].observed - e.calibration[7].predicted - 0.25).abs() < 1e-12);
        assert!(e.calibration[7].shown_off() && e.calibration[2].shown_off(), "{:?}", e.calibration);
        assert_eq!(e.calibration[5].seats, 0);
        // The equal-chances baseline's log loss is ln 2 at every stage that has positions.
        assert!((e.stages[1].equal.log_loss - 2f64.ln()).abs() < 1e-12, "{:?}", e.stages);
    }

    #[test]
    fn chances_learnt_beat_equal_chances_on_the_games_they_follow() {
        let games = led_games();
        let all: Vec<Sample> = games.iter().flatten().cloned().collect();
        let model = train("test", 1, &["points"], games.len(), &all).unwrap();
        let beta = points_weight(&all);
        assert!(beta > 0.0, "{beta}");
        let e = evaluate(&games.iter().map(|g| read(&model, beta, g)).collect::<Vec<_>>());
        assert!(e.stages.iter().all(|s| s.model.log_loss < s.equal.log_loss), "{e:?}");
    }
}
