//! The HTTP server: a JSON API (`api`) and the dashboard (`pages`, with the scripts and styles of `web/` and
//! each game's replay drawing, `assets`). It holds no rules and no SQL: requests become calls to
//! `almanac_service`, run off the async executor on the pool's connections (`app`), whose results it
//! writes out. Uploads queue on a worker of lower priority (`uploads`). Every request is a `tracing` span (`tracing-actix-web`: method, route, status, a request id).

mod access;
mod api;
mod app;
mod assets;
mod body;
mod breaks;
mod cache;
mod derivation;
mod error;
mod follow;
mod form_data;
mod limits;
mod pages;
mod players;
mod proxies;
mod questions;
mod recorder;
mod session;
pub mod startup;
mod streams;
mod uploads;
mod validators;

pub use limits::Limits;
pub use proxies::{NotAProxy, TrustedProxies};
pub use startup::{run, Config};
