//! Building the application and binding it to a listener (the Zero To Production shape, so that tests bind
//! port 0).

use crate::app::{AppState, TRUSTED_FOR};
use crate::cache::{Expiring, Lru};
use crate::derivation::Derivation;
use crate::limits::{Limits, Rates};
use crate::proxies::TrustedProxies;
use crate::uploads::Uploads;
use crate::{access, api, assets, error, follow, pages, players, questions, recorder, session};
use actix_web::dev::Server;
use actix_web::middleware::{from_fn, DefaultHeaders};
use actix_web::{web, App, HttpServer};
use almanac_store::Pool;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct Config {
    pub db: PathBuf,
    /// The largest upload accepted, in bytes.
    pub max_upload: usize,
    /// Worker threads (default: one per core).
    pub workers: Option<usize>,
    pub limits: Limits,
    /// Streaming replicas of the PostgreSQL `db`, read in turn (`Pool::open_replicated`).
    pub read_dbs: Vec<PathBuf>,
    /// The proxies whose word on who the client is the per-address limits believe (`proxies.rs`).
    pub trusted_proxies: TrustedProxies,
}

impl Config {
    pub fn new(db: PathBuf) -> Config {
        Config {
            db,
            max_upload: 16 * 1024 * 1024,
            workers: None,
            limits: Limits::default(),
            read_dbs: Vec::new(),
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

/// Starts the server on `listener`; the returned future runs it.
pub fn run(listener: TcpListener, config: Config) -> std::io::Result<Server> {
    let pool = Arc::new(Pool::open_replicated(&config.db, &config.read_dbs).map_err(std::io::Error::other)?);
    // Every game's seats read into memory beside the start (a second at 100,000 games), not by the first
    // question; should it fail, that question reads them.
    let warming = pool.clone();
    std::thread::spawn(move || warming.read(|store| store.read_seats()));
    let limits = config.limits.clone();
    let (keep_alive, first_request) = (limits.keep_alive, limits.first_request);
    // The games due are listed by the upload worker before its first upload, not before the first answer.
    let derivation = Arc::new(Derivation::checking());
    let state = web::Data::new(AppState {
        uploads: Uploads::start(pool.clone(), derivation.clone())?,
        derivation,
        pool,
        upload_slots: Arc::new(tokio::sync::Semaphore::new(limits.concurrent_uploads.max(1))),
        club_upload_slots: Default::default(),
        timelines: Lru::new(limits.timeline_cache_bytes),
        states: Lru::new(limits.state_cache_bytes),
        charts: Lru::new(limits.chart_cache_bytes),
        chances: Lru::new(limits.chart_cache_bytes),
        tokens: Expiring::new(TRUSTED_FOR),
        access: Expiring::new(TRUSTED_FOR),
        models: Expiring::new(std::time::Duration::from_secs(10)),
        ratings: Default::default(),
        answers: Default::default(),
        rates: Rates::new(limits.writes_per_minute),
        appends: crate::streams::channel(),
        streams: Default::default(),
        limits,
        max_upload: config.max_upload,
        trusted_proxies: config.trusted_proxies,
    });
    follow::listen(state.clone(), config.db.clone());
    let mut server = HttpServer::new(move || {
        App::new()
            // The last wrapped runs first: the log sees every request, the headers go on every answer
            // (a refused write's too).
            .wrap(from_fn(access::refuse_foreign_writes))
            .wrap(from_fn(say_stale_games))
            .wrap(security_headers())
            .wrap(actix_web::middleware::Compress::default())
            .wrap(tracing_actix_web::TracingLogger::default())
            .app_data(state.clone())
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .configure(api::routes)
            .configure(session::routes)
            .configure(pages::routes)
            .configure(recorder::routes)
            .configure(follow::routes)
            .configure(players::routes)
            .configure(questions::routes)
            .configure(assets::routes)
            .default_service(web::to(pages::not_found))
    })
    // An idle connection, or one that never sends a request, is closed rather than held.
    .keep_alive(keep_alive)
    .client_request_timeout(first_request)
    // A client that closes its side is gone: its connection (and a follower's stream, with its place among
    // the streams) ends then, not at the next heartbeat that cannot be written. No browser half-closes.
    .h1_allow_half_closed(false)
    .listen(listener)?;
    if let Some(w) = config.workers {
        server = server.workers(w);
    }
    Ok(server.run())
}

/// On every response: scripts and styles only from this site (no inline script, no `eval`; WebAssembly
/// compiled, which the recorder's rules are), no framing, no guessing of content types, no referrer sent
/// elsewhere.
fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
             object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Referrer-Policy", "same-origin"))
}

/// The header that says, while there are any, how many games' numbers are still of an older version.
const STALE_HEADER: &str = "almanac-stale-games";

/// Middleware: every answer says how many games' numbers are still of an older version, while any are.
async fn say_stale_games(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let progress = req.app_data::<actix_web::web::Data<AppState>>().and_then(|app| app.derivation.progress());
    let mut response = next.call(req).await?;
    if let Some(p) = progress.filter(|p| !p.checking) {
        response.headers_mut().insert(
            actix_web::http::header::HeaderName::from_static(STALE_HEADER),
            actix_web::http::header::HeaderValue::from(p.stale()),
        );
    }
    Ok(response)
}
