//! `almanac train`: a win-chance model learned from finished games, and `--evaluate`: how well it predicts
//! games it did not see, against equal chances and a softmax of the points.

use crate::commands::{check_file, in_folders, progress};
use almanac_analysis::chances::{self, Evaluation, Sample};
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

/// The samples of the finished games among `files`, of one ruleset (the first file's, unless named), and
/// how many files could not be read.
fn read(reading: Reading, files: &[PathBuf], ruleset: &mut Option<String>) -> (usize, Vec<Vec<Sample>>) {
    let bar = progress(files.len(), "games read");
    let read: Vec<Option<(String, Vec<Sample>)>> = almanac_service::on_every_core(files.iter().collect(), |f| {
        let out = check_file(reading, f).ok().map(|log| (log.game.ruleset().to_string(), chances::samples(&*log.game)));
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
            Some((id, samples)) => {
                let wanted = ruleset.get_or_insert_with(|| id.clone());
                if *wanted == id && !samples.is_empty() {
                    games.push(samples);
                }
            }
            None => rejected += 1,
        }
    }
    (rejected, games)
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
    let project = |games: Vec<Vec<Sample>>| -> Vec<Vec<Sample>> {
        games
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|mut s| {
                        for seat in &mut s.position.seats {
                            *seat = kept.iter().map(|&k| seat[k]).collect();
                        }
                        s
                    })
                    .collect()
            })
            .collect()
    };
    // Without a test set of its own, every fifth game is held out.
    let (train, test): (Vec<Vec<Sample>>, Vec<Vec<Sample>>) = if t.test.is_empty() && t.evaluate {
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
    let samples: Vec<Sample> = train.iter().flatten().cloned().collect();
    let model = match chances::train(&ruleset, kind.version(), &features, train.len(), &samples) {
        Ok(m) => m,
        Err(why) => {
            eprintln!("no model for {}: {why}", kind.name());
            return Ok(1);
        }
    };
    eprintln!("trained on {} games, {} positions", model.trained_on.games, model.trained_on.positions);
    eprintln!("  {:<40} {:>7} {:>7}", "feature", "weight", "× progress");
    for (k, label) in labels.iter().enumerate() {
        eprintln!("  {:<40} {:>7.3} {:>+7.3}", label, model.weights[k], model.weights[k + features.len()]);
    }
    if t.evaluate {
        let held: Vec<Sample> = test.iter().flatten().cloned().collect();
        println!("evaluated on {} games, {} positions", test.len(), held.len());
        print_evaluation(&chances::evaluate(&model, &samples, &held));
        println!("gain over equal chances (log loss per position; 95 % interval, games resampled whole):");
        for g in chances::gain_over_equal(&model, &test, 2000) {
            println!("{:<7} {:>+8.4} [{:+.4}, {:+.4}] over {} games", g.stage, g.gain, g.low, g.high, g.games);
        }
    }
    if let Some(out) = t.out {
        std::fs::write(out, serde_json::to_string_pretty(&model)?)?;
        eprintln!("model written to {}", out.display());
    }
    Ok(0)
}

/// One population of `--matrix`: a folder's games, four in five learnt from and every fifth held out.
struct Population {
    name: String,
    learnt: Vec<Vec<Sample>>,
    held: Vec<Vec<Sample>>,
}

/// `train --matrix`: a model learnt from each population's games and one from all of them pooled, each tried
/// on every population's held-out games (never learnt from by any model), by table size and third of the
/// game: log loss against equal chances and the points, Brier score, the gain over equal chances with its
/// game-level 95 % interval (by thirds of the game's events, then of its progress, by which chances are
/// shown), and how far the calibration's tenths are from what happened.
fn matrix(t: &Train) -> anyhow::Result<i32> {
    let mut ruleset = t.ruleset.map(str::to_string);
    let mut populations = Vec::new();
    for dir in t.logs {
        let (rejected, games) = read(t.reading, &in_folders(std::slice::from_ref(dir))?, &mut ruleset);
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().to_string());
        eprintln!("{name}: {} finished games ({rejected} files not read)", games.len());
        let (mut learnt, mut held) = (Vec::new(), Vec::new());
        for (i, g) in games.into_iter().enumerate() {
            if i % 5 == 4 {
                held.push(g)
            } else {
                learnt.push(g)
            }
        }
        populations.push(Population { name, learnt, held });
    }
    let Some(ruleset) = ruleset else { anyhow::bail!("no game to learn from") };
    let kind = almanac_service::game_kind(&ruleset).ok_or_else(|| anyhow::anyhow!("unknown ruleset `{ruleset}`"))?;
    let features: Vec<&str> = kind.features().iter().map(|f| f.id).collect();
    let mut learners: Vec<(String, Vec<&Population>)> = populations.iter().map(|p| (p.name.clone(), vec![p])).collect();
    if populations.len() > 1 {
        learners.push(("pooled".to_string(), populations.iter().collect()));
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
        // Fitted, tempered and validated as `almanac train` keeps a model.
        let (mut samples, mut played) = (Vec::new(), Vec::new());
        for p in learnt {
            for g in &p.learnt {
                played.push(chances::PlayedGame {
                    samples: samples.len()..samples.len() + g.len(),
                    played_by: p.name.clone(),
                });
                samples.extend(g.iter().cloned());
            }
        }
        let model = match chances::train_validated(&ruleset, kind.version(), &features, &samples, &played) {
            Ok(m) => m,
            Err(why) => {
                println!("{name:<14} no model: {why}");
                continue;
            }
        };
        println!("{name:<14} temperature {:.3}", model.trained_on.temperature);
        for p in &populations {
            let mut by_seats: std::collections::BTreeMap<usize, Vec<Vec<Sample>>> = Default::default();
            for g in &p.held {
                if let Some(s) = g.first() {
                    by_seats.entry(s.position.seats.len()).or_default().push(g.clone());
                }
            }
            for (seats, games) in &by_seats {
                let held: Vec<Sample> = games.iter().flatten().cloned().collect();
                let e = chances::evaluate(&model, &samples, &held);
                let by_events = chances::gain_over_equal(&model, games, 2000);
                let by_progress = chances::gain_by_progress(&model, games, 2000);
                for ((s, a), b) in e.stages.iter().zip(&by_events).zip(&by_progress) {
                    println!(
                        "{name:<14} {:<14} {seats:>5} {:<7} {:>5} | {:>7.4} {:>7.4} {:>7.4} | {:>6.4} {:>6.4} | {:>+8.4} [{:+.4}, {:+.4}] | {:>+8.4} [{:+.4}, {:+.4}]",
                        p.name, s.stage, a.games, s.model.log_loss, s.equal.log_loss, s.points.log_loss,
                        s.model.brier, s.equal.brier, a.gain, a.low, a.high, b.gain, b.low, b.high
                    );
                }
                let off: Vec<String> = e
                    .calibration
                    .iter()
                    .filter(|b| b.seats > 0)
                    .map(|b| format!("{:.1}–{:.1} {:+.3} ({})", b.from, b.to, b.observed - b.predicted, b.seats))
                    .collect();
                let worst = e
                    .calibration
                    .iter()
                    .filter(|b| b.seats >= 20)
                    .map(|b| (b.observed - b.predicted).abs())
                    .fold(0.0, f64::max);
                println!(
                    "{name:<14} {:<14} {seats:>5} calibration: largest tenth off by {worst:.3} (tenths of 20 seats or more); observed − predicted: {}",
                    p.name,
                    off.join(", ")
                );
            }
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
    println!("calibration (the model's chances for every seat, by tenths):");
    println!("{:<11} {:>7} {:>10} {:>9}", "chance", "seats", "predicted", "observed");
    for b in &e.calibration {
        println!("{:.1}–{:.1}    {:>7} {:>10.3} {:>9.3}", b.from, b.to, b.seats, b.predicted, b.observed);
    }
    println!("points baseline weight: {:.3}", e.points_weight);
}
