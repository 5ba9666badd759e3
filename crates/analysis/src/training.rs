//! Training the win-chance model (`chances.rs`): the positions a game gives to learn from (`Sample`), the
//! fit (Newton's method with a small ridge penalty, its own dense solver: the model has a few dozen weights,
//! too few to want a linear-algebra crate), cross-validation on held-out games by population and third of
//! the game, the sharpening a population's chances want, and the bootstrap intervals the evaluation and the
//! comparison of players read.

use crate::chances::{
    played_by, softmax, third, unsharpened, Model, PopulationSharpness, TrainedOn, Validated, FEWEST_HELD_OUT, FOLDS,
    MODEL_VERSION,
};
use almanac_core::{Game, Position};
use std::collections::BTreeMap;

/// One position of a game with a winner, as training and evaluation read it.
#[derive(Debug, Clone)]
pub struct Sample {
    pub position: Position,
    /// Where in its game the position is: its event's index over the game's events (0 to 1).
    pub stage: f64,
    pub winner: usize,
}

/// The most positions one game gives training: its turns' ends, evenly spaced. One game's positions say
/// much the same, and a hundred thousand games must fit in memory.
pub const POSITIONS_PER_GAME: usize = 40;

/// The positions of a finished game worth learning from: the ends of its turns (a position a turn holds
/// for long; at most [`POSITIONS_PER_GAME`], evenly spaced), with the game's winner. None for a game
/// without a winner or without declared features.
/// The positions of a finished game's set-up (after each of its events before the first turn), with the
/// game's winner: what the set-up model learns from. None for a game without a winner or features.
pub fn set_up_samples(game: &dyn Game) -> Vec<Sample> {
    let Some(winner) = game.winner() else { return Vec::new() };
    let positions = game.positions();
    let n = game.event_count();
    if positions.len() != n + 1 || n == 0 {
        return Vec::new();
    }
    (0..n)
        .take_while(|&i| game.event_turn(i) == 0)
        .map(|i| Sample {
            position: positions[i + 1].clone(),
            stage: (i + 1) as f64 / n as f64,
            winner: winner as usize,
        })
        .collect()
}

pub fn samples(game: &dyn Game) -> Vec<Sample> {
    let Some(winner) = game.winner() else { return Vec::new() };
    let positions = game.positions();
    let n = game.event_count();
    if positions.len() != n + 1 || n == 0 {
        return Vec::new();
    }
    // The last event of each turn: the next one starts another (the game's last event is left out: it is
    // the end, whose winner is known).
    let ends: Vec<usize> = (0..n - 1).filter(|&i| game.event_turn(i + 1) != game.event_turn(i)).collect();
    let step = ends.len().div_ceil(POSITIONS_PER_GAME).max(1);
    ends.iter()
        .step_by(step)
        .map(|&i| Sample {
            position: positions[i + 1].clone(),
            stage: (i + 1) as f64 / n as f64,
            winner: winner as usize,
        })
        .collect()
}

/// Why no model could be trained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoModel {
    /// The game declares no features.
    NoFeatures,
    /// Too few finished games to learn from.
    TooFewGames { games: usize, needed: usize },
}

impl std::fmt::Display for NoModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoModel::NoFeatures => write!(f, "this game declares nothing a position is made of"),
            NoModel::TooFewGames { games, needed } => {
                write!(f, "{games} finished games with a winner; a model needs at least {needed}")
            }
        }
    }
}

impl std::error::Error for NoModel {}

/// The fewest finished games a model is trained from.
pub const FEWEST_GAMES: usize = 20;

/// Fits a model to the samples of `games` finished games.
pub fn train(
    ruleset: &str,
    ruleset_version: u32,
    features: &[&str],
    games: usize,
    samples: &[Sample],
) -> Result<Model, NoModel> {
    if features.is_empty() {
        return Err(NoModel::NoFeatures);
    }
    if games < FEWEST_GAMES {
        return Err(NoModel::TooFewGames { games, needed: FEWEST_GAMES });
    }
    Ok(fitted(ruleset, ruleset_version, features, games, samples))
}

fn fitted(ruleset: &str, ruleset_version: u32, features: &[&str], games: usize, samples: &[Sample]) -> Model {
    let f = features.len();
    // Each feature's mean and spread over every seat of every position.
    let mut mean = vec![0.0; f];
    let mut count = 0.0f64;
    for s in samples {
        for seat in &s.position.seats {
            for k in 0..f {
                mean[k] += seat[k];
            }
            count += 1.0;
        }
    }
    mean.iter_mut().for_each(|m| *m /= count.max(1.0));
    let mut scale = vec![0.0; f];
    for s in samples {
        for seat in &s.position.seats {
            for k in 0..f {
                scale[k] += (seat[k] - mean[k]).powi(2);
            }
        }
    }
    let scale: Vec<f64> = scale.iter().map(|v| (v / count.max(1.0)).sqrt().max(1e-6)).collect();
    let mut model = Model {
        version: MODEL_VERSION,
        ruleset: ruleset.to_string(),
        ruleset_version,
        features: features.iter().map(|s| s.to_string()).collect(),
        mean,
        scale,
        weights: vec![0.0; 2 * f],
        covariance: Vec::new(),
        trained_on: TrainedOn {
            games,
            positions: samples.len(),
            played_by: BTreeMap::new(),
            validated: Vec::new(),
            temperature: 1.0,
            sharpened: Vec::new(),
        },
        sharpness: unsharpened(),
        set_up: None,
    };
    let design = |i: usize, rows: &mut Vec<Vec<f64>>| {
        let p = &samples[i].position;
        rows.clear();
        rows.extend((0..p.seats.len()).map(|seat| model.row(p, seat)));
    };
    // The positions of one game are far from independent: the penalty weighs as much as one game's
    // positions, so that a few games cannot make a confident model.
    let ridge = samples.len() as f64 / games as f64;
    let mut weights = vec![0.0; 2 * f];
    let information = fit(&mut weights, &design, &samples.iter().map(|s| s.winner).collect::<Vec<_>>(), ridge);
    model.weights = weights;
    // As if each game were one position: the covariance widened by the positions a game gives.
    let widen = samples.len() as f64 / games as f64;
    model.covariance = inverse(&information, 2 * f).into_iter().map(|c| c * widen).collect();
    model
}

/// One finished game among the samples a model learns from: its samples' places, and who played it.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    pub samples: std::ops::Range<usize>,
    pub played_by: String,
}

/// What trying a way of fitting on games it did not learn from found: where it knows more than equal
/// chances, and the temperature that makes its chances come out as often as they say.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    pub validated: Vec<Validated>,
    pub temperature: f64,
    pub sharpened: Vec<PopulationSharpness>,
}

/// Where a model fitted the way `train` fits knows more than equal chances, on games it did not learn from:
/// the games cut into [`FOLDS`] parts (every `FOLDS`-th game, in the order given), each part held out once
/// and read with a model fitted on the others. The held-out positions first give the temperature (one
/// number dividing every utility, fitted to their winners by log loss); then each one's gain over equal
/// chances, tempered, counts in its game, per population, table size and third of the game's progress, with
/// a game-level bootstrap interval. Nothing, at temperature 1, where a part leaves no game to learn from.
pub fn cross_validate(
    ruleset: &str,
    ruleset_version: u32,
    features: &[&str],
    samples: &[Sample],
    games: &[PlayedGame],
) -> Validation {
    if features.is_empty() || games.len() < FOLDS {
        return Validation { validated: Vec::new(), temperature: 1.0, sharpened: Vec::new() };
    }
    let folds: Vec<Model> = (0..FOLDS)
        .map(|fold| {
            let learnt: Vec<Sample> = games
                .iter()
                .enumerate()
                .filter(|(i, _)| i % FOLDS != fold)
                .flat_map(|(_, g)| samples[g.samples.clone()].iter().cloned())
                .collect();
            let learnt_games = (0..games.len()).filter(|i| i % FOLDS != fold).count();
            fitted(ruleset, ruleset_version, features, learnt_games, &learnt)
        })
        .collect();
    // Each game's positions read by the model that did not learn from it: the utilities, the winner and
    // the progress.
    let read = |i: usize, model: &Model| -> Vec<(Vec<f64>, usize, f64)> {
        samples[games[i].samples.clone()]
            .iter()
            .map(|s| (model.utilities(&s.position), s.winner, s.position.progress))
            .collect()
    };
    let untempered: Vec<(Vec<f64>, usize)> =
        (0..games.len()).flat_map(|i| read(i, &folds[i % FOLDS])).map(|(u, w, _)| (u, w)).collect();
    let temperature = 1.0 / sharpness(&untempered);
    let folds: Vec<Model> = folds.into_iter().map(|m| m.tempered(temperature)).collect();
    let mut cells: BTreeMap<(String, usize), Vec<usize>> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        if let Some(s) = samples.get(g.samples.start).filter(|_| !g.samples.is_empty()) {
            cells.entry((g.played_by.clone(), s.position.seats.len())).or_default().push(i);
        }
    }
    // A population's own sharpness where enough of its games were held out; the common one elsewhere.
    let mut sharpened = Vec::new();
    let mut sharpness_of = vec![unsharpened(); games.len()];
    for ((played_by, seats), members) in &cells {
        if members.len() < FEWEST_HELD_OUT {
            continue;
        }
        let positions: Vec<(Vec<f64>, usize, f64)> = members.iter().flat_map(|&i| read(i, &folds[i % FOLDS])).collect();
        let fitted = sharpness_over_progress(&positions);
        members.iter().for_each(|&i| sharpness_of[i] = fitted);
        sharpened.push(PopulationSharpness {
            played_by: played_by.clone(),
            seats: *seats,
            games: members.len(),
            sharpness: fitted,
        });
    }
    let per_game: Vec<[(f64, usize); 3]> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let model = Model { sharpness: sharpness_of[i], ..folds[i % FOLDS].clone() };
            gains_by_third(&model, &samples[g.samples.clone()], |s| third(s.position.progress))
        })
        .collect();
    let mut validated = Vec::new();
    for ((played_by, seats), members) in cells {
        let rows: Vec<[(f64, usize); 3]> = members.iter().map(|&i| per_game[i]).collect();
        for (third, (gain, low, high, games)) in bootstrap(&rows, 2000).into_iter().enumerate() {
            validated.push(Validated { played_by: played_by.clone(), seats, third, games, gain, low, high });
        }
    }
    Validation { validated, temperature, sharpened }
}

/// The factor β on utilities that fits the winners best (least mean −ln softmax(β·u)[winner]; the loss is
/// convex in β): a golden-section search over 0.1 to 3.
fn sharpness(positions: &[(Vec<f64>, usize)]) -> f64 {
    let loss = |beta: f64| -> f64 {
        positions
            .iter()
            .map(|(u, w)| {
                let top = u.iter().copied().fold(f64::MIN, f64::max);
                let sum: f64 = u.iter().map(|x| (beta * (x - top)).exp()).sum();
                sum.ln() - beta * (u[*w] - top)
            })
            .sum()
    };
    if positions.is_empty() {
        return 1.0;
    }
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.1, 3.0);
    for _ in 0..60 {
        let (c, d) = (b - golden * (b - a), a + golden * (b - a));
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The sharpness at the start and at the end of a game's progress, on the line between them at each
/// position (its utilities, winner and progress), that fits the winners best: the least mean
/// −ln softmax(β(t)·u)[winner] with β(t) = a + (b − a)·t, a convex loss, by Newton's method kept where β
/// stays between 0.1 and 3.
fn sharpness_over_progress(positions: &[(Vec<f64>, usize, f64)]) -> [f64; 2] {
    // (loss, gradient, hessian) in (a, b).
    let at = |a: f64, b: f64| {
        let (mut loss, mut g, mut h) = (0.0, [0.0; 2], [0.0; 3]);
        for (u, w, t) in positions {
            let t = t.clamp(0.0, 1.0);
            let beta = a + (b - a) * t;
            let top = u.iter().copied().fold(f64::MIN, f64::max);
            let e: Vec<f64> = u.iter().map(|x| (beta * (x - top)).exp()).collect();
            let sum: f64 = e.iter().sum();
            let mean: f64 = u.iter().zip(&e).map(|(x, e)| x * e).sum::<f64>() / sum;
            let var: f64 = u.iter().zip(&e).map(|(x, e)| (x - mean).powi(2) * e).sum::<f64>() / sum;
            loss += sum.ln() - beta * (u[*w] - top);
            let d = mean - u[*w];
            let (da, db) = (1.0 - t, t);
            g[0] += d * da;
            g[1] += d * db;
            h[0] += var * da * da;
            h[1] += var * da * db;
            h[2] += var * db * db;
        }
        (loss, g, h)
    };
    let allowed = |a: f64, b: f64| (0.1..=3.0).contains(&a) && (0.1..=3.0).contains(&b);
    let (mut a, mut b) = (1.0, 1.0);
    if positions.is_empty() {
        return [a, b];
    }
    for _ in 0..30 {
        let (loss, g, h) = at(a, b);
        let det = h[0] * h[2] - h[1] * h[1];
        if det.abs() < 1e-12 {
            break;
        }
        let step = [(h[2] * g[0] - h[1] * g[1]) / det, (h[0] * g[1] - h[1] * g[0]) / det];
        let mut scale = 1.0;
        while scale > 1e-4
            && !(allowed(a - scale * step[0], b - scale * step[1])
                && at(a - scale * step[0], b - scale * step[1]).0 <= loss)
        {
            scale /= 2.0;
        }
        if scale <= 1e-4 {
            break;
        }
        a -= scale * step[0];
        b -= scale * step[1];
        if scale * (step[0].abs() + step[1].abs()) < 1e-9 {
            break;
        }
    }
    [a, b]
}

/// A model of the samples of `games` (their samples' places in `samples`, and who played each), fitted as
/// `train` fits, tempered and validated as `cross_validate` finds: what `almanac train` keeps.
pub fn train_validated(
    ruleset: &str,
    ruleset_version: u32,
    features: &[&str],
    samples: &[Sample],
    games: &[PlayedGame],
) -> Result<Model, NoModel> {
    let model = train(ruleset, ruleset_version, features, games.len(), samples)?;
    let validation = cross_validate(ruleset, ruleset_version, features, samples, games);
    let mut model = model.tempered(validation.temperature);
    model.trained_on.validated = validation.validated;
    model.trained_on.sharpened = validation.sharpened;
    Ok(model)
}

/// One finished game to learn from or to try a model on: its samples and who played it (`played_by`).
#[derive(Debug, Clone)]
pub struct GameSamples {
    pub samples: Vec<Sample>,
    /// Its set-up's positions (`set_up_samples`).
    pub set_up: Vec<Sample>,
    pub played_by: String,
}

impl GameSamples {
    /// What `game` gives a model to learn from.
    pub fn of(game: &dyn Game) -> GameSamples {
        GameSamples { samples: samples(game), set_up: set_up_samples(game), played_by: played_by(game) }
    }
}

impl GameSamples {
    /// How many seats its table has (0 for a game without samples).
    pub fn seats(&self) -> usize {
        self.samples.first().map_or(0, |s| s.position.seats.len())
    }
}

/// A model of `games` as `almanac train` keeps one (`train_validated`), its games counted by who played
/// them (`TrainedOn::played_by`). The games are taken, not copied: a hundred thousand must fit in memory.
pub fn train_games(
    ruleset: &str,
    ruleset_version: u32,
    features: &[&str],
    games: Vec<GameSamples>,
) -> Result<Model, NoModel> {
    let (mut samples, mut played, mut played_by) = (Vec::new(), Vec::new(), BTreeMap::new());
    let (mut set_up, mut set_up_played) = (Vec::new(), Vec::new());
    for g in games {
        *played_by.entry(g.played_by.clone()).or_insert(0) += 1;
        if !g.set_up.is_empty() {
            let range = set_up.len()..set_up.len() + g.set_up.len();
            set_up_played.push(PlayedGame { samples: range, played_by: g.played_by.clone() });
            set_up.extend(g.set_up);
        }
        played.push(PlayedGame { samples: samples.len()..samples.len() + g.samples.len(), played_by: g.played_by });
        samples.extend(g.samples);
    }
    let mut model = train_validated(ruleset, ruleset_version, features, &samples, &played)?;
    model.trained_on.played_by = played_by.clone();
    // The set-up's own model, from the games whose set-up was recorded.
    if let Ok(mut s) = train_validated(ruleset, ruleset_version, features, &set_up, &set_up_played) {
        for g in &set_up_played {
            *s.trained_on.played_by.entry(g.played_by.clone()).or_insert(0) += 1;
        }
        model.set_up = Some(Box::new(s));
    }
    Ok(model)
}

/// A game's gain over equal chances (equal chances' log loss less the model's), summed per third of the
/// game as `third_of` places each position, with the positions counted.
fn gains_by_third(model: &Model, samples: &[Sample], third_of: impl Fn(&Sample) -> usize) -> [(f64, usize); 3] {
    let mut t = [(0.0, 0usize); 3];
    for s in samples {
        let k = third_of(s);
        let p = model.chances(&s.position);
        let equal = (s.position.seats.len() as f64).ln();
        t[k].0 += equal + p[s.winner].max(1e-12).ln();
        t[k].1 += 1;
    }
    t
}

/// Per third: the gain per position over the games (`per_game`, each game's summed gain and positions),
/// its 95 % interval from `draws` resamplings of whole games, and how many games have positions there. The
/// draws follow a fixed seed, so the same games give the same interval.
pub(crate) fn bootstrap(per_game: &[[(f64, usize); 3]], draws: usize) -> [(f64, f64, f64, usize); 3] {
    let ratio = |pick: &mut dyn Iterator<Item = usize>, k: usize| {
        let (sum, n) = pick.fold((0.0, 0usize), |(a, b), i| (a + per_game[i][k].0, b + per_game[i][k].1));
        sum / n.max(1) as f64
    };
    let drawn_games = resamples(per_game.len(), draws);
    std::array::from_fn(|k| {
        let gain = ratio(&mut (0..per_game.len()), k);
        let drawn: Vec<f64> = drawn_games.iter().map(|d| ratio(&mut d.iter().copied(), k)).collect();
        let (low, high) = interval(drawn, gain);
        (gain, low, high, per_game.iter().filter(|g| g[k].1 > 0).count())
    })
}

/// `draws` resamplings of `n` games, with replacement (each a list of `n` game indices), from a fixed
/// seed: the same games give the same intervals.
pub(crate) fn resamples(n: usize, draws: usize) -> Vec<Vec<usize>> {
    // xorshift64: a plain, seeded generator, enough to pick games.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..draws).map(|_| (0..n).map(|_| (next() % n.max(1) as u64) as usize).collect()).collect()
}

/// The 2.5th and 97.5th percentiles of `drawn`; `otherwise` twice where nothing was drawn.
pub(crate) fn interval(mut drawn: Vec<f64>, otherwise: f64) -> (f64, f64) {
    drawn.sort_by(f64::total_cmp);
    let n = drawn.len();
    let at = |q: f64| drawn.get(((q * n as f64) as usize).min(n.saturating_sub(1))).copied().unwrap_or(otherwise);
    (at(0.025), at(0.975))
}

/// Newton's method on the conditional logit's log likelihood with a ridge penalty `ridge`: `design(i, rows)`
/// writes the seats' design rows of position `i` (made again at each pass rather than kept, so that a
/// hundred thousand games fit in memory), `winners[i]` is the seat that won.
pub(crate) fn fit(
    w: &mut [f64],
    design: &dyn Fn(usize, &mut Vec<Vec<f64>>),
    winners: &[usize],
    ridge: f64,
) -> Vec<f64> {
    let d = w.len();
    let ridge = ridge.max(1e-6);
    let mut seats: Vec<Vec<f64>> = Vec::new();
    let mut information = vec![0.0; d * d];
    for _ in 0..30 {
        let mut gradient = vec![0.0; d];
        let mut hessian = vec![0.0; d * d];
        for (i, &winner) in winners.iter().enumerate() {
            design(i, &mut seats);
            let seats = &seats;
            let u: Vec<f64> = seats.iter().map(|x| x.iter().zip(w.iter()).map(|(a, b)| a * b).sum()).collect();
            let p = softmax(&u);
            let mut mean = vec![0.0; d];
            for (x, &ps) in seats.iter().zip(&p) {
                for k in 0..d {
                    mean[k] += ps * x[k];
                }
            }
            for k in 0..d {
                gradient[k] += seats[winner][k] - mean[k];
            }
            for (x, &ps) in seats.iter().zip(&p) {
                for a in 0..d {
                    let xa = ps * (x[a] - mean[a]);
                    for b in a..d {
                        hessian[a * d + b] += xa * (x[b] - mean[b]);
                    }
                }
            }
        }
        for a in 0..d {
            for b in 0..a {
                hessian[a * d + b] = hessian[b * d + a];
            }
            gradient[a] -= ridge * w[a];
            hessian[a * d + a] += ridge;
        }
        information.clone_from(&hessian);
        let Some(step) = solve(&mut hessian, &mut gradient, d) else { break };
        let size: f64 = step.iter().map(|s| s * s).sum::<f64>().sqrt();
        for k in 0..d {
            w[k] += step[k];
        }
        if size < 1e-7 {
            break;
        }
    }
    information
}

/// The inverse of a symmetric positive definite `d` × `d` matrix (empty if it has none).
fn inverse(a: &[f64], d: usize) -> Vec<f64> {
    let mut out = vec![0.0; d * d];
    for j in 0..d {
        let mut unit = vec![0.0; d];
        unit[j] = 1.0;
        let Some(column) = solve(&mut a.to_vec(), &mut unit, d) else { return Vec::new() };
        for i in 0..d {
            out[i * d + j] = column[i];
        }
    }
    out
}

/// Solves `a x = b` for a symmetric positive definite `a` (`d` × `d`, row by row) by Cholesky's method.
fn solve(a: &mut [f64], b: &mut [f64], d: usize) -> Option<Vec<f64>> {
    for j in 0..d {
        let mut s = a[j * d + j];
        for k in 0..j {
            s -= a[j * d + k] * a[j * d + k];
        }
        if s <= 0.0 {
            return None;
        }
        let l = s.sqrt();
        a[j * d + j] = l;
        for i in j + 1..d {
            let mut t = a[i * d + j];
            for k in 0..j {
                t -= a[i * d + k] * a[j * d + k];
            }
            a[i * d + j] = t / l;
        }
    }
    let mut y = vec![0.0; d];
    for i in 0..d {
        let mut t = b[i];
        for k in 0..i {
            t -= a[i * d + k] * y[k];
        }
        y[i] = t / a[i * d + i];
    }
    let mut x = vec![0.0; d];
    for i in (0..d).rev() {
        let mut t = y[i];
        for k in i + 1..d {
            t -= a[k * d + i] * x[k];
        }
        x[i] = t / a[i * d + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chances::{PEOPLE, PEOPLE_AND_PROGRAMS};

    /// Games of two players, nine positions each across the game's progress, the winner seat `g % 2`; in
    /// population `knowable` the winner leads all along, in `random` the lead says nothing of who wins.
    fn two_populations(games: usize) -> (Vec<Sample>, Vec<PlayedGame>) {
        let (mut samples, mut played) = (Vec::new(), Vec::new());
        for g in 0..games {
            let winner = g % 2;
            let knowable = g % 4 < 2;
            let start = samples.len();
            for i in 0..9 {
                let lead = 1.0 + i as f64 / 3.0;
                // In the random population the lead goes to seat 0 or 1 by the game's number, not its winner.
                let leader = if knowable { winner } else { (g / 4) % 2 };
                let scores = if leader == 0 { [lead, 0.0] } else { [0.0, lead] };
                samples.push(sample(&scores, (i as f64 + 0.5) / 9.0, winner));
            }
            let by = if knowable { "knowable" } else { "random" };
            played.push(PlayedGame { samples: start..samples.len(), played_by: by.to_string() });
        }
        (samples, played)
    }

    #[test]
    fn chances_are_shown_only_where_held_out_games_showed_the_model_knowing_more() {
        let (samples, played) = two_populations(80);
        let validated = cross_validate("test", 1, &["points"], &samples, &played).validated;
        // Every population and third, each game held out once.
        assert_eq!(validated.len(), 2 * 3);
        assert!(validated.iter().all(|v| v.games == 40 && v.seats == 2), "{validated:?}");
        let on = TrainedOn {
            games: 80,
            positions: samples.len(),
            played_by: BTreeMap::new(),
            validated,
            temperature: 1.0,
            sharpened: Vec::new(),
        };
        assert_eq!(on.shown_from("knowable", 2), Ok(0));
        let why = on.shown_from("random", 2).unwrap_err();
        assert!(why.contains("not shown to know more than equal chances") && why.contains("40 of the games"), "{why}");
        // Another table size, another population: not tried there.
        let why = on.shown_from("knowable", 3).unwrap_err();
        assert!(why.contains("not tried on any of the games played by knowable at a table of 3"), "{why}");
        // A gain in the late third only shows chances from it on.
        let mut late = on.clone();
        for v in late.validated.iter_mut().filter(|v| v.third < 2) {
            v.low = -0.01;
        }
        assert_eq!(late.shown_from("knowable", 2), Ok(2));
        // Too few held-out games say too little, whatever their gain.
        let (samples, played) = two_populations(12);
        let few = TrainedOn { validated: cross_validate("test", 1, &["points"], &samples, &played).validated, ..on };
        let why = few.shown_from("knowable", 2).unwrap_err();
        assert!(why.contains("only 6") && why.contains("too few"), "{why}");
    }

    #[test]
    fn each_population_is_read_as_sure_as_its_held_out_games_said() {
        // Pooled, the lead says who wins in one population and nothing in the other: the model learns half
        // of it, too sure for the one and not sure enough for the other.
        let (samples, played) = two_populations(80);
        let model = train_validated("test", 1, &["points"], &samples, &played).unwrap();
        let cells: Vec<(&str, usize, usize)> =
            model.trained_on.sharpened.iter().map(|t| (t.played_by.as_str(), t.seats, t.games)).collect();
        assert_eq!(cells, [("knowable", 2, 40), ("random", 2, 40)]);
        let late_lead = sample(&[3.0, 0.0], 0.9, 0).position;
        let pooled = model.chances(&late_lead)[0];
        let knowable = model.for_population("knowable", 2).chances(&late_lead)[0];
        let random = model.for_population("random", 2).chances(&late_lead)[0];
        assert!(knowable > pooled && pooled > random, "{knowable} {pooled} {random}");
        // Where the lead says nothing, a lead reads as hardly more than even; where it says all, as near sure
        // as the sharpness allows (at most 3).
        assert!(random < 0.6 && knowable > 0.85, "{knowable} {random}");
        // A population the model has no sharpness for is read as pooled; the sharpness is kept with it.
        assert_eq!(model.for_population("people", 2).chances(&late_lead)[0], pooled);
        let again: Model =
            serde_json::from_str(&serde_json::to_string(&model.for_population("random", 2)).unwrap()).unwrap();
        assert_eq!(again.chances(&late_lead)[0], random);
        // A model kept before populations had a sharpness of their own reads as one without.
        let mut kept = serde_json::to_value(&model).unwrap();
        assert!(kept.get("sharpness").is_none(), "a model as trained keeps no sharpness of its own");
        kept["trained_on"].as_object_mut().unwrap().remove("sharpened").unwrap();
        let kept: Model = serde_json::from_value(kept).unwrap();
        assert!(kept.trained_on.sharpened.is_empty() && kept.sharpness == [1.0, 1.0]);
        assert_eq!(kept.for_population("random", 2).chances(&late_lead)[0], pooled);
        // Learnt from whole games, as `almanac train` learns: the same model, its games counted by who
        // played them.
        let games: Vec<GameSamples> = played
            .iter()
            .map(|g| GameSamples {
                samples: samples[g.samples.clone()].to_vec(),
                set_up: Vec::new(),
                played_by: g.played_by.clone(),
            })
            .collect();
        let counted = train_games("test", 1, &["points"], games).unwrap();
        assert_eq!(
            counted.trained_on.played_by,
            BTreeMap::from([("knowable".to_string(), 40), ("random".to_string(), 40)])
        );
        assert_eq!(counted.weights, model.weights);
        assert_eq!(counted.trained_on.sharpened, model.trained_on.sharpened);
    }

    #[test]
    fn what_a_model_learnt_from_is_said_in_words() {
        let mut on = TrainedOn {
            games: 241,
            positions: 9000,
            played_by: BTreeMap::new(),
            validated: Vec::new(),
            temperature: 1.0,
            sharpened: Vec::new(),
        };
        assert_eq!(on.in_words(), "learnt from 241 games (who played them was not counted)");
        assert_eq!(on.saw(PEOPLE), None);
        on.played_by = [("program A", 200), ("program B", 37), (PEOPLE, 3), (PEOPLE_AND_PROGRAMS, 1)]
            .into_iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect();
        assert_eq!(
            on.in_words(),
            "learnt from 241 games: 200 played by program A, 37 by program B, 3 by people, 1 by people and programs at one table"
        );
        assert_eq!((on.saw(PEOPLE), on.saw("another program")), (Some(true), Some(false)));
        on.played_by = [("program A".to_string(), 241)].into_iter().collect();
        assert_eq!(on.in_words(), "learnt from 241 games, all played by program A");
        assert_eq!(on.saw(PEOPLE), Some(false));
    }

    fn sample(scores: &[f64], progress: f64, winner: usize) -> Sample {
        Sample {
            position: Position { progress, scores: scores.to_vec(), seats: scores.iter().map(|&v| vec![v]).collect() },
            stage: progress,
            winner,
        }
    }

    #[test]
    fn chances_sum_to_one_and_follow_what_won() {
        // A made-up game where the seat ahead wins three times in four, more surely late than early.
        let mut samples = Vec::new();
        for g in 0..400 {
            let progress = (g % 10) as f64 / 10.0;
            let lead = 1 + g % 3;
            let winner = if g % 4 == 0 { 1 } else { 0 };
            samples.push(sample(&[lead as f64, 0.0], progress, winner));
        }
        let model = train("test", 1, &["points"], 400, &samples).unwrap();
        let early = model.chances(&samples[0].position);
        assert!((early.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let ahead = model.chances(&sample(&[3.0, 0.0], 0.9, 0).position);
        assert!(ahead[0] > 0.6 && ahead[0] < 0.99, "{ahead:?}");
        // Three seats: still a distribution.
        let three = model.chances(&sample(&[1.0, 1.0, 1.0], 0.5, 0).position);
        assert!(three.iter().all(|c| (c - 1.0 / 3.0).abs() < 1e-9), "{three:?}");
        // The fewer the games behind a model, the wider its chances' spread.
        let few = train("test", 1, &["points"], 40, &samples[..40]).unwrap();
        let at = sample(&[2.0, 0.0], 0.5, 0).position;
        let (wide, narrow) = (few.chances_with_spread(&at)[0].1, model.chances_with_spread(&at)[0].1);
        assert!(wide > narrow && narrow > 0.0, "{wide} against {narrow}");
    }

    #[test]
    fn too_few_games_train_nothing_and_say_why() {
        let err = train("test", 1, &["points"], 3, &[]).unwrap_err();
        assert_eq!(err.to_string(), "3 finished games with a winner; a model needs at least 20");
        assert_eq!(train("test", 1, &[], 100, &[]).unwrap_err(), NoModel::NoFeatures);
    }
}
