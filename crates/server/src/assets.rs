//! The dashboard's scripts, styles and the OpenAPI document, compiled in from `web/` so the binary needs
//! no files beside it; and each game's replay drawing, served from its crate through the registry.

use crate::validators::{tag_of, tagged};
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_core::Chart;
use almanac_service::GAMES;
use serde_json::Value;
use std::sync::OnceLock;

const REPLAY_JS: &str = include_str!("../../../web/static/replay.js");
const GAMES_JS: &str = include_str!("../../../web/static/games.js");
/// The table recorder: its page's module and the modules it imports (`web/static/record/`), by path.
const RECORDER: &[(&str, &str)] = &[
    ("/static/record.mjs", include_str!("../../../web/static/record.mjs")),
    ("/static/record/rules.mjs", include_str!("../../../web/static/record/rules.mjs")),
    ("/static/record/keeping.mjs", include_str!("../../../web/static/record/keeping.mjs")),
    ("/static/record/sheet.mjs", include_str!("../../../web/static/record/sheet.mjs")),
    ("/static/record/finish.mjs", include_str!("../../../web/static/record/finish.mjs")),
];
const BEGIN_JS: &str = include_str!("../../../web/static/begin.js");
const QUESTIONS_JS: &str = include_str!("../../../web/static/questions.js");
const SESSION_JS: &str = include_str!("../../../web/static/session.js");
/// Served from the top (`/recorder-worker.js`) so that its reach covers the recorder's pages.
const RECORDER_WORKER_JS: &str = include_str!("../../../web/static/recorder-worker.js");
/// The games' rules as WebAssembly (`crates/browser-rules`, built by `build.rs`): the recorder's offline
/// judge.
const RULES_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rules.wasm"));
const STYLE_CSS: &str = include_str!("../../../web/static/style.css");
const FAVICON: &str = include_str!("../../../web/static/favicon.svg");
const NOSCRIPT_CSS: &str = include_str!("../../../web/static/noscript.css");
const OPENAPI: &str = include_str!("../../../web/openapi.json");

pub fn routes(cfg: &mut web::ServiceConfig) {
    for &(path, text) in RECORDER {
        cfg.route(
            path,
            web::get().to(move |r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", text) }),
        );
    }
    cfg.route(
        "/static/replay.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", REPLAY_JS) }),
    )
    .route(
        "/static/games.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", GAMES_JS) }),
    )
    .route(
        "/static/begin.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", BEGIN_JS) }),
    )
    .route(
        "/static/questions.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", QUESTIONS_JS) }),
    )
    .route(
        "/static/session.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", SESSION_JS) }),
    )
    .route(
        "/recorder-worker.js",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/javascript; charset=utf-8", RECORDER_WORKER_JS) }),
    )
    .route(
        "/static/rules.wasm",
        web::get().to(|r: HttpRequest| async move {
            static TAG: OnceLock<String> = OnceLock::new();
            tagged(&r, TAG.get_or_init(|| tag_of(RULES_WASM)), "application/wasm", false, RULES_WASM)
        }),
    )
    .route(
        "/static/style.css",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/css; charset=utf-8", STYLE_CSS) }),
    )
    .route(
        "/static/noscript.css",
        web::get().to(|r: HttpRequest| async move { file(&r, "text/css; charset=utf-8", NOSCRIPT_CSS) }),
    )
    .route("/static/favicon.svg", web::get().to(|r: HttpRequest| async move { file(&r, "image/svg+xml", FAVICON) }))
    // Browsers ask for this whatever a page says.
    .route("/favicon.ico", web::get().to(|r: HttpRequest| async move { file(&r, "image/svg+xml", FAVICON) }))
    .route("/static/rulesets/{file}", web::get().to(ruleset_script))
    .route("/api/openapi.json", web::get().to(|r: HttpRequest| async move { file(&r, "application/json", openapi()) }));
}

/// A file of this build: tagged by its bytes, so a browser revalidates it without fetching it again.
fn file(req: &HttpRequest, content_type: &str, body: &'static str) -> HttpResponse {
    tagged(req, &tag_of(body.as_bytes()), content_type, false, body)
}

/// `/static/rulesets/<id>.js`: the replay drawing of a game.
async fn ruleset_script(req: HttpRequest, path: web::Path<String>) -> HttpResponse {
    let id = path.strip_suffix(".js").unwrap_or(&path);
    match GAMES.iter().find(|g| g.id() == id) {
        Some(g) => file(&req, "text/javascript; charset=utf-8", g.replay_script()),
        // The name comes from the URL: written as a styled problem page, escaped like every other.
        None => crate::pages::problem_page(actix_web::http::StatusCode::NOT_FOUND, &format!("no ruleset `{id}`")),
    }
}

/// The OpenAPI document with the names of this build's rulesets, formats and charts filled in.
fn openapi() -> &'static str {
    static FILLED: OnceLock<String> = OnceLock::new();
    FILLED.get_or_init(|| {
        let mut doc: Value = serde_json::from_str(OPENAPI).expect("web/openapi.json is JSON");
        let mut formats = vec!["auto"];
        formats.extend(almanac_service::format_names());
        let rulesets: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
        // The declared charts, and the win-chance chart of a ruleset with a model.
        let charts: Vec<String> =
            Chart::ALL.iter().map(|c| format!("{}.svg", c.id())).chain(["chances.svg".to_string()]).collect();
        let paths = &mut doc["paths"];
        fill(&mut paths["/api/games"]["post"]["parameters"], "format", Value::from(formats));
        fill(&mut paths["/api/games"]["get"]["parameters"], "ruleset", Value::from(rulesets));
        fill(&mut paths["/api/games/{id}/charts/{chart}"]["get"]["parameters"], "chart", Value::from(charts));
        doc.to_string()
    })
}

/// Sets the `enum` of the parameter called `name` in a list of parameters.
fn fill(parameters: &mut Value, name: &str, values: Value) {
    for p in parameters.as_array_mut().into_iter().flatten() {
        if p["name"] == name {
            p["schema"]["enum"] = values.clone();
        }
    }
}
