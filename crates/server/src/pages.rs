//! The dashboard's pages, rendered here with every uploaded string escaped; `web/static/*.js` and each
//! game's replay drawing add the little interaction there is. What the pages offer (rulesets, formats,
//! charts) comes from the registry of games.

use crate::access::{form_proof, Credential, Reader};
use crate::app::{blocking, loaded};
use crate::app::{AppState, Result};
use crate::derivation::Progress;
use crate::error::ApiError;
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use almanac_service::{GameFilter, Sort, GAMES};
use almanac_store::GameRow;
use maud::{html, Markup, DOCTYPE};
use serde::Deserialize;
use std::future::Future;
use std::pin::Pin;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(index)).route("/games/{id}", web::get().to(replay));
}

/// Any path no route takes: a styled page (JSON under `/api/`); a path with a trailing slash is sent to
/// the same path without it.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    use actix_web::ResponseError;
    let path = req.path();
    if path.starts_with("/api/") {
        return crate::error::ApiError::new(StatusCode::NOT_FOUND, format!("no route {} {path}", req.method()))
            .error_response();
    }
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        let to = if trimmed == "/games" || trimmed.is_empty() { "/" } else { trimmed };
        // Only to a path of this site: `//elsewhere/` would leave it.
        if to.starts_with('/') && !to.starts_with("//") {
            return HttpResponse::PermanentRedirect().insert_header(("Location", to.to_string())).finish();
        }
    }
    problem_page(StatusCode::NOT_FOUND, &format!("There is no page at {path}."))
}

/// Text for a URL's query (every byte but the unreserved ones percent-encoded).
pub fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The names of the games this build knows, for the tagline ("A · B · C").
fn game_names() -> String {
    GAMES.iter().map(|g| g.name()).collect::<Vec<_>>().join(" · ")
}

/// A club signed in to the dashboard, and the proof its forms carry.
pub struct SignedIn {
    pub club: String,
    pub proof: String,
}

impl SignedIn {
    /// The signed-in club of a page's request (by its cookie), if any.
    fn of(credential: Credential, reader: &Reader) -> Option<SignedIn> {
        match (credential, &reader.club) {
            (Credential::Cookie(token), Some(club)) => {
                Some(SignedIn { club: club.name.clone(), proof: form_proof(&token) })
            }
            _ => None,
        }
    }

    /// The hidden field every form of a signed-in page carries.
    pub fn proof_input(&self) -> Markup {
        html! { input type="hidden" name="proof" value=(self.proof); }
    }
}

/// Who opens a page: what they may read, and the club signed in to the dashboard by its cookie, if any. A
/// handler argument.
pub struct Visitor {
    pub reader: Reader,
    pub signed: Option<SignedIn>,
}

impl FromRequest for Visitor {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = std::result::Result<Visitor, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let credential = Credential::of(req);
        let reader = Reader::from_request(req, payload);
        Box::pin(async move {
            let reader = reader.await?;
            let signed = SignedIn::of(credential, &reader);
            Ok(Visitor { reader, signed })
        })
    }
}

/// The table a coach reads at the end of a game, in the parts its game declares (`Vocabulary::coach`): items
/// gained, lost and spent, trades and luck for one game; points by what scored them and the pieces placed for
/// another. Each number opens the replay where it began; each group has its total; each player their colour.
/// The marks a decision may get, as a chess site writes them.
const MARKS: [(&str, &str); 3] = [("inaccuracy", "?!"), ("mistake", "?"), ("blunder", "??")];

/// Each player's decision accuracy beside the board, as a chess site shows it: overall (and over how many
/// decisions), by phase, and the count of each mark, each count a link to the player's first decision so
/// marked; what the marks and the accuracy mean, said under them.
fn accuracy_summary(
    seats: &[almanac_service::chances::SeatAccuracy],
    marked: &[(String, &'static str, u64)],
) -> Markup {
    let count = |player: &str, mark: &str, n: usize| {
        let first = marked.iter().find(|(p, m, _)| p == player && *m == mark).map(|(_, _, seq)| *seq);
        match first {
            Some(seq) if n > 0 => html! {
                a href={ "?seq=" (seq) } data-seq=(seq) title={ "go to " (player) "'s first " (mark) } { (n) }
            },
            _ => html! { (n) },
        }
    };
    let percent = |a: Option<f64>| a.map_or_else(|| "–".to_string(), |a| format!("{a:.0}"));
    html! {
        div #accuracy .accuracy {
            table {
                caption { "Decision accuracy" }
                thead {
                    tr {
                        th scope="col" { "Player" }
                        th scope="col" title="0 to 100: 100 where every decision was the best the rules allowed" { "Accuracy" }
                        @for (mark, sign) in MARKS { th scope="col" title={ (mark) "s" } { (sign) } }
                    }
                }
                tbody {
                    @for s in seats {
                        tr {
                            th scope="row" { (s.player) }
                            td { (percent(s.overall)) " " span.hint { "of " (s.decisions) } }
                            td.inaccuracy { (count(&s.player, "inaccuracy", s.inaccuracies)) }
                            td.mistake { (count(&s.player, "mistake", s.mistakes)) }
                            td.blunder { (count(&s.player, "blunder", s.blunders)) }
                        }
                        tr.phases {
                            td colspan="5" {
                                @for (k, p) in s.phases.iter().filter(|p| p.decisions > 0).enumerate() {
                                    @if k > 0 { " · " }
                                    (p.phase) " " (percent(p.accuracy))
                                }
                            }
                        }
                    }
                }
            }
            p.hint {
                "?! an inaccuracy, ? a mistake, ?? a blunder: a decision that lost Δ = 50 · ln(best ÷ chosen) of 5, 10 or \
                 15 or more (an even two-player game's points) against the best plan the rules allowed, marked only \
                 where Δ is more than twice the model's uncertainty of it. A decision's accuracy is \
                 103.17 · e^(−0.04354 · Δ) − 3.17; a player's, the mean of theirs."
            }
        }
    }
}

fn coach_table(
    t: &almanac_service::CoachTable,
    study: Option<&[Vec<almanac_service::chances::Studied>]>,
    colours: &[&str],
) -> Markup {
    use almanac_core::CoachPart;
    let cell = |c: &almanac_service::CoachCell| -> Markup {
        match c.events.first() {
            Some(first) if c.count != 0 => {
                let events = c.events.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ");
                html! { td { a href={ "?seq=" (first) } title={ "events " (events) } { (c.count) } } }
            }
            _ => html! { td { "–" } },
        }
    };
    let total = |cells: &[almanac_service::CoachCell]| -> Markup {
        let sum: i64 = cells.iter().map(|c| c.count).sum();
        html! { td.total { (sum) } }
    };
    // Each declared part: its columns (with a total where it has more than one) and the unit they count.
    let parts: Vec<(CoachPart, &[almanac_service::CoachColumn], String)> = t
        .parts
        .iter()
        .filter_map(|&part| {
            let items = &t.items_are;
            let (cols, unit): (&[almanac_service::CoachColumn], String) = match part {
                CoachPart::Gained => (&t.gained_by, format!("{items} gained")),
                CoachPart::Lost => (&t.lost_by, format!("{items} lost")),
                CoachPart::Spent => (&t.spent_on, format!("{items} spent on")),
                CoachPart::Points => (&t.points_by, "points".to_string()),
                CoachPart::Placed => (&t.placed, "pieces placed".to_string()),
                CoachPart::Returned => (&t.returned, "pieces returned during play".to_string()),
                CoachPart::Trades | CoachPart::Luck => (&[], String::new()),
            };
            let shown = matches!(part, CoachPart::Trades | CoachPart::Luck) || !cols.is_empty();
            shown.then_some((part, cols, unit))
        })
        .collect();
    // A total where a part has more than one column and its columns add up (pieces of different kinds do not).
    let totalled = |part: CoachPart, cols: &[almanac_service::CoachColumn]| cols.len() > 1 && part != CoachPart::Placed;
    let lucky = t.rows.iter().any(|r| r.promised.is_some());
    let title = "The game as a coach reads it";
    html! {
        section.coach {
            h2 { (title) }
            div.table-wrap tabindex="0" role="region" aria-label=(title) {
                table.coach-table {
                    thead {
                        tr {
                            th scope="col" rowspan="2" { "Player" }
                            @for (part, cols, unit) in &parts {
                                @match part {
                                    CoachPart::Trades => th scope="colgroup" colspan="2" { "trades" },
                                    CoachPart::Luck => @if lucky { th scope="col" rowspan="2" { "luck: cards produced / the dice's promise" } },
                                    _ => th scope="colgroup" colspan=(cols.len() + usize::from(totalled(*part, cols))) { (unit) },
                                }
                            }
                            @if study.is_some() { th scope="col" rowspan="2" { "turns to study (Δ lost)" } }
                        }
                        tr {
                            @for (part, cols, _) in &parts {
                                @match part {
                                    CoachPart::Trades => { th scope="col" { "made" } th scope="col" { "cards given / got" } },
                                    CoachPart::Luck => {},
                                    _ => {
                                        @for c in cols.iter() { th scope="col" { (c.label) } }
                                        @if totalled(*part, cols) { th scope="col" { "total" } }
                                    },
                                }
                            }
                        }
                    }
                    tbody {
                        @for (k, r) in t.rows.iter().enumerate() {
                            tr {
                                th scope="row" {
                                    span.swatch.coach-swatch data-colour=(colours.get(k).copied().unwrap_or("#888")) aria-hidden="true" {}
                                    (crate::breaks::breakable(&r.player))
                                }
                                @for (part, cols, _) in &parts {
                                    @let cells: &[almanac_service::CoachCell] = match part {
                                        CoachPart::Gained => &r.gained,
                                        CoachPart::Lost => &r.lost,
                                        CoachPart::Spent => &r.spent,
                                        CoachPart::Points => &r.points,
                                        CoachPart::Placed => &r.placed,
                                        CoachPart::Returned => &r.returned,
                                        _ => &[],
                                    };
                                    @match part {
                                        CoachPart::Trades => { (cell(&r.trades)) td { (r.gave) " / " (r.got) } },
                                        CoachPart::Luck => @if lucky {
                                            @match r.promised {
                                                Some(p) => td { (r.produced) " / " (format!("{p:.1}")) " (" (format!("{:+.1}", r.produced as f64 - p)) ")" },
                                                None => td { "–" },
                                            }
                                        },
                                        _ => {
                                            @for c in cells { (cell(c)) }
                                            @if totalled(*part, cols) { (total(cells)) }
                                        },
                                    }
                                }
                                @if let Some(study) = study {
                                    td.study {
                                        @let turns = study.iter().find(|s| s.first().is_some_and(|t| t.player == r.player));
                                        @match turns {
                                            Some(turns) => {
                                                // Compact, one a line ("T12 ?? −16.3"): the whole of it in its title.
                                                @for t in turns.iter() {
                                                    @let sign = MARKS.iter().find(|(m, _)| *m == t.mark).map_or("", |(_, sign)| *sign);
                                                    a href={ "?seq=" (t.seq) } data-seq=(t.seq) data-mark=(t.mark)
                                                        title={ "turn " (t.turn) ", " (t.mark) ": " (format!("{:.0}% where {:.0}% was there", t.chosen * 100.0, t.best * 100.0)) "; instead, " (t.best_words) } {
                                                        "T" (t.turn) " " (sign) " " (format!("−{:.1}", t.points))
                                                    }
                                                }
                                            }
                                            None => span.hint { "none marked" },
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            p.hint { "Each number opens the replay at the event where it began; its title lists every event behind it." }
            @if study.is_some() {
                p.hint { "Turns to study: each player's own decisions that lost the most against the best move the rules allowed then, each move valued by the best the rest of its turn could reach (the dice and a card drawn at what they could have been), by the ruleset's win-chance model; a trade's partner is judged too, accepting against declining. A loss counts against what was at stake: Δ = 50 · ln(best ÷ chosen), the points of an even two-player game (losing half of a 4 % chance is as bad as losing half of a 50 % one); a decision's accuracy is 103.17 · e^(−0.04354 · Δ) − 3.17, as a chess site's. Marks: inaccuracy from Δ 5, mistake from 10, blunder from 15, each only where Δ is more than twice the model's uncertainty of it. Games whose rules do not list the moves open show none." }
            }
        }
    }
}

/// A seat's name, linked to the player's page.
fn player_name(p: &almanac_store::PlayerRow) -> Markup {
    html! {
        @match p.player {
            Some(id) => a.player-link href={ "/players/" (id) } { (p.name) },
            None => (p.name),
        }
        @if p.bot { " " span.bot { "bot" } }
    }
}

/// A page of the dashboard: the header (with who is signed in), the progress line of games derived again
/// after an upgrade (`deriving`, while any numbers are of an older version), the body (HTML made by the
/// page), the scripts.
pub fn page(
    title: &str,
    body: Markup,
    scripts: &[String],
    signed: Option<&SignedIn>,
    deriving: Option<Progress>,
) -> HttpResponse {
    let html = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Almanac" }
                link rel="stylesheet" href="/static/style.css";
                link rel="icon" href="/static/favicon.svg" type="image/svg+xml";
                noscript { link rel="stylesheet" href="/static/noscript.css"; }
            }
            body {
                header.top {
                    a.brand href="/" { "Almanac" }
                    span.tagline { "replays and analyses: " (game_names()) }
                    nav aria-label="Sections" {
                        a href="/leaderboard" { "Leaderboard" } " " a href="/questions" { "Questions" }
                        @if signed.is_some() { " " a.begin href="/record" { "Record a game" } }
                    }
                    @match signed {
                        Some(s) => form.session method="post" action="/signout" {
                            (s.proof_input())
                            span { "Signed in: " b { (s.club) } }
                            " "
                            button type="submit" { "Sign out" }
                        },
                        None => a.session href="/signin" { "Sign in" },
                    }
                }
                @if let Some(p) = deriving {
                    p.deriving role="status" { (deriving_line(p)) }
                }
                main { (body) }
                // A script named `.mjs` is a module (it imports others).
                @for script in scripts { script type=[script.ends_with(".mjs").then_some("module")] src=(script) {} }
                // Signing out clears what this device kept of the club's games (`session.js`).
                @if signed.is_some() { script src="/static/session.js" {} }
            }
        }
    };
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html.into_string())
}

/// What the progress line says: how many games' numbers are still of an older version of their rules, and
/// how far deriving them again is.
fn deriving_line(p: Progress) -> String {
    if p.checking {
        return "Almanac has just started and is checking whether an upgrade left any game's numbers derived by \
                an older version of its rules."
            .to_string();
    }
    let mut line = String::new();
    if p.waiting > 0 {
        line = format!(
            "Almanac was upgraded: {} of {} games still show numbers derived by an older version of their rules, \
             marked “older rules”. They are being derived again: {}% done.",
            p.waiting,
            p.games,
            (p.games - p.waiting) * 100 / p.games.max(1),
        );
    }
    if p.failed > 0 {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&format!(
            "{} game(s) no longer validate under this version of their rules and keep the older numbers.",
            p.failed
        ));
    }
    line
}

/// A styled page that says what went wrong, with the status that says what kind of problem it is.
pub fn problem_page(status: StatusCode, message: &str) -> HttpResponse {
    let title = crate::error::in_words(status);
    let body = html! {
        section.problem {
            h1 { (title) }
            p { (message) }
            p { @if status == StatusCode::UNAUTHORIZED { a href="/signin" { "Sign in" } " · " } a href="/" { "All games" } }
        }
    };
    let mut response = page(title, body, &[], None, None);
    response.head_mut().status = status;
    response
}

#[derive(Deserialize)]
struct IndexQuery {
    ruleset: Option<String>,
    player: Option<String>,
    /// Words to find in titles, clubs, places and players' names.
    q: Option<String>,
    sort: Option<String>,
    offset: Option<u32>,
}

/// Games on one page of the list.
const PAGE: u32 = 50;

async fn index(app: web::Data<AppState>, visitor: Visitor, q: web::Query<IndexQuery>) -> Result<HttpResponse> {
    let q = q.into_inner();
    let Visitor { reader, signed } = visitor;
    let viewer = reader.viewer;
    let sort = q.sort.as_deref().and_then(Sort::from_name).unwrap_or_default();
    let offset = q.offset.unwrap_or(0);
    let filter = GameFilter {
        viewer,
        ruleset: q.ruleset.clone().filter(|s| !s.is_empty()),
        player: q.player.clone().filter(|s| !s.is_empty()),
        search: q.q.clone().filter(|s| !s.trim().is_empty()),
        sort,
        // One more than a page, to know whether there is a next one.
        limit: Some(PAGE + 1),
        offset: Some(offset),
    };
    let listing = app.clone();
    let mut games: Vec<GameRow> =
        blocking(move || Ok(listing.pool.read(|s| almanac_service::list(s, &filter))??)).await?;
    let more = games.len() > PAGE as usize;
    games.truncate(PAGE as usize);
    // Each ruleset by its name; its id is the value the filter sends.
    let rulesets: Vec<(&str, &str)> = GAMES.iter().map(|g| (g.id(), g.name())).collect();
    let option = |value: &str, label: &str, selected: &Option<String>| {
        html! { option value=(value) selected[selected.as_deref() == Some(value)] { (label) } }
    };
    // Paging links keep the other choices.
    let link = |to: u32| {
        let mut query: Vec<String> = Vec::new();
        for (k, v) in [("ruleset", &q.ruleset), ("player", &q.player), ("q", &q.q), ("sort", &q.sort)] {
            if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
                query.push(format!("{k}={}", url_encode(v)));
            }
        }
        query.push(format!("offset={to}"));
        format!("/?{}", query.join("&"))
    };
    let shown = (offset + 1, offset + games.len() as u32);
    // A signed-in club's upload form comes first, where a member looks; signed out, the way to sign in
    // waits under the list.
    let body = html! {
        @if let Some(s) = &signed {
            section.upload.first {
                h2 { "Upload a game" }
                p { "Uploads are private to " (s.club) " until published." }
                form #upload method="post" action="/upload" enctype="multipart/form-data" {
                    (s.proof_input())
                    label { "Log file " input type="file" name="log" required; }
                    label { "Format " select name="format" {
                        option value="auto" { "guess" }
                        @for f in almanac_service::formats() { (option(f.name(), f.label(), &None)) }
                    } }
                    button type="submit" { "Upload" }
                }
                p #upload-result role="status" {}
            }
        }
        section.games {
            h1 { "Games" }
            form.filters method="get" action="/" role="search" {
                label { "Find " input type="search" name="q" value=(q.q.as_deref().unwrap_or("")) placeholder="title, club, place or player"; }
                label { "Ruleset " select name="ruleset" {
                    option value="" { "all" }
                    @for (id, name) in &rulesets { (option(id, name, &q.ruleset)) }
                } }
                label { "Order " select name="sort" {
                    @for (s, name, label) in Sort::ALL.iter() { option value=(name) selected[*s == sort] { (label) } }
                } }
                @if let Some(p) = q.player.as_deref().filter(|p| !p.is_empty()) {
                    label { "Player " input type="text" name="player" value=(p); } " "
                }
                button type="submit" { "Show" }
            }
            table #games {
                thead { tr { th { "Game" } th { "Ruleset" } th { "Players (score)" } th { "Winner" } th { "Turns" } th { "Date" } th { "Club" } } }
                tbody {
                    @for g in &games {
                        // No winner yet: the game is still played, and its replay follows the table.
                        tr class=[g.winner.is_none().then_some("live")] {
                            td data-label="Game" {
                                a href={ "/games/" (g.id) } { (g.title.as_deref().unwrap_or(&g.id)) }
                                @if g.winner.is_none() {
                                    " " span.badge.live title="Still played: the replay follows the entries as they land" { "live" }
                                }
                                @if !g.published { " " span.badge { "private" } }
                                @if app.derivation.is_stale(&g.id) { " " span.badge { "older rules" } }
                            }
                            td data-label="Ruleset" {
                                (g.edition.as_deref().filter(|e| !e.is_empty()).unwrap_or_else(|| {
                                    almanac_service::game_kind(&g.ruleset).map_or(g.ruleset.as_str(), |k| k.name())
                                }))
                            }
                            td data-label="Players" {
                                @for (i, p) in g.players.iter().enumerate() {
                                    @if i > 0 { " " }
                                    span class={ "player" @if g.winner.as_deref() == Some(p.name.as_str()) { " winner" } } {
                                        (player_name(p)) " " b { (p.vp.unwrap_or(0)) }
                                    }
                                }
                            }
                            td data-label="Winner" { (g.winner.as_deref().unwrap_or("–")) }
                            td data-label="Turns" { (g.turn_count) }
                            td data-label="Date" { (g.played_on.as_deref().map(almanac_core::moment::day_in_words).unwrap_or_default()) }
                            td data-label="Club" { (g.club.as_deref().unwrap_or("")) }
                        }
                    }
                    @if games.is_empty() { tr { td.empty colspan="7" { "No games match." } } }
                }
            }
            nav.paging aria-label="Pages of games" {
                @if offset > 0 { a href=(link(offset.saturating_sub(PAGE))) rel="prev" { "← newer page" } " " }
                @if !games.is_empty() { span { "games " (shown.0) "–" (shown.1) } }
                @if more { " " a href=(link(offset + PAGE)) rel="next" { "next page →" } }
            }
        }
        @if signed.is_none() {
            section.upload {
                h2 { "Upload a game" }
                p { a href="/signin" { "Sign in" } " with your club's token to upload games." }
            }
        }
    };
    Ok(page("Games", body, &["/static/games.js".to_string()], signed.as_ref(), app.derivation.progress()))
}

#[derive(Deserialize)]
struct ReplayQuery {
    /// `before`: the upload that led here was a log already stored.
    stored: Option<String>,
}

/// Why the record counted is the one: it saw more than another (fewer cards it did not see), or, seeing as
/// much, it is the longer or the first stored.
fn why(counted_unseen: u64, other_unseen: Option<u64>) -> String {
    let cards = |n: u64| if n == 1 { "1 card".to_string() } else { format!("{n} cards") };
    match other_unseen {
        Some(other) if other > counted_unseen && counted_unseen == 0 => {
            format!("it saw every card, where another record missed {}", cards(other))
        }
        Some(other) if other > counted_unseen => {
            format!("it missed {}, another record {}", cards(counted_unseen), cards(other))
        }
        _ => "the records saw as much, and it is the longer or the first stored".to_string(),
    }
}

/// Whether this record counts in records, ratings and questions, in words, with the other records of the
/// same game its reader may see: one game is counted once (the record that saw the most), a game without a
/// winner nowhere.
fn counting_note(row: &GameRow, (counted, others): &(bool, Vec<almanac_store::Recording>)) -> Markup {
    let link = |r: &almanac_store::Recording| {
        html! {
            a href={ "/games/" (r.id) } { (r.title.as_deref().unwrap_or("a record")) }
            @if let Some(c) = &r.owner { " (" (c) ")" }
        }
    };
    let counting = if row.winner.is_none() {
        Some(html! { "No winner: this game counts in no record, rating, place or head-to-head." })
    } else if *counted {
        (!others.is_empty()).then(|| {
            html! { "This record is the one counted: " (why(row.unseen, others.iter().map(|r| r.unseen).min())) "." }
        })
    } else if let Some(r) = others.iter().find(|r| r.counted) {
        Some(html! { "Counted once, as " (link(r)) ": " (why(r.unseen, Some(row.unseen))) "." })
    } else if !row.published {
        Some(html! { "Private: counted in its club's questions only." })
    } else {
        None
    };
    html! {
        @if counting.is_some() || !others.is_empty() {
            p.counting.hint {
                @if let Some(c) = &counting { (c) }
                @if !others.is_empty() {
                    @if counting.is_some() { " " }
                    "Also recorded as "
                    @for (i, r) in others.iter().enumerate() { @if i > 0 { ", " } (link(r)) }
                    "."
                }
            }
        }
    }
}

async fn replay(
    app: web::Data<AppState>,
    visitor: Visitor,
    path: web::Path<String>,
    q: web::Query<ReplayQuery>,
) -> HttpResponse {
    let Visitor { reader, signed } = visitor;
    let viewer = reader.viewer;
    let derivation = app.derivation.clone();
    let found = blocking(move || {
        let (seen, game) = loaded(&app, viewer, &path)?;
        let id = seen.id().to_string();
        let row = app.pool.read(|s| s.game(&seen))??;
        let recorded = app.pool.read(|s| s.recordings(&seen))??;
        let coach = app.pool.read(|s| almanac_service::coach(s, &seen))??;
        // Whether the ruleset has a model to read win chances with.
        let model = crate::api::model_of(&app, &row.ruleset)?;
        // Each player's turns to study, from the game's chances (where the ruleset has a model).
        let kept = model.as_ref().ok().map(|m| crate::api::kept_chances(&app, &seen, game.read().game(), m));
        // Chances withheld from the whole game (a population or table size the model was not shown to know)
        // are said once, as no chances at all: no chart of nothing, no column of dashes, no "no chance yet"
        // at every event.
        let positions = game.read().game().event_count() + 1;
        let withheld_whole =
            kept.as_ref().and_then(|c| c.withheld.as_ref()).filter(|w| w.until >= positions).map(|w| w.why.clone());
        let kept = kept.filter(|_| withheld_whole.is_none());
        let study = kept.as_ref().map(|c| c.to_study.clone());
        // Each player's accuracy and marks, and where each mark is, for the summary beside the board.
        let judged = kept.as_ref().filter(|c| c.accuracy.iter().any(|a| a.decisions > 0)).map(|c| {
            let marked: Vec<(String, &'static str, u64)> = c
                .decisions
                .iter()
                .filter(|d| MARKS.iter().any(|(m, _)| *m == d.mark))
                .map(|d| (d.player.clone(), d.mark, d.seq))
                .collect();
            (c.accuracy.clone(), marked)
        });
        // What the model learnt from, in words, and where and why its chances are not shown, said under its
        // chart; or why there is none.
        let withheld = kept.and_then(|c| c.withheld.as_ref().map(|w| w.why.clone()));
        let chances = match (model, withheld_whole) {
            (Err(why), _) => Err(format!("No win chances: {why}.")),
            (Ok(_), Some(why)) => Err(why),
            (Ok(m), None) => Ok((m.0.trained_on.in_words(), withheld)),
        };
        Ok((id, game, row, (coach, study, judged), chances, recorded))
    })
    .await;
    let (id, live, row, coach, chances, recorded) = match found {
        Ok(g) => g,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let live = live.read();
    let game = live.game();
    // The owning club's controls: publish or make private, delete.
    let owner = match (&signed, &row.owner) {
        (Some(s), Some(owner)) if *owner == s.club => Some(s),
        _ => None,
    };
    let owner_controls = html! {
        @if let Some(s) = owner {
            div.owner {
                form method="post" action={ "/games/" (id) "/publish" } {
                    (s.proof_input())
                    input type="hidden" name="published" value=(if row.published { "no" } else { "yes" });
                    button type="submit" { (if row.published { "Make private" } else { "Publish" }) }
                }
                form method="get" action={ "/games/" (id) "/delete" } { button.danger type="submit" { "Delete this upload…" } }
                // A game still being played, of a game whose rules say what may happen next: record it at the table.
                @if game.winner().is_none() && almanac_service::game_kind(game.ruleset()).is_some_and(|k| k.recorder()) {
                    a.record href={ "/games/" (id) "/record" } { "Record at the table" } " "
                }
                span { (if row.published { "Published: anyone can see this game." } else { "Private to your club." }) }
            }
        }
    };
    let env = game.envelope();
    let title = env.title.clone().unwrap_or_else(|| format!("Game {id}"));
    let meta: Vec<&String> = [&env.date, &env.club, &env.location].into_iter().flatten().collect();
    // Without scripts each chart is an image (inside `noscript`, so that a browser running scripts does not
    // load it too); the replay script fetches the SVG once and inlines it, so that its turns can be clicked.
    // The win-chance chart first, where the ruleset has a model: it says where the game turned.
    let chart = |chart: &str, title: &str| {
        html! {
            figure.chart data-chart=(chart) tabindex="0" aria-label=(title) {
                noscript { img src={ "/api/games/" (id) "/charts/" (chart) ".svg" } alt=(title) loading="lazy" width="760" height="380"; }
            }
        }
    };
    let (coach, study, judged) = coach;
    let colours: Vec<&str> = row
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| almanac_core::colours::player_colour(p.color.as_deref(), i))
        .collect();
    let deriving = derivation.progress();
    let older = row.ruleset_version != game.ruleset_version() || derivation.is_stale(&id);
    let turns = game.current_turn();
    let body = html! {
        section #replay .replay tabindex="0" data-game=(id) data-ruleset=(game.ruleset())
            data-chances=(if chances.is_ok() { "yes" } else { "no" })
            // A game without a winner may still be played: its replay follows the table.
            data-live=(if game.winner().is_none() { "yes" } else { "no" })
            aria-label="Replay: use the arrow keys to step" {
            @if q.stored.as_deref() == Some("before") {
                p.notice role="status" { "This log was already stored: here is the game it is." }
            }
            div.title {
                h1 { (title) }
                div.meta {
                    @for m in &meta { span { (m) } " · " }
                    a href={ "/api/games/" (id) "/log" } download { "download the log" }
                }
                (counting_note(&row, &recorded))
                @if older {
                    p.counting.hint {
                        "Older rules: this game's coach table and numbers were derived by an older version of its rules and \
                         are being derived again; the replay itself is this version's."
                    }
                }
                (owner_controls)
            }
            noscript {
                p {
                    "The replay steps through the game with JavaScript. Without it, here is how the game ended after "
                    (game.event_count()) " events and " (turns) " turns, and its charts below."
                }
                table.standings {
                    thead { tr { th { "Player" } th { "Score" } } }
                    tbody {
                        // The end of the game, for a reader without scripts: who scored what.
                        @for p in &row.players {
                            tr {
                                td { (player_name(p)) @if row.winner.as_deref() == Some(p.name.as_str()) { " (winner)" } }
                                td { (p.vp.unwrap_or(0)) }
                            }
                        }
                    }
                }
            }
            div.stage {
                div.board-wrap {
                    svg #board viewBox="-6 -6 12 12" role="img" aria-label="The board at the event shown" {}
                    div.board-tools { details.notation.hint { summary { "How places are named" } p #notation {} } }
                }
                div.side {
                    div #now .now aria-hidden="true" {}
                    div.controls {
                        button #first aria-label="First event" title="Home: the start" { "|◀" }
                        button #prev aria-label="Previous event" title="←: one event back" { "◀" }
                        button #next aria-label="Next event" title="→: one event on" { "▶" }
                        button #last aria-label="Last event" title="End: the end" { "▶|" }
                        span #position aria-live="polite" {}
                    }
                    // Under the step buttons, so that its words coming and going never move them.
                    p #better .better hidden aria-live="polite" {}
                    @if let Some((seats, marked)) = &judged { (accuracy_summary(seats, marked)) }
                    label.slider { "Turn " input #turn-slider type="range" min="0" max=(turns) value="0"; " " output #turn-label { "0" } }
                    div #players .players {}
                    ol #events .events tabindex="0" aria-label="Events: click one, or use the arrow keys, to go there" {}
                    // The owning club's note on the event shown, under the events it annotates (the script shows and sends it).
                    @if owner.is_some() {
                        form #note-form .note-form hidden {
                            label { "A note on the event shown " textarea name="text" rows="2" maxlength="2000" required {} }
                            button type="submit" { "Add the note" } " " span #note-status role="status" {}
                        }
                    }
                    p.hint { "← / → step one event, Shift+← / → one turn, Home / End; click an event or a turn on a chart to jump there." }
                    div.charts {
                        @match &chances {
                            Ok((learnt_from, withheld)) => figure.chart data-chart="chances" tabindex="0" aria-label="Chance to win, by turn" {
                                noscript { img src={ "/api/games/" (id) "/charts/chances.svg" } alt="Chance to win, by turn" loading="lazy" width="760" height="380"; }
                                figcaption.hint {
                                    "Win chances by a model " (learnt_from) "."
                                    @if let Some(why) = withheld { " " span.withheld { (why) } }
                                }
                            },
                            // Why there are no chances, for whoever looks for them.
                            Err(why) => p.hint.no-chances { (why) },
                        }
                        @for c in game.vocabulary().charts.iter() { (chart(c.id(), &c.title(game.vocabulary()))) }
                    }
                }
            }
            (coach_table(&coach, study.as_deref(), &colours))
        }
    };
    let scripts = ["/static/replay.js".to_string(), format!("/static/rulesets/{}.js", game.ruleset())];
    page(&title, body, &scripts, signed.as_ref(), deriving)
}
