//! What every request shares: the database's pool of connections and the caches; and running work off
//! the async executor, so that no request waits behind another's database work or replay.

use crate::cache::Lru;
use crate::error::ApiError;
use crate::uploads::Uploads;
use actix_web::web;
use almanac_core::Game;
use almanac_store::Pool;
use bytes::Bytes;
use std::sync::Arc;

pub struct AppState {
    /// One writer at a time; readers side by side.
    pub pool: Arc<Pool>,
    /// Uploads, one at a time, after the readers.
    pub uploads: Uploads,
    /// Recently viewed games, by their full id.
    pub timelines: Lru<String, Arc<dyn Game>>,
    /// Recently asked states as JSON, by (full id, events applied): the state after an event of an
    /// append-only log never changes.
    pub states: Lru<(String, u64), Bytes>,
    /// Drawn charts, by (full id, chart, events stored): a chart changes only when the log grows.
    pub charts: Lru<(String, String, u64), Bytes>,
    pub max_upload: usize,
}

pub type Result<T> = std::result::Result<T, ApiError>;

/// Runs `work` on a blocking thread and waits for it without holding the executor.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    web::block(work).await.map_err(ApiError::internal)?
}

/// A stored game's timeline, from the cache or loaded once; `game` is an id or a unique prefix.
pub fn loaded(app: &AppState, game: &str) -> Result<(String, Arc<dyn Game>)> {
    if let Some(g) = app.timelines.get(&game.to_string()) {
        return Ok((game.to_string(), g));
    }
    let id = app.pool.read(|s| almanac_service::resolve(s, game))??;
    if let Some(g) = app.timelines.get(&id) {
        return Ok((id, g));
    }
    let (id, timeline) = app.pool.read(|s| almanac_service::load(s, &id))??;
    let timeline: Arc<dyn Game> = Arc::from(timeline);
    app.timelines.put(id.clone(), timeline.clone());
    Ok((id, timeline))
}
