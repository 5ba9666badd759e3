//! What every request shares: the database's pool of connections, the caches and the limits; and running
//! work off the async executor, so that no request waits behind another's database work or replay.

use crate::cache::{Expiring, Lru};
use crate::derivation::Derivation;
use crate::error::ApiError;
use crate::limits::{Limits, Rates};
use crate::uploads::Uploads;
use actix_web::http::StatusCode;
use actix_web::web;
use almanac_service::{Access, Club, ClubId, LiveGame, Viewer, Visible};
use almanac_store::{Pool, StoreError};
use bytes::Bytes;
use std::sync::Arc;
use std::time::Duration;

/// How long a token's club and a game's owner and visibility are trusted before the store is asked again
/// (a token revoked or a game deleted by another process is refused within this time).
pub const TRUSTED_FOR: Duration = Duration::from_secs(2);

/// A ruleset's win-chance model and when it was trained.
pub type KeptModel = Arc<(almanac_service::chances::Model, String)>;

/// A ruleset's model, or why there is none.
pub type ModelOf = std::result::Result<KeptModel, almanac_service::chances::NoChances>;

pub struct AppState {
    /// One writer at a time; readers side by side.
    pub pool: Arc<Pool>,
    /// Uploads, one at a time, after the readers.
    pub uploads: Uploads,
    /// Games an older version of their ruleset derived, derived again between uploads.
    pub derivation: Arc<Derivation>,
    /// Slots for uploads being read and validated, of all clubs and of each.
    pub upload_slots: Arc<tokio::sync::Semaphore>,
    pub club_upload_slots: std::sync::Mutex<std::collections::HashMap<ClubId, Arc<tokio::sync::Semaphore>>>,
    /// Recently viewed games, by their full id, weighed by their memory (a live game is extended here).
    pub timelines: Lru<String, Arc<Kept>>,
    /// Recently asked states as JSON, by (full id, events applied): the state after an event of an
    /// append-only log never changes.
    pub states: Lru<(String, u64), Bytes>,
    /// Drawn charts, by (full id, chart, events stored): a chart changes only when the log grows.
    pub charts: Lru<(String, String, u64), Bytes>,
    /// A game's win chances and judged decisions, by (full id, the model's training time, events): they
    /// change only when the log grows or the model is trained again. The replay asks them three ways (its
    /// coach table, its chart, its script), and judging every decision is the costliest read there is.
    pub chances: Lru<(String, String, u64), Arc<almanac_service::chances::Chances>>,
    /// Token hashes and their clubs (`None`: not a live token).
    pub tokens: Expiring<String, Option<Club>>,
    /// Who owns a game and who may see it, by full id.
    pub access: Expiring<String, Access>,
    /// Each ruleset's win-chance model and when it was trained, read from the store again after a few
    /// seconds: a model trained meanwhile is taken up without a restart.
    pub models: Expiring<String, KeptModel>,
    /// Every ruleset's ratings, rated again only when its published games changed.
    pub ratings: almanac_service::players::RatingsMemo,
    /// Answers to questions, kept while the read model stands.
    pub answers: almanac_service::questions::AnswerMemo,
    pub rates: Rates,
    /// Appends heard, here or (on PostgreSQL) on any server: each game's full id and its events now, what
    /// spectators follow (`follow.rs`).
    pub appends: tokio::sync::broadcast::Sender<(String, crate::streams::Heard)>,
    /// The streams of followers open now (`follow.rs`).
    pub streams: Arc<crate::streams::Streams>,
    pub limits: Limits,
    pub max_upload: usize,
    /// Who the client is behind a proxy (`proxies.rs`).
    pub trusted_proxies: crate::proxies::TrustedProxies,
}

pub type Result<T> = std::result::Result<T, ApiError>;

/// A game kept in memory: read by many side by side, extended in place by a live append under its lock (a
/// copy of a long game would cost what the append is meant not to).
pub struct Kept(std::sync::RwLock<LiveGame>);

impl Kept {
    pub fn new(live: LiveGame) -> Kept {
        Kept(std::sync::RwLock::new(live))
    }

    pub fn read(&self) -> std::sync::RwLockReadGuard<'_, LiveGame> {
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn write(&self) -> std::sync::RwLockWriteGuard<'_, LiveGame> {
        self.0.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs `work` on a blocking thread and waits for it without holding the executor.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    web::block(work).await.map_err(ApiError::internal)?
}

/// A full game id (16 hex digits), as opposed to a prefix.
fn is_full_id(game: &str) -> bool {
    game.len() == 16 && game.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The game `viewer` asks for (an id, or a unique prefix among the games it may see), who owns it and how
/// many events it has, as the store says now (another server may have appended or deleted); a game it may
/// not see is not found, exactly like a game that does not exist.
pub fn visible(app: &AppState, viewer: Viewer, game: &str) -> Result<Visible> {
    if !is_full_id(game) {
        // A prefix is resolved among the games the viewer may see, by the store's own check.
        let seen = app.pool.read(|s| almanac_service::visible(s, viewer, game))??;
        remember_access(app, seen.access());
        return Ok(seen);
    }
    let access = app.pool.read(|s| s.access_of(game))??;
    remember_access(app, &access);
    Visible::of(&access, viewer).ok_or_else(|| StoreError::NotFound(game.to_string()).into())
}

/// Keeps what the store just said of a game for `TRUSTED_FOR`; an entry that says the same is left as it
/// is (it expires the sooner, and the cache's insert is most of a look's time when many games are read).
fn remember_access(app: &AppState, access: &Access) {
    if app.access.get(&access.id).as_ref() != Some(access) {
        app.access.put(access.id.clone(), access.clone());
    }
}

/// A game `viewer` may see, if this server looked in the last `TRUSTED_FOR`; for answers that skip the
/// blocking pool (states after a given event never change; a chart may lag that long).
pub fn visible_in_memory(app: &AppState, viewer: Viewer, game: &str) -> Option<Visible> {
    app.access.get(&game.to_string()).and_then(|a| Visible::of(&a, viewer))
}

/// A stored game's timeline that `viewer` may see, from the cache while it holds every stored event (the
/// last sequence number validates it: an append through another server makes it stale), else loaded.
pub fn loaded(app: &AppState, viewer: Viewer, game: &str) -> Result<(Visible, Arc<Kept>)> {
    let seen = visible(app, viewer, game)?;
    let timeline = timeline_of(app, &seen)?;
    Ok((seen, timeline))
}

/// The timeline of a game already found visible, if the cache holds every stored event of it.
pub fn kept_timeline(app: &AppState, seen: &Visible) -> Option<Arc<Kept>> {
    app.timelines.get(&seen.id().to_string()).filter(|g| g.read().game().event_count() as u64 == seen.access().events)
}

/// The timeline of a game already found visible: kept, brought up to the stored log by the events another
/// server appended (`catch_up`), else loaded and kept.
pub fn timeline_of(app: &AppState, seen: &Visible) -> Result<Arc<Kept>> {
    if let Some(g) = kept_timeline(app, seen) {
        return Ok(g);
    }
    if let Some(kept) = app.timelines.get(&seen.id().to_string()) {
        {
            // A read may be tried again (a replica away): catching up twice is catching up once.
            let live = std::cell::RefCell::new(kept.write());
            app.pool.read(|s| almanac_service::catch_up(s, seen, &mut live.borrow_mut()))??;
        }
        let weight = kept.read().memory_estimate();
        app.timelines.put(seen.id().to_string(), kept.clone(), weight);
        return Ok(kept);
    }
    let timeline = app.pool.read(|s| almanac_service::load_visible(s, seen))??;
    let timeline = Arc::new(Kept::new(LiveGame::new(timeline)));
    app.timelines.put(seen.id().to_string(), timeline.clone(), timeline.read().memory_estimate());
    Ok(timeline)
}

/// Forgets what this server knew of a game's owner and visibility (after it changed them).
pub fn forget_access(app: &AppState, id: &str) {
    app.access.forget(&id.to_string());
}

/// Publishes a club's game, or makes it private again (the API's and the dashboard's form's way).
pub async fn publish_game(app: &web::Data<AppState>, club: ClubId, game: String, published: bool) -> Result<String> {
    let app = app.clone();
    blocking(move || {
        let id = app.pool.write(|s| almanac_service::publish(s, club, &game, published))?;
        forget_access(&app, &id);
        crate::streams::seen_by_changed(&app.appends, &id);
        Ok(id)
    })
    .await
}

/// Deletes a club's upload: hidden from every view, its events kept.
pub async fn delete_game(app: &web::Data<AppState>, club: ClubId, game: String) -> Result<String> {
    let app = app.clone();
    blocking(move || {
        let id = app.pool.write(|s| almanac_service::delete(s, club, &game))?;
        forget_access(&app, &id);
        crate::streams::seen_by_changed(&app.appends, &id);
        Ok(id)
    })
    .await
}

/// A club's slot for an upload and one of all clubs', taken after the writer is known and before its body is
/// read (a crowd of uploaders waits with its bodies unread); 503 when none comes free in time. One club
/// holds at most `uploads_per_club` of the slots, so that its stalled bodies cannot keep the others out.
pub async fn upload_slot(app: &AppState, club: ClubId) -> Result<UploadSlot> {
    let ours = {
        let mut clubs = app.club_upload_slots.lock().unwrap_or_else(|e| e.into_inner());
        let per_club = app.limits.uploads_per_club.max(1);
        clubs.entry(club).or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(per_club))).clone()
    };
    let wait = app.limits.slot_wait;
    let slots = async {
        let club = ours.acquire_owned().await.map_err(ApiError::internal)?;
        let all = app.upload_slots.clone().acquire_owned().await.map_err(ApiError::internal)?;
        Ok::<_, ApiError>(UploadSlot { _club: club, _all: all })
    };
    actix_web::rt::time::timeout(wait, slots).await.map_err(|_| busy(wait))?
}

/// An upload's two slots, given back when it is dropped.
pub struct UploadSlot {
    _club: tokio::sync::OwnedSemaphorePermit,
    _all: tokio::sync::OwnedSemaphorePermit,
}

/// A 503 that asks to come back: the server is busy with other uploads.
fn busy(wait: Duration) -> ApiError {
    let mut e = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("too many uploads at once; none finished within {} s, retry shortly", wait.as_secs()),
    );
    e.retry_after = Some(5);
    e
}
