//! Building the application and binding it to a listener.

use crate::{api, assets, cache::Cache, pages};
use actix_web::dev::Server;
use actix_web::{web, App, HttpServer};
use almanac_store::Store;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Mutex;

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

/// What every request shares.
pub struct AppState {
    /// One writer: SQLite takes one at a time anyway.
    pub store: Mutex<Store>,
    pub cache: Cache,
    pub max_upload: usize,
}

/// Starts the server on `listener`; the returned future runs it.
pub fn run(listener: TcpListener, config: Config) -> std::io::Result<Server> {
    let store = Store::open(&config.db).map_err(std::io::Error::other)?;
    let state =
        web::Data::new(AppState { store: Mutex::new(store), cache: Cache::new(64), max_upload: config.max_upload });
    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(web::QueryConfig::default().error_handler(api::query_error))
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
