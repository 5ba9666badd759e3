//! What can go wrong in the store.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("database: {0}")]
    Postgres(String),
    #[error("no game `{0}`")]
    NotFound(String),
    #[error("conflict: game {game} has {actual} events, but the writer expected {expected}; reload and retry")]
    Conflict { game: String, expected: u64, actual: u64 },
    #[error("game {0} belongs to another club")]
    NotYours(String),
    #[error("this log is already stored as game {0} by another club, which has not published it (or has deleted it)")]
    TakenElsewhere(String),
    #[error("{0}")]
    Invalid(String),
    #[error("no player {0}")]
    NoPlayer(i64),
    #[error("player {0} belongs to another club's games")]
    PlayerNotYours(i64),
    #[error("game id {0} is already used by another log")]
    IdClash(String),
    #[error("the database schema is version {found}, newer than this program knows ({known}); upgrade Almanac")]
    TooNew { found: u32, known: u32 },
}

pub type Result<T> = std::result::Result<T, StoreError>;
