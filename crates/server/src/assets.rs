//! The dashboard's scripts, styles and the OpenAPI document, compiled in from `web/` so the binary needs
//! no files beside it; and each game's replay drawing, served from its crate through the registry.

use crate::validators::{tag_of, tagged};
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_core::Chart;
use almanac_service::GAMES;
use serde_json::Value;
use std::sync::OnceLock;

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";
const FAVICON: &str = include_str!("../../../web/static/favicon.svg");

/// The dashboard's own files, by path: their type and their text.
const FILES: &[(&str, &str, &str)] = &[
    ("/static/replay.js", JS, include_str!("../../../web/static/replay.js")),
    ("/static/games.js", JS, include_str!("../../../web/static/games.js")),
    // The table recorder: its page's module and the modules it imports (`web/static/record/`).
    ("/static/record.mjs", JS, include_str!("../../../web/static/record.mjs")),
    ("/static/record/rules.mjs", JS, include_str!("../../../web/static/record/rules.mjs")),
    ("/static/record/keeping.mjs", JS, include_str!("../../../web/static/record/keeping.mjs")),
    ("/static/record/sheet.mjs", JS, include_str!("../../../web/static/record/sheet.mjs")),
    ("/static/record/finish.mjs", JS, include_str!("../../../web/static/record/finish.mjs")),
    ("/static/record/form.mjs", JS, include_str!("../../../web/static/record/form.mjs")),
    ("/static/record/targets.mjs", JS, include_str!("../../../web/static/record/targets.mjs")),
    ("/static/begin.js", JS, include_str!("../../../web/static/begin.js")),
    ("/static/questions.js", JS, include_str!("../../../web/static/questions.js")),
    ("/static/session.js", JS, include_str!("../../../web/static/session.js")),
    // Served from the top so that its reach covers the recorder's pages.
    ("/recorder-worker.js", JS, include_str!("../../../web/static/recorder-worker.js")),
    ("/static/style.css", CSS, include_str!("../../../web/static/style.css")),
    ("/static/noscript.css", CSS, include_str!("../../../web/static/noscript.css")),
    ("/static/favicon.svg", SVG, FAVICON),
    // Browsers ask for this whatever a page says.
    ("/favicon.ico", SVG, FAVICON),
];
/// The games' rules as WebAssembly (`crates/browser-rules`, built by `build.rs`): the recorder's offline
/// judge.
const RULES_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rules.wasm"));
const OPENAPI: &str = include_str!("../../../web/openapi.json");

pub fn routes(cfg: &mut web::ServiceConfig) {
    for &(path, kind, text) in FILES {
        cfg.route(path, web::get().to(move |r: HttpRequest| async move { file(&r, kind, text) }));
    }
    cfg.route(
        "/static/rules.wasm",
        web::get().to(|r: HttpRequest| async move {
            static TAG: OnceLock<String> = OnceLock::new();
            tagged(&r, TAG.get_or_init(|| tag_of(RULES_WASM)), "application/wasm", false, RULES_WASM)
        }),
    )
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
        Some(g) => file(&req, JS, g.replay_script()),
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
