//! The dashboard's script, styles and the OpenAPI document, compiled in from `web/` so the binary needs
//! no files beside it.

use actix_web::{web, HttpResponse};

const REPLAY_JS: &str = include_str!("../../../web/static/replay.js");
const GAMES_JS: &str = include_str!("../../../web/static/games.js");
const STYLE_CSS: &str = include_str!("../../../web/static/style.css");
const OPENAPI: &str = include_str!("../../../web/openapi.json");

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/static/replay.js", web::get().to(|| async { file("text/javascript; charset=utf-8", REPLAY_JS) }))
        .route("/static/games.js", web::get().to(|| async { file("text/javascript; charset=utf-8", GAMES_JS) }))
        .route("/static/style.css", web::get().to(|| async { file("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/api/openapi.json", web::get().to(|| async { file("application/json", OPENAPI) }));
}

fn file(content_type: &str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok().content_type(content_type).insert_header(("Cache-Control", "no-cache")).body(body)
}
