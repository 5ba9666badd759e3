//! What the pages of players share: a seat's place in a game, a player's seat, a player as a viewer may see
//! them, a ruleset's name.

use crate::ServiceError;
use almanac_store::{Identity, PlayerId, Sitting, Store, Viewer, VisiblePlayer};

/// The place of the seat at `i`: one more than the seats with a higher score (a seat without one is last).
pub(super) fn place(s: &Sitting, i: usize) -> u32 {
    place_among(&s.seats.iter().map(|seat| seat.vp).collect::<Vec<_>>(), i)
}

/// Seat `i`'s place: one more than the seats that scored more (ties share a place; no score is last).
pub(super) fn place_among(scores: &[Option<i64>], i: usize) -> u32 {
    let score = |k: usize| scores[k].unwrap_or(i64::MIN);
    1 + (0..scores.len()).filter(|&k| score(k) > score(i)).count() as u32
}

pub(super) fn seat_of(s: &Sitting, id: PlayerId) -> Option<usize> {
    s.seats.iter().position(|seat| seat.player == id)
}

/// The player `id` as `viewer` may see them, and their identity: `NoPlayer` for a player of games the
/// viewer may not see only, as for an id never used.
pub(super) fn visible(store: &Store, viewer: Viewer, id: PlayerId) -> Result<(VisiblePlayer, Identity), ServiceError> {
    let player = store.visible_player(viewer, id)?;
    let identity = store.identity(&player)?;
    Ok((player, identity))
}

pub(super) fn game_name(ruleset: &str) -> String {
    almanac_engine::game_kind(ruleset).map_or_else(|| ruleset.to_string(), |g| g.name().to_string())
}
