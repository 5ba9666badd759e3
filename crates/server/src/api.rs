//! The JSON API. Documented in `web/openapi.json` (served at `/api/openapi.json`).

use crate::startup::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse, ResponseError};
use almanac_core::Game;
use almanac_formats::Format;
use almanac_service::{At, ServiceError};
use almanac_store::{GameFilter, Inserted, StoreError};
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

/// An error as JSON: `{"error": "...", "line": N}` (line when the problem is on a line of a log).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    line: Option<usize>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), line: None }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }
    fn error_response(&self) -> HttpResponse {
        let mut body = json!({"error": self.message});
        if let Some(line) = self.line {
            body["line"] = json!(line);
        }
        HttpResponse::build(self.status).json(body)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        match &e {
            ServiceError::Import(i) => ApiError {
                status: if i.is_malformed() { StatusCode::BAD_REQUEST } else { StatusCode::UNPROCESSABLE_ENTITY },
                message: i.reason(),
                line: Some(i.line()),
            },
            ServiceError::Rejected(l) => {
                ApiError { status: StatusCode::UNPROCESSABLE_ENTITY, message: l.reason(), line: Some(l.line()) }
            }
            ServiceError::Store(StoreError::NotFound(_)) => ApiError::new(StatusCode::NOT_FOUND, e.to_string()),
            ServiceError::Store(StoreError::Conflict { .. }) => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            ServiceError::PastTheEnd { .. } => ApiError::new(StatusCode::BAD_REQUEST, e.to_string()),
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ServiceError::from(e).into()
    }
}

type Result<T> = std::result::Result<T, ApiError>;

/// A stored game's timeline, from the cache or loaded once.
pub fn loaded(app: &AppState, id: &str) -> Result<(String, Arc<dyn Game>)> {
    if let Some(g) = app.cache.get(id) {
        return Ok((id.to_string(), g));
    }
    let store = app.store.lock().expect("store lock");
    let (full, game) = almanac_service::load(&store, id)?;
    drop(store);
    let game: Arc<dyn Game> = Arc::from(game);
    app.cache.put(&full, game.clone());
    Ok((full, game))
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
        let chunk = chunk.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("reading the upload: {e}")))?;
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

/// Query-string errors as JSON, like every other error.
pub fn query_error(err: actix_web::error::QueryPayloadError, _: &actix_web::HttpRequest) -> actix_web::Error {
    ApiError::new(StatusCode::BAD_REQUEST, format!("query: {err}")).into()
}

async fn upload(
    app: web::Data<AppState>,
    query: web::Query<UploadQuery>,
    payload: web::Payload,
) -> Result<HttpResponse> {
    let body = read_body(payload, app.max_upload).await?;
    let format = match query.format.as_deref() {
        None | Some("auto") => None,
        Some(f) => Some(Format::from_name(f).ok_or_else(|| {
            ApiError::new(StatusCode::BAD_REQUEST, format!("unknown format `{f}` (auto, almanac, catanatron, jcz)"))
        })?),
    };
    let text = std::str::from_utf8(&body).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        message: format!("the file is not UTF-8 text: {e}"),
        line: Some(1),
    })?;
    let mut store = app.store.lock().expect("store lock");
    let (inserted, _) = almanac_service::import(&mut store, format, text)?;
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
    let games = app.store.lock().expect("store lock").list_games(&filter)?;
    Ok(HttpResponse::Ok().json(json!({"games": games})))
}

async fn game(app: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse> {
    let (id, g) = loaded(&app, &path)?;
    let row = app.store.lock().expect("store lock").game(&id)?;
    let mut v = serde_json::to_value(&row).expect("a game row serializes");
    v["header"] = g.header().clone();
    v["turns"] = json!(g.current_turn());
    v["events"] = json!(g.event_count());
    Ok(HttpResponse::Ok().json(v))
}

#[derive(Deserialize)]
struct EventsQuery {
    from: Option<u64>,
    to: Option<u64>,
}

async fn events(app: web::Data<AppState>, path: web::Path<String>, q: web::Query<EventsQuery>) -> Result<HttpResponse> {
    let (id, _) = loaded(&app, &path)?;
    let rows = app.store.lock().expect("store lock").events(&id, q.from.unwrap_or(1), q.to.unwrap_or(u64::MAX >> 1))?;
    let events: Vec<Value> = rows
        .into_iter()
        .map(|(seq, turn, body)| {
            json!({"seq": seq, "turn": turn, "event": serde_json::from_str::<Value>(&body).unwrap_or(Value::String(body))})
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({"game": id, "events": events})))
}

#[derive(Deserialize)]
struct AppendBody {
    expected_seq: u64,
    events: Vec<Value>,
}

async fn append(app: web::Data<AppState>, path: web::Path<String>, payload: web::Payload) -> Result<HttpResponse> {
    let bytes = read_body(payload, app.max_upload).await?;
    let body: AppendBody = serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, format!("expected {{\"expected_seq\": N, \"events\": [...]}}: {e}"))
    })?;
    let lines: Vec<String> = body.events.iter().map(|e| e.to_string()).collect();
    let mut store = app.store.lock().expect("store lock");
    let id = store.resolve(&path)?;
    let (seq, game) = almanac_service::append(&mut store, &id, body.expected_seq, &lines)?;
    drop(store);
    app.cache.put(&id, Arc::from(game));
    Ok(HttpResponse::Ok().json(json!({"id": id, "seq": seq})))
}

#[derive(Deserialize)]
struct StateQuery {
    turn: Option<u32>,
    seq: Option<usize>,
}

async fn state(app: web::Data<AppState>, path: web::Path<String>, q: web::Query<StateQuery>) -> Result<HttpResponse> {
    let (id, g) = loaded(&app, &path)?;
    let at = match (q.turn, q.seq) {
        (Some(t), None) => At::Turn(t),
        (None, Some(s)) => At::Seq(s),
        (None, None) => At::Final,
        (Some(_), Some(_)) => return Err(ApiError::new(StatusCode::BAD_REQUEST, "give `turn` or `seq`, not both")),
    };
    Ok(HttpResponse::Ok().json(almanac_service::state(&id, g.as_ref(), at)?))
}

async fn stats(app: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse> {
    let store = app.store.lock().expect("store lock");
    let id = store.resolve(&path)?;
    let (v, _) = almanac_service::stats(&store, &id)?;
    Ok(HttpResponse::Ok().json(v))
}

async fn chart(app: web::Data<AppState>, path: web::Path<(String, String)>) -> Result<HttpResponse> {
    let (game, chart) = path.into_inner();
    let store = app.store.lock().expect("store lock");
    let id = store.resolve(&game)?;
    let row = store.game(&id)?;
    let (_, stats) = almanac_service::stats(&store, &id)?;
    drop(store);
    let colors: Vec<Option<String>> = row.players.iter().map(|p| p.color.clone()).collect();
    let svg = match chart.as_str() {
        "vp.svg" => almanac_charts::vp(&stats, &colors),
        "production.svg" => almanac_charts::production(&stats),
        "trades.svg" => almanac_charts::trades(&stats),
        "dice.svg" => almanac_charts::dice(&stats),
        "score.svg" => almanac_charts::score_breakdown(&stats),
        other => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no chart `{other}` (vp.svg, production.svg, trades.svg, dice.svg, score.svg)"),
            ))
        }
    }
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}
