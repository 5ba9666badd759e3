//! The table recorder's page: a club member at a real table enters a live game of the club's, decision by
//! decision, with taps (`web/static/record.mjs` does the tapping; the rules, through `/api/games/{id}/next`,
//! say what may be tapped).

use crate::access::Writer;
use crate::app::{blocking, forget_access, loaded, upload_slot, AppState};
use crate::body::{Expected, Json};
use crate::error::ApiError;
use crate::pages::{page, problem_page, Visitor};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use almanac_service::tables::TableStart;
use almanac_service::{Inserted, Ownership};
use maud::{html, PreEscaped};

impl Expected for TableStart {
    const EXPECTED: &'static str = r#"{"ruleset": "...", "beginning": "...", "seed": N, "players": ["...", ...], "title": "...", "date": "...", "location": "..."}"#;
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/games/{id}/record", web::get().to(record))
        .route("/record", web::get().to(start_page))
        .route("/api/tables", web::post().to(begin));
}

/// A game begun at a table (see `almanac_service::tables`): its header written from the start page's
/// answers, stored as a live game of the club's, private until the club publishes it.
async fn begin(
    app: web::Data<AppState>,
    writer: Writer,
    Json(start): Json<TableStart>,
) -> Result<HttpResponse, ApiError> {
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
async fn start_page(app: web::Data<AppState>, visitor: Visitor) -> HttpResponse {
    let Visitor { reader, signed: Some(signed) } = visitor else {
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
    // The beginnings of every game, for the page to offer those of the game chosen (`<` written out so the
    // JSON cannot close the script element; a script's text is read raw, so it is not escaped as HTML).
    let data = serde_json::to_string(&games).expect("JSON").replace('<', "\\u003c");
    let body = html! {
        section #start .recorder.start aria-label="Begin a game at the table" {
            h1 { "Begin a game at the table" }
            div #problem .problem role="alert" hidden {}
            form #begin {
                label { "Game " select #ruleset name="ruleset" { @for g in &games { option value=(g.ruleset) { (g.name) } } } }
                label { "Board " select #beginning name="beginning" {} }
                div #seeded .seeded hidden {
                    label { "Seed " input #seed name="seed" type="number" min="0" step="1" inputmode="numeric"; }
                    button #reseed .choice type="button" { "Another board" }
                    p.hint { "The board is drawn from the seed and shown when the game begins: lay the table out as the screen shows it." }
                }
                fieldset #laying .laying hidden {
                    legend { "The table's board" }
                    p.hint { "Choose a piece, then tap where it lies on the table; tap it again to lift it." }
                    div #piece-kinds .piece-kinds {}
                    div #pieces .pieces {}
                    div.laying-board { svg #laying-board role="group" aria-label="The board to lay" {} }
                    p #laying-left .hint aria-live="polite" {}
                }
                fieldset.count {
                    legend { "Players, in seat order (the first player first)" }
                    ol #seats .seats {}
                    button #add-seat .choice type="button" { "Add a player" }
                }
                datalist #known-players {}
                label { "Title " input #title name="title" type="text"; }
                label { "Date " input #date name="date" type="date"; }
                label { "Place " input #location name="location" type="text"; }
                button #begin-game .enter-form type="submit" { "Begin the game" }
            }
            script type="application/json" #recordable { (PreEscaped(data)) }
            script type="application/json" #club-players { (PreEscaped(names)) }
        }
    };
    page("Begin a game at the table", body, &["/static/begin.js".to_string()], Some(&signed), None)
}

/// The recorder for a game: only the club that owns it records it.
async fn record(app: web::Data<AppState>, visitor: Visitor, path: web::Path<String>) -> HttpResponse {
    let Visitor { reader, signed: Some(signed) } = visitor else {
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
    let body = html! {
        section #recorder .recorder data-game=(id) data-ruleset=(game.ruleset()) data-seq=(game.event_count())
            data-published=(if row.published { "yes" } else { "no" }) aria-label="Recording the game at the table" {
            div.title { h1 { (title) } div.meta { a href={ "/games/" (id) } { "the replay" } } }
            p #whose .whose aria-live="polite" { "Loading what may happen next…" }
            p #last .last-entry aria-live="polite" hidden {}
            div #problem .problem role="alert" hidden {}
            p #waiting .waiting role="status" hidden {}
            section #finish .finish aria-labelledby="finish-title" hidden {
                h2 #finish-title { "The game is over" }
                ol #standings .standings {}
                div #finish-chances .finish-chances {}
                div.share {
                    p #share-state {}
                    form #publish method="post" action={ "/games/" (id) "/publish" } {
                        (signed.proof_input())
                        input type="hidden" name="published" value="yes";
                        button.enter-form type="submit" { "Publish" }
                    }
                    p { "The replay: " a #share-link href={ "/games/" (id) } { "/games/" (id) } }
                    button #share .choice type="button" hidden { "Share the link" }
                }
            }
            div.record-stage {
                div #choices .choices {}
                div.board-wrap { svg #board viewBox="-6 -6 12 12" role="img" aria-label="The board: tap a highlighted place" {} }
                div.record-log {
                    button #withdraw .withdraw type="button" disabled { "Withdraw the last entry" }
                    h2 { "Last entries" }
                    ol #entries .entries aria-label="The last entries, newest last" {}
                }
            }
            div #chooser .chooser role="dialog" aria-labelledby="chooser-title" hidden {}
        }
    };
    let scripts = [
        "/static/replay.js".to_string(),
        format!("/static/rulesets/{}.js", game.ruleset()),
        "/static/record.mjs".to_string(),
    ];
    page(&format!("Recording {title}"), body, &scripts, Some(&signed), None)
}
