//! The dashboard's pages, rendered here with every uploaded string escaped; `web/static/*.js` and each
//! game's replay drawing add the little interaction there is. What the pages offer (rulesets, formats,
//! charts) comes from the registry of games.

use crate::app::{blocking, loaded};
use crate::app::{AppState, Result};
use actix_web::{web, HttpResponse};
use almanac_service::GAMES;
use almanac_store::{GameFilter, GameRow};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(index)).route("/games/{id}", web::get().to(replay));
}

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The names of the games this build knows, for the tagline ("A · B · C").
fn game_names() -> String {
    GAMES.iter().map(|g| g.name()).collect::<Vec<_>>().join(" · ")
}

fn page(title: &str, body: &str, scripts: &[String]) -> HttpResponse {
    let scripts: String = scripts.iter().map(|s| format!("<script src=\"{}\"></script>", escape(s))).collect();
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Almanac</title><link rel="stylesheet" href="/static/style.css"></head>
<body><header class="top"><a href="/" class="brand">Almanac</a><span class="tagline">replays and analyses: {games}</span></header>
<main>{body}</main>
{scripts}</body></html>"#,
        title = escape(title),
        games = escape(&game_names()),
    );
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html)
}

#[derive(Deserialize)]
struct IndexQuery {
    ruleset: Option<String>,
    player: Option<String>,
}

async fn index(app: web::Data<AppState>, q: web::Query<IndexQuery>) -> Result<HttpResponse> {
    let q = q.into_inner();
    let filter = GameFilter {
        ruleset: q.ruleset.clone().filter(|s| !s.is_empty()),
        player: q.player.clone().filter(|s| !s.is_empty()),
        limit: Some(200),
        offset: None,
    };
    let (games, everyone): (Vec<GameRow>, Vec<GameRow>) = blocking(move || {
        Ok(app.pool.read(|s| -> almanac_service::Result<_> {
            let everyone = GameFilter { limit: Some(1000), ..Default::default() };
            Ok((almanac_service::list(s, &filter)?, almanac_service::list(s, &everyone)?))
        })??)
    })
    .await?;
    let mut players: Vec<String> = everyone.iter().flat_map(|g| g.players.iter().map(|p| p.name.clone())).collect();
    players.sort();
    players.dedup();
    let mut rulesets: Vec<String> = GAMES.iter().map(|g| g.id().to_string()).collect();
    rulesets.extend(everyone.iter().map(|g| g.ruleset.clone()));
    rulesets.sort();
    rulesets.dedup();
    let option = |value: &str, label: &str, selected: &Option<String>| {
        let sel = if selected.as_deref() == Some(value) { " selected" } else { "" };
        format!("<option value=\"{}\"{sel}>{}</option>", escape(value), escape(label))
    };
    let mut rows = String::new();
    for g in &games {
        let players: Vec<String> = g
            .players
            .iter()
            .map(|p| {
                let win = if g.winner.as_deref() == Some(p.name.as_str()) { " winner" } else { "" };
                format!("<span class=\"player{win}\">{} <b>{}</b></span>", escape(&p.name), p.vp.unwrap_or(0))
            })
            .collect();
        rows.push_str(&format!(
            "<tr><td><a href=\"/games/{id}\">{title}</a></td><td>{ruleset}</td><td>{players}</td><td>{winner}</td><td>{turns}</td><td>{date}</td><td>{club}</td></tr>",
            id = escape(&g.id),
            title = escape(g.title.as_deref().unwrap_or(&g.id)),
            ruleset = escape(&g.ruleset),
            players = players.join(" "),
            winner = escape(g.winner.as_deref().unwrap_or("–")),
            turns = g.turn_count,
            date = escape(g.played_on.as_deref().unwrap_or("")),
            club = escape(g.club.as_deref().unwrap_or("")),
        ));
    }
    if games.is_empty() {
        rows.push_str("<tr><td colspan=\"7\" class=\"empty\">No games match.</td></tr>");
    }
    let formats: String =
        almanac_service::formats().iter().map(|f| option(f.name(), f.label(), &None)).collect::<String>();
    let body = format!(
        r#"<section class="games">
<h1>Games</h1>
<form class="filters" method="get" action="/">
  <label>Ruleset <select name="ruleset"><option value="">all</option>{ruleset_options}</select></label>
  <label>Player <select name="player"><option value="">anyone</option>{player_options}</select></label>
  <button type="submit">Filter</button>
</form>
<table id="games"><thead><tr><th>Game</th><th>Ruleset</th><th>Players (score)</th><th>Winner</th><th>Turns</th><th>Date</th><th>Club</th></tr></thead>
<tbody>{rows}</tbody></table>
</section>
<section class="upload">
<h2>Upload a game</h2>
<form id="upload"><input type="file" name="log" required>
<label>Format <select name="format"><option value="auto">guess</option>{formats}</select></label>
<button type="submit">Upload</button></form>
<p id="upload-result" role="status"></p>
</section>"#,
        ruleset_options = rulesets.iter().map(|r| option(r, r, &q.ruleset)).collect::<String>(),
        player_options = players.iter().map(|p| option(p, p, &q.player)).collect::<String>(),
    );
    Ok(page("Games", &body, &["/static/games.js".to_string()]))
}

async fn replay(app: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let (id, game) = match blocking(move || loaded(&app, &path)).await {
        Ok(g) => g,
        Err(e) => {
            return HttpResponse::NotFound().content_type("text/html; charset=utf-8").body(format!(
                "<!doctype html><title>Not found</title><p>{}</p><p><a href=\"/\">All games</a></p>",
                escape(&e.to_string())
            ))
        }
    };
    let env = game.envelope();
    let title = env.title.clone().unwrap_or_else(|| format!("Game {id}"));
    let meta: Vec<String> = [env.date.as_deref(), env.club.as_deref(), env.location.as_deref()]
        .iter()
        .flatten()
        .map(|s| format!("<span>{}</span>", escape(s)))
        .collect();
    let charts: String = game
        .vocabulary()
        .charts
        .iter()
        .map(|c| format!("<figure class=\"chart\" data-chart=\"{}\"></figure>", c.id()))
        .collect();
    let body = format!(
        r#"<section id="replay" class="replay" tabindex="0" data-game="{id}" data-ruleset="{ruleset}" aria-label="Replay: use the arrow keys to step">
<div class="title"><h1>{title}</h1><div class="meta">{meta}</div></div>
<div class="stage">
  <div class="board-wrap"><svg id="board" viewBox="-6 -6 12 12" role="img" aria-label="board"></svg></div>
  <div class="side">
    <div class="controls">
      <button id="first" title="Home: the start">|◀</button><button id="prev" title="←: one event back">◀</button>
      <button id="next" title="→: one event on">▶</button><button id="last" title="End: the end">▶|</button>
      <span id="position" aria-live="polite"></span>
    </div>
    <label class="slider">Turn <input id="turn-slider" type="range" min="0" max="{turns}" value="0"> <output id="turn-label">0</output></label>
    <div id="players" class="players"></div>
    <ol id="events" class="events"></ol>
  </div>
</div>
<div class="charts">{charts}</div>
<p class="hint">← / → step one event, Shift+← / → one turn, Home / End; click an event or a turn on a chart to jump there.</p>
</section>"#,
        id = escape(&id),
        ruleset = escape(game.ruleset()),
        title = escape(&title),
        meta = meta.join(" · "),
        turns = game.current_turn(),
    );
    let scripts = ["/static/replay.js".to_string(), format!("/static/rulesets/{}.js", game.ruleset())];
    page(&title, &body, &scripts)
}
