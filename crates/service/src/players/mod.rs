//! Players across games, as coaches read them: a player's page (`page`: their record per game and ruleset,
//! the opponents met, their numbers against the field), ratings and leaderboards (`ratings`), and two
//! players side by side (`versus`). Only published games count (the store's `sittings`).

mod page;
mod ratings;
mod seats;
mod versus;

use seats::visible;

pub use page::*;
pub use ratings::*;
pub use versus::*;

use crate::ServiceError;
pub use almanac_analysis::intervals::Comparison;
use almanac_engine::GAMES;
use almanac_store::{ClubId, Identity, PlayerId, Store, Viewer};

/// The ruleset a leaderboard or a question shows when none is asked for: the one with the most games that
/// count (the first registered when none has any).
pub fn most_played(store: &Store) -> Result<String, ServiceError> {
    Ok(store.most_played()?.unwrap_or_else(|| GAMES[0].id().to_string()))
}

/// Merges the spelling `from` into the player `into`, for `club` (`None`: the operator).
pub fn merge_players(
    store: &mut Store,
    club: Option<ClubId>,
    into: PlayerId,
    from: PlayerId,
) -> Result<Identity, ServiceError> {
    let root = store.merge_players(club, into, from)?;
    Ok(visible(store, club.map_or(Viewer::Operator, Viewer::Club), root)?.1)
}
