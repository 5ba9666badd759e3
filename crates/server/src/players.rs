//! Players across games over HTTP: a player's page and record (`/players/{id}`, `/api/players/{id}`), two
//! players side by side (`.../vs/{other}`), and a club merging two spellings of one player
//! (`POST /api/players/{id}/merge`). Only published games count; the store and the service decide.

use crate::access::{Reader, Writer};
use crate::app::{blocking, AppState, Result};
use crate::error::ApiError;
use crate::pages::{escape, page, problem_page, SignedIn};
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::players::{head_to_head, leaderboard, merge_players, player_page, rating_chart as chart_of};
use almanac_service::players::{HeadToHead, Leader, PlayerPage};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/players/{id}", web::get().to(player_json))
        .route("/api/players/{id}/ratings.svg", web::get().to(rating_chart))
        .route("/api/leaderboard", web::get().to(leaderboard_json))
        .route("/leaderboard", web::get().to(leaderboard_html))
        .route("/api/players/{id}/vs/{other}", web::get().to(versus_json))
        .route("/api/players/{id}/merge", web::post().to(merge))
        .route("/players/{id}", web::get().to(player_html))
        .route("/players/{id}/vs/{other}", web::get().to(versus_html));
}

fn player_id(text: &str) -> Result<i64> {
    text.parse().map_err(|_| ApiError::new(actix_web::http::StatusCode::NOT_FOUND, format!("no player `{text}`")))
}

async fn load_page(app: web::Data<AppState>, id: &str) -> Result<PlayerPage> {
    let id = player_id(id)?;
    blocking(move || Ok(app.pool.read(|s| player_page(s, id))??)).await
}

async fn load_versus(app: web::Data<AppState>, a: &str, b: &str) -> Result<HeadToHead> {
    let (a, b) = (player_id(a)?, player_id(b)?);
    blocking(move || Ok(app.pool.read(|s| head_to_head(s, a, b))??)).await
}

async fn player_json(app: web::Data<AppState>, _reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    Ok(HttpResponse::Ok().json(load_page(app, &path).await?))
}

async fn versus_json(
    app: web::Data<AppState>,
    _reader: Reader,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse> {
    let (a, b) = path.into_inner();
    Ok(HttpResponse::Ok().json(load_versus(app, &a, &b).await?))
}

async fn rating_chart(app: web::Data<AppState>, _reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let id = player_id(&path)?;
    let svg = blocking(move || Ok(app.pool.read(|s| chart_of(s, id))??)).await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

#[derive(Deserialize)]
struct BoardQuery {
    ruleset: String,
    /// Only the players of this club's games.
    club: Option<String>,
}

async fn load_board(app: web::Data<AppState>, q: &BoardQuery) -> Result<Vec<Leader>> {
    let (ruleset, club) = (q.ruleset.clone(), q.club.clone());
    if almanac_service::game_kind(&ruleset).is_none() {
        return Err(ApiError::bad_request(format!("no ruleset `{ruleset}`")));
    }
    blocking(move || Ok(app.pool.read(|s| leaderboard(s, &ruleset, club.as_deref()))??)).await
}

async fn leaderboard_json(
    app: web::Data<AppState>,
    _reader: Reader,
    q: web::Query<BoardQuery>,
) -> Result<HttpResponse> {
    Ok(HttpResponse::Ok().json(load_board(app, &q).await?))
}

async fn leaderboard_html(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    q: web::Query<BoardQuery>,
) -> HttpResponse {
    let signed = SignedIn::of(&req, &reader);
    let board = match load_board(app, &q).await {
        Ok(b) => b,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let game = almanac_service::game_kind(&q.ruleset).map_or(q.ruleset.as_str(), |g| g.name());
    let rows: String = board
        .iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
                i + 1,
                link(l.player, &l.name),
                l.rating,
                l.games
            )
        })
        .collect();
    let whose = q.club.as_deref().map_or(String::new(), |c| format!(" of {}", escape(c)));
    let title = format!("{game} ratings{}", q.club.as_deref().map_or(String::new(), |c| format!(" of {c}")));
    let body = format!(
        r#"<section class="leaderboard"><h1>{game} ratings{whose}</h1>
<p class="hint">Weng-Lin ratings (as OpenSkill) over every published game, shown as mu − 3·sigma: a rating rises with
games won and settles as games are played.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Leaderboard"><table class="leaders"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table></div></section>"#,
        game = escape(game),
    );
    page(&title, &body, &[], signed.as_ref())
}

#[derive(Deserialize)]
struct MergeBody {
    /// The spelling (player id) merged into the player of the path.
    from: i64,
}

/// A club merges two spellings of one of its players: the path's player keeps its id and page.
async fn merge(
    app: web::Data<AppState>,
    writer: Writer,
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse> {
    if crate::api::media_type(&req).as_deref() != Some("application/json") {
        return Err(ApiError::new(
            actix_web::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a merge is JSON: {\"from\": player id}",
        ));
    }
    let body: MergeBody = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("expected {{\"from\": a player id}}: {e}")))?;
    let into = player_id(&path)?;
    let club = writer.club.id;
    let merged = blocking(move || Ok(app.pool.write(|s| merge_players(s, Some(club), into, body.from))?)).await?;
    Ok(HttpResponse::Ok().json(merged))
}

fn link(id: i64, name: &str) -> String {
    format!("<a href=\"/players/{id}\">{}</a>", escape(name))
}

fn game_link(id: &str, title: &Option<String>) -> String {
    format!("<a href=\"/games/{}\">{}</a>", escape(id), escape(title.as_deref().unwrap_or(id)))
}

fn average(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.1}"))
}

async fn player_html(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    path: web::Path<String>,
) -> HttpResponse {
    let signed = SignedIn::of(&req, &reader);
    let p = match load_page(app, &path).await {
        Ok(p) => p,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let me = &p.player;
    let also: Vec<String> = me.spellings.iter().filter(|s| **s != me.name).map(|s| escape(s)).collect();
    let club = me.club.as_deref().map_or("games no club owns".to_string(), |c| format!("games of {}", escape(c)));
    let records: String = p
        .rulesets
        .iter()
        .map(|r| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td></tr>",
                escape(&r.name),
                r.games,
                r.wins,
                average(r.average_score),
                r.average_place
            )
        })
        .collect();
    let games: String = p
        .games
        .iter()
        .map(|g| {
            format!(
                "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} of {}</td></tr>",
                if g.won { " class=\"won\"" } else { "" },
                escape(g.played_on.as_deref().unwrap_or("")),
                game_link(&g.game, &g.title),
                escape(&g.ruleset),
                g.players,
                g.score.map_or("–".into(), |s| s.to_string()),
                g.place,
                g.players
            )
        })
        .collect();
    let opponents: String = p
        .opponents
        .iter()
        .map(|o| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><a class=\"versus\" href=\"/players/{}/vs/{}\">head-to-head</a></td></tr>",
                link(o.player, &o.name),
                o.games,
                o.ahead,
                o.behind,
                me.id,
                o.player
            )
        })
        .collect();
    let ratings: String = p
        .ratings
        .iter()
        .map(|r| {
            let club = me.club.as_deref().map_or(String::new(), |c| format!("&amp;club={}", crate::pages::url_encode(c)));
            format!(
                "<tr><td>{}</td><td>{:.1}</td><td>{} of {}</td><td><a href=\"/leaderboard?ruleset={}{club}\">leaderboard</a></td></tr>",
                escape(&r.name),
                r.rating,
                r.rank,
                r.rated,
                escape(&r.ruleset)
            )
        })
        .collect();
    let chart = if p.ratings.is_empty() {
        String::new()
    } else {
        format!(
            "<figure class=\"chart\" tabindex=\"0\" aria-label=\"chart: ratings\"><img src=\"/api/players/{}/ratings.svg\" alt=\"{}'s rating, game by game\" width=\"760\" height=\"380\"></figure>",
            me.id,
            escape(&me.name)
        )
    };
    let body = format!(
        r#"<section class="player-page"><h1>{name}</h1>
<p class="meta">{club}{also}</p>
<h2>Ratings</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Ratings"><table class="ratings"><thead><tr><th>Game</th><th>Rating</th><th>Place</th><th></th></tr></thead><tbody>{ratings}</tbody></table></div>
{chart}
<h2>By game</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Record by game"><table class="records"><thead><tr><th>Game</th><th>Played</th><th>Won</th><th>Average score</th><th>Average place</th></tr></thead><tbody>{records}</tbody></table></div>
<h2>Opponents</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Opponents"><table class="opponents"><thead><tr><th>Player</th><th>Games together</th><th>Finished ahead</th><th>Behind</th><th></th></tr></thead><tbody>{opponents}</tbody></table></div>
<h2>Games</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Games"><table class="played"><thead><tr><th>Played on</th><th>Game</th><th>Ruleset</th><th>Players</th><th>Score</th><th>Place</th></tr></thead><tbody>{games}</tbody></table></div>
</section>"#,
        name = escape(&me.name),
        also = if also.is_empty() { String::new() } else { format!(" · also written {}", also.join(", ")) },
    );
    page(&me.name, &body, &[], signed.as_ref())
}

async fn versus_html(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    path: web::Path<(String, String)>,
) -> HttpResponse {
    let signed = SignedIn::of(&req, &reader);
    let (a, b) = path.into_inner();
    let h = match load_versus(app, &a, &b).await {
        Ok(h) => h,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let rows: String = h
        .games
        .iter()
        .map(|g| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} ({})</td><td>{} ({})</td></tr>",
                escape(g.played_on.as_deref().unwrap_or("")),
                game_link(&g.game, &g.title),
                escape(&g.ruleset),
                g.a_score.map_or("–".into(), |s| s.to_string()),
                ordinal(g.a_place),
                g.b_score.map_or("–".into(), |s| s.to_string()),
                ordinal(g.b_place),
            )
        })
        .collect();
    let title = format!("{} and {}", h.a.name, h.b.name);
    let body = format!(
        r#"<section class="versus-page"><h1>{a} and {b}</h1>
<p class="summary">{games} game(s) together: {a} finished ahead {a_ahead} time(s), {b} {b_ahead}, level {level}.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Games together"><table class="shared"><thead><tr><th>Played on</th><th>Game</th><th>Ruleset</th><th>{a}</th><th>{b}</th></tr></thead><tbody>{rows}</tbody></table></div>
</section>"#,
        a = link(h.a.id, &h.a.name),
        b = link(h.b.id, &h.b.name),
        games = h.games.len(),
        a_ahead = h.a_ahead,
        b_ahead = h.b_ahead,
        level = h.level,
    );
    page(&title, &body, &[], signed.as_ref())
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
