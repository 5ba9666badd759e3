//! The table recorder's page: a club member at a real table enters a live game of the club's, decision by
//! decision, with taps (`web/static/record.js` does the tapping; the rules, through `/api/games/{id}/next`,
//! say what may be tapped).

use crate::access::Reader;
use crate::app::{blocking, loaded, AppState};
use crate::pages::{escape, page, problem_page, SignedIn};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}/record", web::get().to(record));
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
        r#"<section id="recorder" class="recorder" data-game="{id}" data-ruleset="{ruleset}" data-seq="{seq}" aria-label="Recording the game at the table">
<div class="title"><h1>{title}</h1><div class="meta"><a href="/games/{id}">the replay</a></div></div>
<p id="whose" class="whose" aria-live="polite">Loading what may happen next…</p>
<p id="problem" class="problem" role="alert" hidden></p>
<p id="waiting" class="waiting" role="status" hidden></p>
<div class="record-stage">
  <div class="board-wrap"><svg id="board" viewBox="-6 -6 12 12" role="img" aria-label="The board: tap a highlighted place"></svg></div>
  <div class="record-side">
    <div id="choices" class="choices"></div>
    <div id="chooser" class="chooser" hidden></div>
    <button id="withdraw" class="withdraw" type="button" disabled>Withdraw the last entry</button>
    <h2>Last entries</h2>
    <ol id="entries" class="entries" aria-label="The last entries, newest last"></ol>
  </div>
</div>
</section>"#,
        id = escape(&id),
        ruleset = escape(game.ruleset()),
        seq = game.event_count(),
        title = escape(&title),
    );
    let scripts = [
        "/static/replay.js".to_string(),
        format!("/static/rulesets/{}.js", game.ruleset()),
        "/static/record.js".to_string(),
    ];
    page(&format!("Recording {title}"), &body, &scripts, Some(&signed), None)
}
