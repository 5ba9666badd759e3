//! Why a use case failed, and the result every use case returns.

use almanac_charts::ChartError;
use almanac_core::LogError;
use almanac_engine::ImportError;
use almanac_store::StoreError;

/// A use case's result.
pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Why a use case failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("stored game {id} no longer validates: {error}")]
    Corrupt { id: String, error: LogError },
    #[error("the events do not follow the stored log: {0}")]
    Rejected(LogError),
    #[error("no chart `{chart}` for {ruleset} games ({known})")]
    NoSuchChart { chart: String, ruleset: String, known: String },
    #[error("game {id} is of ruleset `{ruleset}`, which this build does not know")]
    UnknownRuleset { id: String, ruleset: String },
    #[error("{0}")]
    Chart(#[from] ChartError),
    #[error("{0}")]
    Question(String),
    /// A game a table begins that cannot begin so (an unknown game, a seat without a name…).
    #[error("{0}")]
    Start(String),
    #[error("no random numbers for a token: {0}")]
    Random(String),
    /// A fault of this program's (a panic caught), not of the input: said plainly, as a 500.
    #[error("{0}")]
    Internal(String),
}
