//! `almanac`: import, validate and inspect board-game logs.

mod bench;
mod commands;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "almanac", version, about = "Replays and analyses of Catan-family and Carcassonne games.")]
#[command(long_about = "Replays and analyses of Catan-family and Carcassonne games.\n\n\
Every game is an append-only log (almanac/1: a JSON header line, then one event per line), validated\n\
against its ruleset and stored in SQLite. GAME is the id `almanac import` printed (a unique prefix will do).")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// Guess from the file's contents.
    Auto,
    /// An almanac/1 log.
    Almanac,
    /// A catanatron-dump/1 JSON file.
    Catanatron,
    /// A JCloisterZone 5.x saved game (.jcz).
    Jcz,
}

impl FormatArg {
    pub fn format(self) -> Option<almanac_formats::Format> {
        match self {
            FormatArg::Auto => None,
            FormatArg::Almanac => Some(almanac_formats::Format::Almanac),
            FormatArg::Catanatron => Some(almanac_formats::Format::Catanatron),
            FormatArg::Jcz => Some(almanac_formats::Format::Jcz),
        }
    }
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
        #[arg(long, value_enum, default_value = "auto")]
        format: FormatArg,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Check game logs without storing anything.
    ///
    /// Prints `FILE: ok (...)` per valid file and `FILE:LINE: reason` on stderr per rejected one.
    /// Exits non-zero if any file is rejected.
    Validate {
        #[arg(long, value_enum, default_value = "auto")]
        format: FormatArg,
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
        #[arg(long, value_enum, default_value = "auto")]
        format: FormatArg,
        file: PathBuf,
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
        /// The largest upload accepted, in bytes.
        #[arg(long, default_value_t = 16 * 1024 * 1024)]
        max_upload: usize,
        /// Seed an empty database with the logs in this directory first.
        #[arg(long)]
        seed: Option<PathBuf>,
    },
    /// Measure replay, import and state-at-turn speed on a corpus of logs (catanatron dumps or almanac logs).
    Bench {
        /// A directory of game records.
        corpus: PathBuf,
        /// Where to put the scratch database (default: a temporary directory).
        #[arg(long)]
        db: Option<PathBuf>,
    },
}

fn main() -> anyhow::Result<()> {
    reset_sigpipe();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Import { db, format, files } => commands::import(&db.db, format.format(), &files)?,
        Command::Validate { format, files } => commands::validate(format.format(), &files),
        Command::State { db, game, turn, seq, final_: _, json } => commands::state(&db.db, &game, turn, seq, json)?,
        Command::Stats { db, game, json } => commands::stats(&db.db, &game, json)?,
        Command::List { db, ruleset, player, limit } => commands::list(&db.db, ruleset, player, limit)?,
        Command::Export { db, game } => commands::export(&db.db, &game)?,
        Command::Convert { format, file } => commands::convert(format.format(), &file)?,
        Command::Demo { db, samples } => commands::demo(&db.db, &samples)?,
        Command::Bench { corpus, db } => bench::run(&corpus, db)?,
        Command::Serve { db, bind, max_upload, seed } => commands::serve(&db.db, &bind, max_upload, seed.as_deref())?,
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
