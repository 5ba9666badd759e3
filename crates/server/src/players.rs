//! Players across games over HTTP: a player's page and record (`/players/{id}`, `/api/players/{id}`), two
//! players side by side (`.../vs/{other}`), and a club merging two spellings of one player
//! (`POST /api/players/{id}/merge`). Only published games count; the store and the service decide.

use crate::access::{Reader, Writer};
use crate::app::{blocking, AppState, Result};
use crate::error::ApiError;
use crate::pages::{escape, page, problem_page, SignedIn};
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::players::{curve_chart as curve_of, HeadToHead, Leader, PlayerPage, Profile, Versus};
use almanac_service::players::{head_to_head, leaderboard, merge_players, player_page, rating_chart as chart_of};
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
/// fair game's, the rating and its move, and three strengths and weaknesses against the field, each with its
/// count.
fn summary_html(p: &almanac_service::players::PlayerPage) -> String {
    let s = &p.summary;
    let Some(game) = &s.name else {
        return "<p class=\"hint\">No game of this player counts yet (a published game with a winner).</p>".to_string();
    };
    let percent = |v: f64| format!("{:.0}%", v * 100.0);
    let record = format!(
        "{wins} {won} of {games} {played}: {rate}{interval}{fair}",
        wins = s.wins,
        won = if s.wins == 1 { "win" } else { "wins" },
        games = s.games,
        played = if s.games == 1 { "game" } else { "games" },
        rate = percent(s.wins as f64 / s.games.max(1) as f64),
        interval = match (s.win_low, s.win_high) {
            (Some(l), Some(h)) => format!(" <span class=\"interval\">({}–{})</span>", percent(l), percent(h)),
            _ => String::new(),
        },
        fair = s.fair_share.map_or(String::new(), |f| format!("; an even game at these tables gives {}", percent(f))),
    );
    let rating = match (s.rating, s.rating_change) {
        (Some(r), Some(c)) => format!(
            "<p class=\"rating\">Rating <b>{r:.1}</b> <span class=\"{trend}\">{arrow} {c:+.1}</span> over the last {n} {games}</p>",
            trend = if c >= 0.0 { "better" } else { "worse" },
            arrow = if c >= 0.0 { "▲" } else { "▼" },
            n = s.trend_games,
            games = if s.trend_games == 1 { "game" } else { "games" },
        ),
        _ => String::new(),
    };
    let cues = |title: &str, cues: &[almanac_service::players::Cue], empty: &str| {
        let items: String = cues
            .iter()
            .map(|c| {
                format!(
                    "<li class=\"{class}\"><span class=\"cue\">{arrow}</span> {label}: <b>{mine:.2}</b> against the field's {field:.2} <span class=\"hint\">({seats} {seat_word}; {low:.2}–{high:.2})</span></li>",
                    class = if c.better { "better" } else { "worse" },
                    arrow = if c.better { "▲ better" } else { "▼ worse" },
                    label = escape(&c.label),
                    mine = c.mine,
                    field = c.field,
                    seats = c.seats,
                    seat_word = if c.seats == 1 { "game" } else { "games" },
                    low = c.low,
                    high = c.high,
                )
            })
            .collect();
        let list = if items.is_empty() {
            format!("<p class=\"hint\">{empty}</p>")
        } else {
            format!("<ul class=\"cues\">{items}</ul>")
        };
        format!("<div><h3>{title}</h3>{list}</div>")
    };
    // Form: the last games of this game, latest first, each its place of how many, the wins marked.
    let recent: Vec<String> = p
        .games
        .iter()
        .filter(|g| Some(&g.ruleset) == s.ruleset.as_ref())
        .take(FORM_GAMES)
        .map(|g| {
            format!(
                "<li{won}><a href=\"/games/{id}\" title=\"{title}{day}\">{place}<span class=\"hint\">/{n}</span></a></li>",
                won = if g.won { " class=\"won\"" } else { "" },
                id = escape(&g.game),
                title = escape(g.title.as_deref().unwrap_or("a game")),
                day = g.played_on.as_deref().map_or(String::new(), |d| format!(", {}", escape(d.get(..10).unwrap_or(d)))),
                place = ordinal(g.place),
                n = g.players,
            )
        })
        .collect();
    let form = if recent.is_empty() {
        String::new()
    } else {
        format!(
            "<div class=\"form\"><h3>Form <span class=\"hint\">(the last {n}, latest first: the place finished, of how many)</span></h3><ol class=\"form\">{}</ol></div>",
            recent.join(""),
            n = recent.len()
        )
    };
    format!(
        r#"<section class="summary" aria-label="Summary"><h2>{game}</h2><p class="record">{record}</p>{rating}
{form}<div class="cue-lists">{strengths}{weaknesses}</div></section>"#,
        game = escape(game),
        strengths = cues("Strengths", &s.strengths, "None stands out from the field yet."),
        weaknesses = cues("Weaknesses", &s.weaknesses, "None stands out from the field yet."),
    ) + &format!(
        "<p class=\"field hint\">{}</p>",
        field_words(p.profiles.iter().find(|x| Some(&x.ruleset) == s.ruleset.as_ref()).and_then(|x| x.field.as_ref()), game)
    ) + "<p class=\"hint cue-rule\">A strength or a weakness is named only where the field's number lies outside the player's 95 % interval: where it lies inside, the games played do not tell the two apart.</p>"
}

fn versus_table(caption: &str, rows: &[Versus], per: &str) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let body: String = rows
        .iter()
        .map(|v| {
            let field = v.field.map_or("–".to_string(), |f| format!("{f:.2}"));
            let interval = match (v.low, v.high) {
                (Some(low), Some(high)) => format!(" <span class=\"interval\">{low:.2}–{high:.2}</span>"),
                _ => String::new(),
            };
            format!(
                "<tr><td>{}</td><td>{:.2}{interval}</td><td>{field}</td><td>{}</td></tr>",
                escape(&v.label),
                v.mine,
                v.seats
            )
        })
        .collect();
    format!(
        "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"{caption}\"><table class=\"versus-field\"><caption>{caption}</caption><thead><tr><th>{per}</th><th>Mine <span class=\"hint\">(95 % interval)</span></th><th>The field</th><th>Seats</th></tr></thead><tbody>{body}</tbody></table></div>",
        caption = escape(caption),
        per = escape(per),
    )
}

/// How the player plays one game: the score curve, production, losses, points, trading, partners, openings.
/// Whom "the field" is, in words: the player's peers, with how many seats and games it stands on.
fn field_words(field: Option<&almanac_store::FieldOf>, game: &str) -> String {
    let Some(f) = field else { return String::new() };
    let plural = |n: u64, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
    format!(
        "The field: {whose} published games of {game}, {seats} in {games} ({left} left out).",
        whose = if f.programs { "programs'" } else { "people's" },
        game = escape(game),
        seats = plural(f.seats, "seat", "seats"),
        games = plural(f.games, "game", "games"),
        left = if f.programs { "people" } else { "programs" },
    )
}

fn profile_html(me: &almanac_service::players::PlayerPage, p: &Profile) -> String {
    let name = &me.player.name;
    let curve = if p.score_by_turn.is_empty() {
        String::new()
    } else {
        format!(
            "<figure class=\"chart\" tabindex=\"0\" aria-label=\"chart: score by turn against the field\"><img src=\"/api/players/{}/curve.svg?ruleset={}\" alt=\"{}'s score by turn against the field, as the table below\" width=\"760\" height=\"380\"></figure>",
            me.player.id,
            crate::pages::url_encode(&p.ruleset),
            escape(name)
        )
    };
    let partners: String = p
        .partners
        .iter()
        .map(|t| {
            let who = match t.player {
                Some(id) => link(id, &t.name),
                None => escape(&t.name),
            };
            let rate = if t.cards_got > 0.0 { format!("{:.2}", t.cards_given / t.cards_got) } else { "–".into() };
            format!(
                "<tr><td>{who}</td><td>{:.0}</td><td>{:.0}</td><td>{:.0}</td><td>{rate}</td></tr>",
                t.trades, t.cards_given, t.cards_got
            )
        })
        .collect();
    let partners = if partners.is_empty() {
        String::new()
    } else {
        format!("<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Trade partners\"><table class=\"partners\"><caption>Trade partners</caption><thead><tr><th>With</th><th>Trades</th><th>Cards given</th><th>Cards got</th><th>Given per card got</th></tr></thead><tbody>{partners}</tbody></table></div>")
    };
    let openings: String = p
        .openings
        .iter()
        .map(|o| {
            format!("<tr><td>{}</td><td>{}</td><td>{:.0}%</td></tr>", escape(&o.opening), o.seats, o.win_rate * 100.0)
        })
        .collect();
    let openings = if openings.is_empty() {
        String::new()
    } else {
        format!("<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Openings\"><table class=\"openings\"><caption>Openings (what the setup gave)</caption><thead><tr><th>Opening</th><th>Games</th><th>Won</th></tr></thead><tbody>{openings}</tbody></table></div>")
    };
    let field = field_words(p.field.as_ref(), &p.name);
    format!(
        "<section class=\"profile\" data-ruleset=\"{ruleset}\"><h3>{game}</h3><p class=\"field hint\">{field}</p>{curve}{scores}{production}{losses}{points}{trading}{partners}{openings}{chances}</section>",
        ruleset = escape(&p.ruleset),
        game = escape(&p.name),
        scores = if p.score_by_turn.is_empty() {
            String::new()
        } else {
            format!(
                "<details><summary>The chart's numbers</summary>{}</details>",
                versus_table("Score by turn", &p.score_by_turn, "At the end of")
            )
        },
        production = versus_table("Production per turn", &p.production, "Of"),
        losses = versus_table("Cards lost per game", &p.losses, "To"),
        points = versus_table("Points per game", &p.points, "From"),
        trading = versus_table("Trading", &p.trading, ""),
        chances = versus_table("Win chances", &p.chances, ""),
    )
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
async fn leaderboard_html(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    q: web::Query<BoardQuery>,
) -> HttpResponse {
    let deriving = app.derivation.progress();
    let signed = SignedIn::of(&req, &reader);
    let board = match load_board(app, &reader, &q).await {
        Ok(b) => b,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let game = almanac_service::game_kind(&board.ruleset).map_or(board.ruleset.as_str(), |g| g.name());
    // Established players ranked; the provisional after them, unranked, each with the games it still needs.
    let row = |rank: String, l: &almanac_service::players::Leader| {
        format!(
            "<tr{class}><td>{rank}</td><td>{name}{bot}</td><td>{rating:.1} <span class=\"spread\">(up to {spread:.0} higher)</span></td><td>{games}{note}</td></tr>",
            class = if l.provisional { " class=\"provisional\"" } else { "" },
            name = link(l.player, &l.name),
            bot = if l.bot { " <span class=\"bot\">bot</span>" } else { "" },
            rating = l.rating,
            // The shown rating is mu − 3·sigma; the level may lie as high as mu + 3·sigma.
            spread = 6.0 * l.sigma,
            games = l.games,
            note = if l.provisional {
                format!(
                    " <span class=\"hint\">(provisional: {} more {})</span>",
                    l.games_needed,
                    if l.games_needed == 1 { "game" } else { "games" }
                )
            } else {
                String::new()
            },
        )
    };
    let established = board.leaders.iter().filter(|l| !l.provisional).count();
    let mut rows: String =
        board.leaders.iter().take(established).enumerate().map(|(i, l)| row((i + 1).to_string(), l)).collect();
    if established < board.leaders.len() {
        rows.push_str(&format!(
            "<tr class=\"group\"><th colspan=\"4\" scope=\"rowgroup\">Provisional: fewer than {} games, not ranked yet</th></tr>",
            almanac_service::players::PROVISIONAL_GAMES
        ));
        rows.extend(board.leaders.iter().skip(established).map(|l| row("–".to_string(), l)));
    }
    let club = q.club.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let whose = club.map_or(String::new(), |c| format!(" of {}", escape(c)));
    let title = format!("{game} ratings{}", club.map_or(String::new(), |c| format!(" of {c}")));
    let games: String = almanac_service::GAMES
        .iter()
        .map(|g| {
            let chosen = if g.id() == board.ruleset { " selected" } else { "" };
            format!("<option value=\"{}\"{chosen}>{}</option>", escape(g.id()), escape(g.name()))
        })
        .collect();
    let empty = if board.leaders.is_empty() {
        "<p class=\"hint\">Nobody is rated in this game yet: a rating needs a published game with a winner.</p>"
    } else {
        ""
    };
    let body = format!(
        r#"<section class="leaderboard"><h1>{game} ratings{whose}</h1>
<form class="board-choice" method="get" action="/leaderboard">
<label>Game <select name="ruleset">{games}</select></label>
<label>Club <input name="club" size="14" value="{club}"></label>
<label><input type="checkbox" name="bots" value="yes"{bots}> Programs too (bots)</label>
<button type="submit">Show</button></form>
<p class="hint">A rating is the level a player's games show they have reached at least: it rises with the games they win,
the more so against strong players, and falls with those they lose. Beside it, how far above it their true level
could still lie: far after a few games, nearer with every game played. Ranked by the rating itself, the
cautious figure, so a lucky first game does not put anyone on top. A player with fewer than {provisional} games is
provisional: listed after the others, greyed, not ranked yet. Every published game with a winner counts once, in
the order played (Weng-Lin ratings, as OpenSkill).</p>
{empty}<div class="table-wrap" tabindex="0" role="region" aria-label="Leaderboard"><table class="leaders"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table></div></section>"#,
        game = escape(game),
        club = escape(club.unwrap_or("")),
        bots = if board.bots { " checked" } else { "" },
        provisional = almanac_service::players::PROVISIONAL_GAMES,
    );
    page(&title, &body, &[], signed.as_ref(), deriving)
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
    payload: web::Payload,
) -> Result<HttpResponse> {
    if crate::api::media_type(&req).as_deref() != Some("application/json") {
        return Err(ApiError::new(
            actix_web::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a merge is JSON: {\"from\": player id}",
        ));
    }
    let body: MergeBody = crate::limits::read_json(payload, &app.limits, "{\"from\": a player id}").await?;
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
    req: HttpRequest,
    reader: Reader,
    path: web::Path<String>,
    q: web::Query<GamesQuery>,
) -> HttpResponse {
    let deriving = app.derivation.progress();
    let signed = SignedIn::of(&req, &reader);
    let p = match load_page(app, &reader, &path).await {
        Ok(p) => p,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let me = &p.player;
    let also: Vec<String> = me.spellings.iter().filter(|s| **s != me.name).map(|s| escape(s)).collect();
    let mut club = me.club.as_deref().map_or("games no club owns".to_string(), |c| format!("games of {}", escape(c)));
    if me.bot {
        club.push_str(
            " · <span class=\"bot\">bot</span> a program's seats, as the records say: not on people's leaderboards",
        );
    }
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
    let only = q.ruleset.as_deref().filter(|r| !r.is_empty());
    let chosen: Vec<&almanac_service::players::Played> =
        p.games.iter().filter(|g| only.is_none_or(|r| g.ruleset == r)).collect();
    let (at, pages) = page_of(chosen.len(), GAMES_PER_PAGE, q.page);
    let filter: String = std::iter::once(("".to_string(), "every game".to_string()))
        .chain(p.rulesets.iter().map(|r| (r.ruleset.clone(), r.name.clone())))
        .map(|(id, name)| {
            let selected = if only.unwrap_or("") == id { " selected" } else { "" };
            format!("<option value=\"{}\"{selected}>{}</option>", escape(&id), escape(&name))
        })
        .collect();
    let here = |n: usize| {
        let r = only.map_or(String::new(), |r| format!("ruleset={}&amp;", crate::pages::url_encode(r)));
        format!("/players/{}?{r}page={n}#games", me.id)
    };
    let pager = if pages > 1 {
        let previous =
            if at > 1 { format!("<a href=\"{}\" rel=\"prev\">newer</a>", here(at - 1)) } else { String::new() };
        let next =
            if at < pages { format!("<a href=\"{}\" rel=\"next\">older</a>", here(at + 1)) } else { String::new() };
        format!("<p class=\"pager\">{previous} page {at} of {pages} {next}</p>")
    } else {
        String::new()
    };
    let games_form = format!(
        "<form class=\"games-filter\" method=\"get\" action=\"/players/{}#games\"><label>Game <select name=\"ruleset\">{filter}</select></label> <button type=\"submit\">Show</button></form>",
        me.id
    );
    let games: String = chosen
        .iter()
        .skip((at - 1) * GAMES_PER_PAGE)
        .take(GAMES_PER_PAGE)
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
                "<tr><td>{}</td><td>{:.1}</td><td>{}</td><td><a href=\"/leaderboard?ruleset={}{club}\">leaderboard</a></td></tr>",
                escape(&r.name),
                r.rating,
                match r.rank {
                    Some(rank) => format!("{rank} of {} rated", r.rated),
                    None => format!(
                        "provisional: {} more {}",
                        r.games_needed,
                        if r.games_needed == 1 { "game" } else { "games" }
                    ),
                },
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
    let summary = summary_html(&p);
    let body = format!(
        r#"<section class="player-page"><h1>{name}</h1>
<p class="meta">{club}{also}</p>
{summary}
<details class="more" open><summary><h2>Ratings</h2></summary>
<div class="table-wrap" tabindex="0" role="region" aria-label="Ratings"><table class="ratings"><thead><tr><th>Game</th><th>Rating</th><th>Place</th><th></th></tr></thead><tbody>{ratings}</tbody></table></div>
{chart}</details>
<details class="more" open><summary><h2>By game</h2></summary>
<div class="table-wrap" tabindex="0" role="region" aria-label="Record by game"><table class="records"><thead><tr><th>Game</th><th>Played</th><th>Won</th><th>Average score</th><th>Average place</th></tr></thead><tbody>{records}</tbody></table></div>
</details>
<details class="more"><summary><h2>How {name} plays, against the field</h2></summary>
<p class="hint">Each number is the mean over {name}'s published games; the field's over {peers}' published games of that game.</p>
{profiles}</details>
<details class="more" open><summary><h2>Opponents</h2></summary>
<div class="table-wrap" tabindex="0" role="region" aria-label="Opponents"><table class="opponents"><thead><tr><th>Player</th><th>Games together</th><th>Finished ahead</th><th>Behind</th><th></th></tr></thead><tbody>{opponents}</tbody></table></div></details>
<h2 id="games">Games</h2>
{games_form}{pager}
<div class="table-wrap" tabindex="0" role="region" aria-label="Games"><table class="played"><thead><tr><th>Played on</th><th>Game</th><th>Ruleset</th><th>Players</th><th>Score</th><th>Place</th></tr></thead><tbody>{games}</tbody></table></div>
</section>"#,
        name = escape(&me.name),
        profiles = p.profiles.iter().map(|x| profile_html(&p, x)).collect::<String>(),
        peers =
            if p.profiles.iter().any(|x| x.field.as_ref().is_some_and(|f| f.programs)) { "programs" } else { "people" },
        also = if also.is_empty() { String::new() } else { format!(" · also written {}", also.join(", ")) },
    );
    page(&me.name, &body, &[], signed.as_ref(), deriving)
}

async fn versus_html(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    path: web::Path<(String, String)>,
) -> HttpResponse {
    let deriving = app.derivation.progress();
    let signed = SignedIn::of(&req, &reader);
    let (a, b) = path.into_inner();
    let h = match load_versus(app, &reader, &a, &b).await {
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
    let pairs: String = h
        .side_by_side
        .iter()
        .map(|p| {
            let bars: String = p.numbers.iter().map(|n| pair_bars(n, &h.a.name, &h.b.name)).collect();
            format!(
                "<section class=\"pair\"><h2>{game}</h2><p class=\"hint\">Each over their own published games of {game} (a number's count beside it; its 95 % interval in brackets). Each number on its own scale. One is called better only when the two intervals do not overlap; otherwise the games played do not tell them apart, and the numbers are about the same.</p><div class=\"side-bars\" role=\"list\" aria-label=\"{game}, side by side\">{bars}</div><p class=\"exports\"><a href=\"/api/players/{a}/vs/{b}/chart.svg?ruleset={r}\">The same as a picture (SVG)</a></p></section>",
                game = escape(&p.name),
                a = h.a.id,
                b = h.b.id,
                r = crate::pages::url_encode(&p.ruleset),
            )
        })
        .collect();
    let body = format!(
        r#"<section class="versus-page"><h1>{a} and {b}</h1>
<p class="summary">{together}</p>
{pairs}
<h2>Games together</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Games together"><table class="shared"><thead><tr><th>Played on</th><th>Game</th><th>Ruleset</th><th>{a}</th><th>{b}</th></tr></thead><tbody>{rows}</tbody></table></div>
</section>"#,
        a = link(h.a.id, &h.a.name),
        b = link(h.b.id, &h.b.name),
        together = together_in_words(&h),
    );
    page(&title, &body, &[], signed.as_ref(), deriving)
}

/// Who finished ahead how often, in plain words: "3 games together: Ayşe finished ahead twice, Zeynep
/// finished ahead once".
fn together_in_words(h: &almanac_service::players::HeadToHead) -> String {
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
        return format!("{games}.");
    }
    let level = match h.level {
        0 => String::new(),
        1 => "; level once".to_string(),
        n => format!("; level {n} times"),
    };
    let ahead = |who: String, n: u32| match n {
        0 => format!("{who} never finished ahead"),
        n => format!("{who} finished ahead {}", times(n)),
    };
    format!(
        "{games}: {}, {}{level}.",
        ahead(link(h.a.id, &h.a.name), h.a_ahead),
        ahead(link(h.b.id, &h.b.name), h.b_ahead),
    )
}

/// One number of two players as two bars, on the number's own scale, its words whole above them, each value
/// with its count and interval, the better one marked in words as well as colour.
fn pair_bars(n: &almanac_service::players::Pair, a: &str, b: &str) -> String {
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
        let interval = interval
            .filter(|(l, h)| shown(*l) != shown(*h))
            .map_or(String::new(), |(l, h)| format!(" <span class=\"interval\">[{}–{}]</span>", shown(l), shown(h)));
        let mark = if better == Some(true) { " <span class=\"better\">▲ better</span>" } else { "" };
        format!(
            "<div class=\"bar-row {side}\"><span class=\"who\">{who}</span><span class=\"track\"><span class=\"bar w{w}\"></span></span><span class=\"value\"><b>{v}</b>{interval} <span class=\"hint\">{seats} {games}</span>{mark}</span></div>",
            who = escape(who),
            // The page's policy allows no inline style: a bar's length is a class, in twentieths.
            w = ((v.abs() / scale * 20.0).round() as u32).min(20) * 5,
            v = shown(v),
            games = if seats == 1 { "game" } else { "games" },
        )
    };
    let what = if n.lower_is_better {
        format!("{} <span class=\"hint\">(lower is better)</span>", escape(&n.what))
    } else {
        escape(&n.what)
    };
    use almanac_service::players::Comparison;
    let verdict = match n.comparison {
        Some(Comparison::AboutTheSame) => "<div class=\"verdict\">about the same</div>",
        Some(Comparison::Unknown) => "<div class=\"verdict\">too few games to tell</div>",
        _ => "",
    };
    format!(
        "<div class=\"side-pair\" role=\"listitem\"><div class=\"what\">{what}</div>{}{}{verdict}</div>",
        bar(a, n.a, n.a_seats, n.a_interval, n.a_better, "a"),
        bar(b, n.b, n.b_seats, n.b_interval, n.a_better.map(|x| !x), "b"),
    )
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
