//! The HTTP server: a JSON API (`api`) and the dashboard (`pages`, with the scripts and styles of `web/`).
//! It holds no rules and no SQL: requests become calls to `almanac_service`, whose results it writes out.

mod api;
mod assets;
mod cache;
mod pages;
pub mod startup;

pub use startup::{run, Config};
