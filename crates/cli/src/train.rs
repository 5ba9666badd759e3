//! `almanac train`: a win-chance model learned from finished games, and `--evaluate`: how well it predicts
//! games it did not see, against equal chances and a softmax of the points.

use crate::commands::{check_file, in_folders, progress};
use almanac_analysis::chances::{self, Model};
use almanac_analysis::evaluation::{self, Evaluation, Read, Thirds};
use almanac_analysis::training::{self, GameSamples, NoModel, Sample};
use almanac_service::Reading;
use std::path::{Path, PathBuf};

/// What to learn from and what to report.
pub struct Train<'a> {
    pub reading: Reading,
    /// Records to learn from (a folder stands for its files).
    pub logs: &'a [PathBuf],
    /// Records to evaluate on instead of a fifth of `logs` held out.
    pub test: &'a [PathBuf],
    pub ruleset: Option<&'a str>,
    pub evaluate: bool,
    /// Each folder of `logs` a population: models learnt from each and from all, tried on every
    /// population's held-out games.
    pub matrix: bool,
    pub out: Option<&'a Path>,
    /// Only these of the game's features (ids; empty: all), to see what each adds.
    pub only: &'a [String],
}

/// The finished games among `files`, of one ruleset (the first file's, unless named), and how many files
/// could not be read.
fn read(reading: Reading, files: &[PathBuf], ruleset: &mut Option<String>) -> (usize, Vec<GameSamples>) {
    let bar = progress(files.len(), "games read");
    let read: Vec<Option<(String, GameSamples)>> = almanac_service::on_every_core(files.iter().collect(), |f| {
        let out = check_file(reading, f).ok().map(|log| {
            let game = &*log.game;
            (game.ruleset().to_string(), GameSamples::of(game))
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
        out
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut games = Vec::new();
    let mut rejected = 0;
    for r in read {
        match r {
            Some((id, played)) => {
                let wanted = ruleset.get_or_insert_with(|| id.clone());
                if *wanted == id && !played.samples.is_empty() {
                    games.push(played);
                }
            }
            None => rejected += 1,
        }
    }
    (rejected, games)
}

/// A model of `games` as `almanac train` keeps one, and the points baseline's weight on them.
fn learn(ruleset: &str, version: u32, features: &[&str], games: &[&GameSamples]) -> (Result<Model, NoModel>, f64) {
    let samples: Vec<Sample> = games.iter().flat_map(|g| g.samples.iter().cloned()).collect();
    let model = training::train_games(ruleset, version, features, games.iter().map(|&g| g.clone()).collect());
    (model, evaluation::points_weight(&samples))
}

/// `games` read as the server reads each: with the model as it reads the game's population and table.
fn read_by(model: &Model, points_weight: f64, games: &[&GameSamples]) -> Vec<Vec<Read>> {
    games
        .iter()
        .map(|g| evaluation::read(&model.for_population(&g.played_by, g.seats()), points_weight, &g.samples))
        .collect()
}

/// Trains the models of the database's published games (of one ruleset, or of every ruleset that declares
/// what its positions are made of) and keeps them in it.
pub fn from_store(db: &Path, ruleset: Option<&str>, club: Option<&str>) -> anyhow::Result<i32> {
    let mut store = almanac_store::Store::open(db)?;
    let rulesets: Vec<&str> = match ruleset {
        Some(r) => vec![r],
        None => almanac_service::GAMES.iter().filter(|g| !g.features().is_empty()).map(|g| g.id()).collect(),
    };
    let mut failed = 0;
    for r in rulesets {
        let logs = match almanac_service::chances::published_logs(&store, r, club) {
            Ok(logs) => logs,
            Err(e) => {
                failed += 1;
                eprintln!("{r}: {e}");
                continue;
            }
        };
        let bar = progress(logs.len(), "games read");
        let result = almanac_service::chances::train(&mut store, r, logs, || {
            if let Some(b) = &bar {
                b.inc(1);
            }
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        match result {
            Ok(t) => {
                println!(
                    "{r}: a model from {} finished games ({} positions; {} published games without a winner left out), kept in {}; {} games' chance numbers derived again",
                    t.games,
                    t.model.trained_on.positions,
                    t.unfinished,
                    db.display(),
                    t.rederived
                );
                for (id, e) in &t.failed {
                    failed += 1;
                    eprintln!("{r}: game {id} left as it was: {e}");
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("{r}: {e}");
            }
        }
    }
    Ok(i32::from(failed > 0))
}

pub fn run(t: Train) -> anyhow::Result<i32> {
    if t.matrix {
        return matrix(&t);
    }
    let mut ruleset = t.ruleset.map(str::to_string);
    let files = in_folders(t.logs)?;
    let (rejected, games) = read(t.reading, &files, &mut ruleset);
    let Some(ruleset) = ruleset else { anyhow::bail!("no game to learn from in {} files", files.len()) };
    let kind = almanac_service::game_kind(&ruleset).ok_or_else(|| anyhow::anyhow!("unknown ruleset `{ruleset}`"))?;
    eprintln!("{} finished {} games to learn from ({rejected} files not read)", games.len(), kind.name());
    let all: Vec<&str> = kind.features().iter().map(|f| f.id).collect();
    for id in t.only {
        if !all.contains(&id.as_str()) {
            anyhow::bail!("{} has no feature `{id}` (it has {})", kind.name(), all.join(", "));
        }
    }
    let kept: Vec<usize> =
        (0..all.len()).filter(|&k| t.only.is_empty() || t.only.iter().any(|o| o == all[k])).collect();
    let features: Vec<&str> = kept.iter().map(|&k| all[k]).collect();
    let labels: Vec<&str> = kept.iter().map(|&k| kind.features()[k].label).collect();
    let project = |games: Vec<GameSamples>| -> Vec<GameSamples> {
        games
            .into_iter()
            .map(|mut g| {
                for s in &mut g.samples {
                    for seat in &mut s.position.seats {
                        *seat = kept.iter().map(|&k| seat[k]).collect();
                    }
                }
                g
            })
            .collect()
    };
    // Without a test set of its own, every fifth game is held out.
    let (train, test): (Vec<GameSamples>, Vec<GameSamples>) = if t.test.is_empty() && t.evaluate {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (i, g) in games.into_iter().enumerate() {
            if i % 5 == 4 {
                b.push(g)
            } else {
                a.push(g)
            }
        }
        (a, b)
    } else {
        let test = if t.evaluate {
            let mut r = Some(ruleset.clone());
            read(t.reading, &in_folders(t.test)?, &mut r).1
        } else {
            Vec::new()
        };
        (games, test)
    };
    let (train, test) = (project(train), project(test));
    let (model, beta) = learn(&ruleset, kind.version(), &features, &train.iter().collect::<Vec<_>>());
    let model = match model {
        Ok(m) => m,
        Err(why) => {
            eprintln!("no model for {}: {why}", kind.name());
            return Ok(1);
        }
    };
    eprintln!(
        "trained on {} games, {} positions; temperature {:.3}{}",
        model.trained_on.games,
        model.trained_on.positions,
        model.trained_on.temperature,
        sharpness_in_words(&model)
    );
    eprintln!("  {:<40} {:>7} {:>7}", "feature", "weight", "× progress");
    for (k, label) in labels.iter().enumerate() {
        eprintln!("  {:<40} {:>7.3} {:>+7.3}", label, model.weights[k], model.weights[k + features.len()]);
    }
    if t.evaluate {
        let read = read_by(&model, beta, &test.iter().collect::<Vec<_>>());
        println!("evaluated on {} games, {} positions", test.len(), read.iter().map(Vec::len).sum::<usize>());
        print_evaluation(&evaluation::evaluate(&read));
        println!("points baseline weight: {beta:.3}");
        println!("gain over equal chances (log loss per position; 95 % interval, games resampled whole):");
        for g in evaluation::gain_over_equal(&read, Thirds::Events, 2000) {
            println!("{:<7} {:>+8.4} [{:+.4}, {:+.4}] over {} games", g.stage, g.gain, g.low, g.high, g.games);
        }
    }
    if let Some(out) = t.out {
        std::fs::write(out, serde_json::to_string_pretty(&model)?)?;
        eprintln!("model written to {}", out.display());
    }
    Ok(0)
}

/// The sharpness a model keeps per population, in words (empty where it keeps none).
fn sharpness_in_words(model: &Model) -> String {
    let each: Vec<String> = model
        .trained_on
        .sharpened
        .iter()
        .map(|t| format!("{} at {}: ×{:.3} → ×{:.3}", t.played_by, t.seats, t.sharpness[0], t.sharpness[1]))
        .collect();
    if each.is_empty() {
        String::new()
    } else {
        format!("; sharpness from a game's start to its end: {}", each.join(", "))
    }
}

/// How many parts `--matrix` cuts each population into: each part is held out once.
const PARTS: usize = 5;

/// `train --matrix`: each folder a population (its name the folder's). A model learnt from each population
/// and one from all of them pooled, each learnt [`PARTS`] times, every time with one part of every
/// population held out, so that every game is tried once by a model that neither learnt from it nor chose
/// anything with it (its temperature and sharpness come from the learning games' own cross-validation). On
/// every population's games, by table size and third of the game: log loss against equal chances and the
/// points, Brier score, the gain over equal chances with its game-level 95 % interval (by thirds of the
/// game's events, then of its progress, by which chances are shown), and the calibration's tenths, each
/// with its game-level interval.
fn matrix(t: &Train) -> anyhow::Result<i32> {
    let mut ruleset = t.ruleset.map(str::to_string);
    let mut populations: Vec<(String, Vec<GameSamples>)> = Vec::new();
    for dir in t.logs {
        let (rejected, mut games) = read(t.reading, &in_folders(std::slice::from_ref(dir))?, &mut ruleset);
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().to_string());
        eprintln!("{name}: {} finished games ({rejected} files not read)", games.len());
        // The folder names the population, whoever the records say played.
        games.iter_mut().for_each(|g| g.played_by = name.clone());
        populations.push((name, games));
    }
    let Some(ruleset) = ruleset else { anyhow::bail!("no game to learn from") };
    let kind = almanac_service::game_kind(&ruleset).ok_or_else(|| anyhow::anyhow!("unknown ruleset `{ruleset}`"))?;
    let features: Vec<&str> = kind.features().iter().map(|f| f.id).collect();
    let mut learners: Vec<(String, Vec<usize>)> =
        populations.iter().enumerate().map(|(k, (name, _))| (name.clone(), vec![k])).collect();
    if populations.len() > 1 {
        learners.push(("pooled".to_string(), (0..populations.len()).collect()));
    }
    println!(
        "{:<14} {:<14} {:>5} {:<7} {:>5} | {:>7} {:>7} {:>7} | {:>6} {:>6} | {:>26} | {:>26}",
        "learnt from",
        "tried on",
        "seats",
        "third",
        "games",
        "model",
        "equal",
        "points",
        "brier",
        "equal",
        "gain by events [95 %]",
        "gain by progress [95 %]"
    );
    for (name, learnt) in &learners {
        // Every game of every population read by the model of the parts it is not in, kept by population
        // and table size.
        let mut read: std::collections::BTreeMap<(usize, usize), Vec<Vec<Read>>> = Default::default();
        let mut temperatures = Vec::new();
        for part in 0..PARTS {
            let learning: Vec<&GameSamples> = learnt
                .iter()
                .flat_map(|&k| populations[k].1.iter().enumerate().filter(|(i, _)| i % PARTS != part).map(|(_, g)| g))
                .collect();
            let (model, beta) = learn(&ruleset, kind.version(), &features, &learning);
            let model = match model {
                Ok(m) => m,
                Err(why) => {
                    println!("{name:<14} no model: {why}");
                    break;
                }
            };
            temperatures.push(format!("{:.3}{}", model.trained_on.temperature, sharpness_in_words(&model)));
            for (k, (_, games)) in populations.iter().enumerate() {
                let held: Vec<&GameSamples> =
                    games.iter().enumerate().filter(|(i, _)| i % PARTS == part).map(|(_, g)| g).collect();
                for (g, r) in held.iter().zip(read_by(&model, beta, &held)) {
                    read.entry((k, g.seats())).or_default().push(r);
                }
            }
        }
        if temperatures.len() < PARTS {
            continue;
        }
        for (part, t) in temperatures.iter().enumerate() {
            println!("{name:<14} part {} held out: temperature {t}", part + 1);
        }
        for ((k, seats), games) in &read {
            let population = &populations[*k].0;
            let e = evaluation::evaluate(games);
            let by_events = evaluation::gain_over_equal(games, Thirds::Events, 2000);
            let by_progress = evaluation::gain_over_equal(games, Thirds::Progress, 2000);
            for ((s, a), b) in e.stages.iter().zip(&by_events).zip(&by_progress) {
                println!(
                    "{name:<14} {population:<14} {seats:>5} {:<7} {:>5} | {:>7.4} {:>7.4} {:>7.4} | {:>6.4} {:>6.4} | {:>+8.4} [{:+.4}, {:+.4}] | {:>+8.4} [{:+.4}, {:+.4}]",
                    s.stage, a.games, s.model.log_loss, s.equal.log_loss, s.points.log_loss,
                    s.model.brier, s.equal.brier, a.gain, a.low, a.high, b.gain, b.low, b.high
                );
            }
            let tenths: Vec<String> = e
                .calibration
                .iter()
                .filter(|b| b.seats > 0)
                .map(|b| {
                    let mark = if b.shown_off() { "*" } else { "" };
                    format!(
                        "{:.1}–{:.1} {:+.3}{mark} [{:+.3}, {:+.3}] ({} games)",
                        b.from,
                        b.to,
                        b.observed - b.predicted,
                        b.low,
                        b.high,
                        b.games
                    )
                })
                .collect();
            let worst = e
                .calibration
                .iter()
                .filter(|b| b.games >= chances::FEWEST_HELD_OUT)
                .map(|b| (b.observed - b.predicted).abs())
                .fold(0.0, f64::max);
            let off = e.calibration.iter().filter(|b| b.shown_off()).count();
            println!(
                "{name:<14} {population:<14} {seats:>5} calibration: largest tenth off by {worst:.3} (tenths of {} games or more), {off} tenths shown off (*: the interval leaves out 0); observed − predicted [95 %]: {}",
                chances::FEWEST_HELD_OUT,
                tenths.join(", ")
            );
        }
    }
    Ok(0)
}

fn print_evaluation(e: &Evaluation) {
    println!("{:<7} {:>9} | {:>21} | {:>21} | {:>21}", "stage", "positions", "log loss: model", "equal", "points");
    for s in &e.stages {
        println!(
            "{:<7} {:>9} | {:>9.4} brier {:.4} | {:>9.4} brier {:.4} | {:>9.4} brier {:.4}",
            s.stage,
            s.positions,
            s.model.log_loss,
            s.model.brier,
            s.equal.log_loss,
            s.equal.brier,
            s.points.log_loss,
            s.points.brier
        );
    }
    println!("calibration (the model's chances for every seat, by tenths; the difference's 95 % interval from games resampled whole, * where it leaves out 0 over {} games or more):", chances::FEWEST_HELD_OUT);
    println!(
        "{:<11} {:>7} {:>6} {:>10} {:>9} {:>26}",
        "chance", "seats", "games", "predicted", "observed", "observed − predicted"
    );
    for b in &e.calibration {
        let mark = if b.shown_off() { "*" } else { "" };
        println!(
            "{:.1}–{:.1}    {:>7} {:>6} {:>10.3} {:>9.3} {:>+8.3} [{:+.3}, {:+.3}]{mark}",
            b.from,
            b.to,
            b.seats,
            b.games,
            b.predicted,
            b.observed,
            b.observed - b.predicted,
            b.low,
            b.high
        );
    }
}

/// `almanac accuracy`: decisions judged with the model kept in `model_path`, compared by who played each
/// seat (its program, else its player).
pub fn accuracy(reading: Reading, model_path: &Path, json: bool, logs: &[PathBuf]) -> anyhow::Result<i32> {
    use almanac_analysis::decisions::{judged_all, mean_accuracy};
    use almanac_analysis::strength::{compare, SeatGame};
    let model: Model = serde_json::from_str(&std::fs::read_to_string(model_path)?)?;
    let files = in_folders(logs)?;
    let bar = progress(files.len(), "games judged");
    let read: Vec<Option<Vec<SeatGame>>> = almanac_service::on_every_core(files.iter().collect(), |f| {
        let out = check_file(reading, f).ok().and_then(|log| {
            let game = &*log.game;
            let winner = game.winner()? as usize;
            if game.ruleset() != model.ruleset {
                return None;
            }
            let model = model.for_game(game);
            let judged = judged_all(&model, game, 0);
            let positions = game.positions();
            let middle = positions.get(positions.len() / 2)?;
            let players = &game.envelope().players;
            Some(
                players
                    .iter()
                    .enumerate()
                    .filter_map(|(s, p)| {
                        let (accuracy, decisions) = mean_accuracy(judged.iter().filter(|j| j.seat == s))?;
                        Some(SeatGame {
                            game: 0,
                            player: p.program.clone().unwrap_or_else(|| p.name.clone()),
                            accuracy,
                            decisions,
                            won: s == winner,
                            points_at_middle: middle.scores.get(s).copied().unwrap_or(0.0),
                        })
                    })
                    .collect(),
            )
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
        out
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut seats = Vec::new();
    let mut games = 0;
    let skipped = read.iter().filter(|r| r.is_none()).count();
    for game in read.into_iter().flatten() {
        seats.extend(game.into_iter().map(|s| SeatGame { game: games, ..s }));
        games += 1;
    }
    let strength = compare(&seats, games);
    if json {
        println!("{}", serde_json::to_string_pretty(&strength)?);
        return Ok(0);
    }
    println!(
        "{games} games judged ({skipped} left out: unreadable, unfinished or of another ruleset), with a model {}",
        model.trained_on.in_words()
    );
    println!(
        "{:<24} {:>6} {:>9} {:>25} {:>23}",
        "player", "seats", "decisions", "accuracy [95 % games]", "won [95 % Wilson]"
    );
    for s in &strength.standings {
        println!(
            "{:<24} {:>6} {:>9} {:>8.1} [{:>5.1}, {:>5.1}]   {:>7.3} [{:.3}, {:.3}]",
            s.player, s.seats, s.decisions, s.accuracy, s.low, s.high, s.won, s.won_low, s.won_high
        );
    }
    for p in &strength.pairs {
        println!(
            "{} more accurate than {} in {} of {} games with both ({:.0} %)",
            p.first,
            p.second,
            p.first_more_accurate,
            p.games,
            100.0 * p.first_more_accurate as f64 / p.games.max(1) as f64
        );
    }
    if let Some(c) = &strength.coefficient {
        println!(
            "winning given the points at mid-game (logistic, standardised): accuracy {:+.3} [{:+.3}, {:+.3}], points {:+.3}",
            c.accuracy, c.low, c.high, c.points
        );
    }
    Ok(0)
}
