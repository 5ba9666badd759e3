//! Players across games over HTTP: a player's page and record (`/players/{id}`, `/api/players/{id}`), two
//! players side by side (`.../vs/{other}`), and a club merging two spellings of one player
//! (`POST /api/players/{id}/merge`). Only published games count; the store and the service decide.

use crate::access::{Reader, Writer};
use crate::app::{blocking, AppState, Result};
use crate::body::{Expected, Json};
use crate::error::ApiError;
use crate::pages::{page, problem_page, Visitor};
use actix_web::{web, HttpResponse};
use almanac_service::players::{curve_chart as curve_of, HeadToHead, Leader, PlayerPage, Profile, Versus};
use almanac_service::players::{head_to_head, leaderboard, merge_players, player_page, rating_chart as chart_of};
use maud::{html, Markup};
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/players/{id}", web::get().to(player_json))
        .route("/api/players/{id}/ratings.svg", web::get().to(rating_chart))
        .route("/api/players/{id}/curve.svg", web::get().to(curve_chart))
        .route("/api/leaderboard", web::get().to(leaderboard_json))
        .route("/leaderboard", web::get().to(leaderboard_html))
        .route("/api/players/{id}/vs/{other}", web::get().to(versus_json))
        .route("/api/players/{id}/vs/{other}/chart.svg", web::get().to(versus_chart))
        .route("/api/players/{id}/merge", web::post().to(merge))
        .route("/players/{id}", web::get().to(player_html))
        .route("/players/{id}/vs/{other}", web::get().to(versus_html));
}

fn player_id(text: &str) -> Result<i64> {
    text.parse().map_err(|_| ApiError::new(actix_web::http::StatusCode::NOT_FOUND, format!("no player `{text}`")))
}

/// A player's page as the reader may see it: a player of games the reader may not see is no player.
async fn load_page(app: web::Data<AppState>, reader: &Reader, id: &str) -> Result<PlayerPage> {
    let (id, viewer) = (player_id(id)?, reader.viewer);
    blocking(move || Ok(app.pool.read(|s| player_page(s, viewer, id, &app.ratings))??)).await
}

async fn load_versus(app: web::Data<AppState>, reader: &Reader, a: &str, b: &str) -> Result<HeadToHead> {
    let (a, b, viewer) = (player_id(a)?, player_id(b)?, reader.viewer);
    blocking(move || Ok(app.pool.read(|s| head_to_head(s, viewer, a, b))??)).await
}

/// Which of a player's games the JSON lists: a page of them, latest first.
#[derive(Deserialize)]
struct GamesPage {
    /// From 1 (default 1).
    page: Option<usize>,
    /// Games per page (default 50, at most 500).
    limit: Option<usize>,
}

/// A player's page as JSON, its games a page at a time (a player of thousands of games is not sent whole).
#[derive(Serialize)]
struct PagedPlayer {
    #[serde(flatten)]
    player: almanac_service::players::PlayerPage,
    games_total: usize,
    games_page: usize,
    games_pages: usize,
}

async fn player_json(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<String>,
    q: web::Query<GamesPage>,
) -> Result<HttpResponse> {
    let mut player = load_page(app, &reader, &path).await?;
    let limit = q.limit.unwrap_or(GAMES_PER_PAGE).clamp(1, 500);
    let total = player.games.len();
    let (page, pages) = page_of(total, limit, q.page);
    player.games = player.games.into_iter().skip((page - 1) * limit).take(limit).collect();
    Ok(HttpResponse::Ok().json(PagedPlayer { player, games_total: total, games_page: page, games_pages: pages }))
}

async fn versus_json(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse> {
    let (a, b) = path.into_inner();
    Ok(HttpResponse::Ok().json(load_versus(app, &reader, &a, &b).await?))
}

async fn versus_chart(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String)>,
    q: web::Query<CurveQuery>,
) -> Result<HttpResponse> {
    let (a, b) = path.into_inner();
    let (a, b, ruleset, viewer) = (player_id(&a)?, player_id(&b)?, q.ruleset.clone(), reader.viewer);
    let svg = blocking(move || {
        Ok(app.pool.read(|s| almanac_service::players::side_by_side_chart(s, viewer, a, b, &ruleset))??)
    })
    .await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

async fn rating_chart(app: web::Data<AppState>, reader: Reader, path: web::Path<String>) -> Result<HttpResponse> {
    let (id, viewer) = (player_id(&path)?, reader.viewer);
    let svg = blocking(move || Ok(app.pool.read(|s| chart_of(s, viewer, id, &app.ratings))??)).await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

#[derive(Deserialize)]
struct CurveQuery {
    ruleset: String,
}

async fn curve_chart(
    app: web::Data<AppState>,
    reader: Reader,
    path: web::Path<String>,
    q: web::Query<CurveQuery>,
) -> Result<HttpResponse> {
    let (id, viewer) = (player_id(&path)?, reader.viewer);
    let ruleset = q.ruleset.clone();
    let svg = blocking(move || Ok(app.pool.read(|s| curve_of(s, viewer, id, &ruleset))??)).await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

/// A table of numbers, the player's beside the field's.
/// How many of a player's last games their page's summary shows as their form.
const FORM_GAMES: usize = 10;

/// The top of a player's page: the record of the game played most with the win rate's interval beside a
/// fair game's, the rating and its move, and every strength and weakness against the field, each with its
/// count.
fn summary_html(p: &almanac_service::players::PlayerPage) -> Markup {
    let s = &p.summary;
    let Some(game) = &s.name else {
        return html! { p.hint { "No game of this player counts yet (a published game with a winner)." } };
    };
    let percent = |v: f64| format!("{:.0}%", v * 100.0);
    let plural = |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let cues = |title: &str, cues: &[almanac_service::players::Cue]| {
        html! {
            div {
                h3 { (title) }
                @if cues.is_empty() {
                    p.hint { "None stands out from the field yet." }
                } @else {
                    ul.cues {
                        @for c in cues {
                            li class=(if c.better { "better" } else { "worse" }) {
                                span.cue { (if c.better { "▲ better" } else { "▼ worse" }) }
                                " " (c.label) ": " b { (format!("{:.2}", c.mine)) }
                                " against the field's " (format!("{:.2}", c.field)) " "
                                span.hint { "(" (c.seats) " " (plural(c.seats, "game", "games")) "; " (format!("{:.2}–{:.2}", c.low, c.high)) ")" }
                            }
                        }
                    }
                }
            }
        }
    };
    // Form: the last games of this game, latest first, each its place of how many, the wins marked.
    let recent: Vec<_> = p.games.iter().filter(|g| Some(&g.ruleset) == s.ruleset.as_ref()).take(FORM_GAMES).collect();
    let field = p.profiles.iter().find(|x| Some(&x.ruleset) == s.ruleset.as_ref()).and_then(|x| x.field.as_ref());
    html! {
        section.summary aria-label="Summary" {
            h2 { (game) }
            p.record {
                (s.wins) " " (plural(s.wins as u64, "win", "wins")) " of " (s.games) " " (plural(s.games as u64, "game", "games"))
                ": " (percent(s.wins as f64 / s.games.max(1) as f64))
                @if let (Some(l), Some(h)) = (s.win_low, s.win_high) {
                    " " span.interval { "(" (percent(l)) "–" (percent(h)) ")" }
                }
                @if let Some(f) = s.fair_share { "; an even game at these tables gives " (percent(f)) }
            }
            @if let (Some(r), Some(c)) = (s.rating, s.rating_change) {
                p.rating {
                    "Rating " b { (format!("{r:.1}")) } " "
                    span class=(if c >= 0.0 { "better" } else { "worse" }) { (if c >= 0.0 { "▲" } else { "▼" }) " " (format!("{c:+.1}")) }
                    " over the last " (s.trend_games) " " (plural(s.trend_games as u64, "game", "games"))
                }
            }
            @if !recent.is_empty() {
                div.form {
                    h3 { "Form " span.hint { "(the last " (recent.len()) ", latest first: the place finished, of how many)" } }
                    ol.form {
                        @for g in &recent {
                            li class=[g.won.then_some("won")] {
                                a href={ "/games/" (g.game) } title={ (g.title.as_deref().unwrap_or("a game")) @if let Some(d) = &g.played_on { ", " (d.get(..10).unwrap_or(d)) } } {
                                    (ordinal(g.place)) span.hint { "/" (g.players) }
                                }
                            }
                        }
                    }
                }
            }
            div.cue-lists { (cues("Strengths", &s.strengths)) (cues("Weaknesses", &s.weaknesses)) }
        }
        p.field.hint { (field_words(field, game, &p.player.name)) }
        p.hint.cue-rule { "A strength or a weakness is named wherever the field's number lies outside the player's 95 % interval, read from three games at least: where it lies inside, the games played do not tell the two apart. The field is games like theirs (the same table size and edition)." }
    }
}

fn versus_table(caption: &str, rows: &[Versus], per: &str) -> Markup {
    html! {
        @if !rows.is_empty() {
            div.table-wrap tabindex="0" role="region" aria-label=(caption) {
                table.versus-field {
                    caption { (caption) }
                    thead { tr { th { (per) } th { "Mine " span.hint { "(95 % interval)" } } th { "The field" } th { "Seats" } } }
                    tbody {
                        @for v in rows {
                            tr {
                                td { (v.label) }
                                td {
                                    (format!("{:.2}", v.mine))
                                    @if let (Some(low), Some(high)) = (v.low, v.high) { " " span.interval { (format!("{low:.2}–{high:.2}")) } }
                                }
                                td { (v.field.map_or("–".to_string(), |f| format!("{f:.2}"))) }
                                td { (v.seats) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How the player plays one game: the score curve, production, losses, points, trading, partners, openings.
/// Whom "the field" is, in words: the player's peers at games like theirs (each kind with its table size and
/// edition), with how many seats and games it stands on.
fn field_words(field: Option<&almanac_store::FieldOf>, game: &str, name: &str) -> String {
    let Some(f) = field else { return String::new() };
    let plural = |n: u64, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
    let kinds: Vec<String> = f
        .like
        .iter()
        .map(|k| {
            let edition = if k.edition.is_empty() { game } else { k.edition.as_str() };
            format!(
                "{edition} at {players} ({seats} in {games})",
                players = plural(u64::from(k.players), "player", "players"),
                seats = plural(k.seats, "seat", "seats"),
                games = plural(k.games, "game", "games"),
            )
        })
        .collect();
    let weighted = if f.like.len() > 1 {
        let mine: Vec<String> = f.like.iter().map(|k| k.mine.to_string()).collect();
        format!("; each kind weighted as {name}'s own seats are ({})", mine.join(", "))
    } else {
        String::new()
    };
    format!(
        "The field: {whose} published games like {name}'s — {kinds}{weighted}. {left} left out.",
        whose = if f.programs { "programs'" } else { "people's" },
        kinds = kinds.join("; "),
        left = if f.programs { "People" } else { "Programs" },
    )
}

fn profile_html(me: &almanac_service::players::PlayerPage, p: &Profile) -> Markup {
    let name = &me.player.name;
    html! {
        section.profile data-ruleset=(p.ruleset) {
            h3 { (p.name) }
            p.field.hint { (field_words(p.field.as_ref(), &p.name, name)) }
            @if !p.score_by_turn.is_empty() {
                figure.chart tabindex="0" aria-label="chart: score by turn against the field" {
                    img src={ "/api/players/" (me.player.id) "/curve.svg?ruleset=" (crate::pages::url_encode(&p.ruleset)) }
                        alt={ (name) "'s score by turn against the field, as the table below" } width="760" height="380";
                }
                details { summary { "The chart's numbers" } (versus_table("Score by turn", &p.score_by_turn, "At the end of")) }
            }
            (versus_table("Production per turn", &p.production, "Of"))
            (versus_table("Cards lost per game", &p.losses, "To"))
            (versus_table("Points per game", &p.points, "From"))
            (versus_table("Trading", &p.trading, ""))
            @if !p.partners.is_empty() {
                div.table-wrap tabindex="0" role="region" aria-label="Trade partners" {
                    table.partners {
                        caption { "Trade partners" }
                        thead { tr { th { "With" } th { "Trades" } th { "Cards given" } th { "Cards got" } th { "Given per card got" } } }
                        tbody {
                            @for t in &p.partners {
                                tr {
                                    td { (name_of(t.player, &t.name)) }
                                    td { (format!("{:.0}", t.trades)) }
                                    td { (format!("{:.0}", t.cards_given)) }
                                    td { (format!("{:.0}", t.cards_got)) }
                                    td { (if t.cards_got > 0.0 { format!("{:.2}", t.cards_given / t.cards_got) } else { "–".into() }) }
                                }
                            }
                        }
                    }
                }
            }
            @if !p.openings.is_empty() {
                div.table-wrap tabindex="0" role="region" aria-label="Openings" {
                    table.openings {
                        caption { "Openings (what the setup gave)" }
                        thead { tr { th { "Opening" } th { "Games" } th { "Won" } } }
                        tbody {
                            @for o in &p.openings {
                                tr { td { (o.opening) } td { (o.seats) } td { (format!("{:.0}%", o.win_rate * 100.0)) } }
                            }
                        }
                    }
                }
            }
            (versus_table("Win chances", &p.chances, ""))
        }
    }
}

#[derive(Deserialize)]
struct BoardQuery {
    /// The game rated (default: the one with the most games that count).
    ruleset: Option<String>,
    /// Only the players of this club's games.
    club: Option<String>,
    /// `yes`: programs (bots) too.
    bots: Option<String>,
}

/// A leaderboard: its ruleset (as asked, or the most played), whether bots are on it, and its players.
struct Board {
    ruleset: String,
    bots: bool,
    leaders: Vec<Leader>,
}

async fn load_board(app: web::Data<AppState>, reader: &Reader, q: &BoardQuery) -> Result<Board> {
    let asked = q.ruleset.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(str::to_string);
    if let Some(r) = &asked {
        if almanac_service::game_kind(r).is_none() {
            let known: Vec<&str> = almanac_service::GAMES.iter().map(|g| g.id()).collect();
            return Err(ApiError::bad_request(format!("no ruleset `{r}` (rulesets: {})", known.join(", "))));
        }
    }
    let bots = match q.bots.as_deref().map(str::trim) {
        None | Some("") | Some("no") => false,
        Some("yes") => true,
        Some(other) => return Err(ApiError::bad_request(format!("`bots` takes yes or no, not `{other}`"))),
    };
    let (club, viewer) = (q.club.clone().filter(|c| !c.trim().is_empty()), reader.viewer);
    blocking(move || {
        Ok(app.pool.read(|s| {
            let ruleset = match &asked {
                Some(r) => r.clone(),
                None => almanac_service::players::most_played(s)?,
            };
            let leaders = leaderboard(s, viewer, &ruleset, club.as_deref(), bots, &app.ratings)?;
            Ok::<_, almanac_service::ServiceError>(Board { ruleset, bots, leaders })
        })??)
    })
    .await
}

async fn leaderboard_json(app: web::Data<AppState>, reader: Reader, q: web::Query<BoardQuery>) -> Result<HttpResponse> {
    Ok(HttpResponse::Ok().json(load_board(app, &reader, &q).await?.leaders))
}

/// The leaderboard page: the game chosen on the page (the most played by default), a club's players only if
/// asked, people only unless bots are asked for; a provisional rating (few games) greyed, with its spread.
async fn leaderboard_html(app: web::Data<AppState>, visitor: Visitor, q: web::Query<BoardQuery>) -> HttpResponse {
    let deriving = app.derivation.progress();
    let Visitor { reader, signed } = visitor;
    let board = match load_board(app, &reader, &q).await {
        Ok(b) => b,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let game = almanac_service::game_kind(&board.ruleset).map_or(board.ruleset.as_str(), |g| g.name());
    // Established players ranked; the provisional after them, unranked, each with the games it still needs.
    let row = |rank: String, l: &almanac_service::players::Leader| {
        html! {
            tr class=[l.provisional.then_some("provisional")] {
                td { (rank) }
                td { (link(l.player, &l.name)) @if l.bot { " " span.bot { "bot" } } }
                // The shown rating is mu − 3·sigma; the level may lie as high as mu + 3·sigma.
                td { (format!("{:.1}", l.rating)) " " span.spread { "(up to " (format!("{:.0}", 6.0 * l.sigma)) " higher)" } }
                td {
                    (l.games)
                    @if l.provisional {
                        " " span.hint { "(provisional: " (l.games_needed) " more " (if l.games_needed == 1 { "game" } else { "games" }) ")" }
                    }
                }
            }
        }
    };
    let established = board.leaders.iter().filter(|l| !l.provisional).count();
    let club = q.club.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let title = format!("{game} ratings{}", club.map_or(String::new(), |c| format!(" of {c}")));
    let body = html! {
        section.leaderboard {
            h1 { (title) }
            form.board-choice method="get" action="/leaderboard" {
                label { "Game " select name="ruleset" {
                    @for g in almanac_service::GAMES.iter() { option value=(g.id()) selected[g.id() == board.ruleset] { (g.name()) } }
                } }
                label { "Club " input name="club" size="14" value=(club.unwrap_or("")); }
                label { input type="checkbox" name="bots" value="yes" checked[board.bots]; " Programs too (bots)" }
                button type="submit" { "Show" }
            }
            p.hint {
                "A rating is the level a player's games show they have reached at least: it rises with the games they win, \
                 the more so against strong players, and falls with those they lose. Beside it, how far above it their true level \
                 could still lie: far after a few games, nearer with every game played. Ranked by the rating itself, the \
                 cautious figure, so a lucky first game does not put anyone on top. A player with fewer than "
                (almanac_service::players::PROVISIONAL_GAMES)
                " games is provisional: listed after the others, greyed, not ranked yet. Every published game with a winner counts once, in \
                 the order played (Weng-Lin ratings, as OpenSkill)."
            }
            @if board.leaders.is_empty() {
                p.hint { "Nobody is rated in this game yet: a rating needs a published game with a winner." }
            }
            div.table-wrap tabindex="0" role="region" aria-label="Leaderboard" {
                table.leaders {
                    thead { tr { th { "#" } th { "Player" } th { "Rating" } th { "Games" } } }
                    tbody {
                        @for (i, l) in board.leaders.iter().take(established).enumerate() { (row((i + 1).to_string(), l)) }
                        @if established < board.leaders.len() {
                            tr.group { th colspan="4" scope="rowgroup" { "Provisional: fewer than " (almanac_service::players::PROVISIONAL_GAMES) " games, not ranked yet" } }
                            @for l in board.leaders.iter().skip(established) { (row("–".to_string(), l)) }
                        }
                    }
                }
            }
        }
    };
    page(&title, body, &[], signed.as_ref(), deriving)
}

#[derive(Deserialize)]
struct MergeBody {
    /// The spelling (player id) merged into the player of the path.
    from: i64,
}

impl Expected for MergeBody {
    const EXPECTED: &'static str = "{\"from\": a player id}";
}

/// A club merges two spellings of one of its players: the path's player keeps its id and page.
async fn merge(
    app: web::Data<AppState>,
    writer: Writer,
    path: web::Path<String>,
    Json(body): Json<MergeBody>,
) -> Result<HttpResponse> {
    let into = player_id(&path)?;
    let club = writer.club.id;
    let merged = blocking(move || Ok(app.pool.write(|s| merge_players(s, Some(club), into, body.from))?)).await?;
    Ok(HttpResponse::Ok().json(merged))
}

fn link(id: i64, name: &str) -> Markup {
    html! { a href={ "/players/" (id) } { (name) } }
}

/// A seat's name, linked to the player's page when it has one.
fn name_of(id: Option<i64>, name: &str) -> Markup {
    match id {
        Some(id) => link(id, name),
        None => html! { (name) },
    }
}

fn game_link(id: &str, title: &Option<String>) -> Markup {
    html! { a href={ "/games/" (id) } { (title.as_deref().unwrap_or(id)) } }
}

fn average(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.1}"))
}

/// Which of a player's games the page lists: one game's, a page of them.
#[derive(Deserialize)]
struct GamesQuery {
    ruleset: Option<String>,
    page: Option<usize>,
}

/// Games listed on a page of a player's games.
const GAMES_PER_PAGE: usize = 50;

/// The page shown of `total` things `per_page` at a time, as asked (from 1; one past the end is the last),
/// and how many pages there are (one, when there is nothing).
fn page_of(total: usize, per_page: usize, asked: Option<usize>) -> (usize, usize) {
    let pages = total.div_ceil(per_page).max(1);
    (asked.unwrap_or(1).clamp(1, pages), pages)
}

async fn player_html(
    app: web::Data<AppState>,
    visitor: Visitor,
    path: web::Path<String>,
    q: web::Query<GamesQuery>,
) -> HttpResponse {
    let deriving = app.derivation.progress();
    let Visitor { reader, signed } = visitor;
    let p = match load_page(app, &reader, &path).await {
        Ok(p) => p,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let me = &p.player;
    let also: Vec<&String> = me.spellings.iter().filter(|s| **s != me.name).collect();
    let only = q.ruleset.as_deref().filter(|r| !r.is_empty());
    let chosen: Vec<&almanac_service::players::Played> =
        p.games.iter().filter(|g| only.is_none_or(|r| g.ruleset == r)).collect();
    let (at, pages) = page_of(chosen.len(), GAMES_PER_PAGE, q.page);
    let filter: Vec<(String, String)> = std::iter::once(("".to_string(), "every game".to_string()))
        .chain(p.rulesets.iter().map(|r| (r.ruleset.clone(), r.name.clone())))
        .collect();
    let here = |n: usize| {
        let r = only.map_or(String::new(), |r| format!("ruleset={}&", crate::pages::url_encode(r)));
        format!("/players/{}?{r}page={n}#games", me.id)
    };
    let peers =
        if p.profiles.iter().any(|x| x.field.as_ref().is_some_and(|f| f.programs)) { "programs" } else { "people" };
    let body = html! {
        section.player-page {
            h1 { (me.name) }
            p.meta {
                @match &me.club { Some(c) => { "games of " (c) }, None => "games no club owns" }
                @if me.bot { " · " span.bot { "bot" } " a program's seats, as the records say: not on people's leaderboards" }
                @if !also.is_empty() {
                    " · also written "
                    @for (i, s) in also.iter().enumerate() { @if i > 0 { ", " } (s) }
                }
            }
            (summary_html(&p))
            details.more open {
                summary { h2 { "Ratings" } }
                div.table-wrap tabindex="0" role="region" aria-label="Ratings" {
                    table.ratings {
                        thead { tr { th { "Game" } th { "Rating" } th { "Place" } th {} } }
                        tbody {
                            @for r in &p.ratings {
                                tr {
                                    td { (r.name) }
                                    td { (format!("{:.1}", r.rating)) }
                                    td { @match r.rank {
                                        Some(rank) => { (rank) " of " (r.rated) " rated" },
                                        None => { "provisional: " (r.games_needed) " more " (if r.games_needed == 1 { "game" } else { "games" }) },
                                    } }
                                    td { a href={ "/leaderboard?ruleset=" (r.ruleset) @if let Some(c) = &me.club { "&club=" (crate::pages::url_encode(c)) } } { "leaderboard" } }
                                }
                            }
                        }
                    }
                }
                @if !p.ratings.is_empty() {
                    figure.chart tabindex="0" aria-label="chart: ratings" {
                        img src={ "/api/players/" (me.id) "/ratings.svg" } alt={ (me.name) "'s rating, game by game" } width="760" height="380";
                    }
                }
            }
            details.more open {
                summary { h2 { "By game" } }
                div.table-wrap tabindex="0" role="region" aria-label="Record by game" {
                    table.records {
                        thead { tr { th { "Game" } th { "Played" } th { "Won" } th { "Average score" } th { "Average place" } } }
                        tbody {
                            @for r in &p.rulesets {
                                tr { td { (r.name) } td { (r.games) } td { (r.wins) } td { (average(r.average_score)) } td { (format!("{:.2}", r.average_place)) } }
                            }
                        }
                    }
                }
            }
            details.more {
                summary { h2 { "How " (me.name) " plays, against the field" } }
                p.hint { "Each number is the mean over " (me.name) "'s published games; the field's over " (peers) "' published games of that game." }
                @for x in &p.profiles { (profile_html(&p, x)) }
            }
            details.more open {
                summary { h2 { "Opponents" } }
                div.table-wrap tabindex="0" role="region" aria-label="Opponents" {
                    table.opponents {
                        thead { tr { th { "Player" } th { "Games together" } th { "Finished ahead" } th { "Behind" } th {} } }
                        tbody {
                            @for o in &p.opponents {
                                tr {
                                    td { (link(o.player, &o.name)) } td { (o.games) } td { (o.ahead) } td { (o.behind) }
                                    td { a.versus href={ "/players/" (me.id) "/vs/" (o.player) } { "head-to-head" } }
                                }
                            }
                        }
                    }
                }
            }
            h2 #games { "Games" }
            form.games-filter method="get" action={ "/players/" (me.id) "#games" } {
                label { "Game " select name="ruleset" {
                    @for (id, name) in &filter { option value=(id) selected[only.unwrap_or("") == id] { (name) } }
                } }
                " "
                button type="submit" { "Show" }
            }
            @if pages > 1 {
                p.pager {
                    @if at > 1 { a href=(here(at - 1)) rel="prev" { "newer" } }
                    " page " (at) " of " (pages) " "
                    @if at < pages { a href=(here(at + 1)) rel="next" { "older" } }
                }
            }
            div.table-wrap tabindex="0" role="region" aria-label="Games" {
                table.played {
                    thead { tr { th { "Played on" } th { "Game" } th { "Game kind" } th { "Players" } th { "Score" } th { "Place" } } }
                    tbody {
                        @for g in chosen.iter().skip((at - 1) * GAMES_PER_PAGE).take(GAMES_PER_PAGE) {
                            tr class=[g.won.then_some("won")] {
                                td { (g.played_on.as_deref().map(almanac_core::moment::day_in_words).unwrap_or_default()) }
                                td { (game_link(&g.game, &g.title)) }
                                td { (almanac_service::game_kind(&g.ruleset).map_or(g.ruleset.as_str(), |k| k.name())) }
                                td { (g.players) }
                                td { (g.score.map_or("–".into(), |s| s.to_string())) }
                                td { (g.place) " of " (g.players) }
                            }
                        }
                    }
                }
            }
        }
    };
    page(&me.name, body, &[], signed.as_ref(), deriving)
}

async fn versus_html(app: web::Data<AppState>, visitor: Visitor, path: web::Path<(String, String)>) -> HttpResponse {
    let deriving = app.derivation.progress();
    let Visitor { reader, signed } = visitor;
    let (a, b) = path.into_inner();
    let h = match load_versus(app, &reader, &a, &b).await {
        Ok(h) => h,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let title = format!("{} and {}", h.a.name, h.b.name);
    let (a, b) = (link(h.a.id, &h.a.name), link(h.b.id, &h.b.name));
    let body = html! {
        section.versus-page {
            h1 { (a) " and " (b) }
            p.summary { (together_in_words(&h)) }
            @for p in &h.side_by_side {
                section.pair {
                    h2 { (p.name) }
                    p.hint {
                        "Each over their own published games of " (p.name) " (a number's count beside it; its 95 % interval in brackets). \
                         Each number on its own scale. One is called better only when the two intervals do not overlap; otherwise the games \
                         played do not tell them apart, and the numbers are about the same."
                    }
                    div.side-bars role="list" aria-label={ (p.name) ", side by side" } {
                        @for n in &p.numbers { (pair_bars(n, &h.a.name, &h.b.name)) }
                    }
                    @if !p.not_compared.is_empty() {
                        p.hint.not-compared { "Not set side by side: " (p.not_compared.join("; ")) "." }
                    }
                    p.exports {
                        a href={ "/api/players/" (h.a.id) "/vs/" (h.b.id) "/chart.svg?ruleset=" (crate::pages::url_encode(&p.ruleset)) } { "The same as a picture (SVG)" }
                    }
                }
            }
            h2 { "Games together" }
            div.table-wrap tabindex="0" role="region" aria-label="Games together" {
                table.shared {
                    thead { tr { th { "Played on" } th { "Game" } th { "Game kind" } th { (a) } th { (b) } } }
                    tbody {
                        @for g in &h.games {
                            tr {
                                td { (g.played_on.as_deref().map(almanac_core::moment::day_in_words).unwrap_or_default()) }
                                td { (game_link(&g.game, &g.title)) }
                                td { (almanac_service::game_kind(&g.ruleset).map_or(g.ruleset.as_str(), |k| k.name())) }
                                td { (g.a_score.map_or("–".into(), |s| s.to_string())) " (" (ordinal(g.a_place)) ")" }
                                td { (g.b_score.map_or("–".into(), |s| s.to_string())) " (" (ordinal(g.b_place)) ")" }
                            }
                        }
                    }
                }
            }
        }
    };
    page(&title, body, &[], signed.as_ref(), deriving)
}

/// Who finished ahead how often, in plain words: "3 games together: Ayşe finished ahead twice, Zeynep
/// finished ahead once".
fn together_in_words(h: &almanac_service::players::HeadToHead) -> Markup {
    let times = |n: u32| match n {
        0 => "never".to_string(),
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    };
    let games = match h.games.len() {
        0 => "No game together yet".to_string(),
        1 => "1 game together".to_string(),
        n => format!("{n} games together"),
    };
    if h.games.is_empty() {
        return html! { (games) "." };
    }
    let level = match h.level {
        0 => String::new(),
        1 => "; level once".to_string(),
        n => format!("; level {n} times"),
    };
    let ahead = |who: Markup, n: u32| match n {
        0 => html! { (who) " never finished ahead" },
        n => html! { (who) " finished ahead " (times(n)) },
    };
    html! {
        (games) ": " (ahead(link(h.a.id, &h.a.name), h.a_ahead)) ", " (ahead(link(h.b.id, &h.b.name), h.b_ahead)) (level) "."
    }
}

/// One number of two players as two bars, on the number's own scale, its words whole above them, each value
/// with its count and interval, the better one marked in words as well as colour.
fn pair_bars(n: &almanac_service::players::Pair, a: &str, b: &str) -> Markup {
    let scale = n.a.abs().max(n.b.abs()).max(1e-9);
    let rate = n.what == "win rate";
    let shown = |v: f64| {
        if rate {
            format!("{:.0}%", v * 100.0)
        } else if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round())
        } else {
            format!("{v:.2}")
        }
    };
    let bar = |who: &str, v: f64, seats: u64, interval: Option<(f64, f64)>, better: Option<bool>, side: &str| {
        // An interval of no width (every game alike) says nothing a reader needs.
        let interval = interval.filter(|(l, h)| shown(*l) != shown(*h));
        // The page's policy allows no inline style: a bar's length is a class, in twentieths.
        let w = ((v.abs() / scale * 20.0).round() as u32).min(20) * 5;
        html! {
            div class={ "bar-row " (side) } {
                span.who { (who) }
                span.track { span class={ "bar w" (w) } {} }
                span.value {
                    b { (shown(v)) }
                    @if let Some((l, h)) = interval { " " span.interval { "[" (shown(l)) "–" (shown(h)) "]" } }
                    " " span.hint { (seats) " " (if seats == 1 { "game" } else { "games" }) }
                    @if better == Some(true) { " " span.better { "▲ better" } }
                }
            }
        }
    };
    use almanac_service::players::Comparison;
    html! {
        div.side-pair role="listitem" {
            div.what { (n.what) @if n.lower_is_better { " " span.hint { "(lower is better)" } } }
            (bar(a, n.a, n.a_seats, n.a_interval, n.a_better, "a"))
            (bar(b, n.b, n.b_seats, n.b_interval, n.a_better.map(|x| !x), "b"))
            @match n.comparison {
                Some(Comparison::AboutTheSame) => div.verdict { "about the same" },
                Some(Comparison::Unknown) => div.verdict { "too few games to tell" },
                _ => {},
            }
        }
    }
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
