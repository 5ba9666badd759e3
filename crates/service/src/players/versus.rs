//! Two players side by side: the games they shared, and their numbers with intervals.

use super::seats::{game_name, place, seat_of, visible};
use crate::ServiceError;
use almanac_analysis::intervals::compare;
use almanac_analysis::intervals::Comparison;
use almanac_store::{Identity, PlayerId, Store, Viewer, VisiblePlayer};
use serde::Serialize;

/// Two players side by side: the games they shared and who finished ahead.
#[derive(Debug, Clone, Serialize)]
pub struct HeadToHead {
    pub a: Identity,
    pub b: Identity,
    pub games: Vec<Shared>,
    pub a_ahead: u32,
    pub b_ahead: u32,
    pub level: u32,
    /// For each game both play, their numbers side by side (each over their own published games of it).
    pub side_by_side: Vec<SideBySide>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SideBySide {
    pub ruleset: String,
    pub name: String,
    pub numbers: Vec<Pair>,
    /// The numbers not set side by side because one of the two (or both) has none, each with why
    /// ("decision accuracy: none of B's games has judged decisions").
    pub not_compared: Vec<String>,
}

/// One number of two players side by side, each with its count and interval.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub what: String,
    pub a: f64,
    pub b: f64,
    /// The seats each mean is over.
    pub a_seats: u64,
    pub b_seats: u64,
    /// Each mean's 95 % interval (Wilson's for a rate; none for one seat).
    pub a_interval: Option<(f64, f64)>,
    pub b_interval: Option<(f64, f64)>,
    /// A smaller number is the better one (a finishing place, cards lost).
    pub lower_is_better: bool,
    /// How a's number compares with b's by their intervals (`almanac_analysis::intervals::compare`): higher,
    /// lower, about the same (the intervals overlap), or unknown (one game); none where the number says
    /// nothing of play (luck, how often one trades).
    pub comparison: Option<Comparison>,
    /// `Some(true)`: a's number is the better, `Some(false)`: b's; none where the data do not tell them
    /// apart or it says nothing of play.
    pub a_better: Option<bool>,
}

/// The numbers a head-to-head sets side by side: metric, argument, in words, and whether more is better
/// (`None`: it says nothing of how well one plays).
const SIDE_BY_SIDE: &[(&str, &str, &str, Option<bool>)] = &[
    (almanac_analysis::questions::WON, "", "win rate", Some(true)),
    (almanac_analysis::questions::PLACE, "", "finishing place", Some(false)),
    (almanac_analysis::questions::SCORE, "", "final score", Some(true)),
    (almanac_analysis::questions::PRODUCTION_PER_TURN, "", "production per turn", Some(true)),
    (almanac_analysis::questions::LUCK, "", "luck (cards above the dice's promise)", None),
    (almanac_analysis::questions::TRADES_PER_TURN, "", "trades per turn", None),
    (almanac_analysis::questions::LOST, almanac_core::cause::STEAL, "cards lost to steals", Some(false)),
    (almanac_analysis::questions::DECISION_ACCURACY, "", "decision accuracy (0–100)", Some(true)),
];

/// What a number of `SIDE_BY_SIDE` needs of a player's games, for the words of one not compared.
fn needs(metric: &str) -> &'static str {
    use almanac_analysis::questions as q;
    match metric {
        m if m == q::DECISION_ACCURACY => {
            "counted in finished games whose win chances are shown, where a model trained on games of the same population and table size beat equal chances"
        }
        m if m == q::LUCK => "counted in games whose dice promise production",
        m if m == q::WON || m == q::PLACE => "counted in finished games",
        _ => "none of their published games of it gives this number",
    }
}

fn side_by_side(
    store: &Store,
    (a, a_name): (&VisiblePlayer, &str),
    (b, b_name): (&VisiblePlayer, &str),
) -> Result<Vec<SideBySide>, ServiceError> {
    let mut metrics: Vec<&str> = SIDE_BY_SIDE.iter().map(|(m, _, _, _)| *m).collect();
    metrics.sort();
    metrics.dedup();
    let (mine, theirs) = (store.player_numbers_of(a, &metrics)?, store.player_numbers_of(b, &metrics)?);
    let mut rulesets: Vec<&str> = mine.iter().map(|n| n.ruleset.as_str()).collect();
    rulesets.sort();
    rulesets.dedup();
    let find = |all: &'_ [almanac_store::PlayerNumber], r: &str, metric: &str, arg: &str| {
        all.iter().find(|n| n.ruleset == r && n.metric == metric && n.arg == arg).cloned()
    };
    let interval = |n: &almanac_store::PlayerNumber| {
        almanac_analysis::questions::metric_named(&n.metric)
            .and_then(|m| m.interval(n.mean, n.variance, n.seats, n.players))
    };
    Ok(rulesets
        .into_iter()
        .filter_map(|r| {
            let mut not_compared = Vec::new();
            let numbers: Vec<Pair> = SIDE_BY_SIDE
                .iter()
                .filter_map(|(m, arg, words, more_is_better)| {
                    let (x, y) = match (find(&mine, r, m, arg), find(&theirs, r, m, arg)) {
                        (Some(x), Some(y)) => (x, y),
                        (x, y) => {
                            let lacking: Vec<&str> = [(x.is_none(), a_name), (y.is_none(), b_name)]
                                .into_iter()
                                .filter_map(|(lacks, name)| lacks.then_some(name))
                                .collect();
                            not_compared.push(format!("{words}: none for {} ({})", lacking.join(" or "), needs(m)));
                            return None;
                        }
                    };
                    let (a_interval, b_interval) = (interval(&x), interval(&y));
                    let comparison = more_is_better.map(|_| compare(a_interval, b_interval));
                    let a_better = match (comparison, more_is_better) {
                        (Some(Comparison::Higher), Some(more)) => Some(*more),
                        (Some(Comparison::Lower), Some(more)) => Some(!*more),
                        _ => None,
                    };
                    Some(Pair {
                        what: words.to_string(),
                        a: x.mean,
                        b: y.mean,
                        a_seats: x.seats,
                        b_seats: y.seats,
                        a_interval,
                        b_interval,
                        lower_is_better: *more_is_better == Some(false),
                        comparison,
                        a_better,
                    })
                })
                .collect();
            (!numbers.is_empty()).then(|| SideBySide {
                ruleset: r.to_string(),
                name: game_name(r),
                numbers,
                not_compared,
            })
        })
        .collect())
}

/// Two players' numbers in one game side by side, as SVG.
pub fn side_by_side_chart(
    store: &Store,
    viewer: Viewer,
    a: PlayerId,
    b: PlayerId,
    ruleset: &str,
) -> Result<String, ServiceError> {
    let h = head_to_head(store, viewer, a, b)?;
    let pair = h.side_by_side.iter().find(|s| s.ruleset == ruleset).ok_or_else(|| {
        ServiceError::Store(almanac_store::StoreError::NotFound(format!(
            "{} and {} have not both played {ruleset}",
            h.a.name, h.b.name
        )))
    })?;
    let caption = format!("{} and {} at {}", h.a.name, h.b.name, pair.name);
    let rows: Vec<almanac_charts::SideRow> = pair
        .numbers
        .iter()
        .map(|n| almanac_charts::SideRow {
            what: if n.lower_is_better { format!("{} (lower is better)", n.what) } else { n.what.clone() },
            a: n.a,
            b: n.b,
            a_better: n.a_better,
        })
        .collect();
    Ok(almanac_charts::side_by_side(&caption, &h.a.name, &h.b.name, &rows)?)
}

#[derive(Debug, Clone, Serialize)]
pub struct Shared {
    pub game: String,
    pub ruleset: String,
    pub title: Option<String>,
    pub played_on: Option<String>,
    pub a_score: Option<i64>,
    pub b_score: Option<i64>,
    pub a_place: u32,
    pub b_place: u32,
}

pub fn head_to_head(store: &Store, viewer: Viewer, a: PlayerId, b: PlayerId) -> Result<HeadToHead, ServiceError> {
    let ((first, a), (second, b)) = (visible(store, viewer, a)?, visible(store, viewer, b)?);
    let side_by_side = side_by_side(store, (&first, &a.name), (&second, &b.name))?;
    let mut h = HeadToHead { games: Vec::new(), a_ahead: 0, b_ahead: 0, level: 0, a, b, side_by_side };
    for s in store.sittings(&first)? {
        let (Some(i), Some(k)) = (seat_of(&s, h.a.id), seat_of(&s, h.b.id)) else { continue };
        let (pa, pb) = (place(&s, i), place(&s, k));
        match pa.cmp(&pb) {
            std::cmp::Ordering::Less => h.a_ahead += 1,
            std::cmp::Ordering::Greater => h.b_ahead += 1,
            std::cmp::Ordering::Equal => h.level += 1,
        }
        h.games.push(Shared {
            game: s.game.clone(),
            ruleset: s.ruleset.clone(),
            title: s.title.clone(),
            played_on: s.played_on.clone(),
            a_score: s.seats[i].vp,
            b_score: s.seats[k].vp,
            a_place: pa,
            b_place: pb,
        });
    }
    h.games.reverse();
    Ok(h)
}
