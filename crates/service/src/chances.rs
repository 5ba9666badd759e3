//! Win chances as the service offers them: a model trained from the store's published games and kept in
//! it, and a game's chances at every event read with its ruleset's model.

use crate::{game_kind, list, on_every_core, read_stored, ServiceError};
use almanac_analysis::chances;
pub use almanac_analysis::chances::Model;
pub use almanac_analysis::chances::Withheld;
use almanac_analysis::training::{self, GameSamples, NoModel};
use almanac_analysis::{decisions, read_model};
use almanac_core::{Game, JudgedDecision};
use almanac_store::{GameFilter, Store, Viewer, WinModel};
use serde::Serialize;

/// Why a game shows no chances, in words for the page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoChances {
    #[error("{game} has no win-chance model yet: `almanac train --db DB --ruleset {ruleset}` trains one from the published games")]
    Untrained { game: &'static str, ruleset: String },
    #[error("{game} declares nothing a position is made of, so it has no win chances")]
    NoFeatures { game: &'static str },
    #[error("the {game} model was made by another version of Almanac: train it again")]
    Outdated { game: &'static str },
    #[error("the stored {game} model does not read back ({why}): train it again")]
    Malformed { game: &'static str, why: String },
}

/// A trained model and what it was trained on.
pub struct Trained {
    pub model: Model,
    /// Finished games learnt from; published games without a winner are left out.
    pub games: usize,
    pub unfinished: usize,
    /// The ruleset's stored games whose read model was derived again with the new model (every one, so
    /// that the questions read the chances of this model only), and those that could not be.
    pub rederived: usize,
    pub failed: Vec<(String, ServiceError)>,
}

/// Why `train` made no model.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("{0}")]
    Service(#[from] ServiceError),
    #[error("unknown ruleset `{0}`")]
    UnknownRuleset(String),
    #[error("no model for {game}: {why}")]
    NoModel { game: &'static str, why: NoModel },
    #[error("no model kept for {game}: the model made would not read back ({why})")]
    Unreadable { game: &'static str, why: String },
}

/// A published game's id and its stored log (header line, event lines): what a model learns from.
pub type PublishedLog = (String, (String, Vec<String>));

/// The logs of `ruleset`'s published games, each game once (of `club`'s own records only, if given).
pub fn published_logs(store: &Store, ruleset: &str, club: Option<&str>) -> Result<Vec<PublishedLog>, TrainError> {
    game_kind(ruleset).ok_or_else(|| TrainError::UnknownRuleset(ruleset.to_string()))?;
    // Every published game: pages of a list have no end here.
    let filter = GameFilter {
        viewer: Viewer::Public,
        ruleset: Some(ruleset.to_string()),
        limit: Some(u32::MAX),
        ..GameFilter::default()
    };
    // Each game once: the record of it that counts for the public (a copy another club also published would
    // teach the model the same game twice); a club's own records when training for a club.
    let rows: Vec<_> =
        list(store, &filter)?.into_iter().filter(|g| club.is_none_or(|c| g.owner.as_deref() == Some(c))).collect();
    let mut logs = Vec::with_capacity(rows.len());
    for row in &rows {
        let stored = store.stored(&row.id).map_err(ServiceError::from)?;
        if club.is_none() && !store.recordings(&stored).map_err(ServiceError::from)?.0 {
            continue;
        }
        logs.push((row.id.clone(), store.log(&stored).map_err(ServiceError::from)?));
    }
    Ok(logs)
}

/// Trains `ruleset`'s model on `logs` (see [`published_logs`]) and keeps it in the store, where it is the
/// ruleset's model from then on; `progress` hears of each game read.
pub fn train(
    store: &mut Store,
    ruleset: &str,
    logs: Vec<PublishedLog>,
    progress: impl Fn() + Sync,
) -> Result<Trained, TrainError> {
    let kind = game_kind(ruleset).ok_or_else(|| TrainError::UnknownRuleset(ruleset.to_string()))?;
    let read: Vec<Result<GameSamples, ServiceError>> = on_every_core(logs, |(id, (header, events))| {
        let game = read_stored(&id, header, events).map(|g| GameSamples::of(g.as_ref()));
        progress();
        game
    });
    let mut unfinished = 0;
    let mut finished = Vec::new();
    for r in read {
        let game = r?;
        if game.samples.is_empty() {
            unfinished += 1;
        } else {
            finished.push(game);
        }
    }
    let features: Vec<&str> = kind.features().iter().map(|f| f.id).collect();
    let model = training::train_games(ruleset, kind.version(), &features, finished)
        .map_err(|why| TrainError::NoModel { game: kind.name(), why })?;
    let games = model.trained_on.games;
    let body = serde_json::to_string(&model).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let stored = WinModel {
        id: 0,
        ruleset: ruleset.to_string(),
        version: model.version,
        games: games as u64,
        positions: model.trained_on.positions as u64,
        trained_at: String::new(),
        body,
    };
    // A model that would not read back is not kept: it would be no chances, or wrong ones.
    match readable(&stored) {
        Ok(_) => {}
        Err(Unreadable::Malformed(why)) => return Err(TrainError::Unreadable { game: kind.name(), why }),
        Err(Unreadable::Outdated) => {
            return Err(TrainError::Unreadable { game: kind.name(), why: "it is not of this build's form".into() })
        }
    }
    store.save_model(&stored).map_err(ServiceError::from)?;
    // Every game of the ruleset is derived again with it. Should this be cut short (a crash), the games not
    // yet derived name the older model (`Insights::chances_model`), so the next server derives them.
    let ids = crate::games_to_reproject(store, Some(ruleset), true)?;
    let report = crate::reproject(store, &ids, |_| {});
    Ok(Trained { model, games, unfinished, rederived: report.done.len(), failed: report.failed })
}

/// A ruleset's model as the store keeps it, read; or why there is none to read with.
pub fn model(store: &Store, ruleset: &str) -> Result<Result<(Model, String), NoChances>, ServiceError> {
    let Some(kind) = game_kind(ruleset) else {
        return Err(ServiceError::Question(format!("unknown ruleset `{ruleset}`")));
    };
    if kind.features().is_empty() {
        return Ok(Err(NoChances::NoFeatures { game: kind.name() }));
    }
    let Some(stored) = store.model(ruleset)? else {
        return Ok(Err(NoChances::Untrained { game: kind.name(), ruleset: ruleset.to_string() }));
    };
    match readable(&stored) {
        Ok(m) => Ok(Ok((m, stored.trained_at))),
        Err(Unreadable::Outdated) => Ok(Err(NoChances::Outdated { game: kind.name() })),
        Err(Unreadable::Malformed(why)) => Ok(Err(NoChances::Malformed { game: kind.name(), why })),
    }
}

/// Why a stored model is not read.
enum Unreadable {
    /// Another version of Almanac made it, or its ruleset's features changed since.
    Outdated,
    /// It does not read back as a model: what is wrong with it.
    Malformed(String),
}

/// A stored model read back, if this build reads it (its version, its ruleset's features) and it is whole:
/// every part of the size its features make it (the covariance may be left out), every number finite, every
/// scale above 0, the weights and the covariance each adding up to a finite number.
fn readable(stored: &WinModel) -> Result<Model, Unreadable> {
    let m: Model =
        serde_json::from_str(&stored.body).map_err(|e| Unreadable::Malformed(format!("it is not a model: {e}")))?;
    let features: Vec<&str> =
        game_kind(&stored.ruleset).map_or(Vec::new(), |k| k.features().iter().map(|f| f.id).collect());
    if m.version != chances::MODEL_VERSION || m.features != features {
        return Err(Unreadable::Outdated);
    }
    let f = features.len();
    for (part, numbers, wanted) in [
        ("mean", &m.mean, f),
        ("scale", &m.scale, f),
        ("weights", &m.weights, 2 * f),
        ("covariance", &m.covariance, 4 * f * f),
    ] {
        // A model without its covariance reads (its chances without a spread).
        if numbers.len() != wanted && !(part == "covariance" && numbers.is_empty()) {
            return Err(Unreadable::Malformed(format!("its {part} has {} numbers, not {wanted}", numbers.len())));
        }
        if let Some(k) = numbers.iter().position(|x| !x.is_finite()) {
            return Err(Unreadable::Malformed(format!("its {part}'s number {} is not a finite number", k + 1)));
        }
    }
    if let Some(k) = m.scale.iter().position(|s| *s <= 0.0) {
        return Err(Unreadable::Malformed(format!("its scale's number {} is not above 0", k + 1)));
    }
    // Numbers finite one by one may overflow together: a chance adds the weights up, its spread the
    // covariance (1e308 twice is no number, and the chances would all be lost).
    for (part, numbers) in [("weights", &m.weights), ("covariance", &m.covariance)] {
        if !numbers.iter().map(|x| x.abs()).sum::<f64>().is_finite() {
            return Err(Unreadable::Malformed(format!("its {part} add up to more than a number holds")));
        }
    }
    Ok(m)
}

/// A game's win chances: each seat's at the start and after every event, the events that moved them most,
/// and what the model learnt from.
#[derive(Debug, Clone, Serialize)]
pub struct Chances {
    pub players: Vec<String>,
    /// `by_event[i][seat]`: the chance after the first `i` events; none where the model has not been shown
    /// to know anything (`withheld` says where and why). Sent to four decimal places.
    #[serde(serialize_with = "four_places")]
    pub by_event: Vec<Option<Vec<f64>>>,
    /// `spread[i][seat]`: its standard error, from the games behind the model (0 at a finished game's end).
    /// Sent to four decimal places.
    #[serde(serialize_with = "four_places")]
    pub spread: Vec<Option<Vec<f64>>>,
    /// Where chances are not shown, and why.
    pub withheld: Option<Withheld>,
    pub turning_points: Vec<TurningPoint>,
    /// Each seat's own marked decisions (an inaccuracy or worse) that lost the most chance against the best
    /// the rules allowed then: the turns to study, the costliest first.
    pub to_study: Vec<Vec<Studied>>,
    /// Every decision judged (a player's own, its alternatives listed, where chances are shown), marked.
    pub decisions: Vec<Studied>,
    /// Each seat's accuracy, in the order of `players`.
    pub accuracy: Vec<SeatAccuracy>,
    pub model: ModelSummary,
}

/// A game's chances as sent: to four decimal places (a hundredth of a percentage point, finer than any page
/// shows), about a third of the bytes sixteen digits take; a game's chances are most of its replay's data.
fn four_places<S: serde::Serializer>(rows: &[Option<Vec<f64>>], to: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = to.serialize_seq(Some(rows.len()))?;
    for row in rows {
        seq.serialize_element(&row.as_ref().map(|r| r.iter().map(|x| (x * 1e4).round() / 1e4).collect::<Vec<f64>>()))?;
    }
    seq.end()
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelSummary {
    pub games: usize,
    pub positions: usize,
    /// Its games by who played them (`people`, `people and programs`, or the program that played every
    /// seat); empty where it was not counted when the model was kept.
    pub played_by: std::collections::BTreeMap<String, usize>,
    /// What the model learnt from, in words, for a caption under the chances.
    pub learnt_from: String,
    pub trained_at: String,
    pub version: u32,
}

/// An event after which a seat's chance moved most.
#[derive(Debug, Clone, Serialize)]
pub struct TurningPoint {
    pub seq: u64,
    pub turn: u32,
    pub player: String,
    pub before: f64,
    pub after: f64,
}

/// One of a seat's own decisions against the best alternative the rules allowed then.
#[derive(Debug, Clone, Serialize)]
pub struct Studied {
    pub seq: u64,
    pub turn: u32,
    pub player: String,
    /// The seat's chance before the decision, and after it as the game went (a card drawn as drawn).
    pub before: f64,
    pub after: f64,
    /// What the decision was worth (the expectation over what it could draw), and the best alternative's
    /// worth.
    pub chosen: f64,
    pub best: f64,
    /// The chance lost against the best; the loss relative to the stakes, in the points of an even
    /// two-player game (`decisions::points_lost`), with its standard error from the model; the decision's
    /// accuracy (0–100) and its mark (`mark`).
    pub lost: f64,
    pub points: f64,
    pub points_spread: Option<f64>,
    pub accuracy: f64,
    /// Which phase of the game it was made in (`PHASES`).
    pub phase: &'static str,
    pub mark: &'static str,
    /// The best alternative in words, after the player's name, and as its log line.
    pub best_words: String,
    pub best_line: String,
    /// How many alternatives the rules allowed (the decision among them).
    pub alternatives: usize,
}

/// How a decision is marked: by its loss relative to the stakes and the model's uncertainty of it (see
/// `almanac_analysis::decisions::mark`).
pub fn mark(chosen: f64, best: f64, spread: f64) -> &'static str {
    decisions::marked(chosen, best, spread)
}

/// One seat's decisions in a game, summed up: its accuracy overall and in each phase of the game, and how
/// many of each mark.
#[derive(Debug, Clone, Serialize)]
pub struct SeatAccuracy {
    pub player: String,
    /// The mean accuracy (0–100) of its judged decisions, and how many there were; none without one.
    pub overall: Option<f64>,
    pub decisions: usize,
    /// By phase: `set-up`, `early`, `middle`, `late` (the thirds of the game by how near the leader is to
    /// winning), each with its mean accuracy and its decisions.
    pub phases: Vec<PhaseAccuracy>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhaseAccuracy {
    pub phase: &'static str,
    pub accuracy: Option<f64>,
    pub decisions: usize,
}

/// The phases of a game a seat's accuracy is told by.
pub const PHASES: [&str; 4] = ["set-up", "early", "middle", "late"];

/// How much of a swing (`now`) still stood later (`later`, from the same position before it): none when
/// it was undone or turned the other way.
fn lasting(now: f64, later: f64) -> f64 {
    if now * later <= 0.0 {
        0.0
    } else {
        now.signum() * now.abs().min(later.abs())
    }
}

/// How many turning points a game lists.
const TURNING_POINTS: usize = 6;
/// How many of its own costliest decisions each seat is shown.
const TO_STUDY: usize = 3;

/// The chances of `game` read with `model`; its decisions as `judged` holds them (the read model's, judged
/// with this model), or judged now.
pub fn chances_of(game: &dyn Game, model: &Model, trained_at: &str, judged: Option<Vec<JudgedDecision>>) -> Chances {
    let model = &model.for_game(game);
    let positions = game.positions();
    let (by_event, mut spread) = model.chances_and_spread_at(game, &positions);
    let withheld = chances::withheld(game, model, &positions);
    let until = withheld.as_ref().map_or(0, |w| w.until);
    // Four decimals say a spread well enough, and keep the answer short.
    spread.iter_mut().flatten().for_each(|se| *se = (*se * 1e4).round() / 1e4);
    let players: Vec<String> = game.envelope().players.iter().map(|p| p.name.clone()).collect();
    // Every event's largest move that lasted, the largest first: a swing counts as far as it still stood a
    // round later (at the end of the turn as many turns on as there are players), so a robber's swing the
    // next turns undo is no turning point. The final event (which only says who won) is left out, and so is
    // turn 0 (a game's setup, where seats place one after another and chances swing by turns).
    let round = players.len().max(1) as u32;
    let mut moves: Vec<(usize, usize, f64)> = (1..by_event.len().saturating_sub(1))
        .filter(|&i| game.event_turn(i - 1) > 0 && i > until)
        .filter_map(|i| {
            let later = game.events_through_turn(game.event_turn(i - 1) + round).clamp(i, by_event.len() - 1);
            (0..players.len())
                .map(|s| (i, s, lasting(by_event[i][s] - by_event[i - 1][s], by_event[later][s] - by_event[i - 1][s])))
                .max_by(|a, b| a.2.abs().total_cmp(&b.2.abs()))
        })
        .filter(|m| m.2 != 0.0)
        .collect();
    moves.sort_by(|a, b| b.2.abs().total_cmp(&a.2.abs()));
    let mut turning_points: Vec<TurningPoint> = moves
        .into_iter()
        .take(TURNING_POINTS)
        .map(|(i, s, _)| TurningPoint {
            seq: i as u64,
            turn: game.event_turn(i - 1),
            player: players[s].clone(),
            before: by_event[i - 1][s],
            after: by_event[i][s],
        })
        .collect();
    turning_points.sort_by_key(|t| t.seq);
    // Each seat's own decisions (not a roll, not a discard the rules force: the game says which are) against
    // the best the rules allowed then, the costliest first; not the setup, not the last event (which only
    // says who won), not where chances are withheld.
    let judged = judged.unwrap_or_else(|| read_model::judged_decisions(model, game, until));
    let mut studied: Vec<Vec<Studied>> = vec![Vec::new(); players.len()];
    let mut decisions = Vec::with_capacity(judged.len());
    for judged in judged.into_iter().filter(|j| (j.seat as usize) < players.len() && (j.seq as usize) < by_event.len())
    {
        let i = judged.seq as usize;
        let seat = judged.seat as usize;
        let lost = (judged.best - judged.chosen).max(0.0);
        let points = decisions::points_lost(judged.chosen, judged.best);
        let points_spread = decisions::points_spread(judged.chosen, judged.spread);
        let phase =
            if game.event_turn(i - 1) == 0 { PHASES[0] } else { PHASES[1 + chances::third(positions[i - 1].progress)] };
        let decision = Studied {
            seq: judged.seq,
            turn: game.event_turn(i - 1),
            player: players[seat].clone(),
            before: by_event[i - 1][seat],
            after: by_event[i][seat],
            chosen: judged.chosen,
            best: judged.best,
            lost,
            points,
            points_spread: points_spread.is_finite().then_some((points_spread * 100.0).round() / 100.0),
            accuracy: decisions::accuracy(points),
            phase,
            mark: mark(judged.chosen, judged.best, judged.spread),
            best_words: judged.best_words,
            best_line: judged.best_line,
            alternatives: judged.alternatives as usize,
        };
        // Only the decisions marked (an inaccuracy or worse): a "good" one is not a turn to study.
        if !matches!(decision.mark, "best" | "good") {
            studied[seat].push(decision.clone());
        }
        decisions.push(decision);
    }
    let to_study = studied
        .into_iter()
        .map(|mut list| {
            list.sort_by(|a, b| b.points.total_cmp(&a.points));
            list.truncate(TO_STUDY);
            list
        })
        .collect();
    let shown = |rows: Vec<Vec<f64>>| -> Vec<Option<Vec<f64>>> {
        rows.into_iter().enumerate().map(|(i, row)| (i >= until).then_some(row)).collect()
    };
    let accuracy = players
        .iter()
        .map(|player| {
            let mine: Vec<&Studied> = decisions.iter().filter(|d| d.player == *player).collect();
            let mean = |of: &[&&Studied]| {
                (!of.is_empty()).then(|| of.iter().map(|d| d.accuracy).sum::<f64>() / of.len() as f64)
            };
            let all: Vec<&&Studied> = mine.iter().collect();
            let count = |m: &str| mine.iter().filter(|d| d.mark == m).count();
            SeatAccuracy {
                player: player.clone(),
                overall: mean(&all),
                decisions: mine.len(),
                phases: PHASES
                    .iter()
                    .map(|&phase| {
                        let of: Vec<&&Studied> = mine.iter().filter(|d| d.phase == phase).collect();
                        PhaseAccuracy { phase, accuracy: mean(&of), decisions: of.len() }
                    })
                    .collect(),
                inaccuracies: count("inaccuracy"),
                mistakes: count("mistake"),
                blunders: count("blunder"),
            }
        })
        .collect();
    Chances {
        accuracy,
        players,
        by_event: shown(by_event),
        spread: shown(spread),
        withheld,
        turning_points,
        to_study,
        decisions,
        model: ModelSummary {
            games: model.trained_on.games,
            positions: model.trained_on.positions,
            played_by: model.trained_on.played_by.clone(),
            learnt_from: model.trained_on.in_words(),
            trained_at: trained_at.to_string(),
            version: model.version,
        },
    }
}

/// The win-chance chart of a game: each seat's chance at the end of every turn, its turning points marked.
pub fn chart(game: &dyn Game, chances: &Chances) -> Result<String, ServiceError> {
    let turns = game.current_turn();
    // Each turn's end, from the set-up's (turn 0) on; none where the chances are withheld.
    let at_end = |rows: &[Option<Vec<f64>>]| -> Vec<Option<Vec<f64>>> {
        (0..=turns).map(|t| rows[game.events_through_turn(t).min(rows.len() - 1)].clone()).collect()
    };
    let (by_turn, spread) = (at_end(&chances.by_event), at_end(&chances.spread));
    let marks: Vec<(u32, String)> = chances
        .turning_points
        .iter()
        .map(|t| (t.turn, format!("{}'s chance {:.0}% → {:.0}%", t.player, t.before * 100.0, t.after * 100.0)))
        .collect();
    let colors: Vec<Option<String>> = game.envelope().players.iter().map(|p| p.color.clone()).collect();
    Ok(almanac_charts::win_chances(&chances.players, &colors, &by_turn, &spread, &marks)?)
}

/// Every ruleset's model the store keeps (those read with this build's model version), for deriving the
/// read model's chance numbers of many games without asking the store for each; and each ruleset's newest
/// stored model's id, read or not, which the numbers name (`Insights::chances_model`).
#[derive(Debug, Clone, Default)]
pub struct Models {
    read: std::collections::BTreeMap<String, Model>,
    newest: std::collections::BTreeMap<String, i64>,
}

impl Models {
    /// None: what a game stored before any model was trained is derived with.
    pub fn none() -> Models {
        Models::default()
    }

    /// The model of one ruleset, if the store keeps one.
    pub fn of(store: &Store, ruleset: &str) -> Result<Models, almanac_store::StoreError> {
        let mut models = Models::default();
        if let Some(stored) = store.model(ruleset)? {
            models.newest.insert(ruleset.to_string(), stored.id);
            if let Ok(m) = readable(&stored) {
                models.read.insert(ruleset.to_string(), m);
            }
        }
        Ok(models)
    }

    pub fn load(store: &Store) -> Result<Models, ServiceError> {
        let mut models = Models::default();
        for kind in crate::GAMES.iter().filter(|g| !g.features().is_empty()) {
            let one = Models::of(store, kind.id())?;
            models.read.extend(one.read);
            models.newest.extend(one.newest);
        }
        Ok(models)
    }

    /// Adds the chance numbers of a finished game to its read model, where its ruleset has a model, and names
    /// the model they were read with.
    pub fn add_to(&self, insights: &mut almanac_core::Insights, game: &dyn Game) {
        insights.chances_model = self.newest.get(game.ruleset()).copied();
        if let Some(m) = self.read.get(game.ruleset()) {
            let (metrics, decisions) = read_model::numbers(&m.for_game(game), game);
            insights.metrics.extend(metrics);
            insights.decisions = decisions;
        }
    }
}
