//! The JSON API, documented in `web/openapi.json` (served at `/api/openapi.json`). Each handler reads its
//! request, runs a use case of `almanac_service` off the executor, and writes the result out.

use crate::app::{blocking, loaded, AppState, Result};
use crate::error::ApiError;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use almanac_service::{At, EventRow};
use almanac_store::{GameFilter, Inserted};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/api/games").route(web::get().to(list)).route(web::post().to(upload)))
        .route("/api/games/{id}", web::get().to(game))
        .service(web::resource("/api/games/{id}/events").route(web::get().to(events)).route(web::post().to(append)))
        .route("/api/games/{id}/state", web::get().to(state))
        .route("/api/games/{id}/stats", web::get().to(stats))
        .route("/api/games/{id}/charts/{chart}", web::get().to(chart));
}

#[derive(Deserialize)]
struct UploadQuery {
    format: Option<String>,
}

/// Reads a request body up to `limit` bytes; a larger one is a 413 without reading the rest.
async fn read_body(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>> {
    use futures_util::StreamExt;
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request(format!("reading the upload: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the upload is larger than the limit of {limit} bytes"),
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

async fn upload(
    app: web::Data<AppState>,
    query: web::Query<UploadQuery>,
    payload: web::Payload,
) -> Result<HttpResponse> {
    let body = read_body(payload, app.max_upload).await?;
    let format = match query.format.as_deref() {
        None | Some("auto") => None,
        Some(f) => Some(almanac_service::format(f).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown format `{f}` (auto, {})",
                almanac_service::format_names().join(", ")
            ))
        })?),
    };
    let text = String::from_utf8(body).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        message: format!("the file is not UTF-8 text: {e}"),
        line: Some(1),
    })?;
    let inserted = app.uploads.store(format, text).await?;
    Ok(match inserted {
        Inserted::New(id) => HttpResponse::Created().json(json!({"id": id})),
        Inserted::Existing(id) => HttpResponse::Ok().json(json!({"id": id})),
    })
}

#[derive(Deserialize)]
struct ListQuery {
    ruleset: Option<String>,
    player: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn list(app: web::Data<AppState>, q: web::Query<ListQuery>) -> Result<HttpResponse> {
    let q = q.into_inner();
    let filter = GameFilter {
        ruleset: q.ruleset.filter(|s| !s.is_empty()),
        player: q.player.filter(|s| !s.is_empty()),
        limit: Some(q.limit.unwrap_or(50).min(1000)),
        offset: q.offset,
    };
    let games = blocking(move || Ok(app.pool.read(|s| almanac_service::list(s, &filter))??)).await?;
    Ok(HttpResponse::Ok().json(json!({"games": games})))
}

async fn game(app: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse> {
    let summary = blocking(move || {
        let (id, g) = loaded(&app, &path)?;
        Ok(app.pool.read(|s| almanac_service::summary(s, &id, g.as_ref()))??)
    })
    .await?;
    Ok(HttpResponse::Ok().json(summary))
}

#[derive(Deserialize)]
struct EventsQuery {
    from: Option<u64>,
    to: Option<u64>,
}

async fn events(app: web::Data<AppState>, path: web::Path<String>, q: web::Query<EventsQuery>) -> Result<HttpResponse> {
    let (from, to) = (q.from.unwrap_or(1), q.to.unwrap_or(u64::MAX >> 1));
    let (id, rows): (String, Vec<EventRow>) = blocking(move || {
        let (id, g) = loaded(&app, &path)?;
        let rows = app.pool.read(|s| almanac_service::events(s, &id, g.as_ref(), from, to))??;
        Ok((id, rows))
    })
    .await?;
    Ok(HttpResponse::Ok().json(json!({"game": id, "events": rows})))
}

#[derive(Deserialize)]
struct AppendBody {
    expected_seq: u64,
    events: Vec<Value>,
}

async fn append(app: web::Data<AppState>, path: web::Path<String>, payload: web::Payload) -> Result<HttpResponse> {
    let bytes = read_body(payload, app.max_upload).await?;
    let body: AppendBody = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("expected {{\"expected_seq\": N, \"events\": [...]}}: {e}")))?;
    let lines: Vec<String> = body.events.iter().map(|e| e.to_string()).collect();
    let (id, seq) = blocking(move || {
        let id = app.pool.read(|s| almanac_service::resolve(s, &path))??;
        let (seq, game) = app.pool.write(|s| almanac_service::append(s, &id, body.expected_seq, &lines))?;
        // The states after the old events stay true (the log only grew): only the timeline is new.
        app.timelines.put(id.clone(), Arc::from(game));
        Ok((id, seq))
    })
    .await?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "seq": seq})))
}

#[derive(Deserialize)]
struct StateQuery {
    turn: Option<u32>,
    seq: Option<usize>,
}

async fn state(app: web::Data<AppState>, path: web::Path<String>, q: web::Query<StateQuery>) -> Result<HttpResponse> {
    let at = match (q.turn, q.seq) {
        (Some(t), None) => At::Turn(t),
        (None, Some(s)) => At::Seq(s),
        (None, None) => At::Final,
        (Some(_), Some(_)) => return Err(ApiError::bad_request("give `turn` or `seq`, not both")),
    };
    // A state asked before of a game in memory is answered at once, without a thread of the pool.
    if let Some(game) = app.timelines.get(&path) {
        if let Ok(n) = almanac_service::events_at(&path, game.as_ref(), at) {
            if let Some(json) = app.states.get(&(path.to_string(), n as u64)) {
                return Ok(HttpResponse::Ok().content_type("application/json").body(json));
            }
        }
    }
    let body = blocking(move || {
        let (id, g) = loaded(&app, &path)?;
        let n = almanac_service::events_at(&id, g.as_ref(), at)? as u64;
        let key = (id, n);
        if let Some(json) = app.states.get(&key) {
            return Ok(json);
        }
        let state = almanac_service::state(&key.0, g.as_ref(), At::Seq(n as usize))?;
        let json = Bytes::from(serde_json::to_vec(&state).map_err(ApiError::internal)?);
        app.states.put(key, json.clone());
        Ok(json)
    })
    .await?;
    Ok(HttpResponse::Ok().content_type("application/json").body(body))
}

async fn stats(app: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse> {
    let stats = blocking(move || {
        Ok(app.pool.read(|s| {
            let id = almanac_service::resolve(s, &path)?;
            almanac_service::stats(s, &id)
        })??)
    })
    .await?;
    Ok(HttpResponse::Ok().json(stats))
}

async fn chart(app: web::Data<AppState>, path: web::Path<(String, String)>) -> Result<HttpResponse> {
    let (game, file) = path.into_inner();
    let name = file.strip_suffix(".svg").unwrap_or(&file).to_string();
    // A chart drawn before of a game in memory is answered at once.
    if let Some(timeline) = app.timelines.get(&game) {
        if let Some(svg) = app.charts.get(&(game.clone(), name.clone(), timeline.event_count() as u64)) {
            return Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg));
        }
    }
    let svg = blocking(move || {
        let (id, events) = app.pool.read(|s| -> almanac_service::Result<_> {
            let id = almanac_service::resolve(s, &game)?;
            let events = s.game(&id)?.event_count;
            Ok((id, events))
        })??;
        let key = (id, name, events);
        if let Some(svg) = app.charts.get(&key) {
            return Ok(svg);
        }
        let svg = Bytes::from(app.pool.read(|s| almanac_service::chart(s, &key.0, &key.1))??);
        app.charts.put(key, svg.clone());
        Ok(svg)
    })
    .await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}
