//! Questions across games, as a coach asks them: a metric (from the games' declared words) by a dimension,
//! narrowed by filters; answered from the stored read model (the numbers per seat), never by replaying games.

use crate::ServiceError;
pub use almanac_analysis::questions::{arg_choices, ArgKind, Metric, Preset, METRICS, PRESETS};
use almanac_analysis::questions::{metric_label, metric_named, preset_named};
use almanac_core::Vocabulary;
use almanac_engine::{game_kind, GAMES};
use almanac_store::{CountedGame, Dimension, PlayerId, Question, Store, Viewer};
use serde::Serialize;

/// A question as asked (by a URL's parameters or the API's).
#[derive(Debug, Clone, Default)]
pub struct Ask {
    pub metric: String,
    pub arg: String,
    pub by: String,
    /// A second dimension (`players`: seat, then table size); empty for none.
    pub then: String,
    pub ruleset: Option<String>,
    pub club: Option<String>,
    pub player: Option<PlayerId>,
    /// The player by name instead (any case, any of their spellings), when `player` is not given.
    pub player_name: Option<String>,
    pub players: Option<u32>,
    /// Only the games behind one group of the answer (its key).
    pub group: Option<String>,
    /// Groups with fewer seats counted are left out (a player's one game says little).
    pub min_seats: u64,
    /// Groups behind fewer games are greyed and ranked after the others (`None`: [`SOLID_GAMES`]).
    pub solid_games: Option<u64>,
    /// Programs' seats (bots) among the players a "who" question ranks (people only by default).
    pub bots: bool,
}

impl Ask {
    /// A preset question, by its id.
    pub fn preset(id: &str) -> Option<Ask> {
        preset_named(id).map(|p| Ask {
            metric: p.metric.to_string(),
            arg: p.arg.to_string(),
            by: p.by.to_string(),
            ..Ask::default()
        })
    }
}

/// The answer: the question in words, each group's value, and the games counted.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The question in words ("Win rate by seat — 4 players").
    pub question: String,
    /// The game asked about (`None`: every game, as `ruleset=all` asks).
    pub ruleset: Option<String>,
    /// Groups behind fewer games than this are not `solid`.
    pub solid_games: u64,
    pub metric: &'static str,
    pub arg: String,
    pub by: &'static str,
    /// Values are rates from 0 to 1, or changes of one (shown as percentages).
    pub percent: bool,
    /// What a group's value is: a rate or a mean.
    pub value_is: ValueIs,
    /// Why no group answers, in words, when none does (what the metric needs, and what was left out).
    pub why_empty: Option<String>,
    /// Best first (the highest, or the lowest for a place or turns to a score), then most seats.
    pub groups: Vec<Group>,
    /// Games counted in all.
    pub counted: u64,
    /// The latest of them (at most `GAMES_LISTED`).
    pub games: Vec<CountedGame>,
}

/// What a group's value is, for its column's heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueIs {
    /// A share of 0s and 1s (a win rate), or a chance.
    Rate,
    /// A mean of values.
    Mean,
}

#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// What `group=` takes to list the games behind this line.
    pub key: String,
    pub label: String,
    pub seats: u64,
    pub games: u64,
    pub value: f64,
    /// A 95 % interval for the value: Wilson's for a rate, the standard error either side for a mean (none
    /// for a mean of one seat).
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Behind enough games to rank (`Answer::solid_games`); a thin group is greyed and ranked after.
    pub solid: bool,
    /// For the win rate: what a fair game gives these seats (1 / players at each one's table, averaged).
    pub expected: Option<f64>,
    /// The player's page, when the group is a player.
    pub player: Option<PlayerId>,
}

/// What a question may be asked by second (a group of a few values each): seat, then table size.
pub const SECOND: [Dimension; 6] =
    [Dimension::Seat, Dimension::Players, Dimension::Ruleset, Dimension::Month, Dimension::Club, Dimension::Opening];

/// Groups behind fewer games than this are greyed and ranked after the others, unless asked otherwise.
pub const SOLID_GAMES: u64 = 5;

/// What `ruleset=` takes for a question over every game at once (by default a question is of one game).
pub const EVERY_GAME: &str = "all";

/// How many counted games an answer lists.
pub const GAMES_LISTED: u32 = 100;

fn bad(message: String) -> ServiceError {
    ServiceError::Question(message)
}

/// The vocabularies an argument is looked up in: the asked ruleset's, or every game's.
fn vocabularies(ruleset: Option<&str>) -> Vec<&'static Vocabulary> {
    GAMES.iter().filter(|g| ruleset.is_none_or(|r| r == g.id())).map(|g| g.vocabulary()).collect()
}

/// Checks a question's words: a known metric with an argument it takes, a known dimension and ruleset.
fn checked(ask: &Ask) -> Result<(&'static Metric, Dimension), ServiceError> {
    let metric = metric_named(&ask.metric).ok_or_else(|| {
        let known: Vec<&str> = almanac_analysis::questions::METRICS.iter().map(|m| m.id).collect();
        bad(format!("no metric `{}` (known: {})", ask.metric, known.join(", ")))
    })?;
    let by = Dimension::from_id(&ask.by).ok_or_else(|| {
        let known: Vec<&str> = Dimension::ALL.iter().map(|d| d.id()).collect();
        bad(format!("no dimension `{}` (known: {})", ask.by, known.join(", ")))
    })?;
    if !ask.then.is_empty() {
        let then = Dimension::from_id(&ask.then);
        if !then.is_some_and(|d| SECOND.contains(&d)) || by == Dimension::Opponent || then == Some(by) {
            let known: Vec<&str> = SECOND.iter().map(|d| d.id()).collect();
            return Err(bad(format!(
                "`then={}` is no second dimension here: one of {} after any dimension but `opponent` and itself",
                ask.then,
                known.join(", ")
            )));
        }
    }
    if let Some(r) = ask.ruleset.as_deref() {
        if game_kind(r).is_none() {
            return Err(bad(format!("no ruleset `{r}`")));
        }
    }
    let fits = match metric.arg {
        ArgKind::None => ask.arg.is_empty(),
        ArgKind::Turn | ArgKind::Score => ask.arg.parse::<u32>().is_ok_and(|n| n > 0),
        kind => vocabularies(ask.ruleset.as_deref())
            .iter()
            .any(|v| arg_choices(kind, v).iter().any(|(id, _)| *id == ask.arg)),
    };
    if !fits {
        let what = match metric.arg {
            ArgKind::None => "takes no argument".to_string(),
            ArgKind::Turn | ArgKind::Score => "takes a whole number from 1".to_string(),
            _ => format!("takes one of the {:?} words the game declares", metric.arg).to_lowercase(),
        };
        return Err(bad(format!("metric `{}` {what}; `{}` is not one", metric.id, ask.arg)));
    }
    Ok((metric, by))
}

/// The question in words: the metric with its argument, the dimension, and the filters.
fn in_words(ask: &Ask, metric: &Metric, by: Dimension, player: Option<&str>) -> String {
    let vocabulary = vocabularies(ask.ruleset.as_deref())
        .into_iter()
        .find(|v| metric.arg == ArgKind::None || arg_choices(metric.arg, v).iter().any(|(id, _)| *id == ask.arg));
    let mut words = format!("{} by {}", metric_label(metric, &ask.arg, vocabulary), by.label());
    if let Some(then) = Dimension::from_id(&ask.then) {
        words = format!("{words} and {}", then.label());
    }
    let mut filters = Vec::new();
    if let Some(r) = ask.ruleset.as_deref() {
        filters.push(game_kind(r).map_or(r.to_string(), |g| g.name().to_string()));
    }
    if let Some(n) = ask.players {
        filters.push(format!("{n} players"));
    }
    if let Some(c) = ask.club.as_deref() {
        filters.push(format!("club {c}"));
    }
    if let Some(p) = player {
        filters.push(format!("{p}'s games"));
    }
    if ask.bots && matches!(by, Dimension::Player | Dimension::Opponent) {
        filters.push("programs' seats too".to_string());
    }
    if !filters.is_empty() {
        words = format!("{words} — {}", filters.join(", "));
    }
    capitalised(&words)
}

/// `text` with its first letter a capital (a question, a table's heading).
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// Answers a question over the games `viewer` may see.
pub fn ask(store: &Store, viewer: Viewer, ask: &Ask) -> Result<Answer, ServiceError> {
    for words in [Some(&ask.arg), ask.club.as_ref(), ask.ruleset.as_ref()].into_iter().flatten() {
        crate::refuse_nul("a question", words)?;
    }
    // One game by default (the most played), every game when asked: a mix answers no one's question.
    let mut ask = ask.clone();
    ask.ruleset = match ask.ruleset.as_deref() {
        None => Some(crate::players::most_played(store)?),
        Some(EVERY_GAME) => None,
        Some(r) => Some(r.to_string()),
    };
    let ask = &ask;
    let (metric, by) = checked(ask)?;
    if let Some(c) = ask.club.as_deref() {
        if let Err(almanac_store::StoreError::NotFound(_)) = store.club_by_name(c) {
            return Err(bad(format!("no club `{c}`")));
        }
    }
    let player = match (ask.player, ask.player_name.as_deref().map(str::trim).filter(|n| !n.is_empty())) {
        (Some(id), _) => match store.visible_player(viewer, id) {
            Ok(p) => Some(store.identity(&p)?),
            Err(almanac_store::StoreError::NoPlayer(_)) => return Err(bad(format!("no player {id}"))),
            Err(e) => return Err(e.into()),
        },
        (None, Some(name)) => {
            crate::refuse_nul("a player's name", name)?;
            let found = store.players_named(viewer, name)?;
            match found.as_slice() {
                [] => return Err(bad(format!("no player named `{name}` in the games you may see"))),
                [one] => Some(store.identity(one)?),
                many => {
                    let mut who = Vec::new();
                    for p in many {
                        let i = store.identity(p)?;
                        who.push(format!("{} of {} (player {})", i.name, i.club.as_deref().unwrap_or("no club"), i.id));
                    }
                    return Err(bad(format!(
                        "{} players are named `{name}`: {}; ask by one of them",
                        many.len(),
                        who.join(", ")
                    )));
                }
            }
        }
        (None, None) => None,
    };
    let question = Question {
        viewer,
        metric: metric.id,
        arg: ask.arg.clone(),
        by,
        ruleset: ask.ruleset.clone(),
        club: ask.club.clone(),
        player: player.as_ref().map(|p| p.id),
        players: ask.players,
        group: ask.group.clone(),
        bots: ask.bots,
        min_seats: ask.min_seats.max(1),
        then: Dimension::from_id(&ask.then),
    };
    let asked = store.ask(&question, GAMES_LISTED)?;
    let solid_games = ask.solid_games.unwrap_or(SOLID_GAMES);
    let mut groups: Vec<Group> = asked
        .rows
        .into_iter()
        .map(|row| {
            let label = match by {
                Dimension::Ruleset => game_kind(&row.label).map_or(row.label.clone(), |g| g.name().to_string()),
                _ => row.label.clone(),
            };
            let interval = metric.interval(row.mean, row.variance, row.seats, row.players);
            Group {
                player: row.player,
                key: row.key,
                label,
                seats: row.seats,
                games: row.games,
                value: row.mean,
                low: interval.map(|i| i.0),
                high: interval.map(|i| i.1),
                solid: row.games >= solid_games,
                expected: (metric.id == almanac_analysis::questions::WON).then_some(row.fair_share),
            }
        })
        .collect();
    // Solid groups first, best first; then the thin ones, which a handful of games could put anywhere.
    groups.sort_by(|a, b| {
        let order = if metric.lower_is_better { a.value.total_cmp(&b.value) } else { b.value.total_cmp(&a.value) };
        b.solid.cmp(&a.solid).then(order).then(b.seats.cmp(&a.seats)).then(a.label.cmp(&b.label))
    });
    let (counted, games) = (asked.counted, asked.games);
    let why_empty = groups.is_empty().then(|| why_empty(ask, metric, by));
    Ok(Answer {
        value_is: if metric.bounds == almanac_analysis::intervals::Bounds::Rate {
            ValueIs::Rate
        } else {
            ValueIs::Mean
        },
        why_empty,
        ruleset: ask.ruleset.clone(),
        solid_games,
        question: in_words(ask, metric, by, player.as_ref().map(|p| p.name.as_str())),
        metric: metric.id,
        arg: ask.arg.clone(),
        by: by.id(),
        percent: metric.percent,
        groups,
        counted,
        games,
    })
}

/// Why no group answers `ask`: what its metric needs of a game, and what the filters left out.
fn why_empty(ask: &Ask, metric: &Metric, by: Dimension) -> String {
    use almanac_analysis::questions as q;
    let game = ask.ruleset.as_deref().and_then(game_kind).map_or("these games".to_string(), |g| g.name().to_string());
    let needs = match metric.id {
        m if m == q::DECISION_ACCURACY || m == q::CHANCE_GAINED || m == q::CHANCE_AT_TURN => format!(
            "It is counted only in finished games whose win chances are shown: a model of {game} trained on              published games (`almanac train`) that did better than equal chances on games it did not learn              from, of the same population and table size. None of the games you may see has them yet."
        ),
        m if m == q::LUCK => "It is counted only in games whose dice promise production (where each roll's                               promise is known)."
            .to_string(),
        m if m == q::SECONDS_PER_TURN => "It is counted only in games recorded at the table, whose entries say                                           when they were made."
            .to_string(),
        m if m == q::WON || m == q::PLACE => "It is counted only in finished games (with a winner).".to_string(),
        _ => format!("None of the games of {game} you may see gives this number."),
    };
    let mut left_out = Vec::new();
    if !ask.bots && matches!(by, Dimension::Player | Dimension::Opponent) {
        left_out.push("programs' seats (tick \"Programs' seats too\")");
    }
    if ask.players.is_some() {
        left_out.push("tables of other sizes");
    }
    if ask.club.is_some() {
        left_out.push("other clubs' games");
    }
    if ask.min_seats > 1 {
        left_out.push("groups of fewer seats than asked");
    }
    if left_out.is_empty() {
        needs
    } else {
        format!("{needs} Left out as asked: {}.", left_out.join("; "))
    }
}

/// Answers kept while the read model stands (`Store::read_model_version`): the same question asked again by
/// someone who sees the same games is answered from memory. At most `KEPT` answers; when full, it starts
/// over (the simplest bound; presets are asked most and come back first).
#[derive(Default)]
pub struct AnswerMemo {
    kept: std::sync::Mutex<std::collections::HashMap<String, (i64, std::sync::Arc<Answer>)>>,
}

const KEPT: usize = 1024;

/// `ask`, kept in `memo` until the read model changes.
pub fn ask_kept(
    store: &Store,
    viewer: Viewer,
    question: &Ask,
    memo: &AnswerMemo,
) -> Result<std::sync::Arc<Answer>, ServiceError> {
    // The version first: an answer computed after it is at least as new as it.
    let version = store.read_model_version()?;
    let key = format!("{viewer:?}|{question:?}");
    if let Some((v, answer)) = memo.kept.lock().expect("no panic while held").get(&key) {
        if *v == version {
            return Ok(answer.clone());
        }
    }
    let answer = std::sync::Arc::new(ask(store, viewer, question)?);
    let mut kept = memo.kept.lock().expect("no panic while held");
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(key, (version, answer.clone()));
    Ok(answer)
}

/// The answer as a bar chart (SVG).
pub fn chart(answer: &Answer) -> Result<String, ServiceError> {
    let bars: Vec<almanac_charts::AnswerBar> = answer
        .groups
        .iter()
        .map(|g| almanac_charts::AnswerBar {
            label: g.label.clone(),
            value: g.value,
            interval: g.low.zip(g.high),
            thin: !g.solid,
            fair: g.expected,
        })
        .collect();
    Ok(almanac_charts::answer(&answer.question, &bars, answer.percent)?)
}

/// The answer's groups as CSV: a header line, then one line per group, best first.
pub fn csv(answer: &Answer) -> String {
    fn field(text: &str) -> String {
        // A cell beginning with one of these is a formula to a spreadsheet (a player named
        // `=HYPERLINK(...)`): a leading apostrophe keeps it text, as OWASP advises.
        if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
            return format!("\"'{}\"", text.replace('"', "\"\""));
        }
        if text.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_string()
        }
    }
    let mut out = format!("{},label,seats,games,{},low,high,solid\n", answer.by, field(answer.metric));
    let number = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for g in &answer.groups {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            field(&g.key),
            field(&g.label),
            g.seats,
            g.games,
            g.value,
            number(g.low),
            number(g.high),
            g.solid
        ));
    }
    out
}

/// The answer's groups as NDJSON: one JSON object per line, best first.
pub fn ndjson(answer: &Answer) -> String {
    answer
        .groups
        .iter()
        .map(|g| {
            let line = serde_json::json!({
                "question": answer.question, "by": answer.by, "key": g.key, "label": g.label,
                "seats": g.seats, "games": g.games, "metric": answer.metric, "arg": answer.arg, "value": g.value,
                "low": g.low, "high": g.high, "solid": g.solid, "expected": g.expected,
            });
            format!("{line}\n")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(groups: Vec<Group>) -> Answer {
        Answer {
            question: "Q".into(),
            ruleset: None,
            solid_games: SOLID_GAMES,
            metric: "won",
            arg: String::new(),
            by: "player",
            percent: true,
            value_is: ValueIs::Rate,
            why_empty: None,
            groups,
            counted: 0,
            games: Vec::new(),
        }
    }

    #[test]
    fn csv_quotes_what_needs_quoting_and_ndjson_is_a_line_per_group() {
        let g = |label: &str, value| Group {
            key: "7".into(),
            label: label.into(),
            seats: 3,
            games: 3,
            value,
            low: Some(0.1),
            high: None,
            solid: false,
            expected: None,
            player: Some(7),
        };
        let a = answer(vec![g("Ayşe, \"the\" first", 0.5), g("Bora", 0.25)]);
        assert_eq!(
            csv(&a),
            "player,label,seats,games,won,low,high,solid\n7,\"Ayşe, \"\"the\"\" first\",3,3,0.5,0.1,,false\n7,Bora,3,3,0.25,0.1,,false\n"
        );
        for formula in ["=HYPERLINK(\"x\")", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"] {
            let line = csv(&answer(vec![g(formula, 1.0)])).lines().nth(1).unwrap().to_string();
            let cell = line.split_once(',').unwrap().1.rsplitn(7, ',').last().unwrap().to_string();
            assert!(cell.starts_with("\"'"), "{formula:?} is written {cell:?}");
        }
        let lines: Vec<serde_json::Value> = ndjson(&a).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["label"], "Bora");
        assert_eq!(lines[0]["value"], 0.5);
    }

    #[test]
    fn a_question_in_unknown_words_is_refused_with_the_known_ones() {
        let ask = |metric: &str, arg: &str, by: &str| Ask {
            metric: metric.into(),
            arg: arg.into(),
            by: by.into(),
            ..Ask::default()
        };
        let err = |a: Ask| checked(&a).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            err(ask("wins", "", "seat")).contains("no metric `wins` (known: won"),
            "{}",
            err(ask("wins", "", "seat"))
        );
        assert!(err(ask("won", "", "colour")).contains("no dimension `colour`"));
        assert!(err(ask("won", "x", "seat")).contains("takes no argument"));
        assert!(err(ask("score_at_turn", "soon", "seat")).contains("whole number"));
        assert!(err(ask("points", "nothing-declared", "seat")).contains("`nothing-declared` is not one"));
        assert!(checked(&ask("score_at_turn", "20", "player")).is_ok());
        assert!(checked(&Ask { ruleset: Some("chess".into()), ..ask("won", "", "seat") }).is_err());
    }
}
