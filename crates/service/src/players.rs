//! Players across games, as coaches read them: a player's record per game and ruleset, the opponents met,
//! and two players side by side. Only published games count (the store's `sittings`).

use crate::ServiceError;
use almanac_analysis::ratings::{rate, Placing, Ratings};
use almanac_store::{ClubId, Identity, PlayerId, Sitting, Store};
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
}

/// A player's rating in one game, and how it went.
#[derive(Debug, Clone, Serialize)]
pub struct RatingLine {
    pub ruleset: String,
    pub name: String,
    /// The rating shown: `mu − 3·sigma`.
    pub rating: f64,
    pub mu: f64,
    pub sigma: f64,
    /// The place among every player rated in this ruleset (1 = highest).
    pub rank: u32,
    pub rated: u32,
    /// The rating after each of the player's games, `[game number, rating]`.
    pub history: Vec<[f64; 2]>,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct Leader {
    pub player: PlayerId,
    pub name: String,
    pub rating: f64,
    pub games: u32,
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

/// Two players side by side: the games they shared and who finished ahead.
#[derive(Debug, Clone, Serialize)]
pub struct HeadToHead {
    pub a: Identity,
    pub b: Identity,
    pub games: Vec<Shared>,
    pub a_ahead: u32,
    pub b_ahead: u32,
    pub level: u32,
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

/// The place of the seat at `i`: one more than the seats with a higher score (a seat without one is last).
fn place(s: &Sitting, i: usize) -> u32 {
    let score = |k: usize| s.seats[k].vp.unwrap_or(i64::MIN);
    1 + (0..s.seats.len()).filter(|&k| score(k) > score(i)).count() as u32
}

fn seat_of(s: &Sitting, id: PlayerId) -> Option<usize> {
    s.seats.iter().position(|seat| seat.player == id)
}

fn identity(store: &Store, id: PlayerId) -> Result<Identity, ServiceError> {
    store.identity(id)?.ok_or(ServiceError::Store(almanac_store::StoreError::NoPlayer(id)))
}

fn game_name(ruleset: &str) -> String {
    almanac_engine::game_kind(ruleset).map_or_else(|| ruleset.to_string(), |g| g.name().to_string())
}

pub fn player_page(store: &Store, id: PlayerId) -> Result<PlayerPage, ServiceError> {
    let player = identity(store, id)?;
    let me = player.id;
    let sittings = store.sittings(me)?;
    let mut games = Vec::new();
    let mut per_ruleset: BTreeMap<String, (u32, u32, i64, u32, u32)> = BTreeMap::new();
    let mut met: BTreeMap<PlayerId, Opponent> = BTreeMap::new();
    for s in &sittings {
        let Some(i) = seat_of(s, me) else { continue };
        let mine = &s.seats[i];
        let won = s.winner.as_deref() == Some(mine.name.as_str());
        let my_place = place(s, i);
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
    for r in &rulesets {
        let all = ratings_of(store, &r.ruleset)?;
        let Some(mine) = all.current.get(&me) else { continue };
        let rank = 1 + all.current.values().filter(|o| o.shown() > mine.shown()).count() as u32;
        let history = all.history[&me].iter().enumerate().map(|(k, (_, x))| [k as f64 + 1.0, x.shown()]).collect();
        ratings.push(RatingLine {
            ruleset: r.ruleset.clone(),
            name: r.name.clone(),
            rating: mine.shown(),
            mu: mine.mu,
            sigma: mine.sigma,
            rank,
            rated: all.current.len() as u32,
            history,
        });
    }
    Ok(PlayerPage { player, rulesets, games, opponents, ratings })
}

/// Every player's rating in a ruleset, over its published games in the order they were played.
fn ratings_of(store: &Store, ruleset: &str) -> Result<Ratings, ServiceError> {
    let placings: Vec<Placing> = store
        .ruleset_sittings(ruleset)?
        .iter()
        .map(|s| Placing { players: (0..s.seats.len()).map(|i| (s.seats[i].player, place(s, i))).collect() })
        .collect();
    Ok(rate(&placings))
}

/// The players of a ruleset by rating, highest first: all of them, or those of one club's games.
pub fn leaderboard(store: &Store, ruleset: &str, club: Option<&str>) -> Result<Vec<Leader>, ServiceError> {
    let all = ratings_of(store, ruleset)?;
    let mut out = Vec::new();
    for (&player, r) in &all.current {
        let Some(who) = store.identity(player)? else { continue };
        if club.is_some_and(|c| who.club.as_deref() != Some(c)) {
            continue;
        }
        out.push(Leader { player, name: who.name, rating: r.shown(), games: all.games[&player] });
    }
    out.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.name.cmp(&b.name)));
    Ok(out)
}

pub fn head_to_head(store: &Store, a: PlayerId, b: PlayerId) -> Result<HeadToHead, ServiceError> {
    let (a, b) = (identity(store, a)?, identity(store, b)?);
    let mut h = HeadToHead { games: Vec::new(), a_ahead: 0, b_ahead: 0, level: 0, a, b };
    for s in store.sittings(h.a.id)? {
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

/// Merges the spelling `from` into the player `into`, for `club` (`None`: the operator).
pub fn merge_players(
    store: &mut Store,
    club: Option<ClubId>,
    into: PlayerId,
    from: PlayerId,
) -> Result<Identity, ServiceError> {
    let root = store.merge_players(club, into, from)?;
    identity(store, root)
}

/// The chart of a player's ratings, game by game, one line per game played.
pub fn rating_chart(store: &Store, id: PlayerId) -> Result<String, ServiceError> {
    let page = player_page(store, id)?;
    let series: Vec<(String, Vec<[f64; 2]>)> = page.ratings.into_iter().map(|r| (r.name, r.history)).collect();
    Ok(almanac_charts::rating_history(&page.player.name, &series)?)
}
