//! Building the application and binding it to a listener (the Zero To Production shape, so that tests bind
//! port 0).

use crate::app::AppState;
use crate::cache::Lru;
use crate::uploads::Uploads;
use crate::{api, assets, error, logging, pages};
use actix_web::dev::Server;
use actix_web::middleware::from_fn;
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
}

impl Config {
    pub fn new(db: PathBuf) -> Config {
        Config { db, max_upload: 16 * 1024 * 1024, workers: None }
    }
}

/// Starts the server on `listener`; the returned future runs it.
pub fn run(listener: TcpListener, config: Config) -> std::io::Result<Server> {
    let pool = Arc::new(Pool::open(&config.db).map_err(std::io::Error::other)?);
    let state = web::Data::new(AppState {
        uploads: Uploads::start(pool.clone())?,
        pool,
        timelines: Lru::new(64),
        states: Lru::new(8192),
        charts: Lru::new(1024),
        max_upload: config.max_upload,
    });
    let mut server = HttpServer::new(move || {
        App::new()
            .wrap(from_fn(logging::log_request))
            .app_data(state.clone())
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .configure(api::routes)
            .configure(pages::routes)
            .configure(assets::routes)
    })
    .listen(listener)?;
    if let Some(w) = config.workers {
        server = server.workers(w);
    }
    Ok(server.run())
}
