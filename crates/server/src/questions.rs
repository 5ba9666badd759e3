//! Questions across games over HTTP: the question builder page (`/questions`), its chart
//! (`/questions/chart.svg`), the answer as JSON, CSV or NDJSON (`/api/questions`) and what may be asked
//! (`/api/questions/catalogue`). Each question is a URL; the answer counts only games the asker may see.

use crate::access::Reader;
use crate::app::{blocking, AppState, Result};
use crate::error::ApiError;
use crate::pages::{escape, page, problem_page, SignedIn};
use actix_web::{web, HttpRequest, HttpResponse};
use almanac_service::questions::{
    arg_choices, ask_kept, chart, csv, ndjson, Answer, ArgKind, Ask, Preset, METRICS, PRESETS,
};
use almanac_service::GAMES;
use almanac_store::Dimension;
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

fn option(value: &str, label: &str, chosen: bool) -> String {
    let selected = if chosen { " selected" } else { "" };
    format!("<option value=\"{}\"{selected}>{}</option>", escape(value), escape(label))
}

/// The form: every metric, its arguments (grouped by game), the dimensions, the filters.
fn form(params: &Params, ask: &Ask, known: &[String]) -> String {
    let metrics: String =
        METRICS.iter().map(|m| option(m.id, &m.label.replace("{}", "…"), m.id == ask.metric)).collect();
    // "Of" lists what the chosen metric takes (turns, points, items, causes ...), for the chosen game or,
    // asked of every game, grouped by game; a metric that takes nothing lists nothing more. The page's
    // script lists them again when another metric is chosen (from `/api/questions/catalogue`).
    let metric = METRICS.iter().find(|m| m.id == ask.metric);
    let kind = metric.map_or(ArgKind::None, |m| m.arg);
    let mut args = option("", if kind == ArgKind::Item { "everything" } else { "(nothing more)" }, ask.arg.is_empty());
    let chosen_game = ask.ruleset.as_deref().and_then(|r| GAMES.iter().find(|g| g.id() == r));
    match kind {
        ArgKind::None => {}
        ArgKind::Turn | ArgKind::Score => {
            for (id, label) in arg_choices(kind, GAMES[0].vocabulary()) {
                args.push_str(&option(&id, &label, id == ask.arg));
            }
        }
        _ => {
            let games: Vec<_> = match chosen_game {
                Some(g) => vec![g],
                None => GAMES.iter().collect(),
            };
            for g in &games {
                let choices: String = arg_choices(kind, g.vocabulary())
                    .into_iter()
                    .filter(|(id, _)| !id.is_empty())
                    .map(|(id, label)| option(&id, &label, id == ask.arg))
                    .collect();
                if games.len() == 1 {
                    args.push_str(&choices);
                } else if !choices.is_empty() {
                    args.push_str(&format!("<optgroup label=\"{}\">{choices}</optgroup>", escape(g.name())));
                }
            }
        }
    }
    let dims: String = Dimension::ALL.iter().map(|d| option(d.id(), d.label(), d.id() == ask.by)).collect();
    let thens: String = std::iter::once(option("", "nothing more", ask.then.is_empty()))
        .chain(almanac_service::questions::SECOND.iter().map(|d| option(d.id(), d.label(), d.id() == ask.then)))
        .collect();
    let mut rulesets =
        option(almanac_service::questions::EVERY_GAME, "every game", ask.ruleset.as_deref() == Some("all"));
    for g in GAMES.iter() {
        rulesets.push_str(&option(g.id(), g.name(), ask.ruleset.as_deref() == Some(g.id())));
    }
    let value = |v: &Option<String>| escape(given(v).unwrap_or(""));
    format!(
        r#"<form class="question" method="get" action="/questions">
<label>Metric <select name="metric">{metrics}</select></label>
<label{of_hidden}>Of <select name="arg">{args}</select></label>
<label>By <select name="by">{dims}</select></label>
<label>Then by <select name="then">{thens}</select></label>
<label>Game <select name="ruleset">{rulesets}</select></label>
<label>Players at the table <input name="players" inputmode="numeric" size="3" value="{players}"></label>
<label>Club <input name="club" size="12" value="{club}"></label>
<label>Player <input name="player" size="14" list="known-players" autocomplete="off" value="{player}" placeholder="a name"></label>
<datalist id="known-players">{known}</datalist>
<label>At least <input name="min" inputmode="numeric" size="3" value="{min}"> seats</label>
<label>Ranked from <input name="solid" inputmode="numeric" size="3" value="{solid}" placeholder="5"> games</label>
<label><input type="checkbox" name="bots" value="yes"{bots}> Programs' seats too (bots)</label>
<button type="submit">Ask</button></form>"#,
        bots = if ask.bots { " checked" } else { "" },
        players = value(&params.players),
        club = value(&params.club),
        player = value(&params.player),
        of_hidden = if kind == ArgKind::None { " hidden" } else { "" },
        known = known.iter().map(|n| format!("<option value=\"{}\"></option>", escape(n))).collect::<String>(),
        min = value(&params.min),
        solid = value(&params.solid),
    )
}

fn shown(answer: &Answer, v: f64) -> String {
    if answer.percent {
        format!("{:.0}%", v * 100.0)
    } else {
        format!("{v:.2}")
    }
}

fn answer_html(params: &Params, answer: &Answer) -> String {
    let query = params.query(params.group.as_deref());
    let has_expected = answer.groups.iter().any(|g| g.expected.is_some());
    let rows: String = answer
        .groups
        .iter()
        .map(|g| {
            let label = match g.player {
                Some(id) => format!("<a href=\"/players/{id}\">{}</a>", escape(&g.label)),
                None => escape(&g.label),
            };
            let interval = match (g.low, g.high) {
                (Some(low), Some(high)) => {
                    format!(" <span class=\"interval\">{}–{}</span>", shown(answer, low), shown(answer, high))
                }
                _ => String::new(),
            };
            let expected = if has_expected {
                format!("<td>{}</td>", g.expected.map_or(String::new(), |e| shown(answer, e)))
            } else {
                String::new()
            };
            format!(
                "<tr{thin}><td>{label}</td><td>{}{interval}</td>{expected}<td>{}</td><td><a href=\"/questions?{}#counted\" aria-label=\"{} games counted for {}\">{}</a></td></tr>",
                shown(answer, g.value),
                g.seats,
                escape(&params.query(Some(&g.key))),
                g.games,
                escape(&g.label),
                g.games,
                thin = if g.solid { "" } else { " class=\"thin\"" },
            )
        })
        .collect();
    let games: String = answer
        .games
        .iter()
        .map(|g| {
            let name = almanac_service::game_kind(&g.ruleset).map_or(g.ruleset.as_str(), |k| k.name());
            // In a club's view, a record of the club's may be a game another record counts for, for the public.
            let whose = if g.counted { "" } else { " · another record of this game counts for the public" };
            format!(
                "<li><a href=\"/games/{id}\">{}</a> <span class=\"hint\">{} · {}{whose}</span></li>",
                escape(g.title.as_deref().unwrap_or(&g.id)),
                escape(name),
                escape(g.played_on.as_deref().unwrap_or("undated")),
                id = escape(&g.id),
            )
        })
        .collect();
    let listed = if answer.counted > answer.games.len() as u64 {
        format!(" (the latest {} listed)", answer.games.len())
    } else {
        String::new()
    };
    let narrowed = match params.group.as_deref() {
        Some(key) => {
            let label = answer.groups.iter().find(|g| g.key == key).map_or(key, |g| g.label.as_str());
            format!(
                " under <b>{}</b> · <a href=\"/questions?{}\">all groups</a>",
                escape(label),
                escape(&params.query(None))
            )
        }
        None => String::new(),
    };
    let empty = if answer.groups.is_empty() { "<p>No game answers this question yet.</p>" } else { "" };
    format!(
        r#"<section class="answer" aria-labelledby="answer-title"><h2 id="answer-title">{question}</h2>{empty}
<img class="chart" src="/questions/chart.svg?{q}" alt="{question_attr}: the table below gives the same numbers" width="800" height="500">
<div class="table-wrap" tabindex="0" role="region" aria-label="Answer"><table class="answer-table"><thead><tr><th>{by}</th><th>{metric} <span class="hint">(95 % interval)</span></th>{fair}<th>Seats</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table></div>
<p class="hint">Each seat counts once; each game once, whoever recorded it; a game without a winner, nowhere. Greyed: behind fewer than {solid} games, ranked after the rest (a handful of games could put them anywhere).{fair_note}</p>
<p class="exports">Export: <a href="/api/questions?{q}&amp;format=csv" download>CSV</a> · <a href="/api/questions?{q}&amp;format=ndjson" download>NDJSON</a> · <a href="/api/questions?{q}">JSON</a></p>
<h3 id="counted">{counted} games counted{narrowed}{listed}</h3><ul class="counted">{games}</ul></section>"#,
        question = escape(&answer.question),
        question_attr = escape(&answer.question),
        q = escape(&query),
        by = escape(&almanac_service::questions::capitalised(
            Dimension::from_id(answer.by).map_or(answer.by, |d| d.label())
        )),
        metric = if answer.percent { "Rate" } else { "Mean" },
        counted = answer.counted,
        solid = answer.solid_games,
        fair = if has_expected { "<th>Fair share</th>" } else { "" },
        fair_note = if has_expected {
            " The fair share is what an even game gives these seats: one win in as many games as there are players at the table."
        } else {
            ""
        },
    )
}

async fn builder(
    app: web::Data<AppState>,
    req: HttpRequest,
    reader: Reader,
    params: web::Query<Params>,
) -> HttpResponse {
    let deriving = app.derivation.progress();
    let signed = SignedIn::of(&req, &reader);
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
    let presets: String = PRESETS
        .iter()
        .map(|p| format!("<li><a href=\"/questions?preset={}\">{}</a></li>", p.id, escape(p.question)))
        .collect();
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
            format!("<p class=\"problem\" role=\"alert\">{}</p>", escape(&e.message))
        }
        Err(e) => return problem_page(e.status, &e.message),
    };
    let body = format!(
        r#"<section class="questions"><h1>Questions across games</h1>
<p class="hint">Every game you may see counts, each seat once. Ask one of these, or build your own below.</p>
<ul class="presets">{presets}</ul>
{form}
{answer}</section>"#,
        form = form(&params, &ask, &known),
    );
    page("Questions", &body, &["/static/questions.js".to_string()], signed.as_ref(), deriving)
}
