//! Win chances: for each seat, the chance to win from the position after any event, learned from stored
//! games. The model is a conditional logit (McFadden's): each seat's utility is a weighted sum of the
//! features its game declares, and of the same features times how far the game has come; a softmax over
//! the table turns utilities into chances, so that they sum to 1 whatever the number of players, and a
//! finished game gives its winner 1. It is fitted by Newton's method with a small ridge penalty: 2 × F
//! weights (F features), a few passes over the positions, no dependency. Nothing here names a game.

use almanac_core::{Fact, Game, Position};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The model's own format; a model of another version is not read (and is trained again).
/// 3: where it was shown to know more than equal chances on held-out games (`TrainedOn::validated`).
/// 4: a model of the set-up beside it (`Model::set_up`), which judges set-up placements.
pub const MODEL_VERSION: u32 = 4;

/// A trained model of one ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub version: u32,
    pub ruleset: String,
    /// The ruleset's version the positions were read with.
    pub ruleset_version: u32,
    /// The feature ids, in the order of the weights.
    pub features: Vec<String>,
    /// Each feature's mean and spread over the training positions (features are scaled by them).
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    /// A weight per feature, then a weight per feature times the game's progress.
    pub weights: Vec<f64>,
    /// The weights' covariance (row by row): the inverse of the fit's information, made as wide as the
    /// games behind it rather than their positions (a game's positions are far from independent), for the
    /// spread of each chance.
    pub covariance: Vec<f64>,
    pub trained_on: TrainedOn,
    /// What every utility is multiplied by at the start of a game's progress and at its end (in between,
    /// on the line between them): 1 and 1 as trained; a population's own (`for_population`).
    #[serde(default = "unsharpened", skip_serializing_if = "is_unsharpened")]
    pub sharpness: [f64; 2],
    /// A model of the set-up's positions (after each placement before the first turn), fitted and
    /// validated on the same games' set-ups, which judges set-up placements; none where no set-up was
    /// learnt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_up: Option<Box<Model>>,
}

pub(crate) fn unsharpened() -> [f64; 2] {
    [1.0, 1.0]
}

fn is_unsharpened(s: &[f64; 2]) -> bool {
    *s == unsharpened()
}

/// What a model was trained on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainedOn {
    pub games: usize,
    pub positions: usize,
    /// Its games by who played them (`played_by`: `people`, `people and programs`, or the program that
    /// played every seat); empty where who played was not counted (a model kept before it was).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub played_by: BTreeMap<String, usize>,
    /// How it did on games it did not learn from, per population, table size and third of the game
    /// (`cross_validate`): chances are shown only where it was shown to know more than equal chances.
    #[serde(default)]
    pub validated: Vec<Validated>,
    /// What every utility was divided by so that chances on held-out games came out as often as they
    /// said (fitted on the held-out positions of `cross_validate`; above 1, the fitted model was too sure).
    #[serde(default = "untempered")]
    pub temperature: f64,
    /// Each population's own sharpness at each table size, where enough of its held-out games gave one
    /// (`Model::for_population`): a model learnt from several populations is too sure of one and not sure
    /// enough of another, and more so early or late. Empty in a model kept before it was fitted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sharpened: Vec<PopulationSharpness>,
}

/// How a population's held-out games at one table size asked the chances to be sharpened so that they
/// came out as often as they said (`cross_validate`): every utility (already divided by the model's
/// temperature) multiplied by `sharpness[0]` at the start of the game's progress and `sharpness[1]` at its
/// end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PopulationSharpness {
    pub played_by: String,
    pub seats: usize,
    pub games: usize,
    pub sharpness: [f64; 2],
}

fn untempered() -> f64 {
    1.0
}

/// How much better than equal chances a model did, on held-out games of one population at one table size,
/// in one third of the game by its progress (how far the leader is toward what winning takes): the gain in
/// log loss per position with its 95 % game-level interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Validated {
    pub played_by: String,
    pub seats: usize,
    /// 0, 1 or 2: the first, second or last third of the game's progress.
    pub third: usize,
    pub games: usize,
    pub gain: f64,
    pub low: f64,
    pub high: f64,
}

/// The thirds of a game, in words.
pub const THIRDS: [&str; 3] = ["early", "middle", "late"];

/// The third of a game a position is in, by its progress.
pub fn third(progress: f64) -> usize {
    ((progress * 3.0).max(0.0) as usize).min(2)
}

/// How many parts the games are cut into to validate a model: each part held out once, the model fitted
/// on the others.
pub const FOLDS: usize = 5;

/// The fewest held-out games of a population at a table size whose gain counts: fewer say too little.
pub const FEWEST_HELD_OUT: usize = 10;

/// A table of people, as `played_by` says it.
pub const PEOPLE: &str = "people";
/// People and programs at one table.
pub const PEOPLE_AND_PROGRAMS: &str = "people and programs";
/// Programs at every seat of a record that does not name its program.
pub const PROGRAMS: &str = "programs";

/// Who played a game, as a model's population: people at every seat, people and programs at one table, or
/// programs at every seat, by the program's name where the record says it.
pub fn played_by(game: &dyn Game) -> String {
    let bots = game.bots();
    if !bots.iter().any(|&b| b) {
        PEOPLE.to_string()
    } else if !bots.iter().all(|&b| b) {
        PEOPLE_AND_PROGRAMS.to_string()
    } else {
        game.program().unwrap_or_else(|| PROGRAMS.to_string())
    }
}

/// A population in words, after "played by": "people", "people and programs at one table", "program A".
pub fn population_in_words(population: &str) -> String {
    match population {
        PEOPLE_AND_PROGRAMS => "people and programs at one table".to_string(),
        p => p.to_string(),
    }
}

impl TrainedOn {
    /// The third of a game from which the model's chances are shown for games of `population` at a table of
    /// `seats`: the first from which, in every third on, held-out games showed it knowing more than equal
    /// chances (the interval above no gain). Why none, in words, where there is no such third.
    pub fn shown_from(&self, population: &str, seats: usize) -> Result<usize, String> {
        let who = format!("games played by {} at a table of {seats}", population_in_words(population));
        let cells: Vec<&Validated> =
            self.validated.iter().filter(|v| v.played_by == population && v.seats == seats).collect();
        let held_out = cells.iter().map(|v| v.games).max().unwrap_or(0);
        if held_out == 0 {
            return Err(format!("the model was not tried on any of the {who} it did not learn from"));
        }
        if held_out < FEWEST_HELD_OUT {
            return Err(format!(
                "the model was tried on only {held_out} of the {who} it did not learn from, too few to show it knows more than equal chances there (it takes {FEWEST_HELD_OUT})"
            ));
        }
        let gains = |k: usize| cells.iter().any(|v| v.third == k && v.games >= FEWEST_HELD_OUT && v.low > 0.0);
        match (0..3).find(|&k| (k..3).all(gains)) {
            Some(k) => Ok(k),
            None => Err(format!(
                "on {held_out} of the {who} it did not learn from, the model was not shown to know more than equal chances late in the game"
            )),
        }
    }

    /// Whether a set-up model knows more than equal chances for games of `population` at a table of
    /// `seats`: its held-out set-up positions (all in the first third of a game) gained over them; why not,
    /// in words.
    pub fn knows_set_up(&self, population: &str, seats: usize) -> Result<(), String> {
        let who = format!("games played by {} at a table of {seats}", population_in_words(population));
        let cell = self.validated.iter().find(|v| v.played_by == population && v.seats == seats && v.third == 0);
        match cell {
            None => Err(format!("the set-up model was not tried on any of the {who} it did not learn from")),
            Some(v) if v.games < FEWEST_HELD_OUT => Err(format!(
                "the set-up model was tried on only {} of the {who} it did not learn from (it takes {FEWEST_HELD_OUT})",
                v.games
            )),
            Some(v) if v.low <= 0.0 => Err(format!(
                "on {} of the {who} it did not learn from, the set-up model was not shown to know more than equal chances",
                v.games
            )),
            Some(_) => Ok(()),
        }
    }

    /// Whether the model learnt from any game of `population`; none where who played was not counted.
    pub fn saw(&self, population: &str) -> Option<bool> {
        (!self.played_by.is_empty()).then(|| self.played_by.get(population).is_some_and(|&n| n > 0))
    }

    /// What the model learnt from, in words: "learnt from 241 games: 200 played by program A, 37 by
    /// program B, 4 by people" (the most first).
    pub fn in_words(&self) -> String {
        let games = |n: usize| if n == 1 { "1 game".to_string() } else { format!("{n} games") };
        if self.played_by.is_empty() {
            return format!("learnt from {} (who played them was not counted)", games(self.games));
        }
        let mut by: Vec<(&String, &usize)> = self.played_by.iter().collect();
        by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        if by.len() == 1 {
            return format!("learnt from {}, all played by {}", games(self.games), population_in_words(by[0].0));
        }
        let parts: Vec<String> = by
            .iter()
            .enumerate()
            .map(|(k, (who, n))| {
                let played = if k == 0 { "played " } else { "" };
                format!("{n} {played}by {}", population_in_words(who))
            })
            .collect();
        format!("learnt from {}: {}", games(self.games), parts.join(", "))
    }
}

pub(crate) fn softmax(u: &[f64]) -> Vec<f64> {
    let top = u.iter().copied().fold(f64::MIN, f64::max);
    let e: Vec<f64> = u.iter().map(|x| (x - top).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|x| x / sum).collect()
}

impl Model {
    /// The design row of one seat: its scaled features, then the same times the progress.
    pub(crate) fn row(&self, position: &Position, seat: usize) -> Vec<f64> {
        let f = self.features.len();
        let mut x = Vec::with_capacity(2 * f);
        for k in 0..f {
            x.push((position.seats[seat][k] - self.mean[k]) / self.scale[k]);
        }
        for k in 0..f {
            x.push(x[k] * position.progress);
        }
        x
    }

    /// Each seat's utility in `position`: the softmax over them is the chances.
    pub(crate) fn utilities(&self, position: &Position) -> Vec<f64> {
        let sharpness = self.sharpness_at(position.progress);
        (0..position.seats.len())
            .map(|s| sharpness * self.row(position, s).iter().zip(&self.weights).map(|(x, w)| x * w).sum::<f64>())
            .collect()
    }

    /// What the utilities are multiplied by at `progress`.
    fn sharpness_at(&self, progress: f64) -> f64 {
        let [start, end] = self.sharpness;
        start + (end - start) * progress.clamp(0.0, 1.0)
    }

    /// Each seat's chance to win from `position`.
    pub fn chances(&self, position: &Position) -> Vec<f64> {
        softmax(&self.utilities(position))
    }

    /// One seat's chance to win from `position`, as `chances` gives it, without a list of rows: what a
    /// search that reads thousands of positions per decision asks.
    pub fn chance_of(&self, position: &Position, seat: usize) -> f64 {
        let n = position.seats.len();
        if seat >= n || n > 8 {
            return self.chances(position).get(seat).copied().unwrap_or(0.0);
        }
        let f = self.features.len();
        let sharpness = self.sharpness_at(position.progress);
        let mut u = [0.0f64; 8];
        for (s, x) in position.seats.iter().enumerate() {
            let mut sum = 0.0;
            for k in 0..f {
                let z = (x[k] - self.mean[k]) / self.scale[k];
                sum += z * (self.weights[k] + self.weights[f + k] * position.progress);
            }
            u[s] = sharpness * sum;
        }
        let top = u[..n].iter().copied().fold(f64::MIN, f64::max);
        let total: f64 = u[..n].iter().map(|x| (x - top).exp()).sum();
        (u[seat] - top).exp() / total
    }

    /// The model with every utility divided by `temperature` (its weights, and their covariance as the
    /// square): chances less sure above 1, surer below.
    pub fn tempered(mut self, temperature: f64) -> Model {
        self.weights.iter_mut().for_each(|w| *w /= temperature);
        self.covariance.iter_mut().for_each(|c| *c /= temperature * temperature);
        self.trained_on.temperature *= temperature;
        self
    }

    /// The model as it reads games of `population` at a table of `seats`: sharpened as that population's
    /// held-out games said, where they said (`TrainedOn::sharpened`); as it is elsewhere.
    pub fn for_population(&self, population: &str, seats: usize) -> Model {
        let cell = self.trained_on.sharpened.iter().find(|t| t.played_by == population && t.seats == seats);
        let mut model = self.clone();
        model.sharpness = cell.map_or_else(unsharpened, |t| t.sharpness);
        model
    }

    /// `for_population` for the population and table of `game`.
    pub fn for_game(&self, game: &dyn Game) -> Model {
        self.for_population(&played_by(game), game.envelope().players.len())
    }

    /// Each seat's chance from `position` and its standard error (by the delta method, from the weights'
    /// covariance): how far the chance could be from what the games behind the model say.
    pub fn chances_with_spread(&self, position: &Position) -> Vec<(f64, f64)> {
        let rows: Vec<Vec<f64>> = (0..position.seats.len()).map(|s| self.row(position, s)).collect();
        let p = self.chances(position);
        let d = self.weights.len();
        if self.covariance.len() != d * d {
            return p.into_iter().map(|c| (c, f64::NAN)).collect();
        }
        let mean: Vec<f64> = (0..d).map(|k| rows.iter().zip(&p).map(|(x, ps)| ps * x[k]).sum()).collect();
        (0..rows.len())
            .map(|s| {
                // The chance's gradient in the weights: c p_s (x_s − Σ_j p_j x_j), c the sharpness here.
                let c = self.sharpness_at(position.progress);
                let g: Vec<f64> = (0..d).map(|k| c * p[s] * (rows[s][k] - mean[k])).collect();
                let var: f64 =
                    (0..d).map(|a| g[a] * (0..d).map(|b| self.covariance[a * d + b] * g[b]).sum::<f64>()).sum();
                (p[s], var.max(0.0).sqrt())
            })
            .collect()
    }

    /// The gradient of `seat`'s chance at `position` in the weights (c p_s (x_s − Σ_j p_j x_j), c the
    /// sharpness there): how the chance moves with each weight.
    fn gradient(&self, position: &Position, seat: usize) -> Vec<f64> {
        let rows: Vec<Vec<f64>> = (0..position.seats.len()).map(|s| self.row(position, s)).collect();
        let p = self.chances(position);
        let d = self.weights.len();
        let c = self.sharpness_at(position.progress);
        (0..d)
            .map(|k| c * p[seat] * (rows[seat][k] - rows.iter().zip(&p).map(|(x, ps)| ps * x[k]).sum::<f64>()))
            .collect()
    }

    /// The standard error of the difference between `seat`'s chances at `a` and at `b` (the delta method,
    /// from the weights' covariance): how sure the model is that one is worth more than the other. Much of
    /// what the model could get wrong moves both alike, so this is far smaller than either chance's spread.
    /// NaN where the model keeps no covariance.
    pub fn spread_of_difference(&self, a: &Position, b: &Position, seat: usize) -> f64 {
        let d = self.weights.len();
        if self.covariance.len() != d * d || seat >= a.seats.len() || seat >= b.seats.len() {
            return f64::NAN;
        }
        let (ga, gb) = (self.gradient(a, seat), self.gradient(b, seat));
        let g: Vec<f64> = ga.iter().zip(&gb).map(|(x, y)| x - y).collect();
        let var: f64 = (0..d).map(|i| g[i] * (0..d).map(|j| self.covariance[i * d + j] * g[j]).sum::<f64>()).sum();
        var.max(0.0).sqrt()
    }

    /// The chances of every position of a game (the start, then after each event); a finished game's last
    /// position gives its winner 1.
    pub fn chances_of(&self, game: &dyn Game) -> Vec<Vec<f64>> {
        let mut out: Vec<Vec<f64>> = game.positions().iter().map(|p| self.chances(p)).collect();
        settle(game, &mut out, |s, w| if s == w { 1.0 } else { 0.0 });
        out
    }

    /// `chances_of` and each chance's standard error (`chances_with_spread`), from one pass over the
    /// game's positions; at a finished game's end the spread is 0.
    pub fn chances_and_spread_of(&self, game: &dyn Game) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        self.chances_and_spread_at(game, &game.positions())
    }

    /// `chances_and_spread_of`, from the game's positions already read (`Game::positions`).
    pub fn chances_and_spread_at(&self, game: &dyn Game, positions: &[Position]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let (mut chances, mut spread): (Vec<Vec<f64>>, Vec<Vec<f64>>) =
            positions.iter().map(|p| self.chances_with_spread(p).into_iter().unzip()).unzip();
        settle(game, &mut chances, |s, w| if s == w { 1.0 } else { 0.0 });
        settle(game, &mut spread, |_, _| 0.0);
        (chances, spread)
    }
}

/// Sets a finished game's positions from the event that ended it on (the rules name the winner there,
/// though a record may go on with cards shown) to what the end says: `value(seat, winner)` for every seat.
pub(crate) fn settle(game: &dyn Game, by_event: &mut [Vec<f64>], value: impl Fn(usize, usize) -> f64) {
    let Some(w) = game.winner() else { return };
    let over = (0..game.event_count())
        .find(|&i| game.event_facts(i).iter().any(|f| matches!(f, Fact::GameOver { .. })))
        .map_or(by_event.len().saturating_sub(1), |i| i + 1);
    for row in by_event.iter_mut().skip(over) {
        for (s, c) in row.iter_mut().enumerate() {
            *c = value(s, w as usize);
        }
    }
}

/// The positions of a game whose chances are not shown: the first `until` (the start and the events before
/// the position `until`), and why, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Withheld {
    pub until: usize,
    pub why: String,
}

/// Why a set-up's chances are not shown.
pub const SET_UP: &str =
    "No chances during the set-up: the model learnt from positions at the end of a turn, and a half-built set-up is none of them.";

/// Where a game's chances (`positions`, the start and after every event) are not shown, and why. The set-up
/// (turn 0) is a position the model never saw, so its chances are withheld up to the position where the
/// first turn begins. Past it, chances are shown from the third of the game on where held-out games of its
/// population and table size showed the model knowing more than equal chances (`TrainedOn::shown_from`);
/// before it, or in the whole game where there is no such third, they are withheld, and the answer says why.
pub fn withheld(game: &dyn Game, model: &Model, positions: &[Position]) -> Option<Withheld> {
    let count = game.event_count();
    let set_up = (0..count).take_while(|&i| game.event_turn(i) == 0).count();
    let set_up = if set_up == count { positions.len() } else { set_up };
    let population = played_by(game);
    let seats = game.envelope().players.len();
    match model.trained_on.shown_from(&population, seats) {
        Err(why) => Some(Withheld {
            until: positions.len(),
            why: format!("No chances for this game: {why} (it {}).", model.trained_on.in_words()),
        }),
        Ok(0) => (set_up > 0).then(|| Withheld { until: set_up, why: SET_UP.to_string() }),
        Ok(k) => {
            let from = positions.iter().position(|p| third(p.progress) >= k).unwrap_or(positions.len()).max(set_up);
            let turn = if from < positions.len() && from > 0 { game.event_turn(from - 1) } else { 0 };
            let thirds = if k == 1 { "first third" } else { "first two thirds" };
            Some(Withheld {
                until: from,
                why: format!(
                    "No chances before turn {turn}: in the {thirds} of games played by {} at a table of {seats} (by how near the leader is to winning), the model was not shown to know more than equal chances on games it did not learn from.",
                    population_in_words(&population)
                ),
            })
        }
    }
}
