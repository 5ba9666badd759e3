//! Clubs and their tokens, and what a club does to its own games: publish, delete and restore, notes.

use crate::error::{Result, ServiceError};
use crate::reading::refuse_nul;
use almanac_store::{Club, ClubId, Viewer};
use almanac_store::{GameRow, Store, StoreError};

/// Creates a club.
pub fn create_club(store: &mut Store, name: &str) -> Result<Club, ServiceError> {
    Ok(store.create_club(name)?)
}

/// A new token for `club`: returned once, stored only as its SHA-256. `label` says what it is for.
pub fn issue_token(store: &mut Store, club: ClubId, label: &str) -> Result<(i64, String), ServiceError> {
    let token = format!("alm_{}", random_hex(24)?);
    let id = store.add_token(club, &token_hash(&token), label)?;
    Ok((id, token))
}

/// `bytes` bytes from the system's random source, as hex (tokens, the sign-in form's proof).
pub fn random_hex(bytes: usize) -> Result<String, ServiceError> {
    let mut secret = vec![0u8; bytes];
    getrandom::fill(&mut secret).map_err(|e| ServiceError::Random(e.to_string()))?;
    Ok(secret.iter().map(|b| format!("{b:02x}")).collect())
}

/// How a token is stored and looked up.
pub fn token_hash(token: &str) -> String {
    almanac_core::hash::sha256_hex(token.trim())
}

/// The club a live token belongs to.
pub fn club_of_token(store: &Store, token: &str) -> Result<Option<Club>, ServiceError> {
    Ok(store.club_of_token(&token_hash(token))?)
}

/// Publishes a club's game (anyone may read it then), or makes it private again.
pub fn publish(store: &mut Store, club: ClubId, game: &str, published: bool) -> Result<String, ServiceError> {
    Ok(store.set_published(club, game, published)?)
}

/// Hides a club's game from every view and list; its events stay stored (they are append-only), and an
/// upload of the same log by the club shows it again.
pub fn delete(store: &mut Store, club: ClubId, game: &str) -> Result<String, ServiceError> {
    Ok(store.delete_game(club, game)?)
}

/// Undoes `delete`: the club's deleted game (by its full id) is shown again, with its notes.
pub fn restore(store: &mut Store, club: ClubId, game: &str) -> Result<String, ServiceError> {
    Ok(store.restore_game(club, game)?)
}

/// The club's deleted games, the latest deleted first.
pub fn deleted_games(store: &Store, club: ClubId) -> Result<Vec<GameRow>, ServiceError> {
    Ok(store.deleted_games(club)?)
}

/// The longest note a coach may write, in characters.
pub const NOTE_LIMIT: usize = 2000;

/// A club's note on its own game, after event `seq` (0: before the first). Notes are kept as written.
pub fn add_note(
    store: &mut Store,
    club: ClubId,
    game: &str,
    seq: u64,
    text: &str,
) -> Result<almanac_store::Note, ServiceError> {
    let game = store.owned(club, game)?;
    let access = game.access();
    let text = text.trim();
    if text.is_empty() {
        return Err(StoreError::Invalid("a note needs words".into()).into());
    }
    refuse_nul("a note", text)?;
    if text.chars().count() > NOTE_LIMIT {
        return Err(StoreError::Invalid(format!("a note is at most {NOTE_LIMIT} characters")).into());
    }
    if seq > access.events {
        return Err(StoreError::Invalid(format!(
            "game {} has {} events; a note goes after one of them",
            access.id, access.events
        ))
        .into());
    }
    let id = store.add_note(&game, seq, club, text)?;
    let notes = store.notes(&game)?;
    Ok(notes.into_iter().find(|n| n.id == id).expect("the note just written"))
}

/// The notes on a game the viewer may see, in the order of the game.
pub fn notes(store: &Store, viewer: Viewer, game: &str) -> Result<Vec<almanac_store::Note>, ServiceError> {
    Ok(store.notes(&store.visible(viewer, game)?)?)
}
