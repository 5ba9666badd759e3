//! Spectators follow a live game as its entries land: `GET /api/games/{id}/stream`, Server-Sent Events
//! (one way, from the server, over plain HTTP: what a spectator needs, and what a browser's `EventSource`
//! reconnects by itself). Each message is the game's number of events now; the page fetches what it has
//! not seen. An append on this server is announced here at once; on a PostgreSQL store every server also
//! listens for the appends the others commit (`LISTEN`/`NOTIFY`), so a spectator of any server follows a
//! recorder of any other.

use crate::access::Reader;
use crate::app::{blocking, visible, AppState, Result};
use actix_web::http::header::{CacheControl, CacheDirective, ContentEncoding};
use actix_web::{web, HttpResponse};
use bytes::Bytes;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a stream stays silent before a comment keeps it open through proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Where appends are announced (`AppState::appends`).
pub fn channel() -> broadcast::Sender<(String, u64)> {
    // Spectators that fall this far behind skip to the newest count (all a message says).
    broadcast::channel(1024).0
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/games/{id}/stream", web::get().to(stream));
}

/// Tells this server's spectators of `id` that it has `events` events now.
pub fn announce(app: &AppState, id: &str, events: u64) {
    // No spectator is no error.
    let _ = app.appends.send((id.to_string(), events));
}

/// On a store shared by several servers, hears every append any of them commits, for as long as the
/// server runs: who may see the game and what it holds are read again, and its spectators hear of it.
pub fn listen(app: web::Data<AppState>, db: PathBuf) {
    if !almanac_store::Store::announces_appends(&db) {
        return;
    }
    std::thread::spawn(move || loop {
        let heard = almanac_store::Store::listen_for_appends(&db, |id, events| {
            app.access.forget(&id.to_string());
            announce(&app, id, events);
        });
        if let Err(e) = heard {
            tracing::warn!("listening for appends: {e}; again in a second");
        }
        std::thread::sleep(Duration::from_secs(1));
    });
}

async fn stream(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let viewer = reader.viewer;
    let heard = app.appends.subscribe();
    let seen = {
        let app = app.clone();
        blocking(move || visible(&app, viewer, &path)).await?
    };
    let id = seen.id().to_string();
    let now = seen.access().events;
    let first = Bytes::from(message(now));
    let state = (heard, id, now, Some(first));
    let body = futures_util::stream::unfold(state, |(mut heard, id, mut last, first)| async move {
        if let Some(first) = first {
            return Some((Ok::<_, actix_web::Error>(first), (heard, id, last, None)));
        }
        loop {
            match actix_web::rt::time::timeout(KEEP_ALIVE, heard.recv()).await {
                Err(_) => return Some((Ok(Bytes::from_static(b": still here\n\n")), (heard, id, last, None))),
                Ok(Ok((game, events))) if game == id && events > last => {
                    last = events;
                    return Some((Ok(Bytes::from(message(events))), (heard, id, last, None)));
                }
                Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => continue,
                Ok(Err(broadcast::error::RecvError::Closed)) => return None,
            }
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        // Sent as it is written: never compressed or kept.
        .insert_header(ContentEncoding::Identity)
        .insert_header(CacheControl(vec![CacheDirective::NoCache]))
        .streaming(body))
}

fn message(events: u64) -> String {
    format!("data: {{\"seq\":{events}}}\n\n")
}
