//! Spectators follow a live game as its entries land: `GET /api/games/{id}/stream`, Server-Sent Events
//! (one way, from the server, over plain HTTP: what a spectator needs, and what a browser's `EventSource`
//! reconnects by itself). Each message is the game's number of events now; the page fetches what it has
//! not seen. An append on this server is announced here at once; on a PostgreSQL store every server also
//! listens for the appends the others commit (`LISTEN`/`NOTIFY`), so a spectator of any server follows a
//! recorder of any other.
//!
//! A stream holds a connection open, so streams have limits (`Limits`, documented in `docs/clubs.md`): so
//! many per server and per client address (more are answered 503 with `Retry-After`), a comment every
//! `stream_heartbeat` (which also asks again whether the follower may still see the game), and an end after
//! `stream_idle` without an entry (a browser reconnects by itself). A stream ends as soon as its game stops
//! being visible to its follower: made private, or deleted, on this server or another.

use crate::access::{address_key, Reader};
use crate::app::{blocking, forget_access, visible, AppState, Result};
use crate::streams::Heard;
use actix_web::http::header::{CacheControl, CacheDirective, ContentEncoding};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::Viewer;
use bytes::Bytes;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::broadcast;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/games/{id}/stream", web::get().to(stream));
}

/// Tells this server's spectators of `id` that it has `events` events now.
pub fn announce(app: &AppState, id: &str, events: u64) {
    // No spectator is no error.
    let _ = app.appends.send((id.to_string(), Heard::Appended(events)));
}

/// Tells this server's spectators of `id` that who may see it changed.
pub fn announce_seen_by_changed(app: &AppState, id: &str) {
    crate::streams::seen_by_changed(&app.appends, id);
}

/// On a store shared by several servers, hears every append and every change of who may see a game that
/// any of them commits, for as long as the server runs: who may see the game and what it holds are read
/// again, and its spectators hear of it.
pub fn listen(app: web::Data<AppState>, db: PathBuf) {
    if !almanac_store::Store::announces_appends(&db) {
        return;
    }
    std::thread::spawn(move || loop {
        let heard = almanac_store::Store::listen_for_appends(&db, |id, events| {
            forget_access(&app, id);
            match events {
                Some(events) => announce(&app, id, events),
                None => announce_seen_by_changed(&app, id),
            }
        });
        if let Err(e) = heard {
            tracing::warn!("listening for appends: {e}; again in a second");
        }
        std::thread::sleep(Duration::from_secs(1));
    });
}

/// What a stream's body goes on with between messages.
struct Following {
    app: web::Data<AppState>,
    viewer: Viewer,
    heard: broadcast::Receiver<(String, Heard)>,
    id: String,
    last: u64,
    /// The first message, not yet sent.
    first: Option<Bytes>,
    /// Since when nothing but heartbeats was sent.
    quiet_since: tokio::time::Instant,
    /// When something was last sent: the next heartbeat is due `stream_heartbeat` after it, however many
    /// other games' appends are heard meanwhile.
    sent_at: tokio::time::Instant,
    /// Whether the stream has ended (the game no longer visible, or idle too long).
    ended: bool,
}

async fn stream(
    app: web::Data<AppState>,
    reader: Reader,
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse> {
    let viewer = reader.viewer;
    let limits = app.limits.clone();
    let heard = app.appends.subscribe();
    let seen = {
        let app = app.clone();
        blocking(move || visible(&app, viewer, &path)).await?
    };
    // Kept as long as the body is: given back when the stream ends or its follower goes.
    let place = app.streams.take(address_key(&req), limits.streams, limits.streams_per_address)?;
    let id = seen.id().to_string();
    let now = seen.access().events;
    let following = Following {
        app: app.clone(),
        viewer,
        heard,
        id,
        last: now,
        first: Some(Bytes::from(message(now))),
        quiet_since: tokio::time::Instant::now(),
        sent_at: tokio::time::Instant::now(),
        ended: false,
    };
    let body = futures_util::stream::unfold((following, place), move |(mut f, place)| {
        let limits = limits.clone();
        async move {
            let next = f.next(&limits).await?;
            Some((Ok::<_, actix_web::Error>(next), (f, place)))
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        // Sent as it is written: never compressed or kept.
        .insert_header(ContentEncoding::Identity)
        .insert_header(CacheControl(vec![CacheDirective::NoCache]))
        .streaming(body))
}

impl Following {
    /// The next thing to send, or `None` when the stream ends.
    async fn next(&mut self, limits: &crate::limits::Limits) -> Option<Bytes> {
        if self.ended {
            return None;
        }
        let next = self.next_unstamped(limits).await;
        self.sent_at = tokio::time::Instant::now();
        next
    }

    async fn next_unstamped(&mut self, limits: &crate::limits::Limits) -> Option<Bytes> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        loop {
            let idle_at = self.quiet_since + limits.stream_idle;
            if tokio::time::Instant::now() >= idle_at {
                // Idle too long: a last word, and the browser reconnects when it wants to.
                self.ended = true;
                return Some(Bytes::from_static(b"event: idle\ndata: {}\n\n"));
            }
            let beat_at = (self.sent_at + limits.stream_heartbeat).min(idle_at);
            match tokio::time::timeout_at(beat_at, self.heard.recv()).await {
                Err(_) if tokio::time::Instant::now() >= idle_at => continue,
                Err(_) => {
                    if !self.still_visible().await {
                        return self.gone();
                    }
                    return Some(Bytes::from_static(b": still here\n\n"));
                }
                Ok(Ok((game, Heard::Appended(events)))) if game == self.id && events > self.last => {
                    if !self.still_visible().await {
                        return self.gone();
                    }
                    self.last = events;
                    self.quiet_since = tokio::time::Instant::now();
                    return Some(Bytes::from(message(events)));
                }
                Ok(Ok((game, Heard::SeenByChanged))) if game == self.id => {
                    if !self.still_visible().await {
                        return self.gone();
                    }
                }
                Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => continue,
                Ok(Err(broadcast::error::RecvError::Closed)) => return None,
            }
        }
    }

    /// Whether the follower may still see the game, as the store says now (or as this server learnt in the
    /// last `TRUSTED_FOR`). A database that does not answer keeps the stream: it ends only on a "no".
    async fn still_visible(&self) -> bool {
        let (app, viewer, id) = (self.app.clone(), self.viewer, self.id.clone());
        match blocking(move || visible(&app, viewer, &id)).await {
            Ok(_) => true,
            Err(e) => e.status != StatusCode::NOT_FOUND,
        }
    }

    /// The game is no longer the follower's to see: the stream says so, and ends.
    fn gone(&mut self) -> Option<Bytes> {
        self.ended = true;
        Some(Bytes::from_static(b"event: gone\ndata: {}\n\n"))
    }
}

fn message(events: u64) -> String {
    format!("data: {{\"seq\":{events}}}\n\n")
}
