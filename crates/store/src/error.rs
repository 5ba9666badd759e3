//! What can go wrong in the store.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("database: {0}")]
    Postgres(String),
    /// The database did not answer (its connection lost, refused or timed out): nothing was done that the
    /// caller was told of, and the same call may succeed in a moment. The connection is not used again.
    #[error("the database is not answering ({0}); try again in a moment")]
    Unavailable(String),
    #[error("no game `{0}`")]
    NotFound(String),
    #[error("conflict: game {game} has {actual} events, but the writer expected {expected}; reload and retry")]
    Conflict { game: String, expected: u64, actual: u64 },
    #[error("game {0} belongs to another club")]
    NotYours(String),
    /// The id is the other club's game: for the operator's own tools, never in the words (an answer to a
    /// club must not name another club's private game).
    #[error("this log is already stored by another club, which has not published it (or has deleted it)")]
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

thread_local! {
    /// Whether this thread's last database call lost its connection (`StoreError::Unavailable`): a pool
    /// looks after each call and replaces the connection rather than keep a broken one.
    static CONNECTION_LOST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Says that this thread's connection was lost (the error made is `Unavailable`).
pub(crate) fn mark_connection_lost() {
    CONNECTION_LOST.with(|c| c.set(true));
}

/// Whether this thread lost a connection since the last call, clearing the mark.
pub(crate) fn take_connection_lost() -> bool {
    CONNECTION_LOST.with(|c| c.replace(false))
}
