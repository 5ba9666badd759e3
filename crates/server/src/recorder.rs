//! The table recorder's page: a club member at a real table enters a live game of the club's, decision by
//! decision, with taps (`web/static/record.js` does the tapping; the rules, through `/api/games/{id}/next`,
//! say what may be tapped).

use crate::access::{Reader, Writer};
use crate::app::{blocking, forget_access, loaded, upload_slot, AppState};
use crate::error::ApiError;
use crate::limits::read_json;
use crate::pages::{escape, page, problem_page, SignedIn};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::tables::TableStart;
use almanac_service::{Inserted, Ownership};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}/record", web::get().to(record))
        .route("/record", web::get().to(start_page))
        .route("/api/tables", web::post().to(begin));
}

/// A game begun at a table (see `almanac_service::tables`): its header written from the start page's
/// answers, stored as a live game of the club's, private until the club publishes it.
async fn begin(app: web::Data<AppState>, writer: Writer, payload: web::Payload) -> Result<HttpResponse, ApiError> {
    let start: TableStart = read_json(
        payload,
        &app.limits,
        r#"{"ruleset": "...", "beginning": "...", "seed": N, "players": ["...", ...], "title": "...", "date": "...", "location": "..."}"#,
    )
    .await?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    let log = almanac_service::tables::log_of(&start, now)?;
    let header = log.lines().next().unwrap_or_default().to_string();
    let _slot = upload_slot(&app, writer.club.id).await?;
    let ownership = Ownership { club: Some(writer.club.id), published: false };
    let inserted = app.uploads.store(None, log, ownership).await?;
    if let Inserted::Existing(id) = &inserted {
        forget_access(&app, id);
    }
    let (status, id) = match inserted {
        Inserted::New(id) => (StatusCode::CREATED, id),
        Inserted::Existing(id) => (StatusCode::OK, id),
    };
    Ok(HttpResponse::build(status).json(serde_json::json!({ "id": id, "header": header })))
}

/// Where a club begins a game at the table: the game and how it begins (its board), the players in seat
/// order, the title, date and place.
async fn start_page(app: web::Data<AppState>, req: HttpRequest, reader: Reader) -> HttpResponse {
    let Some(signed) = SignedIn::of(&req, &reader) else {
        return problem_page(StatusCode::UNAUTHORIZED, "Sign in as your club to begin a game at the table.");
    };
    // The names the club's own games seat (people, not programs), most often seated first, per game: what a
    // seat's name is completed from.
    let club = signed.club.clone();
    let filter = almanac_store::GameFilter {
        viewer: reader.viewer,
        ruleset: None,
        player: None,
        search: None,
        sort: Default::default(),
        limit: Some(1000),
        offset: None,
    };
    let rows = blocking(move || Ok(app.pool.read(|s| almanac_service::list(s, &filter))??)).await.unwrap_or_default();
    let mut seated: std::collections::BTreeMap<String, std::collections::HashMap<String, usize>> = Default::default();
    for row in rows.iter().filter(|r| r.owner.as_deref() == Some(club.as_str())) {
        for p in row.players.iter().filter(|p| !p.bot) {
            *seated.entry(row.ruleset.clone()).or_default().entry(p.name.clone()).or_default() += 1;
        }
    }
    let names: std::collections::BTreeMap<String, Vec<String>> = seated
        .into_iter()
        .map(|(ruleset, counts)| {
            let mut names: Vec<(String, usize)> = counts.into_iter().collect();
            names.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            (ruleset, names.into_iter().map(|(n, _)| n).collect())
        })
        .collect();
    let names = serde_json::to_string(&names).expect("JSON").replace('<', "\\u003c");
    let games = almanac_service::tables::recordable();
    let options: String =
        games.iter().map(|g| format!(r#"<option value="{}">{}</option>"#, escape(g.ruleset), escape(g.name))).collect();
    // The beginnings of every game, for the page to offer those of the game chosen (`<` written out so the
    // JSON cannot close the script element).
    let data = serde_json::to_string(&games).expect("JSON").replace('<', "\\u003c");
    let body = format!(
        r#"<section id="start" class="recorder start" aria-label="Begin a game at the table">
<h1>Begin a game at the table</h1>
<div id="problem" class="problem" role="alert" hidden></div>
<form id="begin">
  <label>Game <select id="ruleset" name="ruleset">{options}</select></label>
  <label>Board <select id="beginning" name="beginning"></select></label>
  <div id="seeded" class="seeded" hidden>
    <label>Seed <input id="seed" name="seed" type="number" min="0" step="1" inputmode="numeric"></label>
    <button id="reseed" type="button" class="choice">Another board</button>
    <p class="hint">The board is drawn from the seed and shown when the game begins: lay the table out as the screen shows it.</p>
  </div>
  <fieldset id="laying" class="laying" hidden><legend>The table's board</legend>
    <p class="hint">Choose a piece, then tap where it lies on the table; tap it again to lift it.</p>
    <div id="piece-kinds" class="piece-kinds"></div>
    <div id="pieces" class="pieces"></div>
    <div class="laying-board"><svg id="laying-board" role="group" aria-label="The board to lay"></svg></div>
    <p id="laying-left" class="hint" aria-live="polite"></p>
  </fieldset>
  <fieldset class="count"><legend>Players, in seat order (the first player first)</legend>
    <ol id="seats" class="seats"></ol>
    <button id="add-seat" type="button" class="choice">Add a player</button>
  </fieldset>
  <datalist id="known-players"></datalist>
  <label>Title <input id="title" name="title" type="text"></label>
  <label>Date <input id="date" name="date" type="date"></label>
  <label>Place <input id="location" name="location" type="text"></label>
  <button id="begin-game" type="submit" class="enter-form">Begin the game</button>
</form>
<script type="application/json" id="recordable">{data}</script>
<script type="application/json" id="club-players">{names}</script>
</section>"#
    );
    page("Begin a game at the table", &body, &["/static/begin.js".to_string()], Some(&signed), None)
}

/// The recorder for a game: only the club that owns it records it.
async fn record(app: web::Data<AppState>, req: HttpRequest, reader: Reader, path: web::Path<String>) -> HttpResponse {
    let Some(signed) = SignedIn::of(&req, &reader) else {
        return problem_page(
            StatusCode::UNAUTHORIZED,
            "Sign in as the club that owns this game to record it at the table.",
        );
    };
    let viewer = reader.viewer;
    let found = blocking(move || {
        let (seen, game) = loaded(&app, viewer, &path)?;
        let row = app.pool.read(|s| s.game(&seen))??;
        let kind = almanac_service::game_kind(&row.ruleset).is_some_and(|k| k.recorder());
        Ok((seen.id().to_string(), game, row, kind))
    })
    .await;
    let (id, live, row, recorder) = match found {
        Ok(found) => found,
        Err(e) => return problem_page(e.status, &e.message),
    };
    if row.owner.as_deref() != Some(signed.club.as_str()) {
        return problem_page(StatusCode::FORBIDDEN, "Only the club that owns this game records it.");
    }
    if !recorder {
        return problem_page(
            StatusCode::NOT_FOUND,
            &format!(
                "{} games cannot be recorded at the table yet: their rules do not say what may happen next.",
                row.ruleset
            ),
        );
    }
    let live = live.read();
    let game = live.game();
    let title = game.envelope().title.clone().unwrap_or_else(|| format!("Game {id}"));
    let body = format!(
        r#"<section id="recorder" class="recorder" data-game="{id}" data-ruleset="{ruleset}" data-seq="{seq}" data-published="{published}" aria-label="Recording the game at the table">
<div class="title"><h1>{title}</h1><div class="meta"><a href="/games/{id}">the replay</a></div></div>
<p id="whose" class="whose" aria-live="polite">Loading what may happen next…</p>
<p id="last" class="last-entry" aria-live="polite" hidden></p>
<div id="problem" class="problem" role="alert" hidden></div>
<p id="waiting" class="waiting" role="status" hidden></p>
<section id="finish" class="finish" aria-labelledby="finish-title" hidden>
  <h2 id="finish-title">The game is over</h2>
  <ol id="standings" class="standings"></ol>
  <div id="finish-chances" class="finish-chances"></div>
  <div class="share">
    <p id="share-state"></p>
    <form id="publish" method="post" action="/games/{id}/publish">{proof}<input type="hidden" name="published" value="yes"><button type="submit" class="enter-form">Publish</button></form>
    <p>The replay: <a id="share-link" href="/games/{id}">/games/{id}</a></p>
    <button id="share" type="button" class="choice" hidden>Share the link</button>
  </div>
</section>
<div class="record-stage">
  <div id="choices" class="choices"></div>
  <div class="board-wrap"><svg id="board" viewBox="-6 -6 12 12" role="img" aria-label="The board: tap a highlighted place"></svg></div>
  <div class="record-log">
    <button id="withdraw" class="withdraw" type="button" disabled>Withdraw the last entry</button>
    <h2>Last entries</h2>
    <ol id="entries" class="entries" aria-label="The last entries, newest last"></ol>
  </div>
</div>
<div id="chooser" class="chooser" role="dialog" aria-labelledby="chooser-title" hidden></div>
</section>"#,
        id = escape(&id),
        ruleset = escape(game.ruleset()),
        seq = game.event_count(),
        title = escape(&title),
        published = if row.published { "yes" } else { "no" },
        proof = signed.proof_field(),
    );
    let scripts = [
        "/static/replay.js".to_string(),
        format!("/static/rulesets/{}.js", game.ruleset()),
        "/static/record.js".to_string(),
    ];
    page(&format!("Recording {title}"), &body, &scripts, Some(&signed), None)
}
