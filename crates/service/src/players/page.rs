//! A player's page: their record per game and ruleset, the opponents met, their numbers against the field
//! (from the read model kept for questions), and its charts.

use super::ratings::{RatingLine, RatingsMemo, PROVISIONAL_GAMES};
use super::seats::{game_name, place, seat_of, visible};
use crate::ServiceError;
use almanac_analysis::intervals::Comparison;
use almanac_store::{Identity, PlayerId, Store, Viewer, VisiblePlayer};
use serde::Serialize;
use std::collections::BTreeMap;

/// A player's page.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerPage {
    pub player: Identity,
    /// The record in each game played, most games first.
    pub rulesets: Vec<RulesetRecord>,
    /// Every published game, latest first.
    pub games: Vec<Played>,
    /// Everyone met, most games together first.
    pub opponents: Vec<Opponent>,
    /// The rating in each game played (Weng-Lin over every published game of that ruleset).
    pub ratings: Vec<RatingLine>,
    /// How the player plays each game, beside the field (everyone's published games of it).
    pub profiles: Vec<Profile>,
    /// What a coach reads first: the record, the rating and where it is going, strengths and weaknesses.
    pub summary: Summary,
}

/// The top of a player's page.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game played most, which the rest of the summary is of (none before a game counts).
    pub ruleset: Option<String>,
    pub name: Option<String>,
    pub games: u32,
    pub wins: u32,
    /// The win rate's 95 % interval (Wilson's), and what a fair game gives the player's tables.
    pub win_low: Option<f64>,
    pub win_high: Option<f64>,
    pub fair_share: Option<f64>,
    pub rating: Option<f64>,
    /// How the rating moved over the player's last `TREND_GAMES` games (or over the games after their first,
    /// when they played no more); none after one game.
    pub rating_change: Option<f64>,
    pub trend_games: u32,
    /// Every aspect of play where the player is ahead of the field (the field outside their interval), surest
    /// first.
    pub strengths: Vec<Cue>,
    /// Where the player is furthest behind it.
    pub weaknesses: Vec<Cue>,
}

/// One number where a player differs from the field: better or worse, by how much, over how many seats.
#[derive(Debug, Clone, Serialize)]
pub struct Cue {
    pub label: String,
    pub mine: f64,
    pub field: f64,
    pub seats: u64,
    /// The player's mean's 95 % interval.
    pub low: f64,
    pub high: f64,
    /// Better than the field (for this number, lower may be better).
    pub better: bool,
    /// How many standard errors the player's mean stands from the field's (signed: above zero, better).
    pub z: f64,
}

/// The games a rating's trend is read over.
pub const TREND_GAMES: u32 = 5;

/// The fewest seats a cue is read from.
const CUE_SEATS: u64 = 3;

/// How a player plays one game, each number the mean over their published games beside the field's.
#[derive(Debug, Clone, Serialize)]
pub struct Profile {
    pub ruleset: String,
    pub name: String,
    /// The score at the end of every fifth turn.
    pub score_by_turn: Vec<Versus>,
    /// Items produced per turn, in all and by item.
    pub production: Vec<Versus>,
    /// Cards lost, by cause (a steal, a discard ...).
    pub losses: Vec<Versus>,
    /// Final points by what scored them.
    pub points: Vec<Versus>,
    /// Trades per turn and trades with the winner.
    pub trading: Vec<Versus>,
    /// Who the player traded with (other players and markets), most trades first.
    pub partners: Vec<TradePartner>,
    /// The player's openings, most played first, with their win rate.
    pub openings: Vec<OpeningLine>,
    /// Win chances, in percent (where the ruleset has a model): gained per own turn, then at the end of every
    /// fifth turn.
    pub chances: Vec<Versus>,
    /// Whom "the field" is: the player's peers (people beside a person, programs beside a program), with how
    /// many seats and games it stands on.
    pub field: Option<almanac_store::FieldOf>,
}

/// One number: the player's mean, the field's, and how many of the player's seats it is over.
#[derive(Debug, Clone, Serialize)]
pub struct Versus {
    /// The metric's argument (a turn, an item, a cause, a reason; empty for none).
    pub key: String,
    pub label: String,
    pub mine: f64,
    pub field: Option<f64>,
    pub seats: u64,
    /// The player's mean's 95 % interval (none for one seat), within the range the metric's values keep
    /// to (`almanac_analysis::intervals`).
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The mean's standard error (none for one seat).
    pub se: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TradePartner {
    /// Another player, or none for a market.
    pub player: Option<PlayerId>,
    pub name: String,
    pub trades: f64,
    pub cards_given: f64,
    pub cards_got: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct OpeningLine {
    pub opening: String,
    pub seats: u64,
    pub win_rate: f64,
}

/// The player's profiles, from the read model kept for questions (no game is replayed).
fn profiles(store: &Store, me: &VisiblePlayer, rulesets: &[&str]) -> Result<Vec<Profile>, ServiceError> {
    use almanac_analysis::questions as q;
    let partners = [q::TRADES_WITH, q::CARDS_GIVEN, q::CARDS_GOT];
    let almanac_store::PlayerProfile { numbers, fields, partners: totals, openings } =
        store.player_profile(me, &partners, q::WON)?;
    let mut out = Vec::new();
    for &ruleset in rulesets {
        let Some(kind) = almanac_engine::game_kind(ruleset) else { continue };
        let vocabulary = kind.vocabulary();
        let label_in = |terms: &[almanac_core::Term], id: &str| {
            terms.iter().find(|t| t.id == id).map_or_else(|| id.to_string(), |t| t.label.to_string())
        };
        let of = |metric: &str, label: &dyn Fn(&str) -> String| -> Vec<Versus> {
            numbers
                .iter()
                .filter(|n| n.ruleset == ruleset && n.metric == metric)
                .map(|n| {
                    let interval =
                        q::metric_named(metric).and_then(|m| m.interval(n.mean, n.variance, n.seats, n.players));
                    Versus {
                        key: n.arg.clone(),
                        label: label(&n.arg),
                        mine: n.mean,
                        field: n.field,
                        seats: n.seats,
                        low: interval.map(|i| i.0),
                        high: interval.map(|i| i.1),
                        se: almanac_analysis::intervals::standard_error(n.variance, n.seats),
                    }
                })
                .collect()
        };
        let mut score_by_turn = of(q::SCORE_AT_TURN, &|t| format!("turn {t}"));
        score_by_turn.sort_by_key(|v| v.key.parse::<u32>().unwrap_or(0));
        // Production in the order the game declares its items, everything first.
        let mut production = of(q::PRODUCTION_PER_TURN, &|i| {
            if i.is_empty() {
                "everything".to_string()
            } else {
                label_in(vocabulary.items, i)
            }
        });
        let order = |id: &str| vocabulary.items.iter().position(|t| t.id == id).map_or(0, |k| k + 1);
        production.sort_by_key(|v| order(&v.key));
        // Causes nobody loses cards to (production, a purchase) say nothing.
        let mut losses = of(q::LOST, &|c| label_in(vocabulary.causes, c));
        losses.retain(|v| v.mine != 0.0 || v.field.is_some_and(|f| f != 0.0));
        let points = of(q::POINTS, &|p| label_in(vocabulary.score_reasons, p));
        production.extend(of(q::LUCK, &|_| "luck: cards above the dice's promise, per game".to_string()));
        let mut trading = of(q::TRADES_PER_TURN, &|_| "trades per turn".to_string());
        trading.extend(of(q::TRADES_WITH_WINNER, &|_| "trades with the winner".to_string()));
        let mut by_partner: BTreeMap<(Option<PlayerId>, String), TradePartner> = BTreeMap::new();
        for t in totals.iter().filter(|t| t.ruleset == ruleset) {
            let name = match (&t.name, &t.market) {
                (Some(n), _) => n.clone(),
                (None, Some(m)) => label_in(vocabulary.partners, m),
                (None, None) => continue,
            };
            let entry = by_partner.entry((t.player, name.clone())).or_insert_with(|| TradePartner {
                player: t.player,
                name,
                trades: 0.0,
                cards_given: 0.0,
                cards_got: 0.0,
            });
            match t.metric.as_str() {
                m if m == q::TRADES_WITH => entry.trades += t.total,
                m if m == q::CARDS_GIVEN => entry.cards_given += t.total,
                _ => entry.cards_got += t.total,
            }
        }
        let mut partners: Vec<TradePartner> = by_partner.into_values().filter(|p| p.trades > 0.0).collect();
        partners.sort_by(|a, b| b.trades.total_cmp(&a.trades).then(a.name.cmp(&b.name)));
        let mut openings: Vec<OpeningLine> = openings
            .iter()
            .filter(|o| o.ruleset == ruleset)
            .filter_map(|o| Some(OpeningLine { opening: o.opening.clone()?, seats: o.seats, win_rate: o.mean }))
            .collect();
        openings.sort_by(|a, b| b.seats.cmp(&a.seats).then(b.win_rate.total_cmp(&a.win_rate)));
        let percent = |mut v: Vec<Versus>| -> Vec<Versus> {
            for x in &mut v {
                x.mine *= 100.0;
                x.field = x.field.map(|f| f * 100.0);
                x.low = x.low.map(|f| f * 100.0);
                x.high = x.high.map(|f| f * 100.0);
            }
            v
        };
        // Decision accuracy first (0–100 as it is), then the chances in percent.
        let mut chances = of(q::DECISION_ACCURACY, &|_| "decision accuracy (0–100)".to_string());
        chances
            .extend(percent(of(q::CHANCE_GAINED, &|_| "chance gained per own turn (points of percent)".to_string())));
        let mut at_turn = percent(of(q::CHANCE_AT_TURN, &|t| format!("chance to win at the end of turn {t} (%)")));
        at_turn.sort_by_key(|v| v.key.parse::<u32>().unwrap_or(0));
        chances.extend(at_turn);
        out.push(Profile {
            ruleset: ruleset.to_string(),
            name: game_name(ruleset),
            score_by_turn,
            production,
            losses,
            points,
            trading,
            partners,
            openings,
            chances,
            field: fields.iter().find(|f| f.ruleset == ruleset).cloned(),
        });
    }
    Ok(out)
}

#[derive(Debug, Clone, Serialize)]
pub struct RulesetRecord {
    pub ruleset: String,
    /// The game's name (the ruleset id when this build does not know it).
    pub name: String,
    pub games: u32,
    pub wins: u32,
    /// The average final score, of the games that recorded one.
    pub average_score: Option<f64>,
    /// The average finishing place (1 = first).
    pub average_place: f64,
}

/// One game as a player played it.
#[derive(Debug, Clone, Serialize)]
pub struct Played {
    pub game: String,
    pub ruleset: String,
    pub title: Option<String>,
    pub played_on: Option<String>,
    pub players: u32,
    pub score: Option<i64>,
    /// 1 for first; players level share a place.
    pub place: u32,
    pub won: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Opponent {
    pub player: PlayerId,
    pub name: String,
    pub games: u32,
    /// Games in which the page's player finished ahead of this opponent, and behind.
    pub ahead: u32,
    pub behind: u32,
}

pub fn player_page(
    store: &Store,
    viewer: Viewer,
    id: PlayerId,
    memo: &RatingsMemo,
) -> Result<PlayerPage, ServiceError> {
    let (who, player) = visible(store, viewer, id)?;
    let me = player.id;
    let sittings = store.sittings(&who)?;
    let mut games = Vec::new();
    let mut per_ruleset: BTreeMap<String, (u32, u32, i64, u32, u32)> = BTreeMap::new();
    // Per ruleset, the sum over the player's games of 1 / players at the table: a fair game's wins.
    let mut fair: BTreeMap<String, f64> = BTreeMap::new();
    let mut met: BTreeMap<PlayerId, Opponent> = BTreeMap::new();
    for s in &sittings {
        let Some(i) = seat_of(s, me) else { continue };
        let mine = &s.seats[i];
        let won = s.winner.as_deref() == Some(mine.name.as_str());
        let my_place = place(s, i);
        *fair.entry(s.ruleset.clone()).or_default() += 1.0 / s.seats.len().max(1) as f64;
        let r = per_ruleset.entry(s.ruleset.clone()).or_default();
        r.0 += 1;
        r.1 += won as u32;
        if let Some(vp) = mine.vp {
            r.2 += vp;
            r.3 += 1;
        }
        r.4 += my_place;
        for (k, other) in s.seats.iter().enumerate().filter(|(_, o)| o.player != me) {
            let o = met.entry(other.player).or_insert_with(|| Opponent {
                player: other.player,
                name: other.name.clone(),
                games: 0,
                ahead: 0,
                behind: 0,
            });
            o.games += 1;
            let theirs = place(s, k);
            o.ahead += (my_place < theirs) as u32;
            o.behind += (my_place > theirs) as u32;
        }
        games.push(Played {
            game: s.game.clone(),
            ruleset: s.ruleset.clone(),
            title: s.title.clone(),
            played_on: s.played_on.clone(),
            players: s.seats.len() as u32,
            score: mine.vp,
            place: my_place,
            won,
        });
    }
    games.reverse();
    let mut rulesets: Vec<RulesetRecord> = per_ruleset
        .into_iter()
        .map(|(ruleset, (n, wins, vp, scored, places))| RulesetRecord {
            name: game_name(&ruleset),
            ruleset,
            games: n,
            wins,
            average_score: (scored > 0).then(|| vp as f64 / scored as f64),
            average_place: places as f64 / n as f64,
        })
        .collect();
    rulesets.sort_by(|a, b| b.games.cmp(&a.games).then(a.ruleset.cmp(&b.ruleset)));
    let mut opponents: Vec<Opponent> = met.into_values().collect();
    opponents.sort_by(|a, b| b.games.cmp(&a.games).then(a.name.cmp(&b.name)));
    let mut ratings = Vec::new();
    // A person's place is among people: programs' ratings are no one's rank (as on the leaderboard).
    let bots = if player.bot { Default::default() } else { store.bot_players()? };
    for r in &rulesets {
        let all = memo.ratings(store, &r.ruleset)?;
        let Some(mine) = all.current.get(&me) else { continue };
        let ranked = || all.current.iter().filter(|(id, _)| !bots.contains(id));
        // Ranked, as on the leaderboard, among the established only; a provisional rating is not ranked yet.
        let established = |id: &PlayerId| all.games.get(id).copied().unwrap_or(0) >= PROVISIONAL_GAMES;
        let games_needed = PROVISIONAL_GAMES.saturating_sub(all.games.get(&me).copied().unwrap_or(0));
        let rank = (games_needed == 0)
            .then(|| 1 + ranked().filter(|(id, o)| established(id) && o.shown() > mine.shown()).count() as u32);
        let rated = ranked().count() as u32;
        let history: Vec<[f64; 2]> =
            all.history[&me].iter().enumerate().map(|(k, (_, x))| [k as f64 + 1.0, x.shown()]).collect();
        // The day of each rated game: the player's games of the ruleset rated in the same order (played, then
        // stored), those of two players or more.
        let mut dates: Vec<Option<String>> = sittings
            .iter()
            .filter(|s| s.ruleset == r.ruleset && s.seats.len() >= 2 && seat_of(s, me).is_some())
            .map(|s| s.played_on.as_deref().map(|d| d.get(..10).unwrap_or(d).to_string()))
            .collect();
        if dates.len() != history.len() {
            dates = vec![None; history.len()];
        }
        ratings.push(RatingLine {
            ruleset: r.ruleset.clone(),
            name: r.name.clone(),
            rating: mine.shown(),
            mu: mine.mu,
            sigma: mine.sigma,
            rank,
            rated,
            games_needed,
            history,
            dates,
        });
    }
    let played: Vec<&str> = rulesets.iter().map(|r| r.ruleset.as_str()).collect();
    let profiles = profiles(store, &who, &played)?;
    let summary = summary_of(&rulesets, &fair, &ratings, &profiles);
    Ok(PlayerPage { player, rulesets, games, opponents, ratings, profiles, summary })
}

/// The summary of the game a player played most: its record with the win rate's interval beside a fair
/// game's, the rating and its move over the last games, and the numbers furthest from the field's (by how
/// many standard errors of the player's mean they stand from it, at least `CUE_SEATS` seats behind each).
fn summary_of(
    rulesets: &[RulesetRecord],
    fair: &BTreeMap<String, f64>,
    ratings: &[RatingLine],
    profiles: &[Profile],
) -> Summary {
    let Some(main) = rulesets.first() else {
        return Summary {
            ruleset: None,
            name: None,
            games: 0,
            wins: 0,
            win_low: None,
            win_high: None,
            fair_share: None,
            rating: None,
            rating_change: None,
            trend_games: 0,
            strengths: Vec::new(),
            weaknesses: Vec::new(),
        };
    };
    let win = almanac_analysis::intervals::wilson(main.wins as f64 / main.games.max(1) as f64, main.games as u64);
    let rating = ratings.iter().find(|r| r.ruleset == main.ruleset);
    let (change, trend_games) = match rating {
        // From the rating after the game `TREND_GAMES` back, or after the first game when there are no more:
        // not from the 0 every rating starts at (mu 25 − 3 · sigma 25/3), which would read a first win and
        // the fall after it as a rise.
        Some(r) if r.history.len() > 1 => {
            let n = r.history.len();
            let k = (n - 1).min(TREND_GAMES as usize);
            (Some(r.history[n - 1][1] - r.history[n - 1 - k][1]), k as u32)
        }
        _ => (None, 0),
    };
    // Strengths and weaknesses are aspects of play, each its own: how much one produces, what one loses to
    // each cause, the points one scores for each reason, how near one's decisions come to the best. The score
    // along the game and the chances to win restate the result, and are left to
    // the record above. A number is one only when the field's lies outside its interval.
    let mut cues: Vec<Cue> = Vec::new();
    if let Some(p) = profiles.iter().find(|p| p.ruleset == main.ruleset) {
        let mut consider = |v: &Versus, label: String, higher_is_better: bool| {
            let (Some(field), Some(low), Some(high), Some(se)) = (v.field, v.low, v.high, v.se) else { return };
            if v.seats < CUE_SEATS || se <= 0.0 {
                return;
            }
            let better = match almanac_analysis::intervals::against(Some((low, high)), field) {
                Comparison::Higher => higher_is_better,
                Comparison::Lower => !higher_is_better,
                Comparison::AboutTheSame | Comparison::Unknown => return,
            };
            let z = ((v.mine - field) / se).abs() * if better { 1.0 } else { -1.0 };
            cues.push(Cue { label, mine: v.mine, field, seats: v.seats, low, high, better, z });
        };
        for v in p.production.iter().filter(|v| v.key.is_empty() && v.label == "everything") {
            consider(v, "cards produced per turn".to_string(), true);
        }
        for v in &p.losses {
            consider(v, format!("cards lost to {} per game", v.label.to_lowercase()), false);
        }
        for v in &p.points {
            consider(v, format!("points from {} per game", v.label.to_lowercase()), true);
        }
        // Decision accuracy is an aspect of play; the chances along the game restate the result.
        for v in p.chances.iter().filter(|v| v.label.starts_with("decision accuracy")) {
            consider(v, v.label.clone(), true);
        }
    }
    cues.sort_by(|a, b| b.z.total_cmp(&a.z));
    // Every one the data tell apart from the field, as the page promises: none left out for want of room.
    let strengths: Vec<Cue> = cues.iter().filter(|c| c.z > 0.0).cloned().collect();
    let weaknesses: Vec<Cue> = cues.iter().rev().filter(|c| c.z < 0.0).cloned().collect();
    Summary {
        ruleset: Some(main.ruleset.clone()),
        name: Some(main.name.clone()),
        games: main.games,
        wins: main.wins,
        win_low: win.map(|w| w.0),
        win_high: win.map(|w| w.1),
        fair_share: fair.get(&main.ruleset).map(|f| f / main.games.max(1) as f64),
        rating: rating.map(|r| r.rating),
        rating_change: change,
        trend_games,
        strengths,
        weaknesses,
    }
}

/// The chart of a player's ratings, game by game, one line per game played.
pub fn rating_chart(store: &Store, viewer: Viewer, id: PlayerId, memo: &RatingsMemo) -> Result<String, ServiceError> {
    let page = player_page(store, viewer, id, memo)?;
    let series: Vec<almanac_charts::RatingSeries> = page
        .ratings
        .into_iter()
        .map(|r| almanac_charts::RatingSeries { game: r.name, history: r.history, dates: r.dates })
        .collect();
    Ok(almanac_charts::rating_history(&page.player.name, &series)?)
}

/// A player's score by turn against the field's in one ruleset, as SVG.
pub fn curve_chart(store: &Store, viewer: Viewer, id: PlayerId, ruleset: &str) -> Result<String, ServiceError> {
    let (who, player) = visible(store, viewer, id)?;
    let found = profiles(store, &who, &[ruleset])?;
    let profile = found.first().filter(|p| !p.score_by_turn.is_empty()).ok_or_else(|| {
        ServiceError::Store(almanac_store::StoreError::NotFound(format!("{} has no {ruleset} games", player.name)))
    })?;
    let turn = |v: &Versus| v.key.parse::<f64>().unwrap_or(0.0);
    let mine: Vec<(f64, f64)> = profile.score_by_turn.iter().map(|v| (turn(v), v.mine)).collect();
    let field: Vec<(f64, f64)> = profile.score_by_turn.iter().filter_map(|v| Some((turn(v), v.field?))).collect();
    let score = almanac_engine::game_kind(ruleset).map_or("score", |k| k.vocabulary().score.id);
    let caption = format!("{}'s {} score by turn against the field", player.name, profile.name);
    Ok(almanac_charts::score_curve(&caption, &player.name, score, &mine, &field)?)
}
