//! The JSON API, documented in `web/openapi.json` (served at `/api/openapi.json`). Each handler reads its
//! request, runs a use case of `almanac_service` off the executor, and writes the result out. Reads take a
//! [`Reader`] (the public, or a club by its token) and see only what it may; writes take a [`Writer`].

use crate::access::{Reader, Writer};
use crate::app::{
    blocking, delete_game, forget_access, kept_timeline, loaded, publish_game, timeline_of, upload_slot, visible,
    visible_in_memory, AppState, Kept, Result,
};
use crate::body::{require_type, Expected, Json};
use crate::error::ApiError;
use crate::limits::{read_body, Limits};
use crate::uploads::format_named;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::{At, EventRow, GameFilter, Inserted, Ownership, Sort, Viewer};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/status", web::get().to(status))
        .service(web::resource("/api/games").route(web::get().to(list)).route(web::post().to(upload)))
        .service(web::resource("/api/games/{id}").route(web::get().to(game)).route(web::delete().to(delete)))
        .route("/api/games/{id}/publish", web::post().to(publish))
        .route("/api/games/{id}/log", web::get().to(log))
        .service(web::resource("/api/games/{id}/events").route(web::get().to(events)).route(web::post().to(append)))
        .route("/api/games/{id}/state", web::get().to(state))
        .route("/api/games/{id}/next", web::get().to(next))
        .route("/api/games/{id}/stats", web::get().to(stats))
        .route("/api/games/{id}/coach", web::get().to(coach))
        .route("/api/games/{id}/chances", web::get().to(chances))
        .route("/api/games/{id}/charts/{chart}", web::get().to(chart))
        .service(web::resource("/api/games/{id}/notes").route(web::get().to(notes)).route(web::post().to(add_note)));
}

/// The media types an upload may say it is: the files of our format and of other programs'. A form's
/// types (urlencoded, multipart) are refused, so that no page elsewhere can post one with a form.
const UPLOAD_TYPES: &[&str] =
    &["application/json", "application/x-ndjson", "application/jsonl", "application/octet-stream", "text/plain"];

#[derive(Deserialize)]
struct UploadQuery {
    format: Option<String>,
    /// Publish at once (a club's upload is private to it otherwise).
    publish: Option<bool>,
}

async fn upload(
    app: web::Data<AppState>,
    writer: Writer,
    req: HttpRequest,
    query: web::Query<UploadQuery>,
    payload: web::Payload,
) -> Result<HttpResponse> {
    require_type(&req, UPLOAD_TYPES, true)?;
    let format = format_named(query.format.as_deref())?;
    let _slot = upload_slot(&app, writer.club.id).await?;
    let body = read_body(payload, app.max_upload, app.limits.body_timeout).await?;
    let text = String::from_utf8(body)
        .map_err(|e| ApiError { line: Some(1), ..ApiError::bad_request(format!("the file is not UTF-8 text: {e}")) })?;
    let ownership = Ownership { club: Some(writer.club.id), published: query.publish.unwrap_or(false) };
    let crate::uploads::Stored { inserted, live } = app.uploads.store_keeping(format, text, ownership).await?;
    if let Inserted::Existing(id) = &inserted {
        // An upload by its owner shows a deleted game again.
        forget_access(&app, id);
    }
    // A game not over is kept in memory with its tally, as an append leaves it: its first append costs what
    // the next ones do, however long the game.
    if let (Inserted::New(id), Some(game)) = (&inserted, live) {
        let (app, id) = (app.clone(), id.clone());
        blocking(move || {
            let kept = Arc::new(Kept::new(almanac_service::LiveGame::counted(game)));
            let weight = kept.read().memory_estimate();
            app.timelines.put(id, kept, weight);
            Ok(())
        })
        .await?;
    }
    Ok(match inserted {
        Inserted::New(id) => HttpResponse::Created().json(json!({"id": id, "existing": false})),
        Inserted::Existing(id) => HttpResponse::Ok().json(json!({"id": id, "existing": true})),
    })
}

#[derive(Deserialize)]
struct ListQuery {
    ruleset: Option<String>,
    player: Option<String>,
    q: Option<String>,
    sort: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn list(app: web::Data<AppState>, reader: Reader, q: web::Query<ListQuery>) -> Result<HttpResponse> {
    let q = q.into_inner();
    let filter = GameFilter {
        viewer: reader.viewer,
        ruleset: q.ruleset.filter(|s| !s.is_empty()),
        player: q.player.filter(|s| !s.is_empty()),
        search: q.q.filter(|s| !s.trim().is_empty()),
        sort: match q.sort.as_deref() {
            None => Sort::default(),
            Some(name) => Sort::from_name(name).ok_or_else(|| {
                let known: Vec<&str> = Sort::ALL.iter().map(|(_, n, _)| *n).collect();
                ApiError::bad_request(format!("unknown sort `{name}` ({})", known.join(", ")))
            })?,
        },
        limit: Some(q.limit.unwrap_or(50).min(1000)),
        offset: q.offset,
    };
    let games = blocking(move || {
        let rows = app.pool.read(|s| almanac_service::list(s, &filter))??;
        Ok(rows
            .into_iter()
            .map(|row| Listed { stale: app.derivation.is_stale(&row.id), live: row.winner.is_none(), row })
            .collect::<Vec<_>>())
    })
    .await?;
    Ok(HttpResponse::Ok().json(json!({"games": games})))
}

/// A game of the list, whether its numbers are still those of an older version of its rules, and whether
/// it is still being played (no winner yet: its replay follows the entries as they land).
#[derive(Serialize)]
struct Listed {
    #[serde(flatten)]
    row: almanac_store::GameRow,
    stale: bool,
    live: bool,
}

/// What the server is doing besides answering: how far it is with deriving again the games an older
/// version of their rules derived (`null`: none left), and how many reads the primary database and each
/// replica served, and each replica as this server sees it (in rotation or not, silent how long, how far
/// behind), and how many followers' streams are open; and the models (each ruleset's newest, by id) whose
/// numbers the derivation's marks follow.
async fn status(app: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(json!({
        "derivation": app.derivation.progress(),
        "models": app.derivation.models(),
        "reads": app.pool.reads_served(),
        "replicas": app.pool.replicas(),
        "streams": app.streams.open(),
    }))
}

async fn game(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let summary = blocking(move || {
        let (seen, g) = loaded(&app, reader.viewer, &path)?;
        let g = g.read();
        let mut summary = app.pool.read(|s| almanac_service::summary(s, &seen, g.game()))??;
        summary.stale |= app.derivation.is_stale(seen.id());
        Ok(summary)
    })
    .await?;
    Ok(HttpResponse::Ok().json(summary))
}

/// The stored log as an almanac/1 file, to download.
async fn log(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let (id, text) = blocking(move || {
        let seen = visible(&app, reader.viewer, &path)?;
        let id = seen.id().to_string();
        let (header, events) = app.pool.read(|s| almanac_service::log(s, &seen))??;
        let mut text = header;
        for e in events {
            text.push('\n');
            text.push_str(&e);
        }
        text.push('\n');
        Ok((id, text))
    })
    .await?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-ndjson; charset=utf-8")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"{id}.jsonl\"")))
        .body(text))
}

#[derive(Deserialize)]
struct EventsQuery {
    from: Option<u64>,
    to: Option<u64>,
    limit: Option<u64>,
}

/// A page of events: `from..=to` by seq, at most `limit` (and the server's page size); `next` is where the
/// next page starts when there is one.
async fn events(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<String>,
    q: web::Query<EventsQuery>,
) -> Result<HttpResponse> {
    let page = q.limit.unwrap_or(u64::MAX).clamp(1, app.limits.events_per_page);
    let from = q.from.unwrap_or(1).max(1);
    let to = q.to.unwrap_or(u64::MAX).min(from.saturating_add(page - 1));
    let (id, rows, count): (String, Vec<EventRow>, u64) = blocking(move || {
        let (seen, g) = loaded(&app, reader.viewer, &path)?;
        let g = g.read();
        let rows = app.pool.read(|s| almanac_service::events(s, &seen, g.game(), from, to))??;
        Ok((seen.id().to_string(), rows, g.game().event_count() as u64))
    })
    .await?;
    let asked_end = q.to.unwrap_or(u64::MAX).min(count);
    let next = (to < asked_end).then(|| to + 1);
    Ok(HttpResponse::Ok().json(json!({"game": id, "events": rows, "count": count, "next": next})))
}

#[derive(Deserialize)]
struct AppendBody {
    expected_seq: u64,
    events: Vec<Value>,
}

impl Expected for AppendBody {
    const EXPECTED: &'static str = "{\"expected_seq\": N, \"events\": [...]}";

    fn largest(limits: &Limits) -> usize {
        limits.max_append
    }
}

async fn append(
    app: web::Data<AppState>,
    writer: Writer,
    path: web::Path<String>,
    Json(body): Json<AppendBody>,
) -> Result<HttpResponse> {
    let lines: Vec<String> = body.events.iter().map(|e| e.to_string()).collect();
    let club = writer.club.id;
    let app_after = app.clone();
    let (id, seq) = blocking(move || {
        let id = visible(&app, almanac_service::Viewer::Club(club), &path)?.id().to_string();
        // The game in memory is extended in place, under its own lock; one not kept is loaded and kept.
        // Appended to or not, it is the stored log again. The states after the old events stay true (the
        // log only grew): only the game grew, and is weighed again.
        let expected = body.expected_seq;
        let appended = match app.timelines.get(&id) {
            Some(kept) => {
                let seq = {
                    let mut live = kept.write();
                    app.pool.write(|s| almanac_service::append_to(s, club, &id, expected, &lines, &mut live))
                };
                let weight = kept.read().memory_estimate();
                app.timelines.put(id.clone(), kept, weight);
                seq
            }
            None => {
                let mut live = None;
                let seq = app.pool.write(|s| almanac_service::append(s, club, &id, expected, &lines, &mut live));
                if let Some(live) = live {
                    let weight = live.memory_estimate();
                    app.timelines.put(id.clone(), Arc::new(Kept::new(live)), weight);
                }
                seq
            }
        };
        Ok((id, appended?))
    })
    .await?;
    // The game's spectators on this server hear of it at once (on the others, by the store's announcement).
    crate::follow::announce(&app_after, &id, seq);
    Ok(HttpResponse::Ok().json(json!({"id": id, "seq": seq})))
}

#[derive(Deserialize)]
struct PublishBody {
    published: bool,
}

impl Expected for PublishBody {
    const EXPECTED: &'static str = "{\"published\": true or false}";
}

/// Publishes a club's game (anyone may read it), or makes it private again.
async fn publish(
    app: web::Data<AppState>,
    writer: Writer,
    path: web::Path<String>,
    Json(body): Json<PublishBody>,
) -> Result<HttpResponse> {
    let id = publish_game(&app, writer.club.id, path.into_inner(), body.published).await?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "published": body.published})))
}

/// Deletes a club's upload: the game disappears from every view; its events stay stored.
async fn delete(app: web::Data<AppState>, writer: Writer, path: web::Path<String>) -> Result<HttpResponse> {
    let id = delete_game(&app, writer.club.id, path.into_inner()).await?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "deleted": true})))
}

#[derive(Deserialize)]
struct StateQuery {
    turn: Option<u32>,
    seq: Option<usize>,
}

async fn state(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<String>,
    q: web::Query<StateQuery>,
) -> Result<HttpResponse> {
    let at = match (q.turn, q.seq) {
        (Some(t), None) => At::Turn(t),
        (None, Some(s)) => At::Seq(s),
        (None, None) => At::Final,
        (Some(_), Some(_)) => return Err(ApiError::bad_request("give `turn` or `seq`, not both")),
    };
    let viewer = reader.viewer;
    // A state asked before of a game in memory is answered at once, without a thread of the pool.
    if let Some(seen) = visible_in_memory(&app, viewer, &path) {
        if let Some(game) = app.timelines.get(&seen.id().to_string()) {
            let n = almanac_service::events_at(game.read().game(), at);
            if let Some(json) = app.states.get(&(seen.id().to_string(), n as u64)) {
                return Ok(HttpResponse::Ok().content_type("application/json").body(json));
            }
        }
    }
    // A state after a given event of a SQLite store is one checkpoint and a few events, read through SQLite's
    // page cache: short, bounded work, answered here rather than handed to a pool thread and back (a tenth
    // of a cold state's time). A turn may need the whole timeline, and PostgreSQL a network's wait.
    let body = if matches!(at, At::Seq(_) | At::Final) && app.pool.reads_in_process() {
        state_json(&app, viewer, &path, at)?
    } else {
        blocking(move || state_json(&app, viewer, &path, at)).await?
    };
    Ok(HttpResponse::Ok().content_type("application/json").body(body))
}

/// The state of game `path` at `at`, as JSON, from the caches or the store (and kept in the cache).
fn state_json(app: &AppState, viewer: Viewer, path: &str, at: At) -> Result<Bytes> {
    let seen = visible(app, viewer, path)?;
    let kept = kept_timeline(app, &seen);
    // A game in memory answers from its timeline. One out of memory answers a moment after an event from its
    // nearest checkpoint, never a replay from its first event; a moment named by its turn needs the
    // timeline, which says which event ends a turn.
    let (n, timeline) = match (kept, at) {
        (None, At::Seq(s)) => ((s as u64).min(seen.access().events), None),
        (None, At::Final) => (seen.access().events, None),
        (kept, _) => {
            let g = match kept {
                Some(g) => g,
                None => timeline_of(app, &seen)?,
            };
            let n = almanac_service::events_at(g.read().game(), at) as u64;
            (n, Some(g))
        }
    };
    let key = (seen.id().to_string(), n);
    if let Some(json) = app.states.get(&key) {
        return Ok(json);
    }
    let state = match timeline {
        Some(g) => almanac_service::state(&key.0, g.read().game(), At::Seq(n as usize))?,
        None => app.pool.read(|s| almanac_service::state_from_store(s, &seen, Some(n)))??,
    };
    let json = Bytes::from(serde_json::to_vec(&state).map_err(ApiError::internal)?);
    app.states.put(key, json.clone(), json.len());
    Ok(json)
}

/// What may happen next after the game's last event: the decisions open and the legal places, as the
/// rules say them (a recorder offers only these).
async fn next(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let next = blocking(move || {
        let seen = visible(&app, reader.viewer, &path)?;
        let g = timeline_of(&app, &seen)?;
        let next = almanac_service::next(seen.id(), g.read().game());
        Ok(next)
    })
    .await?;
    Ok(HttpResponse::Ok().json(next))
}

async fn stats(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let stats = blocking(move || {
        let seen = visible(&app, reader.viewer, &path)?;
        Ok(app.pool.read(|s| almanac_service::stats(s, &seen))??)
    })
    .await?;
    Ok(HttpResponse::Ok().json(stats))
}

/// The end of the game as a coach reads it: per player, each number with the events behind it.
async fn coach(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let table = blocking(move || {
        let seen = visible(&app, reader.viewer, &path)?;
        Ok(app.pool.read(|s| almanac_service::coach(s, &seen))??)
    })
    .await?;
    Ok(HttpResponse::Ok().json(table))
}

/// A ruleset's win-chance model, as this server last read it (a few seconds ago at most), or why there is
/// none (asked of the store each time: a model trained is shown at once).
pub fn model_of(app: &AppState, ruleset: &str) -> Result<crate::app::ModelOf> {
    if let Some(m) = app.models.get(&ruleset.to_string()) {
        return Ok(Ok(m));
    }
    let m = app.pool.read(|s| almanac_service::chances::model(s, ruleset))??.map(Arc::new);
    if let Ok(m) = &m {
        app.models.put(ruleset.to_string(), m.clone());
    }
    Ok(m)
}

/// A game in memory and its ruleset's model (and when it was trained); where there is no model, why, as a 404.
fn with_model(
    app: &AppState,
    viewer: almanac_store::Viewer,
    game: &str,
) -> Result<(almanac_store::Visible, Arc<Kept>, crate::app::KeptModel)> {
    let (seen, kept) = loaded(app, viewer, game)?;
    let model = model_of(app, kept.read().game().ruleset())?;
    let model = model.map_err(|why| ApiError::new(StatusCode::NOT_FOUND, why.to_string()))?;
    Ok((seen, kept, model))
}

/// A game's win chances at every event, read with its ruleset's model; or, where there is none, why.
fn chances_of(
    app: &AppState,
    viewer: almanac_store::Viewer,
    game: &str,
) -> Result<Arc<almanac_service::chances::Chances>> {
    let (seen, kept, m) = with_model(app, viewer, game)?;
    let live = kept.read();
    Ok(kept_chances(app, &seen, live.game(), &m))
}

/// The chances of a game (`id`) read with a model, computed once for its length and the model's training.
pub fn kept_chances(
    app: &AppState,
    seen: &almanac_store::Visible,
    game: &dyn almanac_core::Game,
    m: &crate::app::KeptModel,
) -> Arc<almanac_service::chances::Chances> {
    let key = (seen.id().to_string(), m.1.clone(), game.event_count() as u64);
    if let Some(kept) = app.chances.get(&key) {
        return kept;
    }
    // A finished game's decisions as its read model judged them with this model; judged now where they
    // were not (a game in play, a model newer than its numbers), or where the store does not answer.
    let stored = match game.winner() {
        Some(_) => match app.pool.read(|s| s.judged_decisions(seen)) {
            Ok(Ok(stored)) => Some(stored),
            _ => None,
        },
        None => None,
    };
    let judged = stored.filter(|(trained_at, _)| trained_at.as_deref() == Some(m.1.as_str())).map(|(_, d)| d);
    let chances = Arc::new(almanac_service::chances::chances_of(game, &m.0, &m.1, judged));
    // Its weight: about what its JSON takes (a chance per seat per event, and a line per decision).
    let weight = 64 * chances.by_event.len() * chances.players.len().max(1) + 256 * chances.decisions.len();
    app.chances.put(key, chances.clone(), weight);
    chances
}

/// A game's win-chance chart. It changes with the model as well as with the log, so it is cached under the
/// model's training time too.
fn chances_chart(app: &AppState, viewer: almanac_store::Viewer, game: &str) -> Result<Bytes> {
    let (seen, kept, m) = with_model(app, viewer, game)?;
    let live = kept.read();
    let key = (seen.id().to_string(), format!("chances@{}", m.1), live.game().event_count() as u64);
    if let Some(svg) = app.charts.get(&key) {
        return Ok(svg);
    }
    let chances = kept_chances(app, &seen, live.game(), &m);
    let svg = Bytes::from(almanac_service::chances::chart(live.game(), &chances)?);
    app.charts.put(key, svg.clone(), svg.len());
    Ok(svg)
}

async fn chances(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let chances = blocking(move || chances_of(&app, reader.viewer, &path)).await?;
    Ok(HttpResponse::Ok().json(&*chances))
}

async fn chart(
    app: web::Data<AppState>,
    reader: Reader,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse> {
    let (game, file) = path.into_inner();
    let name = file.strip_suffix(".svg").unwrap_or(&file).to_string();
    let viewer = reader.viewer;
    // A chart drawn before of a game in memory is answered at once.
    if let Some(seen) = visible_in_memory(&app, viewer, &game) {
        if let Some(timeline) = app.timelines.get(&seen.id().to_string()) {
            if let Some(svg) =
                app.charts.get(&(seen.id().to_string(), name.clone(), timeline.read().game().event_count() as u64))
            {
                return Ok(chart_answer(&req, svg));
            }
        }
    }
    let svg = blocking(move || {
        if name == "chances" {
            return chances_chart(&app, viewer, &game);
        }
        let seen = visible(&app, viewer, &game)?;
        let events = app.pool.read(|s| s.game(&seen))??.event_count;
        let key = (seen.id().to_string(), name, events);
        if let Some(svg) = app.charts.get(&key) {
            return Ok(svg);
        }
        let svg = Bytes::from(app.pool.read(|s| almanac_service::chart(s, &seen, &key.1))??);
        app.charts.put(key.clone(), svg.clone(), svg.len());
        Ok(svg)
    })
    .await?;
    Ok(chart_answer(&req, svg))
}

/// A chart, tagged by its bytes: a game's chart at a given event count never changes, so a browser holding
/// it revalidates without fetching it again (private: the game may be a club's).
fn chart_answer(req: &HttpRequest, svg: Bytes) -> HttpResponse {
    crate::validators::tagged(req, &crate::validators::tag_of(&svg), "image/svg+xml", true, svg)
}

/// The coaches' notes on a game, in the order of the game.
async fn notes(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let viewer = reader.viewer;
    let notes = blocking(move || Ok(app.pool.read(|s| almanac_service::notes(s, viewer, &path))??)).await?;
    Ok(HttpResponse::Ok().json(notes))
}

#[derive(Deserialize)]
struct NoteBody {
    /// The event the note follows (0: before the first).
    seq: u64,
    text: String,
}

impl Expected for NoteBody {
    const EXPECTED: &'static str = "{\"seq\": N, \"text\": \"...\"}";
}

/// A club's note on a moment of one of its games.
async fn add_note(
    app: web::Data<AppState>,
    writer: Writer,
    path: web::Path<String>,
    Json(body): Json<NoteBody>,
) -> Result<HttpResponse> {
    let club = writer.club.id;
    let note =
        blocking(move || Ok(app.pool.write(|s| almanac_service::add_note(s, club, &path, body.seq, &body.text))?))
            .await?;
    Ok(HttpResponse::Created().json(note))
}
