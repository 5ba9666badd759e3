//! `almanac`: import, validate and inspect board-game logs.

mod bench;
mod commands;
mod load;
mod logging;
mod train;

use clap::builder::PossibleValuesParser;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "almanac", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The names of the games this build knows, for the help text ("A, B, C").
fn game_names() -> String {
    almanac_service::GAMES.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
}

/// The command line, with what the registry knows filled in: the games in the help, the formats as the
/// values `--format` takes.
fn command() -> clap::Command {
    let about = format!("Replays and analyses of board games: {}.", game_names());
    let long_about = format!(
        "{about}\n\nEvery game is an append-only log (almanac/1: a JSON header line, then one event per line), \
         validated\nagainst its ruleset and stored in SQLite. GAME is the id `almanac import` printed (a unique \
         prefix will do).\n\nFormats: {}.",
        almanac_service::formats()
            .iter()
            .map(|f| format!("{} ({})", f.name(), f.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut names = vec!["auto"];
    names.extend(almanac_service::format_names());
    let mut cmd = Cli::command().about(about).long_about(long_about);
    for sub in ["import", "validate", "convert", "accuracy"] {
        let names = names.clone();
        cmd = cmd.mut_subcommand(sub, |c| {
            c.mut_arg("format", |a| {
                a.value_parser(PossibleValuesParser::new(names)).help("The format of the files (auto: guess each)")
            })
        });
    }
    cmd
}

#[derive(clap::Args, Clone)]
pub struct DbArg {
    /// The SQLite database.
    #[arg(long, env = "ALMANAC_DB", default_value = "data/almanac.db")]
    pub db: PathBuf,
}

#[derive(Subcommand)]
enum Command {
    /// Validate and store game logs.
    ///
    /// Prints `<game-id><TAB><file>` per stored game; a rejected file stores nothing and prints
    /// `FILE:LINE: reason` on stderr while the others are stored. Exits non-zero if any file was rejected.
    Import {
        #[command(flatten)]
        db: DbArg,
        #[arg(long, default_value = "auto")]
        format: String,
        /// Whose view of a record that knows every hidden card (a server log of every seat): full, observer, or seat:N
        /// (the record's own seat number).
        #[arg(long, default_value = "full", value_parser = parse_view)]
        view: almanac_service::Viewpoint,
        /// Store the games as this club's (private to it unless --publish); without it they are the
        /// operator's own, readable by anyone.
        #[arg(long)]
        club: Option<String>,
        /// Publish the club's games at once.
        #[arg(long, requires = "club")]
        publish: bool,
        /// Records to import; a folder stands for every file in it.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Check game logs without storing anything.
    ///
    /// Prints `FILE: ok (...)` per valid file and `FILE:LINE: reason` on stderr per rejected one.
    /// Exits non-zero if any file is rejected.
    Validate {
        #[arg(long, default_value = "auto")]
        format: String,
        /// Whose view of a record that knows every hidden card (a server log of every seat): full, observer, or seat:N
        /// (the record's own seat number).
        #[arg(long, default_value = "full", value_parser = parse_view)]
        view: almanac_service::Viewpoint,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// The state of a stored game at a turn, after an event, or at the end (the default).
    State {
        #[command(flatten)]
        db: DbArg,
        game: String,
        /// At the end of turn N (0 = the setup phase).
        #[arg(long, conflicts_with_all = ["seq", "final_"])]
        turn: Option<u32>,
        /// After event N (0 = before the first event).
        #[arg(long, conflicts_with = "final_")]
        seq: Option<usize>,
        /// After the last event.
        #[arg(long = "final")]
        final_: bool,
        /// Print JSON instead of a summary.
        #[arg(long)]
        json: bool,
    },
    /// Per player: production by resource, trades, VP by turn.
    Stats {
        #[command(flatten)]
        db: DbArg,
        game: String,
        #[arg(long)]
        json: bool,
    },
    /// The stored games, newest first.
    List {
        #[command(flatten)]
        db: DbArg,
        #[arg(long)]
        ruleset: Option<String>,
        #[arg(long)]
        player: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Translate another program's record into an almanac/1 log (validated) and print it.
    Convert {
        #[arg(long, default_value = "auto")]
        format: String,
        /// Whose view of a record that knows every hidden card (a server log of every seat): full, observer, or seat:N
        /// (the record's own seat number).
        #[arg(long, default_value = "full", value_parser = parse_view)]
        view: almanac_service::Viewpoint,
        file: PathBuf,
    },
    /// Learn a win-chance model. Without records named, from the database's published games of a ruleset
    /// (of one club's, with --club), kept in the database as the ruleset's model; with records named, from
    /// those, and with --evaluate say how well it predicts games it did not see (log loss, Brier score and
    /// calibration against equal chances and a softmax of the points, by thirds of the game).
    Train {
        #[command(flatten)]
        db: DbArg,
        /// Only the games this club uploaded.
        #[arg(long)]
        club: Option<String>,
        #[arg(long, default_value = "auto")]
        format: String,
        #[arg(long, default_value = "full", value_parser = parse_view)]
        view: almanac_service::Viewpoint,
        /// Only games of this ruleset (default: the first record's).
        #[arg(long)]
        ruleset: Option<String>,
        /// Hold out games and report how well the model predicts them.
        #[arg(long)]
        evaluate: bool,
        /// Each folder named is a population (one program's games, people's ...): a model learnt from each
        /// and one from all of them pooled, each learnt five times with a fifth of every population held
        /// out, so that every game is tried once by a model that never saw it; by table size and third of
        /// the game, with the calibration's tenths and their intervals.
        #[arg(long, conflicts_with_all = ["evaluate", "test"])]
        matrix: bool,
        /// Evaluate on these records instead of a fifth of the training ones (a folder stands for its files).
        #[arg(long = "test", num_args = 1..)]
        test: Vec<PathBuf>,
        /// Write the model (JSON) here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Only these features (ids, comma-separated), to see what each adds.
        #[arg(long, value_delimiter = ',')]
        features: Vec<String>,
        /// Records to learn from (a folder stands for every file in it); none: the database's games.
        logs: Vec<PathBuf>,
    },
    /// How accurately each player decides, over records whose seats name their programs (or their
    /// players): per player, the mean decision accuracy with a game-level 95 % interval and the win rate;
    /// per pair, how often the first's seat was the more accurate in the games with both; and, given the
    /// points at mid-game, accuracy's coefficient for winning. Decisions are judged with the model of
    /// --model (as `almanac train --out` writes it), as the plans they begin.
    Accuracy {
        #[arg(long, default_value = "auto")]
        format: String,
        #[arg(long, default_value = "full", value_parser = parse_view)]
        view: almanac_service::Viewpoint,
        /// The win-chance model (JSON).
        #[arg(long)]
        model: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Records to judge (a folder stands for every file in it).
        #[arg(required = true)]
        logs: Vec<PathBuf>,
    },
    /// Print a stored game as an almanac/1 log.
    Export {
        #[command(flatten)]
        db: DbArg,
        game: String,
    },
    /// Import the sample logs into the database (if it has none) and print a summary of each game.
    Demo {
        #[command(flatten)]
        db: DbArg,
        #[arg(long, default_value = "data/samples")]
        samples: PathBuf,
    },
    /// Start the HTTP server: the dashboard and the JSON API.
    Serve {
        #[command(flatten)]
        db: DbArg,
        /// The address to listen on (port 0: any free port; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: String,
        #[command(flatten)]
        settings: commands::ServeSettings,
    },
    /// A crowd against a running server: uploaders, readers and live writers for a while, then every
    /// acknowledged game read back (`make bench-load`). Prints throughput, p50 / p99 per kind, errors and
    /// lost games; exits non-zero on any.
    BenchLoad {
        /// The server, e.g. http://127.0.0.1:8098
        #[arg(long)]
        url: String,
        /// A club token to upload and append with.
        #[arg(long, env = "ALMANAC_TOKEN", default_value = "")]
        token: String,
        /// The logs to upload (each retitled per upload).
        #[arg(long, default_value = "data/samples")]
        samples: PathBuf,
        #[arg(long, default_value_t = 50)]
        uploaders: usize,
        #[arg(long, default_value_t = 200)]
        readers: usize,
        #[arg(long, default_value_t = 5)]
        writers: usize,
        #[arg(long, default_value_t = 60)]
        seconds: u64,
    },
    /// Copy a database into another — a club's SQLite file into a federation's PostgreSQL — and compare them.
    ///
    /// Clubs, tokens (as hashes) and every game (read and validated again, under its own id, with its owner,
    /// publication and deletion); games already there are left alone, so an interrupted copy can run again.
    /// Prints what was copied and every game whose copy differs; exits non-zero if any does.
    Migrate {
        /// The database to copy (a SQLite file or a postgres:// URL).
        #[arg(long)]
        from: PathBuf,
        /// The database to copy into (created or brought up to date).
        #[arg(long)]
        to: PathBuf,
    },
    /// Clubs own games: their uploads are private to them until published.
    Club {
        #[command(subcommand)]
        command: ClubCommand,
    },
    /// Players across games: one per name (in any case) among a club's games; spellings merge.
    Players {
        #[command(subcommand)]
        command: PlayersCommand,
    },
    /// A club's tokens: what its uploaders and its dashboard sign-in use.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Derive the facts and summaries of stored games again with this build's rulesets.
    ///
    /// Games stored by another version of their ruleset (all of them with --all); the events are never
    /// touched, each game is one transaction. A game that no longer validates is left as it was and named.
    Reproject {
        #[command(flatten)]
        db: DbArg,
        /// Only games of this ruleset.
        #[arg(long)]
        ruleset: Option<String>,
        /// Every game, whatever version stored it.
        #[arg(long)]
        all: bool,
    },
    /// Measure replay, import and state-at-turn speed on a corpus of records (any format this build reads).
    Bench {
        /// A directory of game records.
        corpus: PathBuf,
        /// Where to put the scratch database (default: a temporary directory).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Also import into this empty PostgreSQL database (postgres://…) and compare.
        #[arg(long)]
        postgres: Option<PathBuf>,
    },
    /// Time what coaches ask of a stored database (questions, player pages, head-to-heads, the games list)
    /// and weigh the database against its logs.
    BenchScale {
        #[command(flatten)]
        db: DbArg,
        /// Timed runs of each, after one warming run.
        #[arg(long, default_value_t = 20)]
        reps: usize,
    },
}

#[derive(Subcommand)]
enum ClubCommand {
    /// Create a club.
    Create {
        #[command(flatten)]
        db: DbArg,
        name: String,
    },
    /// The clubs, their games and live tokens.
    List {
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum PlayersCommand {
    /// A player's record: every published game per ruleset, and the opponents met.
    Show {
        #[command(flatten)]
        db: DbArg,
        /// The club whose games name the player (none: games no club owns).
        #[arg(long)]
        club: Option<String>,
        name: String,
    },
    /// Merge a second spelling of a player into the first: its games count for the first from now on.
    Merge {
        #[command(flatten)]
        db: DbArg,
        /// The club whose games name them (none: games no club owns).
        #[arg(long)]
        club: Option<String>,
        /// The spelling that stays.
        into: String,
        /// The spelling merged into it.
        from: String,
    },
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Issue a token for a club and print it (shown this once; only its SHA-256 is stored).
    Create {
        #[command(flatten)]
        db: DbArg,
        #[arg(long)]
        club: String,
        /// What the token is for (an uploader's name, a machine).
        #[arg(long, default_value = "")]
        label: String,
    },
    /// The tokens (of one club), live and revoked.
    List {
        #[command(flatten)]
        db: DbArg,
        #[arg(long)]
        club: Option<String>,
    },
    /// Revoke a token by its number: it stops working at once.
    Revoke {
        #[command(flatten)]
        db: DbArg,
        id: i64,
    },
}

/// How to read the files named on the command line.
fn reading(format_name: &str, view: almanac_service::Viewpoint) -> almanac_service::Reading {
    almanac_service::Reading { format: format(format_name), view }
}

fn parse_view(s: &str) -> Result<almanac_service::Viewpoint, String> {
    s.parse()
}

/// The format named on the command line (`auto`: `None`, guess).
fn format(name: &str) -> Option<almanac_engine::Format> {
    almanac_service::format(name)
}

fn main() -> anyhow::Result<()> {
    reset_sigpipe();
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    let code = match cli.command {
        Command::Import { db, format: f, view, club, publish, files } => {
            commands::import(&db.db, reading(&f, view), club.as_deref(), publish, &files)?
        }
        Command::Validate { format: f, view, files } => commands::validate(reading(&f, view), &files),
        Command::State { db, game, turn, seq, final_: _, json } => commands::state(&db.db, &game, turn, seq, json)?,
        Command::Stats { db, game, json } => commands::stats(&db.db, &game, json)?,
        Command::List { db, ruleset, player, limit } => commands::list(&db.db, ruleset, player, limit)?,
        Command::Export { db, game } => commands::export(&db.db, &game)?,
        Command::Train { db, club, ruleset, logs, .. } if logs.is_empty() => {
            train::from_store(&db.db, ruleset.as_deref(), club.as_deref())?
        }
        Command::Train { format: f, view, ruleset, evaluate, matrix, test, out, features, logs, .. } => {
            train::run(train::Train {
                reading: reading(&f, view),
                logs: &logs,
                test: &test,
                ruleset: ruleset.as_deref(),
                evaluate,
                matrix,
                out: out.as_deref(),
                only: &features,
            })?
        }
        Command::Accuracy { format: f, view, model, json, logs } => {
            train::accuracy(reading(&f, view), &model, json, &logs)?
        }
        Command::Convert { format: f, view, file } => commands::convert(reading(&f, view), &file)?,
        Command::Demo { db, samples } => commands::demo(&db.db, &samples)?,
        Command::Reproject { db, ruleset, all } => commands::reproject(&db.db, ruleset.as_deref(), all)?,
        Command::Bench { corpus, db, postgres } => bench::run(&corpus, db, postgres)?,
        Command::BenchScale { db, reps } => bench::scale(&db.db, reps)?,
        Command::Serve { db, bind, settings } => commands::serve(&db.db, &bind, settings)?,
        Command::BenchLoad { url, token, samples, uploaders, readers, writers, seconds } => {
            load::run(&url, &token, &samples, load::Crowd { uploaders, readers, writers, seconds })?
        }
        Command::Migrate { from, to } => commands::migrate(&from, &to)?,
        Command::Club { command: ClubCommand::Create { db, name } } => commands::club_create(&db.db, &name)?,
        Command::Club { command: ClubCommand::List { db } } => commands::club_list(&db.db)?,
        Command::Token { command: TokenCommand::Create { db, club, label } } => {
            commands::token_create(&db.db, &club, &label)?
        }
        Command::Token { command: TokenCommand::List { db, club } } => commands::token_list(&db.db, club.as_deref())?,
        Command::Token { command: TokenCommand::Revoke { db, id } } => commands::token_revoke(&db.db, id)?,
        Command::Players { command: PlayersCommand::Show { db, club, name } } => {
            commands::players_show(&db.db, club.as_deref(), &name)?
        }
        Command::Players { command: PlayersCommand::Merge { db, club, into, from } } => {
            commands::players_merge(&db.db, club.as_deref(), &into, &from)?
        }
    };
    std::process::exit(code);
}

/// Like other Unix tools, stop quietly when the reader of our output goes away (`almanac list | head`).
fn reset_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
