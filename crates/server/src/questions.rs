//! Questions across games over HTTP: the question builder page (`/questions`), its chart
//! (`/questions/chart.svg`), the answer as JSON, CSV or NDJSON (`/api/questions`) and what may be asked
//! (`/api/questions/catalogue`). Each question is a URL; the answer counts only games the asker may see.

use crate::access::Reader;
use crate::app::{blocking, AppState, Result};
use crate::error::ApiError;
use crate::pages::{page, problem_page, Visitor};
use actix_web::{web, HttpResponse};
use almanac_service::questions::{
    arg_choices, ask_kept, chart, csv, ndjson, Answer, ArgKind, Ask, Preset, METRICS, PRESETS,
};
use almanac_service::GAMES;
use almanac_store::Dimension;
use maud::{html, Markup};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/questions", web::get().to(builder))
        .route("/questions/chart.svg", web::get().to(answer_chart))
        .route("/api/questions", web::get().to(answer_api))
        .route("/api/questions/catalogue", web::get().to(catalogue));
}

/// A question's URL parameters. Empty ones (a form's untouched fields) are absent.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Params {
    preset: Option<String>,
    metric: Option<String>,
    arg: Option<String>,
    by: Option<String>,
    /// A second dimension (seat, then `players`).
    then: Option<String>,
    ruleset: Option<String>,
    club: Option<String>,
    player: Option<String>,
    players: Option<String>,
    group: Option<String>,
    min: Option<String>,
    /// Groups behind fewer games are greyed and ranked after the others (default 5).
    solid: Option<String>,
    /// `yes`: programs' seats (bots) among the players a "who" question ranks.
    bots: Option<String>,
    /// `json` (the default), `csv` or `ndjson`.
    format: Option<String>,
}

fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number<T: std::str::FromStr>(v: &Option<String>, what: &str) -> Result<Option<T>> {
    given(v)
        .map(|s| s.parse::<T>().map_err(|_| ApiError::bad_request(format!("`{what}` takes a whole number, not `{s}`"))))
        .transpose()
}

impl Params {
    /// The question asked: a preset's words, then any parameter given over them.
    fn ask(&self) -> Result<Ask> {
        let mut ask = match given(&self.preset) {
            Some(id) => Ask::preset(id).ok_or_else(|| {
                ApiError::new(actix_web::http::StatusCode::NOT_FOUND, format!("no preset question `{id}`"))
            })?,
            None => Ask { metric: "won".into(), by: "seat".into(), ..Ask::default() },
        };
        if let Some(m) = given(&self.metric) {
            ask.metric = m.to_string();
            ask.arg = String::new();
        }
        if let Some(a) = self.arg.as_deref() {
            ask.arg = a.trim().to_string();
        }
        if let Some(b) = given(&self.by) {
            ask.by = b.to_string();
        }
        ask.then = given(&self.then).unwrap_or("").to_string();
        ask.ruleset = given(&self.ruleset).map(str::to_string);
        ask.club = given(&self.club).map(str::to_string);
        // A player by name (any case, any spelling), or by the id in their page's address.
        match given(&self.player) {
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => ask.player = number(&self.player, "player")?,
            Some(name) => ask.player_name = Some(name.to_string()),
            None => {}
        }
        ask.players = number(&self.players, "players")?;
        ask.group = given(&self.group).map(str::to_string);
        ask.min_seats = number(&self.min, "min")?.unwrap_or(1);
        ask.solid_games = number(&self.solid, "solid")?;
        ask.bots = match given(&self.bots) {
            None | Some("no") => false,
            Some("yes") => true,
            Some(other) => return Err(ApiError::bad_request(format!("`bots` takes yes or no, not `{other}`"))),
        };
        Ok(ask)
    }

    /// The query string of this question (without the format), for links.
    fn query(&self, group: Option<&str>) -> String {
        let mut q = Params { format: None, group: group.map(str::to_string), ..self.clone() };
        for field in [&mut q.preset, &mut q.metric, &mut q.by, &mut q.then, &mut q.ruleset, &mut q.club, &mut q.player]
        {
            if given(field).is_none() {
                *field = None;
            }
        }
        for field in [&mut q.players, &mut q.min, &mut q.solid, &mut q.bots] {
            if given(field).is_none() {
                *field = None;
            }
        }
        if q.arg.as_deref().is_some_and(|a| a.trim().is_empty()) && q.metric.is_none() {
            q.arg = None;
        }
        serde_urlencoded::to_string(&q).unwrap_or_default()
    }
}

async fn answer_of(app: web::Data<AppState>, reader: &Reader, params: &Params) -> Result<Arc<Answer>> {
    let question = params.ask()?;
    let viewer = reader.viewer;
    blocking(move || Ok(app.pool.read(|s| ask_kept(s, viewer, &question, &app.answers))??)).await
}

async fn answer_api(app: web::Data<AppState>, reader: Reader, params: web::Query<Params>) -> Result<HttpResponse> {
    let answer = answer_of(app, &reader, &params).await?;
    Ok(match given(&params.format).unwrap_or("json") {
        "json" => HttpResponse::Ok().json(&*answer),
        "csv" => HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header(("Content-Disposition", "attachment; filename=\"answer.csv\""))
            .body(csv(&answer)),
        "ndjson" => HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .insert_header(("Content-Disposition", "attachment; filename=\"answer.ndjson\""))
            .body(ndjson(&answer)),
        other => return Err(ApiError::bad_request(format!("no format `{other}` (json, csv or ndjson)"))),
    })
}

async fn answer_chart(app: web::Data<AppState>, reader: Reader, params: web::Query<Params>) -> Result<HttpResponse> {
    let answer = answer_of(app, &reader, &params).await?;
    let svg = blocking(move || Ok(chart(&answer)?)).await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

/// What may be asked: metrics, the argument each takes per game, dimensions and presets.
#[derive(Serialize)]
struct Catalogue {
    metrics: Vec<MetricEntry>,
    dimensions: Vec<(&'static str, &'static str)>,
    presets: &'static [Preset],
}

#[derive(Serialize)]
struct MetricEntry {
    id: &'static str,
    label: &'static str,
    arg: ArgKind,
    /// For each game, the arguments it declares (`[id, label]`).
    args: Vec<(&'static str, Vec<(String, String)>)>,
}

async fn catalogue() -> HttpResponse {
    let metrics = METRICS
        .iter()
        .map(|m| MetricEntry {
            id: m.id,
            label: m.label,
            arg: m.arg,
            args: GAMES.iter().map(|g| (g.id(), arg_choices(m.arg, g.vocabulary()))).collect(),
        })
        .collect();
    let dimensions = Dimension::ALL.iter().map(|d| (d.id(), d.label())).collect();
    HttpResponse::Ok().json(Catalogue { metrics, dimensions, presets: PRESETS })
}

fn option(value: &str, label: &str, chosen: bool) -> Markup {
    html! { option value=(value) selected[chosen] { (label) } }
}

/// The form: every metric, its arguments (grouped by game), the dimensions, the filters.
fn form(params: &Params, ask: &Ask, known: &[String]) -> Markup {
    // "Of" lists what the chosen metric takes (turns, points, items, causes ...), for the chosen game or,
    // asked of every game, grouped by game; a metric that takes nothing lists nothing more. The page's
    // script lists them again when another metric is chosen (from `/api/questions/catalogue`).
    let metric = METRICS.iter().find(|m| m.id == ask.metric);
    let kind = metric.map_or(ArgKind::None, |m| m.arg);
    let chosen_game = ask.ruleset.as_deref().and_then(|r| GAMES.iter().find(|g| g.id() == r));
    let games: Vec<&dyn almanac_core::GameKind> = match (kind, chosen_game) {
        (ArgKind::None | ArgKind::Turn | ArgKind::Score, _) => Vec::new(),
        (_, Some(g)) => vec![*g],
        (_, None) => GAMES.to_vec(),
    };
    let args_of = |g: &dyn almanac_core::GameKind| -> Vec<(String, String)> {
        arg_choices(kind, g.vocabulary()).into_iter().filter(|(id, _)| !id.is_empty()).collect()
    };
    let value = |v: &Option<String>| given(v).unwrap_or("").to_string();
    let chosen_ruleset = ask.ruleset.as_deref();
    html! {
        form.question method="get" action="/questions" {
            label { "Metric " select name="metric" {
                @for m in METRICS { (option(m.id, &m.label.replace("{}", "…"), m.id == ask.metric)) }
            } }
            label hidden[kind == ArgKind::None] { "Of " select name="arg" {
                (option("", if kind == ArgKind::Item { "everything" } else { "(nothing more)" }, ask.arg.is_empty()))
                @if matches!(kind, ArgKind::Turn | ArgKind::Score) {
                    @for (id, label) in arg_choices(kind, GAMES[0].vocabulary()) { (option(&id, &label, id == ask.arg)) }
                }
                @if games.len() == 1 {
                    @for (id, label) in args_of(games[0]) { (option(&id, &label, id == ask.arg)) }
                } @else {
                    @for g in &games {
                        @let choices = args_of(*g);
                        @if !choices.is_empty() {
                            optgroup label=(g.name()) {
                                @for (id, label) in choices { (option(&id, &label, id == ask.arg)) }
                            }
                        }
                    }
                }
            } }
            label { "By " select name="by" {
                @for d in Dimension::ALL { (option(d.id(), d.label(), d.id() == ask.by)) }
            } }
            label { "Then by " select name="then" {
                (option("", "nothing more", ask.then.is_empty()))
                @for d in almanac_service::questions::SECOND { (option(d.id(), d.label(), d.id() == ask.then)) }
            } }
            label { "Game " select name="ruleset" {
                (option(almanac_service::questions::EVERY_GAME, "every game", chosen_ruleset == Some("all")))
                @for g in GAMES.iter() { (option(g.id(), g.name(), chosen_ruleset == Some(g.id()))) }
            } }
            label { "Players at the table " input name="players" inputmode="numeric" size="3" value=(value(&params.players)); }
            label { "Club " input name="club" size="12" value=(value(&params.club)); }
            label { "Player " input name="player" size="14" list="known-players" autocomplete="off" value=(value(&params.player)) placeholder="a name"; }
            datalist #known-players { @for n in known { option value=(n) {} } }
            label { "At least " input name="min" inputmode="numeric" size="3" value=(value(&params.min)); " seats" }
            label { "Ranked from " input name="solid" inputmode="numeric" size="3" value=(value(&params.solid)) placeholder="5"; " games" }
            label { input type="checkbox" name="bots" value="yes" checked[ask.bots]; " Programs' seats too (bots)" }
            button type="submit" { "Ask" }
        }
    }
}

fn shown(answer: &Answer, v: f64) -> String {
    if answer.percent {
        // A few points of percent, as a chance gained in a turn is, keep a decimal.
        let decimals = if (v * 100.0).abs() < 10.0 && v != 0.0 { 1 } else { 0 };
        format!("{:.*}%", decimals, v * 100.0)
    } else {
        format!("{v:.2}")
    }
}

fn answer_html(params: &Params, answer: &Answer) -> Markup {
    let query = params.query(params.group.as_deref());
    let has_expected = answer.groups.iter().any(|g| g.expected.is_some());
    let listed = if answer.counted > answer.games.len() as u64 {
        format!(" (the latest {} listed)", answer.games.len())
    } else {
        String::new()
    };
    let by = almanac_service::questions::capitalised(Dimension::from_id(answer.by).map_or(answer.by, |d| d.label()));
    html! {
        section.answer aria-labelledby="answer-title" {
            h2 #answer-title { (answer.question) }
            @if let Some(why) = &answer.why_empty {
                p.why-empty { "No game answers this question yet. " (why) }
            } @else {
                img.chart src={ "/questions/chart.svg?" (query) } alt={ (answer.question) ": the table below gives the same numbers" } width="800" height="500";
            }
            @if !answer.groups.is_empty() {
                div.table-wrap tabindex="0" role="region" aria-label="Answer" {
                    table.answer-table {
                        thead { tr {
                            th { (by) }
                            th { (if answer.value_is == almanac_service::questions::ValueIs::Rate { "Rate" } else { "Mean" }) " " span.hint { "(95 % interval)" } }
                            @if has_expected { th { "Fair share" } }
                            th { "Seats" }
                            th { "Games" }
                        } }
                        tbody {
                            @for g in &answer.groups {
                                tr class=[(!g.solid).then_some("thin")] {
                                    td { @match g.player {
                                        Some(id) => a href={ "/players/" (id) } { (g.label) },
                                        None => (g.label),
                                    } }
                                    td {
                                        (shown(answer, g.value))
                                        @if let (Some(low), Some(high)) = (g.low, g.high) {
                                            " " span.interval { (shown(answer, low)) "–" (shown(answer, high)) }
                                        }
                                    }
                                    @if has_expected { td { @if let Some(e) = g.expected { (shown(answer, e)) } } }
                                    td { (g.seats) }
                                    td { a href={ "/questions?" (params.query(Some(&g.key))) "#counted" } aria-label={ (g.games) " games counted for " (g.label) } { (g.games) } }
                                }
                            }
                        }
                    }
                }
            }
            p.hint {
                "Each seat counts once; each game once, whoever recorded it; a game without a winner, nowhere. Greyed: behind fewer than "
                (answer.solid_games)
                " games, ranked after the rest (a handful of games could put them anywhere)."
                @if has_expected {
                    " The fair share is what an even game gives these seats: one win in as many games as there are players at the table."
                }
            }
            p.exports {
                "Export: "
                a href={ "/api/questions?" (query) "&format=csv" } download { "CSV" }
                " · "
                a href={ "/api/questions?" (query) "&format=ndjson" } download { "NDJSON" }
                " · "
                a href={ "/api/questions?" (query) } { "JSON" }
            }
            h3 #counted {
                (answer.counted) " games counted"
                @if let Some(key) = params.group.as_deref() {
                    " under " b { (answer.groups.iter().find(|g| g.key == key).map_or(key, |g| g.label.as_str())) }
                    " · " a href={ "/questions?" (params.query(None)) } { "all groups" }
                }
                (listed)
            }
            ul.counted {
                @for g in &answer.games {
                    li {
                        a href={ "/games/" (g.id) } { (g.title.as_deref().unwrap_or(&g.id)) }
                        " "
                        span.hint {
                            (almanac_service::game_kind(&g.ruleset).map_or(g.ruleset.as_str(), |k| k.name()))
                            " · " (g.played_on.as_deref().map_or("undated".to_string(), almanac_core::moment::day_in_words))
                            // In a club's view, a record of the club's may be a game another record counts for, for the public.
                            @if !g.counted { " · another record of this game counts for the public" }
                        }
                    }
                }
            }
        }
    }
}

async fn builder(app: web::Data<AppState>, visitor: Visitor, params: web::Query<Params>) -> HttpResponse {
    let deriving = app.derivation.progress();
    let Visitor { reader, signed } = visitor;
    // A question is of one game, named in its URL: without one, the most played.
    if given(&params.ruleset).is_none() {
        let found = blocking({
            let app = app.clone();
            move || Ok(app.pool.read(almanac_service::players::most_played)??)
        })
        .await;
        return match found {
            Ok(ruleset) => {
                let with = Params { ruleset: Some(ruleset), ..params.into_inner() };
                HttpResponse::SeeOther()
                    .insert_header(("Location", format!("/questions?{}", with.query(with.group.as_deref()))))
                    .finish()
            }
            Err(e) => problem_page(e.status, &e.message),
        };
    }
    let ask = match params.ask() {
        Ok(a) => a,
        Err(e) => return problem_page(e.status, &e.message),
    };
    // The names a player may be asked by: the people rated in this game (programs too when asked).
    let known: Vec<String> = {
        let (app, viewer, ruleset, bots) = (app.clone(), reader.viewer, ask.ruleset.clone(), ask.bots);
        blocking(move || {
            let Some(ruleset) = ruleset.filter(|r| r != almanac_service::questions::EVERY_GAME) else {
                return Ok(Vec::new());
            };
            let leaders = app
                .pool
                .read(|s| almanac_service::players::leaderboard(s, viewer, &ruleset, None, bots, &app.ratings))??;
            let mut names: Vec<String> = leaders.into_iter().map(|l| l.name).collect();
            names.sort();
            names.dedup();
            Ok(names)
        })
        .await
        .unwrap_or_default()
    };
    let answer = match answer_of(app, &reader, &params).await {
        Ok(a) => answer_html(&params, &a),
        // A question the form can mend (a name nobody has, a metric's argument): said beside the form.
        Err(e) if e.status == actix_web::http::StatusCode::BAD_REQUEST => {
            html! { p.problem role="alert" { (e.message) } }
        }
        Err(e) => return problem_page(e.status, &e.message),
    };
    let body = html! {
        section.questions {
            h1 { "Questions across games" }
            p.hint { "Every game you may see counts, each seat once. Ask one of these, or build your own below." }
            ul.presets { @for p in PRESETS { li { a href={ "/questions?preset=" (p.id) } { (p.question) } } } }
            (form(&params, &ask, &known))
            (answer)
        }
    };
    page("Questions", body, &["/static/questions.js".to_string()], signed.as_ref(), deriving)
}
