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
